/**
 * Looking at the designs and shipping, in a real VS Code (code-server + Chromium): the large viewer (← / →, Esc, file
 * name, who ranked it where), side-by-side compare, thumbnails of the configured size with the whole image on focus,
 * the panel defects seen with long and hostile text, the walkthrough from the Welcome page. It logs activation and
 * Open Review → rendered panel times of this development build; the bench's numbers come from the packaged VSIX
 * (scripts/test-vsix.mjs).
 *
 * Needs `npm run build` (dist/) and `npm run compile-tests`. Run:
 *   npx mocha --no-config --timeout 600000 out/test/e2e/ship.e2e.js
 */
import * as assert from 'node:assert/strict';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { stringify as stringifyYaml } from 'yaml';
import { runCommand } from '../harness/codeServer';
import { copySample, e2eSuite, makeLargeReview, mockEnv, readRunJson, runCli, runIds, until } from './support/suite';
import {
  command,
  openReviewTimed,
  painted,
  pickReview,
  showTab,
  screenshot,
  waitForPanel,
  waitInFrame,
  shootBothThemes,
  requireBuilt,
  settled,
} from './support/workbench';

/** The thumbnail size setting the workbench starts with (the default is 96). */
const THUMB = 120;
const LONG_WORD = `Supercalifragilistic${'expialidocious'.repeat(12)}`;
const LONG_URL = `https://example.invalid/${'very-long-path-segment-without-spaces_'.repeat(10)}brief.pdf`;
const LONG_OPTION = `campaign_final_FINAL_v7_${'reallyfinal'.repeat(9)}`;
const LONG_DESIGNER = `Maximiliana${'Wolfeschlegelsteinhausenbergerdorff'.repeat(3)}`;

/** A review whose names, file names, brief and justifications hold long unbroken words. */
async function makeLongWordsReview(dir: string): Promise<void> {
  const sharp = (await import('sharp')).default;
  await fs.mkdir(path.join(dir, 'options'), { recursive: true });
  await fs.mkdir(path.join(dir, 'rankings'), { recursive: true });
  await fs.writeFile(path.join(dir, 'brief.md'), `# Long words review\n\nSee ${LONG_URL} and ${LONG_WORD}.\n`);
  const ids = ['1', '2', '3', LONG_OPTION];
  for (const [i, id] of ids.entries()) {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200"><rect width="300" height="200" fill="hsl(${i * 80},55%,45%)"/></svg>`;
    await sharp(Buffer.from(svg))
      .png()
      .toFile(path.join(dir, 'options', `${id}.png`));
  }
  const designers = [LONG_DESIGNER, 'Ben Okafor', 'Chen Wei'];
  for (const [d, name] of designers.entries()) {
    const order = d === 0 ? ids : [...ids].reverse();
    const ranking = order.map((option, k) => ({ option, rank: k + 1, justification: `${LONG_WORD} ${option}` }));
    await fs.writeFile(path.join(dir, 'rankings', `d${d + 1}.yaml`), stringifyYaml({ designer: name, ranking }));
  }
}

/** Whether two rectangles overlap by more than a pixel. */
function overlaps(a: { left: number; right: number; top: number; bottom: number }, b: typeof a): boolean {
  return a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
}

