/**
 * Issue 29, item 1: every Markdown file the tool writes from model or member text is inert. One table of the real writers,
 * each fed the hostile corpus (test/support/hostileMarkdown.ts), and every file it writes checked by `liveParts`: no raw
 * HTML, no link or image but the review's own files, no control or bidi character. A brief run through the real CLI
 * against the scripted server (hostile turns, revised brief, baseline), then `rerank` and `evaluate`, covers the files the
 * engine writes.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { HOSTILE, HOSTILE_LINES, STRUCTURED, liveParts, structureOf } from '../../support/hostileMarkdown';
import { briefRemixValue } from '../../support/openaiMock';
import { requestedJsonSchema } from '../../support/openaiMock/autoResponder';
import type { MockFallback } from '../../support/openaiMock';
import { writeInertMarkdown } from '../../../src/core/files/markdown';
import { writeDeliverables } from '../../../src/core/run/deliverables/deliverables';
import { briefTask } from '../../../src/core/run/brief/briefTask';
import { makeBriefRerankSet } from '../../../src/core/rerank/briefRerank';
import { makeRerankSet } from '../../../src/core/evaluation';
import { readRunRecord } from '../../../src/core/record/store';
import type { RunRecord } from '../../../src/core/record/record';
import { makeReviewWithRun, RUN_ID } from '../evaluation/fixtures';
import { makeTempDir } from '../run/fixtures';
import { completedBriefRun, mockSuite, startCli } from '../run/helpers';

/** Every .md file under `dir`, relative to `root`. */
async function markdownFiles(root: string, dir = root): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    const abs = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await markdownFiles(root, abs)));
    else if (e.name.endsWith('.md')) out.push(path.relative(root, abs).split(path.sep).join('/'));
  }
  return out;
}

/** Asserts each file holds nothing live and returns their texts. */
async function assertInert(root: string, files: readonly string[]): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  for (const f of files) {
    const text = await fs.readFile(path.join(root, f), 'utf8');
    assert.deepEqual(liveParts(text, f), [], `${f} holds something live`);
    texts.set(f, text);
  }
  return texts;
}

/** The scripted server answering as a hostile model: every turn, the baseline and the revised brief carry the corpus. */
function hostileModel(): MockFallback {
  return (req) => {
    const wanted = requestedJsonSchema(req.body);
    if (wanted?.name === 'teamfusion_brief') {
      const v = briefRemixValue(req);
      return {
        kind: 'json',
        value: {
          ...v,
          revisedBrief: `${STRUCTURED}\n${HOSTILE}`,
          agreements: HOSTILE_LINES,
          tradeOffs: [HOSTILE],
          openQuestions: HOSTILE_LINES.slice(0, 4),
        },
      };
    }
    if (!wanted) return { kind: 'chat', content: HOSTILE };
    return undefined;
  };
}

/** A record whose every text a person or a model wrote is the corpus (names, roles, messages, reasons, feedback). */
function hostileDesignRecord(record: RunRecord): RunRecord {
  const it = record.iterations[0]!;
  it.feedback = HOSTILE;
  it.messages = it.messages.map((m) => ({ ...m, content: HOSTILE }));
  it.reasons = [{ candidate: '2', reason: HOSTILE }];
  it.editingDirections = HOSTILE;
  it.agreements = HOSTILE_LINES;
  it.decisionPoints = [{ question: HOSTILE, positions: [{ position: HOSTILE, heldBy: ['d1'] }] }];
  record.error = HOSTILE;
  return record;
}

const hostilePeople = [
  { id: 'd1', name: HOSTILE_LINES[0]!, role: HOSTILE_LINES[5]! },
  { id: 'd2', name: HOSTILE_LINES[4]!, role: HOSTILE_LINES[13]! },
  { id: 'g1', name: HOSTILE_LINES[6]!, guest: true },
];

