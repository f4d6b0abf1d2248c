/**
 * Step 2 — discuss: one round of the discussion, following the turn schedule (schedule.ts): in the default
 * `separate-then-together` mode every proxy's first turn is an independent assessment (sent concurrently, at most
 * `maxConcurrency` at a time, none seeing another's message of the round), then the remaining turns go round-robin in the
 * round's speaking order with everything visible. One chat call is one message. Each delta goes out as a `turn-delta`
 * event; after each message the record is saved, so a resume asks only for the turns that have no message yet.
 *
 * People (people/): at every turn boundary their messages and pins are taken in; turns an @mention asked for go first
 * (extra turns: `turn: null`, they use up no scheduled turn); a scheduled turn of a designer who took over their proxy is
 * theirs (the run waits for them; "/pass" gives it back to the proxy); guests called in for the run speak after the
 * designers, once per round.
 */
import { at } from '../kernel/arrays';
import { toRecordedMessages, type ChatMessage } from '../llm/messages';
import { addPrompt, nameOf, nextPromptId, type StepContext } from '../step/context';
import { discussionOf } from '../settings/discussionSettings';
import { isAbort } from '../llm/errors';
import { CancelledError, StepError } from '../kernel/errors';
import { streamTurn, type StreamedTurn } from './streamTurn';
import { ungroundedCitations, type Shown } from '../grounding/citations';
import {
  guestMessage,
  mentionRequest,
  personaMessage,
  pinnedMessage,
  transcriptMessages,
  type PersonaInput,
  type PromptCandidate,
} from './prompts';
import { messageId, type Iteration, type Message, type MessageKind, type PromptRecord } from '../record/record';
import { nextBatch, pendingTurns, roundPlan, visibleMessages, type RoundPlan, type ScheduleMessage, type ScheduledTurn } from './schedule';
import { pinnedLines } from '../people/pins';
import { criteriaMessage } from './criteriaPrompt';
import { personName } from '../people/team';

export { STREAM_RETRIES, temperatureOf } from './streamTurn';

export interface DiscussionInput {
  iteration: Iteration;
  candidates: readonly PromptCandidate[];
  /** System + shared block (brief, history, images): identical for every call of this iteration. */
  prefix: readonly ChatMessage[];
  labelOf: (id: string) => string;
  /** The task's persona message (task.ts); default the design review's (the designer's own ranking). */
  persona?: (p: PersonaInput) => ChatMessage;
  /**
   * Instead of `persona` (a brief run, run/brief): the persona as two messages, the member's own block (the same bytes in
   * every turn of the run) and the turn's task, and how many leading messages of `prefix` every call of the run shares
   * (`runPrefix`: system and brief). A turn of the independent or separate phase, which sees no one else's message, puts
   * the member's block right after those: its request then repeats the member's earlier turns up to the round's part, in
   * every round. A turn of the together phase puts it after the transcript, just before its task: the round's requests
   * then repeat each other up to the transcript. Only the order differs; each turn reads the same messages either way.
   */
  memberFirst?: { runPrefix: number; persona: (p: PersonaInput) => { member: ChatMessage; turn: ChatMessage } };
}

/** The schedule of this round for the run's designers and recorded settings. */
export function planOf(ctx: Pick<StepContext, 'designers' | 'settings'>, it: Pick<Iteration, 'index'>): RoundPlan {
  return roundPlan(
    ctx.designers.map((d) => d.id),
    it.index,
    discussionOf(ctx.settings),
  );
}

/** True when every scheduled turn of the round has its message (the proxy's, or the person's own). */
export function discussionDone(ctx: Pick<StepContext, 'designers' | 'settings'>, it: Iteration): boolean {
  return pendingTurns(planOf(ctx, it), scheduleView(it.messages)).length === 0;
}

/** The messages as the schedule sees them: a person's own answer at their scheduled turn (not a "/pass") takes that turn. */
function scheduleView(messages: readonly Message[]): ScheduleMessage[] {
  return messages.map((m) => (m.kind === 'human' && m.turn !== null && !m.pass ? { ...m, kind: 'proxy' } : m));
}

