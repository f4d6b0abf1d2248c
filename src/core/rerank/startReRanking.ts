/**
 * startReRanking: after a completed run, the team ranks the run's final candidates again. The re-ranking folder is an
 * ordinary review (brief.md, options/, rankings/, review.yaml) at runs/<run-id>/rerank/, so every command that reads a
 * review (validate, analyze, the panel's "My ranking") works on it unchanged. Nothing outside that folder is touched.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { stringify } from 'yaml';
import { pathExists, writeFileAtomic } from '../fsUtil';
import { loadReview } from '../review/loadReview';
import type { RunRecord } from '../run/record';
import { readRunRecord } from '../run/store';
import { rerankDir } from './paths';

/** One option of the new review: where it comes from (absolute) and its file name in options/. */
export interface RerankOptionSource {
  id: string;
  from: string;
  name: string;
}

/**
 * The run's final candidates (the last iteration's `candidates`), each with its source file: original options keep
 * their file names, remixes become `r<k>.png`. Throws a plain sentence when the record does not say where one is.
 */
export function finalCandidateFiles(reviewRoot: string, record: RunRecord): RerankOptionSource[] {
  const last = record.iterations.at(-1);
  if (!last || last.candidates.length < 2) {
    throw new Error(`Run ${record.id} ends with ${last?.candidates.length ?? 0} candidate(s); re-ranking needs at least two.`);
  }
  const runFolder = path.join(reviewRoot, 'runs', record.id);
  return last.candidates.map((id) => {
    const remix = record.iterations.find((it) => it.remix?.id === id)?.remix;
    if (remix) return { id, from: path.join(runFolder, ...remix.file.split('/')), name: `${id}${path.extname(remix.file) || '.png'}` };
    const option = record.options.find((o) => o.id === id);
    if (!option) throw new Error(`Run ${record.id} names candidate "${id}", but its record does not say which file that is.`);
    return { id, from: path.join(reviewRoot, ...option.file.split('/')), name: path.posix.basename(option.file) };
  });
}

/** Creates runs/<run-id>/rerank/ and returns its absolute path. */
export async function startReRanking(reviewRoot: string, runId: string): Promise<string> {
  const root = path.resolve(reviewRoot);
  const target = rerankDir(root, runId);
  const record = await readRunRecord(root, runId);
  if (record.status !== 'completed') {
    throw new Error(`Run ${runId} is ${record.status}; only a completed run can be re-ranked.`);
  }
  if (await pathExists(target)) {
    throw new Error(`Run ${runId} already has a re-ranking folder (runs/${runId}/rerank); the designers rank there.`);
  }
  const sources = finalCandidateFiles(root, record);
  for (const s of sources) {
    if (!(await pathExists(s.from))) throw new Error(`Candidate "${s.id}" of run ${runId} is missing: ${path.relative(root, s.from)} does not exist.`);
  }
  const names = new Set(sources.map((s) => s.name.toLowerCase()));
  if (names.size !== sources.length) throw new Error(`Two final candidates of run ${runId} would get the same file name.`);

  const { review } = await loadReview(root, { requireRankings: false, decodeImages: false, partial: true });
  const title = `${review?.title ?? path.basename(root)} — re-ranking after run ${runId}`;
  const brief = await fs.readFile(path.join(root, 'brief.md')).catch(() => {
    throw new Error(`${path.basename(root)}/brief.md could not be read; the re-ranking needs the brief.`);
  });

  // Built beside the target and renamed into place, so a half-made folder never looks like a review.
  const staging = `${target}.partial-${process.pid}`;
  await fs.rm(staging, { recursive: true, force: true });
  try {
    await fs.mkdir(path.join(staging, 'options'), { recursive: true });
    await fs.mkdir(path.join(staging, 'rankings'), { recursive: true });
    await fs.writeFile(path.join(staging, 'brief.md'), brief);
    for (const s of sources) await fs.copyFile(s.from, path.join(staging, 'options', s.name));
    await fs.writeFile(path.join(staging, 'rankings', '.gitkeep'), '');
    await writeFileAtomic(
      path.join(staging, 'review.yaml'),
      `# The team ranks the final candidates of run ${runId} again; "teamfusion compare" shows whether W went up.\n${stringify({ title }, { lineWidth: 0 })}`,
    );
    if (await pathExists(target)) throw new Error(`Run ${runId} already has a re-ranking folder (runs/${runId}/rerank); the designers rank there.`);
    await fs.rename(staging, target);
  } catch (err) {
    await fs.rm(staging, { recursive: true, force: true }).catch(() => undefined);
    throw err;
  }
  return target;
}
