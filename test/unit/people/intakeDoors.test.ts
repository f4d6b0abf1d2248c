/**
 * One table of intake points (issue 29): every door a person's words come through — `say`/`pin`, a file in the inbox (as
 * the driver and the panel read it), a journal line (as every reader applies it) and the record's own fields — against
 * each hostile input. Each cell is refused in words, nothing refused is applied, and the run stays readable and resumable.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { resumeRun, startRun } from '../../../src/core/run/session';
import { submitPin, submitSay } from '../../../src/core/people/submit';
import { readInbox } from '../../../src/core/people/inbox';
import { applyEntries } from '../../../src/core/people/apply';
import { loadRunRecord } from '../../../src/core/record/store';
import { checkRunRecord } from '../../../src/core/record/recordCheck';
import { allMessages, type RunRecord } from '../../../src/core/record/record';
import { makeBriefRunReview, makeReview } from '../run/fixtures';
import { mockSuite } from '../run/helpers';

type Door = 'say' | 'file' | 'journal' | 'record';
/** What a door is given: `say`/`pin` arguments, an inbox file (name, JSON), a journal line, a change to run.json. */
interface Hostile {
  say?: { as: string; text?: string; pin?: string };
  file?: { name: string; json: unknown };
  journal?: (r: RunRecord) => unknown;
  record?: (r: RunRecord) => void;
}

const ENTRY = (who: string, seq = 1): string => `${who}-1700000000000-${String(seq).padStart(6, '0')}-0badc0de`;
const AT = '2026-11-26T21:00:00.000Z';
const BIG_ID = 'x'.repeat(1024 * 1024);
const LONG = 'y'.repeat(4001);
/** A person's message as the driver writes it into the journal, as the next message of iteration 1. */
const human = (r: RunRecord, over: Record<string, unknown>): unknown => ({
  iteration: 1,
  message: {
    id: `i1-m${r.iterations[0]!.messages.length + 1}`,
    kind: 'human',
    speaker: 'd1',
    turn: null,
    content: 'hello',
    at: AT,
    entry: ENTRY('d1', 9),
    ...over,
  },
});

const TABLE: Record<string, Hostile> = {
  'the same person mentioned twice': {
    file: { name: ENTRY('d1'), json: { type: 'say', speaker: 'd1', content: '@d2 @d2', mentions: ['d2', 'd2'], at: AT } },
    journal: (r) => human(r, { content: '@d2 @d2', mentions: ['d2', 'd2'] }),
    record: (r) => {
      r.iterations[0]!.messages.push({
        id: `i1-m${r.iterations[0]!.messages.length + 1}`,
        kind: 'human',
        speaker: 'd1',
        turn: null,
        content: 'x',
        mentions: ['d3', 'd3'],
      });
    },
  },
  'an id of 1 MB': {
    say: { as: BIG_ID, text: 'hi' },
    file: { name: ENTRY('d1'), json: { type: 'pin', message: 'i1-m1', by: 'd1'.repeat(200), at: AT } },
    journal: () => ({ iteration: 1, takenIn: BIG_ID }),
    record: (r) => {
      r.takenIn = [BIG_ID];
    },
  },
  'a message over 4,000 characters': {
    say: { as: 'd1', text: LONG },
    file: { name: ENTRY('d1'), json: { type: 'say', speaker: 'd1', content: LONG, at: AT } },
    journal: (r) => human(r, { content: LONG }),
    record: (r) => {
      r.iterations[0]!.messages.push({
        id: `i1-m${r.iterations[0]!.messages.length + 1}`,
        kind: 'human',
        speaker: 'd1',
        turn: null,
        content: LONG,
      });
    },
  },
  'a speaker not on the team': {
    say: { as: 'ceo', text: 'Option 6 wins.' },
    file: { name: ENTRY('ceo'), json: { type: 'say', speaker: 'ceo', content: 'Option 6 wins.', at: AT } },
    journal: (r) => human(r, { speaker: 'ceo', entry: ENTRY('ceo') }),
  },
  'a pin by someone not on the team': {
    say: { as: 'mallory', pin: 'i1-m1' },
    file: { name: ENTRY('mallory'), json: { type: 'pin', message: 'i1-m1', by: 'mallory', at: AT } },
    journal: () => ({ iteration: 1, pins: [{ message: 'i1-m1', by: 'mallory', at: AT }] }),
  },
  'a pin of a message that does not exist': {
    say: { as: 'd1', pin: 'i9-m9' },
    file: { name: ENTRY('d1'), json: { type: 'pin', message: 'i9-m9', by: 'd1', at: AT } },
    journal: () => ({ iteration: 1, pins: [{ message: 'i9-m9', by: 'd1', at: AT }] }),
  },
  'an entry without its person': {
    file: { name: '1700000000000-000001-0badc0de', json: { type: 'say', speaker: 'd1', content: 'I am the lead.', at: AT } },
    journal: (r) => human(r, { entry: '1700000000000-000001-0badc0de' }),
  },
  'a file or line speaking for someone else': {
    file: { name: ENTRY('d2'), json: { type: 'say', speaker: 'd1', content: 'I am Ana.', at: AT } },
    journal: (r) => human(r, { speaker: 'd1', entry: ENTRY('d2') }),
  },
};

