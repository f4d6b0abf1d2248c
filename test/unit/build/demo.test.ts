/** `npm run demo`: the sample end to end against the scripted server, labelled as scripted, and nothing left running. */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { cleanCliEnv } from '../run/helpers';
import { portOpen } from '../../support/portOpen';
import { builtCli } from '../../support/builtCli';

const REPO = path.resolve(__dirname, '../../../..');

function demo(...args: string[]): { child: ReturnType<typeof spawn>; out: () => string; done: Promise<number | null> } {
  const child = spawn(process.execPath, [path.join(REPO, 'scripts', 'demo.mjs'), ...args], {
    cwd: REPO,
    env: cleanCliEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return { child, out: () => out, done: new Promise((r) => child.on('close', (code) => r(code))) };
}

describe('npm run demo (scripted, no key)', function () {
  this.timeout(180_000);

  it('runs the sample end to end; the terminal, the transcript and the result say it is scripted; the server is stopped', async function () {
    builtCli();
    const d = demo();
    const code = await d.done;
    const out = d.out();
    assert.equal(code, 0, out);
    assert.match(out, /^TeamFusion demo — SCRIPTED/m);
    assert.match(out, /^\S.* \(turn 1, independent\): Scripted reply: /m);
    assert.match(out, /Run completed: /);
    const url = /Scripted server at (\S+)\. Sample/.exec(out)![1]!;
    const runDir = /Run completed: (.+)$/m.exec(out)![1]!.trim();
    for (const f of ['result.md', 'transcript.md'])
      assert.match(await fs.readFile(path.join(runDir, f), 'utf8'), /^> \*\*Scripted run\.\*\*/);
    assert.match(await fs.readFile(path.join(runDir, 'transcript.md'), 'utf8'), /Scripted reply: /);
    assert.equal(await portOpen(url), false, 'the scripted server was stopped');
    // Round 2 (the final pick, after a fork): every proxy says its own order in its own designer's quoted words.
    const round2 = out
      .slice(out.indexOf('== Iteration 2'))
      .split('\n')
      .filter((l) => /\(turn 1, independent\): Scripted reply: /.test(l));
    assert.equal(round2.length, 4, out);
    assert.equal(new Set(round2.map((l) => l.replace(/^[^(]*\(/, ''))).size, 4, 'no two proxies say the same');
    for (const l of round2) assert.match(l, /“[^”]+”/);
    // Then the blind set with the proxies' forecasts, the designers' blind re-rankings (scripted, and said so), and compare.
    assert.match(out, /^SCRIPTED: each designer's blind re-ranking written by the demo/m);
    for (const id of ['ana', 'ben', 'chen', 'dina'])
      assert.match(await fs.readFile(path.join(runDir, 'rerank', 'rankings', `${id}.yaml`), 'utf8'), /^# SCRIPTED by npm run demo/);
    assert.match(
      out,
      /^Proxy fidelity \(Kendall's τ-b .*, 4 designers\): mean τ-b 1\.00, persona-free control -?\d\.\d\d, lift \d\.\d\d\./m,
    );
  });

  it('--task brief runs the brief sample, then rerank, judge and compare on it, labelled, and says how to do it by hand', async function () {
    builtCli();
    const d = demo('--task', 'brief');
    const code = await d.done;
    const out = d.out();
    assert.equal(code, 0, out);
    assert.match(out, /^\$ teamfusion run brief-review --task brief/m);
    assert.match(out, /^\S.* \(turn 1, independent\): Scripted reply: From my reading of the brief: /m);
    for (const command of ['rerank', 'judge', 'compare'])
      assert.match(out, new RegExp(`^\\$ teamfusion ${command} brief-review \\S+$`, 'm'));
    assert.match(out, /npm run scripted-server/);
    const runDir = /Run completed: (.+)$/m.exec(out)![1]!.trim();
    for (const f of ['result.md', 'transcript.md'])
      assert.match(await fs.readFile(path.join(runDir, f), 'utf8'), /^> \*\*Scripted run\.\*\*/);
    for (const f of ['rerank/A.md', 'rerank/B.md', 'rerank/key.json', 'judge.json', 'baseline.md'])
      assert.ok(existsSync(path.join(runDir, f)), f);
    // The revised brief carries each member's own first point, word for word.
    const revised = await fs.readFile(path.join(runDir, 'iteration-2', 'brief.md'), 'utf8');
    assert.match(revised, /the real problem is the platform numbering/);
    assert.match(revised, /Low vision is named once and then forgotten/);
    assert.match(out, /Coverage of the members' points in the last round: 4 kept/);
    // The members' blind choices are the demo's, scripted and said so; compare shows the forecasts' fidelity against them.
    assert.match(out, /^SCRIPTED: each member's blind choice written by the demo/m);
    // The scripted revisions open alike: nothing at the top of the blind pair says which is which.
    const [a, b] = await Promise.all(['A.md', 'B.md'].map((f) => fs.readFile(path.join(runDir, 'rerank', f), 'utf8')));
    assert.equal(a!.split('\n').slice(0, 3).join('\n'), b!.split('\n').slice(0, 3).join('\n'));
    for (const id of ['jonas', 'marit', 'priya', 'tomas'])
      assert.match(await fs.readFile(path.join(runDir, 'preference', `${id}.yaml`), 'utf8'), /^# SCRIPTED by npm run demo/);
    assert.match(
      out,
      /Proxy fidelity \(did each proxy's sealed forecast name its member's blind choice\?, 4 members\): hits 100%, persona-free control 0%, lift 1\.00\./,
    );
  });

  it('an unknown task is a usage error', async () => {
    const d = demo('--task', 'posters');
    assert.equal(await d.done, 2);
    assert.match(d.out(), /Unknown demo task "posters"/);
  });

  it('Ctrl-C stops the run and the scripted server', async function () {
    builtCli();
    const d = demo();
    const end = Date.now() + 120_000;
    while (!/Scripted server at (\S+)\. Sample/.test(d.out())) {
      if (Date.now() > end) throw new Error(`the demo did not start: ${d.out()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const url = /Scripted server at (\S+)\. Sample/.exec(d.out())![1]!;
    d.child.kill('SIGINT');
    assert.equal(await d.done, 130, d.out());
    assert.equal(await portOpen(url), false, 'the scripted server was stopped');
  });
});
