/** The sha256 of the re-rank key kept in run.json, so a key changed afterwards is noticed (key.ts readKey). */
import { updateUndriven } from '../record/update';

/** `rerank` wrote the run's key: its sha256 is kept, so a key changed afterwards is noticed (rerank/key.ts readKey). */
export async function noteRerankKey(reviewRoot: string, runId: string, sha256: string): Promise<void> {
  await updateUndriven(reviewRoot, runId, (record) => ({ ...record, rerankKeySha256: sha256 }));
}
