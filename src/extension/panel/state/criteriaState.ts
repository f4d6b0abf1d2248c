/**
 * The panel's criteria section (issue 34) from criteria.json: the matrices while it is current (criteriaState in the core
 * checks the hashes of the files it read), else the one sentence why it is not shown. No `vscode` import.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { byControversy, CRITERIA_FILE, criteriaState, criteriaTask, readCriteriaSources, type CriteriaFile } from '../../../core/criteria';
import type { Review } from '../../../core/review/model';
import type { PanelCriteria, PanelCriteriaCell } from '../../../protocol/criteria';
import { errorMessage } from '../../../core/kernel/errors';

type Quoted = { quote?: string | undefined; file?: string | undefined; verified?: boolean | undefined; claimed?: string | undefined };

function cell(value: string, q: Quoted): PanelCriteriaCell {
  return {
    value,
    ...(q.claimed !== undefined ? { claimed: q.claimed } : {}),
    ...(q.quote ? { quote: q.quote } : {}),
    ...(q.file ? { file: q.file } : {}),
    ...(q.verified !== undefined ? { verified: q.verified } : {}),
  };
}

/** The matrices of a current criteria.json, most controversial criterion first. */
export function criteriaMatrix(file: CriteriaFile, members: { id: string; name: string }[], options: string[]): PanelCriteria {
  return {
    state: 'current',
    at: file.at,
    members,
    options: file.task === 'design' ? options : [],
    criteria: byControversy(file.criteria).map((c) => ({
      name: c.name,
      description: c.description,
      controversy: c.controversy,
      stances: Object.fromEntries(Object.entries(c.stances).map(([id, s]) => [id, cell(s.stance, s)])),
      options: Object.fromEntries(Object.entries(c.options ?? {}).map(([id, o]) => [id, cell(o.standing, o)])),
    })),
  };
}

/** The criteria section of this review: undefined when it has no criteria.json (nor can have: no reasons to read). */
export async function panelCriteria(root: string, review: Review): Promise<PanelCriteria | undefined> {
  // Most reviews have none: nothing is read or hashed for them.
  if (!criteriaTask(review)) return undefined;
  const there = await fs.lstat(path.join(root, CRITERIA_FILE)).then(
    () => true,
    () => false,
  );
  if (!there) return undefined;
  try {
    const sources = await readCriteriaSources(review);
    const st = await criteriaState(root, sources);
    if (st.state === 'missing') return undefined;
    if (st.state !== 'current') return { state: st.state, why: `${st.why}; run Find the Team's Criteria to find them again.` };
    return criteriaMatrix(
      st.file,
      sources.members.map((m) => ({ id: m.id, name: m.name })),
      sources.options,
    );
  } catch (err) {
    return { state: 'unreadable', why: errorMessage(err) };
  }
}
