/**
 * The harness of the hostile corpus (hostileCorpus.test.ts and hostileRuns.test.ts: the hand-written cases of
 * corpusCases.ts; hostileKinds1/2.test.ts: the cases generated from the file-kind table, in two halves; four files so
 * that the parallel test workers share them): every case's review
 * is a copy of a template, broken by the case, run through the REAL command line under strace, with the mock model
 * server listening. For every folder and command:
 *   - the exit code is 1 (unless the case says) and one line of the output says what is wrong;
 *   - every line is printable (no raw control character reaches the terminal) and there is no stack trace or
 *     "Maximum call stack"; the process ends on its own (no hang);
 *   - strace shows no file of the "secret" folder beside the review opened (or even named), and no write outside the review;
 *   - nothing of the review changes but what the case says the command rewrites, nothing of the secret folder changes;
 * and at the end of each case the mock server has received no request at all.
 * strace is required (CI installs it): without it these suites fail instead of skipping.
 */
import { strict as assert } from 'node:assert';
import { existsSync, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MockOpenAI } from '../../support/openaiMock';
import { MockOpenAI as BriefMock, briefFallback } from '../../support/openaiMock';
import { RUN_ID, makeReviewWithRun } from '../evaluation/fixtures';
import { makeBriefRunReview } from '../run/fixtures';
import { TEST_KEY, startCli } from '../run/helpers';
import { cliUnderStrace, hasStrace, snapshotTree, violations } from '../../support/strace';
import { WAIT_CEILING_MS } from '../../support/waitFor';
import { CORPUS, kindCases, sub, type KindCase, type Template } from './corpusProbes';
import { builtCli } from '../../support/builtCli';

export const SECRET_TEXT = 'TOP-SECRET-NEVER-READ';
/** Control characters that must never reach the terminal raw (newline only as a line break). */
export const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

export interface Case {
  name: string;
  /** The review to start from (the design review with a failed run unless said). */
  template?: Template;
  /** Environment the commands need besides the mock's. */
  env?: (root: string) => Record<string, string>;
  /** Breaks the copy of the template review at `root` (its secret folder is `secret`, its run `run`). */
  make(root: string, secret: string, run: string): Promise<void>;
  /**
   * Commands to run, the name first: `<root>` is the review (else it goes right after the name), `<run>` the template's
   * run id.
   */
  commands: string[][];
  /** One line of the output (stdout + stderr) must match this. */
  expect: RegExp | ((run: string) => RegExp);
  /** Expected exit code (1 unless said). */
  code?: number;
  /** Files of the review the command itself rewrites (relative paths); every other file must stay as it was. */
  rewrites?: RegExp;
}

