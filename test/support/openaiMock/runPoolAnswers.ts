/**
 * The scripted server's answers to a pool (issue 41), made from the run itself (runAnswers.ts uses them):
 * - a pool's proposals each take their own angle (layout, palette, type and idea in words of their own), so a pool is
 *   never one idea said again and is not asked for once more;
 * - a proxy ranks the pool from its designer's own ranking: a proposal that starts from a design the designer ranks
 *   higher comes first (ties in letter order).
 */
import { isObject } from './openapiSchema';
import { requestTexts } from './autoResponder';
import { personaOf } from './requestFacts';

const ANGLES = [
  {
    idea: 'combine the top candidates',
    composition: 'balanced centred arrangement',
    visualElements: 'both main motifs side by side',
    colour: 'blend the two palettes evenly',
    typography: 'one calm sans-serif weight',
  },
  {
    idea: 'push the favourite further',
    composition: 'tight crop where the product fills the frame',
    visualElements: 'strip secondary props away',
    colour: 'deepen the dominant hue',
    typography: 'larger heavier headline',
  },
  {
    idea: 'a lighter, airier take',
    composition: 'wide margins and generous negative space',
    visualElements: 'soft daylight with gentle shadow only',
    colour: 'pale pastel wash',
    typography: 'thin widely spaced capitals',
  },
  {
    idea: 'a bolder graphic take',
    composition: 'diagonal dynamic layout',
    visualElements: 'flat geometric shapes behind the bottle',
    colour: 'high-contrast complementary accents',
    typography: 'condensed display lettering',
  },
  {
    idea: 'an evening mood',
    composition: 'low horizon under a dusk sky',
    visualElements: 'reflections on dark water',
    colour: 'indigo with amber highlights',
    typography: 'elegant serif italic',
  },
  {
    idea: 'a tactile close-up',
    composition: 'macro detail of glass texture',
    visualElements: 'droplets and grain visible',
    colour: 'neutral stone tones',
    typography: 'small discreet caption',
  },
  {
    idea: 'a playful twist',
    composition: 'asymmetric collage of cut-outs',
    visualElements: 'paper shapes and confetti',
    colour: 'bright primary pops',
    typography: 'rounded friendly letters',
  },
  {
    idea: 'a minimal still life',
    composition: 'single object on a plinth',
    visualElements: 'one sculptural shadow',
    colour: 'monochrome greys',
    typography: 'tiny mono label',
  },
] as const;

/** Whether a remix-agent schema asks for a pool: its proposals carry `differs`. */
export function asksForPool(schema: Record<string, unknown>): boolean {
  const props = isObject(schema.properties) ? schema.properties : {};
  const remixes = isObject(props.remixes) ? props.remixes : {};
  const items = isObject(remixes.items) ? remixes.items : {};
  return isObject(items.properties) && 'differs' in items.properties;
}

/** The pool's proposals: proposal i starts from `top[i]` (the rest after it) and takes angle i (shifted by `offset`). */
export function poolProposals(top: readonly string[], id: (label: string) => string, count: number, offset = 0): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => {
    const lead = top[i % top.length]!;
    const a = ANGLES[(i + offset) % ANGLES.length]!;
    return {
      idea: a.idea,
      differs: `${a.idea}: ${a.composition}, ${a.colour}`,
      from: [lead, ...top.filter((l) => l !== lead)].map(id),
      editingDirections: {
        composition: `Start from ${lead}: ${a.composition}.`,
        visualElements: `${a.visualElements}.`,
        colour: `${a.colour}.`,
        typography: `${a.typography}.`,
      },
    };
  });
}

/** A proxy's ranking of the pool's `letters` from its persona: the proposal whose first input it ranks highest first. */
export function poolRankingValue(body: unknown, letters: readonly string[]): { ranking: string[] } {
  const p = personaOf(body);
  const rank = new Map((p?.ranking ?? []).map((r) => [r.label, r.rank]));
  const firstFrom = new Map<string, string>();
  for (const t of requestTexts(body)) {
    for (const m of t.matchAll(/^Directions ([a-z]): from (Image [\w.-]+)/gm)) firstFrom.set(m[1]!, m[2]!);
  }
  const score = (l: string): number => rank.get(firstFrom.get(l) ?? '') ?? Number.MAX_SAFE_INTEGER;
  return { ranking: [...letters].sort((a, b) => score(a) - score(b) || a.localeCompare(b)) };
}

/**
 * The brief as a checklist (issue 41) from the run: its must-haves are the brief's own phrases (so every quote is found),
 * and a check says `unclear` for every item — a scripted server does not look at images.
 */
export function checklistValue(body: unknown): { items: { text: string; quote: string }[] } {
  const quotedBrief = requestTexts(body)
    .map((t) => /^The brief \(brief\.md\), quoted:\n([\s\S]*)$/.exec(t)?.[1])
    .find(Boolean);
  let brief = '';
  try {
    brief = quotedBrief ? String(JSON.parse(quotedBrief)) : '';
  } catch {
    brief = '';
  }
  const phrases = brief
    .split(/[\n.;:!?]+/)
    .map((p) => p.replace(/^[#\s-]+/, '').trim())
    .filter((p) => p.split(/\s+/).length >= 3);
  return { items: phrases.slice(0, 3).map((quote) => ({ text: `Meets the brief: ${quote}`, quote })) };
}

export function checkValue(itemIds: readonly string[], label: string): { checks: { item: string; result: 'unclear'; reason: string }[] } {
  return { checks: itemIds.map((item) => ({ item, result: 'unclear', reason: `${label} a scripted server does not look at the image.` })) };
}
