/**
 * A CLI that helps: British spellings of commands work, a mistyped command or option gets the nearest name, a usage
 * mistake is one line plus where to read more, and each command's --help (printed from the one table, helpTable.ts) lists
 * exactly the options that command takes, in the main help's layout.
 */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { useBuiltCli, REPO_ROOT } from './buildCli';
import { COMMAND_HELP } from '../../../src/cli/helpTable';
import { nearest } from '../../../src/cli/help';

const SAMPLE = path.join(REPO_ROOT, 'samples', 'lumen-perfume');

describe('CLI help and mistakes', function () {
  this.timeout(120_000);
  const { run } = useBuiltCli();

  it('analyse is analyze', async () => {
    const british = await run('analyse', SAMPLE, '--json');
    const american = await run('analyze', SAMPLE, '--json');
    assert.equal(british.code, 0, british.stderr);
    assert.equal(british.stdout, american.stdout);
    assert.equal((await run('analyse', '--help')).stdout, (await run('analyze', '--help')).stdout);
  });

  it('an unknown command: one line naming the nearest, where to look, exit 2 — not the whole help', async () => {
    const r = await run('analize', SAMPLE);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, 'teamfusion: unknown command "analize". Did you mean analyze?\nSee `teamfusion --help` for the commands.\n');
    const far = await run('xyzzy');
    assert.equal(far.code, 2);
    assert.doesNotMatch(far.stderr, /Did you mean/);
  });

  it('an unknown option: one line with the nearest option of that command, and its --help', async () => {
    const a = await run('analyze', SAMPLE, '--jsn');
    assert.equal(a.code, 2);
    assert.equal(a.stderr, "teamfusion analyze: Unknown option '--jsn'. Did you mean --json?\nSee `teamfusion analyze --help`.\n");
    const r = await run('run', SAMPLE, '--iteratons', '2');
    assert.equal(r.code, 2);
    assert.equal(r.stderr, 'teamfusion run: unknown option --iteratons. Did you mean --iterations?\nSee `teamfusion run --help`.\n');
  });

  it("each command's --help: usage, what it does, its options, its exit codes, as the main help is laid out", async () => {
    const main = await run('--help');
    assert.equal(main.code, 0);
    for (const c of COMMAND_HELP) {
      assert.match(main.stdout, new RegExp(`^  ${c.name} +\\S`, 'm'), c.name);
      const r = await run(c.name, '--help');
      assert.equal(r.code, 0, c.name);
      const lines = r.stdout.split('\n');
      assert.equal(lines[0], `Usage: teamfusion ${c.name} ${c.args}`);
      assert.equal(lines[2], c.summary);
      const options = lines.slice(lines.indexOf('Options:') + 1, lines.indexOf('', lines.indexOf('Options:')));
      const flags = options.filter((l) => /^ {2}-/.test(l)).map((l) => l.trim().split(/ {2,}/)[0]);
      assert.deepEqual(flags, [...c.options.map(([f]) => f), '-h, --help'], c.name);
      const starts = options.map((l) => /^ {2}\S+(?: \S+)* {2,}|^ +/.exec(l)![0].length);
      assert.equal(new Set(starts).size, 1, `${c.name}: the descriptions start in one column`);
      assert.match(r.stdout, new RegExp(`\\nExit codes: ${c.exits.map((e) => `${e} [^,]+`).join(', ')}\\.\\n$`));
    }
  });

  it("every option a command's help lists is one the command takes (none is refused as unknown)", async () => {
    // All of a command's options in one call, each with a value where its help shows one ("--turns N"): the strict parser
    // names the first option it does not know, so one call per command finds any.
    for (const c of COMMAND_HELP.filter((h) => h.options.length > 0)) {
      const args = c.options.flatMap(([flag]) => {
        const [name, placeholder] = flag.split(/[ ,]+/);
        return placeholder ? [name!, 'x'] : [name!];
      });
      const r = await run(c.name, ...args);
      assert.doesNotMatch(r.stderr, /unknown option/i, `${c.name} ${args.join(' ')}: ${r.stderr}`);
      assert.notEqual(r.code, null, `${c.name} ${args.join(' ')} did not end`);
    }
    // The check can fail: an option the command does not take is named.
    const planted = await run('analyze', '--json', '--permutations', 'x', '--colour', '--seed', 'x');
    assert.match(planted.stderr, /Unknown option '--colour'/);
  });

  it('the nearest name is only a near one', () => {
    assert.equal(nearest('evalute', ['evaluate', 'validate']), 'evaluate');
    assert.equal(nearest('comapre', ['compare', 'judge']), 'compare');
    assert.equal(nearest('eval', ['evaluate', 'validate']), 'evaluate');
    assert.equal(nearest('banana', ['evaluate', 'validate', 'run']), undefined);
  });
});
