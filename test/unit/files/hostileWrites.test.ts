/**
 * The write side of the hostile corpus, through the REAL command line (dist/cli.js): the attacks of issue 16 on what the
 * tool writes, renames and deletes. After each: every file of the review is still there (and unchanged unless the command
 * wrote it), everything outside is unchanged, the answer is one line, the exit code is the documented one, and the model
 * server received nothing. Each command runs under strace: no call names the outside folder, and nothing outside the
 * review is written, renamed or deleted.
 */
import { strict as assert } from 'node:assert';
import { existsSync, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MockOpenAI } from '../../support/openaiMock';
import { RUN_ID, makeReviewWithRun } from '../evaluation/fixtures';
import { TEST_KEY } from '../run/helpers';
import { cliUnderStrace, hasStrace, violations } from '../../support/strace';
import { WRITERS, guessableTemps, sub } from './corpusProbes';
import { builtCli } from '../../support/builtCli';

/** Every path below `dir` (links as links, never followed) with a fingerprint of its content. */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (abs: string, rel: string): Promise<void> => {
    for (const d of await fs.readdir(abs, { withFileTypes: true })) {
      const a = path.join(abs, d.name);
      const r = rel ? `${rel}/${d.name}` : d.name;
      if (d.isSymbolicLink()) out.set(r, `-> ${await fs.readlink(a)}`);
      else if (d.isDirectory()) {
        out.set(`${r}/`, 'dir');
        await walk(a, r);
      } else if (d.isFile()) {
        const st = await fs.stat(a);
        out.set(r, st.size > 1024 * 1024 ? `size ${st.size}` : (await fs.readFile(a)).toString('base64'));
      } else out.set(r, 'special');
    }
  };
  await walk(dir, '');
  return out;
}

/** Paths of `before` missing or changed in `after`, except those `mayChange` accepts. */
function lost(before: Map<string, string>, after: Map<string, string>, mayChange: (p: string) => boolean = () => false): string[] {
  return [...before].filter(([p, v]) => !mayChange(p) && after.get(p) !== v).map(([p]) => p);
}

interface Outcome {
  code: number | null;
  out: string;
}

