#!/usr/bin/env node
// `npm run demo [-- --task design|brief]`: the whole TeamFusion pipeline on a bundled sample, with no key and no model —
// against the SCRIPTED server (scripts/scriptedServer.mjs, the one `npm run scripted-server` starts: answers made from the
// run itself, every request checked against OpenAI's spec). Everything it shows and writes says it is scripted.
// design (default): samples/lumen-perfume, two iterations of one turn, then rerank (with the proxies' forecasts), the
// designers' blind re-rankings (scripted, and said so) and compare. brief: samples/brief-review, a brief run of two
// rounds, then rerank (with the proxies' forecasts), the members' blind choices (scripted, and said so), judge and compare
// on it. It builds what it needs, runs the sample in a temporary copy, prints where the run folder is and how to do the
// same by hand, and stops the server on exit, on an error and on Ctrl-C.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repo, SERVER_BUNDLE, startScriptedServer } from './scriptedServer.mjs';

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

const env = {
  ...process.env,
  OPENAI_API_KEY: 'scripted-demo',
  OPENAI_BASE_URL: baseURL,
  TEAMFUSION_IMAGE_BASE_URL: '',
  TEAMFUSION_IMAGE_API_KEY: '',
  AZURE_OPENAI_ENDPOINT: '',
  TEAMFUSION_MAX_RETRIES: '0',
};
/** Runs `teamfusion <args>` against the scripted server, its output on this terminal; resolves with its exit code. */
const teamfusion = (args) =>
  new Promise((done) => {
    say(`$ teamfusion ${args.map((a) => (a === review ? sample : a)).join(' ')}`);
    cli = spawn(process.execPath, [join(repo, 'dist', 'cli.js'), ...args], { cwd: repo, stdio: ['ignore', 'inherit', 'inherit'], env });
    cli.on('exit', (c, sig) => done(c ?? (sig === 'SIGINT' ? 130 : 1)));
  });

/**
 * The brief demo's members answer the blind pair, SCRIPTED: each prefers the revision holding more of their own comment's
 * words — the rule their scripted proxy forecast with — written to preference/<id>.yaml with a line saying so. It lets
 * compare show proxy fidelity and its lift over the control; a team writes these files itself.
 */
function scriptedPreferences(runDir) {
  const { memberPreference } = createRequire(import.meta.url)(SERVER_BUNDLE);
  const [a, b] = ['A.md', 'B.md'].map((f) => readFileSync(join(runDir, 'rerank', f), 'utf8'));
  mkdirSync(join(runDir, 'preference'), { recursive: true });
  const chose = [];
  for (const f of readdirSync(join(review, 'comments'))
    .filter((x) => x.endsWith('.md'))
    .sort()) {
    const id = f.slice(0, -3);
    const comment = readFileSync(join(review, 'comments', f), 'utf8').replace(/^---[\s\S]*?---\n/, '');
    const prefer = memberPreference(comment, a, b);
    const why = "Scripted by npm run demo: the revision that holds more of my comment's words, not a person's choice.";
    writeFileSync(
      join(runDir, 'preference', `${id}.yaml`),
      `# SCRIPTED by npm run demo, not ${id}'s own choice.\ndesigner: ${id}\nprefer: ${prefer}\nwhy: ${JSON.stringify(why)}\n`,
    );
    chose.push(`${id}: ${prefer}`);
  }
  say(`SCRIPTED: each member's blind choice written by the demo (preference/<id>.yaml: ${chose.join(', ')}), by the rule their`);
  say("proxy's scripted forecast uses, so compare can show proxy fidelity and its lift over the control; a real team writes these.");
}

/**
 * The design demo's designers re-rank the blind set, SCRIPTED: each in their own view of it — the view their scripted proxy
 * forecast with — written to rerank/rankings/<id>.yaml with a line saying so, so compare can show proxy fidelity.
 */
