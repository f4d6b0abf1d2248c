// The harness's runCommand (test/harness/codeServer.ts) against a pretend workbench: when an attempt fails, the palette
// is closed through the quick input itself, never by an Escape that lands in the editor and clears its selection; a modal
// editor that keeps F1 from the palette is closed by Escape.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { runCommand } from '../../harness/codeServer';

interface Bench {
  page: Page;
  /** What the editor has selected; an Escape that reaches the editor collapses it to the cursor. */
  selection: string;
  /** The selection each run of the command saw. */
  ran: string[];
  escapes: { to: 'palette' | 'editor' | 'modal' }[];
}

/**
 * A workbench whose palette opens only on the `opensOnF1`-th F1 (the earlier ones are too slow for the attempt's wait)
 * and lists the command only from its `listsFrom`-th opening on (commands registered late).
 */
function bench(o: { opensOnF1: number; listsFrom: number; modal?: boolean }): Bench {
  let f1 = 0;
  /** A modal editor (Running Extensions) has the focus: F1 does not reach the palette until Escape closes it. */
  let modal = o.modal ?? false;
  let openings = 0;
  let visible = false;
  const b: Bench = { page: undefined as unknown as Page, selection: 'lines 6-7', ran: [], escapes: [] };
  const fail = (what: string) => Promise.reject(new Error(`Timeout: ${what}`));
  const escape = () => {
    if (modal) {
      modal = false;
      b.escapes.push({ to: 'modal' });
    } else if (visible) {
      visible = false;
      b.escapes.push({ to: 'palette' });
    } else {
      b.escapes.push({ to: 'editor' });
      b.selection = 'the cursor only';
    }
  };
  const input = {
    isVisible: () => Promise.resolve(visible),
    waitFor: () => (visible ? Promise.resolve() : fail('palette input')),
    fill: () => (visible ? Promise.resolve() : fail('fill')),
    // A locator's press focuses its element first: the key goes to the quick input while it shows.
    press: (key: string) => {
      if (key === 'Escape') escape();
      return Promise.resolve();
    },
  };
  const listed = () => visible && openings >= o.listsFrom;
  const row = {
    first: () => row,
    waitFor: () => (listed() ? Promise.resolve() : fail('row')),
    click: () => {
      if (!listed()) return fail('click');
      visible = false;
      b.ran.push(b.selection);
      return Promise.resolve();
    },
  };
  b.page = {
    locator: (selector: string) => (selector.includes('monaco-list-row') ? row : input),
    keyboard: {
      press: (key: string) => {
        if (key === 'F1' && !modal && ++f1 >= o.opensOnF1 && !visible) {
          visible = true;
          openings++;
        }
        // The page's keyboard types into whatever has focus: the palette when it shows, else the editor.
        if (key === 'Escape') escape();
        return Promise.resolve();
      },
    },
    waitForTimeout: () => Promise.resolve(),
    // Where the focus is: in the modal while it shows, else in the text editor.
    evaluate: () => Promise.resolve(!modal),
  } as unknown as Page;
  return b;
}

describe('e2e harness: runCommand', () => {
  it('retries a palette that was slow to open without pressing Escape into the editor (the selection survives)', async () => {
    const b = bench({ opensOnF1: 3, listsFrom: 1 });
    await runCommand(b.page, 'TeamFusion: Comment on the Brief');
    assert.deepEqual(b.ran, ['lines 6-7']);
    assert.deepEqual(
      b.escapes.filter((e) => e.to === 'editor'),
      [],
      'no Escape reached the editor',
    );
  });

  it('closes a palette that does not list the command yet through the palette itself, then opens it again', async () => {
    const b = bench({ opensOnF1: 1, listsFrom: 3 });
    await runCommand(b.page, 'TeamFusion: Comment on the Brief');
    assert.deepEqual(b.ran, ['lines 6-7']);
    assert.deepEqual(b.escapes, [{ to: 'palette' }, { to: 'palette' }]);
  });

  it('closes a modal editor that keeps F1 from the palette with Escape, then runs the command', async () => {
    const b = bench({ opensOnF1: 1, listsFrom: 1, modal: true });
    await runCommand(b.page, 'View: Close Editor');
    assert.deepEqual(b.ran, ['lines 6-7']);
    assert.deepEqual(b.escapes, [{ to: 'modal' }]);
  });
});
