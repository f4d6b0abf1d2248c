/**
 * A brief round's fork (issue 33): when the round forks one of its disagreements, the remix agent writes the contested
 * passage of the revised brief each way — one passage per position, in order (strict JSON, repaired like every structured
 * answer) — kept as `iteration-<k>/fork-<letter>.md` (inert Markdown within the revised brief's cap) and recorded in the
 * round's `brief.forks` with the side each takes, like a design fork's remixes. A round whose forks are written is never
 * asked again.
 */
import { createHash } from 'node:crypto';
import * as z from 'zod';
import type { ChatMessage } from '../llm/messages';
import type { Iteration, RunRecord } from '../record/record';
import { reviewRelative } from '../record/paths';
import { briefForkFileInRun } from '../record/recordCheck';
import type { StepContext } from '../step/context';
import { LIMITS, readReviewText, ReviewFileError } from '../files/reviewFiles';
import { formatDiagnostic, warning } from '../diagnostics/diagnostics';
import { FILE_KINDS } from '../files/fileKinds';
import { writeInertMarkdown } from '../files/markdown';
import { askStructured } from '../remix/remixAgent';
import { parseJsonAnswer } from '../remix/structuredAnswer';
import { chosenPoint, forkSettled } from './choice';
import { forkSides, roundPoints } from './points';

/** Whether the brief round still has a fork to write (the engine's isDone of a brief round asks). */
export function briefForkPending(ctx: Pick<StepContext, 'settings' | 'designers' | 'record'>, it: Iteration): boolean {
  if (!it.brief || it.brief.forks?.length) return false;
  return !forkSettled(ctx, it);
}

/** The brief task's one call, once the round's revised brief is written: `conversation` is what the remix agent saw. */
export async function forkBriefRound(ctx: StepContext, it: Iteration, conversation: readonly ChatMessage[]): Promise<void> {
  const brief = it.brief;
  if (!brief || brief.forks?.length) return;
  const point = await chosenPoint(ctx, it);
  if (point === undefined) return;
  const sides = forkSides(roundPoints(it), point);
  const revised = await readReviewText(ctx.reviewRoot, reviewRelative(ctx.record.id, brief.file), LIMITS.briefText);
  const question = sides[0]?.fork.question ?? '';
  const ask: ChatMessage = {
    role: 'user',
    content: [
      `The team is split on a point of the revised brief below: ${question}`,
      `Positions, in this order: ${sides.map((s, i) => `(${i + 1}) ${s.fork.position}`).join(' ')}`,
      'For each position, in the same order, write the passage of the revised brief this point touches as that side would have it: the same passage rewritten each way, in Markdown, with no preamble. Change nothing the point does not touch.',
      '--- The revised brief ---',
      revised,
    ].join('\n\n'),
  };
  const n = sides.length;
  const schema = {
    type: 'object',
    additionalProperties: false,
    required: ['passages'],
    properties: {
      passages: {
        type: 'array',
        description: 'One passage per position, in the order given.',
        items: { type: 'string' },
        minItems: n,
        maxItems: n,
      },
    },
  };
  const validator = z.object({
    passages: z
      .array(z.string().trim().min(1, 'a passage is empty'))
      .length(n, { message: `must hold exactly ${n} passages, one per position` }),
  });
  const answer = await askStructured(ctx, {
    iteration: it.index,
    base: [...conversation, ask],
    structured: { name: 'teamfusion_brief_fork', strict: true, schema },
    parse: (content) => {
      const parsed = parseJsonAnswer(content, validator);
      return 'error' in parsed ? parsed : parsed.value.passages;
    },
  });
  const forks: NonNullable<NonNullable<Iteration['brief']>['forks']> = [];
  for (const [i, s] of sides.entries()) {
    const file = briefForkFileInRun(it.index, s.letter);
    const line = (t: string): string => t.replace(/\s+/g, ' ').trim();
    const text = `# Fork ${s.letter.toUpperCase()}: ${line(s.fork.position)}\n\n${line(s.fork.question)}\n\n${answer[i] ?? ''}\n`;
    const written = await writeInertMarkdown(ctx.reviewRoot, reviewRelative(ctx.record.id, file), text, {
      cap: FILE_KINDS.revisedBrief.maxBytes,
      log: (line) => ctx.emit({ type: 'notice', runId: ctx.record.id, level: 'warning', message: line }),
    });
    forks.push({ letter: s.letter, file, fork: s.fork, sha256: written.sha256 });
  }
  brief.forks = forks;
  await ctx.save();
  ctx.emit({
    type: 'notice',
    runId: ctx.record.id,
    level: 'info',
    message: `Round ${it.index} forks decision point ${point} (${question}): the contested passage each way — ${forks.map((f) => `${f.file}: ${f.fork.position}`).join('; ')}.`,
  });
}

type BriefForkWritten = NonNullable<NonNullable<Iteration['brief']>['forks']>[number];

/**
 * A brief fork's passage as the run wrote it (issue 39): read through the file room, and refused in one sentence naming the
 * file when it was edited after the run (its sha256 differs from the one run.json keeps) — never shown as the run's.
 */
export async function readForkPassage(root: string, runId: string, written: Pick<BriefForkWritten, 'file' | 'sha256'>): Promise<string> {
  const rel = reviewRelative(runId, written.file);
  const text = await readReviewText(root, rel, LIMITS.briefText);
  if (written.sha256 && createHash('sha256').update(text).digest('hex') !== written.sha256) {
    throw new ReviewFileError(rel, editedPassage(rel));
  }
  return text;
}

function editedPassage(rel: string): string {
  return `${rel} was edited after the run (its sha256 differs from the one run.json keeps), so it is not shown as the passage the run wrote.`;
}

/**
 * Every fork passage of a brief run edited after the run (or gone), one `file:0:0: warning: …` line each, for compare to say.
 */
export async function editedForkPassages(root: string, record: Pick<RunRecord, 'id' | 'iterations'>): Promise<string[]> {
  const out: string[] = [];
  for (const it of record.iterations) {
    for (const f of it.brief?.forks ?? []) {
      try {
        await readForkPassage(root, record.id, f);
      } catch (err) {
        if (!(err instanceof ReviewFileError)) throw err;
        out.push(formatDiagnostic(warning(reviewRelative(record.id, f.file), err.message)));
      }
    }
  }
  return out;
}
