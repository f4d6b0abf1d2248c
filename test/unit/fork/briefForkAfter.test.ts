/**
 * A brief run's fork after the run (issue 39, item 7): the decision the team's vote made is in the run's result.md (as a
 * design run's is), and a fork passage edited after the run is said — compare names the file in its problems and --json,
 * and the panel shows that sentence instead of the edited text as the passage the run wrote.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { DecisionPoint } from '../../../src/core/record/record';
import { readRunRecord } from '../../../src/core/record/store';
import { voteTeam } from '../../../src/core/evaluation/votes/forks';
import { loadReview } from '../../../src/core/review/loadReview';
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

describe("a brief run's fork after the run: its decision in result.md, an edited passage said", function () {
  this.timeout(180_000);
  const suite = mockSuite();
  const cli = (args: string[]): Promise<CliResult> => startCli(args, suite.env).done;

  it('result.md lists the decision; an edited fork passage is named by compare and not shown by the panel', async () => {
    const root = await makeBriefRunReview(3);
    suite.mock.setFallback(briefWithDecisionPoints([TONE], ['The tone is light and playful.', 'The tone is sober and precise.']));
    const run = await cli(['run', root, '--task', 'brief', '--iterations', '1', '--turns', '1']);
    assert.equal(run.code, 0, run.stderr);
    const id = (await fs.readdir(path.join(root, 'runs')))[0]!;
    for (const [who, choice] of [
      ['m1', 'a'],
      ['m2', 'b'],
      ['m3', 'b'],
    ] as const) {
      const vote = await cli(['vote', root, id, '--as', who, '1', choice]);
      assert.equal(vote.code, 0, vote.stderr);
    }
    const result = await fs.readFile(path.join(root, 'runs', id, 'result.md'), 'utf8');
    assert.match(result, /## Decisions\n\n- Round 1: Playful or sober tone\? → \*\*a sober tone\*\* \(the team's vote, 2 to 1\)\n/);

    // Untouched: compare says nothing of the passages, the panel shows them.
    const clean = JSON.parse((await cli(['compare', root, id, '--json'])).stdout) as { problems: string[] };
    assert.deepEqual(
      clean.problems.filter((p) => p.includes('fork-')),
      [],
    );
    const rel = `runs/${id}/iteration-1/fork-a.md`;
    await fs.appendFile(path.join(root, ...rel.split('/')), '\nAnd the playful side won after all.\n');
    const r = await cli(['compare', root, id, '--json']);
    const out = JSON.parse(r.stdout) as { problems: string[] };
    const said = `${rel}:0:0: warning: ${rel} was edited after the run (its sha256 differs from the one run.json keeps), so it is not shown as the passage the run wrote.`;
    assert.ok(out.problems.includes(said), out.problems.join('\n'));
    assert.ok(r.stderr.includes(said), r.stderr);

    const rec = await readRunRecord(root, id);
    const { review } = await loadReview(root, { requireRankings: false, decodeImages: false });
    const forks = await panelForks(root, rec, {}, voteTeam(rec, review!));
    const [a, b] = forks!.forks[0]!.sides;
    assert.equal(a!.passage, undefined, "the edited text is not shown as the run's");
    assert.match(a!.passageError ?? '', /fork-a\.md was edited after the run/);
    assert.match(b!.passage ?? '', /The tone is sober and precise\./);
  });
});
