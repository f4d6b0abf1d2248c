#!/usr/bin/env node
// `npm run demo`: the whole TeamFusion pipeline on the bundled sample, with no key and no model — against the SCRIPTED server
// (test/support/openaiMock: canned answers checked against OpenAI's spec). Everything it shows and writes says it is scripted.
// It builds what it needs (dist/cli.js via `npm run build`, the server bundled here with esbuild), runs the sample in a
// temporary copy, prints where the run folder is, and stops the server on exit, on an error and on Ctrl-C.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const LABEL = 'Scripted reply:';
const say = (s) => process.stdout.write(`${s}\n`);

say('TeamFusion demo — SCRIPTED: a local server with canned answers stands in for the model; nothing leaves this machine.');

if (!existsSync(join(repo, 'dist', 'cli.js'))) {
  say('Building (npm run build)…');
  const b = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], { cwd: repo, stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}
const serverJs = join(repo, 'out', 'demo', 'scripted-server.js');
const { build } = await import('esbuild');
await build({
  entryPoints: [join(repo, 'test', 'support', 'openaiMock', 'cli.ts')],
  outfile: serverJs,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'silent',
});

const review = join(mkdtempSync(join(tmpdir(), 'teamfusion-demo-')), 'lumen-perfume');
cpSync(join(repo, 'samples', 'lumen-perfume'), review, { recursive: true });

let server;
let cli;
const running = (p) => p && p.exitCode === null && p.signalCode === null;
/** Stops the run and the server and waits until both have exited (SIGKILL after 5 s). */
const stopAll = async () => {
  await Promise.all(
    [cli, server].filter(running).map(
      (p) =>
        new Promise((done) => {
          const hard = setTimeout(() => p.kill('SIGKILL'), 5000);
          p.once('exit', () => {
            clearTimeout(hard);
            done();
          });
          p.kill('SIGTERM');
        }),
    ),
  );
};
process.on('exit', () => [cli, server].filter(running).forEach((p) => p.kill('SIGKILL')));
/** 130 after Ctrl-C, 143 after SIGTERM: the demo's exit code, whatever code the run ended with once stopped. */
let interrupted;
const interrupt = (exitCode) => {
  if (interrupted !== undefined) return;
  interrupted = exitCode;
  if (exitCode === 130) say('\nStopping the demo (the scripted server is stopped too).');
  // Once the run has started, stopping it lets the main flow go on: it marks the run's files as scripted, stops the server
  // and exits with this code. Before that, nothing is left to finish.
  if (cli) void stopAll();
  else void stopAll().then(() => process.exit(exitCode));
};
process.on('SIGINT', () => interrupt(130));
process.on('SIGTERM', () => interrupt(143));

server = spawn(process.execPath, [serverJs, '--label', LABEL], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
const baseURL = await new Promise((resolveUrl, reject) => {
  let buf = '';
  server.stdout.on('data', (d) => {
    buf += d.toString();
    const m = /OPENAI_BASE_URL=(\S+)/.exec(buf);
    if (m) resolveUrl(m[1]);
  });
  server.once('exit', (code) => reject(new Error(`the scripted server stopped (exit ${code})`)));
}).catch((err) => {
  say(`The demo could not start: ${err.message}.`);
  process.exit(1);
});
server.stdout.removeAllListeners('data');
server.stdout.resume();
say(`Scripted server at ${baseURL}. Sample copied to ${review}.\n`);

const code = await new Promise((done) => {
  cli = spawn(process.execPath, [join(repo, 'dist', 'cli.js'), 'run', review, '--iterations', '2', '--turns', '1'], {
    cwd: repo,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, OPENAI_API_KEY: 'scripted-demo', OPENAI_BASE_URL: baseURL, TEAMFUSION_IMAGE_BASE_URL: '', TEAMFUSION_IMAGE_API_KEY: '', AZURE_OPENAI_ENDPOINT: '', TEAMFUSION_MAX_RETRIES: '0' },
  });
  cli.on('exit', (c, sig) => done(c ?? (sig === 'SIGINT' ? 130 : 1)));
});

// The run's own files say so: the run is recorded `scripted: true` (the server names itself in every answer) and its
// result.md and transcript.md open with the scripted banner at every rewrite.
const runs = join(review, 'runs');
await stopAll();
const exitCode = interrupted ?? code;
say(`\nSCRIPTED demo ${exitCode === 0 ? 'finished' : `stopped (exit ${exitCode})`}. The run folder is under ${runs} — result.md and transcript.md`);
say('say at the top that the answers were scripted. For a real discussion, see "A run" in the README (an API key, a VS Code model or a local endpoint).');
process.exit(exitCode);
