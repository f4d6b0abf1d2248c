/**
 * loadReview: a review folder (contract §1) → Review + diagnostics. Never throws on bad input, never writes.
 *
 * `review` is present iff there is no error-severity diagnostic (warnings allowed), so callers can rely on
 * `if (result.review)` meaning "valid". With `partial: true` (live views), `review` is also built when the only
 * errors are in rankings/; the ranking files with errors are then left out of `review.designers`.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { DesignerRanking, Diagnostic, LoadOptions, LoadResult, Review, ReviewConfig } from './model';
import { error, hasErrors, sortDiagnostics, warning } from './diagnostics';
import { naturalCompare } from './naturalOrder';
import { loadOptions } from './options';
import { checkRankingText, designerIdOf, rankingFormatOf } from './rankingText';
import { parseReviewConfig } from './reviewConfig';
import type { ParsedReviewConfig } from './reviewConfig';
import { readTextFile } from './textFile';

async function statOf(p: string): Promise<import('node:fs').Stats | undefined> {
  try {
    return await fs.stat(p);
  } catch {
    return undefined;
  }
}

function titleOf(config: ReviewConfig, brief: string, root: string): string {
  if (config.title) return config.title;
  const heading = /^#\s+(.+?)\s*#*\s*$/m.exec(brief);
  return heading ? heading[1] : path.basename(root);
}

async function loadConfig(root: string): Promise<ParsedReviewConfig> {
  const diagnostics: Diagnostic[] = [];
  if (!(await statOf(path.join(root, 'review.yaml'))) && (await statOf(path.join(root, 'review.yml')))) {
    diagnostics.push(warning('review.yml', 'review.yml is ignored: the settings file must be named review.yaml.'));
  }
  const read = await readTextFile(path.join(root, 'review.yaml'), 'review.yaml', { label: 'review settings in YAML', allowEmpty: true });
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
): Promise<{ designers: DesignerRanking[]; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const designers: DesignerRanking[] = [];
  const config = parsedConfig.config;
  const where = (key: string): [number, number] => parsedConfig.positions.get(key) ?? [0, 0];
  const dir = path.join(root, 'rankings');
  const stat = await statOf(dir);
  if (!stat) {
    if (requireRankings) {
      diagnostics.push(
        error('rankings', 'The rankings/ folder is missing. Create it with one <designer-id>.yaml file per designer (or import a CSV).'),
      );
    }
    return { designers, diagnostics };
  }
  if (!stat.isDirectory()) {
    diagnostics.push(error('rankings', 'rankings is a file, but it must be a folder with one ranking file per designer.'));
    return { designers, diagnostics };
  }
  let names: string[];
  try {
    names = (await fs.readdir(dir)).sort(naturalCompare);
  } catch {
    diagnostics.push(error('rankings', 'The rankings/ folder could not be read (permission denied?).'));
    return { designers, diagnostics };
  }

  const seen = new Map<string, string>();
  let rankingFiles = 0;
  for (const name of names) {
    if (name.startsWith('.')) continue;
    const rel = `rankings/${name}`;
    const format = rankingFormatOf(name);
    if (!format) {
      const st = await statOf(path.join(dir, name));
      diagnostics.push(
        warning(rel, st?.isDirectory() ? `The folder ${rel} is ignored; rankings/ holds one file per designer.` : `${rel} is not a .yaml, .yml or .json ranking file and is ignored.`),
      );
      continue;
    }
    rankingFiles++;
    const id = designerIdOf(name);
    const read = await readTextFile(path.join(dir, name), rel, { label: 'a designer ranking', allowEmpty: true });
    if (!read.ok) {
      diagnostics.push(read.diagnostic);
      continue;
    }
    const earlier = seen.get(id.toLowerCase());
    if (earlier !== undefined) {
      diagnostics.push(
        error(rel, `${rel} and rankings/${earlier} are both for the designer id "${id}". Keep one file per designer: merge or rename one of them.`),
      );
      continue;
    }
    seen.set(id.toLowerCase(), name);
    const checked = checkRankingText(read.text, rel, optionIds, format);
    diagnostics.push(...checked.diagnostics);
    if (!checked.ranking) continue;
    const team = config.team?.[id];
    if (team) {
      if (!checked.stated.role && team.role) checked.ranking.role = team.role;
      if (!checked.stated.weight && team.weight !== undefined) checked.ranking.weight = team.weight;
    }
    designers.push(checked.ranking);
  }

  if (rankingFiles === 0 && requireRankings) {
    diagnostics.push(
      error('rankings', 'rankings/ has no ranking files yet. Add one <designer-id>.yaml (or .json) per designer, or import a CSV.'),
    );
  } else if (rankingFiles === 1 && requireRankings) {
    diagnostics.push(warning('rankings', 'There is only one ranking file; agreement needs two or more designers.'));
  }
  for (const id of Object.keys(config.team ?? {})) {
    if (!seen.has(id.toLowerCase()) && rankingFiles > 0) {
      diagnostics.push(warning('review.yaml', `team lists "${id}", but there is no rankings/${id}.yaml; that entry is unused.`, ...where(`team.${id}`)));
    }
  }
  if (config.lead !== undefined && rankingFiles > 0 && !seen.has(config.lead.toLowerCase())) {
    // An error: the lead is placed in the speaking order and decides under hierarchy: lead-decides.
    diagnostics.push(error('review.yaml', `lead is "${config.lead}", but no ranking file has that designer id; name one of the designers (${[...seen.keys()].join(', ')}).`, ...where('lead')));
  }
  if (config.hierarchy === 'lead-decides' && config.lead === undefined) {
    diagnostics.push(error('review.yaml', 'hierarchy is lead-decides, but review.yaml names no lead; add lead: <designer-id> or choose flat or weighted.', ...where('hierarchy')));
  }
  designers.sort((a, b) => naturalCompare(a.id, b.id));
  return { designers, diagnostics };
}

export async function loadReview(root: string, opts: LoadOptions = {}): Promise<LoadResult> {
  const requireRankings = opts.requireRankings ?? true;
  const decodeImages = opts.decodeImages ?? true;
  const absRoot = path.resolve(root);
  try {
    const rootStat = await statOf(absRoot);
    if (!rootStat) return { diagnostics: [error('.', `The review folder ${root} does not exist.`)] };
    if (!rootStat.isDirectory()) {
      return { diagnostics: [error('.', `${root} is a file; a review is a folder with brief.md, options/ and rankings/.`)] };
    }

    const [brief, options, config] = await Promise.all([
      readTextFile(path.join(absRoot, 'brief.md'), 'brief.md', {
        label: 'client brief in Markdown',
        missingMessage: 'brief.md is missing. Add the client brief as a Markdown file named brief.md.',
      }),
      loadOptions(absRoot, decodeImages),
      loadConfig(absRoot),
    ]);
    const rankings = await loadRankings(absRoot, options.ids ?? null, config, requireRankings);

    const diagnostics = sortDiagnostics([
      ...(brief.ok ? [] : [brief.diagnostic]),
      ...options.diagnostics,
      ...config.diagnostics,
      ...rankings.diagnostics,
    ]);
    const structural = diagnostics.some((d) => d.severity === 'error' && !(d.file === 'rankings' || d.file.startsWith('rankings/')));
    const usable = opts.partial ? !structural : !hasErrors(diagnostics);
    if (!usable || !brief.ok || !options.options) return { diagnostics };

    const review: Review = {
      root: absRoot,
      title: titleOf(config.config, brief.text, absRoot),
      brief: brief.text,
      options: options.options,
      designers: rankings.designers,
      config: config.config,
    };
    return { review, diagnostics };
  } catch (err) {
    // Unexpected (e.g. a file vanishing mid-read): still a diagnostic, never a throw.
    const reason = err instanceof Error ? err.message.split('\n')[0] : String(err);
    return { diagnostics: [error('.', `The review could not be read: ${reason}`)] };
  }
}
