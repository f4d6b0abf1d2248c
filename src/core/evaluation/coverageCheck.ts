/**
 * compare's `coverageCheck` of a brief run (issue 32, item 2): of the last round's coverage, how many quotes the revised
 * brief holds (`verified`) and how many it does not, whom the agent reported nothing for, and how often the agent's status
 * matches the member's own (their coverage/<id>.yaml): the share of agreement and Cohen's κ over the confirmed points,
 * with n. A member who disagrees without giving a status counts as a disagreement in a category of its own.
 */
import { cohensKappa } from '../stats/kappa';
import type { Coverage } from '../record/record';
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

/** The member's status for a confirmed point: the agent's when they agree, their correction, or "unspecified". */
function memberStatus(agent: Coverage['status'], c: { agree: boolean; status?: Coverage['status'] }): string {
  return c.agree ? agent : c.status ?? 'unspecified';
}

export function coverageCheckOf(coverage: readonly Coverage[], team: readonly string[], confirmations: readonly MemberCoverageConfirmations[]): CoverageCheck {
  const quoted = coverage.filter((c) => c.status !== 'left-out');
  const verified = quoted.filter((c) => c.verified === true).length;
  const reported = new Set(coverage.map((c) => c.designer));
  const pairs: [string, string][] = [];
  let agreed = 0;
  for (const file of confirmations) {
    for (const p of file.points) {
      const agent = coverage.find((c) => c.designer === file.designer && c.point === p.point);
      if (!agent) continue;
      pairs.push([agent.status, memberStatus(agent.status, p)]);
      if (p.agree) agreed++;
    }
  }
  const n = pairs.length;
  return {
    quotes: quoted.length,
    verified,
    unverified: quoted.length - verified,
    unreported: team.filter((id) => !reported.has(id)),
    confirmations: { n, agreement: n ? agreed / n : null, kappa: cohensKappa(pairs) },
  };
}
