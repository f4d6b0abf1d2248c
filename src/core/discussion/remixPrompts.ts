/**
 * What the remix agent and the lead's proxy are told (the round's consensus, its directions and decision points), the
 * repair sent after an unusable answer, and how discussion labels become the edit model's image numbers.
 */
import { quoted, quotedMember } from '../llm/quoted';
import type { DesignerRanking } from '../review/model';
import type { ConsensusMethod, DiscussionMode, Hierarchy, PersonaRole } from '../settings/discussionSettings';
import type { ChatMessage } from '../llm/messages';
import type { Iteration } from '../record/record';
import { DIRECTION_PARTS, formatWeight, type DirectionPart, type PromptCandidate, type PromptReference, promptLabel } from './prompts';

export interface RemixAgentInput {
  iteration: Iteration;
  candidates: readonly PromptCandidate[];
  designers: readonly DesignerRanking[];
  /** How many candidates the consensus ranking names (the edit's inputs); all candidates in the final round. */
  topK: number;
  /** Default flat. */
  hierarchy?: Hierarchy;
  /** Under `weighted` or `consensus: schulze`: the candidates in the team's own consensus order (the tie-break). */
  weightedOrder?: readonly string[];
  /** Which consensus order `weightedOrder` is (default borda). */
  consensus?: ConsensusMethod;
  /** Default together. */
  mode?: DiscussionMode;
  /** Default system. */
  personaRole?: PersonaRole;
  /** Remixes this round makes (default 1): with more, the agent proposes that many, each its own image edit. */
  remixes?: number;
  /** The brief's must-haves the last round's remixes failed (issue 41): the new directions must meet them. */
  failedMustHaves?: readonly { text: string; quote: string; remixes: readonly string[] }[];
  /** A pool (issue 41): the `remixes` proposals are candidates the proxies rank, of which this many are elected and made. */
  elect?: number;
  /** The reference gallery: the agent may cite references for the edit (never rank them). */
  references?: readonly Pick<PromptReference, 'id' | 'label'>[];
}

/** How the remix agent is told to write the directions of one edit (one remix a round, or each of several). */
function directionsText(inputs: string): string {
  return (
    `in four parts: ${DIRECTION_PARTS.map((p) => `"${p.key}" (${p.label.toLowerCase()})`).join(', ')}; each part says ` +
    'what to take from which image, what to change with specific adjustments, and what to avoid. Refer to images by the ' +
    `labels used in the discussion (e.g. "Image 4") and only to ${inputs}; TeamFusion renumbers them for the ` +
    'edit model. Include only what was agreed, be concrete and self-contained, no designer names, no more than 40 words a part.'
  );
}

/** With a reference gallery: the remix agent's "references" field (the cited ones go to every edit of the round). */
function citeReferences(count: number, what: string): string[] {
  if (!count) return [];
  return [
    '"references": the ids of the reference images whose look the team wants ' +
      what +
      ' to borrow (they go to the ' +
      'image-edit model after the candidates, for style only); [] for none. Cite only what the discussion supports; you may ' +
      'name them in the directions by their labels (e.g. "Reference 2").',
  ];
}

