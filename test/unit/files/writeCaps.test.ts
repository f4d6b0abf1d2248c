/**
 * Issue 29, item 2: nothing is written past its own read cap. One table of the writers, each given more than its readers
 * read: text for people (a revised brief, baseline.md, rerank A.md/B.md) is cut at a word boundary before it is written
 * (said in the log and in the file), machine files (judge.json, analysis.json, a comment grown by a quote) are refused in
 * words and the file as it was stays. A brief run through the real CLI whose model answers 500 KB stays usable: the
 * blind pair is made from its cut files.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { FILE_KINDS } from '../../../src/core/files/fileKinds';
import { ReviewFileError } from '../../../src/core/files/reviewFiles';
import { writeJudgeFile, type JudgeFile } from '../../../src/core/judge/judgeFile';
import { writeAnalysisFile, type AnalysisFile } from '../../../src/core/analysis/analysisFile';
import { addToCommentFile } from '../../../src/core/review/commentFile';
import { makeBriefRerankSet } from '../../../src/core/rerank/briefRerank';
import { writeInertMarkdown } from '../../../src/core/files/markdown';
import { readRunRecord } from '../../../src/core/record/store';
import { briefRemixValue } from '../../support/openaiMock';
import { requestedJsonSchema, requestTexts } from '../../support/openaiMock/autoResponder';
import { makeBriefRunReview, makeTempDir } from '../run/fixtures';
import { completedBriefRun, mockSuite, startCli } from '../run/helpers';

const words = (bytes: number): string => 'calm premium light '.repeat(Math.ceil(bytes / 19)).slice(0, bytes);
const CUT_NOTE = /\*\(Cut here: the text was longer than the 400 KB this file may hold\.\)\*\n$/;

describe('Nothing is written past its own read cap (issue 29: one table of writers)', function () {
  this.timeout(120_000);

  /** Each writer given too much: the file, its cap (from the one table of caps), and refused or cut. */
  const WRITERS: {
    file: string;
    cap: number;
    outcome: 'refused' | 'cut';
    write(root: string, log: (l: string) => void): Promise<unknown>;
  }[] = [
    {
      file: 'runs/r/judge.json',
      cap: FILE_KINDS.judge.maxBytes,
      outcome: 'refused',
      write: (root) =>
        writeJudgeFile(root, { runId: 'r', verdicts: [{ reason: words(FILE_KINDS.judge.maxBytes) }] } as unknown as JudgeFile),
    },
    {
      file: 'runs/r/analysis.json',
      cap: FILE_KINDS.analysis.maxBytes,
      outcome: 'refused',
      write: (root) =>
        writeAnalysisFile(root, { runId: 'r', codes: [{ note: words(FILE_KINDS.analysis.maxBytes) }] } as unknown as AnalysisFile),
    },
    {
      file: 'comments/ana.md',
      cap: FILE_KINDS.comments.maxBytes,
      outcome: 'refused',
      write: async (root) => {
        await addToCommentFile(root, 'ana', { name: 'Ana' }, words(60 * 1024));
        await addToCommentFile(root, 'ana', { name: 'Ana' }, words(60 * 1024));
      },
    },
    {
      file: 'runs/r/iteration-1/brief.md',
      cap: FILE_KINDS.revisedBrief.maxBytes,
      outcome: 'cut',
      write: (root, log) =>
        writeInertMarkdown(root, 'runs/r/iteration-1/brief.md', words(600 * 1024), { cap: FILE_KINDS.revisedBrief.maxBytes, log }),
    },
  ];

  for (const w of WRITERS) {
    it(`${w.file}: ${w.outcome} before it is written past ${w.cap / 1024} KB`, async () => {
      const root = await makeTempDir('tf-caps-');
      const said: string[] = [];
      if (w.outcome === 'refused') {
        await assert.rejects(
          w.write(root, (l) => said.push(l)),
          (e: unknown) =>
            e instanceof ReviewFileError && e.reason === 'too-large' && e.message.includes(w.file) && /it is not written/.test(e.message),
        );
        const st = await fs.stat(path.join(root, w.file)).catch(() => undefined);
        assert.ok(!st || st.size <= w.cap, 'what is on disk stays readable');
      } else {
        await w.write(root, (l) => said.push(l));
        const text = await fs.readFile(path.join(root, w.file), 'utf8');
        assert.ok(Buffer.byteLength(text) <= w.cap, `${Buffer.byteLength(text)} bytes`);
        assert.match(text, CUT_NOTE);
        assert.match(text, /(calm|premium|light)\n\n\*\(Cut here/, 'cut after a whole word');
        assert.equal(said.length, 1);
        assert.match(
          said[0]!,
          new RegExp(
            `^${w.file.replace(/[./]/g, '\\$&')} was cut at a word boundary to .*: the text was 600 KB, and its readers read at most 400 KB\\.$`,
          ),
        );
      }
    });
  }

  describe('a brief run whose model answers more than a revised brief may hold', () => {
    const big = words(500 * 1024);
    const suite = mockSuite({
      fallback: () => (req) => {
        const wanted = requestedJsonSchema(req.body);
        if (wanted?.name === 'teamfusion_brief') return { kind: 'json', value: { ...briefRemixValue(req), revisedBrief: big } };
        if (!wanted && /^You revise a client's brief/.test(requestTexts(req.body)[0] ?? '')) return { kind: 'chat', content: big };
        return undefined;
      },
    });

    it('iteration-1/brief.md and baseline.md are cut in words within 400 KB, the log says so, and the blind pair is made from them', async () => {
      const root = await makeBriefRunReview(2);
      const run = await startCli(['run', root, '--task', 'brief', '--iterations', '1', '--turns', '1'], suite.env).done;
      assert.equal(run.code, 0, run.stderr);
      assert.match(
        run.stderr,
        /iteration-1\/brief\.md was cut at a word boundary to .*: the text was 500 KB, and its readers read at most 400 KB\./,
      );
      assert.match(run.stderr, /baseline\.md was cut at a word boundary/);
      const id = (await fs.readdir(path.join(root, 'runs')))[0]!;
      const runDir = path.join(root, 'runs', id);
      for (const f of ['iteration-1/brief.md', 'baseline.md']) {
        const text = await fs.readFile(path.join(runDir, f), 'utf8');
        assert.ok(Buffer.byteLength(text) <= FILE_KINDS.revisedBrief.maxBytes, `${f}: ${Buffer.byteLength(text)} bytes`);
        assert.match(text, CUT_NOTE);
      }
      const rerank = await startCli(['rerank', root, id], suite.env).done;
      assert.equal(rerank.code, 0, rerank.stderr);
      for (const f of ['A.md', 'B.md']) assert.ok((await fs.stat(path.join(runDir, 'rerank', f))).size <= FILE_KINDS.revisedBrief.maxBytes);
      assert.equal((await readRunRecord(root, id)).status, 'completed');
    });

    it('rerank A.md/B.md: a revised brief that grows when made inert (every "<" an entity) is cut, not written past the cap', async () => {
      const { root, id, runDir } = await completedBriefRun(suite.env, 2);
      await fs.writeFile(path.join(runDir, 'iteration-1', 'brief.md'), '<b> '.repeat(90 * 1024));
      // As a record from before hashes were kept (a hand-edited brief is otherwise refused: tamperedBrief.test.ts).
      const record = await readRunRecord(root, id);
      for (const it of record.iterations) if (it.brief) delete it.brief.sha256;
      await makeBriefRerankSet(root, record);
      for (const f of ['A.md', 'B.md']) {
        const text = await fs.readFile(path.join(runDir, 'rerank', f), 'utf8');
        assert.ok(Buffer.byteLength(text) <= FILE_KINDS.revisedBrief.maxBytes);
      }
    });
  });
});
