/**
 * Who wrote each member's file (issue 39), once near the top of the Overview: what `validate --json` says as `authorship`.
 * Nothing is checked: one sentence why. Files not counted: how many, and each with the commit and author that made it so.
 * Nothing when everything counts. Member text, so everything goes in as text.
 */
import { h } from '../../dom';
import type { ViewContext } from '../../context';
import type { PanelAuthorship } from '../../../../src/protocol/panelData';

type NotCounted = PanelAuthorship['notCounted'][number];

/** The words of the notice: a head sentence and the list under it; undefined when there is nothing to say. */
export function authorshipWords(a: PanelAuthorship | undefined): { head: string; items: string[] } | undefined {
  if (!a) return undefined;
  if (!a.checked) {
    // The core's sentence names what is not checked itself ("Who wrote each member's file is not checked: …"): said once.
    const why = (a.why ?? '').replace(/^[^:]*?(?:is not checked|could not be asked):\s*/, '').trim();
    return { head: `Authorship is not checked: ${why || 'no reason was given.'}`, items: [] };
  }
  const total = a.notCounted.length + a.more;
  if (total === 0) return undefined;
  const items = a.notCounted.map(notCountedLine);
  if (a.more > 0) items.push(`… and ${a.more} more (teamfusion validate lists them all).`);
  return { head: total === 1 ? '1 file does not count for its member' : `${total} files do not count for their member`, items };
}

/** "rankings/ben.yaml — commit 0123456789ab by ana@x.org: <reason>". */
export function notCountedLine(n: NotCounted): string {
  const by = n.author ? ` by ${n.author}` : '';
  const made =
    n.commit === '(uncommitted)' ? `changes not committed yet${by}` : n.commit ? `commit ${n.commit.slice(0, 12)}${by}` : by.trim();
  return `${n.file}${made ? ` — ${made}` : ''}: ${n.reason}`;
}

/** The notice, or null when authorship is checked and every file counts. */
export function authorshipView(ctx: ViewContext): HTMLElement | null {
  const words = authorshipWords(ctx.state.authorship);
  if (!words) return null;
  return h(
    'div',
    { class: words.items.length ? 'tf-notice tf-notice-warning' : 'tf-notice', id: 'tf-authorship', role: 'status' },
    h('p', {}, words.head),
    words.items.length ? h('ul', {}, ...words.items.map((t) => h('li', {}, t))) : null,
  );
}