/** The remix agent's instructions: the last message after the shared prefix and the full transcript. */
export function remixAgentMessage(r: RemixAgentInput): ChatMessage {
  const ids = r.candidates.map((c) => `${promptLabel(c)} = "${c.id}"`).join(', ');
  const weighted = r.hierarchy === 'weighted';
  const people = r.designers.map((d) => `"${d.id}" = ${quotedMember(d)}${weighted ? `, weight ${formatWeight(d.weight)}` : ''}`).join(', ');
  const common = [
    'You are now the facilitator of this review, not one of the designers. Read the whole discussion above; the latest ' +
      'messages weigh most, because they show where the team ended up. Report only what the team actually said.',
    `Candidate ids: ${ids}. Designer ids: ${people}.`,
  ];
  const refs = r.references ?? [];
  if (refs.length) {
    common.push(
      `Reference ids (the gallery; never candidates, never in "ranking"): ${refs.map((x) => `${x.label} = "${x.id}"`).join(', ')}.`,
    );
  }
  if (r.failedMustHaves?.length) {
    common.push(
      "The last round's remixes failed these must-haves of the brief (with the brief's words, quoted); the new directions must meet them: " +
        r.failedMustHaves.map((f) => `${quoted(f.text)} (brief: ${quoted(f.quote)}; failed by ${f.remixes.join(', ')})`).join('; ') +
        '.',
    );
  }
  if (r.mode === 'separate') {
    common.push(
      "The designers wrote separately in this round and did not read each other: synthesise their views into the team's consensus.",
    );
  }
  const label = (id: string) => promptLabel(r.candidates.find((c) => c.id === id) ?? { label: id });
  const orderName = r.consensus === 'schulze' ? 'Schulze order (pairwise majorities, weights counted)' : 'weighted Borda order';
  const tieBreak = `break the tie by the ${orderName} of the team's own rankings: ${(r.weightedOrder ?? []).map(label).join(', ')}.`;
  if (weighted) {
    common.push(
      "This team weighs its designers' views by the weights above: give a view weight in proportion. Where the discussion " +
        `leaves candidates tied, ${tieBreak}`,
    );
  } else if (r.consensus === 'schulze' && r.weightedOrder?.length) {
    common.push(`Where the discussion leaves candidates tied, ${tieBreak}`);
  }
  const tail = [
    '"agreements": points the team agreed on, one short sentence each.',
    '"disagreements": points still in dispute, one short sentence each.',
    '"decisionPoints": mutually exclusive preferences the lead has to decide (e.g. serif vs sans-serif), each with its ' +
      'positions and the designer ids holding each. Surface them; do not resolve them.',
    '"backed": for each designer id, the candidate id that designer\'s proxy backed last in this round\'s discussion (null if they backed none).',
  ];
  const role = r.personaRole === 'user' ? 'user' : 'system';
  if (r.iteration.final) {
    return {
      role,
      content: [
        ...common,
        'Answer with JSON only:',
        `"ranking": all ${r.candidates.length} candidate ids, best first, as the team concluded; the first one is the team's final pick.`,
        ...tail,
      ].join('\n'),
    };
  }
  const n = r.remixes ?? 1;
  if (n > 1) {
    return {
      role,
      content: [
        ...common,
        'Answer with JSON only:',
        `"ranking": the team's consensus top ${r.topK} candidate ids, best first. These go on to the next round, with the new remixes.`,
        '"reasons": for each candidate in your ranking, in the same order, its id and one short sentence on why the team ranked it there.',
        (r.elect !== undefined
          ? `"remixes": exactly ${n} proposals for new designs, a pool: each designer's proxy will rank them as that designer ` +
            `would, and only the ${r.elect === 1 ? 'one' : r.elect} the team elects will be made, each by its own image-edit call. Make them ` +
            'genuinely different from each other (a different composition, palette, type or idea, not the same directions reworded), ' +
            'all within what the team agreed. For each: "idea": what it sets out to do, in a few words; "differs": one line on how ' +
            'it differs from the others; "from": the '
          : `"remixes": exactly ${n} proposals for new designs, each made by its own image-edit call, and each clearly different from ` +
            'the others in what it sets out to do (for example one that combines the top two and one that pushes the favourite ' +
            'further), all within what the team agreed. For each: "idea": what it sets out to do, in a few words; "from": the ') +
          'candidate ids it starts from, best first (these, in this order, are its input images; one id is fine for pushing one ' +
          'design further); "editingDirections": instructions for the image-edit model, ' +
          directionsText('the images in its "from"'),
        ...citeReferences(refs.length, 'every new design of this round'),
        ...tail,
      ].join('\n'),
    };
  }
  return {
    role,
    content: [
      ...common,
      'Answer with JSON only:',
      `"ranking": the team's consensus top ${r.topK} candidate ids, best first. These, in this order, are the inputs of an image-edit model.`,
      '"reasons": for each candidate in your ranking, in the same order, its id and one short sentence on why the team ranked it there.',
      '"editingDirections": instructions for that image-edit model to make ONE new design combining the strengths the team ' +
        `agreed on, ${directionsText('images in your ranking')}`,
      ...citeReferences(refs.length, 'the new design'),
      ...tail,
    ].join('\n'),
  };
}

