/**
 * Forks (issue 33, item 1), as a user runs them: the built CLI (dist/cli.js) against the spec-checking scripted server, real
 * files and real sharp. A remix agent that reports a decision point splitting the team makes one remix per side (`forks:
 * auto`, the default), each recorded with its question and position, seen by forksOf and voted on with `teamfusion vote`;
 * `--forks off` makes the round's usual remix; three sides make three; a failed edit of one side is made alone on resume;
 * `--forks ask` waits for the lead (exit 3 with --no-wait) until `teamfusion say … --as <lead> <n|none>`.
 */
import { strict as assert } from 'node:assert';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { DecisionPoint, RunRecord } from '../../../src/core/record/record';
import { forksOf } from '../../../src/core/evaluation/votes/forks';
import { checkRunRecord } from '../../../src/core/record/recordCheck';
import { makeReview } from '../run/fixtures';
import { mockSuite, startCli, type CliResult, runJson, UNPOOLED_YAML } from '../run/helpers';
import { withDecisionPoints, editRequests } from './forkSupport';

const PALETTE: DecisionPoint = {
  question: 'Warm or cold palette?',
  positions: [
    { position: 'warm palette', heldBy: ['d1', 'd2'] },
    { position: 'cold palette', heldBy: ['d3'] },
  ],
};

async function onlyRun(root: string): Promise<string> {
  const ids = await fs.readdir(path.join(root, 'runs'));
  assert.equal(ids.length, 1);
  return ids[0]!;
}

