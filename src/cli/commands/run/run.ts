/**
 * `teamfusion run <review> [--iterations N] [--turns N] [--remixes N] [--pool K] [--checklist C] [--mode M] [--order O] [--forks F] [--seed N] [--designers a,b,…]
 *   [--feedback TEXT] [--resume RUN-ID] [--json]`
 * Streams the discussion to stdout ("Ana (turn 1): …"); with --json, prints only the final summary JSON on stdout.
 * Ctrl+C cancels (the record is kept, resumable). `--resume RUN-ID` continues a run; on a completed run together with
 * `--feedback` it refines it (one more remix round + a final pick).
 * `--human ID` (repeatable): that designer speaks in person at their turns — asked here in a terminal, otherwise (or with
 * `--no-wait`) the run stops with status waiting. `--guest ID` (repeatable): a review.yaml guest speaks once per iteration.
 * Exit: 0 completed, 1 failed or invalid input, 2 usage, 3 waiting for a person, 130 cancelled.
 */
import { takeInVotesOf } from '../../../core/evaluation/votes/takeIn';
import * as path from 'node:path';
import * as z from 'zod';
import { safeJson, printable, writeDiagnostic, writeLine } from '../../output';
import { ModelConfigError, createImageClient, createModelClient } from '../../../core/llm/client';
import { OpenAIChatBackend, OpenAIImageBackend } from '../../../core/llm/openaiBackend';
import { envNumber, readPriceTable } from '../../environment';
import { confirmOnCli } from '../../costQuestion';
import { CostNotConfirmedError } from '../../../core/llm/costQuestion';
import { RunTooLargeError } from '../../../core/run/runEstimate';
import type { RunRecord, RunSettings } from '../../../core/record/record';
import { remixesOf } from '../../../core/record/remixes';
import { RUN_TASKS } from '../../../core/record/record';
import { lastBriefRound } from '../../../core/run/brief/briefTask';
import { runDir } from '../../../core/record/paths';
import { checklistRepeatSetting, wholeSetting } from '../../../core/settings/settingBounds';
import { UsageError } from '../../usage';
import { DISCUSSION_MODES, FORK_MODES, SPEAKING_ORDERS, oneOf } from '../../../core/settings/discussionSettings';
import { SubsetError, checkSubset } from '../../../core/run/runTeam';
import { RunCompletedError, RunRefusedError, runSession, type RunMeans, type RunWhat } from '../../../core/run/session';
import { errorMessage } from '../../../core/kernel/errors';
import { GitMissingError, gitTransportFor } from '../../../core/sync/gitCli';
import { DEFAULT_SYNC_INTERVAL_S, RunSync } from '../../../core/sync/runSync';
import { RunPrinter, displayPath, labelOf } from './runPrinter';
import { TerminalAsker } from './terminalAsker';

/** With --sync and no --max-wait, a run waits this long for a person's answer through the remote, then exits 3. */
const DEFAULT_SYNC_MAX_WAIT_S = 3600;

const ArgsSchema = z.object({
  review: z.string().min(1),
  iterations: wholeSetting('iterations').optional(),
  turns: wholeSetting('turnsPerAgent', 'turns').optional(),
  remixes: wholeSetting('remixesPerIteration', 'remixes').optional(),
  pool: wholeSetting('pool').optional(),
  checklist: z
    .union([z.literal('off'), z.literal('on').transform(() => 1), checklistRepeatSetting()], {
      error: (iss) => `must be off, on or a number of checks from 1 to 3, not "${String(iss.input)}"`,
    })
    .optional(),
  feedback: z.string().optional(),
  resume: z.string().optional(),
  mode: z.enum(DISCUSSION_MODES, { error: (iss) => `must be ${oneOf(DISCUSSION_MODES)}, not "${String(iss.input)}"` }).optional(),
  order: z.enum(SPEAKING_ORDERS, { error: (iss) => `must be ${oneOf(SPEAKING_ORDERS)}, not "${String(iss.input)}"` }).optional(),
  forks: z.enum(FORK_MODES, { error: (iss) => `must be ${oneOf(FORK_MODES)}, not "${String(iss.input)}"` }).optional(),
  seed: wholeSetting('orderSeed', 'the seed').optional(),
  designers: z.array(z.string().min(1)).min(2, 'name at least two designers, separated by commas').optional(),
  json: z.boolean(),
  human: z.array(z.string()).optional(),
  guest: z.array(z.string()).optional(),
  noWait: z.boolean().optional(),
  imageBaseUrl: z.string().trim().url('must be a URL such as https://api.openai.com/v1').optional(),
  sync: z.boolean().optional(),
  syncInterval: z.number().min(0.05, 'must be at least 0.05 seconds').max(3600, 'must be at most 3600 seconds').optional(),
  maxWait: z
    .number()
    .min(0)
    .max(7 * 24 * 3600, 'must be at most a week (604800 seconds)')
    .optional(),
  textOnly: z.boolean().optional(),
  task: z.enum(RUN_TASKS, { error: (iss) => `must be brief or design, not "${String(iss.input)}"` }).optional(),
  yes: z.boolean().optional(),
});
type RunArgs = z.infer<typeof ArgsSchema>;

