/**
 * Issue 41's "Done when", end to end against the scripted server (the `--from-run` answers of `npm run scripted-server`,
 * runAnswers.ts, every request checked against OpenAI's spec): a design run with `pool: 4`, members weighted in review.yaml,
 * two remixes a round and the brief as a checklist. Everything asserted is read from what the server received and what the
 * run recorded; the election is checked against a Schulze written here from scratch, with the weights as review.yaml states
 * them. Two answers are changed on their way out, each said where it is: the first pool is made near-identical (so it must be
 * asked again once), and the checks fail one item (the scripted server does not look at images, so it only says unclear).
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { resumeRun, startRun } from '../../../src/core/run/session';
import { checkRunRecord } from '../../../src/core/record/recordCheck';
import { remixesOf } from '../../../src/core/record/remixes';
import { requestedJsonSchema, requestTexts } from '../../support/openaiMock/autoResponder';
import type { MockReply, RecordedRequest } from '../../support/openaiMock/types';
import { runFallback } from '../../support/openaiMock/runAnswers';
import { poolRankingValue } from '../../support/openaiMock/runPoolAnswers';
import { makeReview } from '../run/fixtures';
import { mockSuite } from '../run/helpers';
import { ask } from '../../../src/core/questions';
import { compareRun } from '../../../src/core/evaluation';
import { poolSummaryOf } from '../../../src/core/evaluation/checks/poolChecks';
import { EvaluationSchema } from '../../../src/protocol/panel';
import { runEvaluation } from '../../../src/extension/panel/state/evaluation';
import { poolCheckSentences } from '../../../src/protocol/shared';

const LABEL = 'Scripted reply:';
/** The members' weights, as the review.yaml below states them. */
const WEIGHTS: Record<string, number> = { d1: 2, d2: 1, d3: 3 };
const REVIEW_YAML = [
  'iterations: 3',
  'turnsPerAgent: 1',
  'forks: off',
  'pool: 4',
  'remixesPerIteration: 2',
  'checklist: on',
  'team:',
  ...Object.entries(WEIGHTS).flatMap(([id, w]) => [`  ${id}:`, `    weight: ${w}`]),
].join('\n');
const FAIL_REASON = 'The remix shows no such thing.';

const schemaName = (r: RecordedRequest): string | undefined => requestedJsonSchema(r.body)?.name;
const letterEnum = (r: RecordedRequest): string[] =>
  (requestedJsonSchema(r.body)!.schema as { properties: { ranking: { items: { enum: string[] } } } }).properties.ranking.items.enum;

/**
 * Schulze, written independently of src/core/stats: d(a, b) is the summed weight of the members ranking a above b; a link
 * a→b has strength d(a, b) when d(a, b) > d(b, a); p is the widest path; a beats b when p(a, b) > p(b, a). Ranks: tier by
 * tier, a tier being what nothing left beats; inside a tier, as documented (docs/run.md), the higher weighted Borda points,
 * then the earlier letter.
 */
function independentSchulze(rankings: Record<string, string[]>, weights: Record<string, number>, letters: string[]): string[] {
  const w = (m: string) => weights[m] ?? 1;
  const d = (a: string, b: string) => Object.entries(rankings).reduce((n, [m, r]) => n + (r.indexOf(a) < r.indexOf(b) ? w(m) : 0), 0);
  const p: Record<string, number> = {};
  for (const a of letters) for (const b of letters) if (a !== b) p[a + b] = d(a, b) > d(b, a) ? d(a, b) : 0;
  for (const k of letters) {
    for (const a of letters) {
      for (const b of letters) if (a !== b && a !== k && b !== k) p[a + b] = Math.max(p[a + b]!, Math.min(p[a + k]!, p[k + b]!));
    }
  }
  const borda = (a: string) => Object.entries(rankings).reduce((n, [m, r]) => n + w(m) * (letters.length - 1 - r.indexOf(a)), 0);
  const out: string[] = [];
  let left = [...letters];
  while (left.length) {
    const tier = left.filter((a) => !left.some((b) => b !== a && p[b + a]! > p[a + b]!));
    assert.ok(tier.length > 0, 'Schulze always has an unbeaten option');
    tier.sort((a, b) => borda(b) - borda(a) || letters.indexOf(a) - letters.indexOf(b));
    out.push(...tier);
    left = left.filter((a) => !tier.includes(a));
  }
  return out;
}

