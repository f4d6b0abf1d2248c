import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { clientFor, mockSuite } from '../run/helpers';
import { AnalysisFileSchema, BALES_CATEGORIES, codeDiscussion, MAX_ATTEMPTS, topChoiceOf } from '../../../src/core/analysis';
import { allMessages } from '../../../src/core/record/record';
import { estimateCost, BATCH_DISCOUNT } from '../../../src/core/llm/pricing';
import { RUN_ID, askedIds, categoryFor, codingSchemaOf, reviewWithRun, scriptedCoder } from './fixtures';

async function readAnalysis(root: string) {
  return AnalysisFileSchema.parse(JSON.parse(await fs.readFile(path.join(root, 'runs', RUN_ID, 'analysis.json'), 'utf8')));
}

const designers = [
  { id: 'd1', topChoice: ['1'] },
  { id: 'd2', topChoice: ['2'] },
  { id: 'd3', topChoice: ['3'] },
];

describe('code-discussion: Bales IPA coding of a run', function () {
  this.timeout(30_000);
  const suite = mockSuite({ checkSpec: false });

  it('gives every message exactly one category, the one the model answered, with its label, through strict schemas', async () => {
    const { root, record } = await reviewWithRun();
    scriptedCoder(suite.mock);
    const r = await codeDiscussion({ reviewRoot: root, runId: RUN_ID, client: clientFor(suite.mock), designers });
    assert.equal(r.state, 'coded');
    const a = await readAnalysis(root);
    const ids = allMessages(record).map((m) => m.message.id);
    assert.deepEqual(
      a.bales.map((b) => b.message),
      ids,
    );
    for (const b of a.bales) {
      assert.equal(b.category, categoryFor(b.message));
      assert.equal(b.label, BALES_CATEGORIES[b.category - 1]!.label);
    }
    assert.deepEqual(a.uncoded, []);
    assert.equal(a.model, 'gpt-4o-mini');
    assert.deepEqual(r.analysis, a);
    // byDesigner: speaker (guest included) → category number as a string → count.
    const expected: Record<string, Record<string, number>> = {};
    for (const { message } of allMessages(record)) {
      const row = (expected[message.speaker] ??= {});
      const k = String(categoryFor(message.id!));
      row[k] = (row[k] ?? 0) + 1;
    }
    assert.deepEqual(a.byDesigner, expected);
    assert.ok(a.byDesigner['guest-critic']);

    const chats = suite.mock.requests.filter((q) => q.route === 'chat');
    // Several messages per request: 11 messages in 2 rounds → 2 requests (at most 8 each, one round per request).
    assert.equal(chats.length, 2);
    assert.equal(a.requests, 2);
    const coded = chats.flatMap((q) => askedIds(q.body));
    assert.deepEqual([...coded].sort(), [...ids].sort() as string[]);
    for (const q of chats) {
      const s = codingSchemaOf(q.body)!;
      assert.equal(s.strict, true);
      assert.equal(s.schema.properties.codes.items.properties.category.type, 'integer');
      assert.deepEqual(s.schema.properties.codes.items.properties.category.enum, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
      assert.equal(s.schema.properties.codes.minItems, askedIds(q.body).length);
    }
    assert.deepEqual(suite.mock.specErrors(), []);
    // Usage and cost of the coding.
    assert.ok(a.usage.inputTokens > 0 && a.usage.outputTokens > 0);
    assert.equal(a.usage.costUsd, estimateCost(a.usage, { chatModel: 'gpt-4o-mini', imageModel: 'gpt-4o-mini' }));
    assert.match(a.prompt.system, /Interaction Process Analysis/);
    assert.equal(a.mode, 'direct');
  });

  it('shows each coded message with up to two messages before and after it from its round', async () => {
    const { root } = await reviewWithRun();
    scriptedCoder(suite.mock);
    await codeDiscussion({ reviewRoot: root, runId: RUN_ID, client: clientFor(suite.mock), perRequest: 1 });
    const chats = suite.mock.requests.filter((q) => q.route === 'chat');
    assert.equal(chats.length, 11);
    const third = chats.find((q) => askedIds(q.body)[0] === 'i1-m3')!;
    const user = (third.body as { messages: { role: string; content: string }[] }).messages[1]!.content;
    const shown = [...user.matchAll(/\[(i\d+-m\d+)\] (CODE|CONTEXT)/g)].map((m) => `${m[1]} ${m[2]}`);
    assert.deepEqual(shown, ['i1-m1 CONTEXT', 'i1-m2 CONTEXT', 'i1-m3 CODE', 'i1-m4 CONTEXT', 'i1-m5 CONTEXT']);
    const first = chats.find((q) => askedIds(q.body)[0] === 'i2-m1')!;
    const u2 = (first.body as { messages: { content: string }[] }).messages[1]!.content;
    assert.deepEqual(
      [...u2.matchAll(/\[(i\d+-m\d+)\]/g)].map((m) => m[1]),
      ['i2-m1', 'i2-m2', 'i2-m3'],
    );
  });

  it('a second call reuses the codes and sends nothing; --force codes again', async () => {
    const { root } = await reviewWithRun();
    scriptedCoder(suite.mock);
    await codeDiscussion({ reviewRoot: root, runId: RUN_ID, client: clientFor(suite.mock) });
    const before = await fs.readFile(path.join(root, 'runs', RUN_ID, 'analysis.json'), 'utf8');
    suite.mock.reset();
    const again = await codeDiscussion({
      reviewRoot: root,
      runId: RUN_ID,
      client: () => {
        throw new Error('no client should be needed');
      },
    });
    assert.equal(again.newRequests, 0);
    assert.equal(again.reused, 11);
    assert.equal(suite.mock.requests.length, 0);
    assert.equal(await fs.readFile(path.join(root, 'runs', RUN_ID, 'analysis.json'), 'utf8'), before);
    scriptedCoder(suite.mock);
    const forced = await codeDiscussion({ reviewRoot: root, runId: RUN_ID, client: clientFor(suite.mock), force: true });
    assert.equal(forced.newRequests, 2);
    assert.equal(suite.mock.requests.filter((q) => q.route === 'chat').length, 2);
  });

  it('invalid codes and skipped messages are retried with a repair, then listed as uncoded — never guessed', async () => {
    const { root } = await reviewWithRun();
    let round1Answers = 0;
    scriptedCoder(suite.mock, (ids) => {
      if (!ids.includes('i1-m1') && !ids.includes('i1-m2') && !ids.includes('i1-m4')) return undefined;
      round1Answers++;
      // First answer: i1-m1 out of the enum (14), i1-m2 skipped, an id that is not in the run, the rest valid.
      if (round1Answers === 1) {
        return {
          kind: 'json',
          value: {
            codes: [
              { message: 'i1-m1', category: 14 },
              { message: 'i9-m9', category: 3 },
              ...ids.filter((id) => id !== 'i1-m1' && id !== 'i1-m2').map((id) => ({ message: id, category: categoryFor(id) })),
            ],
          },
        };
      }
      // Repairs: i1-m1 gets a valid code; i1-m2 is coded twice with two different categories every time.
      return {
        kind: 'json',
        value: {
          codes: ids.flatMap((id) =>
            id === 'i1-m2'
              ? [
                  { message: id, category: 3 },
                  { message: id, category: 10 },
                ]
              : [{ message: id, category: categoryFor(id) }],
          ),
        },
      };
    });
    const r = await codeDiscussion({ reviewRoot: root, runId: RUN_ID, client: clientFor(suite.mock) });
    assert.equal(r.state, 'uncoded');
    const a = await readAnalysis(root);
    assert.deepEqual(a.uncoded, ['i1-m2']);
    assert.equal(
      a.bales.find((b) => b.message === 'i1-m2'),
      undefined,
    );
    assert.equal(a.bales.find((b) => b.message === 'i1-m1')?.category, categoryFor('i1-m1'));
    assert.equal(a.bales.length, 10);
    assert.equal(round1Answers, MAX_ATTEMPTS);
    const chats = suite.mock.requests.filter((q) => q.route === 'chat');
    // The repair asks only for what is missing and carries the problem back.
    const repair = chats.find((q) => askedIds(q.body).includes('i1-m1') && askedIds(q.body).length === 2)!;
    const msgs = (repair.body as { messages: { role: string; content: string }[] }).messages;
    assert.equal(msgs.at(-2)!.role, 'assistant');
    assert.match(msgs.at(-1)!.content, /category 14 given for i1-m1 is not a category number/);
    assert.match(msgs.at(-1)!.content, /"i9-m9" is not one of the messages asked for/);
    assert.deepEqual(suite.mock.specErrors(), []);
    // The next call retries only the uncoded message.
    suite.mock.reset();
    scriptedCoder(suite.mock);
    const again = await codeDiscussion({ reviewRoot: root, runId: RUN_ID, client: clientFor(suite.mock) });
    assert.equal(again.state, 'coded');
    assert.deepEqual(
      suite.mock.requests.filter((q) => q.route === 'chat').flatMap((q) => askedIds(q.body)),
      ['i1-m2'],
    );
  });

  it('an unknown run id or a review without that run: an error in words, nothing written, no request', async () => {
    const { root } = await reviewWithRun();
    await assert.rejects(
      codeDiscussion({ reviewRoot: root, runId: '2026-01-01T00-00-00Z-aaaa', client: clientFor(suite.mock) }),
      /no run "2026-01-01T00-00-00Z-aaaa"/,
    );
    await assert.rejects(codeDiscussion({ reviewRoot: root, runId: 'not-a-run', client: clientFor(suite.mock) }), /not a run id/);
    assert.deepEqual((await fs.readdir(path.join(root, 'runs'))).sort(), [RUN_ID]);
    assert.deepEqual(await fs.readdir(path.join(root, 'runs', RUN_ID)), ['run.json']);
    assert.equal(suite.mock.requests.length, 0);
  });

  it('a record whose stance report names a non-candidate is refused with run.json:line:col, before any request', async () => {
    const { root } = await reviewWithRun();
    const file = path.join(root, 'runs', RUN_ID, 'run.json');
    await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace('"d3": null', '"d3": "9"'));
    await assert.rejects(
      codeDiscussion({ reviewRoot: root, runId: RUN_ID, client: clientFor(suite.mock) }),
      /runs\/2026-11-21T22-40-05Z-3f9c\/run\.json:\d+:\d+: error: What "d3"'s proxy backed, "9", is not a candidate of iteration 2\./,
    );
    assert.equal(suite.mock.requests.length, 0);
  });

  it('a run that is still running is coded as far as it is on disk, and says so', async () => {
    const { root } = await reviewWithRun({ status: 'running' });
    scriptedCoder(suite.mock);
    const r = await codeDiscussion({ reviewRoot: root, runId: RUN_ID, client: clientFor(suite.mock) });
    assert.equal(r.analysis.runStatus, 'running');
    assert.equal(r.analysis.bales.length, 11);
    assert.match(r.notes.join(' '), /still running/);
  });

  it('the stance table matches the record: top choice, backed per round, moved at which message, kept or yielded', async () => {
    const { root, record } = await reviewWithRun();
    scriptedCoder(suite.mock);
    const r = await codeDiscussion({ reviewRoot: root, runId: RUN_ID, client: clientFor(suite.mock), designers });
    const t = r.analysis.stance!;
    const row = (id: string) => t.rows.find((x) => x.designer === id)!;
    // d1: top "1", backed 1, 1 → kept, never moved.
    assert.deepEqual(row('d1'), {
      designer: 'd1',
      topChoice: ['1'],
      backed: [
        { iteration: 1, candidate: '1' },
        { iteration: 2, candidate: '1' },
      ],
      moved: false,
      outcome: 'kept',
      last: '1',
    });
    // d2: top "2", backed 1 from round 1 → yielded to 1; moved at d2's last message of round 1.
    const d2Last = record.iterations[0]!.messages.filter((m) => m.speaker === 'd2').at(-1)!.id;
    assert.deepEqual(row('d2').movedAt, { iteration: 1, message: d2Last });
    assert.equal(row('d2').outcome, 'yielded');
    assert.equal(row('d2').last, '1');
    // d3: top "3", backed 3 then none → yielded (to nothing), moved in round 2.
    assert.equal(row('d3').outcome, 'yielded');
    assert.equal(row('d3').last, null);
    assert.equal(row('d3').movedAt?.iteration, 2);
    assert.deepEqual([t.kept, t.yielded, t.unknown], [1, 2, 0]);
    assert.deepEqual(t.yieldedTo, { '1': ['d2'], none: ['d3'] });
  });

  it('a run without stance reports is "unknown", not kept or yielded; ties at rank 1 all count as the top choice', async () => {
    const { root } = await reviewWithRun({ backed: false });
    scriptedCoder(suite.mock);
    const r = await codeDiscussion({ reviewRoot: root, runId: RUN_ID, client: clientFor(suite.mock), designers });
    assert.deepEqual([r.analysis.stance!.kept, r.analysis.stance!.yielded, r.analysis.stance!.unknown], [0, 0, 3]);
    assert.deepEqual(
      topChoiceOf([
        { option: 'a', rank: 2 },
        { option: 'b', rank: 1 },
        { option: 'c', rank: 1 },
      ]),
      ['b', 'c'],
    );
  });

  describe('--batch: the Batch API (files + batches)', () => {
    it('gives the same codes through an uploaded JSONL and a batch that is pending on the first polls, at half the price', async () => {
      const direct = await reviewWithRun();
      scriptedCoder(suite.mock);
      await codeDiscussion({ reviewRoot: direct.root, runId: RUN_ID, client: clientFor(suite.mock) });
      const directAnalysis = await readAnalysis(direct.root);

      suite.mock.reset();
      suite.mock.batch.settings.pendingPolls = 3;
      scriptedCoder(suite.mock);
      const { root } = await reviewWithRun();
      const r = await codeDiscussion({
        reviewRoot: root,
        runId: RUN_ID,
        client: clientFor(suite.mock),
        batch: true,
        pollIntervalMs: 5,
        maxWaitMs: 5_000,
      });
      suite.mock.batch.settings.pendingPolls = 0;
      assert.equal(r.state, 'coded');
      const a = await readAnalysis(root);
      assert.deepEqual(a.bales, directAnalysis.bales);
      assert.deepEqual(a.byDesigner, directAnalysis.byDesigner);
      assert.equal(a.mode, 'batch');
      assert.equal(a.batch, undefined);
      // Through files + batches only: one upload, one create, 4 retrievals (3 pending), one download; no chat request.
      const seen = suite.mock.requests.map((q) => `${q.method} ${q.path.replace(/(file-mock|batch_mock)\d+/, '$1N')}`);
      assert.deepEqual(seen, [
        'POST /v1/files',
        'POST /v1/batches',
        'GET /v1/batches/batch_mockN',
        'GET /v1/batches/batch_mockN',
        'GET /v1/batches/batch_mockN',
        'GET /v1/batches/batch_mockN',
        'GET /v1/files/file-mockN/content',
      ]);
      assert.equal(suite.mock.requests[0]!.files[0]!.filename.endsWith('.jsonl'), true);
      assert.equal((suite.mock.requests[0]!.body as { purpose: string }).purpose, 'batch');
      assert.deepEqual(suite.mock.requests[1]!.body, {
        input_file_id: 'file-mock1',
        endpoint: '/v1/chat/completions',
        completion_window: '24h',
        metadata: { teamfusion: 'code-discussion', run: RUN_ID },
      });
      assert.deepEqual(suite.mock.specErrors(), []);
      // Same tokens, half the price.
      assert.ok(a.usage.costUsd! > 0);
      assert.ok(a.usage.costUsd! < directAnalysis.usage.costUsd!);
      assert.equal(
        a.usage.costUsd,
        estimateCost(a.usage, { chatModel: 'gpt-4o-mini', imageModel: 'gpt-4o-mini' }, undefined, { batch: true }),
      );
      assert.equal(BATCH_DISCOUNT, 0.5);
    });

    it('a batch still pending when waiting stops is saved as batch.id; the next call resumes it instead of creating another', async () => {
      const { root } = await reviewWithRun();
      suite.mock.batch.settings.pendingPolls = 4;
      scriptedCoder(suite.mock);
      const first = await codeDiscussion({
        reviewRoot: root,
        runId: RUN_ID,
        client: clientFor(suite.mock),
        batch: true,
        pollIntervalMs: 5,
        maxWaitMs: 0,
      });
      assert.equal(first.state, 'pending');
      assert.match(first.notes.join(' '), /batch_mock\d+ is still (validating|in_progress)/);
      const saved = await readAnalysis(root);
      assert.match(saved.batch!.id, /^batch_mock\d+$/);
      assert.equal(saved.bales.length, 0);
      const creates = () => suite.mock.requests.filter((q) => q.method === 'POST' && q.path === '/v1/batches').length;
      assert.equal(creates(), 1);

      const second = await codeDiscussion({
        reviewRoot: root,
        runId: RUN_ID,
        client: clientFor(suite.mock),
        pollIntervalMs: 5,
        maxWaitMs: 5_000,
      });
      suite.mock.batch.settings.pendingPolls = 0;
      assert.equal(second.state, 'coded');
      assert.equal(creates(), 1);
      const a = await readAnalysis(root);
      assert.equal(a.batch, undefined);
      assert.equal(a.bales.length, 11);
      for (const b of a.bales) assert.equal(b.category, categoryFor(b.message));
    });

    it('a saved batch the endpoint does not know (404) is reported and forgotten; the next call sends its messages again', async () => {
      const { root } = await reviewWithRun();
      suite.mock.batch.settings.pendingPolls = 5;
      scriptedCoder(suite.mock);
      const first = await codeDiscussion({
        reviewRoot: root,
        runId: RUN_ID,
        client: clientFor(suite.mock),
        batch: true,
        pollIntervalMs: 5,
        maxWaitMs: 0,
      });
      assert.equal(first.state, 'pending');
      suite.mock.reset(); // the endpoint forgets every batch
      suite.mock.batch.settings.pendingPolls = 0;
      scriptedCoder(suite.mock);
      const second = await codeDiscussion({
        reviewRoot: root,
        runId: RUN_ID,
        client: clientFor(suite.mock),
        pollIntervalMs: 5,
        maxWaitMs: 5_000,
      });
      assert.equal(second.state, 'batch-problem');
      assert.match(second.notes.join(' '), /does not know the batch batch_mock\d+ \(404\)/);
      assert.equal((await readAnalysis(root)).batch, undefined);
      const third = await codeDiscussion({
        reviewRoot: root,
        runId: RUN_ID,
        client: clientFor(suite.mock),
        pollIntervalMs: 5,
        maxWaitMs: 5_000,
      });
      assert.equal(third.state, 'coded');
      assert.equal((await readAnalysis(root)).bales.length, 11);
    });

    it('--force over a pending batch cancels that batch and codes again', async () => {
      const { root } = await reviewWithRun();
      suite.mock.batch.settings.pendingPolls = 5;
      scriptedCoder(suite.mock);
      const first = await codeDiscussion({
        reviewRoot: root,
        runId: RUN_ID,
        client: clientFor(suite.mock),
        batch: true,
        pollIntervalMs: 5,
        maxWaitMs: 0,
      });
      suite.mock.batch.settings.pendingPolls = 0;
      const id = first.analysis.batch!.id;
      const forced = await codeDiscussion({ reviewRoot: root, runId: RUN_ID, client: clientFor(suite.mock), force: true });
      assert.equal(forced.state, 'coded');
      assert.ok(suite.mock.requests.some((q) => q.method === 'POST' && q.path === `/v1/batches/${id}/cancel`));
      assert.match(forced.notes.join(' '), new RegExp(`earlier batch ${id} was cancelled`));
      assert.equal((await readAnalysis(root)).batch, undefined);
      assert.deepEqual(suite.mock.specErrors(), []);
    });

    it('an expired batch is reported in words, keeps what it coded, and the rest can be sent again', async () => {
      const { root } = await reviewWithRun();
      suite.mock.batch.settings.outcome = 'expired';
      suite.mock.batch.settings.answeredBeforeExpiry = 1;
      scriptedCoder(suite.mock);
      const r = await codeDiscussion({
        reviewRoot: root,
        runId: RUN_ID,
        client: clientFor(suite.mock),
        batch: true,
        pollIntervalMs: 5,
        maxWaitMs: 5_000,
      });
      suite.mock.batch.settings.outcome = 'completed';
      assert.equal(r.state, 'batch-problem');
      assert.match(r.notes.join(' '), /expired.*5 of its messages are not coded.*again/);
      const a = await readAnalysis(root);
      assert.equal(a.bales.length, 6);
      assert.equal(a.batch, undefined);
      const again = await codeDiscussion({
        reviewRoot: root,
        runId: RUN_ID,
        client: clientFor(suite.mock),
        batch: true,
        pollIntervalMs: 5,
        maxWaitMs: 5_000,
      });
      assert.equal(again.state, 'coded');
      assert.equal(again.reused, 6);
      assert.equal((await readAnalysis(root)).bales.length, 11);
    });
  });
});
