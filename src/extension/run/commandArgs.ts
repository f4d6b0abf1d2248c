/**
 * Optional argument objects of the run commands (tests and scripts drive the commands without UI), validated with zod.
 * Anything else (a Uri, a tree item) is handed to the review resolver.
 */
import * as path from 'node:path';
import * as z from 'zod';
import { SETTING_BOUNDS } from '../../core/settings/settingBounds';
import { RUN_TASKS } from '../../core/record/record';

/** A count within the bounds of its run setting (settingBounds.ts is their one home). */
const count = (field: 'iterations' | 'turnsPerAgent') => z.number().int().min(SETTING_BOUNDS[field].min).max(SETTING_BOUNDS[field].max);

export const RunReviewArgsSchema = z.object({
  reviewRoot: z.string().min(1),
  iterations: count('iterations').optional(),
  turns: count('turnsPerAgent').optional(),
  feedback: z.string().optional(),
  /** Resume this run id instead of starting a new run. */
  resume: z.string().min(1).optional(),
  /** Run with this subset of the review's designers (two or more ids). */
  designers: z.array(z.string().min(1)).min(2).optional(),
  /** A brief run (the members' comments → one revised brief) or a design run; the engine's default for the folder when absent. */
  task: z.enum(RUN_TASKS).optional(),
});

const RunRefSchema = z.object({ reviewRoot: z.string().min(1), runId: z.string().min(1) });
export type RunRef = z.infer<typeof RunRefSchema>;

export const RefineArgsSchema = RunRefSchema.extend({ feedback: z.string().optional() });

export const CancelArgsSchema = z.object({
  runId: z.string().optional(),
  reviewRoot: z.string().optional(),
  /** From the status bar: offer "Cancel" or "Show Log" instead of cancelling at once. */
  ask: z.boolean().optional(),
});

/** True for a plain object carrying a `reviewRoot` string (our argument objects), as opposed to a Uri or tree item. */
export function hasReviewRoot(arg: unknown): arg is { reviewRoot: unknown } {
  return typeof arg === 'object' && arg !== null && typeof (arg as { reviewRoot?: unknown }).reviewRoot === 'string';
}

function fsPathOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) {
    const fsPath = (value as { fsPath?: unknown }).fsPath;
    if (typeof fsPath === 'string') return fsPath;
  }
  return undefined;
}

/** `<review>/runs/<id>` → { reviewRoot, runId }. */
function runRefFromRunDir(dir: string): RunRef | undefined {
  const normal = path.resolve(dir);
  const runsDir = path.dirname(normal);
  if (path.basename(runsDir) !== 'runs') return undefined;
  const runId = path.basename(normal);
  if (!runId) return undefined;
  return { reviewRoot: path.dirname(runsDir), runId };
}

/**
 * A run reference from a command argument: `{ reviewRoot, runId }`, a run tree item (`runId` + `reviewRoot`, or a
 * `resourceUri`/`runDir` that points at `<review>/runs/<id>`), a run folder Uri, or a run.json Uri.
 */
export function runRefFromArg(arg: unknown): RunRef | undefined {
  const direct = RunRefSchema.safeParse(arg);
  if (direct.success) return { reviewRoot: direct.data.reviewRoot, runId: direct.data.runId };
  if (typeof arg !== 'object' || arg === null) return undefined;
  const item = arg as Record<string, unknown>;
  const candidates = [item.runDir, item.resourceUri, item.uri, arg];
  for (const c of candidates) {
    let p = fsPathOf(c);
    if (!p) continue;
    if (path.basename(p) === 'run.json') p = path.dirname(p);
    const ref = runRefFromRunDir(p);
    if (ref) {
      if (typeof item.runId === 'string' && item.runId !== ref.runId) continue;
      return ref;
    }
  }
  return undefined;
}
