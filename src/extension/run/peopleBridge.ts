/**
 * People in a run, from VS Code: a designer's message or pin from the panel goes to the run's inbox (core/people) and
 * nowhere else — only the run's driver writes run.json (issue 18). When this window (or another process) drives the run,
 * it takes the entry in at its next turn boundary (and a run waiting for that person goes on); when nobody drives it, the
 * entry waits for the next driver, and a run that was waiting for this person is resumed here. Nothing is written in an
 * untrusted workspace.
 */
import { PeopleInputError, submitPin, submitSay, type SubmitResult } from '../../core/people/submit';
import { errorMessage } from '../../core/kernel/errors';
import { forkChoiceCheck } from '../../core/fork/choice';

export interface PeopleOutcome {
  ok: boolean;
  /** One sentence for the panel. */
  message: string;
  /** True when the run waits for a person, no process drives it, and this say answered that person's turn: resume it. */
  resume?: boolean;
}

export interface BridgeEnv {
  trusted: boolean;
  /** Does this window drive the run? */
  driving: boolean;
  /**
   * The sync setting is on: the entry is only written (run.json is its driver's, wherever that runs), then this commits
   * only that file, pulls and pushes; returns a few words on how that went.
   */
  through?: (file: string, message: string) => Promise<string>;
}

export async function sayFromPanel(env: BridgeEnv, reviewRoot: string, runId: string, as: string, text: string): Promise<PeopleOutcome> {
  if (!env.trusted) return { ok: false, message: 'Nothing is written in an untrusted workspace.' };
  return attempt(async () => {
    const r = await submitSay({
      reviewRoot,
      runId,
      as,
      text,
      checkAnswer: forkChoiceCheck,
      ...(env.driving ? { isDriven: async () => true } : {}),
    });
    // Typed here for another member (issue 39): said so, and shown so in the chat, never as their own words.
    const said = r.typed !== undefined ? `Said (${r.typed})` : 'Said';
    if (env.through) return { ok: true, message: `${said}: ${await env.through(r.file, `TeamFusion ${runId}: ${as} says`)}.` };
    const w = r.record.waitingFor;
    const answered =
      !r.driven && r.message && r.record.status === 'waiting' && w?.speaker === r.message.speaker && r.message.turn === w.turn;
    if (answered) return { ok: true, message: `${said}: the run goes on with it.`, resume: true };
    return { ok: true, message: sentence(r, said) };
  });
}

export async function pinFromPanel(
  env: BridgeEnv,
  reviewRoot: string,
  runId: string,
  message: string,
  as: string,
  remove: boolean,
): Promise<PeopleOutcome> {
  if (!env.trusted) return { ok: false, message: 'Nothing is written in an untrusted workspace.' };
  return attempt(async () => {
    const r = await submitPin({ reviewRoot, runId, message, as, remove, ...(env.driving ? { isDriven: async () => true } : {}) });
    const what = `${remove ? `Unpinned ${message}` : `Pinned ${message}`}${r.typed !== undefined ? ` (${r.typed})` : ''}`;
    if (env.through) {
      const how = await env.through(r.file, `TeamFusion ${runId}: ${as} ${remove ? 'unpins' : 'pins'} ${message}`);
      return { ok: true, message: `${what}: ${how}.` };
    }
    return { ok: true, message: sentence(r, what) };
  });
}

function sentence(r: SubmitResult, what: string): string {
  return r.driven
    ? `${what}: the run takes it in at its next turn.`
    : `${what}: kept in the run's inbox; it is taken in when the run goes on (Resume).`;
}

async function attempt(fn: () => Promise<PeopleOutcome>): Promise<PeopleOutcome> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof PeopleInputError) return { ok: false, message: err.message };
    return { ok: false, message: errorMessage(err) };
  }
}
