/**
 * People in a run, as seen by the process that drives it: at every turn boundary the inbox is taken in (messages and
 * pins, in order of arrival; the record is saved before the entries are deleted); @mentions queue extra turns; at the
 * scheduled turn of a designer who took over their proxy the run waits for them — holding (polling the inbox) when
 * someone can answer here (a terminal, a VS Code window), otherwise stopping with status "waiting".
 */
import type { StepContext } from '../step/context';
import { CancelledError, errorMessage } from '../kernel/errors';
import type { Iteration, WaitingFor } from '../record/record';
import { applyEntries, notTakenIn } from './apply';
import * as path from 'node:path';
import { UNCHECKED_AUTHORS } from '../authorship/rule';
import { openAuthorshipFor } from '../authorship/door';
import { typedWords } from '../authorship/typist';
import { entryPerson, entryTypist, inboxProblem, inboxRel, readInbox, removeFromInbox, STRAY_NAME, type ReceivedEntry } from './inbox';
import type { RunSync } from '../sync/runSync';
import { entryProblem, findPerson, isDesigner, isHuman, personName } from './team';
import type { ExtraTurn, People, Team } from '../step/people';

/** Thrown when the run must stop and wait for a person (no one can answer in this process). */
export class WaitingStop extends Error {
  constructor(readonly waitingFor: WaitingFor) {
    super('The run waits for a person.');
    this.name = 'WaitingStop';
  }
}

/** How often a waiting run looks into its inbox. */
export const WAIT_POLL_MS = 250;

export interface PeopleOptions {
  /** The run goes through the team's git remote: pull before taking the inbox in (people answer from other machines). */
  sync?: RunSync;
  /** How long a held wait lasts before the run stops with status "waiting" (default: no limit). */
  maxWaitMs?: number;
  /**
   * The team's criteria as criteria.json holds them now (read when a criterion pin arrives). A pin is taken in only for a
   * criterion found here, and carries the file's name and description, never the entry's own words. Without it, no
   * criterion pin is taken in.
   */
  criteria?: () => Promise<readonly { name: string; description: string }[] | undefined>;
}

export class PeopleInRun implements People {
  /** Order of arrival at this driver: an entry's number when it was first seen (never the entry's own clock). */
  private readonly arrival = new Map<string, number>();
  /** Entries judged against their commits (authors.ts): why one is refused, or undefined when it may be taken in. */
  private readonly authors = new Map<string, string | undefined>();
  /** Entries already reported as not taken in (said once, not at every turn). */
  private readonly reported = new Set<string>();

  constructor(
    private readonly ctx: StepContext,
    readonly team: Team,
    /** Hold and poll while waiting (true when a person can answer in this process); otherwise stop with WaitingStop. */
    private readonly hold: boolean,
    private readonly options: PeopleOptions = {},
  ) {}

  private once(key: string, line: string): void {
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.ctx.log(line);
  }