export function parseRunArgs(args: readonly string[]): RunArgs {
  const out: Record<string, unknown> = { json: false };
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const [flag, inline] =
      a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = (): string => {
      const v = inline ?? args[++i];
      if (v === undefined || (inline === undefined && v.startsWith('--'))) throw new UsageError(`${flag} needs a value.`);
      return v;
    };
    const seconds = (): number => {
      const v = value();
      if (!/^\d+(\.\d+)?$/.test(v)) throw new UsageError(`${flag} needs a number of seconds, not "${v}".`);
      return Number(v);
    };
    const int = (): number => {
      const v = value();
      if (!/^\d+$/.test(v)) throw new UsageError(`${flag} needs a whole number, not "${v}".`);
      return Number(v);
    };
    switch (flag) {
      case '--iterations':
        out.iterations = int();
        break;
      case '--turns':
        out.turns = int();
        break;
      case '--remixes':
        out.remixes = int();
        break;
      case '--pool':
        out.pool = int();
        break;
      case '--checklist': {
        const v = value();
        out.checklist = /^\d+$/.test(v) ? Number(v) : v;
        break;
      }
      case '--feedback':
        out.feedback = value();
        break;
      case '--resume':
        out.resume = value();
        break;
      case '--mode':
        out.mode = value();
        break;
      case '--order':
        out.order = value();
        break;
      case '--forks':
        out.forks = value();
        break;
      case '--seed':
        out.seed = int();
        break;
      case '--designers':
        out.designers = [
          ...new Set(
            value()
              .split(',')
              .map((x) => x.trim())
              .filter(Boolean),
          ),
        ];
        break;
      case '--json':
        out.json = true;
        break;
      case '--human':
        out.human = [...((out.human as string[] | undefined) ?? []), value()];
        break;
      case '--guest':
        out.guest = [...((out.guest as string[] | undefined) ?? []), value()];
        break;
      case '--no-wait':
        out.noWait = true;
        break;
      case '--image-base-url':
        out.imageBaseUrl = value();
        break;
      case '--sync':
        out.sync = true;
        break;
      case '--sync-interval':
        out.syncInterval = seconds();
        break;
      case '--max-wait':
        out.maxWait = seconds();
        break;
      case '--task':
        out.task = value();
        break;
      case '--text-only':
        out.textOnly = true;
        break;
      case '--yes':
        out.yes = true;
        break;
      default:
        if (a.startsWith('-')) throw new UsageError(`unknown option ${a}.`);
        positional.push(a);
    }
  }
  if (positional.length !== 1)
    throw new UsageError(positional.length ? 'give exactly one review folder.' : 'give the review folder to run.');
  if (out.syncInterval !== undefined && !out.sync) throw new UsageError('--sync-interval goes with --sync.');
  out.review = positional[0];
  const parsed = ArgsSchema.safeParse(out);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(`--${String(issue.path[0])}: ${issue.message.replace(/\.?$/, '.')}`);
  }
  return parsed.data;
}

