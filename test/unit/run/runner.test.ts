import { strict as assert } from 'node:assert';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { RunRecordSchema } from '../../../src/core/record/record';
import { listRuns, readRunRecord, refineRun, resumeRun, startRun } from '../../../src/core/run/session';
import { RUN_ID_PATTERN } from '../../../src/core/record/paths';
import { makeReview, makeTempDir } from './fixtures';
import { TEST_KEY, chatRequests, collect, turnRequests, mockSuite, UNPOOLED } from './helpers';

async function allFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await allFiles(p)));
    else out.push(p);
  }
  return out;
}

describe('run engine: a full run against the mock', function () {
  this.timeout(60_000);
  const suite = mockSuite();

  it('completes 3 iterations: 6 → top 3 + r1 → top 2 + r2 → final pick, with files as in the contract', async () => {
    const root = await makeReview({ options: 6, designers: 4, jpegEvery: 3 });
    const { events, onEvent } = collect();
    const record = await startRun({ reviewRoot: root, ...suite.engine, onEvent, settings: { ...UNPOOLED, orderSeed: 0 } });

    assert.equal(record.status, 'completed', record.error);
    assert.match(record.id, RUN_ID_PATTERN);
    assert.equal(record.iterations.length, 3);
    const [i1, i2, i3] = record.iterations;
    assert.deepEqual(i1!.candidates, ['1', '2', '3', '4', '5', '6']);
    assert.equal(i1!.messages.length, 8);
    assert.equal(i1!.ranking!.length, 3);
    assert.deepEqual(i2!.candidates, [...i1!.ranking!, 'r1']);
    assert.equal(i2!.ranking!.length, 2);
    assert.deepEqual(i3!.candidates, [...i2!.ranking!, 'r2']);
    assert.equal(i3!.final, true);
    assert.equal(i3!.remix, undefined);
    assert.ok(i3!.candidates.includes(record.finalPick!));
    // the default: independent first assessments, then round-robin; the order rotates by one each round (seed 0: no offset)
    assert.deepEqual(
      i1!.messages.map((m) => `${m.speaker}/${m.turn}/${m.phase}`),
      [
        'd1/1/independent',
        'd2/1/independent',
        'd3/1/independent',
        'd4/1/independent',
        'd1/2/together',
        'd2/2/together',
        'd3/2/together',
        'd4/2/together',
      ],
    );
    assert.deepEqual(
      i2!.messages.filter((m) => m.turn === 2).map((m) => m.speaker),
      ['d2', 'd3', 'd4', 'd1'],
    );
    assert.equal(record.settings.mode, 'separate-then-together');
    assert.equal(record.settings.order, 'rotate');
    assert.equal(record.settings.orderSeed, 0);
    // remix labels continue after the options
    assert.deepEqual(record.options.slice(6), [
      { id: 'r1', label: 'Image 7', file: `runs/${record.id}/iteration-1/remix.png` },
      { id: 'r2', label: 'Image 8', file: `runs/${record.id}/iteration-2/remix.png` },
    ]);

    const dir = path.join(root, 'runs', record.id);
    for (const f of ['run.json', 'transcript.md', 'result.md', 'iteration-1/remix.png', 'iteration-2/remix.png']) {
      await fs.access(path.join(dir, f));
    }
    const png = await fs.readFile(path.join(dir, 'iteration-1/remix.png'));
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
    const onDisk = RunRecordSchema.parse(JSON.parse(await fs.readFile(path.join(dir, 'run.json'), 'utf8')));
    assert.equal(onDisk.status, 'completed');
    assert.deepEqual(await readRunRecord(root, record.id), onDisk);
    assert.equal((await listRuns(root))[0]!.id, record.id);

    // usage and prompts
    assert.ok(record.usage.inputTokens > 0 && record.usage.outputTokens > 0);
    // The stable prefix is reported back as cached by the server and summed as such.
    assert.ok(record.usage.cachedInputTokens > 0 && record.usage.cachedInputTokens <= record.usage.inputTokens);
    assert.equal(record.usage.images, 2);
    assert.equal(typeof record.usage.costUsd, 'number');
    assert.equal(record.prompts.filter((p) => p.kind === 'proxy-turn').length, 24);
    assert.equal(record.prompts.filter((p) => p.kind === 'image-edit').length, 2);
    assert.equal(turnRequests(suite.mock).length, 24);

    // streaming events
    assert.ok(events.filter((e) => e.type === 'turn-delta').length >= 24);
    assert.equal(events.filter((e) => e.type === 'turn-completed').length, 24);
    assert.equal(events.at(-1)!.type, 'run-finished');

    const result = await fs.readFile(path.join(dir, 'result.md'), 'utf8');
    assert.match(result, /## Final pick/);
    assert.match(result, /iteration-1\/remix\.png/);
    assert.match(result, /\.\.\/\.\.\/options\/\d\.(png|jpg)/);
    assert.match(result, /Kendall's W = \d\.\d\d \(\w/);
    const transcript = await fs.readFile(path.join(dir, 'transcript.md'), 'utf8');
    assert.match(transcript, /## Iteration 3 \(final pick\)/);
    assert.match(transcript, /\*\*Ana\*\* \(turn 2\) · i\d+-m\d+: /);

    // image edits: the top candidates as files with their real MIME type, best first, an explicit model
    const edits = suite.mock.requests.filter((r) => r.route === 'edit');
    assert.equal(edits.length, 2);
    assert.deepEqual(
      edits[0]!.files.map((f) => f.filename),
      i1!.ranking!.map((id) => (Number(id) % 3 === 0 ? `${id}.jpg` : `${id}.png`)),
    );
    for (const f of edits[0]!.files) assert.equal(f.contentType, f.filename.endsWith('.jpg') ? 'image/jpeg' : 'image/png');
    assert.equal((edits[0]!.body as { model: string }).model, 'gpt-image-1');
    // (multipart form fields carry line breaks as CRLF)
    assert.equal((edits[0]!.body as { prompt: string }).prompt.replace(/\r\n/g, '\n'), i1!.editingDirections);
    assert.deepEqual(
      edits[1]!.files.map((f) => f.filename).slice(0, 2),
      i2!.ranking!.map((id) => (id === 'r1' ? 'remix.png' : Number(id) % 3 === 0 ? `${id}.jpg` : `${id}.png`)),
    );

    // no secret anywhere, and every request is valid against the official spec
    for (const f of await allFiles(dir)) assert.ok(!(await fs.readFile(f)).includes(TEST_KEY), `${f} holds the key`);
    assert.deepEqual(suite.mock.specErrors(), []);
  });

  it('runs the sample review (samples/lumen-perfume, copied) to completion without process warnings', async function () {
    const sample = path.resolve(__dirname, '../../../../samples/lumen-perfume');
    if (!existsSync(path.join(sample, 'brief.md'))) this.skip();
    const root = path.join(await makeTempDir('tf-sample-'), 'lumen-perfume');
    await fs.cp(sample, root, { recursive: true, filter: (src) => !src.includes(`${path.sep}runs`) });
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(w.message);
    process.on('warning', onWarning);
    const controller = new AbortController();
    try {
      // The sample as a new run makes it (issue 41: a pool and the checklist), which asks before sending (yes here).
      const r = await startRun({ reviewRoot: root, ...suite.engine, signal: controller.signal, confirm: async () => true });
      assert.equal(r.status, 'completed', r.error);
      assert.equal(r.iterations.length, 3);
      assert.equal(r.prompts.filter((p) => p.kind === 'proxy-turn').length, 3 * 2 * 4);
      assert.equal(typeof r.kendallW, 'number');
    } finally {
      process.off('warning', onWarning);
    }
    assert.deepEqual(warnings, [], 'no MaxListenersExceededWarning from a long-lived abort signal');
  });

  it('sends every call of a discussion the same prefix (system, brief + images) before anything speaker-specific', async () => {
    const root = await makeReview({ options: 4, designers: 3 });
    const record = await startRun({ reviewRoot: root, ...suite.engine, settings: { ...UNPOOLED, iterations: 1 } });
    assert.equal(record.status, 'completed', record.error);
    const calls = chatRequests(suite.mock).map((r) => (r.body as { messages: unknown[] }).messages);
    assert.equal(calls.length, 3 * 2 + 1);
    const first = JSON.stringify(calls[0]!.slice(0, 2));
    for (const c of calls) assert.equal(JSON.stringify(c.slice(0, 2)), first);
    // call k+1 repeats call k up to its last (persona) message
    for (let k = 0; k + 1 < calls.length; k++) {
      const prev = calls[k]!;
      assert.equal(JSON.stringify(calls[k + 1]!.slice(0, prev.length - 1)), JSON.stringify(prev.slice(0, -1)));
    }
    // images: labels precede image parts, the same data URL every time
    const user = calls[0]![1] as { content: { type: string; text?: string }[] };
    const labels = user.content.filter((p) => p.type === 'text').map((p) => p.text);
    assert.ok(labels.includes('Image 1') && labels.includes('Image 4'));
    assert.equal(user.content.filter((p) => p.type === 'image_url').length, 4);
  });

  it("json_schema enums are exactly the current candidates' ids, strict", async () => {
    const root = await makeReview({ options: 6, designers: 2 });
    const record = await startRun({ reviewRoot: root, ...suite.engine, settings: { ...UNPOOLED, turnsPerAgent: 1 } });
    assert.equal(record.status, 'completed', record.error);
    const remixCalls = chatRequests(suite.mock).filter((r) => (r.body as { response_format?: unknown }).response_format);
    assert.equal(remixCalls.length, 3);
    remixCalls.forEach((r, i) => {
      const rf = (
        r.body as {
          response_format: {
            type: string;
            json_schema: {
              strict: boolean;
              schema: { additionalProperties: boolean; required: string[]; properties: Record<string, { items: { enum: string[] } }> };
            };
          };
        }
      ).response_format;
      assert.equal(rf.type, 'json_schema');
      assert.equal(rf.json_schema.strict, true);
      assert.equal(rf.json_schema.schema.additionalProperties, false);
      assert.deepEqual([...rf.json_schema.schema.required].sort(), Object.keys(rf.json_schema.schema.properties).sort());
      assert.deepEqual(rf.json_schema.schema.properties.ranking!.items.enum, record.iterations[i]!.candidates);
    });
  });

  it('gives a remix an id of its own when an option is already called "r1"', async () => {
    const root = await makeReview({ options: 6, designers: 2 });
    await fs.rename(path.join(root, 'options', '6.png'), path.join(root, 'options', 'r1.png'));
    for (const f of await fs.readdir(path.join(root, 'rankings'))) {
      const file = path.join(root, 'rankings', f);
      await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace(/option: "6"/g, 'option: "r1"'));
    }
    const record = await startRun({ reviewRoot: root, ...suite.engine, settings: { ...UNPOOLED, turnsPerAgent: 1 } });
    assert.equal(record.status, 'completed', record.error);
    const ids = record.options.map((o) => o.id);
    assert.equal(new Set(ids).size, ids.length, `option ids are unique: ${ids.join(', ')}`);
    assert.equal(record.options.find((o) => o.id === 'r1')!.file, 'options/r1.png');
    assert.equal(record.iterations[0]!.remix!.id, 'remix-1');
    assert.ok(record.iterations[1]!.candidates.includes('remix-1'));
    // No temporary file of the atomic writes is left behind.
    const left = (await allFiles(path.join(root, 'runs'))).filter((f) => f.endsWith('.tmp'));
    assert.deepEqual(left, []);
  });

  it("refineRun adds a remix round with the lead's feedback and a new final pick", async () => {
    const root = await makeReview({ options: 4, designers: 2 });
    const first = await startRun({ reviewRoot: root, ...suite.engine, settings: { ...UNPOOLED, turnsPerAgent: 1, iterations: 2 } });
    assert.equal(first.status, 'completed', first.error);
    const refined = await refineRun({ reviewRoot: root, ...suite.engine, runId: first.id, feedback: 'Warmer colours, please.' });
    assert.equal(refined.status, 'completed', refined.error);
    assert.equal(refined.iterations.length, 4);
    const [, , r3, r4] = refined.iterations;
    assert.deepEqual(r3!.candidates, first.iterations[1]!.ranking!.slice(0, 2));
    assert.equal(r3!.feedback, 'Warmer colours, please.');
    assert.equal(r3!.remix!.id, 'r3');
    assert.ok(r4!.final && r4!.candidates.includes('r3'));
    assert.ok(r4!.candidates.includes(refined.finalPick!));
    const sent = JSON.stringify(chatRequests(suite.mock).at(-1)!.body);
    assert.match(sent, /Warmer colours, please\./);
    // resuming a completed run changes nothing
    const again = await resumeRun({ reviewRoot: root, ...suite.engine, runId: first.id });
    assert.equal(again.iterations.length, 4);
  });
});
