/**
 * THE one way the tests get the command line: dist/cli.js, the bundle `npm run build` makes (npm test's build stage
 * builds it once; `npm run test:unit` builds first too). No test builds its own CLI. A missing bundle, or one older than a
 * source file of src/, is an error that says to build (a stale bundle would test code that is no longer there).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
/** The built CLI's path (check it with builtCli() before running it). */
export const CLI_PATH = path.join(REPO_ROOT, 'dist', 'cli.js');

/** The newest modification time (ms) of a file under `dir`, and that file. */
function newestUnder(dir: string): { ms: number; file: string } {
  let best = { ms: 0, file: '' };
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    const got = e.isDirectory() ? newestUnder(full) : { ms: statSync(full).mtimeMs, file: full };
    if (got.ms > best.ms) best = got;
  }
  return best;
}

/** Why the bundle `cli` cannot stand for the sources under `src`: missing, or older than one of them; undefined when it can. */
export function bundleProblem(cli: string, src: string): string | undefined {
  const name = path.relative(REPO_ROOT, cli);
  if (!existsSync(cli)) return `${name} is missing: run \`npm run build\` first.`;
  const newest = newestUnder(src);
  if (newest.ms > statSync(cli).mtimeMs)
    return `${name} is older than ${path.relative(REPO_ROOT, newest.file)}: run \`npm run build\` first.`;
  return undefined;
}

let checked: string | undefined;

/** dist/cli.js, once it is known to be there and not older than any file of src/ (checked once per process). */
export function builtCli(): string {
  if (checked) return checked;
  const problem = bundleProblem(CLI_PATH, path.join(REPO_ROOT, 'src'));
  if (problem) throw new Error(problem);
  checked = CLI_PATH;
  return checked;
}

/**
 * The arguments of `teamfusion run` on `review` with `human` answering in person: `iterations` (1 unless said) of one
 * turn, together, in a fixed order, so the run stops (exit 3) or waits (--sync, --no-wait) at that person's first turn.
 * `more` comes after (--json, --sync, …).
 */
export function humanRunArgs(review: string, human: string, more: readonly string[] = [], iterations = 1): string[] {
  return [
    'run',
    review,
    '--human',
    human,
    '--iterations',
    String(iterations),
    '--turns',
    '1',
    '--mode',
    'together',
    '--order',
    'fixed',
    ...more,
  ];
}
