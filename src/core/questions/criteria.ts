/**
 * The `criteria` question: the team's criteria as `teamfusion criteria` found them (criteria.json), and whether that file is
 * still current for the review's files. Never finds them anew (that sends a paid request): without criteria.json it says how.
 * Names, descriptions and quotes are the model's and the members' words: quoted data.
 */
import { loadForCriteria, criteriaState } from '../criteria/find';
import { readCriteriaSources } from '../criteria/sources';
import { CRITERIA_FILE } from '../criteria/model';
import { quote, type Quoted } from './question';

export interface CriteriaAnswer {
  /** current: criteria.json matches the review's files; stale/edited: it is shown, with why it is out of date; missing: none. */
  state: 'current' | 'stale' | 'edited' | 'missing';
  /** Why it is out of date, or how to find them (missing); when current, what checking it again at this read changed. */
  note?: string;
  foundAt?: string;
  model?: string;
  criteria: {
    name: Quoted;
    description: Quoted;
    controversy: number;
    stances: Record<string, { stance: string; counted: boolean; quote?: Quoted; file?: string }>;
  }[];
  /** Per contested option, the criteria its supporters and critics split on. */
  contested: Record<string, Quoted[]>;
}

export async function criteriaAnswer(root: string): Promise<CriteriaAnswer> {
  const review = await loadForCriteria(root);
  const st = await criteriaState(review.root, await readCriteriaSources(review));
  if (st.state === 'missing') {
    return {
      state: 'missing',
      note: `There is no ${CRITERIA_FILE} yet; teamfusion criteria finds the criteria (it sends a request to a model).`,
      criteria: [],
      contested: {},
    };
  }
  const f = st.file;
  return {
    state: st.state,
    ...(st.state !== 'current'
      ? { note: `${st.why}; run teamfusion criteria again.` }
      : st.notes.length
        ? { note: rechecked(st.notes) }
        : {}),
    foundAt: f.at,
    model: f.model,
    criteria: f.criteria.map((c) => ({
      name: quote(c.name),
      description: quote(c.description),
      controversy: c.controversy,
      stances: Object.fromEntries(
        Object.entries(c.stances).map(([id, s]) => [
          id,
          {
            stance: s.stance,
            counted: s.verified !== false,
            ...(s.quote ? { quote: quote(s.quote) } : {}),
            ...(s.file ? { file: s.file } : {}),
          },
        ]),
      ),
    })),
    contested: Object.fromEntries(Object.entries(f.contested ?? {}).map(([o, cs]) => [o, cs.map((c) => quote(c))])),
  };
}

/** The re-check (criteria/ground.ts recheckCriteria) in one sentence of the tool's own words (no member or model text). */
function rechecked(notes: readonly string[]): string {
  return `Checked again at this read: ${notes.length} thing${notes.length === 1 ? '' : 's'} ${CRITERIA_FILE} says ${notes.length === 1 ? 'is' : 'are'} not borne out by the files named, so not counted (stances, standings or scores; teamfusion criteria lists them).`;
}
