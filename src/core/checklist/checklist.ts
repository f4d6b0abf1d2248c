/**
 * The brief as a checklist (issue 41), in a design run with `checklist` on:
 * - once a run, before the first remix is checked, the chat model lists the brief's must-haves, each with a quote; a quote
 *   not found in brief.md (folded like coverage quotes) drops its item, and the drop is said and recorded (`dropped`);
 * - every remix made is checked item by item against its image, `repeat` times independently; with two or more the result
 *   is the majority's (no majority: unclear) and each item's `agreement` is the share that gave it;
 * - a remix already checked is never checked again (resume), and an unusable check after one repair is unclear, said;
 * - a chat model that cannot see images (text-only: `--text-only`, or a VS Code model without image input) is not asked:
 *   every item of every remix is `unclear` with that reason (NO_IMAGE_REASON), and nothing is sent for the checks.
 */
import * as z from 'zod';
import type { StepContext } from '../step/context';
import type { Check, Checklist, Iteration } from '../record/record';
import { CHECK_RESULTS } from '../record/record';
import { remixesOf } from '../record/remixes';
import { checklistRepeatOf } from '../settings/discussionSettings';
import { quoteFound } from '../coverage/verify';
import { prepareImage } from '../llm/images';
import { cannotAnswer } from '../llm/errors';
import { askStructured } from '../remix/remixAgent';
import { parseJsonAnswer } from '../remix/structuredAnswer';
import { CHECKLIST_STRUCTURED, MAX_CHECKLIST_ITEMS, checkMessages, checkStructured, checklistMessages } from './checklistPrompts';

/** One repair, then the item list is empty (said) or the check unclear. */
const EXTRA_ATTEMPTS = 1;

/** The run's checklist setting: the number of checks of each remix, or 0 when off (absent, as in older records: off). */
export function checklistRepeat(s: StepContext['settings']): number {
  return checklistRepeatOf(s);
}

class Unusable extends Error {}

/** The reason of every check a text-only chat model cannot make: it would judge the remix's directions, not its image. */
export const NO_IMAGE_REASON = 'Not checked: the chat model is text-only and cannot see the image.';

/** The run's checklist, extracted once (recorded on run.json `checklist`). */
export async function ensureChecklist(ctx: StepContext, brief: string, iteration: number): Promise<Checklist> {
  if (ctx.record.checklist) return ctx.record.checklist;
  const repeat = Math.max(1, checklistRepeat(ctx.settings));
  const schema = z.object({ items: z.array(z.object({ text: z.string(), quote: z.string() })).max(MAX_CHECKLIST_ITEMS) });
  let items: { text: string; quote: string }[] = [];
  try {
    items = await askStructured(ctx, {
      iteration,
      base: checklistMessages(brief),
      structured: CHECKLIST_STRUCTURED,
      parse: (content) => {
        const r = parseJsonAnswer(content, schema);
        return 'error' in r
          ? r
          : r.value.items.map((i) => ({ text: i.text.trim(), quote: i.quote.trim() })).filter((i) => i.text && i.quote);
      },
      extraAttempts: EXTRA_ATTEMPTS,
      kind: 'checklist',
      whose: "The checklist's",
      giveUp: (problem) => new Unusable(problem),
    });
  } catch (err) {
    const problem = err instanceof Unusable ? err.message : cannotAnswer(err);
    if (problem === undefined) throw err;
    ctx.emit({
      type: 'notice',
      runId: ctx.record.id,
      level: 'warning',
      message: `The brief's must-haves could not be listed (${problem}); no remix is checked.`,
    });
  }
  const found = items.filter((i) => quoteFound(i.quote, brief));
  const dropped = items.filter((i) => !found.includes(i));
  ctx.record.checklist = {
    items: found.map((i, n) => ({ id: `c${n + 1}`, text: i.text, quote: i.quote, verified: true as const })),
    repeat,
    ...(dropped.length ? { dropped } : {}),
  };
  if (dropped.length) {
    ctx.emit({
      type: 'notice',
      runId: ctx.record.id,
      level: 'warning',
      message: `${dropped.length} must-have${dropped.length === 1 ? '' : 's'} of the checklist dropped: the quote is not in brief.md (${dropped.map((d) => `"${d.quote}"`).join('; ')}).`,
    });
  }
  await ctx.save();
  return ctx.record.checklist;
}

