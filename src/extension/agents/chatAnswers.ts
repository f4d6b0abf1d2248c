/**
 * The `@teamfusion` chat participant's answers as Markdown, built only from the answers of the questions table
 * (core/questions): every figure as the product's code computed it, every member's or model's word escaped as inert text
 * (escapeMarkdown: no links, no HTML, no Markdown syntax of theirs). No vscode import: unit tests read these directly.
 */
import { escapeMarkdown } from '../../core/files/markdown';
import type { Analysis } from '../../core/stats';
import type { CriteriaAnswer } from '../../core/questions/criteria';
import type { RunSummary } from '../../core/questions/runSummary';
import type { NextStepsAnswer } from '../../core/questions/nextSteps';
import type { Quoted } from '../../core/questions';

/** Said under every answer: which figures are computed. */
export const COMPUTED_NOTE =
  "_Every figure above is computed by TeamFusion from the review's files; no language model wrote or changed it._";

const q = (x: Quoted | string): string => escapeMarkdown(typeof x === 'string' ? x : x.quoted);
const n2 = (x: number): string => x.toFixed(2);
const pText = (p: number): string => (p < 0.001 ? '< 0.001' : p.toFixed(3));

/** A brief review's analyze answer (no agreement to measure) or a design review's. */
type AnalyzeJson =
  | (Analysis & { criteria?: { state: string; top: { name: string; controversy: number }[]; contested: Record<string, string[]> } })
  | { task: 'brief'; comments: { designer: string; name: string; words: number }[] };

function isBrief(a: AnalyzeJson): a is Extract<AnalyzeJson, { task: 'brief' }> {
  return (a as { task?: string }).task === 'brief';
}

/** `/status`: the agreement (W, band, p), the consensus orders, the outlier, the contested options, the review's problems. */
export function statusMarkdown(review: string, a: AnalyzeJson, problems: { errors: number; warnings: number }): string {
  const lines = [`### ${escapeMarkdown(review)}`, ''];
  if (isBrief(a)) {
    lines.push(
      `A brief review: ${a.comments.length} comment${a.comments.length === 1 ? '' : 's'} on the brief and no rankings, so there is no agreement to measure.`,
    );
    for (const c of a.comments) lines.push(`- ${q(c.name)} (${escapeMarkdown(c.designer)}): ${c.words} words`);
  } else {
    const k = a.kendall;
    const name = (id: string): string => q(a.designers.find((d) => d.id === id)?.name ?? id);
    lines.push(
      `- **Agreement:** Kendall's W = ${n2(k.w)} (${k.band}), permutation p = ${pText(k.pPermutation)} — ${a.designers.length} designers, ${a.options.length} options`,
      `- **Weighted Borda:** ${a.weightedBorda.map((b) => escapeMarkdown(b.option)).join(', ')}`,
      `- **Schulze:** ${a.schulze.ranking.map((tier) => tier.map(escapeMarkdown).join(' = ')).join(', ')}${a.schulze.differsFromBorda ? ' (differs from Borda)' : ' (agrees with Borda)'}`,
      `- **Outlier:** ${a.outlier ? `${name(a.outlier.designer)} (mean τ-b with the others ${n2(a.outlier.meanTau)})` : 'nobody stands out'}`,
      `- **Contested options:** ${
        a.perOption
          .filter((o) => o.contested)
          .map((o) => escapeMarkdown(o.option))
          .join(', ') || 'none'
      }`,
    );
  }
  lines.push(
    `- **Problems:** ${problems.errors} error${problems.errors === 1 ? '' : 's'}, ${problems.warnings} warning${problems.warnings === 1 ? '' : 's'}`,
    '',
    COMPUTED_NOTE,
  );
  return lines.join('\n');
}

/** `/disagree`: the criteria the team splits on, the contested options, the open decision points and votes. */
export function disagreeMarkdown(
  review: string,
  criteria: CriteriaAnswer,
  a: AnalyzeJson | undefined,
  next: NextStepsAnswer | undefined,
): string {
  const lines = [`### Where ${escapeMarkdown(review)} disagrees`, ''];
  if (criteria.state === 'missing')
    lines.push("- **Criteria:** none found yet (TeamFusion: Find the Team's Criteria finds them; it sends a request).");
  else {
    if (criteria.note) lines.push(`- **Criteria:** out of date — ${escapeMarkdown(criteria.note)}`);
    for (const c of criteria.criteria.slice(0, 5)) lines.push(`- **${q(c.name)}** — controversy ${n2(c.controversy)}`);
    for (const [o, cs] of Object.entries(criteria.contested))
      lines.push(`- Option ${escapeMarkdown(o)}: its supporters and critics split on ${cs.map(q).join(', ')}`);
  }
  if (a && !isBrief(a))
    lines.push(
      `- **Contested options:** ${
        a.perOption
          .filter((o) => o.contested)
          .map((o) => escapeMarkdown(o.option))
          .join(', ') || 'none'
      }`,
    );
  const open = (next?.steps ?? []).filter((s) => s.kind === 'vote' || s.kind === 'decision-point');
  if (open.length) {
    lines.push('', '**Open decision points**');
    for (const s of open) {
      if (s.kind === 'vote')
        lines.push(
          `- Round ${s.round}: ${q(s.question)} — voted: ${s.voted.map(escapeMarkdown).join(', ') || 'nobody'}; not yet: ${s.notVoted.map(escapeMarkdown).join(', ') || 'nobody'}`,
        );
      else if (s.kind === 'decision-point')
        lines.push(
          `- Round ${s.round}: ${q(s.question)} — ${s.positions.map((p) => `${q(p.position)} (${p.heldBy.map(escapeMarkdown).join(', ')})`).join(' vs ')}`,
        );
    }
  } else if (next) lines.push('', 'No decision point is open.');
  lines.push('', COMPUTED_NOTE);
  return lines.join('\n');
}

