/**
 * Discussion analysis in a real VS Code (code-server + Chromium): the Run tab's "Code discussion" button codes a recorded
 * run against the local mock model server, and the panel shows the per-speaker category bars, the team's agrees vs
 * disagrees line (flagged as possibly too compliant) and the stance table — screenshots in dark, light and high contrast.
 * In an untrusted workspace the button is off and nothing is sent.
 *
 *   npm run build && npm run compile-tests && npx mocha --no-config --timeout 600000 out/test/e2e/discussionAnalysis.e2e.js
 */
import * as assert from 'node:assert/strict';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import type { MockOpenAI } from '../support/openaiMock';
import { copySample, e2eSuite, until } from './support/suite';
import {
  DARK,
  LIGHT,
  extensionLog,
  openReview,
  painted,
  screenshot,
  setColorTheme,
  showTab,
  waitInFrame,
  requireBuilt,
  untilStateKept,
  webviewPosts,
} from './support/workbench';

const RUN_ID = '2026-11-21T22-40-05Z-e2e1';

/** What the scripted coder answers: almost all "Agrees", one suggestion, one disagreement. */
function category(id: string): number {
  if (id === 'i1-m2') return 4;
  if (id === 'i2-m2') return 10;
  return 3;
}

async function makeReviewWithRun(parent: string, name: string): Promise<string> {
  const dir = await copySample(parent, name);
  const people = ['ana', 'ben', 'chen', 'dina'];
  const say = [
    'Image 1 is the premium one.',
    'Agreed, Image 1.',
    'Yes, Image 1 works.',
    'I agree.',
    'Fine by me.',
    'Sure, Image 1 then.',
    'Agreed.',
    'Right.',
  ];
  const round = (k: number, n: number) =>
    Array.from({ length: n }, (_, i) => ({
      id: `i${k}-m${i + 1}`,
      kind: 'proxy',
      speaker: people[i % 4]!,
      turn: Math.floor(i / 4) + 1,
      content: say[i % say.length]!,
    }));
  const r2 = round(2, 4);
  r2.push({ id: 'i2-m5', kind: 'guest', speaker: 'guest-critic', turn: 1, content: 'From outside: Image 1.' });
  const record = {
    version: 1,
    id: RUN_ID,
    status: 'completed',
    startedAt: '2026-11-21T22:40:05Z',
    updatedAt: '2026-11-21T22:50:05Z',
    settings: { chatModel: 'gpt-4o-mini', imageModel: 'gpt-image-1', turnsPerAgent: 2, iterations: 2 },
    options: ['1', '2', '3', '4', '5', '6'].map((id) => ({ id, label: `Image ${id}`, file: `options/${id}.png` })),
    iterations: [
      {
        index: 1,
        candidates: ['1', '2', '3', '4', '5', '6'],
        messages: round(1, 8),
        ranking: ['1', '3', '6'],
        backed: { ana: '1', ben: '3', chen: '1', dina: '1' },
      },
      {
        index: 2,
        candidates: ['1', '3'],
        final: true,
        messages: r2,
        ranking: ['1', '3'],
        backed: { ana: '1', ben: '1', chen: '1', dina: null },
      },
    ],
    finalPick: '1',
    usage: { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, images: 0 },
    prompts: [],
  };
  await fs.mkdir(path.join(dir, 'runs', RUN_ID), { recursive: true });
  await fs.writeFile(path.join(dir, 'runs', RUN_ID, 'run.json'), JSON.stringify(record, null, 2));
  return dir;
}

function scriptCoder(mock: MockOpenAI): void {
  mock.setFallback((req) => {
    const rf = (
      req.body as {
        response_format?: {
          json_schema?: {
            name?: string;
            schema?: { properties?: { codes?: { items?: { properties?: { message?: { enum?: string[] } } } } } };
          };
        };
      }
    ).response_format;
    const ids =
      rf?.json_schema?.name === 'teamfusion_bales_codes'
        ? (rf.json_schema.schema?.properties?.codes?.items?.properties?.message?.enum ?? [])
        : [];
    if (ids.length === 0) return undefined;
    return { kind: 'json', value: { codes: ids.map((id) => ({ message: id, category: category(id) })) } };
  });
}

async function scrollTo(panel: Frame, id: string): Promise<void> {
  await panel.evaluate((x) => document.getElementById(x)?.scrollIntoView({ block: 'start' }), id);
}