describe('forks: one remix per side of a decision point (command line)', function () {
  this.timeout(180_000);
  const suite = mockSuite();
  const cli = (args: string[]): Promise<CliResult> => startCli(args, suite.env).done;

  /** A review of 4 options and 3 designers (d1 the lead), two rounds of one turn each. */
  async function review(extra = ''): Promise<string> {
    const root = await makeReview({ options: 4, designers: 3 });
    await fs.writeFile(path.join(root, 'review.yaml'), `lead: d1\niterations: 2\nturnsPerAgent: 1\n${UNPOOLED_YAML}${extra}`);
    return root;
  }

  it('auto (the default): a two-sided point makes one remix per side, recorded with question and position; forksOf sees it; teamfusion vote decides it', async () => {
    const root = await review();
    suite.mock.setFallback(withDecisionPoints([PALETTE]));
    const run = await cli(['run', root, '--json']);
    assert.equal(run.code, 0, run.stderr);
    const rec = await runJson(root, await onlyRun(root));
    assert.equal(rec.settings.forks, 'auto', 'a new run records the default');
    const one = rec.iterations[0]!;
    assert.deepEqual(
      one.remixes!.map((m) => [m.id, m.file, m.fork]),
      [
        ['r1a', 'iteration-1/remix-a.png', { question: 'Warm or cold palette?', position: 'warm palette', decisionPoint: 1 }],
        ['r1b', 'iteration-1/remix-b.png', { question: 'Warm or cold palette?', position: 'cold palette', decisionPoint: 1 }],
      ],
    );
    for (const m of one.remixes!) assert.ok(existsSync(path.join(root, 'runs', rec.id, m.file)), `${m.file} is written`);
    // The same proposal both ways: the same inputs (the consensus top), directions that differ only in the side taken.
    const [a, b] = one.proposals!;
    assert.deepEqual(a!.from, one.ranking);
    assert.deepEqual(b!.from, one.ranking);
    assert.ok(a!.editingDirections.startsWith(one.editingDirections!) && b!.editingDirections.startsWith(one.editingDirections!));
    const prompts = editRequests(suite.mock).map((r) => String((r.body as { prompt?: unknown }).prompt));
    assert.equal(prompts.length, 2, 'one image edit per side, no other remix');
    assert.ok(prompts.some((p) => p.includes('takes one side only: warm palette.') && p.includes('Do not blend in "cold palette"')));
    assert.ok(prompts.some((p) => p.includes('takes one side only: cold palette.') && p.includes('Do not blend in "warm palette"')));
    // Both sides go on to the final round as candidates.
    assert.deepEqual(rec.iterations[1]!.candidates.slice(-2), ['r1a', 'r1b']);
    const optionNames = await fs.readdir(path.join(root, 'options'));
    const json = JSON.parse(await fs.readFile(path.join(root, 'runs', rec.id, 'run.json'), 'utf8')) as RunRecord;
    const check = checkRunRecord(json, `runs/${rec.id}`, optionNames);
    assert.ok('record' in check, `the record passes the checks of a record read back: ${JSON.stringify(check)}`);
    json.iterations[0]!.remixes![1]!.fork!.position = 'lukewarm palette';
    const tampered = checkRunRecord(json, `runs/${rec.id}`, optionNames);
    assert.ok(
      'problem' in tampered &&
        /Remix "r1b" takes a side of decision point 1, which iteration 1 does not have/.test(tampered.problem.message),
    );
    assert.match(run.stderr, /Round 1 forks decision point 1 \(Warm or cold palette\?\)/);
    const result = await fs.readFile(path.join(root, 'runs', rec.id, 'result.md'), 'utf8');
    assert.match(result, /Remix r1a — Takes the side "warm palette" of decision point 1: Warm or cold palette\?/);
    assert.match(result, /Remix r1b — Takes the side "cold palette" of decision point 1: Warm or cold palette\?/);

    assert.deepEqual(forksOf(rec), [
      {
        iteration: 1,
        decisionPoint: 1,
        question: 'Warm or cold palette?',
        sides: [
          { id: 'r1a', letter: 'a', position: 'warm palette' },
          { id: 'r1b', letter: 'b', position: 'cold palette' },
        ],
      },
    ]);
    // The team votes with the existing command (letters or ids); the last vote records the decision.
    for (const [who, choice] of [
      ['d1', 'a'],
      ['d2', 'r1b'],
      ['d3', 'B'],
    ] as const) {
      const vote = await cli(['vote', root, rec.id, '--as', who, '1', choice]);
      assert.equal(vote.code, 0, vote.stderr);
    }
    const decided = await runJson(root, rec.id);
    assert.deepEqual(
      decided.iterations[0]!.decisions?.map((d) => ({ ...d, at: undefined })),
      [
        {
          question: 'Warm or cold palette?',
          decision: 'cold palette',
          by: 'team',
          via: 'human',
          at: undefined,
          voters: ['d1', 'd2', 'd3'],
          counts: { 'warm palette': 1, 'cold palette': 2 },
        },
      ],
    );
  });

  it("off: the same answer makes the round's one usual remix, no fork", async () => {
    const root = await review();
    suite.mock.setFallback(withDecisionPoints([PALETTE]));
    const run = await cli(['run', root, '--json', '--forks', 'off']);
    assert.equal(run.code, 0, run.stderr);
    const rec = await runJson(root, await onlyRun(root));
    assert.equal(rec.settings.forks, 'off');
    assert.equal(rec.iterations[0]!.remix?.id, 'r1');
    assert.equal(rec.iterations[0]!.remixes, undefined);
    assert.equal(rec.iterations[0]!.proposals, undefined);
    assert.equal(editRequests(suite.mock).length, 1);
    assert.deepEqual(forksOf(rec), []);
  });

  it('review.yaml forks: off is read, and a bad value is refused at its line', async () => {
    const root = await review('forks: off\n');
    suite.mock.setFallback(withDecisionPoints([PALETTE]));
    const run = await cli(['run', root, '--json']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal((await runJson(root, await onlyRun(root))).settings.forks, 'off');
    const bad = await review('forks: always\n');
    const refused = await cli(['validate', bad]);
    assert.equal(refused.code, 1);
    assert.match(refused.stdout + refused.stderr, /review\.yaml:6:\d+: error: .*forks/);
    const usage = await cli(['run', bad, '--forks', 'sometimes']);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--forks: must be off, auto or ask, not "sometimes"/);
  });

  it('a three-sided point makes three remixes; a point with a member on two sides, or settled, is not forked', async () => {
    const root = await review('remixesPerIteration: 2\n');
    const overlapping: DecisionPoint = {
      question: 'Bottle centred?',
      positions: [
        { position: 'centred', heldBy: ['d1'] },
        { position: 'off-centre', heldBy: ['d1', 'd2'] },
      ],
    };
    const three: DecisionPoint = {
      question: 'Which light?',
      positions: [
        { position: 'dawn light', heldBy: ['d1'] },
        { position: 'noon light', heldBy: ['d2'] },
        { position: 'night light', heldBy: ['d3'] },
      ],
    };
    suite.mock.setFallback(withDecisionPoints([overlapping, three]));
    const run = await cli(['run', root, '--json']);
    assert.equal(run.code, 0, run.stderr);
    const rec = await runJson(root, await onlyRun(root));
    const one = rec.iterations[0]!;
    assert.deepEqual(
      one.remixes!.map((m) => [m.id, m.fork?.position, m.fork?.decisionPoint]),
      [
        ['r1a', 'dawn light', 2],
        ['r1b', 'noon light', 2],
        ['r1c', 'night light', 2],
      ],
      "the three sides of point 2 take the place of the round's two proposals",
    );
    assert.equal(editRequests(suite.mock).length, 3);
    assert.deepEqual(
      one.proposals!.map((p) => p.from),
      [0, 1, 2].map(() => one.proposals![0]!.from),
      'each side repeats the first proposal',
    );
    assert.equal(forksOf(rec)[0]!.sides.length, 3);
  });

  it('a failed image edit of one side fails only it; the resume makes that side alone and never runs the round again', async () => {
    const root = await review();
    suite.mock.setFallback(withDecisionPoints([PALETTE]));
    // The first edit to arrive is made, the second fails (no retries in the suite's environment).
    suite.mock.enqueue('edit', { kind: 'image' }, { kind: 'error', status: 400 });
    const failed = await cli(['run', root, '--json']);
    assert.equal(failed.code, 1);
    const id = await onlyRun(root);
    const half = await runJson(root, id);
    assert.equal(half.status, 'failed');
    const made = half.iterations[0]!.remixes!;
    assert.equal(made.length, 1, 'one side is made and kept');
    assert.match(half.error!, /resume the run to make only the rest/);
    const madeBytes = await fs.readFile(path.join(root, 'runs', id, made[0]!.file));
    const chatsBefore = suite.mock.requests.filter((r) => r.route === 'chat').length;
    const editsBefore = editRequests(suite.mock).length;

    const resumed = await cli(['run', root, '--resume', id, '--json']);
    assert.equal(resumed.code, 0, resumed.stderr);
    const rec = await runJson(root, id);
    assert.equal(editRequests(suite.mock).length - editsBefore, 1, 'only the failed side is edited again');
    assert.deepEqual(
      rec.iterations[0]!.remixes!.map((m) => [m.id, m.fork?.position]),
      [
        ['r1a', 'warm palette'],
        ['r1b', 'cold palette'],
      ],
    );
    assert.deepEqual(await fs.readFile(path.join(root, 'runs', id, made[0]!.file)), madeBytes, 'the side already made is kept as it was');
    const round1Chats = suite.mock.requests.slice(0).filter((r) => r.route === 'chat').length - chatsBefore;
    assert.ok(round1Chats >= 1, 'the final round ran');
    assert.equal(rec.prompts.filter((p) => p.iteration === 1 && p.kind === 'remix').length, 1, "round 1's remix agent was not asked again");
  });

  it("ask: the run waits for the lead (exit 3 with --no-wait); say refuses a point that cannot fork; the lead's number forks it on resume", async () => {
    const root = await review();
    suite.mock.setFallback(withDecisionPoints([PALETTE]));
    const waiting = await cli(['run', root, '--forks', 'ask', '--no-wait']);
    assert.equal(waiting.code, 3, waiting.stderr);
    const id = await onlyRun(root);
    const rec = await runJson(root, id);
    assert.equal(rec.status, 'waiting');
    assert.equal(rec.waitingFor?.speaker, 'd1');
    assert.equal(rec.waitingFor?.forkChoice, true);
    assert.equal(editRequests(suite.mock).length, 0, 'nothing is edited before the lead picks');
    assert.match(
      waiting.stderr,
      /Which decision point should round 1 fork \(one remix per side\)\? 1\. Warm or cold palette\? \(1\) warm palette \(2\) cold palette/,
    );
    assert.match(waiting.stderr, /teamfusion say .* --as d1 <decision point number \| none>/);

    const wrong = await cli(['say', root, id, '--as', 'd1', '2']);
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /Decision point 2 cannot be forked in this round \(1, none or \/pass\)/);
    const said = await cli(['say', root, id, '--as', 'd1', '1']);
    assert.equal(said.code, 0, said.stderr);
    const resumed = await cli(['run', root, '--resume', id, '--json']);
    assert.equal(resumed.code, 0, resumed.stderr);
    const done = await runJson(root, id);
    assert.deepEqual(
      done.iterations[0]!.remixes!.map((m) => m.fork?.position),
      ['warm palette', 'cold palette'],
    );
  });

  it('ask: the lead\'s "none" makes the round\'s usual remix', async () => {
    const root = await review();
    suite.mock.setFallback(withDecisionPoints([PALETTE]));
    assert.equal((await cli(['run', root, '--forks', 'ask', '--no-wait'])).code, 3);
    const id = await onlyRun(root);
    assert.equal((await cli(['say', root, id, '--as', 'd1', 'none'])).code, 0);
    const resumed = await cli(['run', root, '--resume', id, '--json']);
    assert.equal(resumed.code, 0, resumed.stderr);
    const done = await runJson(root, id);
    assert.equal(done.iterations[0]!.remix?.id, 'r1');
    assert.deepEqual(forksOf(done), []);
  });
});
