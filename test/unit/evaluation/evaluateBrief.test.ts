import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { briefFallback, judgeShownAsA } from '../../support/openaiMock';
import { briefOverallOf, type BriefRunEvaluation } from '../../../src/core/evaluation/evaluate/briefEvaluation';
import { makeRerankSet } from '../../../src/core/evaluation';
import { completedBriefRun, mockSuite, preferBlind, startCli } from '../run/helpers';
import { makeTempDir } from '../run/fixtures';
import { makeReviewWithRun, RUN_ID, writeRerankBySource } from './fixtures';

const none = { n: 0, representative: null, clarity: null, satisfied: null, answered: { representative: 0, clarity: 0, satisfied: 0 } };
const noCheck = { quotes: 0, verified: 0, unverified: 0, unreported: [], confirmations: { n: 0, agreement: null, kappa: null } };
const run = (b: Partial<BriefRunEvaluation>): BriefRunEvaluation => ({
  members: 4,
  preference: null,
  coverage: { kept: 0, changed: 0, leftOut: 0 },
  coverageCheck: noCheck,
  confirmationTable: {},
  survey: none,
  judge: null,
  fidelity: null,
  ...b,
});

describe('evaluate: brief runs pooled', function () {
  it('blind choices are summed over runs with one sign test over the choices that were not ties; coverage summed; runs without a blind pair add coverage only', () => {
    const o = briefOverallOf([
      run({ preference: { n: 4, teamfusion: 3, direct: 1, tie: 0, signTestP: 0.625 }, coverage: { kept: 4, changed: 4, leftOut: 0 } }),
      run({
        members: 3,
        preference: { n: 3, teamfusion: 2, direct: 0, tie: 1, signTestP: 0.5 },
        coverage: { kept: 2, changed: 2, leftOut: 1 },
      }),
      run({
        coverage: { kept: 1, changed: 0, leftOut: 3 },
        judge: { representativeness: 'tie', informativeness: 'teamfusion', neutrality: 'direct', readiness: 'tie' },
      }),
    ]);
    // By hand: 5 TeamFusion, 1 direct, 1 tie; 6 untied, P(X ≤ 1 or X ≥ 5 | n = 6) = 2 · (1 + 6) / 64 = 0.21875.
    assert.deepEqual(o.preference, { n: 7, teamfusion: 5, direct: 1, tie: 1, signTestP: 0.21875 });
    assert.deepEqual(o.coverage, { kept: 7, changed: 6, leftOut: 4 });
    assert.equal(o.runs, 3);
    assert.equal(o.withBlindPair, 2);
    assert.equal(o.judged, 1);
    assert.deepEqual(o.judge.informativeness, { teamfusion: 1, direct: 0, tie: 0 });
    assert.deepEqual(o.judge.representativeness, { teamfusion: 0, direct: 0, tie: 1 });
    assert.deepEqual(briefOverallOf([]).preference, { n: 0, teamfusion: 0, direct: 0, tie: 0, signTestP: null });
  });
});

