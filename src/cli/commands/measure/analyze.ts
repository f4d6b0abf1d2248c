/**
 * `teamfusion analyze <review> [--json] [--permutations N] [--seed N]` (contract §3): agreement analysis without any model.
 * `--permutations` / `--seed` set the Monte Carlo permutation test (defaults 10,000 and a fixed seed: reproducible).
 * Invalid review → its diagnostics on stderr, exit 1. `--json` prints one JSON object (2-space indented).
 */
import { analyzeFolder } from '../../../core/questions/analyze';
import { printable, printableLines, safeJson, writeDiagnostic } from '../../output';
import { UsageError, exactPositionals } from '../../usage';
import { parseStrict } from '../validate';

export async function runAnalyze(args: string[]): Promise<number> {
  const { positionals, values } = parseStrict(args, {
    json: { type: 'boolean' },
    permutations: { type: 'string' },
    seed: { type: 'string' },
  });
  const permutations = wholeNumberFlag('permutations', values.permutations, 1, 10_000_000);
  const seed = wholeNumberFlag('seed', values.seed, 0, 0xffffffff);
  const [folder] = exactPositionals(positionals, 1, (given) =>
    given === 0 ? 'give the review folder to analyse, e.g. teamfusion analyze samples/lumen-perfume' : 'give exactly one review folder.',
  );
  // The same function answers the `analyze` question of `teamfusion mcp` and VS Code (core/questions).
  const outcome = await analyzeFolder(folder, { permutations, seed });
  for (const d of outcome.diagnostics) writeDiagnostic(process.stderr, d);
  if (outcome.failure === 'invalid') {
    process.stderr.write(`${printable(folder)}: fix the errors above, then analyse again (teamfusion validate shows them too).\n`);
    return 1;
  }
  if (outcome.failure !== undefined || !outcome.json || !outcome.lines) {
    process.stderr.write(`${printable(folder)}: ${outcome.failure ?? 'nothing to analyse.'}\n`);
    return 1;
  }
  process.stdout.write(values.json === true ? `${safeJson(outcome.json)}\n` : `${printableLines(outcome.lines.join('\n'))}\n`);
  return 0;
}

function wholeNumberFlag(name: string, raw: unknown, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (typeof raw !== 'string' || !/^\d+$/.test(raw.trim()) || n < min || n > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max} (found "${String(raw)}").`);
  }
  return n;
}
