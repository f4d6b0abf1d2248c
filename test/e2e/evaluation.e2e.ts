/**
 * "Did it help?" in a real VS Code (code-server + Chromium): a review with a completed run (written by hand: remixes,
 * proxy and guest messages), its blind re-rank set made by the real CLI, re-rankings, ratings and a survey on disk. The
 * Run tab shows the section with the team's numbers beside the study's; rating controls sit only next to the chosen
 * designer's own proxy messages and write runs/<id>/ratings/<designer>.yaml; the re-rank set's own panel never says
 * which letter is generated. Screenshots in dark and light themes.
 *
 * Needs `npm run build` and `npm run compile-tests`. Run:
 *   npx mocha --no-config --timeout 600000 out/test/e2e/evaluation.e2e.js
 */
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { parse as parseYaml } from 'yaml';
import { cliOutput, copySample, e2eSuite } from './support/suite';
import { DARK, LIGHT, openReview, painted, setColorTheme, screenshot, showTab, waitInFrame, requireBuilt } from './support/workbench';

const RUN_ID = '2026-11-21T22-40-05Z-e2e9';

async function makeReviewWithRun(parent: string, name: string): Promise<string> {
  const sharp = (await import('sharp')).default;
  const dir = await copySample(parent, name);
  const run = path.join(dir, 'runs', RUN_ID);
  for (const k of [1, 2]) {
    await fs.mkdir(path.join(run, `iteration-${k}`), { recursive: true });
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="240"><rect width="320" height="240" fill="hsl(${k * 120},50%,55%)"/></svg>`;
    await sharp(Buffer.from(svg))
      .png()
      .toFile(path.join(run, `iteration-${k}`, 'remix.png'));
  }
  const at = '2026-11-21T22:40:05.000Z';
  const ids = ['1', '2', '3', '4', '5', '6'];
  const said = (speaker: string, turn: number, content: string, kind?: string) => ({ speaker, turn, content, ...(kind ? { kind } : {}) });
  const record = {
    version: 1,
    id: RUN_ID,
    status: 'completed',
    startedAt: at,
    updatedAt: at,
    settings: { chatModel: 'gpt-4o', imageModel: 'gpt-image-1', turnsPerAgent: 1, iterations: 2 },
    options: [
      ...ids.map((id, i) => ({ id, label: `Image ${i + 1}`, file: `options/${id}.png` })),
      { id: 'r1', label: 'Image 7', file: `runs/${RUN_ID}/iteration-1/remix.png` },
      { id: 'r2', label: 'Image 8', file: `runs/${RUN_ID}/iteration-2/remix.png` },
    ],
    iterations: [
      {
        index: 1,
        candidates: ids,
        messages: [
          said('ana', 1, 'Image 3 keeps the calm light the brief asks for.'),
          said('ben', 1, 'I still prefer the bolder bottle of Image 4.'),
          said('guest-retail', 1, 'A shop window needs the bottle bigger.', 'guest'),
          said('chen', 1, 'Combine the light of 3 with the bottle of 4.'),
          said('dina', 1, 'Agreed, but keep the type small.'),
        ],
        ranking: ['3', '4', '1'],
        remix: { id: 'r1', file: 'iteration-1/remix.png' },
      },
      {
        index: 2,
        candidates: ['3', '4', 'r1'],
        final: true,
        messages: [said('ana', 1, 'r1 is the one: calm, premium, and the bottle reads.'), said('ben', 1, 'Fine by me, r1.')],
        ranking: ['r1', '3', '4'],
        remix: { id: 'r2', file: 'iteration-2/remix.png' },
      },
    ],
    finalPick: 'r1',
    usage: { inputTokens: 1000, cachedInputTokens: 0, outputTokens: 200, images: 2, costUsd: 0.12 },
    prompts: [],
  };
  await fs.writeFile(path.join(run, 'run.json'), `${JSON.stringify(record, null, 2)}\n`);
  return dir;
}

/** A re-ranking: the sources in `first` (ids, or "option" for the first original option of the key), then the rest in letter order. */
async function rerank(dir: string, designer: string, first: string[]): Promise<void> {
  const folder = path.join(dir, 'runs', RUN_ID, 'rerank');
  const key = JSON.parse(await fs.readFile(path.join(folder, 'key.json'), 'utf8')) as Record<string, { kind: string; id: string }>;
  const entries = Object.entries(key).sort(([a], [b]) => a.localeCompare(b));
  const wanted = first.map((id) => entries.find(([, e]) => (id === 'option' ? e.kind === 'option' : e.id === id))![0]);
  const letters = [...wanted, ...entries.map(([l]) => l).filter((l) => !wanted.includes(l))];
  const lines = [`designer: ${designer}`, 'ranking:'];
  letters.forEach((l, i) => lines.push(`  - option: "${l}"`, `    rank: ${i + 1}`, `    justification: Place ${i + 1} after the run.`));
  await fs.writeFile(path.join(folder, 'rankings', `${designer}.yaml`), `${lines.join('\n')}\n`);
}

describe('"Did it help?" in a real VS Code (code-server)', function () {
  this.timeout(600_000);
  const s = e2eSuite('eval');
  let review = '';
  let panel: Frame;

  before(async () => {
    requireBuilt(['dist/extension.js', 'dist/cli.js', 'dist/webview/panel.js']);
    review = await makeReviewWithRun(await s.makeWorkspace(), 'lumen-perfume');
    cliOutput(['rerank', review, RUN_ID]);
    await rerank(review, 'ana', ['r1', 'option', 'r2']);
    await rerank(review, 'ben', ['r1', 'r2']);
    await rerank(review, 'chen', ['option', 'r1']);
    await fs.mkdir(path.join(review, 'runs', RUN_ID, 'survey'));
    await fs.writeFile(
      path.join(review, 'runs', RUN_ID, 'survey', 'ben.yaml'),
      'designer: ben\nrepresentative: 4\nclarity: 3\nsatisfied: 5\n',
    );
    await s.startWorkbench({ hideSideBar: true });
  });

  it('the Run tab shows "Did it help?" with the numbers `teamfusion compare --json` prints, beside the study\'s', async () => {
    const page = s.page;
    const expected = JSON.parse(cliOutput(['compare', review, RUN_ID, '--json'])) as {
      before: { w: number };
      after: { w: number };
      paired: { verdict: string };
      acceptance: { top1: boolean };
    };
    panel = await openReview(page, 'lumen-perfume', 'Lumen');
    await showTab(panel, 'run');
    await waitInFrame(panel, () => !!document.getElementById('tf-did-it-help'), 'the "Did it help?" section');
    const text = (await panel.locator('#tf-did-it-help').textContent()) ?? '';
    assert.match(text, new RegExp(`${expected.before.w.toFixed(2)} → ${expected.after.w.toFixed(2)}`));
    assert.match(text, /0\.37 → 0\.43/, 'the study beside the team');
    assert.match(text, /4\.06 \/ 5/);
    assert.match(text, new RegExp(`— ${expected.paired.verdict}`));
    assert.match(text, /Survey \(1 designer, 1–5\): representative 4\.00, clarity 3\.00, satisfied 5\.00/);
    await panel.evaluate(() => document.getElementById('tf-did-it-help')?.scrollIntoView());
    await painted(page);
    await screenshot(page, 'eval-01-did-it-help-dark');
    await setColorTheme(page, LIGHT);
    await panel.evaluate(() => document.getElementById('tf-did-it-help')?.scrollIntoView());
    await painted(page);
    await screenshot(page, 'eval-01-did-it-help-light');
    await setColorTheme(page, DARK);
  });

  it("rating controls only next to the chosen designer's own proxy messages; a click writes runs/<id>/ratings/<designer>.yaml", async () => {
    const page = s.page;
    assert.equal(await panel.locator('.tf-rating').count(), 0, 'no controls before choosing who you are');
    await panel.evaluate(() => {
      const picker = document.getElementById('tf-i-am') as HTMLElement & { value: string };
      picker.value = 'ana';
      picker.dispatchEvent(new Event('change'));
    });
    await waitInFrame(panel, () => document.querySelectorAll('.tf-rating').length === 2, 'two rating rows (ana said two things)');
    const rated = await panel
      .locator('.tf-rating')
      .evaluateAll((els) => els.map((e) => `${e.closest('article')?.getAttribute('data-speaker')}:${e.getAttribute('data-message-id')}`));
    assert.deepEqual(rated, ['ana:i1-m1', 'ana:i2-m1']);
    assert.equal(await panel.locator('article[data-kind="guest"] .tf-rating').count(), 0, 'a guest message is never rated');
    await panel.locator('#tf-rate-i1-m1-4').click();
    const file = path.join(review, 'runs', RUN_ID, 'ratings', 'ana.yaml');
    await waitInFrame(panel, () => /Saved runs\//.test(document.getElementById('tf-feedback-status')?.textContent ?? ''), 'the saved note');
    const saved = parseYaml(await fs.readFile(file, 'utf8')) as { designer: string; ratings: { message: string; score: number }[] };
    assert.deepEqual(saved, { designer: 'ana', ratings: [{ message: 'i1-m1', score: 4 }] });
    await waitInFrame(
      panel,
      () => document.getElementById('tf-rate-i1-m1-4')?.getAttribute('aria-pressed') === 'true',
      'the chosen score shown',
    );
    await waitInFrame(
      panel,
      () => /Proxy ratings4\.00 \/ 5 \(n = 1\)/.test(document.getElementById('tf-did-it-help')?.textContent ?? ''),
      'the section updated',
    );

    // The survey form, as ana.
    await panel.locator('#tf-survey-representative-5').click();
    await panel.locator('#tf-survey-clarity-4').click();
    await panel.locator('#tf-survey-save').click();
    await waitInFrame(
      panel,
      () => /Saved runs\/.*survey\/ana\.yaml/.test(document.getElementById('tf-feedback-status')?.textContent ?? ''),
      'the survey saved',
    );
    assert.deepEqual(parseYaml(await fs.readFile(path.join(review, 'runs', RUN_ID, 'survey', 'ana.yaml'), 'utf8')), {
      designer: 'ana',
      representative: 5,
      clarity: 4,
    });
    await panel.evaluate(() => document.querySelector('.tf-rating')?.scrollIntoView({ block: 'center' }));
    await painted(page);
    await screenshot(page, 'eval-02-rating-dark');
    await setColorTheme(page, LIGHT);
    await panel.evaluate(() => document.querySelector('.tf-rating')?.scrollIntoView({ block: 'center' }));
    await painted(page);
    await screenshot(page, 'eval-02-rating-light');
    await panel.evaluate(() => document.getElementById('tf-survey')?.scrollIntoView());
    await painted(page);
    await screenshot(page, 'eval-03-survey-light');
    await setColorTheme(page, DARK);
  });

  it("the blind re-rank set's own panel never says which letter is generated", async () => {
    const page = s.page;
    const blind = await openReview(page, 'rerank', 're-rank');
    await waitInFrame(blind, () => document.querySelectorAll('img').length >= 5, 'the five candidates');
    const shown = await blind.evaluate(
      () =>
        document.body.innerText +
        [...document.querySelectorAll('img')]
          .map((i) => `${i.getAttribute('src')} ${i.getAttribute('alt')} ${i.getAttribute('title')}`)
          .join(' '),
    );
    assert.doesNotMatch(shown, /\br[12]\b|remix/i);
    assert.doesNotMatch(shown, /\bImage \d/, 'the blind letters only: no picture number beside them');
    await screenshot(page, 'eval-04-blind-set-dark');
    // The run's re-rank step: the team to pick from under "I am" (no typed name), who has ranked, and the way back to the run.
    await showTab(blind, 'ranking');
    await waitInFrame(blind, () => !!document.getElementById('tf-rk-team'), 'the blind re-rank form');
    assert.equal(await blind.locator('#tf-rk-name').count(), 0, 'no free-text name');
    const team = await blind.locator('#tf-i-am vscode-option').allTextContents();
    for (const name of ['Ana Ruiz', 'Ben Okafor', 'Chen Wei'])
      assert.ok(
        team.some((t) => t.includes(name)),
        `${name} to pick: ${team.join(', ')}`,
      );
    assert.match(
      (await blind.locator('#tf-rk-team').textContent()) ?? '',
      /^Ranked so far: 3 of 4 \(Ana Ruiz ✓, Ben Okafor ✓, Chen Wei ✓, /,
    );
    // "I am" is the workspace's (chosen above for the ratings): the form ranks as that member, whose re-ranking is saved.
    assert.match(
      (await blind.locator('#tf-rk-as').textContent()) ?? '',
      /^Ranking as (Ana Ruiz|Ben Okafor|Chen Wei) \(saved; saving again replaces it\)\.$|^Choose who you are/,
    );
    assert.equal(await blind.locator(`#tf-next .tf-next-secondary[data-action="backToRun"]`).textContent(), `Back to run ${RUN_ID}`);
    assert.equal(await blind.locator('.tf-back-to-run').count(), 1);
    await screenshot(page, 'eval-05-blind-set-form-dark');
  });
});
