#!/usr/bin/env node
// Writes the help blocks of docs/cli.md from the CLI's own help: `node dist/cli.js --help` and `node dist/cli.js <command>
// --help` for every command the main help lists (run `npm run build` first). Everything above the first help section is
// kept as written. test/unit/cli/cliDocs.test.ts fails when docs/cli.md and the CLI's help differ; this script mends it.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(repo, 'dist', 'cli.js');
const file = join(repo, 'docs', 'cli.md');

const help = (...args) => {
  const r = spawnSync(process.execPath, [cli, ...args, '--help'], { cwd: repo, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`teamfusion ${[...args, '--help'].join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.stdout.replace(/\s+$/, '');
};

/** The commands the main help lists: its lines that start with two spaces and a command name. */
export const commandsOf = (mainHelp) => [...mainHelp.matchAll(/^ {2}([a-z][a-z-]*)\b/gm)].map((m) => m[1]);

const main = help();
const sections = [['--help', 'teamfusion --help', main], ...commandsOf(main).map((c) => [c, `teamfusion ${c}`, help(c)])];
const text = readFileSync(file, 'utf8');
const head = text.slice(0, text.indexOf('<!-- help:') >= 0 ? text.indexOf('<!-- help:') : text.length).replace(/\s*$/, '\n\n');
const body = sections.map(([key, title, out]) => `<!-- help: ${key} -->\n## \`${title}\`\n\n\`\`\`text\n${out}\n\`\`\`\n`).join('\n');
writeFileSync(file, head + body);
process.stdout.write(`docs/cli.md: ${sections.length} help sections written.\n`);