describe('discussion analysis in a real VS Code (code-server)', function () {
  this.timeout(600_000);
  const s = e2eSuite('ipa', { checkWebviewErrors: false });
  let review = '';

  before(async () => {
    requireBuilt(['dist/extension.js', 'dist/webview/panel.js']);
    const ws = await s.makeWorkspace();
    review = await makeReviewWithRun(ws, 'lumen-perfume');
    // A second review, so "Open Review" asks which one (as in a real workspace).
    await copySample(ws, 'second-review');
    await fs.writeFile(path.join(ws, 'second-review', 'review.yaml'), 'title: Second review\n');
    scriptCoder(await s.startMock());
  });

  it('codes the run from the panel and shows the bars, the team line with the compliance flag and the stance table', async () => {
    const page = (await s.startWorkbench()).page;
    const panel = await openReview(page, 'lumen-perfume', 'Lumen');
    await showTab(panel, 'run');
    await waitInFrame(panel, () => !!document.getElementById('tf-code-discussion'), 'the Code discussion button');
    // Before coding: the stance table is there already (it comes from the record), the charts are not.
    assert.equal(await panel.locator('#tf-stance tbody tr').count(), 4);
    assert.equal(await panel.locator('#tf-bales-bars').count(), 0);

    await panel.locator('#tf-code-discussion').click();
    await waitInFrame(panel, () => document.querySelectorAll('#tf-bales-bars rect.tf-cat-seg').length > 0, 'the category bars', 120_000);

    const analysis = JSON.parse(await fs.readFile(path.join(review, 'runs', RUN_ID, 'analysis.json'), 'utf8')) as {
      bales: { message: string; category: number; label: string }[];
      byDesigner: Record<string, Record<string, number>>;
    };
    assert.equal(analysis.bales.length, 13);
    for (const b of analysis.bales) assert.equal(b.category, category(b.message));
    // Every bar segment is one category of one speaker with the count analysis.json has.
    const shown = await panel
      .locator('#tf-bales-bars g[data-speaker]')
      .evaluateAll((gs) =>
        Object.fromEntries(
          gs.map((g) => [
            g.getAttribute('data-speaker'),
            Object.fromEntries(
              [...g.querySelectorAll('rect')].map((r) => [
                r.getAttribute('data-category'),
                Number(/(\d+)$/.exec(r.querySelector('title')?.textContent ?? '')?.[1]),
              ]),
            ),
          ]),
        ),
      );
    assert.deepEqual(shown, analysis.byDesigner);
    assert.ok(shown['guest-critic'], 'guests have a bar too');
    assert.equal(await panel.locator('#tf-team-line polyline').count(), 2);
    assert.match(
      (await panel.locator('#tf-compliant').textContent()) ?? '',
      /Possibly too compliant: 85% of the coded messages are "Agrees"/,
    );
    const stance = await panel
      .locator('#tf-stance tbody tr')
      .evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => c.textContent)));
    // Top choices before the run (rankings): Ana 1, Ben 3, Chen 6, Dina 5 — each named as the review names it, Image k.
    const row = (name: string) => stance.find((r) => r[0]?.startsWith(name))!;
    assert.deepEqual(row('Ana').slice(1), ['Image 1', 'Image 1', 'Image 1', 'no', 'kept Image 1']);
    assert.deepEqual(row('Ben').slice(1), ['Image 3', 'Image 3', 'Image 1', 'yes: round 2, after i2-m2', 'yielded to Image 1']);
    assert.deepEqual(row('Chen').slice(1), ['Image 6', 'Image 1', 'Image 1', 'yes: round 1, after i1-m7', 'yielded to Image 1']);
    assert.deepEqual(row('Dina').slice(1), ['Image 5', 'Image 1', 'nothing', 'yes: round 1, after i1-m8', 'yielded to nothing']);
    assert.equal(
      await panel.locator('#tf-stance-summary').textContent(),
      "1 kept their designer's top choice, 3 yielded (Ben Okafor, Chen Wei → Image 1; Dina Haddad → nothing).",
    );
    assert.deepEqual(s.mock.specErrors(), []);
    const codingRequests = s.mock.requests.filter((r) => r.route === 'chat').length;
    assert.equal(codingRequests, 2);

    for (const [theme, name] of [
      [DARK, 'dark'],
      [LIGHT, 'light'],
      ['Dark High Contrast', 'high-contrast'],
      ['Light High Contrast', 'light-high-contrast'],
    ] as const) {
      await setColorTheme(page, theme);
      await scrollTo(panel, 'tf-discussion-analysis');
      await painted(page);
      await screenshot(page, `20-discussion-analysis-${name}`);
    }
    await setColorTheme(page, DARK);

    // Coding again reuses every code: no request. The host's summary of this second coding in TeamFusion's log says when it
    // is done (the panel shows it only until the state that follows).
    const coded = async () => (await extensionLog(s.w, 'teamfusion.teamfusion')).match(/Coded \d+ messages of run .*/g) ?? [];
    await until(page, 'the first coding in the log', async () => (await coded()).length === 1, 60_000);
    await panel.locator('#tf-code-discussion').click();
    const again = await until(page, 'the second coding in the log', async () => (await coded())[1], 60_000);
    assert.match(again, /\(0 new requests, \d+ reused/, 'every code reused');
    assert.equal(s.mock.requests.filter((r) => r.route === 'chat').length, codingRequests);
  });

  it('in an untrusted workspace the button is off and nothing is sent', async () => {
    await s.stopWorkbench();
    s.mock.reset();
    scriptCoder(s.mock);
    await fs.rm(path.join(review, 'runs', RUN_ID, 'analysis.json'));
    await s.startWorkbench({ workspaceTrust: true });
    const panel = await openReview(s.page, 'lumen-perfume', 'Lumen');
    // What the panel posts from here on is seen (webviewPosts); that it is, shows on the Run tab kept with setState.
    await webviewPosts(panel);
    await showTab(panel, 'overview');
    await showTab(panel, 'run');
    await untilStateKept(panel, 'the Run tab', (state) => (JSON.parse(state) as { tab?: string }).tab === 'run');
    await waitInFrame(panel, () => !!document.getElementById('tf-code-discussion'), 'the Code discussion button');
    assert.equal(await panel.locator('#tf-code-discussion').getAttribute('disabled'), '');
    assert.match((await panel.locator('#tf-discussion-analysis').textContent()) ?? '', /Restricted mode: coding is off/);
    await panel.locator('#tf-code-discussion').click({ force: true });
    // A click handler posts while the click is dispatched: none went to the extension host, so nothing can follow.
    const posted = (await webviewPosts(panel)).filter((p) => p.channel === 'onmessage' && p.data.includes('"codeDiscussion"'));
    assert.deepEqual(posted, [], 'the click posted no codeDiscussion');
    assert.equal(s.mock.requests.length, 0);
    assert.equal(existsSync(path.join(review, 'runs', RUN_ID, 'analysis.json')), false);
    await scrollTo(panel, 'tf-discussion-analysis');
    await screenshot(s.page, '21-discussion-analysis-untrusted-dark');
  });
});
