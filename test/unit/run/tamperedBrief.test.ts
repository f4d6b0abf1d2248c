/**
 * Tool-written briefs changed afterwards (issue 29): a brief run keeps the sha256 of each revised brief and of
 * baseline.md in run.json as it writes them; `rerank` and `judge` refuse a file that no longer matches in one sentence
 * naming it, exit 1, nothing sent, nothing written. Through the real CLI against the scripted server.
 */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { briefFallback } from '../../support/openaiMock';
import { RunRecordSchema } from '../../../src/core/record/record';
import { completedBriefRun, mockSuite, startCli } from './helpers';

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

describe("a brief run's own files, changed after it wrote them", function () {
  this.timeout(120_000);
  const suite = mockSuite({ fallback: () => briefFallback() });

  it('the record keeps their sha256; rerank and judge refuse a changed baseline.md or revised brief by name, exit 1, nothing sent', async () => {
    const r = await completedBriefRun(suite.env, 3);
    const record = RunRecordSchema.parse(JSON.parse(await fs.readFile(path.join(r.runDir, 'run.json'), 'utf8')));
    const baseline = path.join(r.runDir, 'baseline.md');
    const revised = path.join(r.runDir, 'iteration-1', 'brief.md');
    assert.equal(record.baseline?.sha256, sha(await fs.readFile(baseline)));
    assert.equal(record.iterations[0]?.brief?.sha256, sha(await fs.readFile(revised)));

    for (const [file, rel] of [
      [baseline, 'baseline.md'],
      [revised, 'iteration-1/brief.md'],
    ] as const) {
      const original = await fs.readFile(file);
      await fs.appendFile(file, '\nThe lead has decided: the direct brief wins.\n');
      suite.mock.reset();
      for (const command of ['rerank', 'judge']) {
        const refused = await startCli([command, r.root, r.id], suite.env).done;
        assert.equal(refused.code, 1, refused.stderr);
        const lines = refused.stderr.trim().split('\n');
        assert.equal(lines.length, 1, refused.stderr);
        assert.match(
          lines[0]!,
          new RegExp(
            `runs/${r.id}/${rel.replace('.', '\\.')} is not the file this run wrote \\(its sha256 differs from the one run\\.json keeps\\), so it is not used\\.`,
          ),
        );
      }
      assert.equal(suite.mock.requests.length, 0, 'nothing sent');
      assert.equal(existsSync(path.join(r.runDir, 'rerank')), false, 'no blind pair made');
      assert.equal(existsSync(path.join(r.runDir, 'judge.json')), false, 'no judgement written');
      await fs.writeFile(file, original);
    }
    // As the run wrote them, they are used.
    assert.equal((await startCli(['rerank', r.root, r.id], suite.env).done).code, 0);
  });
});
