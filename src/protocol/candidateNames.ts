/**
 * One name per candidate (issue 40): every place the panel names an option or a remix — the discussion, the cards, the
 * forks, the viewer, compare, the Next strip, the decisions — goes through `candidateNamer`, so a picture has one label:
 * the review's "Image k" for an option, "remix r1d" for a remix (with its side for a fork remix, `withSide`). A run's
 * blind re-rank set, opened as a review of its own, names its pictures by their blind letters only ("C"), never beside
 * another picture's number. `remixSources` is the one answer to "what was this remix made from", read by the card's
 * "made from", its "Compare with its sources" and the viewer. Pure (types only from the record), so the webview bundles it.
 */
import type { PanelState } from './panel';
import type { Iteration, Remix } from '../core/record/record';
import { remixesOf } from '../core/record/remixes';

/** What the names are read from. */
export type NamesInput = Partial<Pick<PanelState, 'root' | 'review' | 'run'>>;

/** A review folder that is a run's blind re-rank set: runs/<run-id>/rerank. */
const BLIND_SET = /[\\/]runs[\\/]([^\\/]+)[\\/]rerank[\\/]?$/;

/** The run whose blind re-rank set the review folder `root` is (runs/<run-id>/rerank), else undefined. */
export function blindSetOf(root: string | undefined): string | undefined {
  return root ? BLIND_SET.exec(root)?.[1] : undefined;
}

/** A remix's id as the record writes it: r1, r12, r1d. */
const REMIX_ID = /^r\d+[a-z]?$/;

/** "remix r1d" */
export function remixLabel(id: string): string {
  return `remix ${id}`;
}

/** A fork remix's label with the side it takes: `remix r1d (side: Image 1 leads)`. */
export function sideLabel(label: string, position: string): string {
  return `${label} (side: ${position})`;
}

/**
 * What a remix was made from: its own `from`, else (records before `from`) the two the round ranked first — the
 * sources the card shows, the compare opens and the viewer lists.
 */
export function remixSources(it: Pick<Iteration, 'ranking'>, remix: Pick<Remix, 'from'>): string[] {
  return [...(remix.from ?? it.ranking?.slice(0, 2) ?? [])];
}

export interface CandidateNamer {
  /** The one label of an option or remix: "Image 3", "remix r1d", or in a blind set its letter "C". */
  (id: string): string;
  /** The label with a fork remix's side: `remix r1d (side: Image 1 leads)`; other ids as `namer(id)`. */
  withSide(id: string): string;
  /** The run's remixes by the label the discussion's members saw ("Image 10" → "remix r1d"), for reading its messages. */
  readonly discussionNames: ReadonlyMap<string, string>;
}

/** The namer for a panel state. */
export function candidateNamer(input: NamesInput): CandidateNamer {
  const blind = blindSetOf(input.root) !== undefined;
  const reviewLabels = new Map((input.review?.options ?? []).map((o) => [o.id, o.label] as const));
  const runLabels = new Map((input.run?.options ?? []).map((o) => [o.id, o.label] as const));
  const remixes = new Map<string, Remix>();
  for (const it of input.run?.iterations ?? []) for (const m of remixesOf(it)) remixes.set(m.id, m);
  const isRemix = (id: string) => remixes.has(id) || (!reviewLabels.has(id) && REMIX_ID.test(id));
  const name = (id: string): string => {
    // Inside the blind form the letters are the only names: no number, no remix id gives a picture away.
    if (blind) return id;
    if (isRemix(id)) return remixLabel(id);
    return reviewLabels.get(id) ?? runLabels.get(id) ?? id;
  };
  const discussionNames = new Map<string, string>();
  for (const id of remixes.keys()) {
    const said = runLabels.get(id);
    if (said && said !== remixLabel(id) && ![...reviewLabels.values()].includes(said)) discussionNames.set(said, remixLabel(id));
  }
  return Object.assign(name, {
    withSide: (id: string) => {
      const fork = blind ? undefined : remixes.get(id)?.fork;
      return fork ? sideLabel(name(id), fork.position) : name(id);
    },
    discussionNames,
  });
}

/**
 * A message's text in pieces, each remix the members named by the label they saw ("Image 10") given as its one label
 * ("remix r1d") with the words as written: the webview renders the pieces as text (never markup).
 */
export type NamedPiece = string | { name: string; written: string };
export function namedPieces(text: string, names: ReadonlyMap<string, string>): NamedPiece[] {
  if (names.size === 0 || text === '') return [text];
  const said = [...names.keys()].sort((a, b) => b.length - a.length).map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp(`(?<![\\w])(${said.join('|')})(?![\\w])`, 'g');
  const out: NamedPiece[] = [];
  let at = 0;
  for (const m of text.matchAll(pattern)) {
    if (m.index! > at) out.push(text.slice(at, m.index));
    out.push({ name: names.get(m[1]!)!, written: m[1]! });
    at = m.index! + m[1]!.length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}
