/**
 * How a run's re-rank folder comes to be (design and brief alike): filled in a folder of its own under a random name
 * beside its place (never a name someone could plant a link at), the key written last, then moved into place; an
 * existing runs/<run-id>/rerank/ is never overwritten, and on failure only the folder this process made is removed (no
 * link followed).
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { noteRerankKey } from './keyHash';
import { makeOwnFolder, removeOwnFolder, renameOwnFolder } from '../files/reviewWrites';
import { statInReview } from '../files/reviewFiles';
import { writeKindFile } from '../files/writeCaps';
import { formatKey, type RerankKey, type RerankSetResult } from './key';
import { KEY_FILE, rerankRel, runRel } from './paths';

export async function buildRerankFolder(
  root: string,
  runId: string,
  key: RerankKey,
  fill: (staging: string) => Promise<void>,
): Promise<RerankSetResult> {
  const target = rerankRel(runId);
  let keyHash = '';
  const staging = await makeOwnFolder(root, runRel(runId), path.posix.basename(target));
  try {
    await fill(staging);
    await writeKindFile(root, `${staging}/${KEY_FILE}`, 'rerankKey', formatKey(key), { exclusive: true });
    keyHash = createHash('sha256').update(formatKey(key)).digest('hex');
    if (await statInReview(root, target))
      throw new Error(`Run ${runId} already has a re-rank folder (${target}); it is never overwritten.`);
    await renameOwnFolder(root, staging, target);
  } catch (err) {
    await removeOwnFolder(root, staging);
    throw err;
  }
  await noteRerankKey(root, runId, keyHash);
  return { dir: path.join(root, ...target.split('/')), key };
}
