/** `formatAnalysisTable`: the analysis as a plain-text report for a terminal (fixed-width columns, no colour). */
import { printable } from '../../kernel/text';
import type { Analysis } from './analysis';
import { contestedBand } from '../election/perOption';
import { tiersText } from '../election/consensus';
import { bandWords } from './sentence';

function fixed(x: number, digits: number): string {
  // avoid "-0.00"
  const s = x.toFixed(digits);
  return /^-0\.0*$/.test(s) ? s.slice(1) : s;
}

function pText(p: number): string {
  return p < 0.0001 ? p.toExponential(2) : fixed(p, 4);
}

/**
 * Lays out rows as columns: by default the first column left-aligned, the others right-aligned. Every cell is escaped
 * BEFORE the layout (a line break in a designer's name is `\n` in its cell), so a name can neither forge a line nor
 * push its column out of line.
 */
function table(rawHeader: string[], rawRows: string[][], leftAligned: number[] = [0]): string[] {
  const header = rawHeader.map((cell) => printable(cell));
  const rows = rawRows.map((r) => r.map((cell) => printable(cell)));
  const indent = '  ';
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: string[]): string =>
    indent +
    cells
      .map((cell, c) => (leftAligned.includes(c) ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

function ordinalSuffix(n: number): string {
  if (n % 100 >= 11 && n % 100 <= 13) return 'th';
  return ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
}

export function formatAnalysisTable(a: Analysis): string {
  const k = a.kendall;
  const n = a.options.length;
  const out: string[] = [];
  const m = a.designers.length;
  out.push(`Agreement of ${m} designer${m === 1 ? '' : 's'} on ${n} options`);
  out.push('');
  out.push(`  ${k.sentence}`);
  out.push('');
  out.push(
    ...table(
      ['Statistic', 'Value'],
      [
        ["Kendall's W (tie-corrected)", fixed(k.w, 4)],
        ["Kendall's W (uncorrected)", fixed(k.wUncorrected, 4)],
        ['Agreement band', bandWords(k.band)],
        [`Chi-square (df ${k.df})`, fixed(k.chiSquare, 4)],
        ['p (chi-square)', pText(k.pValue)],
        [`p (permutation, N = ${k.permutations}, seed ${k.seed})`, pText(k.pPermutation)],
      ],
    ),
  );
  out.push('');
  out.push('Consensus ranking (Borda: points = n − average rank, summed over designers)');
  const weighted = new Map(a.weightedBorda.map((e) => [e.option, e]));
  out.push(
    ...table(
      ['Option', 'Position', 'Points', 'Weighted position', 'Weighted points'],
      a.borda.map((e) => {
        const w = weighted.get(e.option);
        return [e.option, String(e.position), fixed(e.points, 2), w ? String(w.position) : '', w ? fixed(w.points, 2) : ''];
      }),
    ),
  );
  out.push('');
  out.push(...schulzeLines(a));
  out.push('');
  const third = contestedBand(n);
  const top = third === 1 ? 'ranked 1st' : `in the top ${third}`;
  const bottom = third === 1 ? `ranked ${n}${ordinalSuffix(n)}` : `in the bottom ${third}`;
  out.push(`Per option (average ranks; SD over designers; contested = ${top} by someone and ${bottom} by someone else)`);
  out.push(
    ...table(
      ['Option', 'Mean rank', 'SD', 'Best', 'Worst', 'Contested'],
      a.perOption.map((o) => [
        o.option,
        fixed(o.meanRank, 2),
        fixed(o.sd, 2),
        fixed(o.min, 1),
        fixed(o.max, 1),
        o.contested ? 'yes' : 'no',
      ]),
    ),
  );
  out.push('');
  out.push('Designers');
  out.push(
    ...table(
      ['Id', 'Name', 'Role', 'Weight'],
      a.designers.map((d) => [d.id, d.name, d.role ?? '', String(d.weight)]),
      [0, 1, 2],
    ),
  );
  out.push('');
  out.push("Pairwise agreement between designers (Kendall's tau-b, −1 to 1)");
  const ids = a.pairwise.designers;
  for (const line of table(
    ['', ...ids],
    ids.map((id, r) => [id, ...a.pairwise.tau[r]!.map((t) => fixed(t, 2))]),
  ))
    out.push(line);
  out.push('');
  if (a.outlier) {
    out.push(`Outlier: ${a.outlier.designer} agrees least with the others (mean tau-b ${fixed(a.outlier.meanTau, 2)}).`);
  } else if (ids.length < 3) {
    out.push('Outlier: not determined (needs at least three designers).');
  } else {
    out.push('Outlier: none (every designer agrees equally with the others).');
  }
  // Each entry is one line: whatever a name holds, it stays on it.
  return out.map((l) => printable(l)).join('\n') + '\n';
}

/** The Schulze order (ties as "="), and the sentence where it differs from Borda. */
function schulzeLines(a: Analysis): string[] {
  const weighted = a.designers.some((d) => d.weight !== 1);
  const out = [`Consensus ranking (Schulze: pairwise majorities, strongest paths${weighted ? '; designers count with their weight' : ''})`];
  out.push(`  ${tiersText(a.schulze.ranking)}`);
  out.push(`  ${a.schulze.sentence ?? `Schulze agrees with ${weighted ? 'the weighted ' : ''}Borda.`}`);
  return out;
}
