import * as assert from 'node:assert/strict';
import { agreementSentence, integer, ordinal, pValue, readableTime, usd } from '../../../webview/panel/text/format';
import { HEAT_MAX_PERCENT, TAU_MAX_PERCENT, averageRanks, heatPercent, speakerColor, tauColor } from '../../../webview/panel/colors';

describe('panel formatting and colours', () => {
  it('formats p-values, ordinals, money and run times', () => {
    assert.equal(pValue(0.0004), '< 0.001');
    assert.equal(pValue(0.04291), '0.043');
    assert.equal(ordinal(1), '1st');
    assert.equal(ordinal(12), '12th');
    assert.equal(ordinal(23), '23rd');
    assert.equal(ordinal(2.5), '2.5');
    assert.equal(usd(undefined), 'unknown');
    assert.equal(usd(0.004), '< $0.01');
    assert.equal(usd(1.234), '$1.23');
    for (const n of [0, 7, 999, 1000, 12345, 1234567, -1234, -999, 2.6, 1e15])
      assert.equal(integer(n), Math.round(n).toLocaleString('en-US'), `integer(${n})`);
    assert.equal(readableTime('2026-11-21T22-40-05Z-3f9c', 'UTC'), '21 Nov 2026, 22:40');
    assert.equal(readableTime('2026-11-21T22:40:05.123Z', 'Europe/Madrid'), '21 Nov 2026, 23:40', "in the viewer's time zone");
    assert.equal(readableTime('2026-11-21T23:40:00+01:00', 'UTC'), '21 Nov 2026, 22:40');
    assert.equal(readableTime('not a time'), 'not a time');
    assert.equal(readableTime('2026-13-45T99:99Z'), '2026-13-45T99:99Z');
    assert.match(agreementSentence(0.54, 'moderate', 0.04, 4), /4 designers show moderate agreement \(W = 0.54\).*unlikely to be chance/);
  });

  it('colours the best rank strongest and keeps the worst visible', () => {
    assert.equal(heatPercent(1, 6), HEAT_MAX_PERCENT);
    assert.equal(heatPercent(6, 6), 8);
    assert.ok(heatPercent(2, 6) > heatPercent(3, 6));
    assert.equal(heatPercent(1, 1), HEAT_MAX_PERCENT);
  });

  it('uses theme chart colours for speakers and tau', () => {
    assert.equal(speakerColor(0), 'var(--vscode-charts-blue)');
    assert.equal(speakerColor(6), speakerColor(0));
    assert.deepEqual(tauColor(-0.5), { variable: '--vscode-charts-red', percent: TAU_MAX_PERCENT / 2 });
    assert.deepEqual(tauColor(1), { variable: '--vscode-charts-green', percent: TAU_MAX_PERCENT });
  });

  it('averages tied ranks', () => {
    assert.deepEqual(averageRanks([1, 2, 2, 4]), [1, 2.5, 2.5, 4]);
    assert.deepEqual(averageRanks([3, 1, 2]), [3, 1, 2]);
  });
});
