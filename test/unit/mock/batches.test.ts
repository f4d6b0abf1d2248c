import { strict as assert } from 'node:assert';
import { toFile } from 'openai';
import { MockOpenAI } from '../../support/openaiMock';
import { loadSpecValidator } from '../../support/openaiMock/specValidator';
import { client } from './helpers';

const line = (customId: string, body: unknown) =>
  JSON.stringify({ custom_id: customId, method: 'POST', url: '/v1/chat/completions', body });
const chatBody = (text: string) => ({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: text }] });

describe('mock server: Files and Batch API', function () {
  this.timeout(20_000);
  let mock: MockOpenAI;
  before(async () => {
    mock = await MockOpenAI.start({ batch: { pendingPolls: 2 } });
  });
  beforeEach(() => mock.reset());
  after(async () => mock.close());

  it('uploads a JSONL file, runs a batch that stays pending for the configured polls, and answers each line like the chat route', async () => {
    const c = client(mock.baseURL);
    mock.enqueue('chat', { kind: 'chat', content: 'first answer' });
    const file = await c.files.create({
      file: await toFile(Buffer.from(`${line('a', chatBody('one'))}\n${line('b', chatBody('two'))}\n`), 'in.jsonl'),
      purpose: 'batch',
    });
    assert.equal(file.object, 'file');
    assert.equal(file.purpose, 'batch');
    assert.equal((await c.files.retrieve(file.id)).bytes, file.bytes);
    const created = await c.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    assert.equal(created.status, 'validating');
    assert.deepEqual(created.request_counts, { total: 2, completed: 0, failed: 0 });
    assert.equal((await c.batches.retrieve(created.id)).status, 'validating');
    assert.equal((await c.batches.retrieve(created.id)).status, 'in_progress');
    const done = await c.batches.retrieve(created.id);
    assert.equal(done.status, 'completed');
    assert.deepEqual(done.request_counts, { total: 2, completed: 2, failed: 0 });
    const out = (await (await c.files.content(done.output_file_id!)).text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      out.map((o) => o.custom_id),
      ['a', 'b'],
    );
    assert.equal(out[0].response.status_code, 200);
    assert.equal(out[0].response.body.object, 'chat.completion');
    assert.equal(out[0].response.body.choices[0].message.content, 'first answer');
    assert.ok(out[1].response.body.usage.prompt_tokens > 0);
    assert.deepEqual(mock.specErrors(), []);
  });

  it('checks requests against the spec: an unknown purpose is refused; a bad input line fails the batch and is a spec error', async () => {
    const c = client(mock.baseURL);
    await assert.rejects(
      c.files.create({ file: await toFile(Buffer.from('{}\n'), 'x.jsonl'), purpose: 'nonsense' as 'batch' }),
      (err: { status?: number }) => err.status === 400,
    );
    assert.match(mock.specErrors().join('\n'), /POST \/v1\/files: body\/purpose must be equal to one of the allowed values/);
    mock.reset();
    const file = await c.files.create({
      file: await toFile(Buffer.from(`${line('a', { model: 'gpt-4o-mini', messages: 'not a list' })}\n`), 'bad.jsonl'),
      purpose: 'batch',
    });
    const b = await c.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    const failed = await c.batches.retrieve(b.id);
    assert.equal(failed.status, 'failed');
    assert.match(failed.errors!.data![0]!.message!, /bad\.jsonl line 1: body\/messages must be array/);
    assert.match(mock.specErrors().join('\n'), /batch input bad\.jsonl line 1/);
    mock.reset();
    await assert.rejects(
      c.batches.create({ input_file_id: 'file-x', endpoint: '/v1/chat/completions', completion_window: '1h' as '24h' }),
      (err: { status?: number }) => err.status === 400,
    );
    assert.match(mock.specErrors().join('\n'), /completion_window must be equal to one of the allowed values/);
  });

  it('cancels a pending batch and validates files and batches from the official spec', async () => {
    const c = client(mock.baseURL);
    const file = await c.files.create({ file: await toFile(Buffer.from(`${line('a', chatBody('x'))}\n`), 'in.jsonl'), purpose: 'batch' });
    const b = await c.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    assert.equal((await c.batches.cancel(b.id)).status, 'cancelling');
    assert.equal((await c.batches.retrieve(b.id)).status, 'cancelled');
    await assert.rejects(c.batches.retrieve('batch_nope'), (err: { status?: number }) => err.status === 404);
    const v = loadSpecValidator();
    assert.equal(v.schemaNames.file, 'CreateFileRequest');
    assert.equal(v.schemaNames.batch, 'CreateBatchRequest');
    assert.deepEqual(mock.specErrors(), []);
  });
});
