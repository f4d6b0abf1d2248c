/**
 * The panel's "Next" strip (issue 40), computed from the panel's state alone: for the review's latest run, what happened
 * (its status, its final pick or revised brief, or why it cannot be loaded), what is still open (forks with who has not
 * voted, blind re-rankings, coverage rows to confirm, ratings of one's own proxy, a turn a person owes), the decisions made,
 * and the one next action for the person at the panel. A new (paid) run is the next action only when nothing of the latest
 * run is open. Pure: no DOM, no vscode; the webview renders what this returns, as text.
 */
import type { PanelState } from './panel';
import type { PanelFork } from './votes';
import { closeWords, decidedBy, marginText } from '../core/discussion/decisionWords';
import { blindSetOf } from './candidateNames';

/** What the strip reads of the panel's state. */
export type NextStepsInput = Pick<PanelState, 'runs' | 'run' | 'running'> &
  Partial<Pick<PanelState, 'root'>> &
  Partial<Pick<PanelState, 'brokenRuns' | 'forks' | 'evaluation' | 'feedback' | 'brief' | 'review'>>;

/** How the strip names people and images (the panel's context supplies both). */
export interface NextNames {
  person(id: string): string;
  image(id: string): string;
}

export type OpenKind = 'answer' | 'vote' | 'rerank' | 'coverage' | 'rate';

/** Something of the latest run still to be done, and by whom (member ids). */
export interface OpenItem {
  kind: OpenKind;
  /** "Vote: Warm or cold palette? — waiting for Ana Ruiz, Chen Wei" */
  text: string;
  who: string[];
  /** A fork's place, for `vote`. */
  iteration?: number;
  decisionPoint?: number;
}

/** A decided fork: the side chosen, how, and the sides set aside. */
export interface DecidedFork {
  iteration: number;
  decisionPoint: number;
  question: string;
  chosen: string;
  /** The remix (or brief passage) id of the chosen side, when the decision names one of the fork's sides. */
  chosenId?: string;
  /** "by the team's vote, 3 to 1" / "by Ana Ruiz in person" */
  how: string;
  setAside: string[];
}

export type NextActionKind =
  | 'openFile'
  | 'showLatest'
  | 'resume'
  | 'chooseMe'
  | 'answer'
  | 'vote'
  | 'rerank'
  | 'coverage'
  | 'rate'
  | 'adoptBrief'
  | 'rank'
  | 'run'
  | 'backToRun'
  | 'reopen';

export interface NextAction {
  kind: NextActionKind;
  label: string;
  runId?: string;
  /** A review-relative file (openFile). */
  path?: string;
  iteration?: number;
  decisionPoint?: number;
}

export interface NextSteps {
  /** The latest run's id (undefined: the review has no run). */
  runId?: string;
  /** One sentence: what happened. */
  happened: string;
  /** Why the latest run cannot be loaded or failed: its diagnostic or its error. */
  error?: string;
  open: OpenItem[];
  decided: DecidedFork[];
  /** The one next action for the person at the panel; none while a run is in flight or others must act first. */
  primary?: NextAction;
  /**
   * Other things the person may do, never the next step itself: from a blind set back to its run; for the lead, reopening
   * a recorded decision ("Reopen this decision…").
   */
  secondary?: NextAction[];
  /** When there is no primary action: who or what is waited for, in words. */
  waiting?: string;
  /** A new run may be offered as the primary action (nothing of the latest run is open). */
  runIsNext: boolean;
}

const OPEN_ORDER: readonly OpenKind[] = ['answer', 'vote', 'rerank', 'coverage', 'rate'];

/** "Ana Ruiz, Chen Wei" */
function people(ids: readonly string[], names: NextNames): string {
  return ids.map((id) => names.person(id)).join(', ');
}

/**
 * How a fork was decided, in words: the team's vote with its count, the lead's close with how many of the team (`teamSize`)
 * had voted (never "the team's vote", issue 39), or the member who decided in person or by proxy.
 */