/** `/run`: a run's summary. */
export function runMarkdown(s: RunSummary): string {
  const lines = [
    `### Run ${escapeMarkdown(s.runId)}${s.scripted ? ' (scripted server: canned answers)' : ''}`,
    '',
    `- **Status:** ${s.status}${s.waitingFor ? ` — waiting for ${escapeMarkdown(s.waitingFor.member)} (round ${s.waitingFor.round})` : ''}`,
    `- **Rounds:** ${s.rounds.done} of ${s.rounds.planned}${s.finalPick ? `; final pick ${escapeMarkdown(s.finalPick)}` : ''}`,
    `- **Cost:** ${s.cost.usd === null ? 'unknown' : `$${s.cost.usd.toFixed(4)}`} (${s.cost.requests} requests, ${s.cost.inputTokens} input and ${s.cost.outputTokens} output tokens)`,
  ];
  if (s.error) lines.push(`- **Error:** ${q(s.error)}`);
  if (s.coverage) lines.push(`- **Coverage:** ${s.coverage.kept} kept, ${s.coverage.changed} changed, ${s.coverage.leftOut} left out`);
  lines.push(`- **Proxy fidelity:** ${s.fidelity ? 'measured (see the panel)' : escapeMarkdown(s.fidelityNote ?? 'not measured')}`);
  const pct = (x: number): string => `${Math.round(x * 100)}%`;
  if (s.pool) {
    const p = s.pool;
    lines.push(
      `- **Pools of directions:** ${p.rounds.length} pooled round${p.rounds.length === 1 ? '' : 's'}; mean diversity ${n2(p.meanDiversity)}; asked again in ${pct(p.reaskRate)}; the agent's own first proposal elected in ${pct(p.firstElectedRate)}`,
    );
  }
  if (s.checklist) {
    const c = s.checklist;
    const f = c.finalPick;
    lines.push(
      `- **Checklist:** ${c.items} must-haves; ${c.remixesChecked} remix${c.remixesChecked === 1 ? '' : 'es'} checked, ${c.failedChecks} failed item${c.failedChecks === 1 ? '' : 's'}${f ? `; the final pick ${escapeMarkdown(f.remix)} passed ${f.pass} of ${c.items} (${pct(f.passRate)})` : ''}`,
    );
    for (const x of f?.failed ?? [])
      lines.push(`  - Failed ${escapeMarkdown(x.item)}: ${q(x.text)} — brief: ${q(x.quote)} (${q(x.reason)})`);
  }
  if (s.decisions.length) {
    lines.push('', '**Decisions**');
    for (const d of s.decisions)
      lines.push(
        `- Round ${d.round}: ${q(d.question)} → **${q(d.decision)}** (${d.how}${d.counts ? `; ${d.counts.map((c) => `${q(c.position)} ${c.votes}`).join(', ')}` : ''})`,
      );
  }
  if (s.openForks.length) {
    lines.push('', '**Open forks**');
    for (const f of s.openForks)
      lines.push(
        `- Round ${f.round}: ${q(f.question)} — ${f.sides.map((x) => `${escapeMarkdown(x.id)} ${q(x.position)}: ${x.votes}`).join('; ')}; not voted: ${f.notVoted.map(escapeMarkdown).join(', ') || 'nobody'}`,
      );
  }
  if (s.setAside.length) {
    lines.push('', '**Set aside**');
    for (const x of s.setAside) lines.push(`- ${escapeMarkdown(x.id)} (decided in round ${x.decidedIn}): ${q(x.question)}`);
  }
  lines.push('', COMPUTED_NOTE);
  return lines.join('\n');
}

/** `/next`: what is left to decide and who has not acted. */
export function nextMarkdown(n: NextStepsAnswer): string {
  const lines = [`### What is left${n.runId ? ` in run ${escapeMarkdown(n.runId)}` : ''}`, ''];
  const who = (ids: string[]): string =>
    ids.map((id) => (n.members[id] ? `${q(n.members[id]!)} (${escapeMarkdown(id)})` : escapeMarkdown(id))).join(', ');
  for (const s of n.steps) {
    if (s.kind === 'vote') lines.push(`- **Vote**, round ${s.round}: ${q(s.question)} — not voted yet: ${who(s.notVoted) || 'nobody'}`);
    else if (s.kind === 'rerank') lines.push(`- **Blind re-rank** — not yet: ${who(s.notReranked)}`);
    else if (s.kind === 'decision-point') lines.push(`- **Open decision point**, round ${s.round}: ${q(s.question)}`);
    else if (s.kind === 'turn') lines.push(`- **Turn:** ${escapeMarkdown(s.say)}`);
    else lines.push(`- ${escapeMarkdown(s.say)}`);
  }
  lines.push('', escapeMarkdown(n.summary), '', COMPUTED_NOTE);
  return lines.join('\n');
}
