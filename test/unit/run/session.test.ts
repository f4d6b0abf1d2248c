/**
 * The one way into a run (core/run/session.ts): a request is resolved once. Every open for reading of review.yaml and
 * run.json is counted while a run starts, resumes and refines, through runSession and through the CLI's `run` in this
 * process; and both the CLI and the extension reach the engine only through runSession.
 */
import { strict as assert } from 'node:assert';
import { promises as fs, constants as fsc, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { runSession, type RunObserver, type RunRequest } from '../../../src/core/run/session';
import { runRun } from '../../../src/cli/commands/run/run';
import type { RunRecord } from '../../../src/core/record/record';
import { askedRun } from '../../../src/extension/run/runRequest';
import { JOURNAL_FILE } from '../../../src/core/record/journal';
import { waitFor } from '../../support/waitFor';
import { makeReview } from './fixtures';
import { TEST_KEY, asKilledNow, clientFor, mockSuite } from './helpers';
import { SRC, sourceFiles } from '../../support/sourceFiles';

type Counts = { 'review.yaml': number; 'run.json': number };

/** Counts the files opened for reading by name while `fn` runs (the file room reads every file through fs.open). */
async function countReads<T>(fn: () => Promise<T>): Promise<{ result: T; reads: Counts }> {
  const reads: Counts = { 'review.yaml': 0, 'run.json': 0 };
  const open = fs.open;
  fs.open = function (this: typeof fs, file: Parameters<typeof fs.open>[0], flags?: string | number, mode?: Parameters<typeof fs.open>[2]) {
    const name = path.basename(String(file));
    const reading = flags === undefined || flags === 'r' || (typeof flags === 'number' && (flags & (fsc.O_WRONLY | fsc.O_RDWR)) === 0);
    if (reading && (name === 'review.yaml' || name === 'run.json')) reads[name]++;
    return open.call(this, file, flags, mode);
  } as typeof fs.open;
  try {
    return { result: await fn(), reads };
  } finally {
    fs.open = open;
  }
}

/** A design review whose review.yaml exists (so it can be read), and runs of one iteration. */
async function reviewWithYaml(): Promise<string> {
  const root = await makeReview({ options: 3, designers: 2 });
  await fs.writeFile(path.join(root, 'review.yaml'), 'turnsPerAgent: 1\n');
  return root;
}

describe('one way into a run: the request is resolved once', function () {
  this.timeout(60_000);
  const suite = mockSuite();
  const request = (root: string, what: RunRequest['what'], more: Partial<RunRequest> = {}): RunRequest => ({
    reviewRoot: root,
    what,
    means: { client: clientFor(suite.mock, { maxRetries: 0 }) },
    cacheDir: suite.cacheDir,
    ...more,
  });
  const start = (root: string): Promise<RunRecord> =>
    runSession(request(root, { kind: 'start', settings: { iterations: 1, orderSeed: 0 } }));

  it('a new run reads review.yaml once and never reads run.json back', async () => {
    const root = await reviewWithYaml();
    const { result, reads } = await countReads(() => start(root));
    assert.equal(result.status, 'completed', result.error);
    assert.equal(result.settings.turnsPerAgent, 1, "review.yaml's settings reach the run");
    assert.deepEqual(reads, { 'review.yaml': 1, 'run.json': 0 });
  });

  it('a resume of a failed run reads review.yaml once and run.json once, and completes it', async () => {
    const root = await reviewWithYaml();
    suite.mock.enqueue('chat', { kind: 'error', status: 400 });
    const failed = await start(root);
    assert.equal(failed.status, 'failed');
    const heard: string[] = [];
    const observer: RunObserver = {
      loaded: () => heard.push('review'),
      recordRead: (r) => heard.push(`record ${r.status}`),
      event: (e) => void (e.type === 'run-started' && heard.push('started')),
    };
    const { result, reads } = await countReads(() => runSession(request(root, { kind: 'resume', runId: failed.id }), observer));
    assert.equal(result.status, 'completed', result.error);
    assert.deepEqual(reads, { 'review.yaml': 1, 'run.json': 1 });
    assert.deepEqual(heard, ['review', 'record failed', 'started'], 'the observer hears the review, the record, then the run');
  });

  it('a refinement reads review.yaml once and run.json once', async () => {
    const root = await reviewWithYaml();
    const done = await start(root);
    const { result, reads } = await countReads(() =>
      runSession(request(root, { kind: 'refine', runId: done.id }, { feedback: 'Warmer.' })),
    );
    assert.equal(result.status, 'completed', result.error);
    assert.equal(result.iterations.length, 3);
    assert.equal(result.iterations[1]?.feedback, 'Warmer.');
    assert.deepEqual(reads, { 'review.yaml': 1, 'run.json': 1 });
  });

  it('a resume after a crash mid-round (turns only in the journal) still reads review.yaml once: the journal is judged against the review as loaded', async () => {
    const root = await reviewWithYaml();
    let turns = 0;
    suite.mock.setFallback((req) => ((req.body as { stream?: boolean }).stream === true && ++turns === 2 ? { kind: 'hang' } : undefined));
    const controller = new AbortController();
    const started = runSession(request(root, { kind: 'start', settings: { iterations: 1, orderSeed: 0 } }, { signal: controller.signal }));
    await waitFor('the second turn to be asked', () => turns >= 2);
    const id = (await fs.readdir(path.join(root, 'runs')))[0]!;
    const dir = path.join(root, 'runs', id);
    await waitFor('a turn in the journal', async () =>
      (await fs.readFile(path.join(dir, JOURNAL_FILE), 'utf8').catch(() => '')).includes('"message"'),
    );
    // The run folder as a crash leaves it: run.json says running, the turn is only in the journal.
    await asKilledNow(root, id, async () => {
      controller.abort();
      await started;
    });
    suite.mock.setFallback(undefined);
    const { result, reads } = await countReads(() => runSession(request(root, { kind: 'resume', runId: id })));
    assert.equal(result.status, 'completed', result.error);
    assert.equal(result.iterations[0]?.messages[0]?.id, 'i1-m1', 'the journalled turn is kept');
    assert.deepEqual(reads, { 'review.yaml': 1, 'run.json': 1 });
  });

  it('a record changed on disk after it was read is read again under the lock (another driver ran meanwhile)', async () => {
    const root = await reviewWithYaml();
    suite.mock.enqueue('chat', { kind: 'error', status: 400 });
    const failed = await start(root);
    const file = path.join(root, 'runs', failed.id, 'run.json');
    const sent = suite.mock.requests.length;
    const observer: RunObserver = {
      // Between the read and the lock, the record on disk becomes a completed run's.
      recordRead: () => {
        const text = readFileSync(file, 'utf8');
        writeFileSync(file, text.replace('"status": "failed"', '"status": "completed"'));
      },
    };
    const { result, reads } = await countReads(() => runSession(request(root, { kind: 'resume', runId: failed.id }), observer));
    assert.equal(result.status, 'completed', 'the record as it is now, not as first read');
    assert.equal(suite.mock.requests.length, sent, 'nothing more was sent');
    assert.deepEqual(reads, { 'review.yaml': 1, 'run.json': 2 });
  });

  describe("the CLI's run, in this process", () => {
    const saved: Record<string, string | undefined> = {};
    const env = (): Record<string, string> => ({ ...suite.env, OPENAI_API_KEY: TEST_KEY, TEAMFUSION_PRICES: '' });
    beforeEach(() => {
      for (const [k, v] of Object.entries(env())) {
        saved[k] = process.env[k];
        process.env[k] = v;
      }
      delete process.env.TEAMFUSION_PRICES;
    });
    afterEach(() => {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    });
    /** runRun with its --json summary taken off stdout. */
    const cli = async (args: string[]): Promise<{ code: number; summary: { id: string; status: string } }> => {
      let out = '';
      const write = process.stdout.write;
      process.stdout.write = ((s: string | Uint8Array) => ((out += String(s)), true)) as typeof process.stdout.write;
      try {
        const code = await runRun([...args, '--json', '--no-wait']);
        return { code, summary: JSON.parse(out) as { id: string; status: string } };
      } finally {
        process.stdout.write = write;
      }
    };

    it('`run` reads review.yaml once; `run --resume ID --feedback` (a refinement) reads it once and run.json once', async () => {
      const root = await reviewWithYaml();
      const first = await countReads(() => cli([root, '--iterations', '1', '--seed', '0']));
      assert.equal(first.result.code, 0);
      assert.deepEqual(first.reads, { 'review.yaml': 1, 'run.json': 0 });
      const again = await countReads(() => cli([root, '--resume', first.result.summary.id, '--feedback', 'Bolder.']));
      assert.equal(again.result.code, 0);
      assert.equal(again.result.summary.status, 'completed');
      assert.deepEqual(again.reads, { 'review.yaml': 1, 'run.json': 1 });
    });
  });

  it("the extension's request: a start carries the command's choices over the settings, a refine its feedback", () => {
    const inspect = (key: string) => (key === 'iterations' ? { key, workspaceValue: 2 } : undefined);
    const started = askedRun(
      { kind: 'start', reviewRoot: '/r', options: { turns: 1, feedback: '  Calmer. ', task: 'design' } },
      inspect,
      'gpt-x',
    );
    assert.deepEqual(started.what, { kind: 'start', settings: { iterations: 2, turnsPerAgent: 1, chatModel: 'gpt-x' }, task: 'design' });
    assert.equal(started.feedback, 'Calmer.');
    const refined = askedRun({ kind: 'refine', reviewRoot: '/r', runId: 'x', feedback: 'Warmer.' }, inspect);
    assert.deepEqual(refined.what, { kind: 'refine', runId: 'x' });
    assert.equal(refined.feedback, 'Warmer.');
  });

  it('the CLI and the extension reach the engine only through runSession', async () => {
    const sources: Record<string, string> = {};
    for (const abs of await sourceFiles()) sources[path.relative(SRC, abs).split(path.sep).join('/')] = await fs.readFile(abs, 'utf8');
    const engineEntries = /\b(startRunOn|resumeRunOf|refineRunOf)\b/;
    const users = Object.keys(sources).filter((f) => engineEntries.test(sources[f]!) && f !== 'core/run/runner.ts');
    assert.deepEqual(users, ['core/run/session.ts'], 'only the session calls the engine');
    for (const f of ['cli/commands/run/run.ts', 'extension/run/runManager.ts']) {
      assert.match(sources[f]!, /\brunSession\(/, `${f} calls runSession`);
      assert.doesNotMatch(sources[f]!, /\b(startRun|resumeRun|refineRun)\b/, `${f} does not pick start / resume / refine itself`);
    }
  });
});
