/**
 * result.md's account of a pooled round (issue 41): the directions proposed side by side, who ranked which first, each
 * proxy's ranking, the election and any ranking left out. Every model and member text goes through `md` (inert).
 */
import type { Pool } from '../../record/record';
import { DIVERSITY_FLOOR } from '../../stats/election/diversity';

export interface PoolWords {
  md: (s: string) => string;
  /** A member's name (already inert). */
  name: (id: string) => string;
  /** A candidate's label with its id (already inert). */
  label: (id: string) => string;
}

export function poolSection(pool: Pool, w: PoolWords): string[] {
  const { md } = w;
  const size = pool.candidates.length;
  const out: string[] = [
    `Pool of directions: ${size} proposed by the remix agent, diversity ${pool.diversity.toFixed(2)} (floor ${DIVERSITY_FLOOR})` +
      `${pool.reasked ? ', asked again once for directions that differ' : ''}.`,
    '',
  ];
  const firstFor = (letter: string): string[] =>
    Object.entries(pool.rankings)
      .filter(([, r]) => r[0] === letter)
      .map(([m]) => w.name(m));
  out.push('| Letter | From | How it differs | First for | Elected |', '|---|---|---|---|---|');
  for (const c of pool.candidates) {
    const place = pool.elected.indexOf(c.letter);
    out.push(
      `| ${c.letter} | ${c.from.map(w.label).join(', ')} | ${md(c.differs) || '—'} | ${firstFor(c.letter).join(', ') || '—'} | ${place >= 0 ? `yes (${place + 1})` : 'no'} |`,
    );
  }
  out.push('');
  for (const c of pool.candidates) {
    out.push(`Directions ${c.letter} (as discussed):`, '');
    for (const l of c.editingDirections.split('\n')) out.push(`> ${md(l)}`);
    out.push('');
  }
  const rankings = Object.entries(pool.rankings);
  out.push(
    rankings.length
      ? `Elected by Schulze over the proxies' rankings: ${pool.elected.join(', ')} (members weighted; a tie goes to the higher weighted Borda points, then the earlier letter).`
      : `No proxy's ranking was usable; the remix agent's own first proposals were made: ${pool.elected.join(', ')}.`,
    '',
  );
  if (rankings.length)
    out.push('Rankings of the pool, best first:', '', ...rankings.map(([m, r]) => `- ${w.name(m)}: ${r.join(', ')}`), '');
  for (const x of pool.leftOut ?? []) out.push(`- Left out: ${md(x.reason)}`);
  if (pool.leftOut?.length) out.push('');
  return out;
}