  /** Takes in what the inbox holds; `slot` is the scheduled turn the driver is at. Returns true when anything changed. */
  async intake(slot?: WaitingFor): Promise<boolean> {
    const { ctx } = this;
    const sync = this.options.sync;
    await sync?.pull();
    // The inbox is read while a save started behind this turn's request may still go on (ctx.saveBehind); what it
    // brings is said and taken in only once that save is done, so the turn it saved is reported first.
    const said: (() => void)[] = [];
    // Anyone's file can arrive (a teammate's disk, a pull): what is not a member's own entry is refused in words, once,
    // and left where it is for people to look at; the run goes on with the rest.
    const read = await readInbox(
      ctx.reviewRoot,
      ctx.record.id,
      (file, why) => said.push(() => this.once(file, `${file} is not taken in and is left alone (${why}).`)),
      (file) => said.push(() => this.once(file, `${file} is not taken in and is left alone (${STRAY_NAME}).`)),
      (id) => isDesigner(this.team, id),
      // The cap holds: an entry past it is refused for good (said once), not taken in once the others are.
      (name, why) => {
        const problem = `${inboxRel(ctx.record.id, `${name}.json`)} is not taken in and is left alone: ${why}`;
        this.authors.set(name, problem);
        said.push(() => this.once(name, `${problem}.`));
      },
    );
    if (said.length > 0 || read.length > 0 || sync) await ctx.settled?.();
    for (const say of said) say();
    await this.checkAuthors(read, sync !== undefined);
    // An entry someone deleted before the run took it in (it was acknowledged to its person): said, so it is not lost unseen.
    for (const rel of sync?.takeDeletions() ?? []) {
      const name = rel.slice(inboxRel(ctx.record.id).length + 1).replace(/\.json$/, '');
      if (ctx.record.takenIn?.includes(name) || read.some((e) => e.name === name)) continue;
      this.once(
        `deleted:${name}`,
        `${rel} was deleted by a commit pulled from the remote before this run took it in; it is not in the run (see git log --diff-filter=D -- ${rel}; its person can say it again).`,
      );
    }
    for (const rel of sync?.takeArrivals() ?? []) {
      const name = rel.slice(inboxRel(ctx.record.id).length + 1).replace(/\.json$/, '');
      if (!this.arrival.has(name)) this.arrival.set(name, this.arrival.size);
    }
    for (const e of read) if (!this.arrival.has(e.name)) this.arrival.set(e.name, this.arrival.size);
    read.sort((a, b) => this.arrival.get(a.name)! - this.arrival.get(b.name)!);
    const entries = read.filter((e) => {
      const problem = entryProblem(this.team, e.entry) ?? this.authors.get(e.name);
      if (problem)
        this.once(
          e.name,
          problem.startsWith(inboxRel(ctx.record.id)) ? `${problem}.` : `The inbox entry ${e.name} is not taken in: ${problem}.`,
        );
      return !problem;
    });
    const checked = await this.criterionPinsFromFile(entries);
    if (checked.length === 0) return false;
    const applied = applyEntries(ctx.record, checked, slot);
    for (const s of applied.skipped) this.once(s.name, `The inbox entry ${s.name} changes nothing: ${s.why}.`);
    if (applied.changed) await ctx.save();
    await removeFromInbox(ctx.reviewRoot, ctx.record.id, applied.done);
    for (const { iteration, message } of applied.messages) ctx.emit({ type: 'turn-completed', runId: ctx.record.id, iteration, message });
    if (applied.pinsChanged) ctx.emit({ type: 'pins-changed', runId: ctx.record.id, pins: ctx.record.pins ?? [] });
    return applied.messages.length > 0 || applied.pinsChanged;
  }

  /**
   * A criterion pin names a criterion of criteria.json: its name and description are taken from the file as it is now, so
   * an entry cannot put words of its own into every later prompt. An unpin needs no file (it only takes words away).
   */
  private async criterionPinsFromFile(entries: ReceivedEntry[]): Promise<ReceivedEntry[]> {
    if (!entries.some((e) => e.entry.type === 'criterion' && !e.entry.remove)) return entries;
    let known: readonly { name: string; description: string }[] | undefined;
    let unreadable: string | undefined;
    try {
      known = await this.options.criteria?.();
    } catch (e) {
      unreadable = errorMessage(e);
    }
    const out: ReceivedEntry[] = [];
    for (const e of entries) {
      if (e.entry.type !== 'criterion' || e.entry.remove) {
        out.push(e);
        continue;
      }
      const wanted = e.entry.criterion.toLowerCase();
      const found = known?.find((c) => c.name.toLowerCase() === wanted);
      if (found) {
        out.push({ ...e, entry: { ...e.entry, criterion: found.name, description: found.description } });
        continue;
      }
      const why = unreadable
        ? `criteria.json cannot be read (${unreadable})`
        : known
          ? `criteria.json has no criterion "${e.entry.criterion}"`
          : 'the review has no criteria.json';
      this.once(e.name, `The inbox entry ${e.name} is not taken in: it pins a criterion and ${why}.`);
    }
    return out;
  }