/** `teamfusion run`: the arguments as one run request (core/run/session.ts); what it prints observes the run. */
export async function runRun(args: string[]): Promise<number> {
  const a = parseRunArgs(args);
  const root = path.resolve(a.review);
  const out = (s: string): void => {
    if (!a.json) process.stdout.write(s);
  };
  const printer = new RunPrinter(out);
  // In a terminal (and without --no-wait) the person is asked here; otherwise the run stops with status "waiting".
  const asker = process.stdin.isTTY && !a.noWait ? new TerminalAsker(root) : undefined;
  const controller = new AbortController();
  let interrupts = 0;
  const onSigint = (): void => {
    interrupts++;
    if (interrupts > 1) process.exit(130);
    process.stderr.write('\nCancelling… (the run is kept and can be resumed)\n');
    controller.abort();
  };
  process.on('SIGINT', onSigint);

  let record: RunRecord;
  try {
    record = await runSession(
      {
        reviewRoot: root,
        what: whatOf(a),
        // The CLI validates every image while it loads the review.
        decodeImages: true,
        means: () => cliMeans(a, root),
        feedback: a.feedback,
        signal: controller.signal,
        humans: a.human,
        guests: a.guest,
        // With --sync the person answers from their own machine: the run holds, pulling, up to --max-wait.
        holdWhenWaiting: asker !== undefined || (a.sync === true && !a.noWait),
        maxWaitMs: a.maxWait !== undefined ? a.maxWait * 1000 : a.sync ? DEFAULT_SYNC_MAX_WAIT_S * 1000 : undefined,
        // A new run above the cost thresholds: --yes, a terminal's y/N, otherwise refused in one sentence (nothing sent).
        confirm: confirmOnCli(a.yes === true),
        // The driver takes in the team's decisions made by the votes before its next round (issue 39).
        takeInDecisions: takeInVotesOf,
      },
      {
        diagnostics: (found) => found.forEach((d) => writeDiagnostic(process.stderr, d)),
        loaded: (review) => {
          printer.know(review);
          // Fixed when a run starts, yet a resume's --designers is still checked against the review.
          if (a.resume && a.designers) checkSubset(review, a.designers);
        },
        recordRead: () => {
          if (
            [a.iterations, a.turns, a.remixes, a.pool, a.checklist, a.mode, a.order, a.forks, a.seed, a.designers].some(
              (x) => x !== undefined,
            )
          ) {
            process.stderr.write(
              'Note: --iterations, --turns, --remixes, --pool, --checklist, --mode, --order, --forks, --seed and --designers are fixed when a run starts; the recorded settings are used.\n',
            );
          }
        },
        event: (e) => {
          printer.event(e);
          if (e.type === 'waiting') asker?.ask(e.waitingFor.speaker, e.speakerName, e.runId, e.waitingFor.forkChoice === true);
        },
        log: (line) => writeLine(process.stderr, line),
      },
    );
  } catch (err) {
    if (err instanceof SubsetError) throw new UsageError(`--designers: ${err.message}`);
    // The review cannot be run (its diagnostics said why), the image endpoint cannot make remixes (checked for free before
    // anything is spent), the run is too large for a request or its cost was not confirmed: one sentence, nothing sent or written.
    if (err instanceof RunRefusedError && err.diagnosed) return 1;
    if (err instanceof RunCompletedError) {
      writeLine(process.stderr, `Run ${err.runId} is already completed; add --feedback TEXT to refine it with one more round.`);
      return 1;
    }
    if (
      err instanceof RunRefusedError ||
      err instanceof ModelConfigError ||
      err instanceof RunTooLargeError ||
      err instanceof CostNotConfirmedError
    ) {
      writeLine(process.stderr, err.message);
      return 1;
    }
    throw err;
  } finally {
    process.off('SIGINT', onSigint);
    asker?.close();
  }

  const dir = runDir(root, record.id);
  if (a.json) process.stdout.write(`${safeJson(summary(record, dir))}\n`);
  else {
    out(`\n${printable(`Run ${record.status}: ${displayPath(dir)}`)}\n`);
    if (record.task === 'brief' && lastBriefRound(record))
      out(
        `${printable(`Revised brief: see ${displayPath(path.join(dir, 'result.md'))}${record.baseline ? `; direct baseline: ${displayPath(path.join(dir, record.baseline.file))}` : ''}`)}\n`,
      );
    if (record.finalPick)
      out(`${printable(`Final pick: ${labelOf(record, record.finalPick)} — see ${displayPath(path.join(dir, 'result.md'))}`)}\n`);
  }
  if (record.status === 'waiting' && record.waitingFor) {
    const who = record.waitingFor.speaker;
    const name = printer.speakerName(who);
    const s = a.sync ? ' --sync' : '';
    const answer = record.waitingFor.forkChoice ? '<decision point number | none>' : '<message>';
    writeLine(
      process.stderr,
      `Waiting for ${name}${record.waitingFor.forkChoice ? ' to pick which decision point to fork' : ''}; answer with \`teamfusion say ${a.review} ${record.id} --as ${who}${s} ${answer}\` ` +
        `(or "/pass") and resume: teamfusion run ${a.review} --resume ${record.id}${s}`,
    );
    return 3;
  }
  if (record.status !== 'completed' && record.error) writeLine(process.stderr, record.error);
  if (record.status !== 'completed')
    writeLine(process.stderr, `Resume with: teamfusion run ${a.review} --resume ${record.id}${a.sync ? ' --sync' : ''}`);
  return record.status === 'completed' ? 0 : record.status === 'cancelled' ? 130 : 1;
}

