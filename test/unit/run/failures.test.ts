import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { MockOpenAI, type RecordedRequest } from '../../support/openaiMock';
import { resumeRun, startRun, type RunnerOptions } from '../../../src/core/run/session';
import { makeReview, makeTempDir } from './fixtures';
import { TEST_KEY, chatRequests, clientFor, collect, turnRequests, runJson, UNPOOLED } from './helpers';

const isRemixCall = (r: RecordedRequest): boolean => Boolean((r.body as { response_format?: unknown }).response_format);

describe('run engine: failures, repair, retries, cancel and resume', function () {
  this.timeout(60_000);
  let mock: MockOpenAI;
  let cacheDir: string;
  let root: string;
  /** 2 designers × 1 turn, 2 iterations: 2 + 2 turns, 2 remix calls, 1 edit; one turn after the other, in file order. */
  const small = { ...UNPOOLED, turnsPerAgent: 1, iterations: 2, mode: 'together', order: 'fixed' } as const;
  const opts = (o: Partial<RunnerOptions> = {}): RunnerOptions => ({
    reviewRoot: root,
    client: clientFor(mock),
    cacheDir,
    settings: small,
    ...o,
  });

  before(async () => {
    mock = await MockOpenAI.start();
    cacheDir = await makeTempDir('tf-cache-');
  });
  after(async () => mock.close());
  beforeEach(async () => {
    mock.reset();
    mock.setFallback(undefined);
    root = await makeReview({ options: 4, designers: 2 });
  });
  afterEach(async function () {
    assert.deepEqual(mock.specErrors(), [], 'every request is valid against the official spec');
    for (const name of await fs.readdir(path.join(root, 'runs')).catch(() => [])) {
      for (const f of await fs.readdir(path.join(root, 'runs', name), { recursive: true })) {
        const p = path.join(root, 'runs', name, String(f));
        if ((await fs.stat(p)).isFile()) assert.ok(!(await fs.readFile(p)).includes(TEST_KEY), `${p} holds the key`);
      }
    }
  });

  it('repairs an invalid remix answer (invalid JSON), records the rejected output, then completes', async () => {
    let broken = 0;
    mock.setFallback((req) => (isRemixCall(req) && broken++ === 0 ? { kind: 'chat', content: '{"ranking": ["1", ' } : undefined));
    const { events, onEvent } = collect();
    const r = await startRun(opts({ onEvent }));
    assert.equal(r.status, 'completed', r.error);
    const repair = r.prompts.find((p) => p.kind === 'remix-repair');
    assert.ok(repair, 'a remix-repair prompt is recorded');
    assert.equal(repair.rejectedOutput, '{"ranking": ["1", ');
    const original = r.prompts.find((p) => p.kind === 'remix' && p.iteration === 1)!;
    assert.match(original.error!, /not valid JSON/);
    // the repair call carries the bad answer and the error back to the model
    const repairCall = chatRequests(mock).filter(isRemixCall)[1]!;
    const msgs = (repairCall.body as { messages: { role: string; content: unknown }[] }).messages;
    assert.equal(msgs.at(-2)!.role, 'assistant');
    assert.equal(msgs.at(-2)!.content, '{"ranking": ["1", ');
    assert.match(String(msgs.at(-1)!.content), /not valid JSON/);
    assert.ok(events.some((e) => e.type === 'notice' && /repair/.test(e.message)));
  });

  it('rejects an answer naming an unknown id, and fails in words after bounded retries', async () => {
    mock.setFallback((req) =>
      isRemixCall(req)
        ? { kind: 'json', value: { ranking: ['99'], editingDirections: 'x', agreements: [], disagreements: [], decisionPoints: [] } }
        : undefined,
    );
    const r = await startRun(opts());
    assert.equal(r.status, 'failed');
    assert.match(r.error!, /remix agent gave no usable answer after 4 attempts/);
    assert.equal(chatRequests(mock).filter(isRemixCall).length, 4);
    assert.equal(r.prompts.filter((p) => p.kind === 'remix-repair').length, 3);
    assert.ok(r.prompts.filter((p) => p.kind === 'remix-repair').every((p) => p.rejectedOutput?.includes('"99"')));
    // resumable: the discussion is not asked again
    mock.setFallback(undefined);
    const before = turnRequests(mock).length;
    const done = await resumeRun({ ...opts(), runId: r.id });
    assert.equal(done.status, 'completed', done.error);
    assert.equal(turnRequests(mock).length - before, 2, 'only iteration 2 turns are new');
  });

  it('retries a 429 after its retry-after, and 5xx answers', async () => {
    mock.enqueue(
      'chat',
      { kind: 'error', status: 429, headers: { 'retry-after': '1' } },
      { kind: 'error', status: 500 },
      { kind: 'error', status: 503 },
    );
    const r = await startRun(opts({ client: clientFor(mock, { maxRetries: 3 }) }));
    assert.equal(r.status, 'completed', r.error);
    const chats = chatRequests(mock);
    assert.deepEqual(
      chats.slice(0, 4).map((c) => c.status),
      [429, 500, 503, 200],
    );
    assert.ok(chats[1]!.receivedAt - chats[0]!.receivedAt >= 900, 'waited for retry-after: 1');
    assert.equal(r.iterations[0]!.messages.length, 2);
  });

  it('a request that times out fails the run in words; resume completes it', async () => {
    mock.enqueue('chat', { kind: 'hang' });
    const r = await startRun(opts({ client: clientFor(mock, { timeoutMs: 400, maxRetries: 0 }) }));
    assert.equal(r.status, 'failed');
    assert.match(r.error!, /timed out/);
    assert.equal((await runJson(root, r.id)).status, 'failed');
    const done = await resumeRun({ ...opts(), runId: r.id });
    assert.equal(done.status, 'completed', done.error);
    assert.equal(done.iterations.length, 2);
  });

  it('a stream cut mid-answer is asked again; cut three times → failed-resumable', async () => {
    mock.enqueue('chat', { kind: 'cut-stream', afterChunks: 2 });
    const { events, onEvent } = collect();
    const r = await startRun(opts({ onEvent }));
    assert.equal(r.status, 'completed', r.error);
    assert.ok(events.some((e) => e.type === 'notice' && /broke off/.test(e.message)));
    assert.ok(!r.iterations[0]!.messages[0]!.content.includes('undefined'));

    mock.reset();
    root = await makeReview({ options: 4, designers: 2 });
    mock.enqueue('chat', ...[1, 2, 3].map(() => ({ kind: 'cut-stream' as const, afterChunks: 1 })));
    const failed = await startRun(opts());
    assert.equal(failed.status, 'failed');
    assert.match(failed.error!, /broke off/);
    const done = await resumeRun({ ...opts(), runId: failed.id });
    assert.equal(done.status, 'completed', done.error);
  });

  it('a failed image edit fails the run in words (iteration error set); resume makes the remix without new turns', async () => {
    mock.enqueue('edit', {
      kind: 'error',
      status: 400,
      body: {
        error: {
          message: 'Your request was rejected by the safety system.',
          type: 'image_generation_user_error',
          param: null,
          code: 'moderation_blocked',
        },
      },
    });
    const r = await startRun(opts());
    assert.equal(r.status, 'failed');
    assert.match(r.error!, /image edit failed with HTTP 400: Your request was rejected by the safety system/);
    assert.equal(r.iterations[0]!.error, r.error);
    assert.equal(r.iterations[0]!.remix, undefined);
    const result = await fs.readFile(path.join(root, 'runs', r.id, 'result.md'), 'utf8');
    assert.match(result, /Status: failed/);
    const turnsBefore = turnRequests(mock).length;
    const remixCallsBefore = chatRequests(mock).filter(isRemixCall).length;
    const done = await resumeRun({ ...opts(), runId: r.id });
    assert.equal(done.status, 'completed', done.error);
    assert.equal(done.iterations[0]!.error, undefined);
    assert.equal(turnRequests(mock).length - turnsBefore, 2, 'iteration 1 turns are not asked again');
    assert.equal(chatRequests(mock).filter(isRemixCall).length - remixCallsBefore, 1, 'only iteration 2 remix agent');
    await fs.access(path.join(root, 'runs', r.id, 'iteration-1', 'remix.png'));
  });

  it('cancel between turns → cancelled, record kept; resume continues without redoing a turn', async () => {
    const controller = new AbortController();
    let completed = 0;
    const r = await startRun(
      opts({
        settings: { ...small, turnsPerAgent: 2 },
        signal: controller.signal,
        onEvent: (e) => {
          if (e.type === 'turn-completed' && ++completed === 3) controller.abort();
        },
      }),
    );
    assert.equal(r.status, 'cancelled');
    assert.equal((await runJson(root, r.id)).status, 'cancelled');
    assert.equal(r.iterations[0]!.messages.length, 3);
    assert.equal(turnRequests(mock).length, 3);
    const done = await resumeRun({ ...opts(), runId: r.id });
    assert.equal(done.status, 'completed', done.error);
    assert.equal(turnRequests(mock).length, 8, '4 + 4 turns in all: none asked twice');
    assert.deepEqual(
      done.iterations[0]!.messages.map((m) => `${m.speaker}/${m.turn}`),
      ['d1/1', 'd2/1', 'd1/2', 'd2/2'],
    );
  });

  it('cancel while a turn streams → only that turn is lost', async () => {
    const controller = new AbortController();
    mock.enqueue(
      'chat',
      { kind: 'chat', content: 'First.' },
      { kind: 'chat', content: 'A slow message that streams in many small pieces, one after another.', chunkDelayMs: 40 },
    );
    const r = await startRun(
      opts({
        signal: controller.signal,
        onEvent: (e) => {
          if (e.type === 'turn-delta' && e.speaker === 'd2') controller.abort();
        },
      }),
    );
    assert.equal(r.status, 'cancelled');
    assert.equal(r.iterations[0]!.messages.length, 1);
    const done = await resumeRun({ ...opts(), runId: r.id });
    assert.equal(done.status, 'completed', done.error);
    assert.equal(turnRequests(mock).length, 2 + 1 + 2, 'the cut turn once more, nothing else');
  });
});
