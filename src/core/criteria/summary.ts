/**
 * What `analyze` says of the criteria (issue 34, item 3): the most controversial criteria when criteria.json is current for
 * the review's files, one sentence when it is out of date or unusable, nothing when there is none. Never sends anything.
 */
import { ReviewFileError } from '../files/reviewFiles';
import type { Review } from '../review/model';
import { criteriaState } from './find';
import { readCriteriaSources } from './sources';
import { CRITERIA_FILE } from './model';
import { warning, type Diagnostic } from '../diagnostics/diagnostics';

/** Criteria shown by analyze. */
export const TOP_CRITERIA = 3;
/** Sentences of the re-check (recheckCriteria) analyze shows at most. */
const SHOWN_NOTES = 5;

export interface CriteriaSummary {
  state: 'current' | 'stale' | 'edited' | 'unreadable';
  top: { name: string; controversy: number }[];
  /** Per contested option, the criteria its supporters and critics split on (current only). */
  contested: Record<string, string[]>;
  /** In words, for the text output. */
  lines: string[];
}

export async function criteriaSummary(review: Review): Promise<CriteriaSummary | undefined> {
  try {
    const st = await criteriaState(review.root, await readCriteriaSources(review));
    if (st.state === 'missing') return undefined;
    if (st.state !== 'current')
      return { state: st.state, top: [], contested: {}, lines: [`Criteria: not shown: ${st.why}; run teamfusion criteria again.`] };
    // Only criteria that split the team (controversy above 0, as recomputed at this read) are shown as controversial.
    const top = st.file.criteria
      .filter((c) => c.controversy > 0)
      .slice(0, TOP_CRITERIA)
      .map((c) => ({ name: c.name, controversy: c.controversy }));
    const contested = st.file.contested ?? {};
    const lines = [
      `Criteria the team splits on most (criteria.json, controversy 0–1): ${top.map((c) => `${c.name} ${c.controversy.toFixed(2)}`).join('; ') || 'none; no criterion splits the team'}.`,
      ...Object.entries(contested).map(([o, cs]) => `  Option ${o}: its supporters and critics split on ${cs.join(', ')}.`),
      ...st.notes.slice(0, SHOWN_NOTES).map((n) => `  Checked again: ${n}`),
      ...(st.notes.length > SHOWN_NOTES
        ? [`  …and ${st.notes.length - SHOWN_NOTES} more found on checking criteria.json again (teamfusion criteria lists them).`]
        : []),
    ];
    return { state: 'current', top, contested, lines };
  } catch (err) {
    if (!(err instanceof ReviewFileError)) throw err;
    return { state: 'unreadable', top: [], contested: {}, lines: [`Criteria: not shown: ${err.message}`] };
  }
}

/** Criteria offered to a run's proxies as the points to settle. */
export const OFFERED_CRITERIA = 3;

/**
 * The most controversial criteria that split the team (controversy above 0) of a current criteria.json, for a run to offer
 * as the points to settle; undefined when there is none, or it is out of date or unusable (a run never waits on it).
 */
export async function criteriaToSettle(review: Review): Promise<{ name: string; description: string }[] | undefined> {
  try {
    const st = await criteriaState(review.root, await readCriteriaSources(review));
    if (st.state !== 'current') return undefined;
    const top = st.file.criteria.filter((c) => c.controversy > 0).slice(0, OFFERED_CRITERIA);
    return top.length
      ? top.map((c) => ({ name: c.name, description: c.description.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ') }))
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What `validate` says of criteria.json (issue 39, item 7): each thing the file says that checking it again does not bear
 * out — a stance of someone not on the team, a quote not in its member's file, an option or a contested option that is no
 * option of the review, a controversy the stances do not give — as a warning on criteria.json: it is ignored, and said.
 * Nothing when there is no criteria.json, or it is out of date (analyze and criteria say that).
 */
export async function criteriaWarnings(review: Review): Promise<Diagnostic[]> {
  try {
    const st = await criteriaState(review.root, await readCriteriaSources(review));
    if (st.state !== 'current') return [];
    return st.notes.map((n) => warning(CRITERIA_FILE, `Ignored on checking ${CRITERIA_FILE} again: ${n}`));
  } catch (err) {
    if (!(err instanceof ReviewFileError)) throw err;
    return [];
  }
}
