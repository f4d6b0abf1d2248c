/**
 * Brief runs fork too (issue 33, item 1): the built CLI against the scripted server, real files. A round whose remix agent
 * reports a disagreement that splits the team gets the contested passage written each way, kept as
 * iteration-<k>/fork-<letter>.md (inert Markdown) and recorded in brief.forks with question and position; forksOf sees it and
 * `teamfusion vote` takes its letters. `--forks off` writes none.
 */
import { strict as assert } from 'node:assert';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { requestedJsonSchema } from '../../support/openaiMock/autoResponder';
import type { DecisionPoint } from '../../../src/core/record/record';
import { readRunRecord } from '../../../src/core/record/store';
import { forksOf, voteTeam } from '../../../src/core/evaluation/votes/forks';
import { loadReview } from '../../../src/core/review/loadReview';
import { PanelForksSchema } from '../../../src/protocol/votes';
import { panelForks } from '../../../src/extension/panel/state/votesState';
import { makeBriefRunReview } from '../run/fixtures';
import { mockSuite, startCli, type CliResult } from '../run/helpers';
import { briefWithDecisionPoints } from '../../support/decisionPoints';

const TONE: DecisionPoint = {
  question: 'Playful or sober tone?',
  positions: [
    { position: 'a playful tone', heldBy: ['m1', 'm2'] },
    { position: 'a sober tone', heldBy: ['m3'] },
  ],
};
const HOSTILE_PASSAGE = 'The audience is <script>alert(1)</script> young [buyers](javascript:alert(1)).';

