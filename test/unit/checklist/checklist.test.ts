/**
 * The brief as a checklist (issue 41, item 3): once a run the brief's must-haves, each with a quote found in brief.md (an
 * item whose quote is not there is dropped and said); every remix checked item by item against its image; with
 * `checklist: { repeat: 2 }` each item's agreement; failed items in result.md and in the next round's remix-agent prompt.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { resumeRun, startRun } from '../../../src/core/run/session';
import type { RunRecord } from '../../../src/core/record/record';
import { remixesOf } from '../../../src/core/record/remixes';
import { checkRunRecord } from '../../../src/core/record/recordCheck';
import { estimateRun } from '../../../src/core/run/runEstimate';
import { loadReview } from '../../../src/core/review/loadReview';
import { resolveRunSettings } from '../../../src/core/run/runSettings';
import { NO_IMAGE_REASON, combineChecks } from '../../../src/core/checklist/checklist';
import { OpenAIChatBackend } from '../../../src/core/llm/openaiBackend';
import { parseReviewConfig } from '../../../src/core/review/reviewConfig';
import { requestedJsonSchema, requestTexts } from '../../support/openaiMock/autoResponder';
import type { MockReply, RecordedRequest } from '../../support/openaiMock/types';
import { makeReview } from '../run/fixtures';
import { mockSuite } from '../run/helpers';
import { runFallback } from '../../support/openaiMock/runAnswers';
import { compareRun } from '../../../src/core/evaluation';

const schemaName = (r: RecordedRequest): string | undefined => requestedJsonSchema(r.body)?.name;
const ITEMS = [
  { text: 'Shows the perfume as the key visual', quote: 'A key visual for a new unisex perfume' },
  { text: 'Calm and premium in tone', quote: 'light, calm, premium' },
  { text: 'Gold foil logo', quote: 'a gold foil logo on black' },
];

function fallback(o: { flipFirst?: boolean } = {}) {
  let checks = 0;
  return (req: RecordedRequest): MockReply | undefined => {
    if (schemaName(req) === 'teamfusion_checklist') return { kind: 'json', value: { items: ITEMS } };
    if (schemaName(req) === 'teamfusion_check') {
      checks++;
      const first = o.flipFirst && checks % 2 === 0 ? 'fail' : 'pass';
      return {
        kind: 'json',
        value: {
          checks: [
            { item: 'c1', result: first, reason: 'The bottle is central.' },
            { item: 'c2', result: 'fail', reason: 'Loud neon colours.' },
          ],
        },
      };
    }
    return undefined;
  };
}

describe('the brief as a checklist (issue 41)', function () {
  this.timeout(60_000);
  const suite = mockSuite();

  async function run(yaml: string): Promise<{ root: string; record: RunRecord }> {
    const root = await makeReview({ options: 5, designers: 3 });
    await fs.writeFile(path.join(root, 'review.yaml'), `iterations: 3\nturnsPerAgent: 1\nforks: off\npool: 1\n${yaml}`);
    const record = await startRun({ reviewRoot: root, ...suite.engine, settings: { orderSeed: 1 } });
    assert.equal(record.status, 'completed', record.error);
    return { root, record };
  }

  it('checklist: on — items carry quotes found in brief.md (one dropped, said), every remix has a result for every item, failures reach result.md and the next prompts', async () => {
    suite.mock.setFallback(fallback());
    const { root, record } = await run('checklist: on\n');
    const brief = await fs.readFile(path.join(root, 'brief.md'), 'utf8');
    const list = record.checklist!;
    assert.deepEqual(
      list.items.map((i) => [i.id, i.quote, i.verified]),
      [
        ['c1', ITEMS[0]!.quote, true],
        ['c2', ITEMS[1]!.quote, true],
      ],
    );
    for (const i of list.items) assert.ok(brief.includes(i.quote));
    assert.deepEqual(list.dropped, [ITEMS[2]]);
    assert.equal(list.repeat, 1);
    assert.equal(suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_checklist').length, 1, 'once a run');

    const remixes = record.iterations.flatMap((it) => remixesOf(it));
    assert.deepEqual(
      remixes.map((m) => m.id),
      ['r1', 'r2'],
    );
    for (const m of remixes)
      assert.deepEqual(
        m.checks!.map((c) => [c.item, c.result, c.agreement]),
        [
          ['c1', 'pass', undefined],
          ['c2', 'fail', undefined],
        ],
      );
    // Each check looked at its remix's image.
    const checks = suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_check');
    assert.equal(checks.length, 2);
    for (const c of checks) assert.ok(JSON.stringify(c.body).includes('image_url'));

    const result = await fs.readFile(path.join(root, 'runs', record.id, 'result.md'), 'utf8');
    assert.match(result, /## The brief as a checklist/);
    assert.match(result, /Dropped \(quote not in brief\.md\): Gold foil logo/);
    assert.match(result, /Failed c2: Calm and premium in tone — brief: "light, calm, premium" \(Loud neon colours\.\)/);
    // The next round's remix agent (and the final pick) is told which must-haves the last remixes failed.
    const agents = suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_remix' || schemaName(r) === 'teamfusion_final_pick');
    assert.equal(agents.length, 3);
    const told = agents.map((r) =>
      requestTexts(r.body).some(
        (t) => t.includes("The last round's remixes failed these must-haves") && t.includes('"light, calm, premium"'),
      ),
    );
    assert.deepEqual(told, [false, true, true]);
    assert.ok(requestTexts(agents[1]!.body).some((t) => t.includes('failed by r1')));
    // compare (issue 41, item 4): the final pick's checks, its failed items with their quotes.
    // The scripted final pick is an original option, never checked: no checklist figure; picked r2, its checks.
    assert.equal(record.finalPick, '1');
    assert.equal((await compareRun(root, record.id)).checklist, null);
    const file = path.join(root, 'runs', record.id, 'run.json');
    await fs.writeFile(file, JSON.stringify({ ...(JSON.parse(await fs.readFile(file, 'utf8')) as RunRecord), finalPick: 'r2' }));
    assert.deepEqual((await compareRun(root, record.id)).checklist, {
      remix: 'r2',
      items: 2,
      pass: 1,
      fail: 1,
      unclear: 0,
      passRate: 1 / 2,
      failed: [{ item: 'c2', text: ITEMS[1]!.text, quote: ITEMS[1]!.quote, reason: 'Loud neon colours.' }],
    });
    // The record check reads the checks back: an item the checklist does not have is named.
    const names = ['1.png', '2.png', '3.png', '4.png', '5.png'];
    assert.ok('record' in checkRunRecord(JSON.parse(JSON.stringify(record)), `runs/${record.id}`, names));
    const bad = JSON.parse(JSON.stringify(record)) as RunRecord;
    bad.iterations[0]!.remix!.checks![0]!.item = 'c9';
    const problem = checkRunRecord(bad, `runs/${record.id}`, names);
    assert.ok('problem' in problem && /check of "c9", which is not an item of the run's checklist/.test(problem.problem.message));
  });

  it('checklist: { repeat: 2 } — each remix checked twice independently; agreement per item, a split unclear', async () => {
    suite.mock.setFallback(fallback({ flipFirst: true }));
    const { record } = await run('checklist:\n  repeat: 2\n');
    assert.equal(record.checklist!.repeat, 2);
    assert.equal(suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_check').length, 4);
    for (const m of record.iterations.flatMap((it) => remixesOf(it))) {
      assert.deepEqual(
        m.checks!.map((c) => [c.item, c.result, c.agreement]),
        [
          ['c1', 'unclear', 0.5],
          ['c2', 'fail', 1],
        ],
      );
    }
  });

  it('a run stopped at a check resumes without checking a checked remix again', async () => {
    const base = fallback();
    let seen = 0;
    suite.mock.setFallback((req) => {
      // A failure a resume gets past (the key refused for now), not an answer the endpoint cannot give.
      if (schemaName(req) === 'teamfusion_check' && ++seen === 2) return { kind: 'error', status: 401 };
      return base(req);
    });
    const root = await makeReview({ options: 5, designers: 3 });
    await fs.writeFile(path.join(root, 'review.yaml'), 'iterations: 3\nturnsPerAgent: 1\nforks: off\npool: 1\nchecklist: on\n');
    const first = await startRun({ reviewRoot: root, ...suite.engine, settings: { orderSeed: 1 } });
    assert.equal(first.status, 'failed');
    assert.ok(first.iterations[0]!.remix!.checks);
    assert.equal(first.iterations[1]!.remix!.checks, undefined);
    const again = await resumeRun({ reviewRoot: root, ...suite.engine, runId: first.id });
    assert.equal(again.status, 'completed', again.error);
    assert.equal(suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_check').length, 3, 'r1 once, r2 failed then made');
    assert.equal(suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_checklist').length, 1);
    assert.ok(again.iterations[1]!.remix!.checks);
  });

  it('with repeat: 2, a run cancelled between the repeats of one check resumes with only the missing repeat (no paid check asked again)', async () => {
    const base = fallback();
    const controller = new AbortController();
    let seen = 0;
    suite.mock.setFallback((req) => {
      if (schemaName(req) === 'teamfusion_check' && ++seen === 2) {
        // r1's second repeat: cancelled while it is asked (its first repeat was answered and saved).
        setImmediate(() => controller.abort());
        return { kind: 'hang' };
      }
      return base(req);
    });
    const root = await makeReview({ options: 5, designers: 3 });
    await fs.writeFile(path.join(root, 'review.yaml'), 'iterations: 3\nturnsPerAgent: 1\nforks: off\npool: 1\nchecklist:\n  repeat: 2\n');
    const first = await startRun({ reviewRoot: root, ...suite.engine, settings: { orderSeed: 1 }, signal: controller.signal });
    assert.equal(first.status, 'cancelled', first.error);
    const onDisk = JSON.parse(await fs.readFile(path.join(root, 'runs', first.id, 'run.json'), 'utf8')) as RunRecord;
    const r1 = onDisk.iterations[0]!.remix!;
    assert.equal(r1.checks, undefined, 'not combined before its last repeat');
    assert.deepEqual(
      r1.checksMade?.map((made) => made.map((c) => [c.item, c.result])),
      [
        [
          ['c1', 'pass'],
          ['c2', 'fail'],
        ],
      ],
      'the first repeat is saved as soon as it is made',
    );
    const again = await resumeRun({ reviewRoot: root, ...suite.engine, runId: first.id });
    assert.equal(again.status, 'completed', again.error);
    // r1: its first repeat, the cancelled second, the second again; r2: two. A paid repeat is never asked for twice.
    assert.equal(suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_check').length, 1 + 1 + 1 + 2);
    const checked = again.iterations[0]!.remix!;
    assert.equal(checked.checksMade, undefined, 'combined once every repeat is made');
    // The saved first repeat and the one made on resume are combined (both agree).
    assert.deepEqual(
      checked.checks!.map((c) => [c.item, c.result, c.agreement]),
      [
        ['c1', 'pass', 1],
        ['c2', 'fail', 1],
      ],
    );
  });

  it('a check or a checklist the endpoint cannot answer (HTTP 400) leaves its items unclear or the list empty, said; the run goes on', async () => {
    const base = fallback();
    let seen = 0;
    suite.mock.setFallback((req) => {
      if (schemaName(req) === 'teamfusion_check' && ++seen === 1)
        return { kind: 'error', status: 400, body: { error: { message: 'Unknown response format.', type: 'invalid_request_error' } } };
      return base(req);
    });
    const { record } = await run('checklist: on\n');
    const [r1, r2] = record.iterations.flatMap((it) => remixesOf(it));
    assert.ok(
      r1!.checks!.every((c) => c.result === 'unclear' && /could not answer it: HTTP 400/.test(c.reason)),
      JSON.stringify(r1!.checks),
    );
    assert.deepEqual(
      r2!.checks!.map((c) => c.result),
      ['pass', 'fail'],
    );

    suite.mock.reset();
    const notices: string[] = [];
    suite.mock.setFallback((req) => (schemaName(req) === 'teamfusion_checklist' ? { kind: 'error', status: 400 } : base(req)));
    const root = await makeReview({ options: 5, designers: 3 });
    await fs.writeFile(path.join(root, 'review.yaml'), 'iterations: 3\nturnsPerAgent: 1\nforks: off\npool: 1\nchecklist: on\n');
    const listless = await startRun({
      reviewRoot: root,
      ...suite.engine,
      settings: { orderSeed: 1 },
      onEvent: (e) => void (e.type === 'notice' && notices.push(e.message)),
    });
    assert.equal(listless.status, 'completed', listless.error);
    assert.deepEqual(listless.checklist?.items, []);
    assert.ok(
      notices.some((n) => /must-haves could not be listed \(the endpoint could not answer it: HTTP 400/.test(n)),
      notices.join('\n'),
    );
    assert.equal(suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_check').length, 0);
  });

  it('the scripted server answers the checklist from the brief (every quote found) and checks as unclear, said', async () => {
    suite.mock.setFallback(runFallback('Scripted reply:'));
    const { root, record } = await run('checklist: on\n');
    const brief = await fs.readFile(path.join(root, 'brief.md'), 'utf8');
    assert.ok(record.checklist!.items.length >= 2);
    assert.equal(record.checklist!.dropped, undefined);
    for (const i of record.checklist!.items) assert.ok(brief.includes(i.quote), i.quote);
    for (const m of record.iterations.flatMap((it) => remixesOf(it))) {
      assert.equal(m.checks!.length, record.checklist!.items.length);
      assert.ok(m.checks!.every((c) => c.result === 'unclear' && c.reason.startsWith('Scripted reply:')));
    }
    const result = await fs.readFile(path.join(root, 'runs', record.id, 'result.md'), 'utf8');
    assert.match(result, /- Checklist: the brief's must-haves, each remix checked once/);
  });

  it('a text-only chat model (no vision): every item of every remix is unclear with that reason, and no check is sent', async () => {
    suite.mock.setFallback(fallback());
    const root = await makeReview({ options: 5, designers: 3 });
    await fs.writeFile(path.join(root, 'review.yaml'), 'iterations: 3\nturnsPerAgent: 1\nforks: off\npool: 1\nchecklist:\n  repeat: 2\n');
    const notices: string[] = [];
    const record = await startRun({
      reviewRoot: root,
      ...suite.engine,
      chat: new OpenAIChatBackend(suite.engine.client, { textOnly: true }),
      settings: { orderSeed: 1 },
      onEvent: (e) => void (e.type === 'notice' && notices.push(e.message)),
    });
    assert.equal(record.status, 'completed', record.error);
    // The must-haves are still listed (a text request), each quote found in the brief.
    assert.deepEqual(
      record.checklist!.items.map((i) => i.id),
      ['c1', 'c2'],
    );
    assert.equal(
      suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_check').length,
      0,
      'a model that cannot see is not asked to look',
    );
    const remixes = record.iterations.flatMap((it) => remixesOf(it));
    assert.equal(remixes.length, 2);
    for (const m of remixes)
      assert.deepEqual(m.checks, [
        { item: 'c1', result: 'unclear', reason: NO_IMAGE_REASON },
        { item: 'c2', result: 'unclear', reason: NO_IMAGE_REASON },
      ]);
    assert.match(NO_IMAGE_REASON, /text-only/);
    assert.ok(
      notices.some((n) => /text-only and cannot see images/.test(n)),
      notices.join('\n'),
    );
    // Nothing failed, so the next round is told of no failed must-have; result.md gives the reason.
    const agents = suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_remix');
    assert.ok(agents.every((r) => !requestTexts(r.body).some((t) => t.includes("The last round's remixes failed these must-haves"))));
    const result = await fs.readFile(path.join(root, 'runs', record.id, 'result.md'), 'utf8');
    assert.ok(result.includes('text-only'), 'result.md says why the items are unclear');
  });

  it('checklist: off asks nothing and records nothing', async () => {
    suite.mock.setFallback(fallback());
    for (const yaml of ['checklist: off\n']) {
      suite.mock.reset();
      suite.mock.setFallback(fallback());
      const { record } = await run(yaml);
      assert.equal(record.checklist, undefined);
      assert.equal(
        suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_checklist' || schemaName(r) === 'teamfusion_check').length,
        0,
      );
    }
  });

  it('review.yaml checklist: off, on or { repeat: 1–3 }; anything else refused in one sentence at its line', () => {
    assert.deepEqual(parseReviewConfig('checklist: on\n').config.checklist, { repeat: 1 });
    assert.equal(parseReviewConfig('checklist: off\n').config.checklist, 'off');
    assert.deepEqual(parseReviewConfig('checklist:\n  repeat: 3\n').config.checklist, { repeat: 3 });
    for (const bad of ['checklist: yes\n', 'checklist:\n  repeat: 4\n']) {
      const d = parseReviewConfig(bad).diagnostics;
      assert.equal(d.length, 1, bad);
      assert.match(d[0]!.message, /checklist/);
    }
  });

  it('combineChecks: the majority of repeated checks, its share as agreement; no majority is unclear', () => {
    const c = (item: string, result: 'pass' | 'fail' | 'unclear') => ({ item, result, reason: result });
    assert.deepEqual(combineChecks(['a'], [[c('a', 'pass')], [c('a', 'pass')], [c('a', 'fail')]]), [
      { item: 'a', result: 'pass', reason: 'pass', agreement: 2 / 3 },
    ]);
    assert.equal(combineChecks(['a'], [[c('a', 'pass')], [c('a', 'fail')], [c('a', 'unclear')]])[0]!.result, 'unclear');
    assert.deepEqual(combineChecks(['a'], [[c('a', 'fail')]]), [{ item: 'a', result: 'fail', reason: 'fail' }]);
  });

  it('the estimate counts the list of must-haves and every check', async () => {
    const root = await makeReview({ options: 5, designers: 3 });
    await fs.writeFile(path.join(root, 'review.yaml'), 'iterations: 3\nforks: off\npool: 1\nchecklist:\n  repeat: 2\n');
    const { review } = await loadReview(root, { requireRankings: true, decodeImages: false });
    const plain = estimateRun(review!, 'design', resolveRunSettings(undefined, { ...review!.config, checklist: 'off' }));
    const checked = estimateRun(review!, 'design', resolveRunSettings(undefined, review!.config));
    assert.equal(checked.cost.requests - plain.cost.requests, 1 + 2 * 2, 'one list, two remixes checked twice');
  });
});
