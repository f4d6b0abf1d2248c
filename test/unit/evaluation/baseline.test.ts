import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { checkDecisionText, signTestP } from '../../../src/core/evaluation/evaluate/baseline';
import { checkSurveyText } from '../../../src/core/evaluation/evaluate/feedback';
import { sideBySideOf } from '../../../src/core/evaluation/evaluate/evaluate';
import { SideBySideSchema } from '../../../src/protocol/panel';
import { parseReviewConfig } from '../../../src/core/review/reviewConfig';
import { makeReview, makeTempDir } from '../run/fixtures';
import { useBuiltCli } from '../cli/buildCli';
import { makeReviewWithRun, RUN_ID, snapshot } from './fixtures';

const OPTIONS = ['1', '2', '3', '4', '5', '6'];

function close(a: number | null | undefined, b: number, what: string): void {
  assert.ok(a !== null && a !== undefined && Math.abs(a - b) < 1e-9, `${what}: ${a} ≠ ${b}`);
}

async function writeYaml(root: string, rel: string, lines: string[]): Promise<void> {
  await fs.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
  await fs.writeFile(path.join(root, rel), `${lines.join('\n')}\n`);
}

type Answer = { rep: number; cla: number; sat: number; wf?: 'teamfusion' | 'usual' };

async function writeAnswers(root: string, folder: string, answers: Record<string, Answer>): Promise<void> {
  for (const [id, a] of Object.entries(answers)) {
    await writeYaml(root, `${folder}/${id}.yaml`, [
      `designer: ${id}`,
      `representative: ${a.rep}`,
      `clarity: ${a.cla}`,
      `satisfied: ${a.sat}`,
      ...(a.wf ? [`workflow: ${a.wf}`] : []),
    ]);
  }
}

/** A TeamFusion review (the fixture's run, started 22:40:05Z) committed `minutes` later, with the team cut to `designers`. */
async function tfReview(parent: string, name: string, designers: number, minutes: number, answers: Record<string, Answer>): Promise<void> {
  const made = await makeReviewWithRun();
  const root = path.join(parent, name);
  await fs.cp(made, root, { recursive: true });
  await fs.rm(made, { recursive: true, force: true });
  for (let d = designers + 1; d <= 4; d++) await fs.rm(path.join(root, 'rankings', `d${d}.yaml`));
  const file = path.join(root, 'runs', RUN_ID, 'run.json');
  const record = JSON.parse(await fs.readFile(file, 'utf8')) as { startedAt: string; committedAt?: string };
  record.committedAt = new Date(Date.parse(record.startedAt) + minutes * 60_000).toISOString();
  await fs.writeFile(file, `${JSON.stringify(record, null, 2)}\n`);
  await writeAnswers(root, `runs/${RUN_ID}/survey`, answers);
}

async function usualReview(
  parent: string,
  name: string,
  designers: number,
  startedAt: string,
  decidedAt: string,
  answers: Record<string, Answer>,
): Promise<string> {
  const made = await makeReview({ options: 6, designers, size: 64 });
  const root = path.join(parent, name);
  await fs.cp(made, root, { recursive: true });
  await fs.rm(made, { recursive: true, force: true });
  await fs.writeFile(path.join(root, 'review.yaml'), 'condition: usual\n');
  await writeYaml(root, 'decision.yaml', [`pick: "2"`, `startedAt: ${startedAt}`, `decidedAt: ${decidedAt}`]);
  await writeAnswers(root, 'survey', answers);
  return root;
}

