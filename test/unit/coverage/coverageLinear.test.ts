/**
 * The coverage check is linear in its entries (issue 39): a coverage file of many thousand entries against a run of as
 * many points is checked and summed in about a second, not in the minutes a check quadratic in points would take. Timed
 * in this process's CPU time, which other work on the machine does not stretch (wall time under a loaded machine did:
 * 12.9 s once, beside the e2e stage).
 */
import * as assert from 'node:assert/strict';
import { checkCoverageText } from '../../../src/core/evaluation/checks/coverageConfirmations';
import { coverageCheckOf } from '../../../src/core/evaluation/checks/coverageCheck';
import type { Coverage } from '../../../src/core/record/record';

describe('coverage confirmations: checked in time linear in the points', function () {
  this.timeout(60_000);

  it('10,000 confirmations of 10,000 points: all confirmed, in seconds', () => {
    const n = 10_000;
    const coverage: Coverage[] = Array.from({ length: n }, (_, i) => ({
      designer: 'd1',
      point: `Point number ${i} of the brief`,
      status: 'kept',
      quote: `q${i}`,
      verified: true,
    }));
    const lines = ['designer: d1', 'points:'];
    for (let i = 0; i < n; i++) lines.push(`  - point: "Point number ${i} of the brief"`, '    agree: true');
    const started = process.cpuUsage();
    const r = checkCoverageText(`${lines.join('\n')}\n`, 'runs/r/coverage/d1.yaml', coverage);
    assert.deepEqual(r.diagnostics, []);
    assert.equal(r.confirmations?.points.length, n);
    const check = coverageCheckOf(coverage, ['d1'], [r.confirmations!]);
    const spent = process.cpuUsage(started);
    const took = Math.round((spent.user + spent.system) / 1000);
    assert.equal(check.confirmations.n, n);
    assert.equal(check.confirmations.agreement, 1);
    assert.ok(took < 10_000, `took ${took} ms of CPU time`);
  });
});
