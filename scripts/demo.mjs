#!/usr/bin/env node
// `npm run demo [-- --task design|brief]`: the whole TeamFusion pipeline on a bundled sample, with no key and no model —
// against the SCRIPTED server (scripts/scriptedServer.mjs, the one `npm run scripted-server` starts: answers made from the
// run itself, every request checked against OpenAI's spec). Everything it shows and writes says it is scripted.
// design (default): samples/lumen-perfume, two iterations of one turn. brief: samples/brief-review, a brief run of two
// rounds, then rerank, judge and compare on it. It builds what it needs, runs the sample in a temporary copy, prints where
// the run folder is and how to do the same by hand, and stops the server on exit, on an error and on Ctrl-C.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repo, startScriptedServer } from './scriptedServer.mjs';

const say = (s) => process.stdout.write(`${s}\n`);

const argv = process.argv.slice(2);
const taskAt = argv.findIndex((a) => a === '--task' || a.startsWith('--task='));
const task = taskAt < 0 ? 'design' : argv[taskAt].includes('=') ? argv[taskAt].split('=')[1] : argv[taskAt + 1];
if (task !== 'design' && task !== 'brief') {
  process.stderr.write(`Unknown demo task ${JSON.stringify(task ?? '')}: use --task design (the default) or --task brief.\n`);
  process.exit(2);
}
const sample = task === 'brief' ? 'brief-review' : 'lumen-perfume';

say('TeamFusion demo — SCRIPTED: a local server with scripted answers stands in for the model; nothing leaves this machine.');

if (!existsSync(join(repo, 'dist', 'cli.js'))) {
  say('Building (npm run build)…');
  const b = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], { cwd: repo, stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}

const review = join(mkdtempSync(join(tmpdir(), 'teamfusion-demo-')), sample);
cpSync(join(repo, 'samples', sample), review, { recursive: true });

let server;
let cli;
const running = (p) => p && p.exitCode === null && p.signalCode === null;
/** Stops the command in flight and the server and waits until both have exited (SIGKILL after 5 s). */
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
/** 130 after Ctrl-C, 143 after SIGTERM: the demo's exit code, whatever code the command ended with once stopped. */
let interrupted;
const interrupt = (exitCode) => {
  if (interrupted !== undefined) return;
  interrupted = exitCode;
  if (exitCode === 130) say('\nStopping the demo (the scripted server is stopped too).');
  // Once a command has started, stopping it lets the main flow go on: it marks the run's files as scripted, stops the
  // server and exits with this code. Before that, nothing is left to finish.
  if (cli) void stopAll();
  else void stopAll().then(() => process.exit(exitCode));
};
process.on('SIGINT', () => interrupt(130));
process.on('SIGTERM', () => interrupt(143));

let baseURL;
try {
  ({ server, baseURL } = await startScriptedServer());
} catch (err) {
  say(`The demo could not start: ${err.message}.`);
  process.exit(1);
}
say(`Scripted server at ${baseURL}. Sample copied to ${review}.\n`);

const env = { ...process.env, OPENAI_API_KEY: 'scripted-demo', OPENAI_BASE_URL: baseURL, TEAMFUSION_IMAGE_BASE_URL: '', TEAMFUSION_IMAGE_API_KEY: '', AZURE_OPENAI_ENDPOINT: '', TEAMFUSION_MAX_RETRIES: '0' };
/** Runs `teamfusion <args>` against the scripted server, its output on this terminal; resolves with its exit code. */
const teamfusion = (args) =>
  new Promise((done) => {
    say(`$ teamfusion ${args.map((a) => (a === review ? sample : a)).join(' ')}`);
    cli = spawn(process.execPath, [join(repo, 'dist', 'cli.js'), ...args], { cwd: repo, stdio: ['ignore', 'inherit', 'inherit'], env });
    cli.on('exit', (c, sig) => done(c ?? (sig === 'SIGINT' ? 130 : 1)));
  });

const runs = join(review, 'runs');
const runIds = () => (existsSync(runs) ? readdirSync(runs).filter((id) => !id.startsWith('.')).sort() : []);
// The run's own files say so: the run is recorded `scripted: true` (the server names itself in every answer) and its
// result.md and transcript.md open with the scripted banner at every rewrite.
const runArgs = task === 'brief' ? ['run', review, '--task', 'brief', '--iterations', '2', '--turns', '1'] : ['run', review, '--iterations', '2', '--turns', '1'];
let code = await teamfusion(runArgs);
const runId = runIds()[0];
if (task === 'brief' && code === 0 && interrupted === undefined && runId) {
  // The blind pair, the judge, and what compare can say before the members have chosen.
  for (const args of [['rerank', review, runId], ['judge', review, runId], ['compare', review, runId]]) {
    say('');
    const c = await teamfusion(args);
    if (interrupted !== undefined) break;
    // compare exits 1 while members' preferences are missing: the demo expects that, and says so below.
    if (c !== 0 && args[0] !== 'compare') {
      code = c;
      break;
    }
  }
}
await stopAll();
const exitCode = interrupted ?? code;
say(`\nSCRIPTED demo ${exitCode === 0 ? 'finished' : `stopped (exit ${exitCode})`}. The run folder is under ${runs} — result.md and transcript.md`);
say('say at the top that the answers were scripted.');
if (task === 'brief') {
  say('Each member would now read rerank/A.md and rerank/B.md blind and write preference/<member-id>.yaml (prefer: A, B or tie);');
  say('compare then counts their choices. The judge shown here always prefers A: a scripted position bias, caught by the two orders.');
}
say('\nTo do the same by hand: `npm run scripted-server` prints OPENAI_BASE_URL=http://127.0.0.1:<port>/v1; export it with any');
say(`OPENAI_API_KEY, then run \`node dist/cli.js ${runArgs.map((a) => (a === review ? `samples/${sample}` : a)).join(' ')}\` on a copy of the sample${task === 'brief' ? ',\nthen `rerank`, `judge` and `compare` with the run id it prints' : ''}.`);
say('For a real discussion, see docs/run.md (an API key, a VS Code model or a local endpoint).');
process.exit(exitCode);
