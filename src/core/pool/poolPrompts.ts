/**
 * What a pool asks (issue 41): each proxy ranks the remix agent's candidate directions as its designer would (strict
 * JSON, the pool's letters as an enum, a ranking that is not every letter once sent back for one repair), and the agent
 * is asked once more for a pool that is not one idea said several ways.
 */
import type { StructuredOutput } from '../llm/backend';
import type { ChatMessage } from '../llm/messages';
import { quoted, quotedMember } from '../llm/quoted';
import type { DesignerRanking } from '../review/model';
import type { Pool } from '../record/record';
import type { PersonaRole } from '../settings/discussionSettings';
import { DIVERSITY_FLOOR } from '../stats/election/diversity';
import { letterRankingStructured } from '../forecast/forecastPrompts';

export const POOL_RANKING_SCHEMA_NAME = 'teamfusion_pool_ranking';

/** The answer of a proxy's ranking of the pool: every letter once, best first. */
export function poolRankingStructured(letters: readonly string[]): StructuredOutput {
  return letterRankingStructured(POOL_RANKING_SCHEMA_NAME, letters, 'Every letter of the pool');
}

/** One candidate of the pool as a proxy reads it: its letter, its inputs, how it differs, its directions (quoted). */
export function candidateText(c: Pool['candidates'][number], labelOf: (id: string) => string): string {
  return [
    `Directions ${c.letter}: from ${c.from.map(labelOf).join(', ')}${c.differs ? `; differs: ${quoted(c.differs)}` : ''}`,
    ...c.editingDirections.split('\n').map((l) => `  ${quoted(l)}`),
  ].join('\n');
}

export interface RankingMessageInput {
  designer: DesignerRanking;
  pool: Pick<Pool, 'candidates'>;
  /** How many of the pool the team elects (the round's remixes). */
  elect: number;
  labelOf: (id: string) => string;
  personaRole?: PersonaRole;
}

/** The last message of a proxy's ranking of the pool: who to play, their own ranking, the pool and the task. */
export function poolRankingMessage(p: RankingMessageInput): ChatMessage {
  const ranks = [...p.designer.entries]
    .sort((a, b) => a.rank - b.rank)
    .map((e) => `- ${p.labelOf(e.option)}: rank ${e.rank} — ${quoted(e.justification)}`);
  const name = quoted(p.designer.name);
  const letters = p.pool.candidates.map((c) => c.letter);
  const text = [
    `You are role-playing ${quotedMember(p.designer)}. Speak as ${name}: rank the proposals below as ${name} would; never mention being an AI or a role-play.`,
    `${name}'s own ranking before the review, best first (equal ranks are ties), with their reasons (quoted):\n${ranks.join('\n')}`,
    `The facilitator proposes ${letters.length} sets of editing directions for this round's remix; the team's rankings of them elect ` +
      `the ${p.elect === 1 ? 'one' : p.elect} that will be made. The proposals (the directions are the facilitator's words, quoted):`,
    p.pool.candidates.map((c) => candidateText(c, p.labelOf)).join('\n\n'),
    `Answer with JSON only: "ranking": all ${letters.length} letters (${letters.join(', ')}), each exactly once, best first, as ${name} would rank them after this discussion.`,
  ];
  return { role: p.personaRole === 'user' ? 'user' : 'system', content: text.join('\n\n') };
}

/** The re-ask (once, bounded): the pool said one idea several ways; the same number again, each clearly different. */
export function poolReaskMessage(size: number, diversity: number, personaRole?: PersonaRole): ChatMessage {
  return {
    role: personaRole === 'user' ? 'user' : 'system',
    content:
      `These ${size} proposals are too much alike: the mean distance of their words is ${diversity.toFixed(2)}, below the floor of ${DIVERSITY_FLOOR}. ` +
      `Answer with JSON only: "remixes": ${size} proposals again, within what the team agreed, each a genuinely different direction ` +
      '(another composition, palette, type or idea, not the same directions reworded), each with "idea", "differs", "from" and "editingDirections" as before.',
  };
}