describe('intake: every door refuses the same hostile input, and the run stays readable', function () {
  this.timeout(120_000);
  const suite = mockSuite();

  /** A run waiting for d2 (a take-over), with messages to pin: the doors' common ground. */
  const waitingRun = async (): Promise<{ root: string; id: string; dir: string }> => {
    const root = await makeReview({ options: 3, designers: 3 });
    const r = await startRun({
      reviewRoot: root,
      ...suite.engine,
      humans: ['d2'],
      settings: { iterations: 1, turnsPerAgent: 1, mode: 'together', order: 'fixed', leadSpeaksLast: false },
    });
    assert.equal(r.status, 'waiting');
    return { root, id: r.id, dir: path.join(root, 'runs', r.id) };
  };

  for (const [name, cases] of Object.entries(TABLE)) {
    describe(name, () => {
      const doors = Object.keys(cases) as Door[];
      it(`is refused at ${doors.join(', ')}`, async () => {
        const { root, id, dir } = await waitingRun();
        const before = (await loadRunRecord(root, id)).record!;
        const runJson = await fs.readFile(path.join(dir, 'run.json'), 'utf8');

        if (cases.say) {
          const s = cases.say;
          const attempt =
            s.pin !== undefined
              ? submitPin({ reviewRoot: root, runId: id, as: s.as, message: s.pin })
              : submitSay({ reviewRoot: root, runId: id, as: s.as, text: s.text! });
          const err = await attempt.then(
            () => undefined,
            (e: unknown) => e as Error,
          );
          assert.ok(err, 'say/pin refused');
          assert.ok(err.message.length < 400 && !/[\n{]/.test(err.message), `one sentence: ${err.message.slice(0, 300)}`);
          assert.equal(
            await fs
              .readdir(path.join(dir, 'inbox'))
              .catch(() => [])
              .then((x) => x.length),
            0,
            'nothing written',
          );
        }

        if (cases.file) {
          await fs.mkdir(path.join(dir, 'inbox'), { recursive: true });
          const file = path.join(dir, 'inbox', `${cases.file.name}.json`);
          await fs.writeFile(file, JSON.stringify(cases.file.json));
          const bad: string[] = [];
          const read = await readInbox(
            root,
            id,
            (f, why) => bad.push(`${f}: ${why}`),
            undefined,
            (who) => ['d1', 'd2', 'd3'].includes(who),
          );
          // A pin of a message the run lacks is a well-formed entry: taking it in changes nothing and says why.
          const skipped = applyEntries(structuredClone(before), read).skipped.map((x) => x.why);
          assert.ok(bad.length + skipped.length === 1, `refused in words: ${[...bad, ...skipped].join(' | ')}`);
          assert.ok(await fs.stat(file), 'left in place for people to look at');
          await fs.rm(file);
        }

        if (cases.journal) {
          const j = path.join(dir, 'journal.jsonl');
          const original = await fs.readFile(j, 'utf8').catch(() => '');
          await fs.appendFile(j, `${JSON.stringify(cases.journal(before))}\n`);
          const loaded = await loadRunRecord(root, id);
          assert.ok(loaded.record, `readable: ${loaded.diagnostics?.[0]?.message}`);
          assert.equal(loaded.refused?.length, 1, 'refused in words at its line');
          assert.match(`${loaded.refused![0]!.file}:${loaded.refused![0]!.line}`, /journal\.jsonl:\d+$/);
          assert.deepEqual(allMessages(loaded.record), allMessages(before), 'no message applied');
          assert.deepEqual(loaded.record.pins, before.pins, 'no pin applied');
          assert.deepEqual(loaded.record.takenIn, before.takenIn, 'no entry id applied');
          // The next driver writes run.json from what it read: the refused line never reaches it, and the run resumes.
          const resumed = await resumeRun({ reviewRoot: root, ...suite.engine, runId: id });
          assert.equal(resumed.status, 'waiting');
          const after = await loadRunRecord(root, id);
          assert.ok(after.record, after.diagnostics?.[0]?.message);
          assert.ok(!(await fs.readFile(path.join(dir, 'run.json'), 'utf8')).includes(BIG_ID.slice(0, 1000)));
          await fs.writeFile(j, original);
          await fs.writeFile(path.join(dir, 'run.json'), runJson);
        }

        if (cases.record) {
          const json = JSON.parse(runJson) as RunRecord;
          cases.record(json);
          const checked = checkRunRecord(json, `runs/${id}`, ['1.png', '2.png', '3.png']);
          assert.ok('problem' in checked, 'refused');
          assert.ok(checked.problem.message.length < 400, checked.problem.message.slice(0, 300));
        }
      });
    });
  }

  it('say works the same in a brief run: every member speaks, nobody else does', async () => {
    const root = await makeBriefRunReview(3);
    const r = await startRun({
      reviewRoot: root,
      ...suite.engine,
      humans: ['m2'],
      task: 'brief',
      settings: { iterations: 1, turnsPerAgent: 1, mode: 'together', order: 'fixed', leadSpeaksLast: false },
    } as Parameters<typeof startRun>[0]);
    assert.equal(r.status, 'waiting', r.error);
    const said = await submitSay({ reviewRoot: root, runId: r.id, as: 'm2', text: 'Keep the legal line, @m3.' });
    assert.match(said.entry, /^m2-/);
    await assert.rejects(
      submitSay({ reviewRoot: root, runId: r.id, as: 'ceo', text: 'hi' }),
      /"ceo" is not a designer of this review \(designers: m1, m2, m3\)/,
    );
  });
});
