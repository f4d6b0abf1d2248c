/**
 * Saves a ranking typed into the panel's form as `rankings/<id>.yaml` (or back into the designer's existing .json file).
 * The text is produced by FORMATS' writer and checked by FORMATS' validator before anything touches the disk, so the
 * panel can never write a file that `teamfusion validate` would reject. The write is atomic (temp file + rename).
 * No `vscode` import: unit tested with plain files.
 */
import type { Review } from '../../core/review/model';
import type { Diagnostic } from '../../core/diagnostics/diagnostics';
import { DESIGNER_ID_PATTERN, designerIdFromName, formatRankingYaml, sameDesigner, validateRankingText } from '../../core/review';
import { ReviewFileError } from '../../core/files/reviewFiles';
import { writeReviewFile } from '../../core/files/reviewWrites';
import type { SaveRankingRequest } from '../../protocol/panel';

export interface SaveRankingOutcome {
  ok: boolean;
  /** Relative to the review root, when written. */
  file?: string;
  designerId?: string;
  diagnostics: Diagnostic[];
}

function formError(file: string, message: string): Diagnostic {
  return { file, line: 0, column: 0, severity: 'error', message };
}

/**
 * Validates and writes one designer's ranking. `review` is the review as loaded now (option ids, existing designers).
 * `team`: a blind re-rank set's team (the designers of the review it was made from) — each member ranks it as
 * themselves (`req.member`), in rankings/<member>.yaml under the team's name for them, so it pairs with their ranking
 * before the run; nobody else ranks it. Never throws for bad input: problems come back as diagnostics naming the file.
 */
export async function saveRanking(
  review: Review,
  req: SaveRankingRequest,
  team?: readonly { id: string; name: string }[],
): Promise<SaveRankingOutcome> {
  let memberId: string | undefined;
  if (team) {
    const member = team.find((m) => m.id === req.member);
    if (!member) {
      const who = team.map((m) => m.name).join(', ');
      return {
        ok: false,
        diagnostics: [
          formError(
            'rankings',
            `Choose who you are (I am, at the top): the blind set is ranked by the run's team${who ? ` (${who})` : ''}, each as themselves.`,
          ),
        ],
      };
    }
    memberId = member.id;
    req = { ...req, designer: review.designers.find((d) => d.id === member.id)?.name ?? member.name };
  }
  const name = req.designer.trim();
  const editing = memberId ?? req.designerId;
  const existing = editing ? review.designers.find((d) => d.id === editing) : undefined;
  const id = existing ? existing.id : (memberId ?? designerIdFromName(name));
  const ext = existing && existing.file.toLowerCase().endsWith('.json') ? 'json' : 'yaml';
  const file = existing ? existing.file : `rankings/${id}.yaml`;

  if (req.designerId && !existing && memberId === undefined) {
    return {
      ok: false,
      diagnostics: [
        formError(`rankings/${req.designerId}.yaml`, `There is no ranking of "${req.designerId}" to edit any more; reload the panel.`),
      ],
    };
  }
  if (!name) return { ok: false, diagnostics: [formError(file, "Type the designer's name.")] };
  if (!DESIGNER_ID_PATTERN.test(id)) {
    return { ok: false, diagnostics: [formError(file, 'The name needs at least one letter or digit (it names the ranking file).')] };
  }
  if (!existing && review.designers.some((d) => sameDesigner(d.id, id))) {
    return {
      ok: false,
      diagnostics: [formError(file, `A ranking named "${id}" exists already. Pick it under "Edit" to change it, or use another name.`)],
    };
  }

  const entries = req.ranking.map((e) => ({ option: e.option, rank: e.rank, justification: e.justification.trim() }));
  const role = req.role?.trim() ? req.role.trim() : undefined;
  const weight = existing && existing.weight !== 1 ? existing.weight : undefined;
  const shape = { designer: name, ...(role ? { role } : {}), ...(weight !== undefined ? { weight } : {}), ranking: entries };
  const text = ext === 'json' ? `${JSON.stringify(shape, null, 2)}\n` : formatRankingYaml(shape);

  const optionIds = review.options.map((o) => o.id);
  const checked = validateRankingText(text, file, optionIds, ext);
  const errors = checked.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0 || !checked.ranking) {
    return { ok: false, diagnostics: checked.diagnostics.length ? checked.diagnostics : [formError(file, 'The ranking is not valid.')] };
  }
  try {
    // Contained: a rankings/ folder (or file) that is a symbolic link out of the review is refused, never written through.
    await writeReviewFile(review.root, file, text);
  } catch (e) {
    if (e instanceof ReviewFileError) return { ok: false, diagnostics: [formError(file, e.message)] };
    const why = e instanceof Error && 'code' in e ? String((e as NodeJS.ErrnoException).code) : 'unknown error';
    return { ok: false, diagnostics: [formError(file, `The file could not be written (${why}).`)] };
  }
  return { ok: true, file, designerId: id, diagnostics: checked.diagnostics };
}
