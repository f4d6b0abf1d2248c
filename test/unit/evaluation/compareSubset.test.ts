import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { compareRun } from '../../../src/core/evaluation';
import { makeReviewWithRun, RUN_ID } from './fixtures';

describe('evaluation: a run made with --designers is judged on that subset', function () {
  this.timeout(30_000);
  it("W before counts only the run's designers", async () => {
    const root = await makeReviewWithRun();
    try {
      const file = path.join(root, 'runs', RUN_ID, 'run.json');
      const record = JSON.parse(await fs.readFile(file, 'utf8')) as { settings: Record<string, unknown> };
      record.settings.designers = ['d1', 'd3'];
      await fs.writeFile(file, JSON.stringify(record, null, 2));
      const c = await compareRun(root, RUN_ID);
      assert.deepEqual(c.before.designers, ['d1', 'd3']);
      // d1 ranks option k at k, d3 at ((k − 3) mod 6) + 1: rank sums 6, 8, 4, 6, 8, 10 (mean 7) → S = 22, W = 12·22 / (2²·210) = 11/35.
      assert.ok(Math.abs(c.before.w - 11 / 35) < 1e-12, String(c.before.w));
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});
