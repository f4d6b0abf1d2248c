/**
 * A member's confirmations of the coverage of their own points (issue 32, item 2), validated like survey files (the same
 * YAML reading, the same file:line:col words, the same one-id-rule match of the file's name to the team):
 *   runs/<run-id>/coverage/<designer-id>.yaml   `designer`, `points: [{ point, agree: true|false, status?, comment? }]`
 * `point` is the point's text exactly as the last round's coverage in run.json has it, and only the member's own points
 * can be confirmed: a point of someone else, or one that does not exist, is refused at its line. `status` (kept, changed,
 * left-out) is the member's correction when they disagree; with `agree: true` it must be the agent's status or absent.
 */
import { stringify } from '../../kernel/yaml';
import { writeKindFile } from '../../files/writeCaps';
import { DESIGNER_ID_PATTERN } from '../../rankings/designerId';
import { error, sortDiagnostics } from '../../diagnostics/diagnostics';
import type { Diagnostic } from '../../diagnostics/diagnostics';
import { COVERAGE_STATUSES, type Coverage, type RunRecord } from '../../record/record';
import { coverageRel } from '../../rerank/paths';
import { loadMemberFiles } from '../evaluate/feedback';
import type { AuthorshipDoor } from '../../authorship/door';
import { checkMemberList, pairOf, shownValue, valuePos, type MemberList } from './memberFile';

export type CoverageStatus = Coverage['status'];

export interface CoverageConfirmation {
  point: string;
  agree: boolean;
  status?: CoverageStatus;
  comment?: string;
}

export interface MemberCoverageConfirmations {
  designer: string;
  file: string;
  points: CoverageConfirmation[];
}

/** The coverage the members confirm: the last round's with a revised brief ([] before any). */
export function confirmableCoverage(record: Pick<RunRecord, 'iterations'>): Coverage[] {
  return [...record.iterations].reverse().find((it) => it.brief)?.brief?.coverage ?? [];
}

const norm = (s: string): string => s.trim().replace(/\s+/g, ' ');

const COVERAGE_LIST: MemberList = {
  what: 'A coverage file',
  field: 'points',
  required: ['point', 'agree'],
  allowed: ['point', 'agree', 'status', 'comment'],
  per: 'per point of yours',
};

