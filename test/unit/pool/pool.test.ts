/**
 * A pool, elected (issue 41): in a remix round the remix agent proposes `pool: K` sets of directions in its one answer,
 * every proxy ranks them (strict schema, the letters an enum), Schulze over those rankings with the members' weights
 * elects as many as the round makes remixes, and only the elected reach the image model; a pool that is one idea is
 * asked again once. Against the spec-checking mock, in process.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { resumeRun, startRun } from '../../../src/core/run/session';
import { checkRunRecord } from '../../../src/core/record/recordCheck';
import type { RunRecord } from '../../../src/core/record/record';
import { DIVERSITY_FLOOR, poolDiversity } from '../../../src/core/stats/election/diversity';
import { estimateRun } from '../../../src/core/run/runEstimate';
import { loadReview } from '../../../src/core/review/loadReview';
import { resolveRunSettings } from '../../../src/core/run/runSettings';
import { defaultReply, requestedJsonSchema, requestTexts } from '../../support/openaiMock/autoResponder';
import type { MockReply, RecordedRequest } from '../../support/openaiMock/types';
import { runFallback } from '../../support/openaiMock/runAnswers';
import { asksForPool } from '../../support/openaiMock/runPoolAnswers';
import { withDecisionPoints } from '../../support/decisionPoints';
import { makeReview } from '../run/fixtures';
import { mockSuite, runJson, startCli } from '../run/helpers';
import { parseRunArgs } from '../../../src/cli/commands/run/run';
import { groupValuesOf } from '../../../src/core/evaluation/evaluate/groupBy';
import { compareRun } from '../../../src/core/evaluation';
import { CONFIRM_ABOVE_REQUESTS, costWords } from '../../../src/core/llm/costQuestion';
import { remixesWithDirections } from '../../../src/core/record/remixes';
import { poolTableOf } from '../../../src/core/pool/poolTable';
import { applyJournal, JOURNAL_FILE, type JournalLine } from '../../../src/core/record/journal';
import { readRoster } from '../../../src/core/record/journalCheck';

/** Four directions with no words in common but their markers' shape: a diverse pool. */
const DIRECTIONS = ['amber dunes horizon', 'cobalt grid skyline', 'moss forest canopy', 'coral reef bubbles'];
/** Four directions that say one thing: a pool below the diversity floor. */
const SAME = [0, 1, 2, 3].map((i) => `warm calm amber glow with soft light and a quiet premium mood ${i}`);
const parts = (t: string) => ({
  composition: `${t} layout`,
  visualElements: `${t} motif`,
  colour: `${t} palette`,
  typography: `${t} lettering`,
});

/** Each member's ranking of the letters (chosen so that the weighted Schulze order has no tie). */
const RANKINGS: Record<string, string[]> = { Ana: ['c', 'a', 'b', 'd'], Ben: ['a', 'b', 'c', 'd'], Chloé: ['b', 'c', 'a', 'd'] };

const schemaName = (r: RecordedRequest): string | undefined => requestedJsonSchema(r.body)?.name;
const speakerOf = (r: RecordedRequest): string | undefined => /You are role-playing "([^"]+)"/.exec(requestTexts(r.body).join('\n'))?.[1];

function fallback(o: { directions?: string[]; reask?: string[]; bad?: string } = {}) {
  return (req: RecordedRequest): MockReply | undefined => {
    const base = defaultReply(req);
    const name = schemaName(req);
    if ((name === 'teamfusion_remix' || name === 'teamfusion_pool') && base.kind === 'json' && 'remixes' in (base.value as object)) {
      const value = base.value as Record<string, unknown> & { remixes: { from: string[] }[] };
      const words = name === 'teamfusion_pool' ? (o.reask ?? DIRECTIONS) : (o.directions ?? DIRECTIONS);
      return {
        kind: 'json',
        value: {
          ...value,
          remixes: value.remixes.map((p, i) => ({
            ...p,
            idea: `idea ${i + 1}`,
            differs: `the ${words[i]} one`,
            editingDirections: parts(words[i]!),
          })),
        },
      };
    }
    if (name === 'teamfusion_pool_ranking') {
      const who = speakerOf(req)!;
      return { kind: 'json', value: { ranking: who === o.bad ? ['a', 'a', 'b', 'c'] : RANKINGS[who] } };
    }
    return undefined;
  };
}

/** An independent Schulze (winning votes, weights): the letters, best first; throws on a tie (the test avoids one). */
function schulze(rankings: Record<string, string[]>, weights: Record<string, number>, letters: string[]): string[] {
  const d = (a: string, b: string) =>
    Object.entries(rankings).reduce((n, [m, r]) => n + (r.indexOf(a) < r.indexOf(b) ? (weights[m] ?? 1) : 0), 0);
  const p = new Map<string, number>();
  for (const a of letters) for (const b of letters) if (a !== b) p.set(a + b, d(a, b) > d(b, a) ? d(a, b) : 0);
  for (const k of letters)
    for (const a of letters)
      for (const b of letters) {
        if (a === b || a === k || b === k) continue;
        p.set(a + b, Math.max(p.get(a + b)!, Math.min(p.get(a + k)!, p.get(k + b)!)));
      }
  const wins = (a: string) => letters.filter((b) => b !== a && p.get(a + b)! > p.get(b + a)!).length;
  const order = [...letters].sort((a, b) => wins(b) - wins(a));
  for (let i = 1; i < order.length; i++) assert.notEqual(wins(order[i - 1]!), wins(order[i]!), 'the test rankings must not tie');
  return order;
}

async function pooledReview(yaml: string): Promise<string> {
  const root = await makeReview({ options: 5, designers: 3 });
  // The checklist (on by default) is another suite's: these count a pool's requests alone.
  await fs.writeFile(
    path.join(root, 'review.yaml'),
    `iterations: 2\nturnsPerAgent: 1\n${/checklist/.test(yaml) ? '' : 'checklist: off\n'}${yaml}`,
  );
  return root;
}

