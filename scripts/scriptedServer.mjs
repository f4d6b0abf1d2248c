// The bundled scripted server (test/support/openaiMock), as `npm run demo` and `npm run scripted-server` start it: built
// here with esbuild into out/demo/, answering from the run itself (--from-run), every plain answer labelled
// "Scripted reply:". Not a model: it shows the pipeline and the files, never a real discussion.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const LABEL = 'Scripted reply:';
/** Where buildScriptedServer writes the server's bundle (it also exports the rules the demo's scripted members answer by). */
export const SERVER_BUNDLE = join(repo, 'out', 'demo', 'scripted-server.js');

/**
 * Bundles the server's CLI (sharp stays a package of node_modules, loaded natively) and returns the bundle's path. The
 * bundle is written beside its place and renamed into it, so a process that loads it while another builds it (two test
 * workers, a demo beside a test) reads one whole bundle, never a half-written one.
 */
export async function buildScriptedServer() {
  const out = SERVER_BUNDLE;
  const { build } = await import('esbuild');
  const built = await build({
    entryPoints: [join(repo, 'test', 'support', 'openaiMock', 'cli.ts')],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['sharp'],
    logLevel: 'silent',
    write: false,
  });
  const file = built.outputFiles.find((f) => resolve(f.path) === resolve(out));
  if (!file) throw new Error(`esbuild made no ${out}`);
  await mkdir(dirname(out), { recursive: true });
  const part = `${out}.${process.pid}.${randomBytes(4).toString('hex')}.part`;
  await writeFile(part, file.contents);
  await rename(part, out);
  return out;
}

/** Starts the server on 127.0.0.1 (`extra`: more arguments, e.g. --port); resolves with the process and its base URL. */
export async function startScriptedServer(extra = [], stdio = ['ignore', 'pipe', 'pipe']) {
  const server = spawn(process.execPath, [await buildScriptedServer(), '--label', LABEL, '--from-run', '--quiet', ...extra], {
    cwd: repo,
    stdio,
  });
  const baseURL = await new Promise((resolveUrl, reject) => {
    let buf = '';
    let err = '';
    server.stdout.on('data', (d) => {
      buf += d.toString();
      const m = /OPENAI_BASE_URL=(\S+)/.exec(buf);
      if (m) resolveUrl(m[1]);
    });
    server.stderr.on('data', (d) => (err += d.toString()));
    server.once('exit', (code) => reject(new Error(`the scripted server stopped (exit ${code})${err ? `: ${err.trim()}` : ''}`)));
  });
  server.stdout.removeAllListeners('data');
  server.stdout.resume();
  return { server, baseURL };
}
