/**
 * The model behind the "My ranking" form: an ordered list of options with a justification each, where an item may
 * be tied with the one above. Pure functions (unit tested); the view only renders and calls them.
 */
export interface DraftItem {
  option: string;
  justification: string;
  tiedWithAbove: boolean;
}
export interface Draft {
  designerId?: string;
  designer: string;
  role: string;
  items: DraftItem[];
}

const isItem = (v: unknown): v is DraftItem => {
  const o = v as Partial<DraftItem> | null;
  return (
    typeof o === 'object' &&
    o !== null &&
    typeof o.option === 'string' &&
    typeof o.justification === 'string' &&
    typeof o.tiedWithAbove === 'boolean'
  );
};

/** A draft read back from the webview's saved state (its own earlier setState), or undefined when it is not one. */
export function readDraft(v: unknown): Draft | undefined {
  const o = v as Partial<Draft> | null;
  if (typeof o !== 'object' || o === null) return undefined;
  if (typeof o.designer !== 'string' || typeof o.role !== 'string' || !Array.isArray(o.items) || !o.items.every(isItem)) return undefined;
  if (o.designerId !== undefined && typeof o.designerId !== 'string') return undefined;
  return {
    ...(o.designerId !== undefined ? { designerId: o.designerId } : {}),
    designer: o.designer,
    role: o.role,
    items: o.items.map((i) => ({ option: i.option, justification: i.justification, tiedWithAbove: i.tiedWithAbove })),
  };
}

export interface DesignerLike {
  id: string;
  name: string;
  role?: string;
  entries: { option: string; rank: number; justification: string }[];
}

export function emptyDraft(optionIds: string[]): Draft {
  return { designer: '', role: '', items: optionIds.map((option) => ({ option, justification: '', tiedWithAbove: false })) };
}

/** The designer's ranking as a draft: best first, ties kept, options missing from the file appended. */
export function draftFromDesigner(d: DesignerLike, optionIds: string[]): Draft {
  const sorted = [...d.entries].sort((a, b) => a.rank - b.rank);
  const items: DraftItem[] = sorted.map((e, i) => ({
    option: e.option,
    justification: e.justification,
    tiedWithAbove: sorted[i - 1]?.rank === e.rank,
  }));
  return normalizeDraft({ designerId: d.id, designer: d.name, role: d.role ?? '', items }, optionIds);
}

/** Keeps items of existing options once each, in their order, and appends options the draft lacks. */
export function normalizeDraft(draft: Draft, optionIds: string[]): Draft {
  const known = new Set(optionIds);
  const seen = new Set<string>();
  const items: DraftItem[] = [];
  for (const it of draft.items) {
    if (!known.has(it.option) || seen.has(it.option)) continue;
    seen.add(it.option);
    items.push({ ...it, tiedWithAbove: items.length > 0 && it.tiedWithAbove });
  }
  for (const id of optionIds) if (!seen.has(id)) items.push({ option: id, justification: '', tiedWithAbove: false });
  return { ...draft, items };
}

/** Moves the item at `from` to index `to` (clamped). The first item can never be tied with "the one above". */
export function moveItem(items: DraftItem[], from: number, to: number): DraftItem[] {
  if (from < 0 || from >= items.length) return items;
  const target = Math.max(0, Math.min(items.length - 1, to));
  if (target === from) return items;
  const next = [...items];
  const [moved] = next.splice(from, 1);
  if (moved === undefined) return items;
  next.splice(target, 0, moved);
  return next.map((it, i) => (i === 0 && it.tiedWithAbove ? { ...it, tiedWithAbove: false } : it));
}

/** Ranks in "competition" style: 1, 2, 2, 4 for a tie between the 2nd and 3rd. */
export function ranksOf(items: DraftItem[]): number[] {
  return ranked(items).map(({ rank }) => rank);
}

/** Each item with its competition rank: its own position, or the rank of the item above when tied with it. */
function ranked(items: DraftItem[]): { item: DraftItem; rank: number }[] {
  const out: { item: DraftItem; rank: number }[] = [];
  let previous = 0;
  for (const [i, item] of items.entries()) {
    previous = i > 0 && item.tiedWithAbove ? previous : i + 1;
    out.push({ item, rank: previous });
  }
  return out;
}

/** The ranking as the host expects it. */
export function toRanking(items: DraftItem[]): { option: string; rank: number; justification: string }[] {
  return ranked(items).map(({ item, rank }) => ({ option: item.option, rank, justification: item.justification.trim() }));
}

/** Problems the form can see before asking the host, one sentence each. */
export function draftProblems(draft: Draft): string[] {
  const problems: string[] = [];
  if (!draft.designer.trim()) problems.push('Type your name.');
  const missing = draft.items.filter((it) => !it.justification.trim()).map((it) => it.option);
  if (missing.length) problems.push(`Write a justification for ${missing.length === 1 ? 'option' : 'options'} ${missing.join(', ')}.`);
  return problems;
}

/** The draft a member starts from ("I am"): their saved ranking, else a new one under their name. */
export function draftAs(member: { id: string; name: string }, saved: DesignerLike | undefined, optionIds: string[]): Draft {
  return saved ? draftFromDesigner(saved, optionIds) : { ...emptyDraft(optionIds), designer: member.name };
}

/**
 * Whether the form may follow a change of who is at the panel: the draft holds nothing of the person's own (blank, or
 * exactly what it started from for the member chosen before), so nothing typed is lost.
 */
export function draftFollowsMe(draft: Draft, before: Draft | undefined): boolean {
  const blank = !draft.designerId && !draft.designer.trim() && !draft.role.trim() && draft.items.every((i) => !i.justification.trim());
  return blank || (before !== undefined && JSON.stringify(draft) === JSON.stringify(before));
}