/** The four parts joined into the one labelled string the edit model reads ("Composition: …" on its own line, …). */
export function joinDirections(parts: Partial<Record<DirectionPart, string>>): string {
  return DIRECTION_PARTS.map((p) => {
    const t = parts[p.key]?.trim();
    return t ? `${p.label}: ${t}` : '';
  })
    .filter(Boolean)
    .join('\n');
}

export interface LeadDecisionInput {
  lead: DesignerRanking;
  decisionPoints: readonly { question: string; positions: readonly { position: string; heldBy: readonly string[] }[] }[];
  nameOf: (id: string) => string;
  personaRole?: PersonaRole;
}

/** Under `hierarchy: lead-decides`: the lead's proxy settles each decision point of the round. */
export function leadDecisionMessage(p: LeadDecisionInput): ChatMessage {
  const who = quotedMember(p.lead);
  const ranks = [...p.lead.entries]
    .sort((a, b) => a.rank - b.rank)
    .map((e) => `- option "${e.option}": rank ${e.rank} — ${quoted(e.justification)}`);
  const points = p.decisionPoints.map(
    (d, i) =>
      `${i + 1}. ${d.question} Positions: ${d.positions.map((x) => `"${x.position}" (${x.heldBy.map((id) => quoted(p.nameOf(id))).join(', ') || 'nobody named'})`).join('; ')}`,
  );
  return {
    role: p.personaRole === 'user' ? 'user' : 'system',
    content: [
      `You are role-playing ${who}, the lead of this team, who settles the open decision points at the end of the round. ` +
        `Decide as ${quoted(p.lead.name)} would, given their own ranking and the discussion above.`,
      `${quoted(p.lead.name)}'s own ranking before the review (reasons quoted):\n${ranks.join('\n')}`,
      `The decision points:\n${points.join('\n')}`,
      'Answer with JSON only: "decisions": one entry per decision point, in the same order, with "question" (as given), ' +
        '"decision" (the position chosen, in a few words) and "reason" (one short sentence).',
    ].join('\n\n'),
  };
}

/** Sent back after an invalid remix-agent answer. */
export function repairMessage(error: string): ChatMessage {
  return {
    role: 'user',
    content: `That answer could not be used: ${error} Answer again with JSON only, matching the schema exactly, using only the given ids.`,
  };
}

/** How an edit's prompt names an image of the discussion that the edit does not carry (never a number: it would name another). */
export const NOT_GIVEN = 'another candidate (not given here)';

/**
 * Rewrites discussion labels ("Image 4", "Image 7 (remix r1)") into the edit model's numbering: the i-th input image is
 * "Image i". An image label that is not an input becomes NOT_GIVEN and is reported (a reference label not sent is reported).
 * Used through editText (core/remix/editText.ts), the one renumbering of every edit prompt.
 */
export function mapLabelsForEdit(
  text: string,
  inputs: readonly { label: string }[],
  references: readonly { label: string }[] = [],
): { text: string; unmapped: string[] } {
  const position = new Map(inputs.map((c, i) => [c.label.toLowerCase(), i + 1]));
  const unmapped: string[] = [];
  const out = text.replace(/\bImage\s+(\d+)(\s*\(remix\s+r\d+[a-z]?\))?/gi, (_whole, n: string) => {
    const pos = position.get(`image ${n}`);
    if (pos === undefined) {
      unmapped.push(`Image ${n}`);
      return NOT_GIVEN;
    }
    return `Image ${pos}`;
  });
  // References sent to the edit come after the candidates: "Reference 2" becomes "Image <its place>".
  const refPosition = new Map(references.map((r, i) => [r.label.toLowerCase(), inputs.length + i + 1]));
  const withRefs = out.replace(/\bReference\s+(\d+)/gi, (whole, n: string) => {
    const pos = refPosition.get(`reference ${n}`);
    if (pos === undefined) {
      unmapped.push(`Reference ${n}`);
      return whole;
    }
    return `Image ${pos}`;
  });
  return { text: withRefs, unmapped };
}

/** The line added to the edit prompt when references go with it: which input images are references, and what for. */
export function referencesForEditLine(first: number, references: readonly { note?: string }[]): string {
  const each = references.map((r, i) => `Image ${first + i}${r.note ? ` (${r.note.replace(/\s+/g, ' ').trim()})` : ''}`);
  return `Reference images, for style only (not designs to combine or copy): ${each.join('; ')}.`;
}
