/**
 * What the Reviews tree shows of a review folder, read tolerantly from disk: it must still show a review whose files
 * are broken (that is when people look at it), so nothing here rejects a folder; problems are the diagnostics' job.
 * Tolerant, but never beyond the review's rules: every read goes through the review's file room (contained, regular
 * files only, the same byte caps) and YAML is parsed only after its nesting depth was checked, so a repository with a
 * huge or hostile file cannot take the extension host down.
 */
import { checkNesting } from '../../core/files/nesting';
import { LIMITS, listInReview, readReviewText } from '../../core/files/reviewFiles';
import * as path from 'node:path';
import { parseDocumentUnique } from '../../core/kernel/yaml';
import * as z from 'zod';
import { naturalCompare } from '../../core/review/index';
import { formatDiagnostic } from '../../core/diagnostics/diagnostics';
import { listRunEntries } from '../../core/record/store';
import { interruptedRuns } from '../../core/record/lock';
import { COMMENTS_DIR } from '../../core/review/commentFile';
import { splitFrontMatter } from '../../core/review/comments';

export interface OptionEntry {
  id: string;
  file: string;
  label: string;
}

export interface DesignerEntry {
  id: string;
  /** Relative to the review root. */
  file: string;
  name: string;
  role?: string;
  weight: number;
}

/** A member's comment on the brief (comments/<id>.md), read tolerantly for the tree. */
export interface CommentEntry {
  id: string;
  /** Relative to the review root. */
  file: string;
  name: string;
  role?: string;
}

export interface RunEntry {
  runId: string;
  status?: 'running' | 'waiting' | 'completed' | 'failed' | 'cancelled';
  startedAt?: string;
  finalPick?: string;
  iterations: number;
  error?: string;
  /** "running" on disk, but no live process drives it (killed): interrupted, resumable. */
  interrupted?: boolean;
  /** Why the record cannot be used (`runs/<id>/run.json:<line>:<col>: error: …`): the run is shown as broken. */
  problem?: string;
}

export interface ReviewContents {
  title: string;
  hasBrief: boolean;
  options: OptionEntry[];
  designers: DesignerEntry[];
  /** Members' comments on the brief; a review with comments/ is a brief review (it may be a design review too). */
  comments: CommentEntry[];
  hasComments: boolean;
  runs: RunEntry[];
}

const RankingHead = z.object({
  designer: z.string().optional().catch(undefined),
  role: z.string().optional().catch(undefined),
  weight: z.number().positive().optional().catch(undefined),
});

const ReviewYamlHead = z.object({ title: z.string().optional().catch(undefined) });

async function list(root: string, rel: string): Promise<string[]> {
  try {
    return (await listInReview(root, rel)) ?? [];
  } catch {
    return [];
  }
}

async function readText(root: string, rel: string, maxBytes: number): Promise<string | undefined> {
  try {
    return await readReviewText(root, rel, maxBytes);
  } catch {
    return undefined;
  }
}

function parseLoose(text: string | undefined): unknown {
  if (text === undefined || checkNesting(text)) return undefined;
  try {
    // YAML is a superset of JSON. Through the one linear duplicate-key check: a hostile file of many keys must not
    // stall the tree; a file with any error shows as unreadable here (its diagnostics say why).
    const doc = parseDocumentUnique(text);
    return doc.errors.length > 0 ? undefined : (doc.toJS() as unknown);
  } catch {
    return undefined;
  }
}

export async function readReviewContents(root: string): Promise<ReviewContents> {
  const [rootNames, optionNames, rankingNames, commentNames, runNames] = await Promise.all([
    list(root, '.'),
    list(root, 'options'),
    list(root, 'rankings'),
    list(root, COMMENTS_DIR),
    list(root, 'runs'),
  ]);
  const config = ReviewYamlHead.safeParse(parseLoose(await readText(root, 'review.yaml', LIMITS.reviewConfig)) ?? {});
  const options = optionNames
    .filter((n) => /\.(png|jpe?g|webp)$/i.test(n))
    .map((n) => ({ id: n.replace(/\.[^.]+$/, ''), file: `options/${n}` }))
    .sort((a, b) => naturalCompare(a.id, b.id))
    .map((o, i) => ({ ...o, label: `Image ${i + 1}` }));
  const designers: DesignerEntry[] = [];
  for (const n of rankingNames.filter((x) => /\.(ya?ml|json)$/i.test(x)).sort(naturalCompare)) {
    const head = RankingHead.safeParse(parseLoose(await readText(root, `rankings/${n}`, LIMITS.ranking)) ?? {});
    const h = head.success ? head.data : {};
    const id = n.replace(/\.[^.]+$/, '');
    designers.push({ id, file: `rankings/${n}`, name: h.designer?.trim() || id, role: h.role, weight: h.weight ?? 1 });
  }
  const comments: CommentEntry[] = [];
  for (const n of commentNames.filter((x) => /\.md$/i.test(x) && !x.startsWith('.')).sort(naturalCompare)) {
    const file = `${COMMENTS_DIR}/${n}`;
    const text = await readText(root, file, LIMITS.comment);
    const head = RankingHead.safeParse(parseLoose(text === undefined ? undefined : splitFrontMatter(text)?.yaml) ?? {});
    const h = head.success ? head.data : {};
    const id = n.replace(/\.md$/i, '');
    comments.push({ id, file, name: h.designer?.trim() || id, ...(h.role ? { role: h.role } : {}) });
  }
  // Runs are read like every command reads them: validated (a broken record is shown as broken, with its diagnostic).
  const entries = runNames.length === 0 ? [] : await listRunEntries(root).catch(() => []);
  const interrupted = await interruptedRuns(
    root,
    entries.flatMap((e) => (e.record ? [e.record] : [])),
  );
  const runs: RunEntry[] = entries.map((e) =>
    e.record
      ? {
          runId: e.id,
          status: e.record.status,
          startedAt: e.record.startedAt,
          finalPick: e.record.finalPick,
          iterations: e.record.iterations.length,
          error: e.record.error,
          ...(interrupted.has(e.id) ? { interrupted: true } : {}),
        }
      : { runId: e.id, iterations: 0, problem: e.diagnostics.map(formatDiagnostic).join('\n') },
  );
  return {
    title: (config.success ? config.data.title : undefined)?.trim() || path.basename(root),
    hasBrief: rootNames.includes('brief.md'),
    options,
    designers,
    comments,
    hasComments: rootNames.includes(COMMENTS_DIR),
    runs,
  };
}