describe('teamfusion evaluate over brief and design reviews (command line)', function () {
  this.timeout(180_000);
  const suite = mockSuite({ fallback: () => briefFallback() });

  it('finds brief reviews (brief.md + comments/), puts their blind choices, sign test, coverage and judge beside the design runs in --json, evaluation.md and brief.svg', async () => {
    const top = await makeTempDir('tf-evaluate-brief-');
    // brief-a: 4 members, 3 prefer TeamFusion's, 1 the direct one; every point kept or changed (4 kept, 4 changed).
    const a = await completedBriefRun(suite.env, 4);
    // brief-b: 3 members, m2's point left out by the scripted remix agent: 2 kept, 2 changed, 1 left out; 2 TeamFusion, 1 tie.
    suite.mock.setFallback(briefFallback({ leftOut: ['m2'] }));
    const b = await completedBriefRun(suite.env, 3);
    for (const [name, r] of [
      ['brief-a', a],
      ['brief-b', b],
    ] as const) {
      const made = await startCli(['rerank', r.root, r.id], suite.env).done;
      assert.equal(made.code, 0, made.stderr);
      await fs.rename(r.root, path.join(top, name));
    }
    await preferBlind(path.join(top, 'brief-a', 'runs', a.id), { m1: 'teamfusion', m2: 'teamfusion', m3: 'teamfusion', m4: 'direct' });
    await preferBlind(path.join(top, 'brief-b', 'runs', b.id), { m1: 'teamfusion', m2: 'tie', m3: 'teamfusion' });
    // Members confirm their coverage rows: in brief-a m1 agrees on one point and corrects the other, m2 agrees; in brief-b m1 agrees.
    const confirm = async (review: string, runId: string, designer: string, body: string): Promise<void> => {
      const dir = path.join(top, review, 'runs', runId, 'coverage');
      await fs.mkdir(dir, { recursive: true });
      await fs.writeFile(path.join(dir, `${designer}.yaml`), `designer: ${designer}\npoints:\n${body}`);
    };
    await confirm(
      'brief-a',
      a.id,
      'm1',
      "  - point: m1's point on the goal\n    agree: true\n  - point: m1's point on tone\n    agree: false\n    status: left-out\n",
    );
    await confirm('brief-a', a.id, 'm2', "  - point: m2's point on the goal\n    agree: true\n");
    await confirm('brief-b', b.id, 'm1', "  - point: m1's point on the goal\n    agree: true\n");
    // brief-a is judged: TeamFusion's in both orders on every dimension but neutrality (always A: a flip, a tie).
    suite.mock.setFallback(briefFallback({ judge: (d, q) => (d === 'neutrality' || judgeShownAsA(q) === 'teamfusion' ? 'A' : 'B') }));
    const judged = await startCli(['judge', path.join(top, 'brief-a'), a.id], suite.env).done;
    assert.equal(judged.code, 0, judged.stderr);
    // design: a re-ranked design run, as in the design evaluation
    const design = await makeReviewWithRun();
    await makeRerankSet(design, RUN_ID);
    for (const [d, order] of [
      ['d1', ['r2', '4', '3', 'r1', '2']],
      ['d2', ['r2', '3', '4', '2', 'r1']],
      ['d3', ['4', 'r2', 'r1', '3', '2']],
    ] as const)
      await writeRerankBySource(design, d, order);
    await fs.rename(design, path.join(top, 'design'));
    const sent = suite.mock.requests.length;

    const out = path.join(top, 'evaluation');
    const r = await startCli(['evaluate', top, '--json', '--out', out], suite.env).done;
    assert.equal(r.code, 0, r.stderr);
    assert.equal(suite.mock.requests.length, sent, 'evaluate sends nothing');
    const e = JSON.parse(r.stdout) as {
      reviews: {
        path: string;
        designers: number;
        runs: {
          task: string;
          brief: {
            members: number;
            preference: { n: number; teamfusion: number; direct: number; tie: number; signTestP: number };
            coverage: object;
            judge: Record<string, string> | null;
          } | null;
          compare: object | null;
        }[];
      }[];
      overall: {
        runs: number;
        rerankedRuns: number;
        brief: { runs: number; withBlindPair: number; preference: object; coverage: object; judged: number };
      };
    };
    assert.deepEqual(
      e.reviews.map((x) => [x.path, x.designers, x.runs.map((y) => y.task)]),
      [
        ['brief-a', 4, ['brief']],
        ['brief-b', 3, ['brief']],
        ['design', 4, ['design']],
      ],
    );
    const [ra, rb, rd] = e.reviews.map((x) => x.runs[0]!);
    assert.deepEqual(ra!.brief!.preference, { n: 4, teamfusion: 3, direct: 1, tie: 0, signTestP: 0.625 });
    assert.deepEqual(ra!.brief!.coverage, { kept: 4, changed: 4, leftOut: 0 });
    assert.deepEqual(ra!.brief!.judge, {
      representativeness: 'teamfusion',
      informativeness: 'teamfusion',
      neutrality: 'tie',
      readiness: 'teamfusion',
    });
    assert.deepEqual(rb!.brief!.preference, { n: 3, teamfusion: 2, direct: 0, tie: 1, signTestP: 0.5 });
    assert.deepEqual(rb!.brief!.coverage, { kept: 2, changed: 2, leftOut: 1 });
    assert.equal(rb!.brief!.judge, null);
    assert.equal(rd!.brief, null);
    assert.notEqual(rd!.compare, null, 'the design run is still compared');
    // Pooled by hand: 5 TeamFusion, 1 direct, 1 tie → sign test over 6: 2 · (1 + 6) / 64 = 0.21875.
    assert.deepEqual(e.overall.brief.preference, { n: 7, teamfusion: 5, direct: 1, tie: 1, signTestP: 0.21875 });
    assert.deepEqual(e.overall.brief.coverage, { kept: 6, changed: 6, leftOut: 1 });
    assert.equal(e.overall.brief.runs, 2);
    assert.equal(e.overall.brief.withBlindPair, 2);
    assert.equal(e.overall.brief.judged, 1);
    assert.equal(e.overall.runs, 3);
    assert.equal(e.overall.rerankedRuns, 1, 'the design run is the one re-ranked run');
    // Coverage checks and grounding summed over the brief runs, against what compare --json says of each run.
    type Check = {
      quotes: number;
      verified: number;
      unverified: number;
      unreported: string[];
      confirmations: { n: number; agreement: number | null };
    };
    const perRun: { coverageCheck: Check; grounding: { messages: number; ungrounded: number } }[] = [];
    for (const [review, id] of [
      ['brief-a', a.id],
      ['brief-b', b.id],
    ] as const) {
      const c = await startCli(['compare', path.join(top, review), id, '--json'], suite.env).done;
      assert.equal(c.code, 0, c.stderr);
      perRun.push(JSON.parse(c.stdout) as (typeof perRun)[number]);
    }
    const sum = (f: (x: (typeof perRun)[number]) => number): number => perRun.reduce((k, x) => k + f(x), 0);
    const confirmed = sum((x) => x.coverageCheck.confirmations.n);
    const agreed = sum((x) => (x.coverageCheck.confirmations.agreement ?? 0) * x.coverageCheck.confirmations.n);
    assert.equal(confirmed, 4, 'the four confirmed points written above');
    const overall = e.overall as unknown as { coverageCheck: unknown; grounding: { runs: number; messages: number; ungrounded: number } };
    assert.deepEqual(overall.coverageCheck, {
      runs: 2,
      quotes: sum((x) => x.coverageCheck.quotes),
      verified: sum((x) => x.coverageCheck.verified),
      unverified: sum((x) => x.coverageCheck.unverified),
      verifiedShare: sum((x) => x.coverageCheck.verified) / sum((x) => x.coverageCheck.quotes),
      unreported: sum((x) => x.coverageCheck.unreported.length),
      // Four confirmed points are too few for a pooled κ: said, not computed.
      confirmations: {
        n: confirmed,
        agreed,
        agreement: agreed / confirmed,
        kappa: null,
        kappaNote: 'too few to say (4 confirmed points; κ is stated from 10 on)',
      },
    });
    const designMessages = e.reviews[2]!.runs[0] as unknown as { grounding: { messages: number; ungrounded: number } };
    assert.equal(overall.grounding.messages, sum((x) => x.grounding.messages) + designMessages.grounding.messages);
    assert.equal(overall.grounding.ungrounded, sum((x) => x.grounding.ungrounded) + designMessages.grounding.ungrounded);

    const md = await fs.readFile(path.join(out, 'evaluation.md'), 'utf8');
    assert.match(md, /^\| Brief runs: blind choices TeamFusion \/ direct \/ tie \(sign test p\) \| 5 \/ 1 \/ 1 \(0\.219\) \| \|$/m);
    assert.match(md, /^\| Brief runs: members' points kept \/ changed \/ left out \| 6 \/ 6 \/ 1 \| \|$/m);
    assert.match(md, new RegExp(`^\\| brief-a \\| ${a.id} \\| 4 \\| 3 / 1 / 0 \\| 0\\.625 \\| 4 / 4 / 0 \\| 3 / 0 / 1 \\|$`, 'm'));
    assert.match(md, new RegExp(`^\\| brief-b \\| ${b.id} \\| 3 \\| 2 / 0 / 1 \\| 0\\.500 \\| 2 / 2 / 1 \\| — \\|$`, 'm'));
    assert.match(md, /^\| A generated option is the blind top 1 \| 100% \|/m, 'the design numbers stay');
    assert.match(md, /!\[Brief runs: blind choices and coverage\]\(brief\.svg\)/);
    const svg = await fs.readFile(path.join(out, 'brief.svg'), 'utf8');
    assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    assert.match(svg, /TeamFusion 5 · direct 1 · tie 1/);
    assert.match(svg, /kept 6 · changed 6 · left out 1/);
    assert.match(svg, /p = 0\.219/);

    const text = await startCli(['evaluate', top], suite.env).done;
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stdout,
      /^2 brief runs \(2 with a blind pair\): of 7 blind choices, 5 preferred TeamFusion's revised brief, 1 the direct revision and 1 tied \(sign test p = 0\.219\); coverage 6 kept, 6 changed, 1 left out\.$/m,
    );
  });
});