describe('hostile writes: the real CLI never writes, renames or deletes through a planted link', function () {
  this.timeout(300_000);
  let mock: MockOpenAI;
  let env: Record<string, string>;
  let base: string;

  let traces = 0;
  /**
   * Runs the CLI under strace and a 3 GB data limit (as the read corpus does): besides what each test checks, the
   * trace shows no call that names the outside folder and no write, rename or delete outside the review (or the cache).
   */
  const cli = async (args: string[], cwd: string, top: string): Promise<Outcome> => {
    const r = await cliUnderStrace(args, env, cwd, path.join(base, `strace-${++traces}.log`));
    assert.equal(r.timedOut, false, `${args.join(' ')}: hung`);
    assert.ok(r.trace.length > 0, 'strace wrote no trace');
    const realTop = await fs.realpath(top);
    const roots = [path.join(top, 'review'), path.join(realTop, 'review')];
    const outside = [path.join(top, 'outside'), path.join(realTop, 'outside')];
    assert.deepEqual(violations(r.trace, cwd, roots, outside, path.join(base, 'cache')), [], `teamfusion ${args.join(' ')}`);
    return { code: r.code, out: `${r.stdout}${r.stderr}` };
  };

  /** A review with a run beside an "outside" folder (a secret file and an empty folder), in a fresh folder. */
  async function setup(status: 'completed' | 'failed' = 'completed'): Promise<{ top: string; root: string; outside: string; run: string }> {
    const top = await fs.mkdtemp(path.join(base, 'case-'));
    const root = path.join(top, 'review');
    await fs.cp(status === 'completed' ? completed : failed, root, { recursive: true });
    const outside = path.join(top, 'outside');
    await fs.mkdir(path.join(outside, 'empty'), { recursive: true });
    await fs.writeFile(path.join(outside, 'secret.md'), 'SECRET\n');
    return { top, root, outside, run: path.join(root, 'runs', RUN_ID) };
  }

  let completed: string;
  let failed: string;

  before(async function () {
    builtCli();
    assert.ok(hasStrace(), 'strace is required for this suite (CI installs it with apt-get install strace)');
    mock = await MockOpenAI.start();
    base = await fs.mkdtemp(path.join(os.tmpdir(), 'tf-hostile-writes-'));
    env = {
      ...(Object.fromEntries(
        Object.entries(process.env).filter(([k, v]) => v !== undefined && !/^(OPENAI_|TEAMFUSION_)/.test(k)),
      ) as Record<string, string>),
      OPENAI_API_KEY: TEST_KEY,
      OPENAI_BASE_URL: mock.baseURL,
      XDG_CACHE_HOME: path.join(base, 'cache'),
      TEAMFUSION_MAX_RETRIES: '0',
    };
    completed = await makeReviewWithRun('completed');
    failed = await makeReviewWithRun('failed');
  });
  after(async () => {
    await mock?.close();
    if (base) await fs.rm(base, { recursive: true, force: true });
  });
  /** Set by a test whose command does its work with the model (the temporary-name attack on run, resume, coding). */
  let modelWork = false;
  afterEach(() => {
    if (!modelWork) assert.equal(mock.requests.length, 0, 'no request reached the model');
    assert.deepEqual(mock.specErrors(), [], 'every request the model got is valid by the spec');
    modelWork = false;
    mock.reset();
  });

  it('rerank with links planted at every guessable partial name (to ../.. and out): the review and outside survive whole', async () => {
    const { top, root, outside, run } = await setup();
    for (let pid = 1; pid <= 400; pid++) await fs.symlink('../..', path.join(run, `.rerank.partial-${pid}`));
    await fs.symlink(outside, path.join(run, '.rerank.partial'));
    await fs.symlink('../..', path.join(run, '.rerank.0123456789abcdef01234567.partial'));
    const before = await snapshot(top);
    const r = await cli(['rerank', root, RUN_ID], top, top);
    assert.equal(r.code, 0, r.out);
    modelWork = true; // the forecasts: this hand-written run has no persona, so the control's one request
    const after = await snapshot(top);
    // Besides its folder, rerank writes only the key's sha256 into run.json.
    assert.deepEqual(
      lost(before, after).filter((p) => p !== `review/runs/${RUN_ID}/run.json`),
      [],
      'nothing of the review or outside lost or changed',
    );
    assert.ok(
      after.has(`review/runs/${RUN_ID}/rerank/key.json`) || [...after.keys()].some((p) => p.startsWith(`review/runs/${RUN_ID}/rerank/`)),
    );
    assert.deepEqual(
      [...after.keys()].filter((p) => /\.partial\/?$/.test(p) && !before.has(p)),
      [],
      'no staging folder left',
    );
  });

  it('rerank when runs/<id>/rerank is a link to ../.. : refused in one line, exit 1, nothing lost', async () => {
    const { top, root, run } = await setup();
    await fs.symlink('../..', path.join(run, 'rerank'));
    const before = await snapshot(top);
    const r = await cli(['rerank', root, RUN_ID], top, top);
    assert.equal(r.code, 1, r.out);
    assert.equal(r.out.trim().split('\n').length, 1, r.out);
    assert.match(r.out, /rerank/);
    assert.deepEqual(lost(before, await snapshot(top)), []);
  });

  it('evaluate . --out evaluation with evaluation a link (out, or to a folder inside): refused in words, exit 1, nothing written', async () => {
    for (const target of ['OUT', 'options', '..']) {
      const { top, root, outside } = await setup();
      await fs.symlink(target === 'OUT' ? path.join(outside, 'empty') : target, path.join(root, 'evaluation'));
      const before = await snapshot(top);
      const r = await cli(['evaluate', '.', '--out', 'evaluation'], root, top);
      assert.equal(r.code, 1, r.out);
      assert.match(r.out, /^teamfusion evaluate: evaluation is a symbolic link; the tool never writes through a link/m, r.out);
      assert.deepEqual(await snapshot(top), before, `evaluation -> ${target}: nothing changed`);
    }
  });

  it('evaluate --out with links planted at the old temporary names and at a target: never followed', async () => {
    const { top, root, outside } = await setup();
    const out = path.join(root, 'evaluation');
    await fs.mkdir(out);
    for (const name of ['evaluation.md', 'evaluation.json', 'w-before-after.svg']) {
      for (let pid = 1; pid <= 50; pid++) await fs.symlink(path.join(outside, 'secret.md'), path.join(out, `${name}.${pid}.tmp`));
    }
    const before = await snapshot(top);
    let r = await cli(['evaluate', '.', '--out', 'evaluation'], root, top);
    assert.ok(r.code === 0 || r.code === 1, r.out);
    let after = await snapshot(top);
    assert.deepEqual(lost(before, after), []);
    assert.ok(after.has('review/evaluation/evaluation.md'), 'written next to the planted links');
    // A link at a target itself: refused, the brief it points to unchanged.
    await fs.rm(path.join(out, 'evaluation.json'));
    await fs.symlink('../brief.md', path.join(out, 'evaluation.json'));
    const before2 = await snapshot(top);
    r = await cli(['evaluate', '.', '--out', 'evaluation'], root, top);
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /evaluation\.json is a symbolic link, not a file this tool writes; it is not replaced/);
    after = await snapshot(top);
    assert.deepEqual(after, before2, 'every target is checked before the first is written: nothing changed');
  });

  it('run --resume with prompts.jsonl a link to ../../brief.md: refused in one line before anything changes', async () => {
    const { top, root, run } = await setup('failed');
    await fs.writeFile(path.join(run, 'prompts.jsonl'), '').catch(() => undefined);
    await fs.rm(path.join(run, 'prompts.jsonl'));
    await fs.symlink('../../brief.md', path.join(run, 'prompts.jsonl'));
    await fs.appendFile(path.join(root, 'brief.md'), 'no newline at the end');
    const before = await snapshot(top);
    const r = await cli(['run', root, '--resume', RUN_ID], top, top);
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /prompts\.jsonl is a symbolic link/);
    assert.deepEqual(
      lost(before, await snapshot(top), (p) => p.startsWith(`review/runs/${RUN_ID}/`) && !p.endsWith('prompts.jsonl')),
      [],
    );
    assert.equal((await snapshot(top)).get('review/brief.md'), before.get('review/brief.md'), 'the brief is not truncated');
  });

  it('say with .driver.lock a link, a dangling link, a folder or 2 GB: stale in words, the message sent to the inbox, nothing followed', async () => {
    const kinds: [string, (lock: string, outside: string) => Promise<void>, RegExp][] = [
      [
        'link to the brief',
        (l) => fs.symlink('../../brief.md', l),
        /is a symbolic link, not a lock this tool writes; it was treated as stale and never followed/,
      ],
      ['link out', (l, o) => fs.symlink(path.join(o, 'secret.md'), l), /is a symbolic link/],
      ['dangling link', (l, o) => fs.symlink(path.join(o, 'nothing'), l), /is a symbolic link/],
      [
        'folder',
        async (l) => {
          await fs.mkdir(l);
          await fs.writeFile(path.join(l, 'keep.txt'), 'keep');
        },
        /is a folder, not a lock this tool writes; it was treated as stale/,
      ],
      [
        '2 GB file',
        async (l) => {
          const h = await fs.open(l, 'w');
          await h.truncate(2 * 1024 * 1024 * 1024);
          await h.close();
        },
        /is too large for a lock \(2048 MB\); it was treated as stale and not read/,
      ],
      // A driver writes its lock whole in one step, so a fresh lock that is not a driver's pid/host/time is no driver's.
      [
        'garbage, just written',
        (l) => fs.writeFile(l, 'garbage\n'),
        /does not hold a driver's pid, host and start time, so no driver wrote it; it was treated as stale/,
      ],
      [
        'JSON of another shape, just written',
        (l) => fs.writeFile(l, '{"pid": "me", "hostname": 1}\n'),
        /does not hold a driver's pid, host and start time/,
      ],
      [
        'nested 3000 deep',
        (l) => fs.writeFile(l, '['.repeat(3000)),
        /nests lists and fields more than 64 levels deep .* The lock was treated as stale/,
      ],
    ];
    for (const [what, plant, said] of kinds) {
      const { top, root, outside, run } = await setup('failed');
      const lock = path.join(run, '.driver.lock');
      await plant(lock, outside);
      const before = await snapshot(top);
      const r = await cli(['say', root, RUN_ID, '--as', 'd1', 'Keep the serif'], top, top);
      assert.equal(r.code, 0, `${what}: ${r.out}`);
      assert.match(r.out, said, what);
      // Issue 18: say writes only its inbox entry; nobody drives the run (the bogus lock is no driver), so the next one takes it in.
      assert.match(r.out, /nobody drives the run now/, `${what}: not left for a process that does not exist`);
      assert.doesNotMatch(r.out, /takes it in at the next turn/, what);
      const after = await snapshot(top);
      assert.deepEqual(lost(before, after), [], `${what}: nothing of the review or outside lost or changed (say only looks at the lock)`);
      assert.deepEqual(
        [...after.keys()].filter((p) => !before.has(p)).filter((p) => !p.startsWith(`review/runs/${RUN_ID}/inbox/`)),
        [],
        `${what}: only the inbox entry is new`,
      );
      assert.equal(after.get('review/brief.md'), before.get('review/brief.md'));
      assert.equal(after.get('outside/secret.md'), before.get('outside/secret.md'));
    }
  });

  it('say while a live process holds the lock names that process (pid, host, since when); the lock is left as it is', async () => {
    const { top, root, run } = await setup('failed');
    // This test's own process: alive, on this host.
    // Written now, after this process started, as a driver writes its lock (a lock older than its pid's process is stale).
    const since = new Date().toISOString();
    const info = { pid: process.pid, hostname: os.hostname(), startedAt: since, nonce: '0123456789abcdef' };
    await fs.writeFile(path.join(run, '.driver.lock'), `${JSON.stringify(info)}\n`);
    const before = await snapshot(top);
    const r = await cli(['say', root, RUN_ID, '--as', 'd1', 'Keep the serif'], top, top);
    assert.equal(r.code, 0, r.out);
    assert.equal(r.out.trim().split('\n').length, 1, r.out);
    assert.match(
      r.out,
      new RegExp(
        `the process driving ${RUN_ID} \\(pid ${process.pid} on .+, since ${since.replace(/\./g, '\\.')}\\) takes it in at its next turn`,
      ),
    );
    const after = await snapshot(top);
    assert.deepEqual(lost(before, after), [], 'the lock and everything else as it was');
  });
  // Generated from WRITERS (corpusProbes.ts): every command that writes × {a link at each output, links at every
  // guessable temporary name beside each output}.
  const argsOf = (command: string[], root: string): string[] => {
    const rest = command.slice(1).map((a) => sub(a, RUN_ID).split('<root>').join(root));
    return command.slice(1).some((a) => a.includes('<root>')) ? [command[0]!, ...rest] : [command[0]!, root, ...rest];
  };
  const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  /** The relative path from `output` (a file or folder of the review) to brief.md, and to `..` of its folder. */
  const insideTarget = (output: string): string => {
    const depth = output.replace(/\/$/, '').split('/').length - 1;
    return output.endsWith('/') ? '..' : `${'../'.repeat(depth)}brief.md`;
  };

  for (const [name, w] of Object.entries(WRITERS)) {
    for (const output of w.outputs) {
      for (const where of ['out', 'in'] as const) {
        it(`${name}: ${output} is a link ${where === 'out' ? 'out of the review' : `to ${insideTarget(output)}`}: refused in one line naming it, exit 1, nothing changed, nothing sent`, async () => {
          const { top, root, outside } = await setup(w.status);
          await w.setup?.(root, RUN_ID);
          const at = path.join(root, ...sub(output, RUN_ID).replace(/\/$/, '').split('/'));
          await fs.mkdir(path.dirname(at), { recursive: true });
          await fs.rm(at, { recursive: true, force: true });
          await fs.symlink(where === 'out' ? path.join(outside, output.endsWith('/') ? 'empty' : 'secret.md') : insideTarget(output), at);
          const before = await snapshot(top);
          const r = await cli(argsOf(w.command, root), top, top);
          assert.equal(r.code, 1, r.out);
          const shown = sub(output, RUN_ID).replace(/\/$/, '');
          const lines = r.out.trim().split('\n');
          assert.ok(
            lines.some((l) => new RegExp(`${escapeRe(path.posix.basename(shown))}\\b`).test(l)),
            `names ${shown}:\n${r.out}`,
          );
          assert.ok(lines.length <= 2, `one line (a second only to say how to go on):\n${r.out}`);
          assert.deepEqual(await snapshot(top), before, 'nothing of the review or outside changed, nothing new');
        });
      }
    }
    if (w.noTemp) continue;
    it(`${name}: links planted at every guessable temporary name beside ${w.outputs.join(', ')}: never followed nor removed, the work is done`, async () => {
      modelWork = w.model === true;
      const { top, root, outside } = await setup(w.status);
      await w.setup?.(root, RUN_ID);
      let planted = 0;
      for (const output of w.outputs) {
        const at = path.join(root, ...sub(output, RUN_ID).replace(/\/$/, '').split('/'));
        await fs.mkdir(path.dirname(at), { recursive: true });
        for (const [i, temp] of guessableTemps(output).entries()) {
          const link = path.join(path.dirname(at), temp);
          if (existsSync(link)) continue;
          await fs.symlink(i % 2 ? path.join(outside, output.endsWith('/') ? 'empty' : 'secret.md') : insideTarget(output), link);
          planted++;
        }
      }
      assert.ok(planted > 100);
      const before = await snapshot(top);
      const r = await cli(argsOf(w.command, root), top, top);
      assert.ok(w.ok.includes(r.code ?? -1), `exit ${r.code}:\n${r.out}`);
      const after = await snapshot(top);
      const changed = lost(before, after).filter((p) => !w.outputs.some((o) => p === `review/${sub(o, RUN_ID)}`));
      assert.deepEqual(changed, [], 'every planted link and every file of the review and outside as it was');
      assert.ok(
        [...after].some(([p, v]) => before.get(p) !== v),
        'the command wrote its output beside the links',
      );
    });
  }
});