describe('forks in a brief run (command line)', function () {
  this.timeout(180_000);
  const suite = mockSuite();
  const cli = (args: string[]): Promise<CliResult> => startCli(args, suite.env).done;
  const forkRequests = () => suite.mock.requests.filter((r) => requestedJsonSchema(r.body)?.name === 'teamfusion_brief_fork');

  /** The brief answers of the scripted server, with `points` as the disagreements and the passages given. */
  const script = (points: DecisionPoint[], passages?: string[]): void => suite.mock.setFallback(briefWithDecisionPoints(points, passages));

  /** A brief run of three commenters whose one round forked on TONE (passage a hostile, b plain). */
  async function forkedBriefRun() {
    const root = await makeBriefRunReview(3);
    script([TONE], [HOSTILE_PASSAGE, 'The tone is sober and precise.']);
    const run = await cli(['run', root, '--task', 'brief', '--iterations', '1', '--turns', '1', '--json']);
    assert.equal(run.code, 0, run.stderr);
    const id = (await fs.readdir(path.join(root, 'runs')))[0]!;
    return { root, id, rec: await readRunRecord(root, id) };
  }

  it('a two-sided disagreement: fork-a.md and fork-b.md, recorded with question and position, voted on by letter', async () => {
    const { root, id, rec } = await forkedBriefRun();
    const brief = rec.iterations[0]!.brief!;
    assert.deepEqual(
      brief.forks?.map((f) => [f.letter, f.file, f.fork]),
      [
        ['a', 'iteration-1/fork-a.md', { question: 'Playful or sober tone?', position: 'a playful tone', decisionPoint: 1 }],
        ['b', 'iteration-1/fork-b.md', { question: 'Playful or sober tone?', position: 'a sober tone', decisionPoint: 1 }],
      ],
    );
    // One request for the passages: both positions, in order, and the revised brief they rewrite.
    assert.equal(forkRequests().length, 1);
    const asked = JSON.stringify(forkRequests()[0]!.body);
    assert.match(asked, /Positions, in this order: \(1\) a playful tone \(2\) a sober tone/);
    assert.equal(
      (requestedJsonSchema(forkRequests()[0]!.body)!.schema as { properties: { passages: { minItems: number } } }).properties.passages
        .minItems,
      2,
    );
    // run.json records it as the remix agent's request (the record has no kind of its own for a fork), told apart by its schema's name.
    const recorded = rec.prompts.filter((p) => (p.responseSchema as { name?: string } | undefined)?.name === 'teamfusion_brief_fork');
    assert.deepEqual(
      recorded.map((p) => [p.kind, p.iteration, p.error]),
      [['remix', 1, undefined]],
    );
    const a = await fs.readFile(path.join(root, 'runs', id, 'iteration-1', 'fork-a.md'), 'utf8');
    const b = await fs.readFile(path.join(root, 'runs', id, 'iteration-1', 'fork-b.md'), 'utf8');
    assert.match(a, /^# Fork A: a playful tone\n\nPlayful or sober tone\?\n\n/);
    assert.ok(!a.includes('<script>') && !a.includes('](javascript:'), `the passage is written inert: ${a}`);
    assert.match(b, /The tone is sober and precise\./);
    assert.deepEqual(forksOf(rec), [
      {
        iteration: 1,
        decisionPoint: 1,
        question: 'Playful or sober tone?',
        sides: [
          { id: 'f1a', letter: 'a', position: 'a playful tone' },
          { id: 'f1b', letter: 'b', position: 'a sober tone' },
        ],
      },
    ]);
    for (const [who, choice] of [
      ['m1', 'a'],
      ['m2', 'B'],
      ['m3', 'f1b'],
    ] as const) {
      const vote = await cli(['vote', root, id, '--as', who, '1', choice]);
      assert.equal(vote.code, 0, vote.stderr);
    }
    const decided = await readRunRecord(root, id);
    assert.deepEqual(
      decided.iterations[0]!.decisions?.map((d) => [d.decision, d.counts]),
      [['a sober tone', { 'a playful tone': 1, 'a sober tone': 2 }]],
    );
  });

  it('the panel: each side is its passage as text, held by the members of the disagreement; the commenters vote', async () => {
    const { root, id, rec } = await forkedBriefRun();
    const { review } = await loadReview(root, { requireRankings: false, decodeImages: false });
    const team = voteTeam(rec, review!);
    assert.deepEqual(team, ['m1', 'm2', 'm3'], "a brief run's voters are its commenters (the review has no rankings)");
    const forks = PanelForksSchema.parse(await panelForks(root, rec, {}, team));
    const sides = forks.forks[0]!.sides;
    assert.deepEqual(
      sides.map((x) => [x.id, x.position, x.holders]),
      [
        ['f1a', 'a playful tone', ['m1', 'm2']],
        ['f1b', 'a sober tone', ['m3']],
      ],
    );
    for (const [i, x] of sides.entries()) {
      assert.equal(
        x.passage,
        await fs.readFile(path.join(root, 'runs', id, 'iteration-1', `fork-${'ab'[i]}.md`), 'utf8'),
        `side ${x.id} carries its passage`,
      );
    }
    await fs.rm(path.join(root, 'runs', id, 'iteration-1', 'fork-b.md'));
    const gone = (await panelForks(root, rec, {}, team))!.forks[0]!.sides[1]!;
    assert.equal(gone.passage, undefined);
    assert.match(gone.passageError ?? '', /fork-b\.md/, `a missing passage is said, naming its file: ${gone.passageError}`);
  });

  it("run.json naming another file as a fork's passage is refused at that place, before anything reads it", async () => {
    const { root, id } = await forkedBriefRun();
    const file = path.join(root, 'runs', id, 'run.json');
    const forged = JSON.parse(await fs.readFile(file, 'utf8')) as { iterations: { brief: { forks: { file: string }[] } }[] };
    forged.iterations[0]!.brief.forks[1]!.file = '../../../brief.md';
    await fs.writeFile(file, JSON.stringify(forged, null, 2));
    await assert.rejects(
      readRunRecord(root, id),
      /run\.json:\d+:\d+: error: The passage of fork b in iteration 1 must be iteration-1\/fork-b\.md, not "\.\.\/\.\.\/\.\.\/brief\.md"/,
    );
  });

  it('off: no passages are asked for and no fork file is written', async () => {
    const root = await makeBriefRunReview(3);
    script([TONE]);
    const run = await cli(['run', root, '--task', 'brief', '--iterations', '1', '--turns', '1', '--forks', 'off', '--json']);
    assert.equal(run.code, 0, run.stderr);
    const id = (await fs.readdir(path.join(root, 'runs')))[0]!;
    assert.equal(forkRequests().length, 0);
    assert.equal((await readRunRecord(root, id)).iterations[0]!.brief!.forks, undefined);
    assert.ok(!existsSync(path.join(root, 'runs', id, 'iteration-1', 'fork-a.md')));
  });
});
