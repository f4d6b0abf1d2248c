/**
 * loadReview: a review folder (contract §1) → Review + diagnostics. Never throws on bad input, never writes.
 *
 * `review` is present iff there is no error-severity diagnostic (warnings allowed), so callers can rely on
 * `if (result.review)` meaning "valid". With `partial: true` (live views), `review` is also built when the only
 * errors are in rankings/; the ranking files with errors are then left out of `review.designers`. With
 * `despiteSettings` as well, errors in review.yaml do not stop it either (only its valid settings are kept).
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { LIMITS, listInReview, ReviewFileError, statInReview } from '../files/reviewFiles';
import type { DesignerRanking, LoadOptions, LoadResult, Review, ReviewConfig } from './model';
import type { Diagnostic } from '../diagnostics/diagnostics';
import { capPerFile, error, hasErrors, sortDiagnostics, warning } from '../diagnostics/diagnostics';
import { designerKey, filesForOneId, MAX_MEMBERS, oneIdTwiceMessage, tooManyMembersMessage } from '../rankings/designerId';
import { OnePersonOneFile } from './samePerson';
import { naturalCompare } from '../kernel/naturalOrder';
import { loadOptions } from './options';
import { mapLimited } from '../kernel/limit';
import { checkRankingText, designerIdOf, rankingFormatOf } from '../rankings/rankingText';
import { parseReviewConfig } from './reviewConfig';
import type { ParsedReviewConfig } from './reviewConfig';
import { readTextFile } from '../files/textFile';
import { checkPeople } from './guests';
import { loadComments, type CommentStated } from './comments';
import { usualWayRunsNote } from './usualRuns';
import type { DesignerComment } from './model';
import { loadReferences } from './references';
import { openReviewAuthorship, uncheckedDoor, type AuthorshipDoor } from '../authorship/door';

/** stat of a contained path: undefined when missing; a path that leads outside the review is an error (thrown). */
async function statOf(root: string, rel: string): Promise<import('node:fs').Stats | undefined> {
  return statInReview(root, rel);
}

/** review.yaml's team entry for a designer id (by the one designer-id rule). */
function teamEntry(config: ReviewConfig, id: string): { role?: string; weight?: number } | undefined {
  const key = designerKey(id);
  const name = Object.keys(config.team ?? {}).find((k) => designerKey(k) === key);
  return name === undefined ? undefined : config.team?.[name];
}

/** A ReviewFileError as a diagnostic on its own file; anything else is rethrown. */
function fileProblem(err: unknown): Diagnostic {
  if (err instanceof ReviewFileError) return error(err.file || '.', err.message);
  throw err;
}

function titleOf(config: ReviewConfig, brief: string, root: string): string {
  if (config.title) return config.title;
  const heading = /^#\s+(.+?)\s*#*\s*$/m.exec(brief);
  return heading?.[1] ?? path.basename(root);
}

async function loadConfig(root: string): Promise<ParsedReviewConfig> {
  const diagnostics: Diagnostic[] = [];
  const exists = async (rel: string): Promise<boolean> => (await statOf(root, rel).catch(() => 'outside')) !== undefined;
  if (!(await exists('review.yaml')) && (await exists('review.yml'))) {
    diagnostics.push(warning('review.yml', 'review.yml is ignored: the settings file must be named review.yaml.'));
  }
  const read = await readTextFile(root, 'review.yaml', {
    label: 'review settings in YAML',
    allowEmpty: true,
    maxBytes: LIMITS.reviewConfig,
  });
  if (!read.ok) {
    if (!read.missing) diagnostics.push(read.diagnostic);
    return { config: {}, diagnostics, positions: new Map() };
  }
  const parsed = parseReviewConfig(read.text);
  return { ...parsed, diagnostics: [...diagnostics, ...parsed.diagnostics] };
}