describe('a pool of directions, elected by the proxies (issue 41)', function () {
  this.timeout(60_000);
  const suite = mockSuite();

  async function run(root: string): Promise<RunRecord> {
    const record = await startRun({ reviewRoot: root, ...suite.engine, settings: { orderSeed: 1 } });
    assert.equal(record.status, 'completed', record.error);
    const check = checkRunRecord(JSON.parse(JSON.stringify(record)), `runs/${record.id}`, ['1.png', '2.png', '3.png', '4.png', '5.png']);
    assert.ok('record' in check, JSON.stringify(check));
    return record;
  }

  it('pool: 4 records four candidates, a permutation per member, and elects what an independent weighted Schulze elects; only the elected reach the image model', async () => {
    suite.mock.setFallback(fallback());
    const root = await pooledReview(
      'pool: 4\nremixesPerIteration: 2\nteam:\n  d1:\n    weight: 3\n  d2:\n    weight: 1\n  d3:\n    weight: 1\n',
    );
    const record = await run(root);
    const it = record.iterations[0]!;
    const pool = it.pool!;
    assert.equal(record.settings.pool, 4);
    assert.deepEqual(
      pool.candidates.map((c) => c.letter),
      ['a', 'b', 'c', 'd'],
    );
    assert.equal(pool.method, 'schulze');
    assert.equal(pool.reasked, false);
    assert.ok(pool.diversity >= DIVERSITY_FLOOR && pool.diversity <= 1);
    assert.equal(pool.diversity, poolDiversity(pool.candidates.map((c) => c.editingDirections)));
    assert.ok(pool.candidates.every((c, i) => c.differs === `the ${DIRECTIONS[i]} one` && c.from.length > 0));
    // One ranking per member, each a permutation of the letters, asked once each with the letters as an enum.
    assert.deepEqual(Object.keys(pool.rankings).sort(), ['d1', 'd2', 'd3']);
    for (const r of Object.values(pool.rankings)) assert.deepEqual([...r].sort(), ['a', 'b', 'c', 'd']);
    const asked = suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_pool_ranking');
    assert.equal(asked.length, 3);
    const enumOf = (r: RecordedRequest) =>
      (requestedJsonSchema(r.body)!.schema as { properties: { ranking: { items: { enum: string[] } } } }).properties.ranking.items.enum;
    for (const r of asked) assert.deepEqual(enumOf(r), ['a', 'b', 'c', 'd']);
    assert.deepEqual(
      record.prompts.filter((p) => p.kind === 'pool-ranking').map((p) => p.speaker),
      ['d1', 'd2', 'd3'],
    );
    // The remix agent proposed the whole pool in its one answer.
    assert.equal(suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_remix').length, 1);
    assert.equal(suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_pool').length, 0, 'a diverse pool is not asked again');

    // The election: an independent Schulze over the recorded rankings with the members' weights.
    const expected = schulze(pool.rankings, { d1: 3, d2: 1, d3: 1 }, ['a', 'b', 'c', 'd']).slice(0, 2);
    assert.deepEqual(pool.elected, expected);
    assert.deepEqual(expected, ['c', 'a'], 'the weighted Schulze of these rankings (Ana weighs 3)');

    // Only the elected went to the image model, each as the remix with its letter.
    assert.deepEqual(
      it.remixes!.map((m) => [m.id, m.letter]),
      [
        ['r1a', 'a'],
        ['r1c', 'c'],
      ],
    );
    const edits = suite.mock.requests.filter((r) => r.route === 'edit').map((r) => String((r.body as { prompt?: unknown }).prompt));
    assert.equal(edits.length, 2);
    const sent = (w: string) => edits.some((e) => e.includes(w));
    assert.deepEqual(DIRECTIONS.map(sent), [true, false, true, false]);

    const result = await fs.readFile(path.join(root, 'runs', record.id, 'result.md'), 'utf8');
    assert.match(result, /Pool of directions/);
    assert.match(result, /Elected by Schulze over the proxies' rankings: c, a/);
    assert.match(result, /Ana: c, a, b, d/);
    assert.equal(groupValuesOf(record, 3).pool, 'pooled', 'evaluate --by pool');
    // compare (issue 41, item 2): the round's diversity, no re-ask, and the agent's first proposal (a) among the elected.
    assert.deepEqual((await compareRun(root, record.id)).pool, [
      { iteration: 1, candidates: 4, elected: ['c', 'a'], diversity: pool.diversity, reasked: false, firstElected: true },
    ]);
  });

  it("each proxy's ranking of the pool is a journal line, not a rewrite of run.json; a reader takes it from the journal and refuses one by a non-designer or not of every letter once", async () => {
    suite.mock.setFallback(fallback());
    const root = await pooledReview('pool: 4\n');
    const record = await run(root);
    const rankings = record.iterations[0]!.pool!.rankings;
    const text = await fs.readFile(path.join(root, 'runs', record.id, JOURNAL_FILE), 'utf8');
    const lines = text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as JournalLine);
    const ranked = lines.flatMap((l, i) => ('poolRanking' in l && l.iteration === 1 ? [i] : []));
    const rankingLines = ranked.map((i) => lines[i] as Extract<JournalLine, { poolRanking: unknown }>);
    assert.deepEqual(
      rankingLines.map((l) => l.poolRanking.member),
      ['d1', 'd2', 'd3'],
    );
    for (const l of rankingLines) assert.deepEqual(l.poolRanking.ranking, rankings[l.poolRanking.member]);
    assert.ok(
      !lines.slice(ranked[0], ranked.at(-1)).some((l) => 'checkpoint' in l),
      'run.json is not rewritten between two rankings of the pool',
    );

    // A reader of run.json as it stood before the rankings applies them from the journal.
    const roster = await readRoster(root);
    const bare = JSON.parse(JSON.stringify(record)) as RunRecord;
    bare.iterations[0]!.pool!.rankings = {};
    const merged = applyJournal(bare, rankingLines, JOURNAL_FILE, roster);
    assert.deepEqual(merged.refused, []);
    assert.equal(merged.applied, 3);
    assert.deepEqual(bare.iterations[0]!.pool!.rankings, rankings);

    // Lines the driver would not have written are refused in words and never applied.
    const forged = JSON.parse(JSON.stringify(record)) as RunRecord;
    forged.iterations[0]!.pool!.rankings = { d1: rankings.d1! };
    const refused = applyJournal(
      forged,
      [
        { iteration: 1, poolRanking: { member: 'zed', ranking: ['a', 'b', 'c', 'd'] } },
        { iteration: 1, poolRanking: { member: 'd2', ranking: ['a', 'a', 'c', 'd'] } },
        { iteration: 1, poolRanking: { member: 'd3', ranking: ['a', 'b', 'c'] } },
        { iteration: 1, poolRanking: { member: 'd1', ranking: [...rankings.d1!].reverse() } },
      ],
      JOURNAL_FILE,
      roster,
    );
    assert.equal(refused.applied, 0);
    assert.deepEqual(forged.iterations[0]!.pool!.rankings, { d1: rankings.d1 });
    assert.deepEqual(
      refused.refused.map((d) => d.message.replace(/ This line is not applied\.$/, '')),
      [
        'A ranking of the pool is by "zed", who is not a designer of this review.',
        "d2's proxy's ranking of the pool of iteration 1 is not every letter of the pool (a, b, c, d) once.",
        "d3's proxy's ranking of the pool of iteration 1 is not every letter of the pool (a, b, c, d) once.",
        "d1's proxy's ranking of the pool differs from the one in run.json.",
      ],
    );
  });

  it('a pool of near-identical directions is asked again once, and only once', async () => {
    suite.mock.setFallback(fallback({ directions: SAME, reask: SAME }));
    const record = await run(await pooledReview('pool: 4\n'));
    const pool = record.iterations[0]!.pool!;
    assert.equal(pool.reasked, true);
    assert.ok(pool.diversity < DIVERSITY_FLOOR, 'still one idea after the re-ask: the round goes on with it');
    assert.equal(suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_pool').length, 1, 'one re-ask, bounded');
    assert.deepEqual(record.prompts.filter((p) => p.kind === 'pool-reask').length, 1);
    assert.equal(pool.elected.length, 1);
    assert.equal(record.iterations[0]!.remixes, undefined);
    assert.deepEqual(record.iterations[0]!.remix?.letter, pool.elected[0]);
  });

  it('a re-asked pool that differs replaces the first, its diversity recorded', async () => {
    suite.mock.setFallback(fallback({ directions: SAME }));
    const record = await run(await pooledReview('pool: 4\n'));
    const pool = record.iterations[0]!.pool!;
    assert.equal(pool.reasked, true);
    assert.ok(pool.diversity >= DIVERSITY_FLOOR);
    assert.ok(pool.candidates[0]!.editingDirections.includes(DIRECTIONS[0]!));
  });

  it('a ranking that is not a permutation is repaired once, then left out of the election and said', async () => {
    suite.mock.setFallback(fallback({ bad: 'Ben' }));
    const record = await run(await pooledReview('pool: 4\nteam:\n  d1:\n    weight: 3\n'));
    const pool = record.iterations[0]!.pool!;
    assert.deepEqual(Object.keys(pool.rankings).sort(), ['d1', 'd3']);
    assert.equal(pool.leftOut?.[0]?.member, 'd2');
    assert.match(pool.leftOut![0]!.reason, /left out of the election/);
    assert.equal(
      record.prompts.filter((p) => p.kind === 'pool-ranking' && p.speaker === 'd2').length,
      2,
      'the first answer and one repair',
    );
    assert.deepEqual(pool.elected, schulze(pool.rankings, { d1: 3, d3: 1 }, ['a', 'b', 'c', 'd']).slice(0, 1));
  });

  it("a round that forks: the fork replaces the pool (no ranking asked), one remix per side from the agent's first proposal", async () => {
    const pool = fallback();
    const points = withDecisionPoints([
      {
        question: 'Warm or cool?',
        positions: [
          { position: 'warm', heldBy: ['d1', 'd2'] },
          { position: 'cool', heldBy: ['d3'] },
        ],
      },
    ]);
    suite.mock.setFallback((req) => {
      const name = schemaName(req);
      const reply = pool(req);
      if (name === 'teamfusion_remix' && reply?.kind === 'json')
        return {
          kind: 'json',
          value: {
            ...(reply.value as object),
            decisionPoints: (points(req) as { value: { decisionPoints: unknown } }).value.decisionPoints,
          },
        };
      return reply ?? points(req);
    });
    const record = await run(await pooledReview('pool: 4\n'));
    const it = record.iterations[0]!;
    assert.equal(it.pool, undefined);
    assert.equal(suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_pool_ranking').length, 0);
    assert.deepEqual(
      it.remixes!.map((m) => m.fork?.position),
      ['warm', 'cool'],
    );
    assert.ok(
      it.proposals!.every((p) => p.editingDirections.includes(DIRECTIONS[0]!)),
      "each side starts from the agent's first proposal",
    );
  });

  it('the scripted server answers a pool from the run: proposals that differ (no re-ask), each proxy ranking from its own designer', async () => {
    suite.mock.setFallback(runFallback('Scripted reply:'));
    // forks: off — the scripted agent reports the team's split, and a round that forks leaves the pool to the fork.
    const record = await run(await pooledReview('pool: 4\nforks: off\n'));
    const pool = record.iterations[0]!.pool!;
    assert.equal(pool.candidates.length, 4);
    assert.equal(pool.reasked, false);
    assert.ok(pool.diversity >= DIVERSITY_FLOOR, String(pool.diversity));
    const rankings = Object.values(pool.rankings);
    assert.equal(rankings.length, 3);
    assert.ok(new Set(rankings.map((r) => r.join())).size > 1, 'the proxies rank from their own designers, not all alike');
    assert.equal(record.iterations[0]!.remix?.id, 'r1');
    assert.equal(record.iterations[0]!.remix?.letter, pool.elected[0]);
  });

  it('a run stopped mid-election resumes without asking a recorded ranking again', async () => {
    const pool = fallback();
    let failBen = true;
    suite.mock.setFallback((req) => {
      if (schemaName(req) === 'teamfusion_pool_ranking' && speakerOf(req) === 'Ben' && failBen) {
        failBen = false;
        return { kind: 'error', status: 401 };
      }
      return pool(req);
    });
    const root = await pooledReview('pool: 4\n');
    const first = await startRun({ reviewRoot: root, ...suite.engine, settings: { orderSeed: 1 } });
    assert.equal(first.status, 'failed');
    // The rankings are asked at once: Ben's failure fails only his; Ana's and Chloé's are recorded, in designer order.
    assert.deepEqual(Object.keys(first.iterations[0]!.pool!.rankings), ['d1', 'd3']);
    assert.deepEqual(first.iterations[0]!.pool!.elected, []);
    const askedFirst = suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_pool_ranking').map(speakerOf);
    assert.deepEqual([...askedFirst].sort(), ['Ana', 'Ben', 'Chloé']);
    const again = await resumeRun({ reviewRoot: root, ...suite.engine, runId: first.id });
    assert.equal(again.status, 'completed', again.error);
    const asked = suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_pool_ranking').map(speakerOf);
    assert.deepEqual(asked.slice(askedFirst.length), ['Ben'], 'the recorded rankings are not asked again');
    assert.equal(suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_remix').length, 1);
    assert.deepEqual(Object.keys(again.iterations[0]!.pool!.rankings), ['d1', 'd3', 'd2']);
  });

  it("the proxies' rankings are asked at once (all in flight together) and recorded in designer order, whatever order they answer in", async () => {
    suite.mock.setFallback(fallback());
    const ranking = (r: RecordedRequest): boolean => schemaName(r) === 'teamfusion_pool_ranking';
    // Held from the first ranking on: the others arrive while it waits, so all three were sent before any answer.
    const release = suite.mock.hold(() => suite.mock.requests.some(ranking));
    const root = await pooledReview('pool: 4\n');
    const running = startRun({ reviewRoot: root, ...suite.engine, settings: { orderSeed: 1 } });
    await suite.mock.waitForRequests(3, { route: 'chat' }).then(async () => {
      for (let i = 0; i < 400 && suite.mock.requests.filter(ranking).length < 3; i++) await new Promise((r) => setTimeout(r, 5));
    });
    assert.deepEqual(
      suite.mock.requests.filter(ranking).map(speakerOf).sort(),
      ['Ana', 'Ben', 'Chloé'],
      'all three sent before any answer',
    );
    release();
    const record = await running;
    assert.equal(record.status, 'completed', record.error);
    const rankings = record.iterations[0]!.pool!.rankings;
    assert.deepEqual(Object.keys(rankings), ['d1', 'd2', 'd3']);
    assert.deepEqual(
      record.prompts.filter((p) => p.kind === 'pool-ranking').map((p) => p.speaker),
      ['d1', 'd2', 'd3'],
      "the rankings' prompts in designer order",
    );
    const journal = (await fs.readFile(path.join(root, 'runs', record.id, JOURNAL_FILE), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as JournalLine)
      .flatMap((l) => ('poolRanking' in l ? [l.poolRanking.member] : []));
    assert.deepEqual(journal, ['d1', 'd2', 'd3'], "the journal's ranking lines in designer order");
    assert.deepEqual(rankings, { d1: RANKINGS.Ana, d2: RANKINGS.Ben, d3: RANKINGS.Chloé });
  });

  it('with maxConcurrency 1 the rankings are asked one after another', async () => {
    suite.mock.setFallback(fallback());
    const root = await pooledReview('pool: 4\nmaxConcurrency: 1\n');
    const record = await run(root);
    assert.deepEqual(Object.keys(record.iterations[0]!.pool!.rankings), ['d1', 'd2', 'd3']);
    assert.equal(suite.mock.maxInFlight('chat'), 1);
  });

  it('a pool answer with a repeat and a source outside the round is repaired once, then the round goes on with what is valid, said', async () => {
    const notices: string[] = [];
    for (const [shape, valid] of [
      ['short', 2],
      ['one', 1],
    ] as const) {
      suite.mock.reset();
      const pool = fallback();
      suite.mock.setFallback((req) => {
        const reply = pool(req);
        if (schemaName(req) === 'teamfusion_remix' && reply?.kind === 'json') {
          const v = reply.value as { remixes: { from: string[] }[] };
          const [a, b] = v.remixes;
          // Always (first answer and its repair): a repeat of the first, and one whose sources are not of this round.
          const remixes =
            shape === 'short' ? [a, { ...a }, { ...b, from: ['nowhere'] }, v.remixes[3]] : [a, { ...a }, { ...b, from: ['nowhere'] }];
          return { kind: 'json', value: { ...v, remixes } };
        }
        if (schemaName(req) === 'teamfusion_pool_ranking') {
          const letters = (requestedJsonSchema(req.body)!.schema as { properties: { ranking: { items: { enum: string[] } } } }).properties
            .ranking.items.enum;
          return { kind: 'json', value: { ranking: RANKINGS[speakerOf(req)!]!.filter((l) => letters.includes(l)) } };
        }
        return reply;
      });
      const record = await startRun({
        reviewRoot: await pooledReview('pool: 4\n'),
        ...suite.engine,
        settings: { orderSeed: 1 },
        onEvent: (e) => void (e.type === 'notice' && notices.push(e.message)),
      });
      assert.equal(record.status, 'completed', record.error);
      const it = record.iterations[0]!;
      assert.equal(suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_remix').length, 2, 'the answer and its one repair');
      assert.equal(it.pool!.candidates.length, valid);
      assert.ok(it.pool!.candidates.every((c) => !c.from.includes('nowhere')));
      assert.ok(
        notices.some(
          (n) =>
            n.includes(`the round goes on with the ${valid} valid proposal`) &&
            n.includes("no source among this round's candidates") &&
            n.includes('the same directions as an earlier proposal'),
        ),
        notices.join('\n'),
      );
      // A pool of one has nothing to rank; a pool of two is ranked and elects as before.
      assert.equal(suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_pool_ranking').length, valid > 1 ? 3 : 0);
      assert.equal(it.pool!.elected.length, 1);
      assert.equal(it.remix?.letter, it.pool!.elected[0]);
    }
  });

  it('a re-ask the endpoint never answered is asked on resume (once); one that was answered is not asked again', async () => {
    const pool = fallback({ directions: SAME });
    let failed = false;
    suite.mock.setFallback((req) => {
      if (schemaName(req) === 'teamfusion_pool' && !failed) {
        failed = true;
        return { kind: 'error', status: 401 };
      }
      return pool(req);
    });
    const root = await pooledReview('pool: 4\n');
    const first = await startRun({ reviewRoot: root, ...suite.engine, settings: { orderSeed: 1 } });
    assert.equal(first.status, 'failed');
    assert.equal(first.iterations[0]!.pool!.reasked, false, 'not answered: not counted as asked');
    const again = await resumeRun({ reviewRoot: root, ...suite.engine, runId: first.id });
    assert.equal(again.status, 'completed', again.error);
    assert.equal(again.iterations[0]!.pool!.reasked, true);
    assert.ok(again.iterations[0]!.pool!.diversity >= DIVERSITY_FLOOR, 'the answered re-ask replaced the pool');
    assert.equal(suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_pool').length, 2, 'the failed one and its one answer');
    assert.equal(suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_remix').length, 1, 'the pool itself is not asked again');
  });

  it('run --pool K (the flag wins over review.yaml) through the built CLI; out-of-bounds values refused in words', async () => {
    suite.mock.setFallback(fallback());
    const root = await pooledReview('pool: 2\nforks: off\n');
    const r = await startCli(['run', root, '--pool', '3', '--json'], suite.env).done;
    assert.equal(r.code, 0, r.stderr);
    const rec = await runJson(root, (JSON.parse(r.stdout) as { id: string }).id);
    assert.equal(rec.settings.pool, 3);
    assert.deepEqual(
      rec.iterations[0]!.pool!.candidates.map((c) => c.letter),
      ['a', 'b', 'c'],
    );
    assert.equal(parseRunArgs(['r', '--pool', '8']).pool, 8);
    assert.throws(() => parseRunArgs(['r', '--pool', '9']), /--pool: pool must be a whole number from 1 to 8/);
    const bad = await pooledReview('pool: 0\n');
    const v = await startCli(['validate', bad], suite.env).done;
    assert.notEqual(v.code, 0);
    assert.match(v.stdout + v.stderr, /review\.yaml:\d+:\d+: error: pool must be a whole number from 1 to 8 \(found 0\)/);
  });

  it('pool: 1 (no pool) a round asks no ranking and records no pool', async () => {
    suite.mock.setFallback(fallback());
    const record = await run(await pooledReview('pool: 1\n'));
    assert.equal(record.iterations[0]!.pool, undefined);
    assert.equal(groupValuesOf(record, 3).pool, 'not pooled');
    assert.equal(suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_pool_ranking').length, 0);
  });

  it('the estimate counts the pool and the checklist by default: a run of 3 rounds of 4 members is 54 requests, 35 without either (docs/run.md), 44 with the checklist alone, under the threshold that asks first', async () => {
    const root = await makeReview({ options: 6, designers: 4 });
    const { review } = await loadReview(root, { requireRankings: true, decodeImages: false });
    const byDefault = estimateRun(review!, 'design', resolveRunSettings(undefined, review!.config)).cost;
    const without = estimateRun(review!, 'design', resolveRunSettings(undefined, { ...review!.config, pool: 1, checklist: 'off' })).cost;
    const checklistOnly = estimateRun(review!, 'design', resolveRunSettings(undefined, { ...review!.config, pool: 1 })).cost;
    assert.deepEqual([byDefault.requests, without.requests, checklistOnly.requests], [54, 35, 44]);
    // A default run of a team of four is not asked for: its dollars, not its requests, can make it ask.
    assert.ok(byDefault.requests <= CONFIRM_ABOVE_REQUESTS);
    assert.match(
      byDefault.of,
      /of them 10 to elect from pools of 4 directions .* and 9 to hold the remixes to the brief's checklist \(its list, then each remix checked once\)/,
    );
    assert.match(checklistOnly.of, /9 to hold the remixes to the brief's checklist \(its list, then each remix checked once\)/);
    assert.doesNotMatch(checklistOnly.of, /pools of/);
  });

  it("the estimate counts each remix round's rankings and its re-ask", async () => {
    const root = await pooledReview('pool: 4\n');
    const { review } = await loadReview(root, { requireRankings: true, decodeImages: false });
    const plain = estimateRun(review!, 'design', resolveRunSettings(undefined, { ...review!.config, pool: 1 }));
    const pooled = estimateRun(review!, 'design', resolveRunSettings(undefined, review!.config));
    assert.equal(pooled.cost.requests - plain.cost.requests, 3 + 1, 'one remix round: three rankings and one re-ask');
  });

  it("the estimate changes with pool K (its tokens; the requests from K = 2 on) and with the checklist's repeat (its requests)", async () => {
    const root = await pooledReview('forks: off\n');
    const { review } = await loadReview(root, { requireRankings: true, decodeImages: false });
    const at = (o: { pool?: number; checklist?: 'off' | { repeat: number } }) =>
      estimateRun(review!, 'design', resolveRunSettings(undefined, { ...review!.config, iterations: 3, pool: 1, checklist: 'off', ...o }))
        .cost;
    const k = [1, 2, 4, 8].map((pool) => at({ pool }));
    // 3 members, two remix rounds: each pooled round adds three rankings and one re-ask, whatever K.
    assert.deepEqual(
      k.map((c) => c.requests - k[0]!.requests),
      [0, 8, 8, 8],
    );
    const usd = k.map((c) => c.estimateUsd!);
    assert.ok(
      usd.every((x) => typeof x === 'number' && x > 0),
      JSON.stringify(usd),
    );
    assert.ok(usd[0]! < usd[1]! && usd[1]! < usd[2]! && usd[2]! < usd[3]!, `a bigger pool costs more: ${usd.join(' < ')}`);
    const r = [0, 1, 2, 3].map((repeat) => at({ checklist: repeat ? { repeat } : 'off' }));
    // Two remixes in all: one list, then each remix checked `repeat` times.
    assert.deepEqual(
      r.map((c) => c.requests - r[0]!.requests),
      [0, 1 + 2, 1 + 4, 1 + 6],
    );
    assert.ok(r[1]!.estimateUsd! < r[2]!.estimateUsd! && r[2]!.estimateUsd! < r[3]!.estimateUsd!);
    // The cost question says what they are for.
    const both = at({ pool: 4, checklist: { repeat: 2 } });
    assert.equal(both.requests, k[0]!.requests + 8 + 5);
    assert.equal(
      costWords({ ...both, estimateUsd: 1 }),
      `${both.requests} requests for 3 rounds of 3 members, of them 8 to elect from pools of 4 directions (each member's ranking and one re-ask a remix round) and 5 to hold the remixes to the brief's checklist (its list, then each remix checked twice) (about $1.00)`,
    );
    assert.equal(k[0]!.of, '3 rounds of 3 members', 'without a pool or checklist the question reads as before');
  });

  it('the cost question a run asks counts the pool and the checks, and refuses in words without a yes', async () => {
    suite.mock.setFallback(fallback());
    const root = await pooledReview('');
    await fs.writeFile(path.join(root, 'review.yaml'), 'iterations: 6\nturnsPerAgent: 3\nforks: off\npool: 8\nchecklist:\n  repeat: 3\n');
    const asked: { requests: number; of: string }[] = [];
    const record = await startRun({ reviewRoot: root, ...suite.engine, confirm: async (c) => (asked.push(c), false) }).catch(
      (e: Error) => e,
    );
    // 6 rounds of 3 members × 3 turns and the agent (60), 5 edits, 5 × (3 rankings + 1 re-ask) = 20, 1 list + 5 × 3 checks = 16.
    assert.deepEqual(
      asked.map((c) => c.requests),
      [60 + 5 + 20 + 16],
    );
    assert.match(
      asked[0]!.of,
      /of them 20 to elect from pools of 8 directions .* and 16 to hold the remixes to the brief's checklist \(its list, then each remix checked 3 times\)/,
    );
    const message = record instanceof Error ? record.message : (record.error ?? '');
    assert.match(message, /would send 101 requests for 6 rounds of 3 members, of them 20 to elect from pools of 8 directions/);
    assert.equal(suite.mock.requests.length, 0, 'nothing was sent');
  });
  it('a new run without pool or checklist settings records pool 4 and the checklist (repeat 1) and pools, its one remix still r1; pool: 1 does not pool; an older run.json without them resumes as pool 1 and checklist off', async () => {
    suite.mock.setFallback(fallback());
    const root = await makeReview({ options: 5, designers: 3 });
    await fs.writeFile(path.join(root, 'review.yaml'), 'iterations: 2\nturnsPerAgent: 1\nforks: off\n');
    const record = await run(root);
    assert.equal(record.settings.pool, 4);
    assert.deepEqual(record.settings.checklist, { repeat: 1 });
    assert.deepEqual(
      record.iterations[0]!.pool!.candidates.map((c) => c.letter),
      ['a', 'b', 'c', 'd'],
    );
    assert.equal(suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_pool_ranking').length, 3);
    assert.equal(suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_checklist').length, 1);
    assert.equal(record.checklist?.repeat, 1);
    assert.equal(record.iterations[0]!.remix?.id, 'r1', 'a pooled round of one remix stays r1');
    assert.equal(record.iterations[0]!.remix?.letter, record.iterations[0]!.pool!.elected[0]);
    suite.mock.reset();
    await fs.writeFile(path.join(root, 'review.yaml'), 'iterations: 2\nturnsPerAgent: 1\nforks: off\npool: 1\n');
    const plain = await run(root);
    assert.equal(plain.settings.pool, 1);
    assert.equal(plain.iterations[0]!.pool, undefined);
    assert.equal(plain.iterations[0]!.remix?.id, 'r1');
    assert.equal(plain.iterations[0]!.remix?.letter, undefined);
    assert.equal(suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_pool_ranking').length, 0);

    // An older record: stopped before its remix round, written before pools and the checklist were on by default.
    await fs.writeFile(path.join(root, 'review.yaml'), 'iterations: 2\nturnsPerAgent: 1\nforks: off\n');
    suite.mock.reset();
    let failOnce = true;
    const pool = fallback();
    suite.mock.setFallback((req) => {
      if (schemaName(req) === 'teamfusion_remix' && failOnce) {
        failOnce = false;
        return { kind: 'error', status: 401 };
      }
      return pool(req);
    });
    const first = await startRun({ reviewRoot: root, ...suite.engine, settings: { orderSeed: 1 } });
    assert.equal(first.status, 'failed');
    const file = path.join(root, 'runs', first.id, 'run.json');
    const old = JSON.parse(await fs.readFile(file, 'utf8')) as RunRecord;
    delete old.settings.pool;
    delete old.settings.checklist;
    await fs.writeFile(file, JSON.stringify(old, null, 2));
    suite.mock.reset();
    suite.mock.setFallback(fallback());
    const again = await resumeRun({ reviewRoot: root, ...suite.engine, runId: first.id });
    assert.equal(again.status, 'completed', again.error);
    assert.equal(again.settings.pool, undefined, 'nothing is added to an older record');
    assert.equal(again.settings.checklist, undefined);
    assert.equal(again.iterations[0]!.pool, undefined, 'read as pool 1: no pool');
    assert.equal(again.checklist, undefined, 'read as checklist off');
    const asked = suite.mock.requests.map(schemaName);
    assert.ok(
      !asked.some((n) => n === 'teamfusion_pool_ranking' || n === 'teamfusion_checklist' || n === 'teamfusion_check'),
      asked.join(', '),
    );
    const remix = suite.mock.requests.find((r) => schemaName(r) === 'teamfusion_remix')!;
    assert.equal(
      asksForPool(requestedJsonSchema(remix.body)!.schema as Record<string, unknown>),
      false,
      'the remix agent is asked for no pool',
    );
  });

  it('a pool answer no proposal of which is valid never stops the round: a single set of directions is taken as it is, else asked without a pool (an endpoint that cannot answer a pool: at once), said', async () => {
    for (const server of ['single', 'garbage', 'http400'] as const) {
      suite.mock.reset();
      const notices: string[] = [];
      suite.mock.setFallback((req) => {
        const wanted = requestedJsonSchema(req.body);
        if (wanted?.name === 'teamfusion_remix' && asksForPool(wanted.schema as Record<string, unknown>)) {
          if (server === 'http400') return { kind: 'error', status: 400 };
          if (server === 'garbage') return { kind: 'json', value: { remixes: 'none' } };
          // A server that does not know pools: the round's one set of directions, as it answered before.
          const base = defaultReply(req);
          const { remixes: _unused, ...rest } = (base.kind === 'json' ? base.value : {}) as Record<string, unknown>;
          return { kind: 'json', value: { ...rest, editingDirections: parts('amber dunes horizon') } };
        }
        return undefined;
      });
      const record = await startRun({
        reviewRoot: await pooledReview('pool: 4\nforks: off\n'),
        ...suite.engine,
        settings: { orderSeed: 1 },
        onEvent: (e) => void (e.type === 'notice' && notices.push(e.message)),
      });
      assert.equal(record.status, 'completed', `${server}: ${record.error}`);
      const it = record.iterations[0]!;
      assert.equal(it.pool, undefined, server);
      assert.ok(it.editingDirections, server);
      assert.equal(it.remix?.id, 'r1', server);
      // Only a request asked again without a pool records why the round fell back (single: its own answer was usable).
      if (server === 'single') assert.equal(it.poolFellBack, undefined);
      else assert.match(it.poolFellBack ?? '', server === 'garbage' ? /^still not usable after its repairs/ : /^not answered \(.*HTTP 400/);
      const agent = suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_remix');
      const pooled = agent.filter((r) => asksForPool(requestedJsonSchema(r.body)!.schema as Record<string, unknown>)).length;
      // single: the answer and its repair; garbage: the answer and its three repairs, then one request without a pool.
      assert.deepEqual([pooled, agent.length - pooled], server === 'single' ? [2, 0] : server === 'garbage' ? [4, 1] : [1, 1], server);
      assert.equal(suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_pool_ranking').length, 0, server);
      assert.ok(
        notices.some((n) =>
          (server === 'single' ? /goes on with it, without a pool/ : /falls back to one set of directions without a pool/).test(n),
        ),
        `${server}: ${notices.join('\n')}`,
      );
    }
  });

  it("a proxy's ranking the endpoint cannot answer (HTTP 400) is left out of the election, said; the round goes on", async () => {
    const pool = fallback();
    suite.mock.setFallback((req) =>
      schemaName(req) === 'teamfusion_pool_ranking' && speakerOf(req) === 'Ben' ? { kind: 'error', status: 400 } : pool(req),
    );
    const record = await run(await pooledReview('pool: 4\nforks: off\n'));
    const p = record.iterations[0]!.pool!;
    assert.deepEqual(Object.keys(p.rankings).sort(), ['d1', 'd3']);
    assert.deepEqual(
      p.leftOut?.map((x) => x.member),
      ['d2'],
    );
    assert.match(p.leftOut![0]!.reason, /was not made \(the endpoint could not answer it: HTTP 400/);
    assert.equal(p.elected.length, 1);
  });
  it('a pooled round that makes one remix records it as r1 (iteration-1/remix.png) in `remix`, with the elected letter; a wrong letter is refused', async () => {
    suite.mock.setFallback(fallback());
    const root = await pooledReview('pool: 4\nforks: off\n');
    const record = await run(root);
    const it = record.iterations[0]!;
    const elected = it.pool!.elected;
    assert.equal(elected.length, 1);
    assert.equal(it.remixes, undefined, 'one remix a round: no `remixes`');
    assert.deepEqual(
      { id: it.remix?.id, file: it.remix?.file, letter: it.remix?.letter },
      { id: 'r1', file: 'iteration-1/remix.png', letter: elected[0] },
    );
    assert.deepEqual(
      it.proposals!.map((p) => p.letter),
      elected,
    );
    await fs.access(path.join(root, 'runs', record.id, 'iteration-1', 'remix.png'));
    await assert.rejects(fs.access(path.join(root, 'runs', record.id, 'iteration-1', `remix-${elected[0]}.png`)));
    assert.deepEqual(
      record.options.filter((o) => o.file.startsWith('runs/')).map((o) => [o.id, o.file]),
      [['r1', `runs/${record.id}/iteration-1/remix.png`]],
    );
    // The next round discusses it by its id.
    assert.ok(record.iterations[1]!.candidates.includes('r1'));
    // Its directions are the elected proposal's (the letter links the two), and the pool table names it.
    const made = remixesWithDirections(it);
    assert.equal(made.length, 1);
    assert.equal(made[0]!.editingDirections, it.proposals![0]!.editingDirections);
    assert.ok(made[0]!.editingDirections!.includes(DIRECTIONS[elected[0]!.charCodeAt(0) - 97]!));
    assert.deepEqual(
      poolTableOf(it)!.columns.map((c) => [c.letter, c.remix ?? null]),
      it.pool!.candidates.map((c) => [c.letter, c.letter === elected[0] ? 'r1' : null]),
    );
    const result = await fs.readFile(path.join(root, 'runs', record.id, 'result.md'), 'utf8');
    assert.equal(result.match(/!\[Remix r1\]/g)?.length, 1, 'result.md shows the remix once, with its proposal');
    assert.doesNotMatch(result, /not made yet/);

    // recordCheck: the letter must be the round's one proposal's.
    const folder = `runs/${record.id}`;
    const names = ['1.png', '2.png', '3.png', '4.png', '5.png'];
    const wrong = JSON.parse(JSON.stringify(record)) as RunRecord;
    const other = ['a', 'b', 'c', 'd'].find((l) => l !== elected[0])!;
    wrong.iterations[0]!.remix!.letter = other;
    const refused = checkRunRecord(wrong, folder, names);
    assert.ok('problem' in refused);
    assert.deepEqual(refused.problem.path, ['iterations', 0, 'remix', 'letter']);
    assert.match(refused.problem.message, new RegExp(`letter "${other}", which is not the letter of a proposal of that round`));
    const lettered = JSON.parse(JSON.stringify(record)) as RunRecord;
    lettered.iterations[0]!.remix!.id = `r1${elected[0]}`;
    assert.ok('problem' in checkRunRecord(lettered, folder, names), 'a lettered id is not the one remix of a round');
    const several = JSON.parse(JSON.stringify(record)) as RunRecord;
    several.iterations[0]!.proposals!.push({ ...several.iterations[0]!.proposals![0]!, letter: other });
    several.iterations[0]!.proposals!.sort((a, b) => a.letter.localeCompare(b.letter));
    const refusedSeveral = checkRunRecord(several, folder, names);
    assert.ok('problem' in refusedSeveral);
    assert.match(refusedSeveral.problem.message, /the round has 2 proposals; several remixes a round are listed in its remixes/);
    // A record made before (the one remix lettered, r1<letter> and remix-<letter>.png in `remixes`) still reads.
    const l = elected[0]!;
    const before = JSON.parse(
      JSON.stringify(record).replaceAll('"r1"', `"r1${l}"`).replaceAll('iteration-1/remix.png', `iteration-1/remix-${l}.png`),
    ) as RunRecord;
    before.iterations[0]!.remixes = [before.iterations[0]!.remix!];
    delete before.iterations[0]!.remix;
    assert.ok('record' in checkRunRecord(before, folder, names), JSON.stringify(checkRunRecord(before, folder, names)));
    assert.equal(remixesWithDirections(before.iterations[0]!)[0]!.editingDirections, made[0]!.editingDirections);
  });

  it('a run cancelled after the pooled round made its one remix resumes without editing it again', async () => {
    suite.mock.setFallback(fallback());
    const root = await makeReview({ options: 5, designers: 3 });
    await fs.writeFile(path.join(root, 'review.yaml'), 'iterations: 3\nturnsPerAgent: 1\nforks: off\nchecklist: off\npool: 4\n');
    const controller = new AbortController();
    const first = await startRun({
      reviewRoot: root,
      ...suite.engine,
      settings: { orderSeed: 1 },
      signal: controller.signal,
      onEvent: (e) => void (e.type === 'remix-created' && e.iteration === 1 && controller.abort()),
    });
    assert.equal(first.status, 'cancelled', first.error);
    assert.equal(first.iterations[0]!.remix?.id, 'r1');
    const edits = () => suite.mock.requests.filter((r) => r.route === 'edit').length;
    assert.equal(edits(), 1);
    const again = await resumeRun({ reviewRoot: root, ...suite.engine, runId: first.id });
    assert.equal(again.status, 'completed', again.error);
    assert.equal(edits(), 2, "round 1's remix is not edited again; round 2 makes its own");
    assert.deepEqual(
      again.iterations.slice(0, 2).map((it) => [it.remix?.id, it.remix?.file, it.remix?.letter === it.pool?.elected[0]]),
      [
        ['r1', 'iteration-1/remix.png', true],
        ['r2', 'iteration-2/remix.png', true],
      ],
    );
    assert.equal(suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_remix').length, 2, 'each remix round asked once');
    assert.equal(suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_pool_ranking').length, 6, 'three rankings a remix round');
    assert.ok(
      'record' in checkRunRecord(JSON.parse(JSON.stringify(again)), `runs/${again.id}`, ['1.png', '2.png', '3.png', '4.png', '5.png']),
    );
  });

  it('a run cancelled during the request asked without a pool (after the pool fell back) resumes without asking for the pool again', async () => {
    const controller = new AbortController();
    let cut = true;
    suite.mock.setFallback((req) => {
      const wanted = requestedJsonSchema(req.body);
      if (wanted?.name !== 'teamfusion_remix') return undefined;
      if (asksForPool(wanted.schema as Record<string, unknown>)) return { kind: 'error', status: 400 };
      if (cut) {
        cut = false;
        controller.abort();
        return { kind: 'hang' };
      }
      return undefined;
    });
    const root = await pooledReview('pool: 4\nforks: off\n');
    const pooledAsks = () =>
      suite.mock.requests.filter((r) => {
        const wanted = requestedJsonSchema(r.body);
        return wanted?.name === 'teamfusion_remix' && asksForPool(wanted.schema as Record<string, unknown>);
      }).length;
    const first = await startRun({ reviewRoot: root, ...suite.engine, settings: { orderSeed: 1 }, signal: controller.signal });
    assert.equal(first.status, 'cancelled', first.error);
    assert.match(first.iterations[0]!.poolFellBack ?? '', /^not answered \(.*HTTP 400/);
    assert.equal(first.iterations[0]!.ranking, undefined, 'the request without a pool was cut');
    assert.equal(pooledAsks(), 1);
    const notices: string[] = [];
    const again = await resumeRun({
      reviewRoot: root,
      ...suite.engine,
      runId: first.id,
      onEvent: (e) => void (e.type === 'notice' && notices.push(e.message)),
    });
    assert.equal(again.status, 'completed', again.error);
    assert.equal(pooledAsks(), 1, 'the pool is not asked for again');
    assert.equal(
      suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_remix').length,
      3,
      'the pool, the cut request, its resume',
    );
    const it = again.iterations[0]!;
    assert.equal(it.pool, undefined);
    assert.equal(it.remix?.id, 'r1');
    assert.equal(it.remix?.letter, undefined);
    assert.ok(it.poolFellBack);
    assert.ok(!notices.some((n) => /falls back/.test(n)), 'the fallback is not said again');
    assert.ok(
      'record' in checkRunRecord(JSON.parse(JSON.stringify(again)), `runs/${again.id}`, ['1.png', '2.png', '3.png', '4.png', '5.png']),
    );
  });
});