describe('issue 41 done-when, against the scripted server', function () {
  this.timeout(120_000);
  const suite = mockSuite();

  it('pool: 4 with weights, two remixes a round and the checklist: candidates, permutations, the independent Schulze, only the elected edited, one re-ask, every item checked, failures carried on', async () => {
    const scripted = runFallback(LABEL);
    let pools = 0;
    suite.mock.setFallback((req): MockReply | undefined => {
      const reply = scripted(req);
      const name = schemaName(req);
      // Changed here: round 1's pool says one idea four times (the first proposal's directions in every one, numbered).
      if (name === 'teamfusion_remix' && reply?.kind === 'json' && pools++ === 0) {
        const v = reply.value as { remixes: { editingDirections: Record<string, string> }[] };
        const first = v.remixes[0]!.editingDirections;
        const near = (i: number) => Object.fromEntries(Object.entries(first).map(([k, t]) => [k, `${t} Take ${i + 1}.`]));
        return { kind: 'json', value: { ...v, remixes: v.remixes.map((p, i) => ({ ...p, editingDirections: near(i) })) } };
      }
      // Changed here: every check fails the first item (with a reason) and passes the rest.
      if (name === 'teamfusion_check' && reply?.kind === 'json') {
        const v = reply.value as { checks: { item: string }[] };
        return {
          kind: 'json',
          value: {
            checks: v.checks.map((c, i) => ({
              item: c.item,
              result: i === 0 ? 'fail' : 'pass',
              reason: i === 0 ? FAIL_REASON : 'It is there.',
            })),
          },
        };
      }
      return reply;
    });
    const root = await makeReview({ options: 5, designers: 3 });
    await fs.writeFile(path.join(root, 'review.yaml'), `${REVIEW_YAML}\n`);
    const record = await startRun({ reviewRoot: root, ...suite.engine, settings: { orderSeed: 1 } });
    assert.equal(record.status, 'completed', record.error);
    assert.deepEqual(suite.mock.specErrors(), []);
    const check = checkRunRecord(JSON.parse(JSON.stringify(record)), `runs/${record.id}`, ['1.png', '2.png', '3.png', '4.png', '5.png']);
    assert.ok('record' in check, JSON.stringify(check));

    const reqs = suite.mock.requests;
    const rankingReqs = reqs.filter((r) => schemaName(r) === 'teamfusion_pool_ranking');
    const edits = reqs.filter((r) => r.route === 'edit');
    const pooled = record.iterations.filter((it) => it.pool);
    assert.deepEqual(
      pooled.map((it) => it.index),
      [1, 2],
      'both remix rounds are pooled; the last round picks',
    );
    assert.equal(rankingReqs.length, 3 * 2, 'one ranking request per member per pooled round, none repeated');
    assert.equal(edits.length, 2 * 2, 'two edits a round: the elected, nothing else');

    for (const [n, it] of pooled.entries()) {
      const pool = it.pool!;
      const letters = ['a', 'b', 'c', 'd'];
      // Four candidates, each its own directions.
      assert.deepEqual(
        pool.candidates.map((c) => c.letter),
        letters,
      );
      assert.equal(new Set(pool.candidates.map((c) => c.editingDirections)).size, 4);
      // A ranking per member, a permutation of the four, and exactly what the server answered that member.
      const asked = rankingReqs.slice(n * 3, n * 3 + 3);
      assert.deepEqual(Object.keys(pool.rankings).sort(), Object.keys(WEIGHTS).sort());
      for (const r of Object.values(pool.rankings)) assert.deepEqual([...r].sort(), letters);
      for (const r of asked) assert.deepEqual(letterEnum(r), letters);
      assert.deepEqual(
        asked.map((r) => poolRankingValue(r.body, letters).ranking),
        Object.keys(WEIGHTS).map((id) => pool.rankings[id]),
        "each member's recorded ranking is the one the server gave their proxy",
      );
      // The election: an independent Schulze over those rankings with review.yaml's weights, its first two.
      const expected = independentSchulze(pool.rankings, WEIGHTS, letters).slice(0, 2);
      assert.deepEqual(pool.elected, expected, `round ${it.index}`);
      // Only the elected reached the image model: this round's edits carry exactly the elected candidates' directions.
      const next = rankingReqs[(n + 1) * 3]?.seq ?? Number.MAX_SAFE_INTEGER;
      const roundEdits = edits
        .filter((e) => e.seq > asked[2]!.seq && e.seq < next)
        .map((e) => String((e.body as { prompt?: unknown }).prompt));
      assert.equal(roundEdits.length, 2);
      const lineOf = (c: (typeof pool.candidates)[number]) =>
        c.editingDirections
          .split('\n')
          .find((l) => /colour/i.test(l))!
          .replace(/^.*?:\s*/, '');
      for (const c of pool.candidates) {
        assert.equal(
          roundEdits.some((e) => e.includes(lineOf(c))),
          expected.includes(c.letter),
          `round ${it.index} candidate ${c.letter}: sent to the image model iff elected`,
        );
      }
      assert.deepEqual(
        remixesOf(it)
          .map((m) => m.letter)
          .sort(),
        [...expected].sort(),
      );
    }

    // The weights decide: counted as one each, the members would elect otherwise in a pooled round.
    assert.ok(
      pooled.some(
        (it) =>
          independentSchulze(it.pool!.rankings, {}, ['a', 'b', 'c', 'd']).slice(0, 2).sort().join() !== [...it.pool!.elected].sort().join(),
      ),
      "review.yaml's weights change the election in at least one round",
    );

    // Round 1's pool was one idea: asked again once (one request), its diversity above the floor afterwards; round 2's not.
    assert.equal(reqs.filter((r) => schemaName(r) === 'teamfusion_pool').length, 1);
    assert.deepEqual(
      pooled.map((it) => it.pool!.reasked),
      [true, false],
    );

    // The checklist: every item's quote is in brief.md; every remix has exactly one result for every item.
    const brief = await fs.readFile(path.join(root, 'brief.md'), 'utf8');
    const items = record.checklist!.items;
    assert.ok(items.length >= 2);
    for (const i of items) assert.ok(brief.includes(i.quote), i.quote);
    const remixes = record.iterations.flatMap((it) => remixesOf(it));
    assert.equal(remixes.length, 4);
    for (const m of remixes)
      assert.deepEqual(
        m.checks!.map((c) => c.item),
        items.map((i) => i.id),
        m.id,
      );
    assert.equal(reqs.filter((r) => schemaName(r) === 'teamfusion_check').length, 4, 'one check a remix');
    // Failed items reach result.md (with their quotes) and the next round's remix-agent prompt.
    const failed = items[0]!;
    const result = await fs.readFile(path.join(root, 'runs', record.id, 'result.md'), 'utf8');
    assert.ok(result.includes(`Failed ${failed.id}: ${failed.text} — brief: "${failed.quote}" (${FAIL_REASON})`), result);
    const agents = reqs.filter((r) => schemaName(r) === 'teamfusion_remix' || schemaName(r) === 'teamfusion_final_pick');
    assert.equal(agents.length, 3);
    const told = agents.map((r) =>
      requestTexts(r.body).some(
        (t) => t.includes("The last round's remixes failed these must-haves") && t.includes(JSON.stringify(failed.quote)),
      ),
    );
    assert.deepEqual(told, [false, true, true]);

    // The figures: compare's pools, the panel's "Did it help?" (its protocol keeps them) and the run_summary question.
    const file = path.join(root, 'runs', record.id, 'run.json');
    const last = remixesOf(pooled[1]!)[0]!;
    await fs.writeFile(file, JSON.stringify({ ...(JSON.parse(await fs.readFile(file, 'utf8')) as object), finalPick: last.id }));
    const compared = await compareRun(root, record.id);
    assert.deepEqual(
      compared.pool.map((p) => [p.iteration, p.candidates, p.elected, p.reasked]),
      pooled.map((it) => [it.index, 4, it.pool!.elected, it.pool!.reasked]),
    );
    const passRate = (items.length - 1) / items.length;
    assert.equal(compared.checklist!.passRate, passRate);
    // As the panel's runEvaluation sends it (fidelity goes by designer there).
    const { fidelity: _fidelity, ...forPanel } = compared;
    const panel = EvaluationSchema.parse({ ...forPanel, folder: `runs/${record.id}/rerank` });
    assert.deepEqual(panel.pool, compared.pool);
    assert.deepEqual(panel.checklist, compared.checklist);
    // The panel's own loader, once the run has a re-rank set (where "Did it help?" shows), sends the same figures.
    await fs.mkdir(path.join(root, 'runs', record.id, 'rerank'), { recursive: true });
    const logged: string[] = [];
    const loaded = await runEvaluation(root, record.id, (l) => logged.push(l));
    assert.ok(loaded, logged.join('\n'));
    assert.deepEqual(loaded.pool, compared.pool);
    assert.deepEqual(loaded.checklist, compared.checklist);
    const words = poolCheckSentences({ pool: panel.pool ?? [], checklist: panel.checklist ?? null });
    assert.ok(
      words.some((w) => w.startsWith('Round 1 elected') && w.includes('asked again for directions that differ')),
      words.join('\n'),
    );
    assert.ok(
      words.includes(
        `The final pick ${last.id} passed ${items.length - 1} of the brief's ${items.length} checklist items (${Math.round(passRate * 100)}%; 1 failed, 0 unclear).`,
      ),
      words.join('\n'),
    );
    const answer = await ask('run_summary', { review: path.basename(root), runId: record.id }, path.dirname(root));
    assert.ok(answer.ok, answer.ok ? '' : answer.error);
    const summary = answer.value as {
      pool: Record<string, unknown> & { rounds: unknown[] };
      checklist: Record<string, unknown> & {
        finalPick: Record<string, unknown> & { failed: { text: { quoted: string }; quote: { quoted: string } }[] };
      };
    };
    const means = poolSummaryOf(record)!;
    assert.deepEqual(summary.pool, {
      rounds: pooled.map((it) => ({
        round: it.index,
        candidates: 4,
        elected: it.pool!.elected,
        diversity: it.pool!.diversity,
        reasked: it.pool!.reasked,
        firstElected: it.pool!.elected.includes('a'),
      })),
      meanDiversity: means.meanDiversity,
      reaskRate: 0.5,
      firstElectedRate: means.firstElectedRate,
    });
    assert.deepEqual(
      { ...summary.checklist, finalPick: undefined },
      { items: items.length, remixesChecked: 4, failedChecks: 4, finalPick: undefined },
    );
    assert.equal(summary.checklist.finalPick.passRate, passRate);
    assert.deepEqual(
      summary.checklist.finalPick.failed.map((f) => [f.text.quoted, f.quote.quoted]),
      [[failed.text, failed.quote]],
      'model text travels quoted',
    );
  });

  it('a run cancelled mid-ranking, then after the rankings and after the checks, resumed each time: no recorded ranking or check is asked again', async () => {
    const controller = { current: new AbortController() };
    const scripted = runFallback(LABEL);
    const speaker = (r: RecordedRequest) => /You are role-playing "([^"]+)"/.exec(requestTexts(r.body).join('\n'))?.[1];
    // The rankings are asked at once: Ben's and Chloé's first requests never answer.
    const hangs = new Set(['Ben', 'Chloé']);
    suite.mock.setFallback((req): MockReply | undefined => {
      if (schemaName(req) === 'teamfusion_pool_ranking' && hangs.delete(speaker(req) ?? '')) return { kind: 'hang' };
      return scripted(req);
    });
    const root = await makeReview({ options: 5, designers: 3 });
    await fs.writeFile(path.join(root, 'review.yaml'), `${REVIEW_YAML.replace('remixesPerIteration: 2', 'remixesPerIteration: 1')}\n`);
    const base = { reviewRoot: root, ...suite.engine };
    const count = (name: string) => suite.mock.requests.filter((r) => schemaName(r) === name).length;

    // The first cancel: once Ana's ranking of the first pool is saved, while Ben's and Chloé's are in flight.
    const first = await startRun({
      ...base,
      settings: { orderSeed: 1 },
      signal: controller.current.signal,
      onEvent: (e) => void (e.type === 'record-saved' && e.record.iterations[0]?.pool?.rankings.d1 && controller.current.abort()),
    });
    assert.equal(first.status, 'cancelled', first.error);
    assert.deepEqual(Object.keys(first.iterations[0]!.pool!.rankings), ['d1'], "Ana's ranking is recorded, Ben's and Chloé's were cut");
    assert.equal(count('teamfusion_pool_ranking'), 3);

    // The second cancel: once round 1's election is made (every ranking recorded), before any image is edited.
    controller.current = new AbortController();
    const second = await resumeRun({
      ...base,
      runId: first.id,
      signal: controller.current.signal,
      onEvent: (e) => void (e.type === 'notice' && /elected/.test(e.message) && controller.current.abort()),
    });
    assert.equal(second.status, 'cancelled', second.error);
    assert.deepEqual(Object.keys(second.iterations[0]!.pool!.rankings).sort(), ['d1', 'd2', 'd3']);
    assert.equal(second.iterations[0]!.pool!.elected.length, 1);
    assert.equal(suite.mock.requests.filter((r) => r.route === 'edit').length, 0, 'cancelled before the image model');
    const round1 = suite.mock.requests.filter((r) => schemaName(r) === 'teamfusion_pool_ranking').map(speaker);
    assert.deepEqual(
      [...round1].sort(),
      ['Ana', 'Ben', 'Ben', 'Chloé', 'Chloé'],
      "Ana's recorded ranking is not asked again; the cut ones are",
    );

    // The third cancel: once round 1's remix is checked against the brief's must-haves.
    controller.current = new AbortController();
    const third = await resumeRun({
      ...base,
      runId: first.id,
      signal: controller.current.signal,
      onEvent: (e) => void (e.type === 'notice' && /checked against \d+ must-haves/.test(e.message) && controller.current.abort()),
    });
    assert.equal(third.status, 'cancelled', third.error);
    assert.ok(remixesOf(third.iterations[0]!)[0]!.checks, "round 1's remix is checked");
    assert.equal(count('teamfusion_pool_ranking'), 5, 'resuming after the election asks no ranking');
    assert.equal(count('teamfusion_check'), 1);

    const done = await resumeRun({ ...base, runId: first.id });
    assert.equal(done.status, 'completed', done.error);
    // In all: round 1's three rankings (and Ben's and Chloé's cut ones), round 2's three; one check a remix; one list; one pool a round.
    assert.equal(count('teamfusion_pool_ranking'), 5 + 3);
    assert.equal(count('teamfusion_check'), 2, "round 1's recorded check is not made again");
    assert.equal(count('teamfusion_checklist'), 1);
    assert.equal(count('teamfusion_remix'), 2);
    assert.equal(suite.mock.requests.filter((r) => r.route === 'edit').length, 2);
    for (const m of done.iterations.flatMap((it) => remixesOf(it))) assert.equal(m.checks!.length, done.checklist!.items.length);
  });
});