describe('baseline: TeamFusion against the usual way (issue 19)', function () {
  this.timeout(120_000);

  it('decision.yaml: pick must be an option, times ISO and forwards, each problem at its line:col', () => {
    const good = checkDecisionText('pick: 3\nstartedAt: 2026-11-24T09:00:00Z\ndecidedAt: 2026-11-24T09:18:00Z\n', OPTIONS);
    assert.deepEqual(good.decision, { pick: '3', startedAt: '2026-11-24T09:00:00Z', decidedAt: '2026-11-24T09:18:00Z' });
    const bad = checkDecisionText('pick: "9"\nstartedAt: yesterday\ndecidedAt: 2026-11-24T09:18:00Z\n', OPTIONS);
    assert.equal(bad.decision, undefined);
    assert.deepEqual(
      bad.diagnostics.map((d) => [d.line, d.column, d.severity]),
      [
        [1, 7, 'error'],
        [2, 12, 'error'],
      ],
    );
    assert.match(bad.diagnostics[0]!.message, /pick "9" is not an option of this review.*1, 2, 3, 4, 5, 6/);
    assert.match(bad.diagnostics[1]!.message, /startedAt must be a real ISO time/);
    const backwards = checkDecisionText('pick: "1"\nstartedAt: 2026-11-24T09:30:00Z\ndecidedAt: 2026-11-24T09:18:00+00:00\n', OPTIONS);
    assert.equal(backwards.diagnostics.length, 1);
    assert.deepEqual([backwards.diagnostics[0]!.line, backwards.diagnostics[0]!.column], [3, 12]);
    assert.match(backwards.diagnostics[0]!.message, /decidedAt .* is before startedAt/);
    assert.match(
      checkDecisionText('pick: "1"\n', OPTIONS)
        .diagnostics.map((d) => d.message)
        .join(' '),
      /startedAt field is missing/,
    );
  });

  it('survey: workflow is teamfusion or usual, anything else an error at its value; review.yaml condition is checked', () => {
    const ok = checkSurveyText('designer: d1\nrepresentative: 4\nworkflow: usual\n', 'survey/d1.yaml');
    assert.equal(ok.survey?.workflow, 'usual');
    const only = checkSurveyText('designer: d1\nworkflow: teamfusion\n', 'survey/d1.yaml');
    assert.equal(only.survey?.workflow, 'teamfusion', 'the workflow alone is an answer');
    const bad = checkSurveyText('designer: d1\nrepresentative: 4\nworkflow: both\n', 'survey/d1.yaml');
    assert.equal(bad.survey, undefined);
    assert.deepEqual([bad.diagnostics[0]!.line, bad.diagnostics[0]!.column], [3, 11]);
    assert.match(bad.diagnostics[0]!.message, /workflow must be teamfusion or usual/);
    const cfg = parseReviewConfig('title: x\ncondition: sometimes\n');
    assert.deepEqual([cfg.diagnostics[0]!.line, cfg.diagnostics[0]!.column, cfg.diagnostics[0]!.severity], [2, 12, 'error']);
    assert.equal(parseReviewConfig('condition: usual\n').config.condition, 'usual');
  });

  it('the exact sign test matches the binomial by hand', () => {
    assert.equal(signTestP(0, 0), null);
    close(signTestP(5, 2), 58 / 128, '5 vs 2');
    close(signTestP(2, 5), 58 / 128, '2 vs 5');
    close(signTestP(6, 0), 2 / 64, '6 vs 0');
    assert.equal(signTestP(3, 3), 1);
  });

  describe('through the real CLI', () => {
    const { run } = useBuiltCli();
    let folder = '';
    before(async () => {
      folder = await makeTempDir();
      // Team A = d1..d4, team B = d1..d3 (each with both conditions); team C = d1, d2 (usual way only).
      await tfReview(folder, 'a-teamfusion', 4, 12.4, {
        d1: { rep: 5, cla: 4, sat: 5, wf: 'teamfusion' },
        d2: { rep: 4, cla: 4, sat: 4, wf: 'teamfusion' },
        d3: { rep: 3, cla: 3, sat: 4 },
      });
      await usualReview(folder, 'a-usual', 4, '2026-11-24T13:00:00Z', '2026-11-24T13:18:00Z', {
        d1: { rep: 3, cla: 3, sat: 3 },
        d2: { rep: 4, cla: 2, sat: 3 },
        d4: { rep: 2, cla: 3, sat: 2, wf: 'usual' },
      });
      await tfReview(folder, 'b-teamfusion', 3, 10, {
        d1: { rep: 4, cla: 4, sat: 4, wf: 'teamfusion' },
        d2: { rep: 5, cla: 5, sat: 5, wf: 'teamfusion' },
      });
      await usualReview(folder, 'b-usual', 3, '2026-11-23T09:00:00Z', '2026-11-23T09:20:00Z', {
        d1: { rep: 4, cla: 3, sat: 4 },
        d3: { rep: 3, cla: 3, sat: 3, wf: 'teamfusion' },
      });
      await usualReview(folder, 'c-usual', 2, '2026-11-22T09:00:00+01:00', '2026-11-22T09:30:00+01:00', {
        d1: { rep: 1, cla: 1, sat: 1, wf: 'usual' },
      });
    });
    after(async () => {
      if (folder) await fs.rm(folder, { recursive: true, force: true });
    });

    it('evaluate --json pairs the conditions within each team and matches a hand count', async () => {
      const r = await run('evaluate', folder, '--json');
      assert.equal(r.code, 0, r.stderr);
      const e = JSON.parse(r.stdout) as {
        reviews: { path: string; condition: string }[];
        conditions: {
          teamfusion: {
            reviews: number;
            survey: { n: number; representative: number; clarity: number; satisfied: number };
            decisionMinutes: number;
          };
          usual: {
            reviews: number;
            survey: { n: number; representative: number; clarity: number; satisfied: number };
            decisionMinutes: number;
          };
          paired: Record<'representative' | 'clarity' | 'satisfied' | 'decisionMinutes', { diff: number; low: number; high: number }> & {
            teams: number;
          };
          workflow: { teamfusion: number; usual: number; signTestP: number };
          teams: { designers: string[]; teamfusion: string[]; usual: string[]; paired: boolean }[];
        };
      };
      assert.deepEqual(
        e.reviews.map((x) => [x.path, x.condition]),
        [
          ['a-teamfusion', 'teamfusion'],
          ['a-usual', 'usual'],
          ['b-teamfusion', 'teamfusion'],
          ['b-usual', 'usual'],
          ['c-usual', 'usual'],
        ],
      );
      const c = e.conditions;
      // By hand: TeamFusion answers 5,4,3,4,5 / 4,4,3,4,5 / 5,4,4,4,5; minutes 12.4 and 10.
      assert.equal(c.teamfusion.reviews, 2);
      assert.equal(c.teamfusion.survey.n, 5);
      close(c.teamfusion.survey.representative, 21 / 5, 'tf representative');
      close(c.teamfusion.survey.clarity, 4, 'tf clarity');
      close(c.teamfusion.survey.satisfied, 22 / 5, 'tf satisfied');
      close(c.teamfusion.decisionMinutes, 11.2, 'tf minutes');
      // Usual: 3,4,2,4,3,1 / 3,2,3,3,3,1 / 3,3,2,4,3,1; minutes 18, 20, 30.
      assert.equal(c.usual.reviews, 3);
      assert.equal(c.usual.survey.n, 6);
      close(c.usual.survey.representative, 17 / 6, 'usual representative');
      close(c.usual.survey.clarity, 15 / 6, 'usual clarity');
      close(c.usual.survey.satisfied, 16 / 6, 'usual satisfied');
      close(c.usual.decisionMinutes, 68 / 3, 'usual minutes');
      // Paired (A, B): representative 4 − 3 = 1 and 4.5 − 3.5 = 1; clarity 11/3 − 8/3 = 1 and 4.5 − 3 = 1.5;
      // satisfied 13/3 − 8/3 = 5/3 and 4.5 − 3.5 = 1; minutes 12.4 − 18 and 10 − 20.
      assert.equal(c.paired.teams, 2);
      close(c.paired.representative.diff, 1, 'paired representative');
      close(c.paired.representative.low, 1, 'no spread, no width');
      close(c.paired.clarity.diff, 1.25, 'paired clarity');
      const h = (12.706205 * Math.sqrt(0.125)) / Math.sqrt(2);
      close(c.paired.clarity.low, 1.25 - h, 'clarity low');
      close(c.paired.clarity.high, 1.25 + h, 'clarity high');
      close(c.paired.satisfied.diff, 4 / 3, 'paired satisfied');
      close(c.paired.decisionMinutes.diff, -7.8, 'paired minutes');
      // One vote a person: A-d1, A-d2, B-d1, B-d2, B-d3 TeamFusion; A-d4, C-d1 usual; p = 2 · (1 + 7 + 21) / 128.
      assert.deepEqual([c.workflow.teamfusion, c.workflow.usual], [5, 2]);
      close(c.workflow.signTestP, 58 / 128, 'sign test');
      const single = c.teams.filter((t) => !t.paired);
      assert.deepEqual(single, [{ designers: ['d1', 'd2'], teamfusion: [], usual: ['c-usual'], paired: false }]);
      const text = await run('evaluate', folder);
      assert.match(
        text.stdout,
        /^TeamFusion: 2 reviews, survey n = 5: representative 4\.20, clarity 4\.00, satisfied 4\.40; decision 11\.2 min \(the study: 4\.3, 3\.8, 4\.2; 12\.4 min\)\.$/m,
      );
      assert.match(text.stdout, /^Usual way: 3 reviews, .*decision 22\.7 min \(the study: 18\.0 min\)\.$/m);
      assert.match(text.stdout, /^Not paired \(one condition only\): d1, d2 \(c-usual\)\.$/m);
      assert.match(text.stdout, /exact sign test p = 0\.453/);
      const out = path.join(folder, 'evaluation');
      const written = await run('evaluate', folder, '--out', out);
      assert.equal(written.code, 0, written.stderr);
      const chart = await fs.readFile(path.join(out, 'conditions.svg'), 'utf8');
      assert.match(chart, /^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      assert.match(chart, /<title>clarity 1\.25<\/title>/);
      assert.match(await fs.readFile(path.join(out, 'evaluation.md'), 'utf8'), /## TeamFusion against the usual way/);
      await fs.rm(out, { recursive: true, force: true });
    });

    it("the panel's side by side: a TeamFusion review paired with its own team's usual way in the parent folder, as evaluate pairs", async () => {
      const a = await sideBySideOf(path.join(folder, 'a-teamfusion'));
      assert.ok(a);
      assert.equal(a.folder, path.basename(folder));
      assert.deepEqual(a.team, ['d1', 'd2', 'd3', 'd4']);
      assert.ok(SideBySideSchema.safeParse(a).success, 'the typed panel message carries it as it is');
      const c = a.conditions;
      assert.deepEqual(c.teams, [{ designers: ['d1', 'd2', 'd3', 'd4'], teamfusion: ['a-teamfusion'], usual: ['a-usual'], paired: true }]);
      // By hand, team A only: TeamFusion 5,4,3 / 4,4,3 / 5,4,4 and 12.4 min; usual 3,4,2 / 3,2,3 / 3,3,2 and 18 min.
      close(c.teamfusion.survey.representative, 4, 'A tf representative');
      close(c.usual.survey.clarity, 8 / 3, 'A usual clarity');
      close(c.paired.satisfied.diff, 5 / 3, 'A paired satisfied');
      assert.equal(c.paired.satisfied.low, null, 'one team: no interval');
      close(c.paired.decisionMinutes.diff, 12.4 - 18, 'A minutes');
      assert.deepEqual([c.workflow.teamfusion, c.workflow.usual], [2, 1]);
      const b = await sideBySideOf(path.join(folder, 'b-teamfusion'));
      assert.deepEqual(
        b?.conditions.teams.map((t) => [t.teamfusion, t.usual]),
        [[['b-teamfusion'], ['b-usual']]],
      );
      // A usual-way review shows no side by side of its own; nor does a TeamFusion review whose team has no usual way.
      assert.equal(await sideBySideOf(path.join(folder, 'a-usual')), undefined);
      const lone = await makeTempDir();
      await tfReview(lone, 'solo', 2, 5, {});
      assert.equal(await sideBySideOf(path.join(lone, 'solo')), undefined);
      // Beside means in the same folder: the same team's usual way one folder further down is not beside it.
      const nested = await makeTempDir();
      await tfReview(nested, 'a-teamfusion', 4, 5, {});
      await fs.cp(path.join(folder, 'a-usual'), path.join(nested, 'a-usual'), { recursive: true });
      assert.deepEqual(
        (await sideBySideOf(path.join(nested, 'a-teamfusion')))?.conditions.teams.map((t) => t.usual),
        [['a-usual']],
      );
      await fs.mkdir(path.join(nested, 'older'));
      await fs.rename(path.join(nested, 'a-usual'), path.join(nested, 'older', 'a-usual'));
      assert.equal(await sideBySideOf(path.join(nested, 'a-teamfusion')), undefined);
    });

    it('a usual-way review that holds a TeamFusion run: a warning at validation; evaluate leaves the run out and says so', async () => {
      const root = path.join(folder, 'c-usual');
      await fs.mkdir(path.join(root, 'runs', RUN_ID), { recursive: true });
      await fs.writeFile(path.join(root, 'runs', RUN_ID, 'run.json'), '{}\n');
      try {
        const v = await run('validate', root);
        assert.equal(v.code, 0, v.stdout + v.stderr);
        assert.match(
          v.stdout + v.stderr,
          /^runs:0:0: warning: This review is decided the usual way \(condition: usual\), but runs\/ holds 1 TeamFusion run; they are left out \(evaluate counts only decision\.yaml and survey\/ here\)\./m,
        );
        const r = await run('evaluate', folder, '--json');
        assert.equal(r.code, 1, 'something was left out');
        assert.match(
          r.stderr,
          /^skipped c-usual\/runs: This review is decided the usual way \(condition: usual\), but runs\/ holds 1 TeamFusion run; they are left out/m,
        );
        const e = JSON.parse(r.stdout) as { conditions: { usual: { reviews: number } }; reviews: { path: string; runs: unknown[] }[] };
        assert.equal(e.conditions.usual.reviews, 3, 'the review still counts the usual way');
        assert.deepEqual(e.reviews.find((x) => x.path === 'c-usual')?.runs, [], 'its run is not counted');
      } finally {
        await fs.rm(path.join(root, 'runs'), { recursive: true, force: true });
      }
    });

    it('a bad decision.yaml or survey answer is skipped with file:line:col (exit 1), the rest still counts', async () => {
      const root = path.join(folder, 'c-usual');
      const keep = await fs.readFile(path.join(root, 'decision.yaml'), 'utf8');
      await fs.writeFile(path.join(root, 'decision.yaml'), 'pick: "9"\nstartedAt: 2026-11-22T09:00:00Z\ndecidedAt: 2026-11-22T08:00:00Z\n');
      await fs.writeFile(path.join(root, 'survey', 'd2.yaml'), 'designer: d2\nworkflow: maybe\n');
      const r = await run('evaluate', folder, '--json');
      assert.equal(r.code, 1);
      assert.match(r.stderr, /c-usual\/decision\.yaml:1:7: error: pick "9" is not an option/);
      assert.match(r.stderr, /c-usual\/decision\.yaml:3:12: error: decidedAt .* is before startedAt/);
      assert.match(r.stderr, /survey\/d2\.yaml:2:11: error: workflow must be teamfusion or usual/);
      const e = JSON.parse(r.stdout) as { conditions: { usual: { reviews: number; decisionMinutes: number } } };
      assert.equal(e.conditions.usual.reviews, 3);
      close(e.conditions.usual.decisionMinutes, 19, 'the bad decision leaves its minutes out');
      const v = await run('validate', root);
      assert.equal(v.code, 1);
      assert.match(v.stdout, /^decision\.yaml:1:7: error: pick "9"/m);
      assert.match(v.stdout, /^survey\/d2\.yaml:2:11: error: workflow must be/m);
      await fs.writeFile(path.join(root, 'decision.yaml'), keep);
      await fs.rm(path.join(root, 'survey', 'd2.yaml'));
    });

    it('decide writes decision.yaml of a usual-way review; bad input exits 1 and writes nothing', async () => {
      const parent = await makeTempDir();
      try {
        const root = await usualReview(parent, 'poster', 3, '2026-11-24T09:00:00Z', '2026-11-24T09:10:00Z', {});
        await fs.rm(path.join(root, 'decision.yaml'));
        const before = await snapshot(root);
        for (const args of [
          ['--pick', '9', '--started', '2026-11-24T09:00:00Z'],
          ['--pick', '2', '--started', 'this morning'],
          ['--pick', '2'],
          ['--pick', '2', '--started', '2999-01-01T00:00:00Z'],
          // Days and times the calendar does not have (Date.parse would roll 02-30 over into March).
          ['--pick', '2', '--started', '2026-02-30T10:00:00Z'],
          ['--pick', '2', '--started', '2026-13-01T10:00:00Z'],
          ['--pick', '2', '--started', '2026-11-24T24:30:00Z'],
          ['--pick', '2', '--started', '2026-11-24T10:00:00+25:00'],
        ]) {
          const r = await run('decide', root, ...args);
          assert.equal(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
          assert.doesNotMatch(r.stderr, /^\s+at /m);
        }
        assert.match((await run('decide', root, '--pick', '9', '--started', '2026-11-24T09:00:00Z')).stderr, /pick "9" is not an option/);
        assert.match(
          (await run('decide', root, '--pick', '2', '--started', '2026-02-30T10:00:00Z')).stderr,
          /^teamfusion decide: --started must be a real ISO time .*found "2026-02-30T10:00:00Z"/,
        );
        assert.deepEqual(
          checkDecisionText('pick: "1"\nstartedAt: 2026-02-29T09:00:00Z\ndecidedAt: 2026-11-24T09:18:00Z\n', OPTIONS).diagnostics.map(
            (d) => `${d.line}:${d.column} ${d.message.slice(0, 40)}`,
          ),
          ['2:12 startedAt must be a real ISO time with a'],
          '2026 is not a leap year: decision.yaml with February 29 is refused at its line',
        );
        assert.deepEqual(await snapshot(root), before, 'nothing written');
        assert.equal((await run('decide', root)).code, 2);
        const ok = await run('decide', root, '--pick', '3', '--started', '2026-11-24T09:00:00Z');
        assert.equal(ok.code, 0, ok.stderr);
        const text = await fs.readFile(path.join(root, 'decision.yaml'), 'utf8');
        const check = checkDecisionText(text, OPTIONS);
        assert.equal(check.decision?.pick, '3');
        assert.equal(check.decision?.startedAt, '2026-11-24T09:00:00Z');
        // A second decide keeps the recorded start.
        const again = await run('decide', root, '--pick', '4');
        assert.equal(again.code, 0, again.stderr);
        assert.equal(
          checkDecisionText(await fs.readFile(path.join(root, 'decision.yaml'), 'utf8'), OPTIONS).decision?.startedAt,
          '2026-11-24T09:00:00Z',
        );
        // Not a usual-way review: refused.
        await fs.writeFile(path.join(root, 'review.yaml'), 'title: Poster\n');
        const tf = await run('decide', root, '--pick', '3', '--started', '2026-11-24T09:00:00Z');
        assert.equal(tf.code, 1);
        assert.match(tf.stderr, /not a usual-way review; add "condition: usual"/);
        await fs.writeFile(path.join(root, 'review.yaml'), 'condition: sometimes\n');
        const badCfg = await run('decide', root, '--pick', '3', '--started', '2026-11-24T09:00:00Z');
        assert.equal(badCfg.code, 1);
        assert.match(badCfg.stderr, /review\.yaml:1:12: error: condition must be/);
      } finally {
        await fs.rm(parent, { recursive: true, force: true });
      }
    });
  });
});