describe('looking at the designs, panel defects, walkthrough (real VS Code)', function () {
  this.timeout(600_000);
  const s = e2eSuite('ship', { checkWebviewErrors: false });
  let sample = '';
  let panel: Frame;
  let completedRun = '';
  let failedRun = '';

  /** Dark screenshot, then the same in the light theme, then back to dark. */
  const shoot = (name: string, prepare?: () => Promise<void>): Promise<void> => shootBothThemes(s.page, name, prepare);

  before(async function () {
    requireBuilt(['dist/extension.js', 'dist/cli.js', 'dist/webview/panel.js']);
    const ws = await s.makeWorkspace();
    sample = await copySample(ws, 'lumen-perfume');
    await makeLongWordsReview(path.join(ws, 'long-words'));
    await makeLargeReview(path.join(ws, 'large-review'), 50, 50);

    // Two runs of the sample made by the CLI against the mock: one completes (with a remix), the next fails.
    const mock = await s.startMock();
    const env = { ...mockEnv(mock), TEAMFUSION_MAX_RETRIES: '0' };
    const ok = await runCli(['run', sample, '--iterations', '2', '--turns', '1', '--json'], env);
    assert.equal(ok.code, 0, `the first run completes: ${ok.out.slice(-400)}`);
    // Run ids sort by their start second: the failing run must start in a later second than the completed one, or the
    // two could sort either way (the condition waited on is the clock's next second, not a fixed pause).
    const startedIn = Math.floor(Date.now() / 1000);
    while (Math.floor(Date.now() / 1000) === startedIn) await new Promise((r) => setTimeout(r, 50));
    mock.enqueue('chat', {
      kind: 'error',
      status: 400,
      body: { error: { message: `Bad request: ${LONG_WORD}`, type: 'invalid_request_error', code: null, param: null } },
    });
    const bad = await runCli(['run', sample, '--iterations', '2', '--turns', '1'], env);
    assert.notEqual(bad.code, 0, 'the second run fails');
    const runs = await runIds(sample);
    assert.equal(runs.length, 2);
    [completedRun, failedRun] = runs as [string, string];
    // The remix agent's lists with long unbroken words (the narrow-panel overlap check reads them).
    const file = path.join(sample, 'runs', completedRun, 'run.json');
    const record = JSON.parse(await fs.readFile(file, 'utf8')) as { iterations: { agreements?: string[]; disagreements?: string[] }[] };
    for (const it of record.iterations) {
      it.agreements = [`Everyone likes the gold bottle ${LONG_WORD}`, 'Warm light'];
      it.disagreements = [`${LONG_URL} splits the team`, 'Type size'];
    }
    await fs.writeFile(file, JSON.stringify(record, null, 2));

    await s.startWorkbench({
      settings: { 'teamfusion.turnsPerAgent': 1, 'teamfusion.iterations': 2, 'teamfusion.thumbnailSize': THUMB },
      hideSideBar: true,
    });
  });

  it('activates quickly: VS Code measures the activation (Show Running Extensions)', async () => {
    const page = s.page;
    await runCommand(page, 'Developer: Show Running Extensions');
    const row = page.locator('.runtime-extensions-editor .monaco-list-row', { hasText: 'TeamFusion' }).first();
    // The list holds every running extension (the built-in ones too) and renders only the rows in view: scroll until
    // TeamFusion's row shows (down, then back up), under a ceiling for a loaded machine.
    const list = page.locator('.runtime-extensions-editor .monaco-list').first();
    await list.waitFor({ state: 'visible', timeout: 120_000 });
    const box = await list.boundingBox();
    if (box) await page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height / 2, 200));
    // While it is still activating the row says so; the editor updates when it is done, and re-sorts its rows as
    // times come in (a quick activation can sort out of view): look for the row and its time together, scrolling (down,
    // then back up) while the row is not in view, under a ceiling for a loaded machine.
    let scrolled = 0;
    const text = await until(
      page,
      "TeamFusion's row in Running Extensions with an activation time",
      async () => {
        if (!(await row.isVisible().catch(() => false))) {
          await page.mouse.wheel(0, scrolled++ % 40 < 20 ? 300 : -300);
          return undefined;
        }
        const t = (await row.innerText({ timeout: 5_000 })).replace(/\s+/g, ' ');
        return /\d+\s*ms/.test(t) ? t : undefined;
      },
      180_000,
      100,
    );
    const m = /(\d+)\s*ms/.exec(text);
    assert.ok(m, `an activation time in "${text}"`);
    const ms = Number(m[1]);
    console.log(`      activation (VS Code's measure): ${ms} ms`);
    await screenshot(page, '20-running-extensions');
    await command(page, 'View: Close Editor');
  });

  it("opens the sample quickly and its Run tab drops a failed run's error when a completed run is picked", async () => {
    const page = s.page;
    const opened = await openReviewTimed(page, 'lumen-perfume', 'Lumen');
    panel = opened.frame;
    console.log(`      Open Review → rendered panel (sample): ${opened.ms} ms`);
    await showTab(panel, 'run');
    // The newest run (the failed one) is shown first, with its error.
    await waitInFrame(panel, () => document.querySelector('#tf-run-error [role=alert]')?.textContent ?? '', "the failed run's error");
    assert.match((await panel.locator('#tf-run-error').textContent()) ?? '', new RegExp(`Run ${failedRun} failed`));
    await pickRun(panel, completedRun);
    await waitInFrame(panel, () => document.querySelector('.tf-run-status vscode-badge')?.textContent === 'completed', 'the completed run');
    const errorsShown = await panel.evaluate(
      () => [...document.querySelectorAll('.tf-run-tab .tf-notice-error')].filter((e) => (e as HTMLElement).offsetParent !== null).length,
    );
    assert.equal(errorsShown, 0, 'no red error box above the completed run');
    await pickRun(panel, failedRun);
    await waitInFrame(panel, () => document.querySelector('#tf-run-error [role=alert]') !== null, 'the error back with the failed run');
    await pickRun(panel, completedRun);
    await waitInFrame(
      panel,
      () => document.querySelector('.tf-run-status vscode-badge')?.textContent === 'completed',
      'the completed run again',
    );
  });

  it('compares a remix side by side with the images it came from', async () => {
    const page = s.page;
    await panel.evaluate(() => document.getElementById('tf-remixes')?.scrollIntoView());
    const button = panel.locator('.tf-remix-card vscode-button.tf-compare-sources').first();
    const ids = ((await button.getAttribute('data-compare')) ?? '').split('\n');
    assert.ok(ids.length >= 2 && ids.length <= 6, `2–6 images: ${ids.join(', ')}`);
    await button.click();
    await waitInFrame(panel, () => !document.getElementById('tf-viewer')?.hidden, 'the compare view');
    assert.deepEqual(await panel.locator('.tf-compare-col').evaluateAll((els) => els.map((e) => e.getAttribute('data-option'))), ids);
    await waitInFrame(
      panel,
      () => [...document.querySelectorAll<HTMLImageElement>('.tf-compare-img')].every((i) => i.complete && i.naturalWidth > 0),
      'every compared image loaded',
    );
    // Side by side: the columns share a row, and each image is far larger than a thumbnail.
    const boxes = await panel
      .locator('.tf-compare-img')
      .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect));
    assert.ok(
      boxes.every((b) => Math.abs(b.top - boxes[0]!.top) < 2),
      'one row',
    );
    assert.ok(
      boxes.every((b) => b.width >= 200 && b.height >= 200),
      `large images: ${boxes.map((b) => `${Math.round(b.width)}×${Math.round(b.height)}`).join(', ')}`,
    );
    assert.ok(
      (await panel.locator('.tf-compare-col .tf-file').first().textContent())?.startsWith(`runs/${completedRun}/`),
      'the remix file name',
    );
    await shoot('21-compare');
    await panel.locator('#tf-viewer-title').click();
    await page.keyboard.press('Escape');
    await waitInFrame(panel, () => document.getElementById('tf-viewer')?.hidden === true, 'the compare closed by Esc');
    assert.equal(
      await panel.evaluate(() => document.activeElement?.classList.contains('tf-compare-sources') ?? false),
      true,
      'focus back on the button',
    );
  });

  it('Agreements and Disagreements never overlap in a narrow panel with the side bar open', async () => {
    const page = s.page;
    await command(page, 'View: Toggle Primary Side Bar Visibility');
    await page.setViewportSize({ width: 880, height: 900 });
    // The panel has been laid out again at the narrow size (the side bar takes its share).
    await until(page, 'a narrow panel', () => panel.evaluate(() => document.documentElement.clientWidth < 700), 30_000).catch(
      () => undefined,
    );
    await painted(page);
    await panel.evaluate(() => document.getElementById('tf-outcome')?.scrollIntoView());
    const cols = await panel
      .locator('#tf-outcome .tf-grid-2 > div')
      .evaluateAll((els) =>
        els.map((e) => ({ ...(e.getBoundingClientRect().toJSON() as DOMRect), overflow: e.scrollWidth - e.clientWidth })),
      );
    assert.equal(cols.length, 2);
    const width = await panel.evaluate(() => document.documentElement.clientWidth);
    assert.ok(width < 700, `a narrow panel (${width} px)`);
    assert.equal(overlaps(cols[0]!, cols[1]!), false, `no overlap: ${JSON.stringify(cols)}`);
    for (const c of cols) assert.ok(c.overflow <= 1 && c.right <= width + 1, `inside the panel: ${JSON.stringify(c)}`);
    await screenshot(page, '22-narrow-agreements-dark');
    await page.setViewportSize({ width: 1440, height: 960 });
    await command(page, 'View: Toggle Primary Side Bar Visibility');
    await page.locator('[id="workbench.parts.sidebar"]').waitFor({ state: 'hidden', timeout: 30_000 });
  });

  it('views any option large: ← / → step, Esc closes, file name and who ranked it where', async () => {
    const page = s.page;
    await showTab(panel, 'overview');
    await panel.evaluate(() => window.scrollTo(0, 0));
    const first = panel.locator('#tf-heatmap th.tf-opt-head button[data-view="1"]');
    const size = await first.locator('img').evaluate((img) => img.getBoundingClientRect().width);
    assert.equal(Math.round(size), THUMB, 'heatmap thumbnails follow teamfusion.thumbnailSize');
    await first.click();
    await waitInFrame(panel, () => !document.getElementById('tf-viewer')?.hidden, 'the viewer');
    assert.equal(await panel.locator('#tf-viewer-file').textContent(), 'options/1.png');
    assert.equal(await panel.locator('#tf-viewer-count').textContent(), '1 of 6');
    assert.equal(await panel.locator('#tf-viewer .tf-placements li').count(), 4, 'all four designers');
    const img = await panel.locator('#tf-viewer-img').evaluate((i: HTMLImageElement) => ({
      w: i.getBoundingClientRect().width,
      vw: document.documentElement.clientWidth,
      loaded: i.complete && i.naturalWidth > 0,
    }));
    assert.ok(img.w >= img.vw * 0.5, `the image spans the panel (${img.w} of ${img.vw})`);
    await shoot('23-viewer');
    await panel.locator('#tf-viewer-title').click();
    await page.keyboard.press('ArrowRight');
    assert.equal(await panel.locator('#tf-viewer-file').textContent(), 'options/2.png');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await panel.locator('#tf-viewer-file').textContent(), 'options/6.png', '← wraps around');
    // Pick two for the compare from the viewer.
    await panel.locator('#tf-viewer-pick').click();
    await page.keyboard.press('ArrowRight');
    await panel.locator('#tf-viewer-pick').click();
    await panel.locator('#tf-viewer-compare').click();
    assert.deepEqual(await panel.locator('.tf-compare-col').evaluateAll((els) => els.map((e) => e.getAttribute('data-option'))), [
      '6',
      '1',
    ]);
    await page.keyboard.press('Escape');
    await waitInFrame(panel, () => document.getElementById('tf-viewer')?.hidden === true, 'the viewer closed by Esc');
    assert.equal(
      await panel.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.view ?? ''),
      '1',
      'focus back on the thumbnail',
    );
    // Keyboard only: Enter on the focused thumbnail opens it again.
    await page.keyboard.press('Enter');
    await waitInFrame(panel, () => !document.getElementById('tf-viewer')?.hidden, 'the viewer from the keyboard');
    assert.equal(await panel.evaluate(() => document.getElementById('tf-viewer')?.getAttribute('role')), 'dialog');
    await page.keyboard.press('Escape');
  });

  it('ranking-form thumbnails follow the thumbnail size setting and show the whole image on focus', async () => {
    await showTab(panel, 'ranking');
    const thumb = panel.locator('#tf-rank-list li').first().locator('button[data-view]');
    assert.equal(Math.round(await thumb.locator('img').evaluate((i) => i.getBoundingClientRect().width)), THUMB);
    await thumb.focus();
    await waitInFrame(panel, () => !document.getElementById('tf-peek')?.hidden, 'the whole image on focus');
    const peek = await panel.evaluate(() => {
      const p = document.querySelector<HTMLImageElement>('#tf-peek img')!;
      const r = p.getBoundingClientRect();
      return {
        src: p.getAttribute('src'),
        w: r.width,
        h: r.height,
        inside: r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight,
      };
    });
    assert.equal(peek.src, await thumb.locator('img').getAttribute('src'));
    assert.ok(peek.w > THUMB && peek.inside, JSON.stringify(peek));
    await screenshot(s.page, '24-peek-dark');
    await showTab(panel, 'overview');
  });

  it('shows a bottom-row heatmap tooltip whole, outside the scrolling table', async () => {
    const cells = panel.locator('#tf-heatmap tbody tr:last-child td.tf-cell[data-designer]');
    await cells.last().focus();
    await waitInFrame(panel, () => !document.getElementById('tf-heat-tip')?.hidden, 'the tooltip');
    const tip = await panel.evaluate(() => {
      const t = document.getElementById('tf-heat-tip')!;
      const r = t.getBoundingClientRect();
      const points: [number, number][] = [
        [r.left + 4, r.top + 4],
        [r.right - 4, r.bottom - 4],
        [r.left + 4, r.bottom - 4],
      ];
      const missed = points.filter(([x, y]) => !t.contains(document.elementFromPoint(x, y)));
      return {
        inside: r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth,
        whole: missed.length === 0,
        covered: missed.map(
          ([x, y]) => `${Math.round(x)},${Math.round(y)}: ${document.elementFromPoint(x, y)?.outerHTML.slice(0, 100) ?? 'nothing'}`,
        ),
        rect: [r.left, r.top, r.right, r.bottom].map(Math.round),
        text: t.textContent ?? '',
      };
    });
    assert.ok(tip.inside && tip.whole, `the whole tooltip is visible: ${JSON.stringify(tip)}`);
    assert.match(tip.text, /ranked/);
    await screenshot(s.page, '25-bottom-tooltip-dark');
  });

  it('wraps long unbroken words: brief, names, option file names, captions in My ranking', async () => {
    const page = s.page;
    await command(page, 'View: Close Editor');
    await page
      .locator('.quick-input-widget')
      .waitFor({ state: 'hidden', timeout: 5_000 })
      .catch(() => undefined);
    const { frame } = await openReviewTimed(page, 'long-words', 'Long words');
    const report = await frame.evaluate(() => {
      const root = document.documentElement;
      const heads = [...document.querySelectorAll('#tf-heatmap th.tf-opt-head')].map((e) => e.getBoundingClientRect().width);
      const designers = [...document.querySelectorAll('#tf-heatmap th.tf-designer')].map((e) => e.getBoundingClientRect().width);
      const brief = document.getElementById('tf-brief')!;
      return { page: root.scrollWidth - root.clientWidth, heads, designers, brief: brief.scrollWidth - brief.clientWidth };
    });
    assert.ok(report.page <= 1, `nothing runs off the right edge (${report.page} px)`);
    assert.ok(report.brief <= 1, `the brief wraps (${report.brief} px)`);
    assert.ok(Math.max(...report.heads) <= THUMB + 24, `heatmap columns stay thumbnail-wide: ${report.heads.join(', ')}`);
    assert.ok(Math.max(...report.designers) <= 260, `designer names wrap: ${report.designers.join(', ')}`);
    await screenshot(page, '26-long-words-overview-dark');
    await showTab(frame, 'ranking');
    const spills = await frame.evaluate(() =>
      [...document.querySelectorAll('#tf-rank-list li')].flatMap((li) => {
        const box = li.getBoundingClientRect();
        return [...li.querySelectorAll('figure, figcaption')]
          .map((e) => e.getBoundingClientRect())
          .filter((r) => r.right > box.right + 1 || r.bottom > box.bottom + 1 || r.left < box.left - 1)
          .map(
            (r) =>
              `${li.getAttribute('data-option')?.slice(0, 12)}: ${Math.round(r.left)}–${Math.round(r.right)} × ${Math.round(r.bottom)} in ${Math.round(box.left)}–${Math.round(box.right)} × ${Math.round(box.bottom)}`,
          );
      }),
    );
    assert.deepEqual(spills, [], 'every caption stays inside its row');
    const wide = await frame.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(wide <= 1, `My ranking fits (${wide} px)`);
    await screenshot(page, '27-long-words-ranking-dark');
    await command(page, 'View: Close Editor');
  });

  it('stays quick to open with 50 options × 50 designers', async () => {
    const page = s.page;
    const { frame, ms } = await openReviewTimed(page, 'large-review', 'Large review');
    console.log(`      Open Review → rendered panel (50 × 50): ${ms} ms`);
    assert.equal(await frame.evaluate(() => document.querySelectorAll('td.tf-cell[data-designer]').length), 2500);
    await command(page, 'View: Close Editor');
  });

  it('the walkthrough opens from the Welcome page and leads from New Review to an analysis', async () => {
    const page = s.page;
    await runCommand(page, 'Help: Welcome');
    const entry = page.locator('.gettingStartedContainer', { hasText: 'Get started with TeamFusion' }).first();
    await entry.waitFor({ state: 'visible', timeout: 30_000 });
    const link = page
      .locator('.gettingStartedContainer button, .gettingStartedContainer a', { hasText: 'Get started with TeamFusion' })
      .first();
    if (await link.isVisible().catch(() => false)) await link.click();
    else {
      await page.locator('.gettingStartedContainer', { hasText: 'More' }).getByText(/^More/).first().click();
      await page.locator('.quick-input-widget input').fill('TeamFusion');
      await page.keyboard.press('Enter');
    }
    const step = page.locator('.getting-started-step', { hasText: 'Create a review' }).first();
    await step.waitFor({ state: 'visible', timeout: 20_000 });
    for (const title of ['Collect the rankings', 'See the first analysis', 'Connect a model', 'Start a first run']) {
      assert.equal((await page.locator('.getting-started-step', { hasText: title }).count()) > 0, true, title);
    }
    // The walkthrough slides in: the picture once it has come to rest.
    await settled(page);
    await screenshot(page, '28-walkthrough');
    // Step 1's button runs New Review: the sample template into a new folder.
    await stepButton(page, 'Create a review', /New Review/);
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 15_000 });
    await screenshot(page, '29-walkthrough-new-review');
    // The first choice is the sample template; the next question is the folder name.
    await input.fill('Sample');
    await page.keyboard.press('Enter');
    // The same quick input asks the next question: its prompt shows once it does.
    await page.locator('.quick-input-widget', { hasText: 'Folder for the review' }).waitFor({ state: 'visible', timeout: 15_000 });
    await input.fill('walkthrough-review');
    await page.keyboard.press('Enter');
    // The sample is copied file by file: wait for its brief and its rankings.
    const made = path.join(s.ws, 'walkthrough-review');
    const rankingsOf = async () => (existsSync(path.join(made, 'rankings')) ? (await fs.readdir(path.join(made, 'rankings'))).length : 0);
    await until(
      page,
      "the new review's brief and four rankings",
      async () => existsSync(path.join(made, 'brief.md')) && (await rankingsOf()) >= 4,
    ).catch(() => undefined);
    assert.ok(existsSync(path.join(made, 'brief.md')), 'New Review made the folder with its brief');
    assert.equal(await rankingsOf(), 4, 'the sample comes with its four rankings');

    // Back in the walkthrough (once New Review has opened the new brief): "See the first analysis" opens the panel.
    const briefTab = page.getByRole('tab', { name: /brief\.md/ }).first();
    await briefTab.waitFor({ state: 'visible', timeout: 30_000 });
    // The brief's editor is the active one (New Review is done opening it) and has come to rest before the walkthrough's tab is
    // chosen, so it does not take the front back.
    await until(page, 'the brief to be the active editor', async () => (await briefTab.getAttribute('aria-selected')) === 'true', 30_000);
    await settled(page);
    await backToWalkthrough(page);
    await stepButton(page, 'See the first analysis', /Open Review/);
    await pickReview(page, 'walkthrough-review');
    const analysis = await waitForPanel(page, 'Lumen');
    assert.ok(Number(await analysis.locator('#tf-w').getAttribute('data-w')) > 0, "the analysis shows Kendall's W");
    await screenshot(page, '30-walkthrough-analysis');

    // "Start a first run" runs it against the local mock server, to the end.
    await backToWalkthrough(page);
    await stepButton(page, 'Start a first run', /Run TeamFusion/);
    await pickReview(page, 'walkthrough-review');
    // With four designers VS Code asks who takes part (everyone ticked): accept.
    const who = page.locator('.quick-input-widget', { hasText: 'who takes part' });
    if (
      await who.waitFor({ state: 'visible', timeout: 10_000 }).then(
        () => true,
        () => false,
      )
    ) {
      await page.locator('.quick-input-widget input').press('Enter');
    }
    const status = await until(
      page,
      'the first run to end',
      async () => {
        const [first] = await runIds(made);
        const st = first ? (await readRunJson(made, first))?.status : undefined;
        return st === 'completed' || st === 'failed' ? st : undefined;
      },
      240_000,
    );
    assert.equal(status, 'completed', 'the first run completed');
  });
});

