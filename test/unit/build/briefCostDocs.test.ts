/**
 * docs/brief-review.md states what a brief run costs against the naive way, as `npm run bench` measures it (bench/brief.ts):
 * the table's every figure is the bench's own, computed here the same way (the scripted server, token counts only, no
 * timing), so the page cannot drift from what the product sends.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { benchBrief } from '../../../bench/brief';

const REPO = path.resolve(__dirname, '../../../..');

const thousands = (n: number): string => n.toLocaleString('en-US');
const hundreds = (n: number): number => Math.round(n / 100) * 100;
const tens = (n: number): number => Math.round(n / 10) * 10;

describe("docs/brief-review.md: a brief run's cost table is what the bench measures", function () {
  this.timeout(300_000);

  it('requests, billed input tokens (per member), the naive way and both ratios, for 4 and 12 members', async () => {
    const rows = await benchBrief();
    const value = (m: number, name: string): number => {
      const row = rows.find((r) => r.name.startsWith(`brief ${m} members: ${name}`));
      if (!row) throw new Error(`the bench has no row "${name}" for ${m} members`);
      return row.value;
    };
    const expected = [4, 12].map((m) => {
      const billed = hundreds(value(m, 'billed input tokens, total'));
      const naive = hundreds(value(m, 'naive billed input tokens, total'));
      return (
        `| ${m} | ${value(m, 'requests')} | ${thousands(billed)} (${thousands(tens(billed / m))}) | ` +
        `${thousands(naive)} (${thousands(tens(naive / m))}) | ${value(m, 'billed input tokens vs naive').toFixed(2)} | ` +
        `${value(m, 'raw input tokens vs naive').toFixed(2)} |`
      );
    });
    const page = readFileSync(path.join(REPO, 'docs', 'brief-review.md'), 'utf8');
    const stated = page
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => /^\| (4|12) \|/.test(l));
    assert.deepEqual(stated, expected);
  });
});
