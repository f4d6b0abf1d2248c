import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { RecordedMessage } from '../../../src/core/record/record';
import {
  PARTS_FILE,
  PromptPartsWriter,
  loadPrompt,
  partNumbers,
  readPromptParts,
  rebuildPrompt,
} from '../../../src/core/record/promptParts';
import type { RunRecord } from '../../../src/core/record/record';
import { resumeRun, startRun } from '../../../src/core/run/session';
import { readRunRecord } from '../../../src/core/record/store';
import { runFileWrites } from '../../../src/core/record/paths';
import { makeReview, makeTempDir } from './fixtures';
import { chatRequests, mockSuite, UNPOOLED } from './helpers';

type ApiPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };
type ApiMessage = { role: string; content: string | ApiPart[] };

/** Asserts that a rebuilt recorded prompt is exactly the request body's messages (images: the very bytes, by sha256). */
function assertSameAsSent(rebuilt: readonly RecordedMessage[], sent: readonly ApiMessage[], what: string): void {
  assert.equal(rebuilt.length, sent.length, `${what}: number of messages`);
  rebuilt.forEach((m, i) => {
    const s = sent[i]!;
    assert.equal(m.role, s.role, `${what} message ${i + 1}: role`);
    if (typeof m.content === 'string') {
      assert.equal(m.content, s.content, `${what} message ${i + 1}: text`);
      return;
    }
    assert.ok(Array.isArray(s.content), `${what} message ${i + 1}: parts`);
    assert.equal(m.content.length, s.content.length);
    m.content.forEach((part, j) => {
      const sp = (s.content as ApiPart[])[j]!;
      if (part.type === 'text') {
        assert.deepEqual(sp, { type: 'text', text: part.text }, `${what} message ${i + 1} part ${j + 1}`);
        return;
      }
      assert.equal(sp.type, 'image_url');
      const url = (sp as { image_url: { url: string } }).image_url.url;
      const m2 = /^data:([^;]+);base64,(.*)$/.exec(url);
      assert.ok(m2, 'a data URL');
      assert.equal(m2[1], part.mime);
      assert.equal(createHash('sha256').update(Buffer.from(m2[2]!, 'base64')).digest('hex'), part.sha256, 'the same image bytes');
    });
  });
}

async function allRebuilt(root: string, record: RunRecord): Promise<Map<string, RecordedMessage[]>> {
  const parts = await readPromptParts(root, record.id);
  const known = new Map<string, number[]>();
  const out = new Map<string, RecordedMessage[]>();
  for (const p of record.prompts) {
    const messages = rebuildPrompt(record, p.id, parts, known);
    if (messages) out.set(p.id, messages);
  }
  return out;
}