/** Back to the walkthrough's tab (New Review and Open Review opened editors over it). */
async function backToWalkthrough(page: Page): Promise<void> {
  await page
    .getByRole('tab', { name: /Walkthrough: TeamFusion/ })
    .first()
    .click();
  await page.locator('.getting-started-step', { hasText: 'Create a review' }).first().waitFor({ state: 'visible', timeout: 20_000 });
  await settled(page);
  await screenshot(page, '31-walkthrough-back');
}

/** Opens a walkthrough step on the Welcome page and presses its button. */
async function stepButton(page: Page, step: string, button: RegExp): Promise<void> {
  const s = page.locator('.getting-started-step', { hasText: step }).first();
  await s.waitFor({ state: 'visible', timeout: 20_000 });
  if (
    (await s.getByRole('button', { name: button }).count()) === 0 ||
    !(await s.getByRole('button', { name: button }).first().isVisible())
  ) {
    await s.click();
    // The step opens with an animation and takes the focus at its end, which would close a quick pick opened earlier: the
    // button is pressed once the step has it. That alone was seen not to be enough: in one run of two on a loaded machine
    // the picker the button opened closed again, and no event was found that says what takes the focus later, so the
    // pause that was here stays, after the step has opened.
    await s.evaluate(
      (el) =>
        new Promise<void>((resolve, reject) => {
          const deadline = Date.now() + 20_000;
          const check = (): void => {
            if (el.classList.contains('expanded') && el.contains(document.activeElement)) resolve();
            else if (Date.now() > deadline) reject(new Error('the walkthrough step did not open and take the focus within 20 s'));
            else setTimeout(check, 50);
          };
          check();
        }),
    );
    await page.waitForTimeout(1_500);
  }
  await s.getByRole('button', { name: button }).first().click();
}

