/**
 * The team's criteria in a run's prompts (issue 34, item 5): the criteria offered at the start (the most controversial of
 * a current criteria.json: the points to settle) and those members pinned. Names and descriptions are quoted as JSON
 * strings: the team's words, never instructions.
 */
import type { ChatMessage } from '../llm/messages';
import type { RunCriteria } from '../record/record';
import { typedWords } from '../authorship/typist';

export function criteriaMessage(criteria: RunCriteria | undefined, nameOf: (id: string) => string): ChatMessage | undefined {
  const offered = criteria?.offered ?? [];
  const pinned = criteria?.pinned ?? [];
  if (!offered.length && !pinned.length) return undefined;
  const quote = (c: { name: string; description: string }): string => `${JSON.stringify(c.name)}: ${JSON.stringify(c.description)}`;
  const lines: string[] = [];
  if (offered.length) {
    lines.push("The criteria the team splits on most (found in the members' own words) — points to settle; say where you stand on them:");
    lines.push(...offered.map((c) => `- ${quote(c)}`));
  }
  if (pinned.length) {
    lines.push('Criteria pinned by the team — keep them in mind in every round, and say which of them your proposals serve:');
    lines.push(
      ...pinned.map(
        (c) => `- Pinned by ${nameOf(c.by)}${c.typedBy !== undefined ? ` (${typedWords(c.typedBy, c.by, nameOf)})` : ''}: ${quote(c)}`,
      ),
    );
  }
  return { role: 'user', content: lines.join('\n') };
}