  /**
   * Each new entry is judged once by the authorship door (authorship/door.ts), with or without --sync: every commit that
   * wrote it must be its person's, and an entry not committed yet speaks only for this machine's own git identity. One
   * refused is said with the file, commit and author, left in place, never taken in. Over git without e-mails in
   * review.yaml it is said once that entries are not checked.
   */
  private async checkAuthors(read: readonly ReceivedEntry[], synced: boolean): Promise<void> {
    const ids = this.team.identities;
    if (!ids) {
      if (synced) this.once('authors-unchecked', UNCHECKED_AUTHORS);
      return;
    }
    const fresh = notTakenIn(this.ctx.record, read).filter((e) => !this.authors.has(e.name));
    if (!fresh.length) return;
    const door = await openAuthorshipFor(this.ctx.reviewRoot, ids); // opened after this intake's pull: git as it is now
    if (!door.checked && door.why) this.once('authors-door', door.why);
    for (const e of fresh) {
      const file = inboxRel(this.ctx.record.id, `${e.name}.json`);
      // An entry typed for its person on someone's machine (issue 39) is the typist's file: judged as theirs, taken in
      // marked as typed, and not at all where signatures are required (only the person's own signed commit speaks then).
      const typist = entryTypist(e.entry);
      const person = entryPerson(e.entry);
      const problem =
        typist !== undefined && door.checked && door.typist?.requireSigned
          ? `it was ${typedWords(typist, person, (id) => personName(this.team, id))}, and with signatures required (requireSignedCommits) only ${personName(this.team, person)}'s own signed commit speaks for them`
          : (await door.check(path.join(this.ctx.reviewRoot, ...file.split('/')), typist ?? person))?.reason;
      this.authors.set(e.name, problem ? `${file} is not taken in and is left alone: ${problem}` : undefined);
    }
  }

  isHuman(designerId: string): boolean {
    return isHuman(this.team, designerId);
  }

  /** Has the person answered their scheduled turn (in words or with /pass)? */
  answered(it: Iteration, speaker: string, turn: number): { answered: boolean; pass: boolean } {
    const m = it.messages.find((x) => x.kind === 'human' && x.speaker === speaker && x.turn === turn);
    return { answered: Boolean(m), pass: m?.pass === true };
  }

  /** The next turn an @mention asked for and nobody has taken yet (mentions of people who speak in person are theirs to answer). */
  nextExtra(it: Iteration): ExtraTurn | undefined {
    for (const m of it.messages) {
      if (m.kind !== 'human' || !m.mentions?.length) continue;
      for (const id of m.mentions) {
        const p = findPerson(this.team, id);
        // A designer who speaks in person answers themself; one not taking part in this run (--designers) has no proxy here.
        if (!p || (p.kind === 'designer' && (this.isHuman(p.id) || !this.ctx.designers.some((d) => d.id === p.id)))) continue;
        if (it.messages.some((x) => x.replyTo === m.id && x.speaker === p.id)) continue;
        return { speaker: p.id, kind: p.kind === 'guest' ? 'guest' : 'proxy', replyTo: m.id! };
      }
    }
    return undefined;
  }

  /** Guests called in for the run who have not had their turn of this iteration yet (they speak after the designers). */
  nextCalledGuest(it: Iteration): string | undefined {
    return this.team.calledGuests.find((g) => !it.messages.some((m) => m.kind === 'guest' && m.speaker === g && !m.replyTo));
  }

  /**
   * Waits for a person's scheduled turn. Saves status "waiting" with `waitingFor` and tells listeners; then either holds,
   * taking the inbox in until the answer is there, or throws WaitingStop.
   */
  async waitFor(slot: WaitingFor): Promise<void> {
    const { ctx } = this;
    const it = ctx.record.iterations.find((x) => x.index === slot.iteration)!;
    await this.intake(slot);
    if (this.answered(it, slot.speaker, slot.turn).answered) return;
    ctx.record.status = 'waiting';
    ctx.record.waitingFor = slot;
    await ctx.save();
    ctx.emit({ type: 'waiting', runId: ctx.record.id, waitingFor: slot, speakerName: personName(this.team, slot.speaker) });
    if (!this.hold) throw new WaitingStop(slot);
    // An inbox that is a link is never read: nobody's answer can arrive through it, so the run does not wait on it.
    const linked = await inboxProblem(ctx.reviewRoot, ctx.record.id);
    if (linked) {
      this.once('inbox-linked', `${linked} The run stops here and waits for ${personName(this.team, slot.speaker)} (status "waiting").`);
      throw new WaitingStop(slot);
    }
    const until = this.options.maxWaitMs === undefined ? undefined : Date.now() + this.options.maxWaitMs;
    while (!this.answered(it, slot.speaker, slot.turn).answered) {
      if (ctx.signal?.aborted) throw new CancelledError();
      if (until !== undefined && Date.now() >= until) throw new WaitingStop(slot);
      await sleep(WAIT_POLL_MS, ctx.signal);
      await this.intake(slot);
    }
    ctx.record.status = 'running';
    ctx.record.waitingFor = undefined;
    await ctx.save();
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done(): void {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