/** Validates the text of runs/<id>/coverage/<designer>.yaml against the run's coverage. */
export function checkCoverageText(
  text: string,
  file: string,
  coverage: readonly Coverage[],
): { confirmations?: MemberCoverageConfirmations; diagnostics: Diagnostic[] } {
  const points: CoverageConfirmation[] = [];
  const seen = new Set<string>();
  // The run's points by their words, built once: each entry is then found in one look (linear in entries and points).
  const byPoint = new Map<string, Coverage[]>();
  for (const c of coverage) {
    const key = norm(c.point);
    const list = byPoint.get(key);
    if (list) list.push(c);
    else byPoint.set(key, [c]);
  }
  const { designer, diagnostics } = checkMemberList(text, file, COVERAGE_LIST, ({ e, item, at }, { expected, posOf, diagnostics }) => {
    const pointAt = valuePos(pairOf(item, 'point'), posOf, at);
    const before = diagnostics.length;
    let agent: Coverage | undefined;
    if (typeof e.point !== 'string' || e.point.trim() === '') {
      diagnostics.push(
        error(
          file,
          `point must be the text of one of your points as run.json has it (found ${shownValue(e.point)}).`,
          pointAt.line,
          pointAt.column,
        ),
      );
    } else {
      const matching = byPoint.get(norm(e.point)) ?? [];
      agent = matching.find((c) => c.designer === expected);
      if (!agent && matching.length) {
        diagnostics.push(
          error(
            file,
            `That point is ${matching[0]!.designer}'s, not ${expected}'s; each member confirms only their own points.`,
            pointAt.line,
            pointAt.column,
          ),
        );
      } else if (!agent) {
        diagnostics.push(
          error(file, `There is no point ${shownValue(e.point)} of ${expected} in this run's coverage.`, pointAt.line, pointAt.column),
        );
      } else if (seen.has(norm(agent.point))) {
        diagnostics.push(
          error(file, `The point ${shownValue(agent.point)} is confirmed twice; keep one entry.`, pointAt.line, pointAt.column),
        );
      }
    }
    const agreeAt = valuePos(pairOf(item, 'agree'), posOf, at);
    if (typeof e.agree !== 'boolean')
      diagnostics.push(error(file, `agree must be true or false (found ${shownValue(e.agree)}).`, agreeAt.line, agreeAt.column));
    let status: CoverageStatus | undefined;
    if (e.status !== undefined && e.status !== null) {
      const statusAt = valuePos(pairOf(item, 'status'), posOf, at);
      const v = typeof e.status === 'string' ? e.status.trim() : undefined;
      if (v === undefined || !(COVERAGE_STATUSES as readonly string[]).includes(v)) {
        diagnostics.push(
          error(file, `status must be kept, changed or left-out (found ${shownValue(e.status)}).`, statusAt.line, statusAt.column),
        );
      } else {
        status = v as CoverageStatus;
        if (e.agree === true && agent && status !== agent.status) {
          diagnostics.push(
            error(
              file,
              `agree: true with status ${status} contradicts the agent's ${agent.status}; write agree: false to correct it.`,
              statusAt.line,
              statusAt.column,
            ),
          );
        } else if (e.agree === false && agent && status === agent.status) {
          diagnostics.push(
            error(
              file,
              `agree: false with status ${status}, the agent's own status; give the status you see, or agree: true.`,
              statusAt.line,
              statusAt.column,
            ),
          );
        }
      }
    }
    if (e.comment !== undefined && e.comment !== null && typeof e.comment !== 'string') {
      const p = valuePos(pairOf(item, 'comment'), posOf, at);
      diagnostics.push(error(file, 'comment must be text.', p.line, p.column));
    }
    if (diagnostics.slice(before).some((d) => d.severity === 'error') || !agent) return;
    seen.add(norm(agent.point));
    const c: CoverageConfirmation = { point: agent.point, agree: e.agree as boolean };
    if (status !== undefined && e.agree === false) c.status = status;
    if (typeof e.comment === 'string' && e.comment.trim() !== '') c.comment = e.comment;
    points.push(c);
  });
  const sorted = sortDiagnostics(diagnostics);
  if (designer === undefined || sorted.some((d) => d.severity === 'error')) return { diagnostics: sorted };
  return { confirmations: { designer, file, points }, diagnostics: sorted };
}

/** Every valid coverage file of a brief run, plus the diagnostics of the others (capped per file); `team` as for loadRatings. */
export async function loadCoverageConfirmations(
  root: string,
  record: RunRecord,
  team?: readonly string[],
  door?: AuthorshipDoor,
): Promise<{ confirmations: MemberCoverageConfirmations[]; diagnostics: Diagnostic[] }> {
  const coverage = confirmableCoverage(record);
  const { found, diagnostics } = await loadMemberFiles(
    root,
    coverageRel(record.id),
    'coverage',
    team,
    (text, rel) => {
      const r = checkCoverageText(text, rel, coverage);
      return { value: r.confirmations, diagnostics: r.diagnostics };
    },
    undefined,
    door,
  );
  return { confirmations: found, diagnostics };
}

/** Writes a member's confirmations (validated against the run's coverage first; throws with the first problem). */
export async function writeCoverageConfirmations(
  root: string,
  record: RunRecord,
  designer: string,
  points: readonly CoverageConfirmation[],
): Promise<string> {
  if (!DESIGNER_ID_PATTERN.test(designer)) throw new Error(`"${designer}" is not a designer id.`);
  const rel = coverageRel(record.id, designer);
  const body = {
    designer,
    points: points.map((p) => ({
      point: p.point,
      agree: p.agree,
      ...(p.status && !p.agree ? { status: p.status } : {}),
      ...(p.comment ? { comment: p.comment } : {}),
    })),
  };
  const text = `# Is the agent right about what became of each of your points? agree: true, or agree: false with the status you see.\n${stringify(body, { lineWidth: 0 })}`;
  const check = checkCoverageText(text, rel, confirmableCoverage(record));
  const bad = check.diagnostics.find((d) => d.severity === 'error');
  if (bad) throw new Error(bad.message);
  await writeKindFile(root, rel, 'coverage', text);
  return rel;
}