/** Checks every remix of the round not yet checked against every item (each saved as soon as it is checked). */
export async function checkRoundRemixes(ctx: StepContext, brief: string, it: Iteration): Promise<void> {
  if (checklistRepeat(ctx.settings) === 0 || it.final) return;
  const pending = remixesOf(it).filter((m) => !m.checks);
  if (pending.length === 0) return;
  const list = await ensureChecklist(ctx, brief, it.index);
  if (list.items.length === 0) return;
  const sees = ctx.chat.acceptsImages;
  for (const remix of pending) {
    if (!sees) {
      remix.checks = list.items.map((i) => ({ item: i.id, result: 'unclear' as const, reason: NO_IMAGE_REASON }));
      await ctx.save();
      continue;
    }
    const file = ctx.record.options.find((o) => o.id === remix.id)?.file ?? '';
    const image = await prepareImage(ctx.reviewRoot, file, { maxSide: ctx.settings.imageMaxSide });
    // Each repeat is saved as soon as it is made (remix.checksMade), so a resume asks only for the repeats still missing.
    while ((remix.checksMade?.length ?? 0) < list.repeat) {
      const made = await checkOnce(ctx, it.index, list, remix.id, { type: 'image', file, label: `Remix ${remix.id}`, image });
      if (list.repeat > 1) {
        remix.checksMade = [...(remix.checksMade ?? []), made];
        await ctx.save();
      } else remix.checksMade = [made];
    }
    const rounds: Check[][] = remix.checksMade ?? [];
    remix.checks = combineChecks(
      list.items.map((i) => i.id),
      rounds.slice(0, list.repeat),
    );
    delete remix.checksMade;
    await ctx.save();
  }
  if (!sees) {
    ctx.emit({
      type: 'notice',
      runId: ctx.record.id,
      level: 'warning',
      message: `Round ${it.index}'s remixes are not checked against the brief's must-haves: the chat model is text-only and cannot see images, so every item is unclear.`,
    });
    return;
  }
  const failed = pending.flatMap((m) => (m.checks ?? []).filter((c) => c.result === 'fail').map((c) => `${m.id} ${c.item}`));
  ctx.emit({
    type: 'notice',
    runId: ctx.record.id,
    level: failed.length ? 'warning' : 'info',
    message: `Round ${it.index}'s remixes checked against ${list.items.length} must-haves of the brief: ${failed.length ? `failed ${failed.join(', ')}` : 'none failed'}.`,
  });
}

async function checkOnce(
  ctx: StepContext,
  iteration: number,
  list: Checklist,
  remixId: string,
  image: Parameters<typeof checkMessages>[1],
): Promise<Check[]> {
  const ids = list.items.map((i) => i.id);
  const schema = z.object({
    checks: z.array(z.object({ item: z.enum(ids as [string, ...string[]]), result: z.enum(CHECK_RESULTS), reason: z.string() })),
  });
  try {
    return await askStructured(ctx, {
      iteration,
      base: checkMessages(list.items, image),
      structured: checkStructured(ids),
      parse: (content) => {
        const r = parseJsonAnswer(content, schema);
        if ('error' in r) return r;
        const missing = ids.filter((id) => r.value.checks.filter((c) => c.item === id).length !== 1);
        return missing.length
          ? { error: `every item must be checked exactly once, but ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not` }
          : ids.map((id) => r.value.checks.find((c) => c.item === id)!);
      },
      extraAttempts: EXTRA_ATTEMPTS,
      kind: 'check',
      whose: `The check of remix ${remixId}'s`,
      giveUp: (problem) => new Unusable(problem),
    });
  } catch (err) {
    const problem = err instanceof Unusable ? err.message : cannotAnswer(err);
    if (problem === undefined) throw err;
    return ids.map((item) => ({ item, result: 'unclear' as const, reason: `No usable check of this item (${problem}).` }));
  }
}

/** Repeated checks as one: the majority's result (none: unclear) and, with two or more, the share that gave it. */
export function combineChecks(ids: readonly string[], rounds: readonly (readonly Check[])[]): Check[] {
  return ids.map((item) => {
    const answers = rounds.map((r) => r.find((c) => c.item === item)!).filter(Boolean);
    if (rounds.length === 1) return { item, result: answers[0]!.result, reason: answers[0]!.reason.trim() };
    const count = (res: Check['result']) => answers.filter((a) => a.result === res).length;
    const best = [...CHECK_RESULTS].sort((a, b) => count(b) - count(a))[0]!;
    const majority = count(best) * 2 > answers.length;
    const agreement = count(best) / answers.length;
    if (!majority)
      return {
        item,
        result: 'unclear',
        reason: `The ${answers.length} checks disagree (${answers.map((a) => a.result).join(', ')}).`,
        agreement,
      };
    return { item, result: best, reason: answers.find((a) => a.result === best)!.reason.trim(), agreement };
  });
}
