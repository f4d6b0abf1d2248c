/**
 * `teamfusion` command line (contract §3). Dispatches to one module per command; each returns its exit code.
 * Exit codes: 0 ok, 1 invalid input / failed, 2 usage, 3 waiting for a person, 130 cancelled.
 * A command's module is loaded when it runs (esbuild keeps each one's top-level work for that moment): `--help`, a usage
 * error or one command pays for nothing else.
 */
import { UsageError } from './usage';
import { canonicalCommand, commandHelp, commandNames, mainHelp, nearest, optionSuggestion } from './help';
import { writeLine } from './output';
import { errorMessage } from '../core/kernel/errors';
import { RunRecordError } from '../core/diagnostics/diagnostics';

type Command = (args: string[]) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  validate: async (args) => (await import('./commands/validate.js')).runValidate(args),
  analyze: async (args) => (await import('./commands/measure/analyze.js')).runAnalyze(args),
  import: async (args) => (await import('./commands/import.js')).runImport(args),
  run: async (args) => (await import('./commands/run/run.js')).runRun(args),
  rerank: async (args) => (await import('./commands/measure/rerank.js')).runRerank(args),
  forecast: async (args) => (await import('./commands/run/forecast.js')).runForecast(args),
  compare: async (args) => (await import('./commands/measure/compare.js')).runCompare(args),
  'code-discussion': async (args) => (await import('./commands/team/codeDiscussion.js')).runCodeDiscussion(args),
  evaluate: async (args) => (await import('./commands/measure/evaluate.js')).runEvaluate(args),
  say: async (args) => (await import('./commands/team/say.js')).runSay(args),
  pin: async (args) => (await import('./commands/team/pin.js')).runPin(args),
  vote: async (args) => (await import('./commands/team/vote.js')).runVote(args),
  decide: async (args) => (await import('./commands/team/decide.js')).runDecide(args),
  judge: async (args) => (await import('./commands/measure/judge.js')).runJudge(args),
  criteria: async (args) => (await import('./commands/measure/criteria.js')).runCriteria(args),
  mcp: async (args) => (await import('./commands/mcp.js')).runMcp(args),
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