export function corpusSuite(part: string, cases: readonly Case[], withSanity = false): void {
  describe(`hostile corpus: the real CLI on hostile review folders (strace: nothing outside the review opened or written) — ${part}`, function () {
    this.timeout(600_000);
    let mock: MockOpenAI;
    let base: string;
    const templates: Record<Template, { root: string; run: string }> = { design: { root: '', run: RUN_ID }, brief: { root: '', run: '' } };
    let env: Record<string, string>;
    let cache: string;
    /** Wall time of every command (reported, never asserted against a clock). */
    const times: { name: string; ms: number }[] = [];

    before(async () => {
      assert.ok(hasStrace(), 'strace is required for this suite (CI installs it with apt-get install strace)');
      builtCli();
      mock = await MockOpenAI.start();
      base = await fs.mkdtemp(path.join(os.tmpdir(), 'tf-hostile-'));
      cache = path.join(base, 'cache');
      await fs.mkdir(cache);
      env = { OPENAI_API_KEY: TEST_KEY, OPENAI_BASE_URL: mock.baseURL, XDG_CACHE_HOME: cache, TEAMFUSION_MAX_RETRIES: '0' };
      templates.design.root = await makeReviewWithRun('failed');
      if (!cases.some((c) => c.template === 'brief')) return;
      // A completed brief run with its blind pair (rerank/), made against a mock of its own (the corpus's gets nothing).
      const briefMock = await BriefMock.start();
      try {
        briefMock.setFallback(briefFallback());
        const benv = { OPENAI_API_KEY: TEST_KEY, OPENAI_BASE_URL: briefMock.baseURL, XDG_CACHE_HOME: cache, TEAMFUSION_MAX_RETRIES: '0' };
        const root = await makeBriefRunReview(4);
        const made = await startCli(['run', root, '--task', 'brief', '--iterations', '1', '--turns', '1'], benv).done;
        assert.equal(made.code, 0, made.stderr);
        const run = (await fs.readdir(path.join(root, 'runs')))[0]!;
        const pair = await startCli(['rerank', root, run], benv).done;
        assert.equal(pair.code, 0, pair.stderr);
        templates.brief = { root, run };
      } finally {
        await briefMock.close();
      }
    });
    after(async () => {
      const slow = [...times].sort((a, b) => b.ms - a.ms).slice(0, 3);
      if (times.length)
        console.log(
          `      corpus: ${times.length} commands under strace, slowest ${slow.map((t) => `${(t.ms / 1000).toFixed(1)} s (${t.name})`).join(', ')}`,
        );
      await mock?.close();
      if (base) await fs.rm(base, { recursive: true, force: true });
    });

    cases.forEach((c, i) => {
      it(`${c.name}: exit ${c.code ?? 1}, one clear line, no hang, no crash, nothing outside opened or written`, async () => {
        const dir = path.join(base, `case-${i}`);
        const root = path.join(dir, 'review');
        const secret = path.join(dir, 'secret');
        const t = templates[c.template ?? 'design'];
        await fs.cp(t.root, root, { recursive: true });
        // The secret folder beside the review: copies of every kind of file, each holding the secret text.
        await fs.mkdir(secret, { recursive: true });
        await fs.writeFile(path.join(secret, 'secret.md'), `# ${SECRET_TEXT}\n`);
        await fs.writeFile(path.join(secret, 'ranking.yaml'), `designer: ${SECRET_TEXT}\nranking: []\n`);
        await fs.writeFile(path.join(secret, 'review.yaml'), `title: ${SECRET_TEXT}\n`);
        for (const folder of ['options', 'rankings', 'comments', 'runs'])
          if (existsSync(path.join(root, folder))) await fs.cp(path.join(root, folder), path.join(secret, folder), { recursive: true });
        if (existsSync(path.join(root, 'options', '1.png')))
          await fs.copyFile(path.join(root, 'options', '1.png'), path.join(secret, 'secret.png'));
        await c.make(root, secret, t.run);
        const realRoot = await fs.realpath(root);
        const realSecret = await fs.realpath(secret);

        const insideBefore = await snapshotTree(root);
        const outsideBefore = await snapshotTree(secret);
        let matched = false;
        const expect = typeof c.expect === 'function' ? c.expect(t.run) : c.expect;
        for (const [command, ...given] of c.commands) {
          const rest = given.map((a) => sub(a, t.run).split('<root>').join(root));
          const args = given.some((a) => a.includes('<root>')) ? [command!, ...rest] : [command!, root, ...rest];
          const shown = `${c.name} — teamfusion ${[command, ...given].join(' ').slice(0, 200)}`;
          const started = Date.now();
          const r = await cliUnderStrace(args, { ...env, ...c.env?.(root) }, dir, path.join(dir, `strace-${command}.log`));
          times.push({ name: shown, ms: Date.now() - started });
          const output = `${r.stdout}${r.stderr}`;
          assert.equal(r.timedOut, false, `${shown}: hung (killed after ${WAIT_CEILING_MS / 1000} s)`);
          assert.equal(r.signal, null, `${shown}: killed by ${r.signal}`);
          assert.equal(r.code, c.code ?? 1, `${shown}: exit ${r.code}\n${output.slice(0, 2000)}`);
          assert.ok(
            !RAW_CONTROL.test(output),
            `${shown}: a raw control character reached the terminal: ${JSON.stringify(output.slice(0, 500))}`,
          );
          assert.ok(
            !/Maximum call stack|FATAL ERROR|out of memory|\n\s+at .+:\d+:\d+\)?\n/i.test(output),
            `${shown}: a crash or stack trace:\n${output.slice(0, 2000)}`,
          );
          assert.ok(!output.includes(SECRET_TEXT), `${shown}: the secret was printed`);
          if (expect.test(output)) matched = true;
          // The answer stays short whatever the input: diagnostics capped per file, never one line per problem.
          assert.ok(output.split('\n').length <= 200, `${shown}: ${output.split('\n').length} lines of output`);
          if (command === 'validate') {
            // One diagnostic per line: every stdout line is a diagnostic.
            for (const line of r.stdout.split('\n').filter(Boolean))
              assert.match(line, /^.+:\d+:\d+: (error|warning): .+$/, `${shown}: not a diagnostic line: ${line}`);
            assert.ok(r.stdout.split('\n').filter(Boolean).length <= 600, `${shown}: diagnostics are not capped`);
          }

          // strace: nothing of the secret folder opened (or even named), no write outside the review.
          assert.ok(r.trace.length > 0, `${shown}: strace wrote no trace`);
          assert.deepEqual(violations(r.trace, dir, [root, realRoot], [secret, realSecret], cache), [], shown);
          // Nothing of the review lost or changed (new files may appear), nothing outside changed.
          const insideAfter = await snapshotTree(root);
          for (const [rel, was] of insideBefore)
            if (!c.rewrites?.test(rel))
              assert.equal(insideAfter.get(rel)?.slice(0, 300), was.slice(0, 300), `${shown}: ${rel} changed or went missing`);
          assert.deepEqual(await snapshotTree(secret), outsideBefore, `${shown}: something outside the review changed`);
        }
        assert.ok(matched, `${c.name}: no output line matched ${expect}`);
        assert.equal(mock.requests.length, 0, `${c.name}: a request reached the model`);
      });
    });

    if (withSanity)
      it('sanity: the untouched template passes validate under strace, and the trace check sees real reads and writes', async () => {
        const dir = path.join(base, 'sanity');
        const root = path.join(dir, 'review');
        await fs.cp(templates.design.root, root, { recursive: true });
        const r = await cliUnderStrace(['validate', root], env, dir, path.join(dir, 'strace.log'));
        assert.equal(r.code, 0, r.stdout + r.stderr);
        assert.match(r.trace, /openat\(.*brief\.md/);
        assert.deepEqual(violations(r.trace, dir, [root], [path.join(dir, 'secret')], cache), []);
        // The same trace, with the review itself declared "secret": every read of it is reported.
        assert.ok(
          violations(r.trace, dir, [path.join(dir, 'elsewhere')], [root], cache).some((v) =>
            /touched the secret folder: .*brief\.md/.test(v),
          ),
        );
        // A run that writes (a new run folder) is a write outside when the review is not the allowed root.
        const w = await cliUnderStrace(['import', path.join(dir, 'missing.csv'), root], env, dir, path.join(dir, 'strace-w.log'));
        assert.equal(w.code, 1);
        const fake = `123 openat(AT_FDCWD<${dir}>, "out.txt", O_WRONLY|O_CREAT|O_CLOEXEC, 0666) = 3<${path.join(dir, 'out.txt')}>`;
        assert.deepEqual(violations(fake, dir, [root], [], cache), [`wrote outside the review: ${fake}`]);
        assert.equal(mock.requests.length, 0);
      });
  });
}

/** A generated case (corpusProbes.ts: one kind of the table × one attack that applies) as a case of the harness. */
function fromKind(k: KindCase): Case {
  return {
    name: k.name,
    template: k.template,
    ...(k.env ? { env: k.env } : {}),
    make: k.make,
    commands: k.commands,
    expect: k.expect,
    ...(k.code !== undefined ? { code: k.code } : {}),
    ...(k.rewrites ? { rewrites: k.rewrites } : {}),
  };
}

/** The generated cases in two halves: the kinds of the table in CORPUS order, the first `FIRST_HALF_KINDS` in half 1. */
export const FIRST_HALF_KINDS = 13;
export function generatedCases(half: 1 | 2): Case[] {
  const first = new Set(Object.keys(CORPUS).slice(0, FIRST_HALF_KINDS));
  return kindCases()
    .filter((k) => first.has(k.kind) === (half === 1))
    .map(fromKind);
}