/** The messages of one proxy turn, in cache-friendly order; the transcript holds only what this turn may see. */
export function proxyTurnMessages(
  ctx: StepContext,
  d: DiscussionInput,
  t: Pick<ScheduledTurn, 'speaker' | 'turn' | 'phase'>,
  askedBy?: string,
): ChatMessage[] {
  const designer = ctx.designers.find((x) => x.id === t.speaker);
  if (!designer) throw new StepError(`"${t.speaker}" is not a designer of this run.`);
  const visible = visibleMessages(t, d.iteration.messages);
  const input: PersonaInput = {
    designer,
    iteration: d.iteration,
    totalIterations: ctx.settings.iterations,
    candidates: d.candidates,
    labelOf: d.labelOf,
    turn: t.turn,
    turnsPerAgent: ctx.settings.turnsPerAgent,
    hasFeedback: Boolean(d.iteration.feedback?.trim()),
    phase: t.phase,
    collaborativeMove: ctx.settings.prompts?.collaborativeMove,
    followsOthers: visible.some((m) => m.speaker !== t.speaker),
    personaRole: ctx.settings.personaRole,
  };
  const asked = (m: ChatMessage): ChatMessage =>
    askedBy ? { ...m, content: `${String(m.content)}\n\n${mentionRequest(designer.name, askedBy)}` } : m;
  const conversation = conversationMessages(ctx, d.iteration, t);
  if (!d.memberFirst) return [...d.prefix, ...conversation, asked((d.persona ?? personaMessage)(input))];
  const { member, turn } = d.memberFirst.persona(input);
  if (t.phase === 'together') return [...d.prefix, ...conversation, member, asked(turn)];
  const n = d.memberFirst.runPrefix;
  return [...d.prefix.slice(0, n), member, ...d.prefix.slice(n), ...conversation, asked(turn)];
}

/**
 * The transcript a turn may see (schedule.ts: everything, or in the independent and separate phases only its own
 * speaker's messages — but a person's own words are seen by every later turn) and the pinned lines: what every chat call
 * of the discussion reads before its task. Without a turn (the remix agent, extra turns): everything.
 */
export function conversationMessages(ctx: StepContext, it: Iteration, t?: Pick<ScheduledTurn, 'speaker' | 'phase'>): ChatMessage[] {
  const name = (id: string): string => (ctx.people ? personName(ctx.people.team, id) : nameOf(ctx.designers, id));
  const seen = t ? visibleMessages(t, it.messages) : it.messages;
  const visible = it.messages.filter((m) => seen.includes(m) || m.kind === 'human');
  const pinned = pinnedMessage(pinnedLines(ctx.record, name));
  const criteria = criteriaMessage(ctx.record.criteria, name);
  return [...transcriptMessages(visible, name), ...(pinned ? [pinned] : []), ...(criteria ? [criteria] : [])];
}

/**
 * The round's turns. A turn's save goes on behind the next turn's preparation (saveBehind): the inbox is read and the
 * next prompt built from the record in memory while the turn is written and synced; the turn is reported done
 * (turn-completed) once it is durable, and only then is the next request sent. Whatever changes the record next waits
 * for that save first.
 */
export async function runDiscussion(ctx: StepContext, d: DiscussionInput): Promise<void> {
  try {
    await discussionLoop(ctx, d);
  } finally {
    await ctx.settled?.();
  }
}

async function discussionLoop(ctx: StepContext, d: DiscussionInput): Promise<void> {
  const plan = planOf(ctx, d.iteration);
  const it = d.iteration;
  const people = ctx.people;
  for (;;) {
    if (ctx.signal?.aborted) throw new CancelledError();
    const pending = nextBatch(plan, scheduleView(it.messages));
    // People's messages and pins come in at every turn boundary; a person at their own turn answers it.
    const waiting = pending.find((t) => people?.isHuman(t.speaker));
    await people?.intake(waiting && { speaker: waiting.speaker, iteration: it.index, turn: waiting.turn });
    const extra = people?.nextExtra(it);
    if (extra) {
      await ctx.settled?.();
      await speakExtra(ctx, d, extra.speaker, extra.kind, extra.replyTo);
      continue;
    }
    const batch = nextBatch(plan, scheduleView(it.messages));
    // Turns of people who took over their proxy are theirs (a "/pass" gives the turn back to the proxy).
    const proxies = batch.filter((t) => !people?.isHuman(t.speaker) || people.answered(it, t.speaker, t.turn).pass);
    const [firstTurn] = batch;
    if (firstTurn && proxies.length === 0) {
      // Only a person's turn leaves no proxy to ask, so there are people.
      if (!people) throw new Error('Internal error: a turn waits for a person in a run without people.');
      await ctx.settled?.();
      await people.waitFor({ speaker: firstTurn.speaker, iteration: it.index, turn: firstTurn.turn });
      continue;
    }
    if (proxies.length === 1) {
      const t = at(proxies, 0);
      // Built (and the inbox read, above) while the last turn's save goes on; sent once that turn is durable and reported,
      // so a cancel on its report leaves no request paid for nothing.
      const messages = proxyTurnMessages(ctx, d, t);
      await ctx.settled?.();
      if (ctx.signal?.aborted) throw new CancelledError();
      const done = await askProxy(ctx, d, t, messages);
      await recordTurn(ctx, d, t, done, true);
      continue;
    }
    if (proxies.length > 1) {
      await ctx.settled?.();
      await runConcurrently(ctx, d, proxies);
      continue;
    }
    const guest = people?.nextCalledGuest(it);
    if (guest) {
      await ctx.settled?.();
      await speakExtra(ctx, d, guest, 'guest');
      continue;
    }
    return;
  }
}

