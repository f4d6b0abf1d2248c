/**
 * From the model's answer to the criteria kept (issue 34, items 2 and 3): every quote checked in the file it names; a
 * member's stance must rest on that member's own file; an unverified stance counts as `no-position` (what was claimed is
 * kept beside it); a member the answer left out is `no-position`, said. Then each criterion's controversy, and for each
 * contested option the criteria on which its supporters and critics hold opposite stances.
 */
import { contestedBand } from '../stats/election/perOption';
import { averageRanks } from '../stats/ranks';
import type { DesignerRanking } from '../review/model';
import { quoteFound } from './grounding';
import {
  byControversy,
  controversy,
  CRITERIA_FILE,
  type CriteriaFile,
  type Criterion,
  type MemberStance,
  type OptionStanding,
} from './model';
import type { CriteriaAnswer } from './prompt';
import type { CriteriaSources } from './sources';

export interface Grounded {
  criteria: Criterion[];
  /** Things to say: quotes not found, members left out. */
  notes: string[];
}

function checkQuote(s: CriteriaSources, quote: string, file: string, ownFile?: string): { verified: boolean; why?: string } {
  if (!quote.trim()) return { verified: false, why: 'no quote was given' };
  if (ownFile !== undefined && file !== ownFile)
    return { verified: false, why: `the quote is from ${file}, not from their own ${ownFile}` };
  const texts = s.texts[file];
  if (!texts) return { verified: false, why: `${file} is not a file the criteria were found from` };
  return quoteFound(quote, texts) ? { verified: true } : { verified: false, why: `the quote is not in ${file}` };
}

export function groundAnswer(s: CriteriaSources, answer: CriteriaAnswer): Grounded {
  const notes: string[] = [];
  const criteria: Criterion[] = answer.criteria.map((c) => {
    const stances: Record<string, MemberStance> = {};
    for (const m of s.members) {
      const given = c.stances.find((st) => st.member === m.id);
      if (!given) {
        stances[m.id] = { stance: 'no-position' };
        notes.push(`The answer gave no stance for ${m.id} on "${c.name}"; counted as no position.`);
        continue;
      }
      if (given.stance === 'no-position') {
        stances[m.id] = { stance: 'no-position' };
        continue;
      }
      const check = checkQuote(s, given.quote, given.file, m.file);
      if (check.verified) stances[m.id] = { stance: given.stance, quote: given.quote, file: given.file, verified: true };
      else {
        stances[m.id] = { stance: 'no-position', claimed: given.stance, quote: given.quote, file: given.file, verified: false };
        notes.push(`${m.id} on "${c.name}": the stance "${given.stance}" was not counted (${check.why}).`);
      }
    }
    let options: Record<string, OptionStanding> | undefined;
    if (s.task === 'design') {
      options = {};
      for (const id of s.options) {
        const given = c.options?.find((o) => o.option === id);
        if (!given || given.standing === 'not-mentioned') {
          options[id] = { standing: 'not-mentioned' };
          continue;
        }
        const check = checkQuote(s, given.quote, given.file);
        options[id] = check.verified
          ? { standing: given.standing, quote: given.quote, file: given.file, verified: true }
          : { standing: 'not-mentioned', claimed: given.standing, quote: given.quote, file: given.file, verified: false };
        if (!check.verified) notes.push(`Option ${id} on "${c.name}": the standing "${given.standing}" was not counted (${check.why}).`);
      }
    }
    const score = controversy(
      s.members.map((m) => stances[m.id]!.stance),
      s.members.length,
    );
    return { name: c.name.trim(), description: c.description.trim(), controversy: score, stances, ...(options ? { options } : {}) };
  });
  return { criteria: byControversy(criteria), notes };
}

/**
 * A criteria.json read back, recomputed from what can be checked again (issue 39, item 3): its hash proves only that it
 * agrees with itself. Each stance must rest on a quote found in that member's own file (else it is `no-position`, what it
 * claimed kept), a stance of someone not on the team is dropped, each option standing must rest on a quote found in the
 * file it names and on an option of the review; then every controversy is recomputed from the stances, and a contested
 * option keeps only the criteria its members still split on. What changed is said, one sentence each.
 */
