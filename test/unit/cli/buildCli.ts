/**
 * Builds the real CLI (src/cli/main.ts) with esbuild for the CLI tests, like `npm run build` does for dist/cli.js.
 * Modules of the CLI that another helper has not written yet are replaced by a stub that fails with a sentence, so
 * these tests do not depend on the whole build being green. The bundle goes under out/ (so `sharp` resolves from
 * node_modules) and is removed by the caller.
 */
import { spawn } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { build } from 'esbuild';
import type { Plugin } from 'esbuild';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..', '..');

const stubMissing: Plugin = {
  name: 'stub-missing',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      const base = path.resolve(args.resolveDir, args.path);
      const found = ['', '.ts', '.js', '/index.ts'].some((ext) => existsSync(base + ext));
      return found ? undefined : { path: base, namespace: 'stub' };
    });
    b.onLoad({ filter: /.*/, namespace: 'stub' }, (args) => ({
      loader: 'js',
      contents: `module.exports = new Proxy({}, { get: (_, name) => async () => { throw new Error(${JSON.stringify(
        `not built yet: ${path.basename(args.path)}`,
      )} + ' ' + String(name)); } });`,
    }));
  },
};

export async function buildCli(): Promise<{ cli: string; dispose(): Promise<void> }> {
  const dir = path.join(REPO_ROOT, 'out', `formats-cli-${process.pid}`);
  const cli = path.join(dir, 'cli.js');
  await build({
    entryPoints: [path.join(REPO_ROOT, 'src', 'cli', 'main.ts')],
    outfile: cli,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['sharp', 'vscode'],
    logLevel: 'silent',
    define: { __TEAMFUSION_VERSION__: '"test"' },
    plugins: [stubMissing],
  });
  return { cli, dispose: () => fs.rm(dir, { recursive: true, force: true }) };
}

/** What a spawned CLI process did. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the bundled CLI at `cli` in a fresh node process with `args`; resolves when it exits (30 s at most). */
export function runCli(cli: string, ...args: string[]): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
