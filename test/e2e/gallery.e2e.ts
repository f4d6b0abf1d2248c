/**
 * The live study's protocol in a real VS Code (code-server + Chromium), issue 19 items 2 and 5: a TeamFusion review with a
 * reference gallery (references/ + references.yaml) and a completed, committed run with survey answers, beside a usual-way
 * review of the same team (condition: usual, decision.yaml, survey/) in the same folder. The Overview shows the gallery
 * apart from the candidates (images through webview URIs, notes as text, never a rank); the Run tab's "Did it help?" shows
 * the two conditions side by side with the numbers `teamfusion evaluate --json` gives for that team. Screenshots in the
 * dark and the light theme.
 *
 * Needs `npm run build` and `npm run compile-tests`. Run (one VS Code suite at a time):
 *   npx mocha --no-config --timeout 600000 out/test/e2e/gallery.e2e.js
 */
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { cliOutput, copySample, e2eSuite } from './support/suite';
import { openReview, requireBuilt, shootBothThemes, showTab, waitInFrame } from './support/workbench';

const RUN_ID = '2026-11-24T09-00-00Z-e2e7';

async function image(file: string, hue: number): Promise<void> {
  const sharp = (await import('sharp')).default;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="240"><rect width="320" height="240" fill="hsl(${hue},45%,60%)"/><circle cx="160" cy="120" r="70" fill="hsl(${(hue + 180) % 360},50%,35%)"/></svg>`;
  await fs.mkdir(path.dirname(file), { recursive: true });
  await sharp(Buffer.from(svg)).png().toFile(file);
}

async function survey(folder: string, id: string, rep: number, cla: number, sat: number, wf?: string): Promise<void> {
  await fs.mkdir(folder, { recursive: true });
  await fs.writeFile(
    path.join(folder, `${id}.yaml`),
    `designer: ${id}\nrepresentative: ${rep}\nclarity: ${cla}\nsatisfied: ${sat}\n${wf ? `workflow: ${wf}\n` : ''}`,
  );
}

/** The sample with a gallery and a completed run committed 12 minutes after its start. */
async function teamfusionReview(dir: string): Promise<void> {
  await copySample(path.dirname(dir), path.basename(dir));
  await image(path.join(dir, 'references', 'gold-foil.png'), 45);
  await image(path.join(dir, 'references', 'linen.png'), 30);
  await image(path.join(dir, 'references', 'night-sky.png'), 230);
  await fs.writeFile(
    path.join(dir, 'references.yaml'),
    'references:\n  gold-foil: The foil finish the client loves on the current bottle.\n  linen: "The calm linen texture of the packaging <b>not bold</b>."\n',
  );
  const run = path.join(dir, 'runs', RUN_ID);
  await image(path.join(run, 'iteration-1', 'remix.png'), 120);
  const at = '2026-11-24T09:00:00.000Z';
  const ids = ['1', '2', '3', '4', '5', '6'];
  const record = {
    version: 1,
    id: RUN_ID,
    status: 'completed',
    startedAt: at,
    updatedAt: at,
    committedAt: '2026-11-24T09:12:00.000Z',
    settings: { chatModel: 'gpt-4o', imageModel: 'gpt-image-1', turnsPerAgent: 1, iterations: 2 },
    options: [
      ...ids.map((id, i) => ({ id, label: `Image ${i + 1}`, file: `options/${id}.png` })),
      { id: 'r1', label: 'Image 7', file: `runs/${RUN_ID}/iteration-1/remix.png` },
    ],
    references: [
      {
        id: 'gold-foil',
        label: 'Reference 1',
        file: 'references/gold-foil.png',
        note: 'The foil finish the client loves on the current bottle.',
      },
      { id: 'linen', label: 'Reference 2', file: 'references/linen.png' },
      { id: 'night-sky', label: 'Reference 3', file: 'references/night-sky.png' },
    ],
    iterations: [
      {
        index: 1,
        candidates: ids,
        messages: [
          { speaker: 'ana', turn: 1, content: 'Image 3 with the foil of Reference 1.' },
          { speaker: 'ben', turn: 1, content: 'Agreed.' },
        ],
        ranking: ['3', '4', '1'],
        references: ['gold-foil'],
        editingDirections: 'Composition: keep Image 1.',
        remix: { id: 'r1', file: 'iteration-1/remix.png', from: ['3', '4', '1'], references: ['gold-foil'] },
      },
      {
        index: 2,
        candidates: ['3', '4', 'r1'],
        final: true,
        messages: [{ speaker: 'ana', turn: 1, content: 'r1.' }],
        ranking: ['r1', '3', '4'],
      },
    ],
    finalPick: 'r1',
    usage: { inputTokens: 1000, cachedInputTokens: 0, outputTokens: 200, images: 1, costUsd: 0.05 },
    prompts: [],
  };
  await fs.writeFile(path.join(run, 'run.json'), `${JSON.stringify(record, null, 2)}\n`);
  const s = path.join(run, 'survey');
  await survey(s, 'ana', 5, 4, 5, 'teamfusion');
  await survey(s, 'ben', 4, 4, 4, 'teamfusion');
  await survey(s, 'chen', 4, 3, 4);
}

/** The same team, decided the usual way in 18 minutes. */
async function usualReview(dir: string): Promise<void> {
  await copySample(path.dirname(dir), path.basename(dir));
  await fs.writeFile(path.join(dir, 'review.yaml'), 'title: Lumen, the usual way\ncondition: usual\n');
  await fs.writeFile(path.join(dir, 'decision.yaml'), 'pick: "3"\nstartedAt: 2026-11-23T09:00:00Z\ndecidedAt: 2026-11-23T09:18:00Z\n');
  const s = path.join(dir, 'survey');
  await survey(s, 'ana', 3, 3, 3);
  await survey(s, 'ben', 4, 2, 3);
  await survey(s, 'dina', 2, 3, 2, 'usual');
}

describe('reference gallery and TeamFusion beside the usual way in a real VS Code (code-server)', function () {
  this.timeout(600_000);
  const s = e2eSuite('gallery');
  let panel: Frame;

  before(async () => {
    requireBuilt();
    const ws = await s.makeWorkspace();
    await teamfusionReview(path.join(ws, 'lumen-teamfusion'));
    await usualReview(path.join(ws, 'lumen-usual'));
    await s.startWorkbench({ hideSideBar: true });
  });

  it('the Overview shows the reference gallery apart from the candidates: images, labels, notes as text, no rank', async () => {
    const page = s.page;
    panel = await openReview(page, 'lumen-teamfusion', 'Lumen');
    await showTab(panel, 'overview');
    await waitInFrame(panel, () => document.querySelectorAll('#tf-references img').length === 3, 'the three reference images');
    // Who wrote each member's file (issue 39): review.yaml names no git e-mail, so the Overview says once that it is not checked.
    assert.deepEqual(await panel.locator('#tf-authorship').evaluateAll((els) => els.map((e) => e.textContent)), [
      'Authorship is not checked: review.yaml names no git e-mail for any member (team: <id>: { git: <email> }).',
    ]);
    // The images load lazily: once the gallery is on screen, each comes through its webview URI.
    await panel.evaluate(() => document.getElementById('tf-references')?.scrollIntoView());
    await waitInFrame(
      panel,
      () => [...document.querySelectorAll<HTMLImageElement>('#tf-references img')].every((i) => i.complete && i.naturalWidth > 0),
      'the images loaded through webview URIs',
    );
    const items = await panel
      .locator('#tf-references li')
      .evaluateAll((els) => els.map((e) => [e.getAttribute('data-reference'), e.textContent?.replace(/\s+/g, ' ').trim()]));
    assert.deepEqual(
      items.map(([id]) => id),
      ['gold-foil', 'linen', 'night-sky'],
    );
    assert.match(items[0]![1]!, /^Reference 1 · gold-foil.*The foil finish the client loves on the current bottle\.$/);
    assert.match(items[1]![1]!, /<b>not bold<\/b>/, 'a note is shown as text, never as markup');
    assert.equal(await panel.locator('#tf-references b').count(), 0);
    assert.match(items[2]![1]!, /No note on what it is for\./);
    const heading = (await panel.locator('#tf-references-title').textContent()) ?? '';
    assert.equal(heading, 'Reference gallery (3)');
    // Never a candidate: no reference id in the heatmap, the consensus or the ranking form.
    const elsewhere = await panel.evaluate(() => [...document.querySelectorAll('[data-option]')].map((e) => e.getAttribute('data-option')));
    assert.ok(!elsewhere.some((id) => ['gold-foil', 'linen', 'night-sky'].includes(id ?? '')), elsewhere.join(','));
    const srcs = await panel.locator('#tf-references img').evaluateAll((els) => els.map((e) => e.getAttribute('src') ?? ''));
    assert.ok(
      srcs.every((s) => /^https?:\/\/|^vscode-(webview-)?resource:/.test(s) && /references\//.test(decodeURIComponent(s))),
      srcs.join('\n'),
    );
    await shootBothThemes(page, 'gallery-01-overview', async () => {
      await panel.evaluate(() => document.getElementById('tf-references')?.scrollIntoView());
    });
  });

  it('"Did it help?" shows this team\'s TeamFusion review beside its usual-way review, as evaluate pairs them', async () => {
    const page = s.page;
    const e = JSON.parse(cliOutput(['evaluate', s.ws, '--json'])) as {
      conditions: { paired: { teams: number }; teamfusion: { decisionMinutes: number }; usual: { decisionMinutes: number } };
    };
    assert.equal(e.conditions.paired.teams, 1);
    await showTab(panel, 'run');
    await waitInFrame(panel, () => !!document.getElementById('tf-conditions'), 'the side-by-side conditions');
    const rows = await panel
      .locator('#tf-conditions tbody tr')
      .evaluateAll((els) => els.map((r) => [...r.children].map((c) => c.textContent?.trim())));
    const byLabel = new Map(rows.map((r) => [r[0], r.slice(1)]));
    // By hand: TeamFusion 5,4,4 / 4,4,3 / 5,4,4; usual 3,4,2 / 3,2,3 / 3,3,2; 12 vs 18 minutes; 2 vs 1 would choose.
    assert.deepEqual(byLabel.get('Q1 Representative'), ['4.33', '3.00', '+1.33', '4.3']);
    assert.deepEqual(byLabel.get('Q2 Clarity'), ['3.67', '2.67', '+1.00', '3.8']);
    assert.deepEqual(byLabel.get('Q3 Satisfied'), ['4.33', '2.67', '+1.67', '4.2']);
    assert.deepEqual(byLabel.get('Decision time')?.slice(0, 3), [
      `${e.conditions.teamfusion.decisionMinutes.toFixed(1)} min`,
      `${e.conditions.usual.decisionMinutes.toFixed(1)} min`,
      '−6.0 min',
    ]);
    assert.deepEqual(byLabel.get('Would choose for similar tasks')?.slice(0, 3), ['2 people', '1 person', 'sign test p = 1.000']);
    const text = (await panel.locator('#tf-conditions').textContent()) ?? '';
    assert.match(text, /lumen-teamfusion with TeamFusion; lumen-usual the usual way/);
    // Readable in both themes: the text colour differs from the background in each.
    const contrast = async (): Promise<boolean> =>
      panel.evaluate(() => {
        const cell = document.querySelector('#tf-conditions td')!;
        const fg = getComputedStyle(cell).color;
        const bg = getComputedStyle(document.body).backgroundColor;
        return fg !== bg && fg !== '';
      });
    assert.ok(await contrast());
    await shootBothThemes(page, 'gallery-02-conditions', async () => {
      await panel.evaluate(() => document.getElementById('tf-conditions')?.scrollIntoView());
      assert.ok(await contrast());
    });
  });
});
