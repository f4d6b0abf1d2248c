/**
 * `teamfusion` command line (contract §3). Dispatches to one module per command; each returns its exit code.
 * Exit codes: 0 ok, 1 invalid input / failed, 2 usage, 3 waiting for a person, 130 cancelled.
 */
import { runValidate } from './commands/validate';
import { runAnalyze } from './commands/measure/analyze';
import { runImport } from './commands/import';
import { runRun } from './commands/run/run';
import { runRerank } from './commands/measure/rerank';
import { runForecast } from './commands/run/forecast';
import { runCompare } from './commands/measure/compare';
import { runCodeDiscussion } from './commands/team/codeDiscussion';
import { runEvaluate } from './commands/measure/evaluate';
import { runSay } from './commands/team/say';
import { runPin } from './commands/team/pin';
import { runVote } from './commands/team/vote';
import { runDecide } from './commands/team/decide';
import { runJudge } from './commands/measure/judge';
import { runCriteria } from './commands/measure/criteria';
import { runMcp } from './commands/mcp';
import { UsageError } from './usage';
import { canonicalCommand, commandHelp, commandNames, mainHelp, nearest, optionSuggestion } from './help';
import { RunRecordError } from '../core/record/store';
import { writeLine } from './output';
import { errorMessage } from '../core/kernel/errors';

type Command = (args: string[]) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  validate: runValidate,
  analyze: runAnalyze,
  import: runImport,
  run: runRun,
  rerank: runRerank,
  forecast: runForecast,
  compare: runCompare,
  'code-discussion': runCodeDiscussion,
  evaluate: runEvaluate,
  say: runSay,
  pin: runPin,
  vote: runVote,
  decide: (args) => runDecide(args),
  judge: runJudge,
  criteria: runCriteria,
  mcp: runMcp,
};

export async function main(argv: string[]): Promise<number> {
  const [given, ...rest] = argv;
  if (!given || given === '--help' || given === '-h' || given === 'help') {
    // No command at all is a usage error: the help goes to stderr then.
    (given ? process.stdout : process.stderr).write(mainHelp());
    return given ? 0 : 2;
  }
  if (given === '--version' || given === '-v') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  // British spellings (analyse) are the same command.
  const name = canonicalCommand(given) ?? given;
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    const near = nearest(given, commandNames());
    writeLine(process.stderr, `teamfusion: unknown command "${given}".${near ? ` Did you mean ${canonicalCommand(near) ?? near}?` : ''}`);
    process.stderr.write('See `teamfusion --help` for the commands.\n');
    return 2;
  }
  // Every command answers --help (before any of its own option parsing), on stdout, exit 0.
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(commandHelp(name) ?? mainHelp());
    return 0;
  }
  try {
    return await command(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      // One line, and where to read more: not the whole help.
      writeLine(process.stderr, `teamfusion ${name}: ${err.message}${optionSuggestion(name, err.message)}`);
      process.stderr.write(`See \`teamfusion ${name} --help\`.\n`);
      return 2;
    }
    if (err instanceof RunRecordError) {
      // A broken run record: its diagnostic lines (`runs/<id>/run.json:<line>:<col>: error: …`), nothing else.
      for (const line of err.message.split('\n')) writeLine(process.stderr, line);
      return 1;
    }
    // Never a stack trace for users; the message only.
    writeLine(process.stderr, `teamfusion ${name}: ${errorMessage(err)}`);
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
      writeLine(process.stderr, `teamfusion: ${errorMessage(err)}`);
      process.exitCode = 1;
    },
  );
}