export function howDecided(d: NonNullable<PanelFork['decision']>, names: NextNames, teamSize?: number): string {
  if (d.by === 'team') {
    const margin = marginText(d);
    return margin === d.decision ? "by the team's vote" : `by the team's vote, ${margin.slice(d.decision.length + 2)}`;
  }
  if (decidedBy({ ...d, via: d.via ?? 'human' }) === 'the lead closing the vote') return closeWords(d, teamSize, names.person(d.by));
  return d.via === 'proxy' ? `by ${names.person(d.by)}'s proxy` : `by ${names.person(d.by)} in person`;
}

/** The decided forks of the run shown, each with the chosen side, how it was decided, and the sides set aside. */
export function decidedForks(forks: PanelState['forks'], names: NextNames): DecidedFork[] {
  return (forks?.forks ?? []).flatMap((f) => {
    const d = f.decision;
    if (!d) return [];
    const chosen = f.sides.find((s) => s.position === d.decision);
    return [
      {
        iteration: f.iteration,
        decisionPoint: f.decisionPoint,
        question: f.question,
        chosen: d.decision,
        ...(chosen ? { chosenId: chosen.id } : {}),
        how: howDecided(d, names, forks?.team.length),
        setAside: f.sides.filter((s) => s !== chosen).map((s) => s.position),
      },
    ];
  });
}

/** The newest run id, the loaded ones and the broken ones together (run ids sort by time). */
function latestId(state: NextStepsInput): string | undefined {
  const ids = [...state.runs.map((r) => r.id), ...(state.brokenRuns ?? []).map((b) => b.id)];
  return ids.sort().at(-1);
}

/** What is open of the run shown (which is the latest). */
function openItems(state: NextStepsInput, names: NextNames): OpenItem[] {
  const run = state.run!;
  const out: OpenItem[] = [];
  if (run.status === 'waiting' && run.waitingFor) {
    const w = run.waitingFor;
    out.push({
      kind: 'answer',
      who: [w.speaker],
      text: w.forkChoice
        ? `${names.person(w.speaker)} chooses which decision point iteration ${w.iteration} forks`
        : `${names.person(w.speaker)}'s turn ${w.turn} in iteration ${w.iteration}`,
    });
  }
  if (state.forks?.runId === run.id) {
    for (const f of state.forks.forks) {
      if (f.decision || f.missing.length === 0) continue;
      out.push({
        kind: 'vote',
        who: [...f.missing],
        iteration: f.iteration,
        decisionPoint: f.decisionPoint,
        text: `Vote: ${f.question} — waiting for ${people(f.missing, names)}`,
      });
    }
  }
  if (run.status !== 'completed') return out;
  const e = state.evaluation?.runId === run.id ? state.evaluation : undefined;
  if (e) {
    const done = new Set(e.reranked ?? e.after?.designers ?? []);
    const missing = e.before.designers.filter((d) => !done.has(d));
    if (missing.length)
      out.push({
        kind: 'rerank',
        who: missing,
        text: `Blind re-ranking: ${done.size} of ${e.before.designers.length} done — waiting for ${people(missing, names)}`,
      });
  }
  const fb = state.feedback?.runId === run.id ? state.feedback : undefined;
  const brief = state.brief?.runId === run.id ? state.brief : undefined;
  const last = brief?.rounds.at(-1);
  if (last) {
    const toConfirm = new Map<string, number>();
    for (const c of last.coverage) {
      const saved = fb?.coverage?.[c.designer] ?? [];
      if (!saved.some((s) => s.point === c.point)) toConfirm.set(c.designer, (toConfirm.get(c.designer) ?? 0) + 1);
    }
    if (toConfirm.size) {
      const rows = [...toConfirm.values()].reduce((a, b) => a + b, 0);
      const who = [...toConfirm.keys()].sort();
      out.push({ kind: 'coverage', who, text: `Coverage: ${rows} ${rows === 1 ? 'row' : 'rows'} to confirm — ${people(who, names)}` });
    }
  }
  const unrated = new Map<string, number>();
  for (const it of run.iterations) {
    for (const m of it.messages) {
      if ((m.kind ?? 'proxy') !== 'proxy' || !m.id) continue;
      if (fb?.ratings[m.speaker]?.[m.id] === undefined) unrated.set(m.speaker, (unrated.get(m.speaker) ?? 0) + 1);
    }
  }
  if (unrated.size) {
    const who = [...unrated.keys()].sort();
    out.push({ kind: 'rate', who, text: `Ratings of their proxy's messages — waiting for ${people(who, names)}` });
  }
  return out;
}

