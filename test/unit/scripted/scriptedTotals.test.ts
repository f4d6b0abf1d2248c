/**
 * Scripted runs are listed apart and never summed (contract §7): `evaluate` leaves their cost and measures out of every
 * total and table and names them in words; `compare` says first that the run is scripted, and --json carries `scripted: true`.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { MockOpenAI } from '../../support/openaiMock';
import { startRun } from '../../../src/core/run/session';
import { evaluateFolder } from '../../../src/core/evaluation/evaluate/evaluate';
import { evaluationMarkdown } from '../../../src/core/evaluation/evaluate/report';
import { SCRIPTED_RUN_SENTENCE } from '../../../src/core/evaluation/checks/scripted';
import { makeReview, makeTempDir } from '../run/fixtures';
import { clientFor } from '../run/helpers';
import { useBuiltCli } from '../cli/buildCli';

describe('scripted runs stay out of totals', function () {
  this.timeout(120_000);
  const { run } = useBuiltCli();
  let scripted: MockOpenAI;
  let real: MockOpenAI;
  let folder: string;
  let scriptedId: string;
  let realCost: number;
  let scriptedCost: number;
  before(async () => {
    scripted = await MockOpenAI.start({ scripted: true });
    real = await MockOpenAI.start();
    const cacheDir = await makeTempDir('tf-cache-');
    folder = await makeTempDir('tf-eval-');
    const a = path.join(folder, 'scripted-review');
    const b = path.join(folder, 'real-review');
    await fs.rename(await makeReview({ options: 4, designers: 3 }), a);
    await fs.rename(await makeReview({ options: 4, designers: 3 }), b);
    const s = await startRun({ reviewRoot: a, client: clientFor(scripted), cacheDir, settings: { turnsPerAgent: 1, iterations: 2 } });
    const r = await startRun({ reviewRoot: b, client: clientFor(real), cacheDir, settings: { turnsPerAgent: 1, iterations: 2 } });
    assert.equal(s.scripted, true);
    scriptedId = s.id;
    scriptedCost = s.usage.costUsd!;
    realCost = r.usage.costUsd!;
    assert.ok(scriptedCost > 0 && realCost > 0);
  });
  after(async () => {
    await scripted.close();
    await real.close();
  });

  it("evaluate: the total is the real runs' only; the scripted run is listed apart with its cost, and said in words", async () => {
    const e = await evaluateFolder(folder);
    assert.deepEqual(
      e.reviews.map((r) => [r.path, r.runs.length]),
      [
        ['real-review', 1],
        ['scripted-review', 0],
      ],
    );
    assert.equal(e.scripted[0]!.path, `scripted-review/runs/${scriptedId}`);
    assert.ok(
      e.reviews.every((r) => r.runs.every((x) => x.id !== scriptedId)),
      'no study table holds the scripted run',
    );
    const mine = e.scripted.find((x) => x.id === scriptedId)!;
    assert.deepEqual({ scripted: mine.scripted, costUsd: mine.costUsd }, { scripted: true, costUsd: scriptedCost });
    const realRuns = e.reviews.flatMap((r) => r.runs);
    const expected = realRuns.reduce((sum, x) => sum + x.costUsd!, 0);
    assert.ok(Math.abs(e.overall.totalCostUsd! - expected) < 1e-9);
    assert.ok(realRuns.some((x) => x.costUsd === realCost));
    assert.equal(e.overall.runs, realRuns.length);
    assert.match(evaluationMarkdown(e), /1 scripted run was left out of every total and table/);

    const cli = await run('evaluate', folder);
    assert.match(
      cli.stdout,
      new RegExp(`1 scripted run was left out of every total and table .*${scriptedId} \\(\\$${scriptedCost.toFixed(2)}\\)`),
    );
    const json = JSON.parse((await run('evaluate', folder, '--json')).stdout) as { scripted: { id: string; scripted: boolean }[] };
    assert.deepEqual(
      json.scripted.map((x) => [x.id, x.scripted]),
      [[scriptedId, true]],
    );
  });

  it('compare: a scripted run says so first; --json has scripted: true; what is missing is said once, on stderr', async () => {
    const review = path.join(folder, 'scripted-review');
    const text = await run('compare', review, scriptedId);
    assert.equal(text.stdout.split('\n')[0], SCRIPTED_RUN_SENTENCE);
    assert.match(text.stderr, /There is no re-rank set yet/);
    assert.doesNotMatch(text.stdout, /There is no re-rank set yet/);
    const json = JSON.parse((await run('compare', review, scriptedId, '--json')).stdout) as { scripted?: boolean };
    assert.equal(json.scripted, true);
  });
});
