/**
 * The review panel in a real VS Code (code-server + Chromium): analysis, a live run against the local mock model
 * server, refine, the ranking form, restore after reload, hostile text, screenshots in dark and light themes.
 *
 * Needs `npm run build` (dist/) and `npm run compile-tests`. Run:
 *   npx mocha --no-config --timeout 600000 out/test/e2e/panel.e2e.js
 * Screenshots land in .test-output/screenshots/.
 */
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { runCommand } from '../harness/codeServer';
import { waitFor } from '../support/waitFor';
import { HOSTILE_BRIEF, HOSTILE_JUSTIFICATION, HOSTILE_MODEL_TEXT } from './support/hostile';
import { cliOutput, copySample, e2eSuite, makeLargeReview, patchReviewYaml, streamProxyTurns, until } from './support/suite';
import {
  DARK,
  command,
  markTyping,
  openReview,
  showTab,
  pwnedFrames,
  setColorTheme,
  setColorThemeByPalette,
  themeSettingsId,
  themeShows,
  typedInto,
  screenshot,
  waitForPanel,
  waitInFrame,
  shootBothThemes,
  requireBuilt,
  untilStateKept,
  webviewPosts,
} from './support/workbench';

interface AnalyzeJson {
  kendall: { w: number; pValue: number };
}

function analyzeJson(review: string): AnalyzeJson {
  return JSON.parse(cliOutput(['analyze', review, '--json'])) as AnalyzeJson;
}

/** The sample (short runs: one turn each; iteration 1 makes remix r1, iteration 2 is the final pick, refine adds 3 and 4). */
async function makeReview(ws: string, name: string, o: { title?: string; hostile?: boolean }): Promise<string> {
  const dir = await copySample(ws, name, { ...(o.title ? { title: o.title } : {}), turnsPerAgent: 1, iterations: 2 });
  if (o.hostile) {
    await fs.writeFile(path.join(dir, 'brief.md'), HOSTILE_BRIEF);
    const file = path.join(dir, 'rankings', 'ana.yaml');
    const ranking = parseYaml(await fs.readFile(file, 'utf8')) as { ranking: { justification: string }[] };
    ranking.ranking[0]!.justification = HOSTILE_JUSTIFICATION;
    await fs.writeFile(file, stringifyYaml(ranking));
  }
  return dir;
}