async function loadRankings(
  root: string,
  optionIds: string[] | null,
  parsedConfig: ParsedReviewConfig,
  requireRankings: boolean,
  door: AuthorshipDoor,
): Promise<{ designers: DesignerRanking[]; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const designers: DesignerRanking[] = [];
  const config = parsedConfig.config;
  const where = (key: string): [number, number] => parsedConfig.positions.get(key) ?? [0, 0];
  const names = await rankingNames(root, requireRankings, diagnostics);
  if (names === undefined) return { designers, diagnostics };
  // The ranking files are read a few at a time (a large team's folder is mostly waiting on the disk), then checked in order.
  const reads = new Map(
    await mapLimited(
      names.filter((n) => !n.startsWith('.') && rankingFormatOf(n)),
      8,
      async (name) =>
        [
          name,
          await readTextFile(root, `rankings/${name}`, { label: 'a designer ranking', allowEmpty: true, maxBytes: LIMITS.ranking }),
        ] as const,
    ),
  );
  const seen = new Map<string, string>();
  const people = new OnePersonOneFile('ranking');
  const sameId = filesForOneId(
    names.filter((n) => !n.startsWith('.') && rankingFormatOf(n)).map((n) => `rankings/${n}`),
    (rel) => designerIdOf(rel.slice('rankings/'.length)),
  );
  let rankingFiles = 0;
  for (const name of names) {
    if (name.startsWith('.')) continue;
    const rel = `rankings/${name}`;
    const format = rankingFormatOf(name);
    if (!format) {
      const st = await statOf(root, rel).catch(() => undefined);
      diagnostics.push(
        warning(
          rel,
          st?.isDirectory()
            ? `The folder ${rel} is ignored; rankings/ holds one file per designer.`
            : `${rel} is not a .yaml, .yml or .json ranking file and is ignored.`,
        ),
      );
      continue;
    }
    rankingFiles++;
    const id = designerIdOf(name);
    const read =
      reads.get(name) ?? (await readTextFile(root, rel, { label: 'a designer ranking', allowEmpty: true, maxBytes: LIMITS.ranking }));
    if (!read.ok) {
      diagnostics.push(read.diagnostic);
      continue;
    }
    const others = sameId.get(rel);
    if (others) {
      // One person, one file: neither counts (a member's folder cannot count them twice, nor pick one for them).
      if (!seen.has(designerKey(id))) seen.set(designerKey(id), name);
      diagnostics.push(error(rel, oneIdTwiceMessage(rel, others, id)));
      continue;
    }
    seen.set(designerKey(id), name);
    const checked = checkRankingText(read.text, rel, optionIds, format);
    for (const d of checked.diagnostics) diagnostics.push(d);
    if (!checked.ranking) continue;
    const twice = people.add(rel, checked.ranking.name, read.text);
    if (twice) {
      diagnostics.push(twice);
      continue;
    }
    const forged = await door.check(path.join(root, ...rel.split('/')), id);
    if (forged) {
      diagnostics.push(notCounted(rel, id, forged.reason));
      continue;
    }
    const team = teamEntry(config, id);
    if (team) {
      if (!checked.stated.role && team.role) checked.ranking.role = team.role;
      if (!checked.stated.weight && team.weight !== undefined) checked.ranking.weight = team.weight;
    }
    designers.push(checked.ranking);
  }

  checkRankingsAgainstConfig(config, seen, rankingFiles, requireRankings, where, diagnostics);
  designers.sort((a, b) => naturalCompare(a.id, b.id));
  return { designers, diagnostics };
}

/** The names in rankings/ (sorted), or undefined once the folder's problem is reported (missing, a file, unreadable,
 * too many ranking files). */
async function rankingNames(root: string, requireRankings: boolean, diagnostics: Diagnostic[]): Promise<string[] | undefined> {
  let stat;
  try {
    stat = await statOf(root, 'rankings');
  } catch (err) {
    diagnostics.push(fileProblem(err));
    return undefined;
  }
  if (!stat) {
    if (requireRankings) {
      diagnostics.push(
        error('rankings', 'The rankings/ folder is missing. Create it with one <designer-id>.yaml file per designer (or import a CSV).'),
      );
    }
    return undefined;
  }
  if (!stat.isDirectory()) {
    diagnostics.push(error('rankings', 'rankings is a file, but it must be a folder with one ranking file per designer.'));
    return undefined;
  }
  let names: string[];
  try {
    names = ((await listInReview(root, 'rankings')) ?? []).sort(naturalCompare);
  } catch {
    diagnostics.push(error('rankings', 'The rankings/ folder could not be read (permission denied?).'));
    return undefined;
  }

  const count = names.filter((n) => !n.startsWith('.') && rankingFormatOf(n)).length;
  if (count > MAX_MEMBERS) {
    diagnostics.push(error('rankings', tooManyMembersMessage('rankings', count)));
    return undefined;
  }
  return names;
}

