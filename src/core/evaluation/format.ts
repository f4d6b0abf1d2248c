/**
 * Sentences a lead understands, for a comparison (CLI and panel). Pure: no Node or vscode import, so the webview
 * bundle can use it too.
 */
import type { Verdict } from '../stats/agreement/convergence';
import { REFERENCE } from './evaluate/reference';

/** The parts of a comparison the words need (structurally a CompareResult). */
export interface ComparisonForWords {
  before: { w: number; meanSpearman: number | null; designers: string[]; options: number; pPermutation: number };
  after: { w: number; meanSpearman: number | null; designers: string[]; options: number; pPermutation: number } | null;
  paired: { designers: string[]; change: number; interval: [number, number]; verdict: Verdict } | null;
  acceptance: {
    ranking: string[];
    generated: string[];
    top1: boolean;
    top2: boolean;
    bestGenerated: { letter: string; id: string; position: number } | null;
  } | null;
  ratings: {
    n: number;
    mean: number | null;
    sd: number | null;
    positiveShare: number | null;
    lowestDesigner: { designer: string; mean: number } | null;
  };
  survey: { n: number; representative: number | null; clarity: number | null; satisfied: number | null };
  timing: { hoursToRerank: number | null; hoursToCommit: number | null; rerankedFrom: string | null; note: string | null };
  missing: string | null;
  /** Fork votes (issue 33); absent in comparisons made before them. */
  votes?: {
    iteration: number;
    decisionPoint: number;
    question: string;
    counts: Record<string, number>;
    missing: string[];
    decided: boolean;
    recorded?: boolean;
    decision?: string | null;
    closed?: string;
  }[];
}

export function f2(x: number | null | undefined): string {
  return x === null || x === undefined ? '—' : x.toFixed(2);
}

function signed(x: number): string {
  return `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(2)}`;
}

function pct(x: number): string {
  return `${Math.round(x * 100)}%`;
}

function hours(h: number): string {
  return h < 1 ? `${Math.round(h * 60)} minutes` : h < 48 ? `${h.toFixed(1)} hours` : `${(h / 24).toFixed(1)} days`;
}

/** "converged" → "The team converged" sentence. */
export function verdictSentence(v: Verdict): string {
  if (v === 'converged') return 'The team converged: agreement went up by more than chance and the choice of designers explain.';
  if (v === 'diverged') return 'The team diverged: agreement went down by more than chance and the choice of designers explain.';
  return 'No evidence either way: a change this size can come from chance or from who happened to be on the team.';
}

/**
 * "Did it help?" said first, in words, with its n (issue 40): "2 of 4 re-ranked; no evidence yet either way (paired over 2
 * designers)." — before any number, so a W that went up is never read as a win on its own.
 */
export function verdictFirst(c: Pick<ComparisonForWords, 'before' | 'after' | 'paired'> & { reranked?: string[] }): string {
  const team = c.before.designers;
  const done = c.reranked
    ? team.filter((d) => c.reranked!.includes(d)).length
    : (c.after?.designers.filter((d) => team.includes(d)).length ?? 0);
  const head = `${done} of ${team.length} re-ranked`;
  if (!c.after) return `${head}; not enough re-rankings yet to say whether it helped.`;
  if (!c.paired) return `${head}; too few ranked both before and after to say whether it helped.`;
  const words =
    c.paired.verdict === 'converged'
      ? 'the team converged'
      : c.paired.verdict === 'diverged'
        ? 'the team diverged'
        : 'no evidence yet either way';
  return `${head}; ${words} (paired over ${c.paired.designers.length} designers).`;
}

/** The comparison as short sentences, one per line. */
export function comparisonSentences(c: ComparisonForWords): string[] {
  const out: string[] = [];
  const b = c.before;
  out.push(
    `Before the run: W = ${f2(b.w)} among ${b.designers.length} designers on ${b.options} options (mean Spearman ${f2(b.meanSpearman)}; permutation p = ${f2(b.pPermutation)}).`,
  );
  if (!c.after) {
    out.push(`After: not yet. ${c.missing ?? ''}`.trim());
    return out;
  }
  const a = c.after;
  out.push(
    `After, blind: W = ${f2(a.w)} among ${a.designers.length} designers on ${a.options} options (mean Spearman ${f2(a.meanSpearman)}; permutation p = ${f2(a.pPermutation)}).`,
  );
  if (c.paired) {
    const p = c.paired;
    out.push(
      `For the ${p.designers.length} designers who ranked both times, mean Spearman changed by ${signed(p.change)} (90% interval ${signed(p.interval[0])} to ${signed(p.interval[1])}).`,
      verdictSentence(p.verdict),
    );
  } else if (c.missing) out.push(c.missing);
  if (c.acceptance) {
    const acc = c.acceptance;
    const best = acc.bestGenerated;
    out.push(
      best
        ? `The best generated option (${best.letter} = ${best.id}) came ${ordinal(best.position)} of ${acc.ranking.length} in the team's blind Borda ranking` +
            `${acc.top1 ? ": a generated option is the team's top choice." : acc.top2 ? ": a generated option is in the team's top two." : '; no generated option made the top two.'}`
        : 'No generated option was in the re-rank set.',
    );
  }
  for (const line of feedbackSentences(c)) out.push(line);
  return out;
}

function feedbackSentences(c: ComparisonForWords): string[] {
  const out: string[] = [];
  const r = c.ratings;
  if (r.n > 0 && r.mean !== null) {
    out.push(
      `Designers rated ${r.n} of their proxies' messages ${f2(r.mean)} / 5 on average (SD ${f2(r.sd)}; ${pct(r.positiveShare ?? 0)} rated 4 or 5)` +
        `${r.lowestDesigner ? `; lowest designer mean ${f2(r.lowestDesigner.mean)} (${r.lowestDesigner.designer})` : ''}. The study: ${REFERENCE.ratingsMean.toFixed(2)}.`,
    );
  } else out.push('No ratings of proxy commentary yet.');
  const s = c.survey;
  if (s.n > 0) {
    out.push(
      `Survey (${s.n} designer${s.n === 1 ? '' : 's'}, 1–5): representative ${f2(s.representative)}, clarity ${f2(s.clarity)}, satisfied ${f2(s.satisfied)}` +
        ` (the study: ${REFERENCE.survey.representative}, ${REFERENCE.survey.clarity}, ${REFERENCE.survey.satisfied}).`,
    );
  } else out.push('No survey answers yet.');
  for (const v of c.votes ?? []) {
    const counts = Object.entries(v.counts)
      .map(([p, n]) => `${p} ${n}`)
      .join(', ');
    out.push(
      `Vote on "${v.question}" (round ${v.iteration}, decision point ${v.decisionPoint}): ${counts}` +
        `${v.decided ? ` — decided${v.decision ? `: ${v.decision}` : ''}${v.closed ? ` (${v.closed})` : ''}${v.recorded === false ? " (by the votes; the driver's record takes it in on its next refine or resume)" : ''}.` : v.missing.length ? `; waiting for ${v.missing.join(', ')}.` : '.'}`,
    );
  }
  const t = c.timing;
  const spans: string[] = [];
  if (t.hoursToRerank !== null)
    spans.push(
      `re-rankings saved ${hours(t.hoursToRerank)} after the run started${t.rerankedFrom === 'file times' ? " (from the files' times)" : ''}`,
    );
  if (t.hoursToCommit !== null) spans.push(`committed ${hours(t.hoursToCommit)} after it started`);
  if (spans.length) out.push(`Time to decision: ${spans.join('; ')}.`);
  if (t.note) out.push(t.note);
  return out;
}

export function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${s}`;
}