describe('prompts recorded as parts: small records, every prompt exact', function () {
  this.timeout(120_000);
  const suite = mockSuite({ checkSpec: false });

  it('rebuilds every prompt of a run exactly as the mock server received it', async () => {
    const root = await makeReview({ options: 5, designers: 4, jpegEvery: 2 });
    // With the defaults of a new run (a pool and the checklist, issue 41): their prompts are rebuilt exactly too.
    const record = await startRun({ reviewRoot: root, ...suite.engine, confirm: async () => true });
    assert.equal(record.status, 'completed', record.error);
    const onDisk = await readRunRecord(root, record.id);
    assert.ok(
      onDisk.prompts.every((p) => p.messages === undefined),
      'no prompt is stored in full',
    );
    const rebuilt = await allRebuilt(root, onDisk);
    const sent = chatRequests(suite.mock).map((r) => (r.body as { messages: ApiMessage[] }).messages);
    const chatPrompts = onDisk.prompts.filter((p) => p.kind !== 'image-edit');
    assert.equal(chatPrompts.length, sent.length, 'one recorded prompt per chat request');
    // Requests asked at once (first assessments, a pool's rankings) may reach the server in any order: paired by their texts.
    const textsOf = (messages: readonly (RecordedMessage | ApiMessage)[]): string =>
      JSON.stringify(
        messages.map((m) => (typeof m.content === 'string' ? m.content : m.content.map((x) => (x.type === 'text' ? x.text : '')))),
      );
    const byTexts = new Map<string, ApiMessage[][]>();
    for (const m of sent) byTexts.set(textsOf(m), [...(byTexts.get(textsOf(m)) ?? []), m]);
    for (const p of chatPrompts) {
      const same = byTexts.get(textsOf(rebuilt.get(p.id)!));
      assert.ok(same?.length, `${p.id}: a request with its texts was sent`);
      assertSameAsSent(rebuilt.get(p.id)!, same.shift()!, p.id);
    }
    // one by one, through the convenience reader, too
    assertSameAsSent((await loadPrompt(root, onDisk, chatPrompts.at(-1)!.id))!, sent.at(-1)!, 'loadPrompt');
    // proxy turns repeat the turn before them: each refers to an earlier prompt plus a few new lines
    const turns = onDisk.prompts.filter((p) => p.kind === 'proxy-turn');
    assert.ok(
      turns
        .slice(1)
        .filter((p) => p.iteration === turns[turns.indexOf(p) - 1]!.iteration)
        .every((p) => p.base && (p.parts?.length ?? 0) <= 2),
    );
    // every line of prompts.jsonl is distinct
    const lines = (await fs.readFile(path.join(root, 'runs', record.id, PARTS_FILE), 'utf8')).trimEnd().split('\n');
    assert.equal(new Set(lines).size, lines.length);
  });

  it("a request's parts are written and synced while it is in flight, before its answer is recorded", async () => {
    const root = await makeReview({ options: 4, designers: 3 });
    const release = suite.mock.hold(() => chatRequests(suite.mock).length > 0);
    const running = startRun({ reviewRoot: root, ...suite.engine, settings: { ...UNPOOLED } });
    try {
      const [first] = await suite.mock.waitForRequests(1, { route: 'chat' });
      const texts = (first!.body as { messages: ApiMessage[] }).messages.flatMap((m) =>
        typeof m.content === 'string' ? [m.content] : m.content.flatMap((x) => (x.type === 'text' ? [x.text] : [])),
      );
      const [runId] = await fs.readdir(path.join(root, 'runs'));
      let parts: RecordedMessage[] = [];
      for (let i = 0; i < 200; i++) {
        parts = await readPromptParts(root, runId!);
        if (parts.length > 0) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      const written = JSON.stringify(parts);
      for (const t of texts) assert.ok(written.includes(JSON.stringify(t).slice(1, -1)), `the part "${t.slice(0, 40)}…" is on disk`);
      const onDisk = JSON.parse(await fs.readFile(path.join(root, 'runs', runId!, 'run.json'), 'utf8')) as RunRecord;
      assert.equal(onDisk.prompts.length, 0, 'no prompt is recorded yet: its answer is held');
    } finally {
      release();
    }
    const record = await running;
    assert.equal(record.status, 'completed', record.error);
    const onDisk = await readRunRecord(root, record.id);
    assert.equal((await allRebuilt(root, onDisk)).size, onDisk.prompts.filter((p) => p.kind !== 'image-edit').length);
  });

  it('a resumed run continues the same parts (a line cut off by a crash is dropped), and every prompt still rebuilds', async () => {
    const root = await makeReview({ options: 4, designers: 3 });
    const controller = new AbortController();
    let turns = 0;
    const first = await startRun({
      reviewRoot: root,
      ...suite.engine,
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === 'turn-completed' && ++turns === 5) controller.abort();
      },
    });
    assert.equal(first.status, 'cancelled');
    const file = path.join(root, 'runs', first.id, PARTS_FILE);
    await fs.appendFile(file, '{"role":"user","content":"cut off by a cra');
    const resumed = await resumeRun({ reviewRoot: root, runId: first.id, ...suite.engine });
    assert.equal(resumed.status, 'completed', resumed.error);
    const text = await fs.readFile(file, 'utf8');
    assert.ok(!text.includes('cut off'), 'the cut-off line is gone');
    const lines = text.trimEnd().split('\n');
    assert.equal(new Set(lines).size, lines.length, 'nothing written twice');
    const onDisk = await readRunRecord(root, first.id);
    const rebuilt = await allRebuilt(root, onDisk);
    const sent = chatRequests(suite.mock).map((r) => (r.body as { messages: ApiMessage[] }).messages);
    const chatPrompts = onDisk.prompts.filter((p) => p.kind !== 'image-edit');
    assert.equal(chatPrompts.length, sent.length);
    chatPrompts.forEach((p, i) => assertSameAsSent(rebuilt.get(p.id)!, sent[i]!, p.id));
  });

  it('a prompt whose parts were tampered with is refused in words, never rebuilt wrong', async () => {
    const root = await makeReview({ options: 3, designers: 2 });
    const record = await startRun({ reviewRoot: root, ...suite.engine, settings: { ...UNPOOLED, turnsPerAgent: 1, iterations: 1 } });
    const file = path.join(root, 'runs', record.id, PARTS_FILE);
    const text = await fs.readFile(file, 'utf8');
    await fs.writeFile(file, text.replace(/Speak as /, 'Speak AS '));
    const onDisk = await readRunRecord(root, record.id);
    const parts = await readPromptParts(root, record.id);
    assert.throws(() => onDisk.prompts.forEach((p) => rebuildPrompt(onDisk, p.id, parts)), /does not match its recorded fingerprint/);
    await fs.writeFile(file, text.split('\n').slice(0, 2).join('\n') + '\n');
    const few = await readPromptParts(root, record.id);
    assert.throws(
      () => onDisk.prompts.forEach((p) => rebuildPrompt(onDisk, p.id, few)),
      /refers to lines \d+–\d+ of prompts\.jsonl, which has 2/,
    );
    // a base that is not an earlier prompt
    const [first] = onDisk.prompts;
    assert.ok(first);
    const looped = { prompts: [{ ...first, base: { prompt: first.id, messages: 1 } }] };
    assert.throws(() => rebuildPrompt(looped, first.id, parts), /is not an earlier prompt/);
  });

  it('a prompts.jsonl that leads out of the review is refused in words: nothing read from it or written through it', async () => {
    const root = await makeReview({ options: 3, designers: 2 });
    const controller = new AbortController();
    const first = await startRun({
      reviewRoot: root,
      ...suite.engine,
      signal: controller.signal,
      settings: { ...UNPOOLED, turnsPerAgent: 1, iterations: 1 },
      onEvent: (e) => e.type === 'turn-completed' && controller.abort(),
    });
    assert.equal(first.status, 'cancelled');
    const file = path.join(root, 'runs', first.id, PARTS_FILE);
    const outside = path.join(await makeTempDir('tf-outside-'), 'victim.jsonl');
    await fs.writeFile(outside, 'private\n');
    await fs.rm(file);
    await fs.symlink(outside, file);
    const requests = suite.mock.requests.length;
    await assert.rejects(
      resumeRun({ reviewRoot: root, runId: first.id, ...suite.engine }),
      new RegExp(`runs/${first.id}/prompts\\.jsonl is a symbolic link`),
    );
    await assert.rejects(readPromptParts(root, first.id), /leads outside the review folder/);
    assert.equal(await fs.readFile(outside, 'utf8'), 'private\n', 'nothing written outside');
    // A link to a file inside the review (the brief) is not followed either: the brief is never cut or appended to.
    const brief = await fs.readFile(path.join(root, 'brief.md'), 'utf8');
    await fs.rm(file);
    await fs.symlink('../../brief.md', file);
    await assert.rejects(
      resumeRun({ reviewRoot: root, runId: first.id, ...suite.engine }),
      new RegExp(`runs/${first.id}/prompts\\.jsonl is a symbolic link`),
    );
    assert.equal(await fs.readFile(path.join(root, 'brief.md'), 'utf8'), brief, 'the brief is unchanged');
    assert.equal(suite.mock.requests.length, requests, 'no request');
  });

  it('records of older versions (every prompt in full) still read, and their prompts are given back as stored', async () => {
    const root = await makeReview({ options: 3, designers: 2 });
    const record = await startRun({ reviewRoot: root, ...suite.engine, settings: { ...UNPOOLED, turnsPerAgent: 1, iterations: 1 } });
    const onDisk = await readRunRecord(root, record.id);
    const full = await allRebuilt(root, onDisk);
    // Write it back the old way: full messages in every prompt, no parts file.
    const old = JSON.parse(JSON.stringify(onDisk)) as RunRecord;
    for (const p of old.prompts) {
      const m = full.get(p.id);
      (delete p.parts, delete p.base, delete p.sha256);
      if (m) p.messages = m;
    }
    await fs.writeFile(path.join(root, 'runs', record.id, 'run.json'), JSON.stringify(old, null, 2));
    await fs.rm(path.join(root, 'runs', record.id, PARTS_FILE));
    const read = await readRunRecord(root, record.id);
    for (const p of read.prompts) assert.deepEqual(await loadPrompt(root, read, p.id), full.get(p.id));
    // and the writer turns them into parts when such a run is driven again
    const w = await PromptPartsWriter.open(root, record.id);
    w.compact(read);
    await w.flush();
    const parts = await readPromptParts(root, record.id);
    for (const p of read.prompts) assert.deepEqual(rebuildPrompt(read, p.id, parts), full.get(p.id));
  });

  it('48 designers × 2 turns × 3 iterations: run.json ≤ 1.5 MB, ≤ 40 MB written to run files over the run', async () => {
    const root = await makeReview({ options: 6, designers: 48 });
    suite.mock.latencyMs = 0;
    const before = runFileWrites.bytes;
    // 299 requests at most (3 rounds of 96 turns and the remix agent, and two rounds of edits that may fork into 4 sides):
    // past the cost question's threshold, so this run is confirmed (asked once, with the count).
    const asked: number[] = [];
    const record = await startRun({
      reviewRoot: root,
      ...suite.engine,
      settings: { ...UNPOOLED, turnsPerAgent: 2, iterations: 3 },
      confirm: async (c) => (asked.push(c.requests), true),
    });
    assert.equal(record.status, 'completed', record.error);
    assert.deepEqual(asked, [3 * (48 * 2 + 1) + 2 * 4]);
    const size = (await fs.stat(path.join(root, 'runs', record.id, 'run.json'))).size;
    const written = runFileWrites.bytes - before;
    assert.ok(size <= 1.5 * 1024 * 1024, `run.json is ${size} bytes`);
    assert.ok(written <= 40 * 1024 * 1024, `${written} bytes written`);
    assert.equal(record.prompts.filter((p) => p.kind === 'proxy-turn').length, 48 * 2 * 3);
  });

  it('a base chain is resolved without building a list per prompt: 9 999 deep, 100 000 messages, one list', () => {
    const depth = 9_999;
    const prompts = Array.from({ length: depth + 1 }, (_, k) => ({
      id: `c${k}`,
      iteration: 1,
      kind: 'proxy-turn' as const,
      model: 'm',
      at: 't',
      ...(k > 0 ? { base: { prompt: `c${k - 1}`, messages: k * 10 } } : {}),
      parts: [[k * 10, 10] as [number, number]],
    }));
    const known = new Map<string, number[]>();
    const list = partNumbers(prompts, `c${depth}`, 100_000, known);
    assert.equal(list.length, 100_000);
    assert.deepEqual(list.slice(0, 3), [0, 1, 2]);
    assert.equal(list[99_999], 99_999);
    assert.equal(known.size, 0, 'nothing cached for the chain below');
    // A prompt taking only the first messages stops walking where it has them all.
    const short = [
      ...prompts,
      {
        id: 'top',
        iteration: 1,
        kind: 'proxy-turn' as const,
        model: 'm',
        at: 't',
        base: { prompt: `c${depth}`, messages: 5 },
        parts: [[7, 1] as [number, number]],
      },
    ];
    assert.deepEqual(partNumbers(short, 'top', 100_000), [0, 1, 2, 3, 4, 7]);
    assert.throws(
      () => partNumbers([...prompts.slice(0, 3), { ...prompts[3]!, base: { prompt: 'c2', messages: 31 } }], 'c3', 100),
      /Prompt c3 takes 31 messages of c2, which has 30\./,
    );
  });
});
