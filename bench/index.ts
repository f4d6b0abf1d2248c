/**
 * `npm run bench`: runs every benchmark of the project and prints one table (name, value, goal, ratio).
 * Each benchmark module is loaded by name, so a missing or failing one prints "not available" instead of stopping
 * the others. Always exits 0: a slow machine is a number to look at, not a failure.
 */
import * as z from 'zod';
import { errorMessage } from '../src/core/kernel/errors';

/** What a benchmark returns; tolerant of `ms`/`value` and `goalMs`/`goal` spellings. */
const ResultSchema = z
  .object({
    name: z.string(),
    ms: z.number().optional(),
    value: z.number().optional(),
    goalMs: z.number().optional(),
    goal: z.number().optional(),
    unit: z.string().optional(),
    higherIsBetter: z.boolean().optional(),
  })
  .transform((r) => ({
    name: r.name,
    higherIsBetter: r.higherIsBetter ?? /higher is better/i.test(r.name),
    value: r.value ?? r.ms ?? Number.NaN,
    goal: r.goal ?? r.goalMs ?? Number.NaN,
    unit: r.unit ?? 'ms',
  }));
type Row = z.infer<typeof ResultSchema>;

const BENCHES: { module: string; fn: string; label: string }[] = [
  { module: './stats', fn: 'benchStats', label: 'stats' },
  { module: './convergence', fn: 'benchConvergence', label: 'convergence' },
  { module: './validate', fn: 'benchValidate', label: 'validate' },
  { module: './run', fn: 'benchRun', label: 'run' },
  { module: './discussion', fn: 'benchDiscussion', label: 'discussion' },
  { module: './brief', fn: 'benchBrief', label: 'brief (issue 17: brief runs of 4 and 12 members against the naive way)' },
  { module: './record', fn: 'benchRecord', label: 'record' },
  { module: './memberFiles', fn: 'benchMemberFiles', label: "member files (issue 39: 50 members' files at their caps, and their floor)" },
  { module: './package', fn: 'benchPackage', label: 'package (npm run package; timings from the VSIX stage of npm test)' },
];

async function runOne(b: (typeof BENCHES)[number]): Promise<Row[] | string> {
  let mod: Record<string, unknown>;
  try {
    // require (not import()): these are CommonJS files compiled next to this one.
    mod = require(b.module) as Record<string, unknown>;
  } catch (e) {
    const why = e instanceof Error ? (e.message.split('\n')[0] ?? '').replace(/ imported from .*$/, '') : String(e);
    return `not available (${why})`;
  }
  const fn = mod[b.fn];
  if (typeof fn !== 'function') return `not available (no ${b.fn}())`;
  try {
    const out: unknown = await (fn as () => unknown)();
    const parsed = z.union([ResultSchema, z.array(ResultSchema)]).safeParse(out);
    if (!parsed.success) return 'not available (unexpected result shape)';
    return Array.isArray(parsed.data) ? parsed.data : [parsed.data];
  } catch (e) {
    return `not available (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`;
  }
}

function fmt(n: number, unit: string): string {
  if (!Number.isFinite(n)) return '-';
  return `${n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2)} ${unit}`;
}

export async function main(): Promise<void> {
  const header = ['benchmark', 'value', 'goal', 'ratio'];
  const rows: string[][] = [header];
  for (const b of BENCHES) {
    const r = await runOne(b);
    if (typeof r === 'string') {
      rows.push([b.label, r, '', '']);
      continue;
    }
    for (const row of r) {
      // ratio = value ÷ goal; it misses the goal above 1 (lower is better) or below 1 (higher is better).
      const ratio = row.value / row.goal;
      const missed = row.higherIsBetter ? ratio < 1 : ratio > 1;
      const verdict = Number.isFinite(ratio) ? `${ratio.toFixed(2)}${missed ? '  (misses goal)' : ''}` : '-';
      rows.push([row.name, fmt(row.value, row.unit), `${row.higherIsBetter ? '≥' : '≤'} ${fmt(row.goal, row.unit)}`, verdict]);
    }
  }
  const widths = header.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  for (const [i, r] of rows.entries()) {
    console.log(r.map((c, j) => (j === 0 ? c.padEnd(widths[j] ?? 0) : c.padStart(widths[j] ?? 0))).join('  '));
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}

if (require.main === module) {
  main()
    .catch((e: unknown) => console.error(`bench: ${errorMessage(e)}`))
    .finally(() => process.exit(0));
}
