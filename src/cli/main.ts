/**
 * `teamfusion` command line (contract §3). Dispatches to one module per command; each returns its exit code.
 * Exit codes: 0 ok, 1 invalid input / failed, 2 usage, 3 waiting for a person, 130 cancelled.
 */
import { runValidate } from './commands/validate';
import { runAnalyze } from './commands/analyze';
import { runImport } from './commands/import';
import { runRun } from './commands/run';
import { runRerank } from './commands/rerank';
import { runCompare } from './commands/compare';
import { runCodeDiscussion } from './commands/codeDiscussion';
import { runEvaluate } from './commands/evaluate';
import { runSay } from './commands/say';
import { runPin } from './commands/pin';
import { runVote } from './commands/vote';
import { runDecide } from './commands/decide';
import { runJudge } from './commands/judge';
import { runCriteria } from './commands/criteria';
import { USAGE, UsageError, commandUsage } from './usage';
import { RunRecordError } from '../core/record/store';
import { printable, writeLine } from './output';

type Command = (args: string[]) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  validate: runValidate,
  analyze: runAnalyze,
  import: runImport,
  run: runRun,
  rerank: runRerank,
  compare: runCompare,
  'code-discussion': runCodeDiscussion,
  evaluate: runEvaluate,
  say: runSay,
  pin: runPin,
  vote: runVote,
  decide: (args) => runDecide(args),
  judge: runJudge,
  criteria: runCriteria,
};

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(USAGE);
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`teamfusion: unknown command "${printable(name)}".\n\n${USAGE}`);
    return 2;
  }
  // Every command answers --help (before any of its own option parsing), on stdout, exit 0.
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(commandUsage(name) ?? USAGE);
    return 0;
  }
  try {
    return await command(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`${printable(`teamfusion ${name}: ${err.message}`)}\n\n${USAGE}`);
      return 2;
    }
    if (err instanceof RunRecordError) {
      // A broken run record: its diagnostic lines (`runs/<id>/run.json:<line>:<col>: error: …`), nothing else.
      for (const line of err.message.split('\n')) writeLine(process.stderr, line);
      return 1;
    }
    // Never a stack trace for users; the message only.
    writeLine(process.stderr, `teamfusion ${name}: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

declare const __TEAMFUSION_VERSION__: string | undefined;
const VERSION = typeof __TEAMFUSION_VERSION__ === 'string' ? __TEAMFUSION_VERSION__ : 'dev';

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      writeLine(process.stderr, `teamfusion: ${err instanceof Error ? err.message : String(err)}`);
      process.exitCode = 1;
    },
  );
}