/** The action that does an open item, for the member `me`. */
function actionFor(item: OpenItem, state: NextStepsInput): NextAction {
  const runId = state.run!.id;
  switch (item.kind) {
    case 'answer':
      return { kind: 'answer', runId, label: state.run!.waitingFor?.forkChoice ? 'Choose the fork' : 'Answer your turn' };
    case 'vote': {
      const f = state.forks?.forks.find((x) => x.iteration === item.iteration && x.decisionPoint === item.decisionPoint);
      return {
        kind: 'vote',
        runId,
        iteration: item.iteration!,
        decisionPoint: item.decisionPoint!,
        label: `Vote: ${f?.question ?? 'the fork'}`,
      };
    }
    case 'rerank':
      return { kind: 'rerank', runId, label: 'Re-rank the blind set' };
    case 'coverage':
      return { kind: 'coverage', runId, label: 'Confirm your points' };
    case 'rate':
      return { kind: 'rate', runId, label: 'Rate your proxy' };
  }
}

/** What the run shown did, in one sentence. */
function happenedOf(state: NextStepsInput, names: NextNames): string {
  const run = state.run!;
  const at = `iteration ${run.iterations.length}`;
  if (run.interrupted) return `Run ${run.id} was interrupted at ${at}: no process drives it.`;
  switch (run.status) {
    case 'running':
      return `Run ${run.id} is running (${at}).`;
    case 'waiting':
      return `Run ${run.id} waits for a person (${at}).`;
    case 'failed':
      return `Run ${run.id} failed at ${at}.`;
    case 'cancelled':
      return `Run ${run.id} was cancelled at ${at}.`;
    case 'completed': {
      const last = state.brief?.runId === run.id ? state.brief.rounds.at(-1) : undefined;
      if (last) return `Run ${run.id} is done: the revised brief of round ${last.iteration}.`;
      return run.finalPick
        ? `Run ${run.id} is done: final pick ${names.image(run.finalPick)}.`
        : `Run ${run.id} is done, without a final pick.`;
    }
  }
}

/** Whether the review's brief.md already reads as the run's last revised brief (it was adopted). */
function adopted(state: NextStepsInput): boolean {
  const last = state.brief?.rounds.at(-1);
  return last?.text !== undefined && state.review?.brief.trim() === last.text.trim();
}

/**
 * The strip for `state` and the person at the panel (`me`: a member id, or undefined until they say who they are).
 * Order of the next action: the latest run's load error, the latest run not shown, a run that stopped, then the open items
 * (a turn, a vote, a re-ranking, coverage, ratings) that are `me`'s; without `me`, choosing who you are; with none of
 * `me`'s open but others', nothing (waiting); with nothing open, adopting a brief run's revised brief, else a new run.
 */
export function nextSteps(state: NextStepsInput, me: string | undefined, names: NextNames): NextSteps {
  const steps = mainSteps(state, me, names);
  const secondary = secondaryActions(state, me, steps);
  return secondary.length ? { ...steps, secondary } : steps;
}

/**
 * The secondary actions beside the strip's primary one: back to the run from its blind set; for the run's lead at the
 * panel, each recorded decision of the latest run shown, to reopen (the host asks to confirm first).
 */
function secondaryActions(state: NextStepsInput, me: string | undefined, steps: NextSteps): NextAction[] {
  const blind = blindSetOf(state.root);
  if (blind) return [{ kind: 'backToRun', runId: blind, label: `Back to run ${blind}` }];
  const run = state.run;
  const forks = state.forks;
  if (!run || !forks || forks.runId !== run.id || run.id !== steps.runId || me === undefined || forks.lead !== me) return [];
  const reopenable = forks.forks.filter((f) => f.decision?.recorded === true);
  return reopenable.map((f) => ({
    kind: 'reopen' as const,
    runId: run.id,
    iteration: f.iteration,
    decisionPoint: f.decisionPoint,
    label: reopenable.length === 1 ? 'Reopen this decision…' : `Reopen "${f.question}"…`,
  }));
}

