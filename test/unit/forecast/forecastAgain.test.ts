/**
 * Forecasts on their own (issue 38, item 3): `teamfusion forecast` makes only the missing or failed forecasts of a run with
 * a blind set — a sealed one is never asked again, a second call sends nothing — refuses a run without a blind set and a
 * second step at once in one sentence, and a step stopped halfway keeps what it sealed. The control reads the revisions
 * with neutral labels for every member's name and id; the cost question counts the bounded repairs.
 */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { useCliAgainstMock, type CliRun } from '../cli/buildCli';
import { forecastOf, isForecast, makeDesignRun } from '../../support/forecastRuns';
import { makeBriefRunReview, makeReview } from '../run/fixtures';
import { runJson } from '../run/helpers';
import type { ChatBackend, ChatRequest } from '../../../src/core/llm/backend';
import type { WorkCost } from '../../../src/core/llm/costQuestion';
import { CancelledError } from '../../../src/core/kernel/errors';
import { FORECAST_EXTRA_ATTEMPTS, FORECAST_LOCK, makeForecasts } from '../../../src/core/forecast/forecast';
import { withNeutralNames } from '../../../src/core/forecast/forecastPrompts';

/** A chat backend in this process: answers with `answer(n)` for the n-th request (0-based), records what it was sent. */
function fakeChat(answer: (n: number, req: ChatRequest) => string, priced = false): ChatBackend & { sent: ChatRequest[] } {
  const sent: ChatRequest[] = [];
  return {
    provider: 'openai',
    acceptsImages: true,
    priced,
    sent,
    chat(req) {
      sent.push(req);
      return Promise.resolve({ text: answer(sent.length - 1, req), finishReason: 'stop', usage: { inputTokens: 10, outputTokens: 5 } });
    },
  };
}

