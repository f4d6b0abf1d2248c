/**
 * A re-rank key changed after `rerank` wrote it (issue 29): run.json keeps the key's sha256 when it is written, and
 * `compare` refuses a key that no longer matches, in one sentence naming the file (exit 1), instead of reading the
 * team's re-rankings through letters someone swapped. Through the real CLI.
 */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { RunRecordSchema } from '../../../src/core/record/record';
import { useBuiltCli } from '../cli/buildCli';
import { makeReviewWithRun, RUN_ID, writeRerankBySource } from './fixtures';

describe('rerank: a key changed after it was written', function () {
  this.timeout(60_000);
  const { run } = useBuiltCli();

  it('is refused by compare in one sentence naming key.json, exit 1; a record without the hash (older runs) reads the key as before', async () => {
    const root = await makeReviewWithRun();
    const made = await run('rerank', root, RUN_ID);
    assert.equal(made.code, 0, made.stderr);
    const keyFile = path.join(root, 'runs', RUN_ID, 'rerank', 'key.json');
    const recordFile = path.join(root, 'runs', RUN_ID, 'run.json');
    const written = await fs.readFile(keyFile);
    const record = RunRecordSchema.parse(JSON.parse(await fs.readFile(recordFile, 'utf8')));
    assert.equal(record.rerankKeySha256, createHash('sha256').update(written).digest('hex'));
    await writeRerankBySource(root, 'd1', ['r2', '4', '3', 'r1', '2']);
    await writeRerankBySource(root, 'd2', ['r2', '3', '4', '2', 'r1']);
    assert.equal((await run('compare', root, RUN_ID, '--json')).code, 0);

    // Someone swaps what A and B stand for: still a valid key, but not the one the tool wrote.
    const key = JSON.parse(written.toString('utf8')) as Record<string, unknown>;
    await fs.writeFile(keyFile, JSON.stringify({ ...key, A: key.B, B: key.A }, null, 2) + '\n');
    const refused = await run('compare', root, RUN_ID, '--json');
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(
      refused.stderr,
      new RegExp(
        `runs/${RUN_ID}/rerank/key\\.json:0:0: error: This key is not the one teamfusion rerank wrote \\(its sha256 differs from the one run\\.json keeps\\), so it is not used\\.`,
      ),
    );
    assert.equal(refused.stderr.match(/key\.json/g)?.length, 1, 'said once');
    assert.ok(RunRecordSchema.safeParse(JSON.parse(await fs.readFile(recordFile, 'utf8'))).success, 'the record stays readable');

    // Put back byte for byte, it is used again.
    await fs.writeFile(keyFile, written);
    assert.equal((await run('compare', root, RUN_ID, '--json')).code, 0);

    // A record from before hashes were kept: the key is read as it is.
    const old = JSON.parse(await fs.readFile(recordFile, 'utf8')) as { rerankKeySha256?: string };
    delete old.rerankKeySha256;
    await fs.writeFile(recordFile, JSON.stringify(old, null, 2));
    await fs.writeFile(keyFile, JSON.stringify({ ...key, A: key.B, B: key.A }, null, 2) + '\n');
    assert.equal((await run('compare', root, RUN_ID, '--json')).code, 0);
  });
});
