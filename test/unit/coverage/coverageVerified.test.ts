import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { briefFallback } from '../../support/openaiMock';
import { requestedJsonSchema, requestTexts } from '../../support/openaiMock/autoResponder';
import { briefRemixValue } from '../../support/openaiMock/briefAnswers';
import type { MockReply, RecordedRequest } from '../../support/openaiMock/types';
import { foldForQuote, markVerified, quoteFound } from '../../../src/core/coverage/verify';
import { startRun } from '../../../src/core/run/session';
import { makeBriefRunReview } from '../run/fixtures';
import { clientFor, collect, mockSuite } from '../run/helpers';

/** Brief answers scripted per request: the k-th `teamfusion_brief` request gets answers[k] (built from the request); the rest as usual. */
function scriptedBrief(answers: ((req: RecordedRequest) => Record<string, unknown>)[]) {
  let k = 0;
  const usual = briefFallback();
  return (req: RecordedRequest): MockReply | undefined => {
    if (requestedJsonSchema(req.body)?.name === 'teamfusion_brief') {
      const make = answers[Math.min(k++, answers.length - 1)]!;
      return { kind: 'json', value: make(req) };
    }
    return usual(req);
  };
}

const briefRequests = (mock: { requests: RecordedRequest[] }) =>
  mock.requests.filter((r) => requestedJsonSchema(r.body)?.name === 'teamfusion_brief');

