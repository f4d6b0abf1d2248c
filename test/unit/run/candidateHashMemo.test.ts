/**
 * A round's candidate check does not read an unchanged option again (its hash is kept per file identity), yet a file
 * changed since is always caught: same size, modification time set back by hand — its change time still moved.
 */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { CandidateChangedError, checkCandidates, withCandidateHashes } from '../../../src/core/run/design/candidateHashes';
import { makeTempDir } from './fixtures';

describe('candidate hashes kept per file identity', function () {
  this.timeout(30_000);

  it('an unchanged option checks out; one rewritten with the same size and its old modification time is still caught', async () => {
    const root = await makeTempDir('tf-cand-memo-');
    try {
      await fs.mkdir(path.join(root, 'options'));
      const file = path.join(root, 'options', 'a.png');
      await fs.writeFile(file, Buffer.alloc(4096, 1));
      // A whole second, so that setting it again later gives the very same modification time.
      const old = Math.floor(Date.now() / 1000) - 60;
      await fs.utimes(file, old, old);
      const before = await fs.stat(file, { bigint: true });
      // Older than the 2 s within which a just-changed file is never kept.
      await new Promise((r) => setTimeout(r, 2200));
      const options = await withCandidateHashes(root, [{ id: 'a', label: 'Image 1', file: 'options/a.png' }]);
      assert.equal(options[0]?.sha256, createHash('sha256').update(Buffer.alloc(4096, 1)).digest('hex'));
      await checkCandidates(root, options);
      await checkCandidates(root, options);

      await fs.writeFile(file, Buffer.alloc(4096, 2));
      await fs.utimes(file, old, old);
      const after = await fs.stat(file, { bigint: true });
      assert.equal(after.size, before.size);
      assert.equal(after.mtimeNs, before.mtimeNs);
      await assert.rejects(
        checkCandidates(root, options),
        (e: unknown) => e instanceof CandidateChangedError && /options\/a\.png has changed/.test(e.message),
      );
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});