/** What the rankings found say about the review as a whole and review.yaml's team, lead and hierarchy. */
function checkRankingsAgainstConfig(
  config: ReviewConfig,
  seen: Map<string, string>,
  rankingFiles: number,
  requireRankings: boolean,
  where: (key: string) => [number, number],
  diagnostics: Diagnostic[],
): void {
  if (rankingFiles === 0 && requireRankings) {
    diagnostics.push(
      error('rankings', 'rankings/ has no ranking files yet. Add one <designer-id>.yaml (or .json) per designer, or import a CSV.'),
    );
  } else if (rankingFiles === 1 && requireRankings) {
    diagnostics.push(warning('rankings', 'There is only one ranking file; agreement needs two or more designers.'));
  }
  for (const id of Object.keys(config.team ?? {})) {
    if (!seen.has(designerKey(id)) && rankingFiles > 0) {
      diagnostics.push(
        warning('review.yaml', `team lists "${id}", but there is no rankings/${id}.yaml; that entry is unused.`, ...where(`team.${id}`)),
      );
    }
  }
  if (config.lead !== undefined && rankingFiles > 0 && !seen.has(designerKey(config.lead))) {
    // An error: the lead is placed in the speaking order and decides under hierarchy: lead-decides.
    diagnostics.push(
      error(
        'review.yaml',
        `lead is "${config.lead}", but no ranking file has that designer id; name one of the designers (${[...seen.values()].map(designerIdOf).join(', ')}).`,
        ...where('lead'),
      ),
    );
  }
  if (config.hierarchy === 'lead-decides' && config.lead === undefined) {
    diagnostics.push(
      error(
        'review.yaml',
        'hierarchy is lead-decides, but review.yaml names no lead; add lead: <designer-id> or choose flat or weighted.',
        ...where('hierarchy'),
      ),
    );
  }
  for (const d of checkPeople(config, seen, rankingFiles > 0, where)) diagnostics.push(d);
}

/** A member's file someone else wrote (the authorship door): said on the file, left out of every count. */
function notCounted(rel: string, member: string, reason: string): Diagnostic {
  return warning(rel, `${rel} is not counted for ${member}: ${reason}.`);
}

/** The comments the door lets speak for their members; the others are said and left out. */
async function authoredComments(
  root: string,
  comments: DesignerComment[],
  door: AuthorshipDoor,
  diagnostics: Diagnostic[],
): Promise<DesignerComment[]> {
  const kept: DesignerComment[] = [];
  for (const c of comments) {
    const forged = await door.check(path.join(root, ...c.file.split('/')), c.designer);
    if (forged) diagnostics.push(notCounted(c.file, c.designer, forged.reason));
    else kept.push(c);
  }
  return kept;
}

/** review.yaml's team roles/weights fill in what a comment's front matter leaves out (as for rankings). */
function fillFromTeam(comments: DesignerComment[], stated: Map<string, CommentStated>, config: ReviewConfig): void {
  for (const c of comments) {
    const team = teamEntry(config, c.designer);
    if (!team) continue;
    const s = stated.get(c.designer);
    if (!s?.role && team.role) c.role = team.role;
    if (!s?.weight && team.weight !== undefined) c.weight = team.weight;
  }
}

/**
 * The team is whoever has a comment or a ranking; one id is one member (the one designer-id rule), so a comment and a
 * ranking of the same id with different display names is an error on the comment.
 */
function teamClashes(
  comments: readonly DesignerComment[],
  designers: readonly DesignerRanking[],
  stated: Map<string, CommentStated>,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const c of comments) {
    const r = designers.find((d) => designerKey(d.id) === designerKey(c.designer));
    if (r && r.name !== c.name) {
      out.push(
        error(
          c.file,
          `${c.file} says designer: ${JSON.stringify(c.name)}, but ${r.file} (the same designer id) says ${JSON.stringify(r.name)}. One id is one member: use the same name in both, or rename one file.`,
          stated.get(c.designer)?.designerAt.line ?? 0,
          stated.get(c.designer)?.designerAt.column ?? 0,
        ),
      );
    }
  }
  return out;
}

/**
 * The authorship door of the review at `root` (its review.yaml's team e-mails and requireSignedCommits), for a reader of
 * a member's file that does not load the whole review. A review.yaml with errors checks nothing, and says so.
 */
export async function reviewAuthorship(root: string): Promise<AuthorshipDoor> {
  const config = await loadConfig(path.resolve(root));
  if (config.diagnostics.some((d) => d.severity === 'error')) {
    return uncheckedDoor(root, "Who wrote each member's file is not checked: review.yaml has errors (teamfusion validate says which).");
  }
  return openReviewAuthorship(path.resolve(root), config.config);
}

