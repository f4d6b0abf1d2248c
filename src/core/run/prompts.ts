/**
 * Every prompt TeamFusion sends, in one readable place.
 *
 * Cache-friendly order: all calls of one discussion (every proxy turn and the remix agent) start with the SAME messages —
 *   1. system: the shared goal and communication style (identical for every call of every run),
 *   2. user:   the brief, what happened in earlier rounds, the lead's feedback, and the candidate images with their labels,
 *   3. user:   one message per transcript entry so far ("Ana: …"), the same text for every listener,
 * and only then the part that differs:
 *   4. system: the persona ("You are role-playing Ana (Art Director)", her ranks and justifications) and the task,
 *      or, for the remix agent, its instructions.
 * So call n+1 repeats call n's prefix up to its persona message, and a provider's prompt cache covers the images.
 */
import type { DesignerRanking } from '../review/model';
import type { ChatMessage, ChatPart } from '../llm/messages';
import type { PreparedImage } from '../llm/images';
import type { Iteration, Message } from './record';

export interface PromptCandidate {
  id: string;
  /** "Image 3"; stable for the whole run. */
  label: string;
  /** Relative to the review root. */
  file: string;
  /** Set for remixes: "r1". */
  remixId?: string;
  image: PreparedImage;
}

/** "Image 7 (remix r1)" for remixes, "Image 3" otherwise. */
export function promptLabel(c: { label: string; remixId?: string }): string {
  return c.remixId ? `${c.label} (remix ${c.remixId})` : c.label;
}

export const GOAL =
  'You are a design expert in a design review. Together with the rest of the team you want to reach consensus on the best ' +
  "design for the client's brief, and on how the strongest candidates could be combined into a design that is better than any of them.";

export const STYLE =
  'Talk the way real designers talk in a review: direct, specific, about what you actually see (type, colour, composition, ' +
  'imagery, mood) and how it serves the brief. Each message is a short chat message of one to three sentences: no lists, no ' +
  'headings, no greetings, no sign-off. Refer to candidates only by their label, e.g. "Image 3". Build on what the others ' +
  'said: agree, push back, or propose a concrete combination. Change your mind when you hear a good argument.';

export const SYSTEM_PROMPT = `${GOAL}\n\n${STYLE}`;

export interface SharedBlockInput {
  brief: string;
  candidates: readonly PromptCandidate[];
  /** Earlier rounds of this run, oldest first (complete ones). */
  previous: readonly Iteration[];
  labelOf: (id: string) => string;
  feedback?: string;
}

/** Messages 1 and 2: identical for every call of the discussion. */
export function sharedPrefix(input: SharedBlockInput): ChatMessage[] {
  const parts: ChatPart[] = [{ type: 'text', text: `The client's brief:\n\n${input.brief.trim()}` }];
  const history = input.previous.map((it) => summariseIteration(it, input.labelOf)).filter(Boolean);
  if (history.length) parts.push({ type: 'text', text: `Earlier rounds of this review:\n\n${history.join('\n\n')}` });
  if (input.feedback?.trim()) parts.push({ type: 'text', text: `Feedback from the lead, to take into account:\n\n${input.feedback.trim()}` });
  parts.push({ type: 'text', text: `The candidates in this round (${input.candidates.length}) follow, each after its label.` });
  for (const c of input.candidates) {
    parts.push({ type: 'text', text: promptLabel(c) });
    parts.push({ type: 'image', file: c.file, label: promptLabel(c), image: c.image });
  }
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: parts },
  ];
}

function summariseIteration(it: Iteration, labelOf: (id: string) => string): string {
  if (!it.ranking?.length) return '';
  const lines = [`Round ${it.index}: the team's consensus was ${it.ranking.map(labelOf).join(', ')} (best first).`];
  if (it.agreements?.length) lines.push(`Agreed: ${it.agreements.map(sentence).join(' ')}`);
  if (it.decisionPoints?.length) lines.push(`Still open for the lead: ${it.decisionPoints.map((d) => sentence(d.question)).join(' ')}`);
  if (it.remix) {
    const directions = it.editingDirectionsDiscussed ?? it.editingDirections;
    lines.push(`${labelOf(it.remix.id)} was made from ${(it.remix.from ?? it.ranking).map(labelOf).join(', ')}` +
      (directions ? ` following these directions: ${directions}` : '.'));
  }
  return lines.join(' ');
}