describe('coverage you can verify: quotes checked against the revised brief, one bounded repair, nobody a silent blank', function () {
  this.timeout(60_000);
  const suite = mockSuite();

  it('a quote is found after folding whitespace, case, quotation marks and emphasis; anything else is not', () => {
    const brief = '## Tone: **Calm**\n\nThe  “quiet”  confidence of\nmorning light.';
    assert.ok(quoteFound('tone: calm', brief));
    assert.ok(quoteFound('"the "quiet" confidence of morning light"', brief));
    assert.ok(!quoteFound('loud confidence', brief));
    assert.ok(!quoteFound('   ', brief));
    assert.equal(foldForQuote('A\u00a0 B\n’C’'), "a b 'c'");
    assert.deepEqual(
      markVerified(
        [
          { designer: 'a', point: 'p1', status: 'kept', quote: 'TONE:  calm' },
          { designer: 'a', point: 'p2', status: 'changed', quote: 'Tone: loud' },
          { designer: 'a', point: 'p3', status: 'kept' },
          { designer: 'b', point: 'p4', status: 'left-out' },
        ],
        brief,
      ),
      [
        { designer: 'a', point: 'p1', status: 'kept', quote: 'TONE:  calm', verified: true },
        { designer: 'a', point: 'p2', status: 'changed', quote: 'Tone: loud', verified: false },
        { designer: 'a', point: 'p3', status: 'kept', verified: false },
        { designer: 'b', point: 'p4', status: 'left-out' },
      ],
    );
  });

  it('an empty coverage triggers exactly one repair request; still empty, every member is "the agent reported nothing for <name>" in result.md and the log', async () => {
    suite.mock.setFallback(scriptedBrief([(req) => ({ ...briefRemixValue(req), coverage: [] })]));
    const root = await makeBriefRunReview(2);
    const { events, onEvent } = collect();
    const log: string[] = [];
    const record = await startRun({
      reviewRoot: root,
      client: clientFor(suite.mock),
      onEvent,
      log: (l) => log.push(l),
      cacheDir: suite.cacheDir,
      settings: { orderSeed: 0, iterations: 1, turnsPerAgent: 1, forks: 'off' },
    });
    assert.equal(record.status, 'completed', record.error);

    const asked = briefRequests(suite.mock);
    assert.equal(asked.length, 2, 'the first answer and one repair, no more');
    const repair = requestTexts(asked[1]!.body).at(-1)!;
    assert.match(repair, /Your coverage needs one correction: .*there is none for m1, m2\./);
    assert.deepEqual(
      record.prompts.filter((p) => p.kind === 'remix' || p.kind === 'remix-repair').map((p) => p.kind),
      ['remix', 'remix-repair'],
    );
    assert.deepEqual(record.iterations[0]!.brief!.coverage, []);

    const result = await fs.readFile(path.join(root, 'runs', record.id, 'result.md'), 'utf8');
    assert.match(result, /### Ana\n\nNo coverage: the agent reported nothing for Ana\./);
    assert.match(result, /### Ben\n\nNo coverage: the agent reported nothing for Ben\./);
    assert.doesNotMatch(result, /No points reported/);
    assert.ok(
      log.some((l) => /Round 1: the agent reported nothing for Ana\./.test(l)),
      log.join('\n'),
    );
    const notices = events.filter((e) => e.type === 'notice').map((e) => (e as { message: string }).message);
    assert.ok(
      notices.some((m) => m.includes('the agent reported nothing for Ben')),
      notices.join('\n'),
    );
  });

  it('a quote not in the revised brief is verified: false when the repair does not fix it, and verified: true when it does', async () => {
    const badQuote = (req: RecordedRequest) => {
      const v = briefRemixValue(req);
      (v.coverage as { quote?: string | null; designer: string; status: string }[]).forEach((c) => {
        if (c.designer === 'm1' && c.status === 'changed') c.quote = 'Tone: loud and proud';
      });
      return v;
    };
    suite.mock.setFallback(scriptedBrief([badQuote, badQuote]));
    const root = await makeBriefRunReview(2);
    const kept = await startRun({
      reviewRoot: root,
      client: clientFor(suite.mock),
      cacheDir: suite.cacheDir,
      settings: { orderSeed: 0, iterations: 1, turnsPerAgent: 1, forks: 'off' },
    });
    assert.equal(kept.status, 'completed', kept.error);
    assert.equal(briefRequests(suite.mock).length, 2);
    assert.match(requestTexts(briefRequests(suite.mock)[1]!.body).at(-1)!, /m1: "m1's point on tone" \(quote "Tone: loud and proud"\)/);
    const cov = kept.iterations[0]!.brief!.coverage;
    assert.deepEqual(
      cov.find((c) => c.designer === 'm1' && c.status === 'changed'),
      { designer: 'm1', point: "m1's point on tone", status: 'changed', quote: 'Tone: loud and proud', verified: false },
    );
    assert.ok(cov.filter((c) => c !== cov.find((x) => x.quote === 'Tone: loud and proud')).every((c) => c.verified === true));
    const result = await fs.readFile(path.join(root, 'runs', kept.id, 'result.md'), 'utf8');
    assert.match(result, /\| m1's point on tone \| changed \| "Tone: loud and proud" \(not found in the revised brief\) \|/);

    suite.mock.reset();
    suite.mock.setFallback(scriptedBrief([badQuote, (req) => briefRemixValue(req)]));
    const root2 = await makeBriefRunReview(2);
    const fixed = await startRun({
      reviewRoot: root2,
      client: clientFor(suite.mock),
      cacheDir: suite.cacheDir,
      settings: { orderSeed: 0, iterations: 1, turnsPerAgent: 1, forks: 'off' },
    });
    assert.equal(briefRequests(suite.mock).length, 2);
    assert.ok(fixed.iterations[0]!.brief!.coverage.every((c) => c.verified === true));
  });

  it('verified quotes and every member reported: no repair is asked', async () => {
    suite.mock.setFallback(briefFallback({ leftOut: ['m2'] }));
    const root = await makeBriefRunReview(2);
    const record = await startRun({
      reviewRoot: root,
      client: clientFor(suite.mock),
      cacheDir: suite.cacheDir,
      settings: { orderSeed: 0, iterations: 1, turnsPerAgent: 1, forks: 'off' },
    });
    assert.equal(briefRequests(suite.mock).length, 1);
    assert.deepEqual(
      record.iterations[0]!.brief!.coverage.find((c) => c.designer === 'm2'),
      { designer: 'm2', point: "m2's point on the audience", status: 'left-out' },
    );
  });
});
