/**
 * Proxy fidelity in the panel's "Did it help?" (issue 32, item 1): a designer's proxy's sealed forecast is shown against
 * their blind re-ranking only once that designer's own re-ranking is saved — never before, and never for a designer who
 * has not re-ranked, even when their proxy forecast.
 */
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { blindLetters, forecastPrompt } from '../../support/forecastRuns';
import { writeForecastFile } from '../../../src/core/forecast/forecastFile';
import { ownFidelitySentence } from '../../../src/core/forecast/fidelity';
import { runEvaluation } from '../../../src/extension/panel/state/evaluation';
import { EvaluationSchema } from '../../../src/protocol/panel';
import { editRun, makeReviewWithRun, RUN_ID, writeRerankRanking } from './fixtures';

describe('evaluation: proxy fidelity in the panel, per designer, after their own re-rank', function () {
  this.timeout(30_000);
  let root = '';
  const logged: string[] = [];
  const log = (line: string): void => void logged.push(line);
  after(async () => {
    if (root) await fs.rm(root, { recursive: true, force: true });
  });

  it('no fidelity before any re-rank; then only the designer who re-ranked, with τ-b, control and lift', async () => {
    root = await makeReviewWithRun();
    const { letters, reversed } = await blindLetters(root, RUN_ID);
    // d1's and d2's proxies both forecast the letters in order; the control forecasts the reverse. Each names its request
    // in run.json's prompts (a forecast whose request is not there is not counted).
    await writeForecastFile(root, {
      runId: RUN_ID,
      task: 'design',
      letters,
      forecasts: [
        { kind: 'persona', designer: 'd1', ranking: letters, promptId: 'f1' },
        { kind: 'persona', designer: 'd2', ranking: letters, promptId: 'f2' },
        { kind: 'control', designer: null, ranking: reversed, promptId: 'f3' },
      ],
    });
    await editRun(root, (r) => void r.prompts.push(forecastPrompt('f1', 'd1'), forecastPrompt('f2', 'd2'), forecastPrompt('f3')));
    const waiting = await runEvaluation(root, RUN_ID, log);
    assert.ok(waiting);
    assert.deepEqual(waiting.fidelity ?? {}, {}, 'no forecast is shown before a re-rank is saved');

    // Only d1 re-ranks, in the order its proxy forecast: τ-b 1, the control's −1, lift 2.
    await writeRerankRanking(path.join(root, 'runs', RUN_ID, 'rerank'), 'd1', Object.fromEntries(letters.map((l, i) => [l, i + 1])));
    const shown = await runEvaluation(root, RUN_ID, log);
    assert.ok(EvaluationSchema.safeParse(shown).success);
    assert.deepEqual(shown?.fidelity, { d1: { tau: 1, control: -1, lift: 2 } });
    assert.deepEqual(logged, []);
    // The words the panel shows beside d1's ratings of their proxy.
    assert.equal(
      ownFidelitySentence(shown!.fidelity!.d1!),
      "Your proxy's forecast of your blind ranking: τ = 1.00 (control -1.00, lift +2.00).",
    );
    assert.equal(
      ownFidelitySentence({ tau: 2 / 3, control: 1 / 3, lift: 1 / 3 }),
      "Your proxy's forecast of your blind ranking: τ = 0.67 (control 0.33, lift +0.33).",
    );
  });
});