export function recheckCriteria(s: CriteriaSources, file: CriteriaFile): { file: CriteriaFile; notes: string[] } {
  const notes: string[] = [];
  const members = new Map(s.members.map((m) => [m.id, m]));
  const criteria = file.criteria.map((c): Criterion => {
    const stances: Record<string, MemberStance> = {};
    for (const [id, st] of Object.entries(c.stances)) {
      const m = members.get(id);
      if (!m) {
        notes.push(`${id} on "${c.name}": not on the team, so the stance is not counted.`);
        continue;
      }
      if (st.stance === 'no-position') {
        stances[id] = st;
        continue;
      }
      const check = checkQuote(s, st.quote ?? '', st.file ?? '', m.file);
      if (check.verified) stances[id] = st;
      else {
        stances[id] = {
          stance: 'no-position',
          claimed: st.stance,
          ...(st.quote !== undefined ? { quote: st.quote } : {}),
          ...(st.file !== undefined ? { file: st.file } : {}),
          verified: false,
        };
        notes.push(`${id} on "${c.name}": the stance "${st.stance}" is not counted (${check.why}).`);
      }
    }
    let options: Record<string, OptionStanding> | undefined;
    if (c.options) {
      options = {};
      for (const [id, st] of Object.entries(c.options)) {
        if (s.task !== 'design' || !s.options.includes(id)) {
          notes.push(`Option ${id} on "${c.name}": not an option of this review, so its standing is not counted.`);
          continue;
        }
        if (st.standing === 'not-mentioned') {
          options[id] = st;
          continue;
        }
        const check = checkQuote(s, st.quote ?? '', st.file ?? '');
        if (check.verified) options[id] = st;
        else {
          options[id] = {
            standing: 'not-mentioned',
            claimed: st.standing,
            ...(st.quote !== undefined ? { quote: st.quote } : {}),
            ...(st.file !== undefined ? { file: st.file } : {}),
            verified: false,
          };
          notes.push(`Option ${id} on "${c.name}": the standing "${st.standing}" is not counted (${check.why}).`);
        }
      }
    }
    const score = controversy(
      s.members.map((m) => stances[m.id]?.stance ?? 'no-position'),
      s.members.length,
    );
    if (Math.abs(score - c.controversy) > 1e-9)
      notes.push(`"${c.name}": controversy ${score.toFixed(2)} from the stances, not the ${c.controversy.toFixed(2)} the file says.`);
    return { ...c, controversy: score, stances, ...(options ? { options } : {}) };
  });
  const split = new Set(
    criteria
      .filter((c) => {
        const held = new Set(Object.values(c.stances).map((st) => st.stance));
        return held.has('values') && held.has('against');
      })
      .map((c) => c.name),
  );
  let contested: Record<string, string[]> | undefined;
  if (file.contested) {
    contested = {};
    for (const [o, names] of Object.entries(file.contested)) {
      if (s.task !== 'design' || !s.options.includes(o)) {
        notes.push(
          `Option ${o} is contested in ${CRITERIA_FILE}, but it is not an option of this review, so it is not shown as contested.`,
        );
        continue;
      }
      const kept = names.filter((n) => split.has(n));
      if (kept.length < names.length)
        notes.push(
          `Option ${o}: ${names
            .filter((n) => !kept.includes(n))
            .map((n) => `"${n}"`)
            .join(
              ', ',
            )} no longer split${names.length - kept.length === 1 ? 's' : ''} the team there, so ${names.length - kept.length === 1 ? 'it is' : 'they are'} not shown as contested.`,
        );
      if (kept.length) contested[o] = kept;
    }
  }
  const { contested: _old, ...rest } = file;
  return { file: { ...rest, criteria: byControversy(criteria), ...(contested ? { contested } : {}) }, notes };
}

/**
 * For each contested option (someone ranks it in the top third, someone else in the bottom third: the analysis' rule), the
 * criteria on which a supporter (top third) and a critic (bottom third) hold opposite grounded stances, most controversial
 * first. Options with no such criterion are left out.
 */
export function explainContested(
  criteria: readonly Criterion[],
  designers: readonly DesignerRanking[],
  options: readonly string[],
): Record<string, string[]> {
  const n = options.length;
  const k = contestedBand(n);
  const rankOf = new Map<string, Map<string, number>>();
  for (const d of designers) {
    const raw = options.map((o) => d.entries.find((e) => e.option === o)?.rank ?? Number.MAX_SAFE_INTEGER);
    const avg = averageRanks(raw);
    rankOf.set(d.id, new Map(options.map((o, i) => [o, avg[i]!])));
  }
  const out: Record<string, string[]> = {};
  for (const o of options) {
    const supporters = designers.filter((d) => rankOf.get(d.id)!.get(o)! <= k).map((d) => d.id);
    const critics = designers.filter((d) => rankOf.get(d.id)!.get(o)! >= n - k + 1).map((d) => d.id);
    if (supporters.length === 0 || critics.length === 0) continue;
    const names = criteria
      .filter((c) => {
        const held = (ids: string[]) => new Set(ids.map((id) => c.stances[id]?.stance).filter((x) => x === 'values' || x === 'against'));
        const sup = held(supporters);
        const cri = held(critics);
        return (sup.has('values') && cri.has('against')) || (sup.has('against') && cri.has('values'));
      })
      .map((c) => c.name);
    if (names.length) out[o] = names;
  }
  return out;
}