/** A run's blind re-rank set (runs/<id>/rerank) is judged by its review's door; any other folder by its own review.yaml. */
async function defaultDoor(absRoot: string, config: ReviewConfig): Promise<AuthorshipDoor> {
  const review = path.resolve(absRoot, '..', '..', '..');
  const isRerank = path.basename(absRoot) === 'rerank' && path.basename(path.resolve(absRoot, '..', '..')) === 'runs';
  if (isRerank && (await fs.stat(path.join(review, 'review.yaml')).catch(() => undefined))?.isFile()) return reviewAuthorship(review);
  return openReviewAuthorship(absRoot, config);
}

export async function loadReview(root: string, opts: LoadOptions = {}): Promise<LoadResult> {
  const requireRankings = opts.requireRankings ?? true;
  const decodeImages = opts.decodeImages ?? true;
  const absRoot = path.resolve(root);
  try {
    const rootStat = await fs.stat(absRoot).catch(() => undefined);
    if (!rootStat) return { diagnostics: [error('.', `The review folder ${root} does not exist.`)] };
    if (!rootStat.isDirectory()) {
      return { diagnostics: [error('.', `${root} is a file; a review is a folder with brief.md, options/ and rankings/.`)] };
    }

    const [brief, options, config] = await Promise.all([
      readTextFile(absRoot, 'brief.md', {
        label: 'client brief in Markdown',
        maxBytes: LIMITS.brief,
        missingMessage: 'brief.md is missing. Add the client brief as a Markdown file named brief.md.',
      }),
      loadOptions(absRoot, decodeImages),
      loadConfig(absRoot),
    ]);
    // A brief review (issue 17): with comments/ and no options/, neither options nor rankings are needed.
    const comments = await loadComments(absRoot);
    const references = await loadReferences(absRoot, decodeImages);
    const optionsMissing = !options.options && (await statOf(absRoot, 'options').catch(() => 'outside')) === undefined;
    const briefOnly = comments.comments !== undefined && optionsMissing;
    const rankingsPresent = (await statOf(absRoot, 'rankings').catch(() => 'outside')) !== undefined;
    // Who wrote each member's file (issue 39): one door for the whole load (a re-rank set is judged by its review's door).
    const door = opts.authorship ?? (await defaultDoor(absRoot, config.config));
    const rankings = await loadRankings(
      absRoot,
      options.ids ?? null,
      config,
      requireRankings && !(comments.comments !== undefined && !rankingsPresent),
      door,
    );
    const unauthored: Diagnostic[] = [];
    const commentList = await authoredComments(absRoot, comments.comments ?? [], door, unauthored);
    fillFromTeam(commentList, comments.stated, config.config);

    const usualRuns = config.config.condition === 'usual' ? await usualWayRunsNote(absRoot) : undefined;
    const diagnostics = capPerFile(
      sortDiagnostics([
        ...(usualRuns ? [warning('runs', usualRuns)] : []),
        ...(brief.ok ? [] : [brief.diagnostic]),
        ...(briefOnly ? [] : options.diagnostics),
        ...config.diagnostics,
        ...rankings.diagnostics,
        ...comments.diagnostics,
        ...unauthored,
        ...references.diagnostics,
        ...teamClashes(commentList, rankings.designers, comments.stated),
      ]),
    );
    const tolerated = (file: string): boolean =>
      file === 'rankings' || file.startsWith('rankings/') || (opts.despiteSettings === true && file === 'review.yaml');
    const structural = diagnostics.some((d) => d.severity === 'error' && !tolerated(d.file));
    const usable = opts.partial ? !structural : !hasErrors(diagnostics);
    if (!usable || !brief.ok || (!options.options && !briefOnly)) return { diagnostics, authorship: door };

    const review: Review = {
      root: absRoot,
      title: titleOf(config.config, brief.text, absRoot),
      brief: brief.text,
      options: options.options ?? [],
      designers: rankings.designers,
      comments: commentList,
      config: config.config,
      ...(references.references.length ? { references: references.references } : {}),
    };
    return { review, diagnostics, authorship: door };
  } catch (err) {
    // Unexpected (e.g. a file vanishing mid-read): still a diagnostic, never a throw.
    const reason = err instanceof Error ? err.message.split('\n')[0] : String(err);
    return { diagnostics: [error('.', `The review could not be read: ${reason}`)] };
  }
}
