import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { briefFallback } from '../../support/openaiMock';
import { startRun, type RunnerOptions } from '../../../src/core/run/session';
import { makeBriefRunReview, makeReview } from '../run/fixtures';
import { clientFor, collect, mockSuite, startCli } from '../run/helpers';

/** 2 designers (Ana, Ben) × 1 turn, 2 rounds, one after the other in file order: the first chat request is Ana's turn 1. */
const small = { turnsPerAgent: 1, iterations: 2, mode: 'together', order: 'fixed' } as const;

describe('real output handled honestly: cut answers marked and said, timeouts name their setting, warnings name the turn', function () {
  this.timeout(60_000);
  const suite = mockSuite();
  const logged = (): { log: string[]; opts: (root: string, o?: Partial<RunnerOptions>) => RunnerOptions } => {
    const log: string[] = [];
    return {
      log,
      opts: (root, o = {}) => ({
        reviewRoot: root,
        client: clientFor(suite.mock),
        cacheDir: suite.cacheDir,
        settings: small,
        log: (l) => log.push(l),
        ...o,
      }),
    };
  };

  it('a turn cut off by the length limit is kept, marked cut: true in run.json, said in the log naming member and turn, and marked in transcript.md', async () => {
    const root = await makeReview({ options: 4, designers: 2 });
    suite.mock.enqueue('chat', { kind: 'chat', content: 'Image 1 has the calm we need, but the', finishReason: 'length' });
    const { log, opts } = logged();
    const { events, onEvent } = collect();
    const r = await startRun(opts(root, { onEvent }));
    assert.equal(r.status, 'completed', r.error);
    const [first, second] = r.iterations[0]!.messages;
    assert.equal(first!.content, 'Image 1 has the calm we need, but the');
    assert.equal(first!.cut, true);
    assert.equal(second!.cut, undefined, 'an answer that finished is not marked');
    const onDisk = JSON.parse(await fs.readFile(path.join(root, 'runs', r.id, 'run.json'), 'utf8')) as {
      iterations: { messages: { cut?: boolean }[] }[];
    };
    assert.equal(onDisk.iterations[0]!.messages[0]!.cut, true);
    assert.ok(
      log.some((l) => /Ana's proxy \(round 1, turn 1\): the answer was cut off by the model's length limit/.test(l)),
      log.join('\n'),
    );
    assert.ok(events.some((e) => e.type === 'notice' && /Ana's proxy \(round 1, turn 1\): the answer was cut off/.test(e.message)));
    const transcript = await fs.readFile(path.join(root, 'runs', r.id, 'transcript.md'), 'utf8');
    assert.match(transcript, /but the \*\(cut off: the model's length limit ended this answer\)\*/);
  });

  it('an empty answer is asked again with a warning naming the member, round and turn', async () => {
    const root = await makeReview({ options: 4, designers: 2 });
    suite.mock.enqueue('chat', { kind: 'chat', content: '' });
    const { log, opts } = logged();
    const r = await startRun(opts(root));
    assert.equal(r.status, 'completed', r.error);
    assert.ok(
      log.some((l) => l === "warning: Ana's proxy (round 1, turn 1): The model sent an empty message. Asking again (1 of 2)."),
      log.join('\n'),
    );
  });

  it('on the command line the warning is one line, not the log line and the notice both', async () => {
    const root = await makeReview({ options: 4, designers: 2 });
    suite.mock.enqueue('chat', { kind: 'chat', content: '' });
    const r = await startCli(['run', root, '--iterations', '1', '--turns', '1', '--mode', 'together', '--order', 'fixed'], suite.env).done;
    assert.equal(r.code, 0, r.stderr);
    const said = r.stderr.split('\n').filter((l) => l.includes("Ana's proxy (round 1, turn 1): The model sent an empty message."));
    assert.deepEqual(said, ["warning: Ana's proxy (round 1, turn 1): The model sent an empty message. Asking again (1 of 2)."]);
  });

  it('a timeout names the turn and the setting that raises it (VS Code and environment variable), for local models', async () => {
    const root = await makeReview({ options: 4, designers: 2 });
    suite.mock.enqueue('chat', { kind: 'hang' });
    const { opts } = logged();
    const r = await startRun(opts(root, { client: clientFor(suite.mock, { timeoutMs: 400, maxRetries: 0 }) }));
    assert.equal(r.status, 'failed');
    assert.match(r.error!, /^Ana's proxy \(round 1, turn 1\): the request timed out, also after retries\./);
    assert.match(r.error!, /teamfusion\.requestTimeoutSeconds/);
    assert.match(r.error!, /TEAMFUSION_REQUEST_TIMEOUT_SECONDS/);
    assert.match(r.error!, /local/);
  });

  it("a brief run's direct baseline cut off by the length limit is kept, marked cut on run.json's baseline and said", async () => {
    suite.mock.setFallback((req) => {
      const usual = briefFallback()(req);
      if (usual) return usual;
      // The direct baseline is the one request that asks for the revised brief itself.
      return /Write one revised brief in Markdown/.test(JSON.stringify(req.body))
        ? { kind: 'chat', content: '# Revised brief\n\nAwareness first, and the', finishReason: 'length' }
        : undefined;
    });
    const root = await makeBriefRunReview(2);
    const { log, opts } = logged();
    const r = await startRun(opts(root, { settings: { iterations: 1, turnsPerAgent: 1 } }));
    assert.equal(r.status, 'completed', r.error);
    assert.equal(r.baseline?.cut, true);
    assert.match(await fs.readFile(path.join(root, 'runs', r.id, 'baseline.md'), 'utf8'), /and the\n$/);
    assert.ok(
      log.some((l) => /The direct baseline was cut off by the model's length limit/.test(l)),
      log.join('\n'),
    );
  });
});