/** A turn outside the schedule: a proxy or guest an @mention asked for, or a guest called in for the run. */
async function speakExtra(ctx: StepContext, d: DiscussionInput, speaker: string, kind: 'proxy' | 'guest', replyTo?: string): Promise<void> {
  const it = d.iteration;
  const asking = replyTo ? it.messages.find((m) => m.id === replyTo) : undefined;
  const askedBy = asking && ctx.people ? personName(ctx.people.team, asking.speaker) : undefined;
  let messages: ChatMessage[];
  let speakerName: string;
  if (kind === 'guest') {
    const guest = ctx.people?.team.guests.find((g) => g.id === speaker);
    if (!guest) throw new StepError(`The guest "${speaker}" is not in review.yaml any more.`);
    speakerName = guest.name;
    messages = [
      ...d.prefix,
      ...conversationMessages(ctx, it),
      guestMessage({ guest, candidates: d.candidates, askedBy, personaRole: ctx.settings.personaRole }),
    ];
  } else {
    speakerName = nameOf(ctx.designers, speaker);
    const done = it.messages.filter((m) => m.speaker === speaker && m.kind === 'proxy' && m.turn !== null).length;
    messages = proxyTurnMessages(ctx, d, { speaker, turn: Math.max(1, done), phase: 'together' }, askedBy);
  }
  ctx.emit({ type: 'turn-started', runId: ctx.record.id, iteration: it.index, speaker, speakerName, turn: null, kind });
  const answer = await streamTurn(ctx, { name: speakerName, kind, iteration: it.index, turn: null }, messages, (delta) =>
    ctx.emit({ type: 'turn-delta', runId: ctx.record.id, iteration: it.index, speaker, turn: null, text: delta }),
  );
  await recordMessage(ctx, d, { speaker, kind, turn: null, replyTo }, { ...answer, messages, at: new Date().toISOString() });
}

interface TurnResult extends StreamedTurn {
  messages: ChatMessage[];
  at: string;
}

/**
 * A batch of turns that may not see each other (the independent or separate phase), sent together, at most
 * `maxConcurrency` in flight. Answers are recorded in speaking order as soon as all earlier ones are in. A failed turn
 * fails only itself: the others finish and are recorded, then the first failure ends the round (resume asks only for the
 * missing turns).
 */
async function runConcurrently(ctx: StepContext, d: DiscussionInput, batch: readonly ScheduledTurn[]): Promise<void> {
  const limit = Math.max(1, discussionOf(ctx.settings).maxConcurrency);
  // Built before any answer arrives: each sees only its own speaker's messages of the round anyway.
  const prompts = batch.map((t) => proxyTurnMessages(ctx, d, t));
  const results: (TurnResult | undefined)[] = new Array(batch.length);
  const failures: { index: number; error: unknown }[] = [];
  let recorded = 0;
  let saving = Promise.resolve();
  const flush = (all: boolean): Promise<void> => {
    // Record the leading answers in order (or, at the end, every answer there is), one save at a time.
    saving = saving.then(async () => {
      while (recorded < batch.length && (results[recorded] || (all && failures.some((f) => f.index === recorded)))) {
        const r = results[recorded];
        if (r) await recordTurn(ctx, d, at(batch, recorded), r);
        recorded++;
      }
    });
    return saving;
  };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < batch.length) {
      const i = next++;
      if (ctx.signal?.aborted) {
        failures.push({ index: i, error: new CancelledError() });
        continue;
      }
      try {
        results[i] = await askProxy(ctx, d, at(batch, i), at(prompts, i));
        await flush(false);
      } catch (error) {
        failures.push({ index: i, error });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, batch.length) }, () => worker()));
  await flush(true);
  if (failures.length === 0) return;
  const cancelled = failures.find((f) => isAbort(f.error, ctx.signal));
  if (cancelled) throw new CancelledError();
  failures.sort((a, b) => a.index - b.index);
  const missing = failures.map((f) => nameOf(ctx.designers, at(batch, f.index).speaker));
  const first = at(failures, 0).error;
  if (failures.length < batch.length) {
    ctx.emit({
      type: 'notice',
      runId: ctx.record.id,
      level: 'error',
      message: `${missing.join(', ')}: ${missing.length === 1 ? 'this assessment' : 'these assessments'} failed; the others are recorded. Resume the run to ask only for the missing ${missing.length === 1 ? 'one' : 'ones'}.`,
    });
  }
  throw first;
}

