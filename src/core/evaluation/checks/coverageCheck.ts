/**
 * compare's `coverageCheck` of a brief run (issue 32, item 2): of the last round's coverage, how many quotes the revised
 * brief holds (`verified`) and how many it does not, whom the agent reported nothing for, and how often the agent's status
 * matches the member's own (their coverage/<id>.yaml): the share of agreement and Cohen's κ over the confirmed points,
 * with n. A member who disagrees without giving a status counts as a disagreement in a category of its own. Across runs
 * (evaluate), κ is pooled: computed once on every confirmed point of the runs (their confirmation tables summed), and
 * stated only from KAPPA_MIN_POINTS points on — below that, or when κ is undefined, it is "too few to say".
 */
import { cohensKappa } from '../../stats/agreement/kappa';
import type { Coverage } from '../../record/record';
import type { MemberCoverageConfirmations } from './coverageConfirmations';

export interface CoverageCheck {
  /** Entries that claim the brief carries a point (kept or changed): each should quote it. */
  quotes: number;
  verified: number;
  unverified: number;
  /** Members of the team with no coverage entry at all. */
  unreported: string[];
  confirmations: { n: number; agreement: number | null; kappa: number | null };
}

/** The confirmed points of a run: the agent's status → the member's status → how many points. */
export type ConfirmationTable = Record<string, Record<string, number>>;

/** Below this many confirmed points, κ is not stated across runs: a handful of points cannot tell agreement from chance. */
export const KAPPA_MIN_POINTS = 10;

/** The member's status for a confirmed point: the agent's when they agree, their correction, or "unspecified". */
function memberStatus(agent: Coverage['status'], c: { agree: boolean; status?: Coverage['status'] }): string {
  return c.agree ? agent : (c.status ?? 'unspecified');
}

/** Each confirmed point as [the agent's status, the member's status] (a point that does not exist is not confirmed). */
function confirmedPairs(coverage: readonly Coverage[], confirmations: readonly MemberCoverageConfirmations[]): [string, string][] {
  const pairs: [string, string][] = [];
  // Each point of the run by its member and words, found in one look (linear in points and confirmations).
  const byPoint = new Map<string, Coverage>();
  for (const c of coverage) {
    const key = `${c.designer}\0${c.point}`;
    if (!byPoint.has(key)) byPoint.set(key, c);
  }
  for (const file of confirmations) {
    for (const p of file.points) {
      const agent = byPoint.get(`${file.designer}\0${p.point}`);
      if (agent) pairs.push([agent.status, memberStatus(agent.status, p)]);
    }
  }
  return pairs;
}

export function coverageCheckOf(
  coverage: readonly Coverage[],
  team: readonly string[],
  confirmations: readonly MemberCoverageConfirmations[],
): CoverageCheck {
  const quoted = coverage.filter((c) => c.status !== 'left-out');
  const verified = quoted.filter((c) => c.verified === true).length;
  const reported = new Set(coverage.map((c) => c.designer));
  const pairs = confirmedPairs(coverage, confirmations);
  const n = pairs.length;
  const agreed = pairs.filter(([a, m]) => a === m).length;
  return {
    quotes: quoted.length,
    verified,
    unverified: quoted.length - verified,
    unreported: team.filter((id) => !reported.has(id)),
    confirmations: { n, agreement: n ? agreed / n : null, kappa: cohensKappa(pairs) },
  };
}

/** The run's confirmed points as a table (agent → member → points), the form evaluate pools. */
export function confirmationTableOf(
  coverage: readonly Coverage[],
  confirmations: readonly MemberCoverageConfirmations[],
): ConfirmationTable {
  const table: ConfirmationTable = {};
  for (const [a, m] of confirmedPairs(coverage, confirmations)) {
    const row = (table[a] ??= {});
    row[m] = (row[m] ?? 0) + 1;
  }
  return table;
}

/** κ over several runs' confirmed points, with n, and why it is not stated (null when it is). */
export interface PooledKappa {
  n: number;
  kappa: number | null;
  kappaNote: string | null;
}

export function pooledKappa(tables: readonly ConfirmationTable[]): PooledKappa {
  const pairs: [string, string][] = [];
  for (const t of tables)
    for (const [a, row] of Object.entries(t)) for (const [m, k] of Object.entries(row)) for (let i = 0; i < k; i++) pairs.push([a, m]);
  const n = pairs.length;
  return { n, ...kappaStated(cohensKappa(pairs), n) };
}

/** κ as evaluate states it: the number from KAPPA_MIN_POINTS points on, else null with the reason in words. */
export function kappaStated(kappa: number | null, n: number): { kappa: number | null; kappaNote: string | null } {
  const points = `${n} confirmed point${n === 1 ? '' : 's'}`;
  if (n < KAPPA_MIN_POINTS) return { kappa: null, kappaNote: `too few to say (${points}; κ is stated from ${KAPPA_MIN_POINTS} on)` };
  if (kappa === null)
    return {
      kappa: null,
      kappaNote: `too few to say (${points}, all in one and the same category for the agent and the members: chance alone explains the agreement)`,
    };
  return { kappa, kappaNote: null };
}

/** Pooled κ in words: "Cohen's κ 0.62 (n 24)", or "Cohen's κ: too few to say (…)". */
export function kappaWords(k: PooledKappa): string {
  return k.kappa === null ? `Cohen's κ: ${k.kappaNote ?? 'too few to say'}` : `Cohen's κ ${k.kappa.toFixed(2)} (n ${k.n})`;
}

/** Pooled κ in a table cell: "κ 0.62", or "κ too few to say". */
export function kappaCell(k: PooledKappa): string {
  return k.kappa === null ? 'κ too few to say' : `κ ${k.kappa.toFixed(2)}`;
}