function sentence(s: string): string {
  const t = s.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

/** Message 3…: the transcript so far, written the same way for every listener. */
export function transcriptMessages(messages: readonly Message[], nameOf: (designerId: string) => string): ChatMessage[] {
  return messages.map((m) => ({ role: 'user', content: `${nameOf(m.speaker)}: ${m.content}` }));
}

export interface PersonaInput {
  designer: DesignerRanking;
  iteration: Iteration;
  totalIterations: number;
  candidates: readonly PromptCandidate[];
  labelOf: (id: string) => string;
  turn: number;
  turnsPerAgent: number;
  hasFeedback: boolean;
}

/** The last message of a proxy turn: who to play, their own ranking, and this round's task. */
export function personaMessage(p: PersonaInput): ChatMessage {
  const who = p.designer.role ? `${p.designer.name} (${p.designer.role})` : p.designer.name;
  const inRound = new Set(p.candidates.map((c) => c.id));
  const ranks = [...p.designer.entries]
    .sort((a, b) => a.rank - b.rank)
    .map((e) => `- ${p.labelOf(e.option)}: rank ${e.rank}${inRound.has(e.option) ? '' : ' (no longer in the running)'} — ${e.justification}`);
  const text = [
    `You are role-playing ${who}. Speak as ${p.designer.name}, in the first person; never mention being an AI or a role-play.`,
    `${p.designer.name}'s own ranking before the review, best first (equal ranks are ties), with their reasons:\n${ranks.join('\n')}`,
    taskText(p.iteration, p.totalIterations, p.candidates, p.hasFeedback),
    `Write ${p.designer.name}'s next message in the discussion now (their turn ${p.turn} of ${p.turnsPerAgent} in this round): one to three sentences, no list.`,
  ];
  return { role: 'system', content: text.join('\n\n') };
}

export function taskText(it: Iteration, totalIterations: number, candidates: readonly PromptCandidate[], hasFeedback: boolean): string {
  const remixes = candidates.filter((c) => c.remixId).map(promptLabel);
  const feedback = hasFeedback ? " Take the lead's feedback into account." : '';
  if (it.final) {
    return `This is the final round (${it.index} of ${totalIterations}). The team must pick the ONE design to take forward from ` +
      `${candidates.map(promptLabel).join(', ')}. Say which one you back and why, and converge with the others.${feedback}`;
  }
  if (it.index === 1 || remixes.length === 0) {
    return `Round ${it.index} of ${totalIterations}. Rank the candidates against the brief, then work towards agreement on which two ` +
      `or three are strongest and how their strengths could be combined into one design.${feedback}`;
  }
  return `Round ${it.index} of ${totalIterations}. ${remixes.join(', ')} is new: the remix made from the team's last agreement. ` +
    `Critique it honestly against the brief, re-rank this narrowed set, and agree what the next remix should keep or change.${feedback}`;
}

export interface RemixAgentInput {
  iteration: Iteration;
  candidates: readonly PromptCandidate[];
  designers: readonly DesignerRanking[];
  /** How many candidates the consensus ranking names (the edit's inputs); all candidates in the final round. */
  topK: number;
}

/** The remix agent's instructions: the last message after the shared prefix and the full transcript. */
export function remixAgentMessage(r: RemixAgentInput): ChatMessage {
  const ids = r.candidates.map((c) => `${promptLabel(c)} = "${c.id}"`).join(', ');
  const people = r.designers.map((d) => `"${d.id}" = ${d.name}${d.role ? ` (${d.role})` : ''}`).join(', ');
  const common = [
    'You are now the facilitator of this review, not one of the designers. Read the whole discussion above; the latest ' +
      'messages weigh most, because they show where the team ended up. Report only what the team actually said.',
    `Candidate ids: ${ids}. Designer ids: ${people}.`,
  ];
  const tail = [
    '"agreements": points the team agreed on, one short sentence each.',
    '"disagreements": points still in dispute, one short sentence each.',
    '"decisionPoints": mutually exclusive preferences the lead has to decide (e.g. serif vs sans-serif), each with its ' +
      'positions and the designer ids holding each. Surface them; do not resolve them.',
    '"backed": for each designer id, the candidate id that designer\'s proxy backed last in this round\'s discussion (null if they backed none).',
  ];
  if (r.iteration.final) {
    return {
      role: 'system',
      content: [
        ...common,
        'Answer with JSON only:',
        `"ranking": all ${r.candidates.length} candidate ids, best first, as the team concluded; the first one is the team's final pick.`,
        ...tail,
      ].join('\n'),
    };
  }
  return {
    role: 'system',
    content: [
      ...common,
      'Answer with JSON only:',
      `"ranking": the team's consensus top ${r.topK} candidate ids, best first. These, in this order, are the inputs of an image-edit model.`,
      '"editingDirections": instructions for that image-edit model to make ONE new design combining the strengths the team ' +
        'agreed on: what to take from which image, what to change, what to avoid. Refer to images by the labels used in the ' +
        'discussion (e.g. "Image 4") and only to images in your ranking; TeamFusion renumbers them for the edit model. Include ' +
        'only what was agreed, be concrete and self-contained, no designer names, no more than 120 words.',
      ...tail,
    ].join('\n'),
  };
}

/** Sent back after an invalid remix-agent answer. */
export function repairMessage(error: string): ChatMessage {
  return {
    role: 'user',
    content: `That answer could not be used: ${error} Answer again with JSON only, matching the schema exactly, using only the given ids.`,
  };
}

/**
 * Rewrites discussion labels ("Image 4", "Image 7 (remix r1)") into the edit model's numbering: the i-th input image is
 * "Image i". Labels of images that are not inputs are left as they are and reported.
 */
export function mapLabelsForEdit(
  text: string,
  inputs: readonly { label: string }[],
): { text: string; unmapped: string[] } {
  const position = new Map(inputs.map((c, i) => [c.label.toLowerCase(), i + 1]));
  const unmapped: string[] = [];
  const out = text.replace(/\bImage\s+(\d+)(\s*\(remix\s+r\d+\))?/gi, (whole, n: string) => {
    const pos = position.get(`image ${n}`);
    if (pos === undefined) {
      unmapped.push(`Image ${n}`);
      return whole;
    }
    return `Image ${pos}`;
  });
  return { text: out, unmapped };
}