describe('review panel in a real VS Code (code-server)', function () {
  this.timeout(600_000);
  const s = e2eSuite('panel');
  let sample = '';
  let panel: Frame;

  /** Dark screenshot, then the same in the light theme, then back to dark. */
  const shoot = (name: string, prepare?: () => Promise<void>): Promise<void> => shootBothThemes(s.page, name, prepare);

  before(async function () {
    requireBuilt(['dist/extension.js', 'dist/cli.js', 'dist/webview/panel.js']);
    const ws = await s.makeWorkspace();
    sample = await makeReview(ws, 'lumen-perfume', {});
    await makeReview(ws, 'hostile-review', { title: 'Hostile <img src=x onerror="window.__pwned=1"> review', hostile: true });
    await makeLargeReview(path.join(ws, 'large-review'), 50, 50);
    // review.yaml with one bad value (and a good title): the rankings are all valid.
    await patchReviewYaml(await makeReview(ws, 'broken-settings', { title: 'Broken settings' }), { iterations: 'many' });
    // Proxy turns stream slowly enough to be seen arriving.
    streamProxyTurns(await s.startMock(), 30);
    await s.startWorkbench({ settings: { 'teamfusion.turnsPerAgent': 1, 'teamfusion.iterations': 2 }, hideSideBar: true });
  });

  it('opens the sample review and shows the same Kendall W as `teamfusion analyze --json`', async () => {
    const page = s.page;
    panel = await openReview(page, 'lumen-perfume', 'Lumen');
    const shown = Number(await panel.locator('#tf-w').getAttribute('data-w'));
    const expected = analyzeJson(sample).kendall.w;
    assert.equal(shown, expected);
    assert.equal(await panel.locator('#tf-w').textContent(), expected.toFixed(3));
    assert.equal(await panel.locator('td.tf-cell[data-designer]').count(), 4 * 6);
    // The first state came with the page (a JSON data block) and was drawn before the page said `ready`: no round trip.
    const first = await panel.evaluate(() => ({
      state: JSON.parse(document.getElementById('tf-state')?.textContent ?? 'null') as {
        title?: string;
        review?: { designers: unknown[] };
      } | null,
      marks: JSON.parse(document.body.dataset.marks ?? '{}') as Record<string, number>,
    }));
    assert.equal(first.state?.title, await panel.locator('#tf-title').textContent());
    assert.equal(first.state?.review?.designers.length, 4);
    assert.ok(
      first.marks.state !== undefined && first.marks.ready !== undefined && first.marks.state <= first.marks.ready,
      JSON.stringify(first.marks),
    );
    // No image holds the panel back (VS Code shows a webview at its load): the page loaded and its first frame was
    // painted before any image was asked for, and every image is lazy; the thumbnails still fill in.
    await waitInFrame(
      panel,
      () => [...document.querySelectorAll<HTMLImageElement>('.tf-head-thumb')].every((i) => i.complete && i.naturalWidth > 0),
      'the grid thumbnails loaded',
    );
    const images = await panel.evaluate(() => {
      const loadAt = (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventStart;
      const asked = performance
        .getEntriesByType('resource')
        .filter((r) => (r as PerformanceResourceTiming).initiatorType === 'img')
        .map((r) => r.startTime);
      const paintedAt = performance.getEntriesByName('tf:painted')[0]?.startTime ?? Infinity;
      return {
        loadAt,
        paintedAt,
        asked,
        eager: [...document.querySelectorAll('img')].filter((i) => i.getAttribute('loading') !== 'lazy').length,
      };
    });
    assert.ok(images.asked.length >= 6, JSON.stringify(images));
    assert.ok(
      images.asked.every((t) => t >= images.loadAt && t >= images.paintedAt),
      JSON.stringify(images),
    );
    assert.equal(images.eager, 0);
    const tip = await panel.locator('td.tf-cell[data-designer]').first().getAttribute('aria-label');
    assert.ok(tip && tip.length > 10, "the justification is in the cell's label (the tooltip shows it on hover and focus)");
    await panel.locator('td.tf-cell[data-designer]').first().focus();
    assert.equal(await panel.locator('#tf-heat-tip').isVisible(), true, 'justification on keyboard focus');
    await screenshot(page, '01-overview-tooltip-dark');
    await panel.locator('#tf-title').click();
    await shoot('01-overview');
    // The one switch made the way a user makes it (the palette's "Preferences: Color Theme"); every other test opens the
    // theme picker with its keys (cheaper). The choice lands in the user settings (VS Code writes them a moment after the
    // theme shows) under the id the theme's name has, and the workbench and the panel wear it.
    await setColorThemeByPalette(page, 'Dark High Contrast');
    const settingsFile = path.join(s.w.server.userDataDir, 'User', 'settings.json');
    let chosen: unknown;
    await waitFor(
      "the palette's theme choice in the user settings",
      async () => {
        chosen = await fs.readFile(settingsFile, 'utf8').then(
          (t) => (JSON.parse(t) as Record<string, unknown>)['workbench.colorTheme'],
          () => undefined,
        );
        return chosen === themeSettingsId('Dark High Contrast');
      },
      undefined,
      () => `workbench.colorTheme is ${JSON.stringify(chosen)}`,
    );
    assert.equal(await themeShows(page, 'Dark High Contrast'), true);
    assert.equal(
      await panel.evaluate(() => document.body.classList.contains('vscode-high-contrast')),
      true,
      'the panel wears the high-contrast theme',
    );
    await screenshot(page, '01-overview-high-contrast');
    await setColorTheme(page, DARK);
    await panel.evaluate(() => document.getElementById('tf-consensus')?.scrollIntoView());
    await shoot('02-consensus');
    await panel.evaluate(() => window.scrollTo(0, 0));
  });

  it('the heatmap tooltip follows hover and focus, never covers or takes the pointer from the cells around it, and closes on leave and Escape', async () => {
    const page = s.page;
    await showTab(panel, 'overview');
    await panel.locator('#tf-title').click(); // the webview has keyboard focus, nothing in the grid does
    const cellSel = (designer: string, option: string) => `td.tf-cell[data-designer="${designer}"][data-option="${option}"]`;
    const ids = await panel.evaluate(() => {
      const rows = [...document.querySelectorAll('table.tf-heat tbody tr')].map((r) =>
        [...r.querySelectorAll<HTMLElement>('td.tf-cell[data-designer]')].map((c) => [c.dataset.designer!, c.dataset.option!] as const),
      );
      return { first: rows[0]![1]!, right: rows[0]![2]!, below: rows[1]![1]! };
    });
    const hidden = () => (document.getElementById('tf-heat-tip') as HTMLElement).hidden;
    /** Waits (a condition, under a ceiling for a loaded machine) for the tooltip to be open for that cell. */
    const shownFor = async (designer: string, option: string) => {
      await panel
        .waitForFunction(
          ([d, o]) =>
            !(document.getElementById('tf-heat-tip') as HTMLElement).hidden &&
            document.querySelector(`td.tf-cell[data-designer="${d}"][data-option="${o}"]`)?.getAttribute('aria-describedby') ===
              'tf-heat-tip',
          [designer, option] as const,
          { timeout: 60_000, polling: 100 },
        )
        .catch((e: unknown) => {
          throw new Error(`the tooltip for ${designer}/${option} did not open: ${String(e)}`);
        });
    };
    await panel.locator(cellSel(...ids.first)).hover();
    await shownFor(...ids.first);
    // While it is open: what lies under the tooltip, and what the pointer finds at the centres of the cells around it.
    const checked = await panel.evaluate(
      ({ first, around }) => {
        const tip = document.getElementById('tf-heat-tip')!;
        const t = tip.getBoundingClientRect();
        const centreHits = around.map((sel) => {
          const b = document.querySelector<HTMLElement>(sel)!.getBoundingClientRect();
          return document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2) === document.querySelector(sel);
        });
        const overlapping = [...document.querySelectorAll('td.tf-cell')].filter((c) => {
          const b = c.getBoundingClientRect();
          return b.left < t.right && b.right > t.left && b.top < t.bottom && b.bottom > t.top;
        }).length;
        return {
          describes: document.querySelector(first)!.getAttribute('aria-describedby'),
          text: tip.textContent ?? '',
          centreHits,
          overlapping,
        };
      },
      { first: cellSel(...ids.first), around: [cellSel(...ids.below), cellSel(...ids.right)] },
    );
    assert.equal(checked.describes, 'tf-heat-tip');
    assert.ok(checked.text.includes('ranked'), checked.text);
    assert.deepEqual(checked.centreHits, [true, true], 'the cells below and beside it are what the pointer finds at their centres');
    assert.equal(checked.overlapping, 0, 'the tooltip lies over no cell of the grid');
    await screenshot(page, '01-heat-tooltip-hover-dark');
    // The real pointer, moved onto the neighbouring cells while the tooltip is open, reaches them: the tooltip follows.
    await panel.locator(cellSel(...ids.below)).hover();
    await shownFor(...ids.below);
    await panel.locator(cellSel(...ids.right)).hover();
    await shownFor(...ids.right);
    // Escape closes it.
    await page.keyboard.press('Escape');
    await waitInFrame(panel, hidden, 'Escape to close the tooltip', 60_000);
    // Shows again on hover, closes when the pointer leaves the grid.
    await panel.locator(cellSel(...ids.first)).hover();
    await shownFor(...ids.first);
    await panel.locator('#tf-title').hover();
    await waitInFrame(panel, hidden, 'the tooltip to close on pointer leave', 60_000);
    // Keyboard: follows focus, Escape closes it.
    await panel.locator(cellSel(...ids.first)).focus();
    await shownFor(...ids.first);
    await page.keyboard.press('ArrowDown');
    await shownFor(...ids.below);
    await page.keyboard.press('Escape');
    await waitInFrame(panel, hidden, 'Escape to close the focus tooltip', 60_000);
    await panel.locator('#tf-title').click();
  });

  it('runs against the mock server: the discussion streams in and the remix image shows', async () => {
    await showTab(panel, 'run');
    // Watch the discussion for a message that is still being written (text present, not complete).
    await panel.evaluate(() => {
      const log = document.getElementById('tf-discussion')!;
      new MutationObserver(() => {
        const s = log.querySelector('.tf-msg.tf-streaming .tf-msg-body');
        if (s && (s.textContent ?? '').length > 0) (window as Window & { __tfSawStreaming?: boolean }).__tfSawStreaming = true;
      }).observe(log, { subtree: true, childList: true, characterData: true });
    });
    await panel.locator('#tf-run').click();
    await waitInFrame(panel, () => document.querySelectorAll('.tf-msg').length > 0, 'a discussion message', 60_000);
    await waitInFrame(panel, () => (window as Window & { __tfSawStreaming?: boolean }).__tfSawStreaming === true, 'streamed text', 60_000);
    await screenshot(s.page, '03-run-streaming-dark');
    await waitInFrame(
      panel,
      () => {
        document.getElementById('tf-remixes')?.scrollIntoView();
        const img = document.querySelector<HTMLImageElement>('.tf-remix-card img');
        return !!img && img.complete && img.naturalWidth > 0;
      },
      'the remix image',
      180_000,
    );
    await waitInFrame(
      panel,
      () => document.querySelector('.tf-run-status vscode-badge')?.textContent === 'completed',
      'status completed',
      60_000,
    );
    const speakers = await panel.locator('.tf-msg').evaluateAll((els) => new Set(els.map((e) => e.getAttribute('data-speaker'))).size);
    assert.equal(speakers, 4, 'every proxy spoke');
    assert.deepEqual(s.mock.specErrors(), [], 'every request valid against the OpenAPI spec');
    await panel.evaluate(() => window.scrollTo(0, 0));
    await shoot('04-run-discussion');
    await panel.evaluate(() => document.getElementById('tf-remixes')?.scrollIntoView());
    await shoot('05-run-remix');
  });

  it('refines with feedback: the next iteration appears with the feedback and a new remix', async () => {
    // A state that comes in while the lead writes (a teammate's change; here the review's title changed on disk and back)
    // redraws the run tab around the Refine input, never the input: the same element keeps the text and the focus.
    await panel.locator('#tf-feedback textarea').fill('Keep the gold bottle');
    const writing = await markTyping(panel, 'tf-feedback');
    assert.equal(writing, true, 'the Refine input has the focus while the lead writes');
    const title = (parseYaml(await fs.readFile(path.join(sample, 'review.yaml'), 'utf8')) as { title: string }).title;
    await patchReviewYaml(sample, { title: `${title} (renamed)` });
    await waitInFrame(panel, () => (document.getElementById('tf-title')?.textContent ?? '').includes('(renamed)'), 'the new title', 60_000);
    await patchReviewYaml(sample, { title });
    await waitInFrame(
      panel,
      () => !(document.getElementById('tf-title')?.textContent ?? '').includes('(renamed)'),
      'the title back',
      60_000,
    );
    const after = await typedInto(panel, 'tf-feedback');
    assert.deepEqual(after, { same: true, focused: true, text: 'Keep the gold bottle' });

    await panel.locator('#tf-feedback textarea').fill('Keep the gold bottle, use a warmer evening sky.');
    await panel.locator('#tf-refine').click();
    // The first run had iterations 1 (remix r1) and 2 (final pick); refining adds iteration 3 (remix r2) and a new final pick.
    await waitInFrame(panel, () => !!document.querySelector('.tf-iteration[data-iteration="3"] .tf-msg'), 'iteration 3 messages', 120_000);
    await waitInFrame(
      panel,
      () =>
        document.querySelector('.tf-run-status vscode-badge')?.textContent === 'completed' &&
        document.querySelectorAll('.tf-remix-card').length >= 2,
      'the refined run completed with a second remix',
      180_000,
    );
    const feedback = await panel.locator('.tf-iteration[data-iteration="3"] .tf-feedback').textContent();
    assert.match(feedback ?? '', /warmer evening sky/);
    await panel.evaluate(() => document.querySelector('.tf-iteration[data-iteration="3"]')?.scrollIntoView());
    await shoot('06-refined');
  });

  it('adds a ranking through the form: the file is written and W updates', async () => {
    const before = Number(await panel.locator('#tf-w').getAttribute('data-w'));
    await showTab(panel, 'ranking');
    await panel.locator('#tf-rk-name input').fill('Eve Park');
    await panel.locator('#tf-rk-role input').fill('Illustrator');
    // Keyboard: option 4 from the 4th place to the top; a button: option 3 one down.
    const four = panel.locator('#tf-rank-list li[data-option="4"]');
    await four.focus();
    for (let i = 0; i < 3; i++) await s.page.keyboard.press('Alt+ArrowUp');
    assert.equal(await panel.locator('#tf-rank-list li').first().getAttribute('data-option'), '4');
    assert.equal(
      await panel.locator('#tf-rank-list li[data-option="4"]').evaluate((el) => el === document.activeElement),
      true,
      'focus follows the moved item',
    );
    await panel.locator('button[aria-label="Move Image 3 down"]').click();
    const order = await panel.locator('#tf-rank-list li').evaluateAll((els) => els.map((e) => e.getAttribute('data-option')));
    assert.deepEqual(order, ['4', '1', '2', '5', '3', '6']);
    // Saving with empty justifications is refused in the form.
    await panel.locator('#tf-rk-save').click();
    await waitInFrame(
      panel,
      () => document.querySelector('#tf-rk-feedback [role=alert]')?.textContent?.includes('justification') ?? false,
      'the missing-justification message',
      10_000,
    );
    for (const id of order) {
      await panel.locator(`vscode-textarea[data-option="${id}"] textarea`).fill(`Option ${id}: reason written in the e2e test.`);
    }
    await shoot('07-ranking-form');
    await panel.locator('#tf-rk-save').click();
    await waitInFrame(panel, () => document.querySelector('.tf-saved')?.textContent ?? '', 'the saved message', 30_000);
    const file = path.join(sample, 'rankings', 'eve-park.yaml');
    const written = parseYaml(await fs.readFile(file, 'utf8')) as {
      designer: string;
      role: string;
      ranking: { option: string; rank: number }[];
    };
    assert.equal(written.designer, 'Eve Park');
    assert.equal(written.role, 'Illustrator');
    assert.deepEqual(
      written.ranking.map((e) => [e.option, e.rank]),
      order.map((o, i) => [o, i + 1]),
    );
    const expected = analyzeJson(sample).kendall.w;
    assert.notEqual(expected, before);
    await showTab(panel, 'overview');
    const shownW = async () => Number(await panel.locator('#tf-w').getAttribute('data-w'));
    await until(s.page, 'the panel to show the new W', async () => (await shownW()) === expected).catch(() => undefined);
    const shown = await shownW();
    assert.equal(shown, expected, 'the panel shows the new W');
    assert.equal(await panel.locator('td.tf-cell[data-designer="eve-park"]').count(), 6);
    await shoot('08-overview-with-new-ranking');
  });

  it('keeps its state while hidden (no retainContextWhenHidden): tab and unsaved form', async () => {
    const page = s.page;
    await showTab(panel, 'ranking');
    await webviewPosts(panel);
    await panel.locator('#tf-rk-name input').fill('Unsaved Draft');
    // The form keeps its draft with setState a moment after the last key (debounced): hidden before that, it would be lost.
    await untilStateKept(panel, 'the unsaved draft', (state) => state.includes('Unsaved Draft'));
    const hidden = panel;
    await command(page, 'File: New Untitled Text File');
    await until(page, 'the hidden panel torn down', async () => hidden.isDetached(), 60_000);
    await command(page, 'View: Close Editor');
    panel = await waitForPanel(page, 'Lumen');
    const active = await panel.locator('vscode-tab-header[data-tab=ranking]').evaluate((el) => el.getAttribute('aria-selected') === 'true');
    assert.equal(active, true, 'the chosen tab comes back');
    assert.equal(await panel.locator('#tf-rk-name input').inputValue(), 'Unsaved Draft', 'the unsaved form comes back');
  });

  it('comes back after a window reload (the serializer restores it)', async () => {
    const page = s.page;
    await webviewPosts(panel);
    await showTab(panel, 'run');
    await untilStateKept(panel, 'the Run tab', (state) => (JSON.parse(state) as { tab?: string }).tab === 'run');
    // "Developer: Reload Window" shuts the workbench down properly (its storage is flushed), like a user's reload.
    await Promise.all([page.waitForNavigation({ timeout: 60_000 }), runCommand(page, 'Developer: Reload Window')]);
    await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
    panel = await waitForPanel(page, 'Lumen', 90_000);
    await waitInFrame(panel, () => document.querySelectorAll('.tf-msg').length > 0, 'the restored run', 30_000);
    const active = await panel.locator('vscode-tab-header[data-tab=run]').evaluate((el) => el.getAttribute('aria-selected') === 'true');
    assert.equal(active, true, 'the chosen tab is remembered across the reload');
    await shoot('09-restored');
  });

  it('cancels a run from the panel', async () => {
    await showTab(panel, 'run');
    const runs = (await fs.readdir(path.join(sample, 'runs'))).length;
    await panel.locator('#tf-run').click();
    await waitInFrame(panel, () => !!document.querySelector('.tf-msg.tf-streaming'), 'a proxy writing', 60_000);
    await panel.locator('#tf-cancel').click();
    await waitInFrame(
      panel,
      () => document.querySelector('.tf-run-status vscode-badge')?.textContent === 'cancelled',
      'status cancelled',
      60_000,
    );
    // The record says "cancelled" a moment before the run manager has let go of the run (lock released, state posted).
    await waitInFrame(panel, () => document.querySelector('#tf-run')?.hasAttribute('disabled') === false, 'Run is available again', 30_000);
    const ids = (await fs.readdir(path.join(sample, 'runs'))).sort();
    assert.equal(ids.length, runs + 1);
    const record = JSON.parse(await fs.readFile(path.join(sample, 'runs', ids[ids.length - 1]!, 'run.json'), 'utf8')) as { status: string };
    assert.equal(record.status, 'cancelled');
  });

  it('stays quick with 50 options × 50 designers', async () => {
    const page = s.page;
    const frame = await openReview(page, 'large-review', 'Large review');
    assert.equal(await frame.evaluate(() => document.querySelectorAll('td.tf-cell[data-designer]').length), 2500);
    const renderMs = Number(await frame.evaluate(() => document.body.dataset.renderMs));
    console.log(`      50 × 50 panel render: ${renderMs} ms`);
    assert.ok(renderMs < 1_000, `rendering took ${renderMs} ms`);
    await screenshot(page, '11-large-dark');
    // Hidden with the Run tab in view and shown again, the page is rebuilt with the Run tab first: the Overview, drawn
    // after it, still holds the whole grid and what stands below it.
    await showTab(frame, 'run');
    await command(page, 'File: New Untitled Text File');
    await until(page, 'the hidden panel torn down', async () => frame.isDetached(), 60_000);
    await command(page, 'View: Close Editor');
    const again = await waitForPanel(page, 'Large review');
    assert.equal(
      await again.locator('vscode-tab-header[data-tab=run]').evaluate((el) => el.getAttribute('aria-selected') === 'true'),
      true,
    );
    await showTab(again, 'overview');
    assert.equal(await again.evaluate(() => document.querySelectorAll('td.tf-cell[data-designer]').length), 2500);
    assert.equal(await again.evaluate(() => !!document.getElementById('tf-brief')), true, 'the brief below the grid');
  });

  it('shows hostile text literally, from files and from the model, and runs none of it', async () => {
    const page = s.page;
    const frame = await openReview(page, 'hostile-review', 'Hostile');
    const brief = (await frame.locator('#tf-brief').textContent()) ?? '';
    assert.ok(brief.includes('<img src=x onerror='), 'HTML in the brief shows as text');
    assert.ok(brief.includes('</textarea><script>'), 'a closing textarea shows as text');
    // Light DOM only (playwright's CSS would also look inside the components' shadow roots).
    const active = (sel: string) => frame.evaluate((s) => document.querySelectorAll(s).length, sel);
    assert.equal(await active('#tf-brief a[href^="javascript"], #tf-brief a[href^="data"]'), 0);
    assert.equal(await active('#tf-brief .tf-markdown :is(img, script, iframe, svg, div[style])'), 0);
    assert.match((await frame.locator('#tf-title').textContent()) ?? '', /<img src=x onerror=/);
    const cell = await frame.locator('td.tf-cell[data-designer="ana"]').first().getAttribute('aria-label');
    assert.ok(cell?.includes('<img src=x'), 'the justification shows literally');

    // The model says hostile things too.
    s.mock.enqueue('chat', { kind: 'chat', content: HOSTILE_MODEL_TEXT, chunkDelayMs: 5 });
    await showTab(frame, 'run');
    await frame.locator('#tf-run').click();
    await waitInFrame(
      frame,
      () => [...document.querySelectorAll('.tf-msg-body')].some((m) => (m.textContent ?? '').includes('<script>window.__pwned')),
      'the hostile model message',
      120_000,
    );
    await waitInFrame(
      frame,
      () => document.querySelector('.tf-run-status vscode-badge')?.textContent === 'completed',
      'the hostile run to finish',
      180_000,
    );
    assert.equal(await active('.tf-discussion :is(script, img, iframe, svg, a, b)'), 0);
    await showTab(frame, 'overview');
    await shoot('10-hostile', async () => {
      await frame.evaluate(() => document.getElementById('tf-brief')?.scrollIntoView());
    });
    await page.mouse.move(10, 10);
    assert.deepEqual(await pwnedFrames(page), [], 'no hostile code ran in any frame');
    assert.ok(!(await page.title()).includes('PWNED'));
  });

  // Last: opening another review hides (and so detaches) the Lumen panel the tests above share.
  it('lists the valid rankings of a review whose review.yaml has an error, with the error above them', async () => {
    const frame = await openReview(s.page, 'broken-settings', 'Broken settings');
    await waitInFrame(frame, () => document.querySelectorAll('td.tf-cell[data-designer]').length > 0, 'the rankings to be listed', 30_000);
    const seen = await frame.evaluate(() => {
      const problems = document.getElementById('tf-problems');
      const heat = document.querySelector('table.tf-heat');
      return {
        problems: problems?.textContent ?? '',
        cells: document.querySelectorAll('td.tf-cell[data-designer]').length,
        above: Boolean(problems && heat && problems.compareDocumentPosition(heat) & Node.DOCUMENT_POSITION_FOLLOWING),
        noRankings: (document.getElementById('tf-heatmap')?.textContent ?? document.body.textContent ?? '').includes('No rankings yet'),
      };
    });
    assert.equal(seen.cells, 4 * 6, 'every valid ranking is listed');
    assert.match(seen.problems, /review\.yaml:\d+:\d+: error:/);
    assert.ok(seen.above, 'the error is shown above the rankings');
    assert.equal(seen.noRankings, false);
    await screenshot(s.page, '01-broken-settings-dark');
  });
});