describe('Every Markdown file the tool writes is inert (issue 29: one table of writers × the hostile corpus)', function () {
  this.timeout(120_000);

  /** Each writer: writes into a fresh review and returns the .md files it wrote (relative to the review root). */
  const WRITERS: { name: string; write(): Promise<{ root: string; files: string[] }> }[] = [
    {
      name: 'writeInertMarkdown (the one writer)',
      async write() {
        const root = await makeTempDir('tf-inert-');
        await writeInertMarkdown(root, 'runs/x/baseline.md', `${STRUCTURED}\n${HOSTILE}`);
        return { root, files: ['runs/x/baseline.md'] };
      },
    },
    {
      name: 'result.md and transcript.md of a design run (writeDeliverables)',
      async write() {
        const root = await makeReviewWithRun();
        const record = hostileDesignRecord(await readRunRecord(root, RUN_ID));
        await writeDeliverables(root, record, hostilePeople);
        return { root, files: [`runs/${RUN_ID}/result.md`, `runs/${RUN_ID}/transcript.md`] };
      },
    },
    {
      name: "the re-rank set's brief.md of a design run (makeRerankSet)",
      async write() {
        const root = await makeReviewWithRun();
        await fs.writeFile(path.join(root, 'brief.md'), `${STRUCTURED}\n${HOSTILE}`);
        await makeRerankSet(root, RUN_ID);
        return { root, files: [`runs/${RUN_ID}/rerank/brief.md`] };
      },
    },
  ];

  it('the check itself finds the attacks in the raw corpus (so a pass below means something)', () => {
    assert.ok(liveParts(HOSTILE, 'runs/x/baseline.md').length >= 15, liveParts(HOSTILE, 'runs/x/baseline.md').join('\n'));
  });

  for (const w of WRITERS) {
    it(`${w.name}: nothing live in what it writes`, async () => {
      const { root, files } = await w.write();
      assert.ok(files.length > 0);
      await assertInert(root, files);
    });
  }

  it("the one writer keeps headings, lists, emphasis and quotes, and the review's own relative links; it is idempotent", async () => {
    const root = await makeTempDir('tf-inert-');
    const own = '[the brief](../../brief.md) and ![an option](../../options/1.png)';
    await writeInertMarkdown(root, 'runs/x/baseline.md', `${STRUCTURED}\n${own}\n\n[out](../../../secret.md)\n`);
    const text = await fs.readFile(path.join(root, 'runs/x/baseline.md'), 'utf8');
    assert.deepEqual(structureOf(text), structureOf(STRUCTURED));
    assert.ok(text.includes(own), 'links to files of the review stay links');
    assert.match(text, /\[out\]\\\(\.\.\/\.\.\/\.\.\/secret\.md\)/, 'a link out of the review is text');
    await writeInertMarkdown(root, 'runs/x/again.md', text);
    assert.equal(await fs.readFile(path.join(root, 'runs/x/again.md'), 'utf8'), text);
  });

  describe('a brief run through the real CLI against a hostile scripted server', () => {
    const suite = mockSuite({ fallback: hostileModel });

    it('revised briefs, baseline.md, result.md (with "The revised brief"), transcript.md, rerank A.md/B.md and evaluation.md: 0 live HTML or links', async () => {
      const { root, id } = await completedBriefRun(suite.env, 2, ['--iterations', '2', '--turns', '1']);
      const rerank = await startCli(['rerank', root, id], suite.env).done;
      assert.equal(rerank.code, 0, rerank.stderr);
      const evaluation = await startCli(['evaluate', root, '--out', path.join(root, 'evaluation')], suite.env).done;
      assert.equal(evaluation.code, 0, evaluation.stderr);

      const files = await markdownFiles(root);
      const run = (f: string) => `runs/${id}/${f}`;
      for (const f of [
        'iteration-1/brief.md',
        'iteration-2/brief.md',
        'baseline.md',
        'result.md',
        'transcript.md',
        'rerank/A.md',
        'rerank/B.md',
      ]) {
        assert.ok(files.includes(run(f)), `${f} was written`);
      }
      assert.ok(files.includes('evaluation/evaluation.md'));
      const texts = await assertInert(
        root,
        files.filter((f) => f !== 'brief.md' && !f.startsWith('comments/')),
      );
      // The model's words are there, as text; the revised brief still reads as a brief.
      const revised = texts.get(run('iteration-2/brief.md'))!;
      assert.deepEqual(structureOf(revised).slice(0, 7), structureOf(STRUCTURED));
      assert.match(revised, /&lt;script>alert\("script"\)&lt;\/script>/);
      assert.match(texts.get(run('result.md'))!, /## The revised brief[\s\S]*&lt;img src=x onerror/);
      assert.match(texts.get(run('baseline.md'))!, /!\[\]\\\(https\\:\/\/tracker\.example\/pixel\.png\)/);
      assert.match(texts.get(run('transcript.md'))!, /script/);
    });

    it('the brief writers (result.md, rerank A.md/B.md) make a hostile revised brief on disk inert too', async () => {
      const { root, id, runDir } = await completedBriefRun(suite.env, 2);
      // A revised brief and a baseline edited by hand after the run: the writers that copy them make them inert again.
      await fs.writeFile(path.join(runDir, 'iteration-1', 'brief.md'), HOSTILE);
      await fs.writeFile(path.join(runDir, 'baseline.md'), HOSTILE);
      const record = await readRunRecord(root, id);
      // The record keeps their sha256, so the blind pair refuses them by name; a record from before hashes were kept
      // (none in it) reads them, and the writers that copy them make them inert again.
      await assert.rejects(makeBriefRerankSet(root, record), /is not the file this run wrote/);
      delete record.baseline!.sha256;
      for (const it of record.iterations) delete it.brief?.sha256;
      await briefTask.writeDeliverables(root, record, hostilePeople);
      await makeBriefRerankSet(root, record);
      await assertInert(root, [`runs/${id}/result.md`, `runs/${id}/transcript.md`, `runs/${id}/rerank/A.md`, `runs/${id}/rerank/B.md`]);
    });
  });
});