/** Picks a run in the Run tab's picker (the vscode-single-select) by its row, with the keyboard like a user. */
async function pickRun(panel: Frame, runId: string): Promise<void> {
  const index = await panel.evaluate(
    (id) => [...document.querySelectorAll('#tf-run-picker vscode-option')].findIndex((o) => o.getAttribute('value') === id),
    runId,
  );
  assert.ok(index >= 0, `run ${runId} is in the picker`);
  const current = await panel.evaluate(
    () => (document.querySelector('#tf-run-picker') as HTMLElement & { selectedIndex: number }).selectedIndex,
  );
  const picker = panel.locator('#tf-run-picker');
  await picker.focus();
  await panel.page().keyboard.press('Space');
  // The list is open (the arrows move in it from here).
  await panel.waitForFunction(
    () => (document.querySelector('#tf-run-picker') as (HTMLElement & { open: boolean }) | null)?.open === true,
    undefined,
    {
      timeout: 10_000,
      polling: 50,
    },
  );
  const key = index > current ? 'ArrowDown' : 'ArrowUp';
  for (let i = 0; i < Math.abs(index - current); i++) await panel.page().keyboard.press(key);
  await panel.page().keyboard.press('Enter');
  await panel.waitForFunction(
    (i) => {
      const select = document.querySelector('#tf-run-picker') as (HTMLElement & { open: boolean; selectedIndex: number }) | null;
      return !!select && !select.open && select.selectedIndex === i;
    },
    index,
    { timeout: 30_000, polling: 50 },
  );
}
