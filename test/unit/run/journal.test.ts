import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { JOURNAL_FILE, JournalLineSchema } from '../../../src/core/record/journal';
import type { RunRecord } from '../../../src/core/record/record';
import { resumeRun, startRun, type RunnerOptions } from '../../../src/core/run/session';
import { loadRunRecord } from '../../../src/core/record/store';
import { runFileWrites } from '../../../src/core/record/paths';
import { makeReview } from './fixtures';
import { asKilledNow, turnRequests, mockSuite, runJson } from './helpers';
import { waitFor } from '../../support/waitFor';

/** 4 designers × 1 turn, 2 iterations, one after the other in file order: a round is 4 messages. */
const settings = { turnsPerAgent: 1, iterations: 2, mode: 'together', order: 'fixed' } as const;

async function journalLines(root: string, id: string): Promise<unknown[]> {
  const text = await fs.readFile(path.join(root, 'runs', id, JOURNAL_FILE), 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as unknown);
}

describe('run journal: turns appended and synced, run.json whole at round boundaries, readers merge both', function () {
  this.timeout(60_000);
  let root: string;
  const suite = mockSuite();
  const opts = (o: Partial<RunnerOptions> = {}): RunnerOptions => ({ reviewRoot: root, ...suite.engine, settings, ...o });

  beforeEach(async () => {
    root = await makeReview({ options: 4, designers: 4 });
  });

  it('every message is a journal line exactly as run.json keeps it; the final run.json holds everything', async () => {
    const r = await startRun(opts());
    assert.equal(r.status, 'completed', r.error);
    const lines = await journalLines(root, r.id);
    for (const l of lines) {
      const parsed = JournalLineSchema.parse(l);
      assert.equal(Object.keys(parsed).length, 2, 'iteration and exactly one payload key');
    }
    const final = await runJson(root, r.id);
    const messages = lines.flatMap((l) => ('message' in (l as object) ? [(l as { message: unknown }).message] : []));
    assert.equal(messages.length, 8, 'one line per message');
    const kept = final.iterations.flatMap((it) => it.messages);
    for (const m of messages)
      assert.deepEqual(
        kept.find((k) => k.id === (m as { id: string }).id),
        m,
      );
    assert.equal(kept.length, 8);
    const loaded = await loadRunRecord(root, r.id);
    assert.ok(loaded.record, loaded.diagnostics?.[0]?.message);
    assert.deepEqual(loaded.record.iterations, final.iterations);
  });

  it('a turn is reported done only once its journal line is on disk, and before anything of the next turn is said', async () => {
    const events: string[] = [];
    const r = await startRun(
      opts({
        onEvent: (e) => {
          if (e.type === 'turn-started') events.push(`started ${e.speaker}`);
          if (e.type !== 'turn-completed') return;
          // Read at the report itself: the message is in the journal (or in run.json) already.
          const dir = path.join(root, 'runs', e.runId);
          const journal = readFileSync(path.join(dir, JOURNAL_FILE), 'utf8');
          const json = readFileSync(path.join(dir, 'run.json'), 'utf8');
          assert.ok(journal.includes(`"id":"${e.message.id}"`) || json.includes(`"id":"${e.message.id}"`), e.message.id);
          events.push(`completed ${e.message.speaker}`);
        },
      }),
    );
    assert.equal(r.status, 'completed', r.error);
    const round = r.iterations[0]!.messages.map((m) => [`started ${m.speaker}`, `completed ${m.speaker}`]).flat();
    assert.deepEqual(events.slice(0, round.length), round, 'each turn reported before the next one starts');
    assert.equal(events.length, 16);
  });

  it('run.json is not rewritten after every turn (the journal holds the turns of the round)', async () => {
    let seen: { inRunJson: number } | undefined;
    const r = await startRun(
      opts({
        onEvent: (e) => {
          if (e.type !== 'turn-completed' || e.iteration !== 1 || e.message.id !== 'i1-m3' || seen) return;
          // Synchronously (the next save has not started): what is on disk now.
          const id = e.runId;
          const read = JSON.parse(readFileSync(path.join(root, 'runs', id, 'run.json'), 'utf8')) as RunRecord;
          seen = { inRunJson: read.iterations[0]?.messages.length ?? 0 };
        },
      }),
    );
    assert.equal(r.status, 'completed', r.error);
    assert.ok(seen, 'the third message was acknowledged');
    assert.ok(seen.inRunJson < 3, `run.json is not rewritten after every turn (it held ${seen.inRunJson} of 3 messages)`);
  });

  it('a crash mid-round: resume redoes at most the torn turn, and keeps every turn the journal holds', async () => {
    // Hang the third turn; while it hangs, take the run folder as a crash would leave it (lock aside).
    let turns = 0;
    suite.mock.setFallback((req) => ((req.body as { stream?: boolean }).stream === true && ++turns === 3 ? { kind: 'hang' } : undefined));
    const controller = new AbortController();
    const started = startRun(opts({ signal: controller.signal }));
    const runs = path.join(root, 'runs');
    await waitFor('the third turn to be asked', () => turns >= 3);
    const id = (await fs.readdir(runs)).find((n) => /^\d{4}-/.test(n))!;
    const dir = path.join(runs, id);
    await waitFor(
      'two turns in the journal',
      async () => ((await fs.readFile(path.join(dir, JOURNAL_FILE), 'utf8').catch(() => '')).match(/"message"/g) ?? []).length >= 2,
    );
    await asKilledNow(root, id, async () => {
      controller.abort();
      await started;
    });
    const atCrash = await runJson(root, id);
    assert.equal(atCrash.status, 'running', 'run.json says running: the process died');
    assert.ok((atCrash.iterations[0]?.messages.length ?? 0) < 2, 'run.json alone lacks the journalled turns');
    // The third turn was being written when the process died: its line is torn.
    const lines = (await fs.readFile(path.join(dir, JOURNAL_FILE), 'utf8')).split('\n').filter(Boolean);
    const second = lines.find((l) => l.includes('"id":"i1-m2"'))!;
    await fs.appendFile(path.join(dir, JOURNAL_FILE), second.replace('i1-m2', 'i1-m3').slice(0, 60));
    const merged = await loadRunRecord(root, id);
    assert.ok(merged.record, merged.diagnostics?.[0]?.message);
    assert.deepEqual(
      merged.record.iterations[0]!.messages.map((m) => m.id),
      ['i1-m1', 'i1-m2'],
      'the torn last line is ignored',
    );

    suite.mock.setFallback(undefined);
    const before = turnRequests(suite.mock).length;
    const done = await resumeRun({ ...opts(), runId: id });
    assert.equal(done.status, 'completed', done.error);
    assert.equal(
      turnRequests(suite.mock).length - before,
      8 - 2,
      'only the turns the journal did not hold are asked (the torn one included)',
    );
    const final = await runJson(root, id);
    assert.deepEqual(final.iterations[0]!.messages.slice(0, 2), merged.record.iterations[0]!.messages);
    const journal = await fs.readFile(path.join(dir, JOURNAL_FILE), 'utf8');
    assert.ok(
      journal.endsWith('\n') && !journal.includes(second.replace('i1-m2', 'i1-m3').slice(0, 60) + '{'),
      'the torn line was cut off before appending',
    );
  });

  describe('refused in words like any record', () => {
    let id = '';
    let dir = '';
    let text = '';
    beforeEach(async () => {
      const r = await startRun(opts());
      id = r.id;
      dir = path.join(root, 'runs', id);
      text = await fs.readFile(path.join(dir, JOURNAL_FILE), 'utf8');
    });
    const refused = async (pattern: RegExp) => {
      const loaded = await loadRunRecord(root, id);
      assert.ok(loaded.diagnostics, 'refused');
      const d = loaded.diagnostics[0]!;
      assert.match(`${d.file}:${d.line}:${d.column}: error: ${d.message}`, pattern);
      await assert.rejects(resumeRun({ ...opts(), runId: id }), pattern);
    };

    /** A line the driver would not have written is refused in words at its line and never applied; the run stays readable. */
    const lineRefused = async (pattern: RegExp) => {
      const loaded = await loadRunRecord(root, id);
      assert.ok(loaded.record, loaded.diagnostics?.[0]?.message);
      const said = (loaded.refused ?? []).map((d) => `${d.file}:${d.line}:${d.column}: ${d.severity}: ${d.message}`);
      assert.ok(
        said.some((l) => pattern.test(l)),
        said.join('\n'),
      );
      return loaded.record;
    };

    it('a tampered line (not the last) that is not JSON', async () => {
      const lines = text.split('\n');
      lines[1] = lines[1]!.slice(0, 20);
      await fs.writeFile(path.join(dir, JOURNAL_FILE), lines.join('\n'));
      await lineRefused(/journal\.jsonl:2:1: warning: .*not valid JSON.*not applied/);
    });

    it('a line with a payload key it does not know, or two payload keys', async () => {
      const lines = text.split('\n');
      lines[0] = JSON.stringify({ iteration: 1, status: 'completed' });
      await fs.writeFile(path.join(dir, JOURNAL_FILE), lines.join('\n'));
      await lineRefused(/journal\.jsonl:1:1: warning: This journal line is not one the run writes/);
    });

    it('a record and journal that disagree (a message changed after the last rewrite)', async () => {
      // Put run.json back to its first rewrite's checkpoint-less state: the journal's messages apply over it.
      const record = await runJson(root, id);
      const lines = text
        .split('\n')
        .filter(Boolean)
        .filter((l) => !l.includes('"checkpoint"'));
      const i = lines.findIndex((l) => l.includes('"id":"i1-m1"'));
      const line = JSON.parse(lines[i]!) as { iteration: number; message: { content: string } };
      line.message.content = 'Something nobody said.';
      lines[i] = JSON.stringify(line);
      await fs.writeFile(path.join(dir, JOURNAL_FILE), `${lines.join('\n')}\n`);
      assert.ok(record.iterations[0]!.messages.length > 0);
      const read = await lineRefused(
        /journal\.jsonl:\d+:1: warning: Message i1-m1 differs from the one in run\.json\. This line is not applied/,
      );
      assert.equal(
        read.iterations[0]!.messages[0]!.content,
        record.iterations[0]!.messages[0]!.content,
        'run.json is believed, the line is not',
      );
    });

    it('a journal that is a symbolic link (even to a file inside the review), or a FIFO', async () => {
      await fs.writeFile(path.join(root, 'copy.jsonl'), text);
      await fs.rm(path.join(dir, JOURNAL_FILE));
      await fs.symlink(path.join(root, 'copy.jsonl'), path.join(dir, JOURNAL_FILE));
      await refused(/journal\.jsonl:0:0: error: .*symbolic link/);
      await fs.rm(path.join(dir, JOURNAL_FILE));
      execFileSync('mkfifo', [path.join(dir, JOURNAL_FILE)]);
      await refused(/journal\.jsonl:0:0: error: .*(FIFO|not a regular file)/);
    });

    it('a journal that leads outside the review', async () => {
      const outside = await fs.mkdtemp(path.join(path.dirname(root), 'tf-outside-'));
      await fs.writeFile(path.join(outside, 'j.jsonl'), text);
      await fs.rm(path.join(dir, JOURNAL_FILE));
      await fs.symlink(path.join(outside, 'j.jsonl'), path.join(dir, JOURNAL_FILE));
      await refused(/journal\.jsonl:0:0: error: .*symbolic link/);
    });
  });

  it('an older record (no journal) still reads; bytes written are counted with the journal', async () => {
    const before = runFileWrites.bytes;
    const r = await startRun(opts());
    assert.ok(runFileWrites.bytes > before);
    await fs.rm(path.join(root, 'runs', r.id, JOURNAL_FILE));
    const loaded = await loadRunRecord(root, r.id);
    assert.ok(loaded.record, loaded.diagnostics?.[0]?.message);
    assert.equal(loaded.record.iterations.flatMap((it) => it.messages).length, 8);
  });
});
