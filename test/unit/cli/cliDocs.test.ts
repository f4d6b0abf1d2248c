/**
 * docs/cli.md is the CLI's own help: for the main help and for every command it lists, the section `<!-- help: <name> -->`
 * holds exactly what `teamfusion <name> --help` prints (stdout, exit 0). When the help changes, `node scripts/cli-docs.mjs`
 * (after `npm run build`) rewrites the sections; until then this test names the command whose help and docs differ.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT, useBuiltCli } from './buildCli';

const CLI_MD = path.join(REPO_ROOT, 'docs', 'cli.md');

/** The help blocks of docs/cli.md by name: the fenced text block that follows each `<!-- help: name -->` marker. */
function documentedHelp(markdown: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of markdown.matchAll(/<!-- help: (\S+) -->\n## [^\n]*\n\n```text\n([\s\S]*?)\n```\n/g)) out.set(m[1]!, m[2]!);
  return out;
}

/** The commands the main help lists (its lines that start with two spaces and a command name). */
const commandsOf = (mainHelp: string): string[] => [...mainHelp.matchAll(/^ {2}([a-z][a-z-]*)\b/gm)].map((m) => m[1]!);

describe('docs/cli.md is the CLI help, section for section', function () {
  this.timeout(120_000);
  const built = useBuiltCli();

  it('has the main help and one section per command it lists, each exactly what --help prints, and nothing else', async () => {
    const documented = documentedHelp(readFileSync(CLI_MD, 'utf8'));
    const main = await built.run('--help');
    assert.equal(main.code, 0, main.stderr);
    const commands = commandsOf(main.stdout);
    assert.ok(
      commands.includes('validate') && commands.includes('run') && commands.includes('evaluate'),
      `commands read from the help: ${commands.join(', ')}`,
    );
    assert.deepEqual(
      [...documented.keys()].sort(),
      ['--help', ...commands].sort(),
      'docs/cli.md has a section for exactly the main help and each command',
    );
    const differ: string[] = [];
    for (const name of ['--help', ...commands]) {
      const r = name === '--help' ? main : await built.run(name, '--help');
      assert.equal(r.code, 0, `${name} --help: exit ${r.code} ${r.stderr}`);
      if (r.stdout.replace(/\s+$/, '') !== documented.get(name)) differ.push(name);
    }
    assert.deepEqual(
      differ,
      [],
      `docs/cli.md differs from the help of: ${differ.join(', ')} (node scripts/cli-docs.mjs after npm run build)`,
    );
  });

  it('reads a section only under its own marker and heading (a block elsewhere does not count)', () => {
    const md =
      '<!-- help: a -->\n## `teamfusion a`\n\n```text\nUsage: a\n```\n\n```text\nstray\n```\n<!-- help: b -->\n## `teamfusion b`\n\n```text\nUsage: b\nline 2\n```\n';
    assert.deepEqual(
      [...documentedHelp(md)],
      [
        ['a', 'Usage: a'],
        ['b', 'Usage: b\nline 2'],
      ],
    );
  });
});