function mainSteps(state: NextStepsInput, me: string | undefined, names: NextNames): NextSteps {
  const blind = blindSetOf(state.root);
  if (blind) {
    // A run's blind re-rank set, opened as a review of its own: its one step is each member's ranking.
    const ranked = (state.review?.designers ?? []).map((d) => d.id);
    const done = me !== undefined && ranked.includes(me);
    return {
      runId: blind,
      happened: `The blind re-rank set of run ${blind}: ${ranked.length} ${ranked.length === 1 ? 'member has' : 'members have'} ranked it.`,
      open: [],
      decided: [],
      ...(done ? { waiting: 'the others to rank it' } : { primary: { kind: 'rank' as const, label: 'Rank the blind set' } }),
      runIsNext: false,
    };
  }
  const latest = latestId(state);
  if (!latest) {
    // A review that does not load says why in its problems; the strip offers nothing over them.
    if (!state.review) return { happened: 'No run yet.', open: [], decided: [], runIsNext: false };
    const canRun = (state.review?.designers.length ?? 0) >= 2 || (state.review?.comments?.length ?? 0) > 0;
    return canRun
      ? { happened: 'No run yet.', open: [], decided: [], primary: { kind: 'run', label: 'Run' }, runIsNext: true }
      : {
          happened: 'No run yet: a run needs at least two rankings.',
          open: [],
          decided: [],
          primary: { kind: 'rank', label: 'Add your ranking' },
          runIsNext: false,
        };
  }
  const broken = state.brokenRuns?.find((b) => b.id === latest);
  if (broken) {
    const file = /^([^:\s]+):\d+:\d+: /.exec(broken.problem)?.[1] ?? `runs/${latest}/run.json`;
    return {
      runId: latest,
      happened: `Run ${latest} cannot be loaded.`,
      error: broken.problem,
      open: [],
      decided: [],
      primary: { kind: 'openFile', path: file, label: `Open ${file}` },
      runIsNext: false,
    };
  }
  const run = state.run;
  if (!run || run.id !== latest) {
    const s = state.runs.find((r) => r.id === latest)!;
    const what = s.interrupted ? 'interrupted' : s.status === 'completed' ? 'done' : s.status;
    return {
      runId: latest,
      happened: `The latest run, ${latest}, is ${what}${s.finalPick ? ` (final pick ${names.image(s.finalPick)})` : ''}; an earlier run is shown.`,
      open: [],
      decided: [],
      primary: { kind: 'showLatest', runId: latest, label: 'Show the latest run' },
      runIsNext: false,
    };
  }
  const happened = happenedOf(state, names);
  const decided = decidedForks(state.forks?.runId === run.id ? state.forks : undefined, names);
  const base = {
    runId: run.id,
    happened,
    decided,
    ...(run.error && (run.status === 'failed' || run.status === 'cancelled') ? { error: run.error } : {}),
  };
  const inFlight = (run.status === 'running' && !run.interrupted) || state.running;
  if (inFlight) return { ...base, open: [], waiting: 'the run to finish', runIsNext: false };
  const open = openItems(state, names).sort((a, b) => OPEN_ORDER.indexOf(a.kind) - OPEN_ORDER.indexOf(b.kind));
  if (run.interrupted || run.status === 'failed' || run.status === 'cancelled') {
    return { ...base, open, primary: { kind: 'resume', runId: run.id, label: 'Resume the run' }, runIsNext: false };
  }
  if (open.length) {
    if (me === undefined) return { ...base, open, primary: { kind: 'chooseMe', label: 'Choose who you are' }, runIsNext: false };
    const mine = open.find((o) => o.who.includes(me));
    if (mine) return { ...base, open, primary: actionFor(mine, state), runIsNext: false };
    const others = [...new Set(open.flatMap((o) => o.who))];
    return { ...base, open, waiting: people(others, names), runIsNext: false };
  }
  if (state.brief?.runId === run.id && state.brief.rounds.length && !adopted(state)) {
    return { ...base, open, primary: { kind: 'adoptBrief', runId: run.id, label: 'Adopt the revised brief…' }, runIsNext: false };
  }
  return { ...base, open, primary: { kind: 'run', label: 'Run again' }, runIsNext: true };
}