describe('forecast: only the missing or failed forecasts, sealed as they are made', function () {
  this.timeout(240_000);
  const rig = useCliAgainstMock();
  const tf = (...args: string[]): Promise<CliRun> => rig.run(args);

  const designRun = async (): Promise<{ root: string; id: string }> => makeDesignRun(rig, await makeReview({ options: 4, designers: 3 }));

  it('a failed forecast is made again and nothing else; a second call sends nothing and says so', async () => {
    const { root, id } = await designRun();
    const bad = { kind: 'json' as const, value: { ranking: ['B', 'B', 'B', 'B'] } };
    rig.mock.enqueue(
      'chat',
      { kind: 'json', value: { ranking: ['B', 'A', 'D', 'C'] } },
      bad,
      bad,
      bad,
      { kind: 'json', value: { ranking: ['A', 'B', 'C', 'D'] } },
      { kind: 'json', value: { ranking: ['C', 'D', 'A', 'B'] } },
    );
    assert.equal((await tf('rerank', root, id)).code, 0);
    const before = await forecastOf(root, id);
    assert.ok(before.forecasts[1]!.failed, "Ben's forecast failed");
    rig.mock.reset();

    rig.mock.enqueue('chat', { kind: 'json', value: { ranking: ['D', 'C', 'B', 'A'] } });
    const again = await tf('forecast', root, id);
    assert.equal(again.code, 0, again.stderr);
    const sent = rig.mock.requests.filter(isForecast);
    assert.equal(sent.length, 1, "only Ben's forecast is asked for");
    assert.match(JSON.stringify(sent[0]!.body), /You are role-playing \\"Ben\\"/);
    assert.match(
      again.stderr,
      /Forecasts sealed in runs\/.+\/forecast\.json: 4 of 4 made \(1 request(, estimated cost \$[\d.]+)?; 1 missing or failed asked for now\)/,
    );
    const after = await forecastOf(root, id);
    assert.deepEqual(after.forecasts[1]!.ranking, ['D', 'C', 'B', 'A']);
    assert.equal(after.forecasts[1]!.failed, undefined);
    for (const i of [0, 2, 3]) assert.deepEqual(after.forecasts[i], before.forecasts[i], 'a sealed forecast is carried over as it was');
    const record = await runJson(root, id);
    assert.equal(record.forecastSha256, after.sha256, 'run.json keeps the new seal');
    assert.equal(record.prompts.find((p) => p.id === after.forecasts[1]!.promptId)?.speaker, 'd2');

    rig.mock.reset();
    const third = await tf('forecast', root, id);
    assert.equal(third.code, 0, third.stderr);
    assert.equal(rig.mock.requests.length, 0, 'nothing sent');
    assert.equal(third.stderr, `All 4 forecasts of run ${id} are sealed already (runs/${id}/forecast.json); nothing was sent.\n`);
    assert.deepEqual(await forecastOf(root, id), after);
  });

  it('a run without a blind set, and a second step while one is at work: one sentence each, exit 1, nothing sent', async () => {
    const { root, id } = await designRun();
    const none = await tf('forecast', root, id);
    assert.equal(none.code, 1);
    assert.equal(
      none.stderr,
      `teamfusion forecast: Run ${id} has no blind set (runs/${id}/rerank/ with its key), so there is nothing to forecast; make it with teamfusion rerank first.\n`,
    );

    assert.equal((await tf('rerank', root, id, '--no-forecast')).code, 0);
    // A live step holds the lock (this test's own process stands for it).
    const lock = path.join(root, 'runs', id, FORECAST_LOCK);
    await fs.writeFile(
      lock,
      `${JSON.stringify({ pid: process.pid, hostname: os.hostname(), startedAt: new Date().toISOString(), nonce: 'abc' })}\n`,
    );
    const busy = await tf('forecast', root, id);
    assert.equal(busy.code, 1);
    assert.match(
      busy.stderr,
      new RegExp(
        `^teamfusion forecast: The forecasts of run ${id} are being made by another process \\(pid ${process.pid} on .+\\); they are not made twice at once, so wait for it to finish\\.\\n$`,
      ),
    );
    assert.equal(rig.mock.requests.length, 0);
    await assert.rejects(fs.stat(path.join(root, 'runs', id, 'forecast.json')));
    await fs.rm(lock);
  });

  it('stopped halfway, a step keeps what it sealed; the next makes the rest; the cost question counts the repairs', async () => {
    const { root, id } = await designRun();
    assert.equal((await tf('rerank', root, id, '--no-forecast')).code, 0);
    const model = (await runJson(root, id)).settings.chatModel;

    // The estimate: 4 forecasts, each up to 1 + FORECAST_EXTRA_ATTEMPTS requests; a price high enough to ask.
    let asked: WorkCost | undefined;
    const dear = fakeChat(() => '{}', true);
    await assert.rejects(
      makeForecasts({
        reviewRoot: root,
        runId: id,
        chat: dear,
        prices: { [model]: { inputPerMTok: 1e6, cachedInputPerMTok: 1e6, outputPerMTok: 1e6 } },
        confirm: (c) => ((asked = c), Promise.resolve(false)),
        imageCacheDir: false,
      }),
      /would send 12 requests for the forecasts of 3 members and one control, at most 2 repairs each counted/,
    );
    assert.equal(asked?.requests, 4 * (1 + FORECAST_EXTRA_ATTEMPTS));
    assert.equal(dear.sent.length, 0);

    // Cancelled at the second forecast: the first is sealed, in forecast.json and run.json alike.
    const chat = fakeChat((n) => {
      if (n === 1) throw new CancelledError();
      return JSON.stringify({ ranking: ['A', 'B', 'C', 'D'] });
    });
    await assert.rejects(makeForecasts({ reviewRoot: root, runId: id, chat, imageCacheDir: false }), CancelledError);
    const half = await forecastOf(root, id);
    assert.deepEqual(
      half.forecasts.map((f) => [f.designer, f.ranking]),
      [['d1', ['A', 'B', 'C', 'D']]],
    );
    const { sha256, ...content } = half;
    assert.equal(createHash('sha256').update(JSON.stringify(content)).digest('hex'), sha256);
    assert.equal((await runJson(root, id)).forecastSha256, sha256);
    await assert.rejects(fs.stat(path.join(root, 'runs', id, FORECAST_LOCK)), 'the lock is released');

    rig.mock.enqueue('chat', ...[0, 1, 2].map(() => ({ kind: 'json' as const, value: { ranking: ['D', 'C', 'B', 'A'] } })));
    const rest = await tf('forecast', root, id);
    assert.equal(rest.code, 0, rest.stderr);
    assert.equal(rig.mock.requests.filter(isForecast).length, 3, 'Ben, Chloé and the control');
    const full = await forecastOf(root, id);
    assert.deepEqual(
      full.forecasts.map((f) => [f.designer, f.ranking]),
      [
        ['d1', ['A', 'B', 'C', 'D']],
        ['d2', ['D', 'C', 'B', 'A']],
        ['d3', ['D', 'C', 'B', 'A']],
        [null, ['D', 'C', 'B', 'A']],
      ],
    );
  });

  it("a brief run's control reads the revisions with neutral labels for the members' names and ids; a proxy reads them as written", async () => {
    const root = await makeBriefRunReview(3);
    const r = await tf('run', root, '--task', 'brief', '--iterations', '1', '--turns', '1', '--json');
    assert.equal(r.code, 0, r.stderr);
    const id = (await fs.readdir(path.join(root, 'runs')))[0]!;
    assert.equal((await tf('rerank', root, id, '--no-forecast')).code, 0);
    const a = path.join(root, 'runs', id, 'rerank', 'A.md');
    await fs.writeFile(a, `${await fs.readFile(a, 'utf8')}\nAs Ana asked (m2 agreed, Chloé did not), the tone stays calm.\n`);
    rig.mock.reset();
    rig.mock.enqueue('chat', ...[0, 1, 2, 3].map(() => ({ kind: 'json' as const, value: { prefer: 'A' } })));
    const made = await tf('forecast', root, id);
    assert.equal(made.code, 0, made.stderr);
    const sent = rig.mock.requests.filter(isForecast).map((q) => JSON.stringify(q.body));
    assert.equal(sent.length, 4);
    const control = sent[3]!;
    assert.doesNotMatch(control, /Ana|Ben|Chlo|\bm[123]\b|MARK-|role-playing/, 'the control carries no member');
    assert.match(control, /As Member 1 asked \(Member 2 agreed, Member 3 did not\)/);
    assert.match(sent[0]!, /As Ana asked \(m2 agreed, Chloé did not\)/);
  });

  it('neutral labels: whole names first, then their words and the ids, in one pass', () => {
    const members = [
      { id: 'ana', name: 'Ana Lopez' },
      { id: 'b2', name: 'Ben' },
    ];
    assert.equal(
      withNeutralNames('Ana Lopez and Lopez; ana, BEN and b2 — Banana stays; Member 1 stays.', members),
      'Member 1 and Member 1; Member 1, Member 2 and Member 2 — Banana stays; Member 1 stays.',
    );
    assert.equal(withNeutralNames('no one', []), 'no one');
  });
});
