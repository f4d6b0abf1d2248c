/**
 * The CLI's help and its answers to mistakes, printed from the one table (helpTable.ts): the main help, each command's
 * own help (the same layout: usage, what it does, its options, its exit codes), and the nearest name for a mistyped
 * command or option ("did you mean analyze?").
 */
import { at, cell, num } from '../core/kernel/arrays';
import { COMMAND_HELP, EXIT_MEANING, type CommandHelp } from './helpTable';

const COLUMN = 24;

/** Two columns: the name padded to COLUMN, the text wrapped under itself at 120 characters. */
function twoColumns(rows: readonly [string, string][]): string[] {
  const width = Math.max(COLUMN, ...rows.map(([k]) => k.length + 4));
  return rows.flatMap(([k, text]) => {
    const lines: string[] = [];
    let line = '';
    for (const word of text.split(' ')) {
      if (line && width + line.length + 1 + word.length > 120) {
        lines.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    lines.push(line);
    return lines.map((l, i) => `${i === 0 ? `  ${k}`.padEnd(width) : ' '.repeat(width)}${l}`);
  });
}

function exitLine(codes: readonly number[]): string {
  return `Exit codes: ${codes.map((c) => `${c} ${EXIT_MEANING[c]}`).join(', ')}.`;
}

export function mainHelp(): string {
  const all = [...new Set(COMMAND_HELP.flatMap((c) => c.exits))].sort((a, b) => a - b);
  return [
    'Usage: teamfusion <command> [options]',
    '',
    'Commands:',
    ...twoColumns(COMMAND_HELP.map((c) => [c.name, c.summary])),
    '',
    'Each command: teamfusion <command> --help (its arguments, options and exit codes). British spellings work too (analyse).',
    '',
    exitLine(all),
    '',
  ].join('\n');
}

export function helpOf(name: string): CommandHelp | undefined {
  return COMMAND_HELP.find((c) => c.name === name);
}

/** `teamfusion <command> --help`: laid out as the main help is. Undefined for a name the table does not list. */
export function commandHelp(name: string): string | undefined {
  const c = helpOf(name);
  if (!c) return undefined;
  return [
    `Usage: teamfusion ${c.name} ${c.args}`,
    '',
    c.summary,
    ...(c.more ?? []),
    '',
    'Options:',
    ...twoColumns([...c.options, ['-h, --help', 'This help.']]),
    '',
    exitLine(c.exits),
    '',
  ].join('\n');
}

/** The command a name stands for: itself, or the command it is another spelling of. */
export function canonicalCommand(name: string): string | undefined {
  return COMMAND_HELP.find((c) => c.name === name || c.aliases?.includes(name))?.name;
}

/** Edit distance (insertions, deletions, substitutions, and swaps of two neighbours). */
export function editDistance(a: string, b: string): number {
  // Row 0 is 0..|b|; every other row starts at its own index.
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    i === 0 ? Array.from({ length: b.length + 1 }, (__, j) => j) : [i, ...Array<number>(b.length).fill(0)],
  );
  for (let i = 1; i <= a.length; i++) {
    const row = at(d, i);
    const up = at(d, i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(num(up, j) + 1, num(row, j - 1) + 1, num(up, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(num(row, j), cell(d, i - 2, j - 2) + 1);
    }
  }
  return cell(d, a.length, b.length);
}

/** The candidate nearest to `word` when it is near enough to be a slip (a third of its length, at least 2), else undefined. */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  let best: { c: string; d: number } | undefined;
  for (const c of candidates) {
    const d = c.startsWith(w) && w.length >= 3 ? 1 : editDistance(w, c);
    if (!best || d < best.d) best = { c, d };
  }
  return best && best.d <= Math.max(2, Math.floor(w.length / 3)) ? best.c : undefined;
}

/** Every name a command answers to, for suggestions. */
export function commandNames(): string[] {
  return COMMAND_HELP.flatMap((c) => [c.name, ...(c.aliases ?? [])]);
}

/** The option names of a command (`--json`, …) for suggestions. */
export function optionNames(name: string): string[] {
  return [...(helpOf(name)?.options ?? []).flatMap(([flag]) => flag.split(/[ ,]/).filter((f) => f.startsWith('--'))), '--help'];
}

/** "unknown option --jsn." → " (did you mean --json?)" when one is near; '' otherwise. */
export function optionSuggestion(name: string, message: string): string {
  const m = /unknown option '?(--?[^'\s=]+?)'?[.=\s]/i.exec(`${message} `);
  const flag = m?.[1];
  if (flag === undefined) return '';
  const near = nearest(flag.replace(/\.$/, ''), optionNames(name));
  return near ? ` Did you mean ${near}?` : '';
}
