/** What every view needs to know about the current state, with the lookups they share. */
import type { PanelState } from '../../src/protocol/panel';
import type { HostConnection } from './host';
import { fileUrl } from './dom';
import { remixesOf } from '../../src/protocol/shared';
import { candidateNamer, type CandidateNamer } from '../../src/protocol/candidateNames';

export interface ViewContext {
  readonly state: PanelState;
  readonly host: HostConnection;
  /** Image URL of an option id or a remix id ("r1"), if known. */
  imageOf(id: string): string | undefined;
  /** File of an option or remix, relative to the review root (`options/3.png`, `runs/<id>/remix-r1.png`), if known. */
  fileOf(id: string): string | undefined;
  /** The one label of an option or remix (src/protocol/candidateNames.ts): "Image 3", "remix r1d", a blind set's "C". */
  labelOf(id: string): string;
  /** The namer itself: a fork remix's label with its side, and the remixes as the discussion's members named them. */
  readonly names: CandidateNamer;
  designerName(id: string): string;
  /** Index of the designer in id order (for the speaker colour). */
  designerIndex(id: string): number;
  /** Who may be at the panel: the designers who ranked, the members who commented on the brief, the run's voting team. */
  readonly members: readonly { id: string; name: string }[];
  /** Who is at the panel ("I am"), if a member: the page's choice, else the workspace's; undefined until chosen. */
  readonly me: string | undefined;
}

/** The member chosen at the panel: the page's own choice ('' = nobody, said there), else the one the host remembers. */
export function chosenMe(pageMe: string | undefined, hostMe: string | undefined, members: readonly { id: string }[]): string | undefined {
  const me = pageMe !== undefined ? pageMe : hostMe;
  return me && members.some((m) => m.id === me) ? me : undefined;
}

export function makeContext(state: PanelState, host: HostConnection): ViewContext {
  const images = new Map<string, string>();
  const files = new Map<string, string>();
  for (const o of state.review?.options ?? []) {
    images.set(o.id, o.src);
    files.set(o.id, o.file);
  }
  for (const o of state.run?.options ?? []) {
    if (!images.has(o.id)) images.set(o.id, fileUrl(state.base, o.file));
    if (!files.has(o.id)) files.set(o.id, o.file);
  }
  for (const it of state.run?.iterations ?? []) {
    for (const m of remixesOf(it)) {
      if (!images.has(m.id) && state.run) {
        images.set(m.id, fileUrl(state.run.base, m.file));
        files.set(m.id, `runs/${state.run.id}/${m.file}`);
      }
    }
  }
  const candidates = candidateNamer(state);
  const designers = state.review?.designers ?? [];
  const names = new Map(designers.map((d) => [d.id, d.name] as const));
  // A brief review's members are named by their comment files.
  for (const c of state.review?.comments ?? []) if (!names.has(c.designer)) names.set(c.designer, c.name);
  // A blind re-rank set is ranked by its run's team: each member may be at the panel, named as the team names them.
  for (const m of state.blindSet?.team ?? []) names.set(m.id, m.name);
  const order = new Map(designers.map((d, i) => [d.id, i] as const));
  const members = [...names.keys()].map((id) => ({ id, name: names.get(id) ?? id }));
  for (const id of state.forks?.team ?? []) if (!names.has(id)) members.push({ id, name: id });
  return {
    members,
    me: chosenMe(host.state?.me, state.me, members),
    state,
    host,
    imageOf: (id) => images.get(id),
    fileOf: (id) => files.get(id),
    labelOf: candidates,
    names: candidates,
    designerName: (id) => names.get(id) ?? id,
    designerIndex: (id) => order.get(id) ?? [...id].reduce((a, c) => a + c.charCodeAt(0), 0),
  };
}
