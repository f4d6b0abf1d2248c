/**
 * result.md's account of the brief as a checklist (issue 41): the must-haves with their quotes (and any dropped), and under
 * each remix its tally with every failed item, its quote and the reason; with repeated checks, each item's agreement.
 * Model and member text goes through `md` (inert).
 */
import type { Checklist, Remix } from '../../record/record';

export function checklistSection(list: Checklist, md: (s: string) => string): string[] {
  const out = [
    `## The brief as a checklist`,
    '',
    `Each remix is checked ${list.repeat === 1 ? 'once' : `${list.repeat} times independently`} against these must-haves of the brief:`,
    '',
  ];
  for (const i of list.items) out.push(`- ${i.id}: ${md(i.text)} — brief: "${md(i.quote)}"`);
  if (list.items.length === 0) out.push('- none (no must-have had a quote found in brief.md)');
  for (const d of list.dropped ?? []) out.push(`- Dropped (quote not in brief.md): ${md(d.text)} — "${md(d.quote)}"`);
  out.push('');
  return out;
}

export function remixChecksLines(remix: Remix, list: Checklist | undefined, md: (s: string) => string): string[] {
  if (!remix.checks?.length || !list) return [];
  const n = (r: string) => remix.checks!.filter((c) => c.result === r).length;
  const out = [`Checked against the brief: ${n('pass')} pass, ${n('fail')} fail, ${n('unclear')} unclear.`, ''];
  for (const c of remix.checks.filter((x) => x.result !== 'pass')) {
    const item = list.items.find((i) => i.id === c.item);
    out.push(
      `- ${c.result === 'fail' ? 'Failed' : 'Unclear'} ${md(c.item)}: ${md(item?.text ?? '')} — brief: "${md(item?.quote ?? '')}" (${md(c.reason)}${c.agreement !== undefined ? `; agreement ${Math.round(c.agreement * 100)}%` : ''})`,
    );
  }
  if (remix.checks.some((c) => c.agreement !== undefined)) {
    out.push(
      `- Agreement of the repeated checks: ${remix.checks.map((c) => `${md(c.item)} ${Math.round((c.agreement ?? 1) * 100)}%`).join(', ')}`,
    );
  }
  out.push('');
  return out;
}