/** One proxy call (streamed, retried when the stream breaks off); deltas of concurrent turns interleave (keyed by speaker + turn). */
async function askProxy(ctx: StepContext, d: DiscussionInput, t: ScheduledTurn, messages: ChatMessage[]): Promise<TurnResult> {
  const designer = ctx.designers.find((x) => x.id === t.speaker);
  if (!designer) throw new Error(`Internal error: the turn's speaker ${t.speaker} is not a designer of the review.`);
  ctx.emit({
    type: 'turn-started',
    runId: ctx.record.id,
    iteration: d.iteration.index,
    speaker: designer.id,
    speakerName: designer.name,
    turn: t.turn,
    phase: t.phase,
  });
  const answer = await streamTurn(
    ctx,
    { name: designer.name, kind: 'proxy', iteration: d.iteration.index, turn: t.turn },
    messages,
    (delta) =>
      ctx.emit({ type: 'turn-delta', runId: ctx.record.id, iteration: d.iteration.index, speaker: designer.id, turn: t.turn, text: delta }),
  );
  return { ...answer, messages, at: new Date().toISOString() };
}

/** Adds the answer of a scheduled turn to the record (prompt + message), saves, and tells listeners. */
async function recordTurn(ctx: StepContext, d: DiscussionInput, t: ScheduledTurn, r: TurnResult, behind = false): Promise<Message> {
  return recordMessage(ctx, d, { speaker: t.speaker, kind: 'proxy', turn: t.turn, phase: t.phase }, r, behind);
}

/**
 * Adds a message and the prompt behind it to the record, saves, then reports the turn done. `behind`: the save goes on
 * while the next turn is prepared (saveBehind) and the turn is reported once it is durable.
 */
async function recordMessage(
  ctx: StepContext,
  d: DiscussionInput,
  who: { speaker: string; kind: Exclude<MessageKind, 'human'>; turn: number | null; phase?: ScheduledTurn['phase']; replyTo?: string },
  r: TurnResult,
  behind = false,
): Promise<Message> {
  await ctx.settled?.();
  const promptId = nextPromptId(ctx.record);
  const prompt: PromptRecord = {
    id: promptId,
    iteration: d.iteration.index,
    kind: who.kind === 'guest' ? 'guest-turn' : 'proxy-turn',
    speaker: who.speaker,
    model: r.model ?? ctx.settings.chatModel,
    at: r.at,
    messages: toRecordedMessages(r.messages),
    usage: r.usage,
  };
  if (ctx.settings.temperature !== undefined) prompt.temperature = ctx.settings.temperature;
  addPrompt(ctx.record, prompt);
  const message: Message = {
    id: messageId(d.iteration.index, d.iteration.messages.length + 1),
    kind: who.kind,
    speaker: who.speaker,
    turn: who.turn,
    ...(who.phase ? { phase: who.phase } : {}),
    content: r.text,
    ...(r.cut ? { cut: true as const } : {}),
    ...ungroundedOf(ctx, d, r.text),
    promptId,
    at: r.at,
  };
  if (who.replyTo) message.replyTo = who.replyTo;
  d.iteration.messages.push(message);
  const completed = (): void => ctx.emit({ type: 'turn-completed', runId: ctx.record.id, iteration: d.iteration.index, message });
  if (behind && ctx.saveBehind) {
    ctx.saveBehind(completed);
    return message;
  }
  await ctx.save();
  completed();
  return message;
}

/** The citations of a model-written message its round did not show (citations.ts), as the message's field. */
function ungroundedOf(ctx: StepContext, d: DiscussionInput, text: string): { ungrounded?: string[] } {
  const team = ctx.people?.team;
  const shown: Shown = {
    labels: [...d.candidates.map((c) => c.label), ...(ctx.record.references ?? []).map((r) => r.label)],
    remixIds: d.candidates.flatMap((c) => (c.remixId ? [c.remixId] : [])),
    members: [...ctx.designers.flatMap((x) => [x.id, x.name]), ...(team?.guests ?? []).flatMap((g) => [g.id, g.name])],
  };
  const ungrounded = ungroundedCitations(text, shown);
  return ungrounded.length ? { ungrounded } : {};
}
