/**
 * From the model's answer to the criteria kept (issue 34, items 2 and 3): every quote checked in the file it names; a
 * member's stance must rest on that member's own file; an unverified stance counts as `no-position` (what was claimed is
 * kept beside it); a member the answer left out is `no-position`, said. Then each criterion's controversy, and for each
 * contested option the criteria on which its supporters and critics hold opposite stances.
 */
import { contestedBand } from '../stats/perOption';
import { averageRanks } from '../stats/ranks';
import type { DesignerRanking } from '../review/model';
import { quoteFound } from './grounding';
import { byControversy, controversy, type Criterion, type MemberStance, type OptionStanding } from './model';
import type { CriteriaAnswer } from './prompt';
import type { CriteriaSources } from './sources';

export interface Grounded {
  criteria: Criterion[];
  /** Things to say: quotes not found, members left out. */
  notes: string[];
}

function checkQuote(s: CriteriaSources, quote: string, file: string, ownFile?: string): { verified: boolean; why?: string } {
  if (!quote.trim()) return { verified: false, why: 'no quote was given' };
  if (ownFile !== undefined && file !== ownFile) return { verified: false, why: `the quote is from ${file}, not from their own ${ownFile}` };
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
    const score = controversy(s.members.map((m) => stances[m.id]!.stance), s.members.length);
    return { name: c.name.trim(), description: c.description.trim(), controversy: score, stances, ...(options ? { options } : {}) };
  });
  return { criteria: byControversy(criteria), notes };
}

/**
 * For each contested option (someone ranks it in the top third, someone else in the bottom third: the analysis' rule), the
 * criteria on which a supporter (top third) and a critic (bottom third) hold opposite grounded stances, most controversial
 * first. Options with no such criterion are left out.
 */
export function explainContested(criteria: readonly Criterion[], designers: readonly DesignerRanking[], options: readonly string[]): Record<string, string[]> {
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