async function scriptedBlindRankings(id) {
  const { scriptedBlindRankings: rank } = createRequire(import.meta.url)(SERVER_BUNDLE);
  const dir = join(runs, id, 'rerank', 'rankings');
  mkdirSync(dir, { recursive: true });
  const why = JSON.stringify("Scripted by npm run demo: this designer's own view of the set, not a person's blind ranking.");
  const done = [];
  for (const d of await rank(review, id)) {
    const entries = d.letters.map((l, i) => `  - option: "${l}"\n    rank: ${i + 1}\n    justification: ${why}`).join('\n');
    writeFileSync(
      join(dir, `${d.id}.yaml`),
      `# SCRIPTED by npm run demo, not ${d.id}'s own blind ranking.\ndesigner: ${JSON.stringify(d.name)}\nranking:\n${entries}\n`,
    );
    done.push(`${d.id}: ${d.letters.join('')}`);
  }
  say(`SCRIPTED: each designer's blind re-ranking written by the demo (rerank/rankings/<id>.yaml: ${done.join(', ')}), in the`);
  say("view their proxy's scripted forecast uses, so compare can show proxy fidelity and its lift; a real team ranks blind itself.");
}

const runs = join(review, 'runs');
const runIds = () =>
  existsSync(runs)
    ? readdirSync(runs)
        .filter((id) => !id.startsWith('.'))
        .sort()
    : [];
// The run's own files say so: the run is recorded `scripted: true` (the server names itself in every answer) and its
// result.md and transcript.md open with the scripted banner at every rewrite.
const runArgs =
  task === 'brief'
    ? ['run', review, '--task', 'brief', '--iterations', '2', '--turns', '1']
    : ['run', review, '--iterations', '2', '--turns', '1'];
let code = await teamfusion(runArgs);
const runId = runIds()[0];
if (task === 'design' && code === 0 && interrupted === undefined && runId) {
  // The blind set with the proxies' forecasts, the designers' blind re-rankings (scripted), and what compare says of them.
  for (const args of [
    ['rerank', review, runId, '--yes'],
    ['compare', review, runId],
  ]) {
    say('');
    const c = await teamfusion(args);
    if (interrupted !== undefined) break;
    if (args[0] === 'rerank' && c === 0) await scriptedBlindRankings(runId);
    // compare exits 1 while the members' ratings and surveys are missing: the demo expects that.
    if (c !== 0 && args[0] !== 'compare') {
      code = c;
      break;
    }
  }
}
if (task === 'brief' && code === 0 && interrupted === undefined && runId) {
  // The blind pair, the judge, and what compare can say before the members have chosen.
  for (const args of [
    ['rerank', review, runId],
    ['judge', review, runId],
    ['compare', review, runId],
  ]) {
    say('');
    const c = await teamfusion(args);
    if (interrupted !== undefined) break;
    if (args[0] === 'rerank' && c === 0) scriptedPreferences(join(runs, runId));
    // compare exits 1 while members' preferences are missing: the demo expects that, and says so below.
    if (c !== 0 && args[0] !== 'compare') {
      code = c;
      break;
    }
  }
}
await stopAll();
const exitCode = interrupted ?? code;
say(
  `\nSCRIPTED demo ${exitCode === 0 ? 'finished' : `stopped (exit ${exitCode})`}. The run folder is under ${runs} — result.md and transcript.md`,
);
say('say at the top that the answers were scripted.');
if (task === 'brief') {
  say('A team reads rerank/A.md and rerank/B.md blind and each member writes preference/<member-id>.yaml (prefer: A, B or tie);');
  say('here the demo wrote them, scripted. The judge shown here always prefers A: a scripted position bias, caught by the two orders.');
}
say('\nTo do the same by hand: `npm run scripted-server` prints OPENAI_BASE_URL=http://127.0.0.1:<port>/v1; export it with any');
say(
  `OPENAI_API_KEY, then run \`node dist/cli.js ${runArgs.map((a) => (a === review ? `samples/${sample}` : a)).join(' ')}\` on a copy of the sample${task === 'brief' ? ',\nthen `rerank`, `judge` and `compare` with the run id it prints' : ',\nthen `rerank` and `compare` with the run id it prints'}.`,
);
say('For a real discussion, see docs/run.md (an API key, a VS Code model or a local endpoint).');
process.exit(exitCode);