/** What the arguments ask for: --resume (a completed run: refined with --feedback, else refused), else a new run. */
function whatOf(a: RunArgs): RunWhat {
  if (a.resume) return { kind: 'resume', runId: a.resume, completed: a.feedback ? 'refine' : 'refuse' };
  const settings: Partial<RunSettings> = {};
  if (a.iterations !== undefined) settings.iterations = a.iterations;
  if (a.turns !== undefined) settings.turnsPerAgent = a.turns;
  if (a.remixes !== undefined) settings.remixesPerIteration = a.remixes;
  if (a.pool !== undefined) settings.pool = a.pool;
  if (a.checklist !== undefined) settings.checklist = a.checklist === 'off' ? 'off' : { repeat: a.checklist };
  if (a.mode !== undefined) settings.mode = a.mode;
  if (a.order !== undefined) settings.order = a.order;
  if (a.forks !== undefined) settings.forks = a.forks;
  if (a.seed !== undefined) settings.orderSeed = a.seed;
  if (a.designers) settings.designers = a.designers;
  return { kind: 'start', ...(a.task ? { task: a.task } : {}), settings };
}

/**
 * The models, the team's remote (--sync) and the prices, made once the review is found runnable. Without git, or with a
 * price table that cannot be read, one sentence (RunRefusedError); a model client that cannot be made: ModelConfigError.
 */
async function cliMeans(a: RunArgs, root: string): Promise<RunMeans> {
  let sync: RunSync | undefined;
  if (a.sync) {
    let transport;
    try {
      transport = await gitTransportFor(root);
    } catch (err) {
      if (err instanceof GitMissingError) throw new RunRefusedError(err.message);
      throw err;
    }
    sync = new RunSync({
      transport,
      reviewRoot: root,
      intervalMs: (a.syncInterval ?? DEFAULT_SYNC_INTERVAL_S) * 1000,
      log: (line) => writeLine(process.stderr, line),
    });
  }
  const connection = {
    timeoutMs: envNumber('TEAMFUSION_REQUEST_TIMEOUT_SECONDS', 1000),
    maxRetries: envNumber('TEAMFUSION_MAX_RETRIES', 1),
  };
  const client = createModelClient(connection);
  // The image endpoint apart when it has a URL or a key of its own (its key falls back to the chat key, its URL to the chat URL).
  const imageClient = createImageClient(
    { baseURL: a.imageBaseUrl ?? process.env.TEAMFUSION_IMAGE_BASE_URL, apiKey: process.env.TEAMFUSION_IMAGE_API_KEY },
    { ...connection, apiKey: client.apiKey ?? undefined, baseURL: client.baseURL },
  );
  let prices;
  try {
    prices = await readPriceTable(process.env.TEAMFUSION_PRICES);
  } catch (err) {
    throw new RunRefusedError(errorMessage(err));
  }
  return {
    client,
    ...(a.textOnly ? { chat: new OpenAIChatBackend(client, { textOnly: true }) } : {}),
    ...(imageClient ? { images: new OpenAIImageBackend(imageClient) } : {}),
    ...(prices ? { prices } : {}),
    ...(sync ? { sync } : {}),
  };
}

function summary(r: RunRecord, dir: string) {
  const last = r.iterations.at(-1);
  return {
    id: r.id,
    task: r.task ?? 'design',
    status: r.status,
    runDir: dir,
    ...(r.task === 'brief' ? { brief: lastBriefRound(r)?.brief?.file ?? null, baseline: r.baseline ?? null } : {}),
    finalPick: r.finalPick ?? null,
    ranking: last?.ranking ?? null,
    iterations: r.iterations.length,
    remixes: r.iterations.flatMap((it) => remixesOf(it).map((m) => ({ id: m.id, file: m.file, iteration: it.index }))),
    usage: r.usage,
    kendallW: r.kendallW ?? null,
    error: r.error ?? null,
  };
}
