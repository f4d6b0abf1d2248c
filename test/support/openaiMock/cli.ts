/**
 * Runs the mock OpenAI server until SIGTERM/SIGINT (for e2e tests, manual runs, benchmarks and the scripted demo).
 *
 *   node out/test/support/openaiMock/cli.js [--port N] [--latency MS] [--no-strict] [--label TEXT] [--from-run] [--quiet]
 *
 * --label TEXT starts every plain chat answer with TEXT (e.g. "(scripted)"), so a transcript made against this server can never
 * be mistaken for a real discussion (`npm run demo` uses it).
 * --from-run answers from the run itself (runAnswers.ts: each proxy from its designer's ranking, the consensus from the
 * round's orders, remixes blended from their sources) instead of the canned answers; `npm run demo` and
 * `npm run scripted-server` use it.
 * --quiet prints nothing but the first line.
 *
 * First stdout line: OPENAI_BASE_URL=http://127.0.0.1:PORT/v1 ; then one line per request (unless --quiet).
 */
import { z } from 'zod';
import { MockOpenAI } from './index';
import { defaultReply } from './autoResponder';
import { runFallback } from './runAnswers';

// The rules the demo's scripted members answer a blind set by, for `npm run demo` (scripts/demo.mjs) to require from the bundle.
export { memberPreference } from './forecastAnswers';
export { scriptedBlindRankings } from './scriptedBlind';

const CliArgs = z.object({
  port: z.coerce.number().int().min(0).max(65535).default(0),
  latency: z.coerce.number().int().min(0).max(600_000).default(0),
  strict: z.boolean().default(true),
  label: z.string().min(1).max(80).optional(),
  fromRun: z.boolean().default(false),
  quiet: z.boolean().default(false),
});
type CliArgs = z.infer<typeof CliArgs>;

const USAGE =
  'Usage: node out/test/support/openaiMock/cli.js [--port N] [--latency MS] [--no-strict] [--label TEXT] [--from-run] [--quiet]';

export function parseCliArgs(argv: string[]): CliArgs {
  const raw: Record<string, unknown> = {};
  for (let i = 0, arg = argv[0]; arg !== undefined; arg = argv[++i]) {
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    if (name === '--no-strict') raw.strict = false;
    else if (name === '--strict') raw.strict = true;
    else if (name === '--from-run') raw.fromRun = true;
    else if (name === '--quiet') raw.quiet = true;
    else if (name === '--port' || name === '--latency' || name === '--label') {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new Error(`${name} needs a value.`);
      raw[name.slice(2)] = value;
    } else if (name === '--help' || name === '-h') throw new Error(USAGE);
    else throw new Error(`Unknown option ${arg}.`);
  }
  const parsed = CliArgs.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(issue ? `Invalid --${issue.path.join('.')}: ${issue.message}.` : USAGE);
  }
  return parsed.data;
}

async function main(): Promise<void> {
  let args: CliArgs;
  try {
    args = parseCliArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  const mock = await MockOpenAI.start({
    port: args.port,
    latencyMs: args.latency,
    strict: args.strict,
    // The bundled scripted server always names itself, so every run made against it is recorded as scripted.
    scripted: true,
    ...(args.quiet ? {} : { onLog: (line: string) => process.stdout.write(`${line}\n`) }),
  });
  const label = args.label;
  if (args.fromRun) mock.setFallback(runFallback(label ?? 'Scripted reply:'));
  else if (label) {
    mock.setFallback((req) => {
      const reply = defaultReply(req);
      return reply.kind === 'chat' ? { ...reply, content: `${label} ${reply.content}` } : reply;
    });
  }
  process.stdout.write(`OPENAI_BASE_URL=${mock.baseURL}\n`);
  if (!args.quiet)
    process.stderr.write(
      `Mock OpenAI server listening (latency ${args.latency} ms, ${args.strict ? 'strict' : 'lenient'} spec checks against ${mock.specSource}).\n`,
    );
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    mock.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`The mock server could not start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
