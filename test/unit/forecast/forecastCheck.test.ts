/**
 * Seals that prove something (issue 39, item 3): forecast.json re-hashed (its hash written into run.json too) still has
 * each forecast checked again at every read — a letter not in the blind set's key, a request that run.json's prompts never
 * held, or a designer not on the team: that forecast is not counted, and compare says so; the others still count.
 */
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { compareRun } from '../../../src/core/evaluation';
import { blindLetters, forecastPrompt } from '../../support/forecastRuns';
import { writeForecastFile, type ForecastEntry } from '../../../src/core/forecast/forecastFile';
import { editRun, makeReviewWithRun, RUN_ID, writeRerankRanking } from '../evaluation/fixtures';
import * as path from 'node:path';

describe('forecast: a re-sealed forecast.json is checked again at every read', function () {
  this.timeout(60_000);
  let root = '';
  after(async () => {
    if (root) await fs.rm(root, { recursive: true, force: true });
  });

  it('a letter not in the key, a request never made and a non-member are not counted, each said', async () => {
    root = await makeReviewWithRun();
    const { letters, reversed } = await blindLetters(root, RUN_ID);
    // d3's forecast swaps its last letter for Z, a letter the key does not hold (the file's letters claim Z too).
    const forged = [...letters.slice(0, -1), 'Z'];
    const forecasts: ForecastEntry[] = [
      { kind: 'persona', designer: 'd1', ranking: letters, promptId: 'f1' },
      { kind: 'persona', designer: 'd2', ranking: letters, promptId: 'f9' },
      { kind: 'persona', designer: 'outsider', ranking: letters, promptId: 'f4' },
      { kind: 'control', designer: null, ranking: reversed, promptId: 'f3' },
    ];
    const sha = await writeForecastFile(root, { runId: RUN_ID, task: 'design', letters, forecasts });
    await editRun(root, (r) => {
      r.prompts.push(
        forecastPrompt('f1', 'd1'),
        forecastPrompt('f2', 'd2'),
        forecastPrompt('f3'),
        forecastPrompt('f4', 'outsider'),
        forecastPrompt('f5', 'd3'),
      );
      r.forecastSha256 = sha;
    });
    for (const d of ['d1', 'd2', 'd3'])
      await writeRerankRanking(path.join(root, 'runs', RUN_ID, 'rerank'), d, Object.fromEntries(letters.map((l, i) => [l, i + 1])));

    // First the honest part alone: d1 counts (τ 1, control −1).
    let c = await compareRun(root, RUN_ID);
    assert.equal(c.fidelity?.task, 'design');
    assert.deepEqual(Object.keys(c.fidelity!.byDesigner), ['d1']);
    assert.deepEqual(c.fidelity!.byDesigner.d1, { tau: 1, control: -1, lift: 2 });
    assert.ok(
      c.problems.some((p) =>
        /forecast\.json:1:1: error: d2's forecast names the request f9, which is not its forecast request in run\.json's prompts/.test(p),
      ),
      c.problems.join('\n'),
    );
    assert.ok(
      c.problems.some((p) => /outsider's forecast is for someone not on this run's team/.test(p)),
      c.problems.join('\n'),
    );

    // Now re-hashed with d3's forecast naming Z (file letters and run.json's seal both agree): still not counted.
    const withZ: ForecastEntry[] = [...forecasts, { kind: 'persona', designer: 'd3', ranking: forged, promptId: 'f5' }];
    const sha2 = await writeForecastFile(root, {
      runId: RUN_ID,
      task: 'design',
      letters: [...letters.slice(0, -1), 'Z'].sort(),
      forecasts: withZ.map((e) =>
        e.ranking && e.designer !== 'd3' ? { ...e, ranking: e.ranking.map((l) => (l === letters.at(-1) ? 'Z' : l)) } : e,
      ),
    });
    await editRun(root, (r) => void (r.forecastSha256 = sha2));
    c = await compareRun(root, RUN_ID);
    assert.deepEqual(Object.keys(c.fidelity?.byDesigner ?? {}), [], 'no forecast naming Z counts');
    assert.ok(
      c.problems.some((p) => /d3's forecast names Z, not a letter of the blind set/.test(p)),
      c.problems.join('\n'),
    );
    assert.ok(
      c.problems.some((p) => /the control forecast names Z/.test(p)),
      c.problems.join('\n'),
    );

    // The file deleted while run.json still seals one: said as a problem, not as "no forecasts were made".
    await fs.rm(path.join(root, 'runs', RUN_ID, 'forecast.json'));
    c = await compareRun(root, RUN_ID);
    assert.equal(c.fidelity, null);
    assert.ok(
      c.problems.some((p) => /forecast\.json:1:1: error: run\.json seals a forecast\.json, but it is not there/.test(p)),
      c.problems.join('\n'),
    );
  });
});
