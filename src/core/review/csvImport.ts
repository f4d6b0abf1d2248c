/**
 * importRankingsCsv: a spreadsheet export → one ranking file per designer in <review>/rankings/.
 *
 * CSV format (one row per designer, first row = column names, any column order):
 *   designer            required  display name, e.g. "Ana Ruiz"
 *   id                  optional  designer id = ranking file name (letters, digits, - _ .); default: the designer
 *                                 name as a slug ("Ana Ruiz" → ana-ruiz)
 *   role                optional  e.g. Art Director
 *   weight              optional  number > 0 (default 1)
 *   rank:<option>       required for every option id in options/, e.g. rank:4 — a whole number >= 1 (1 = best)
 *   justification:<option>  required for every option id, e.g. justification:4 — a sentence
 * Example header:  designer,role,weight,rank:1,justification:1,rank:2,justification:2
 * Separators: comma, or semicolon / tab when the header uses those (European Excel, TSV). A UTF-8 BOM is fine;
 * quoted cells may contain commas and line breaks. Blank rows are skipped.
 *
 * Diagnostics name the CSV file as given, with line = the line of the row in the file (1-based) and column = the
 * spreadsheet column number of the cell (1 = A); 0 when the problem is the whole row or file.
 * All or nothing: when any error is found nothing is written. A ranking file that already exists (as .yaml, .yml
 * or .json) is skipped with a warning unless `force`, which rewrites it in its own format. Every generated file is
 * checked with validateRankingText before it is written, and written atomically (temporary file + rename).
 */
import * as path from 'node:path';
import type * as CsvSync from 'csv-parse/sync';
import type { RankingEntry } from './model';
import type { Diagnostic } from '../diagnostics/diagnostics';
import { capPerFile, error, hasErrors, sortDiagnostics, warning } from '../diagnostics/diagnostics';
import { naturalCompare } from '../kernel/naturalOrder';
import { loadOptions } from './options';
import { validateRankingText } from '../rankings/rankingText';
import { formatRankingJson, formatRankingYaml } from '../rankings/rankingWriter';
import { didYouMean } from '../rankings/suggest';
import { DESIGNER_ID_PATTERN, designerIdFromName, designerKey } from '../rankings/designerId';
import { listInReview, readNamedFile, readReviewBytes, ReviewFileError } from '../files/reviewFiles';
import { checkWritable } from '../files/reviewWrites';
import { writeKindFile } from '../files/writeCaps';
import { FILE_KINDS } from '../files/fileKinds';
import { firstInvalidUtf8 } from '../files/textFile';

export interface CsvImportResult {
  /** Paths relative to the review root, e.g. "rankings/ana.yaml". */
  written: string[];
  skipped: string[];
  diagnostics: Diagnostic[];
}

interface CsvRow {
  line: number;
  cells: string[];
}

function columnLetter(index: number): string {
  let n = index + 1;
  let s = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

function detectDelimiter(text: string): string {
  const header = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const count = (c: string): number => header.split(c).length - 1;
  if (count(',') > 0) return ',';
  if (count(';') > 0) return ';';
  if (count('\t') > 0) return '\t';
  return ',';
}

/** Reports a problem at a line and column of the CSV. */
type At = (line: number, col: number, message: string) => void;
type RankingData = Parameters<typeof formatRankingYaml>[0];
interface Planned {
  id: string;
  line: number;
  data: RankingData;
}
/** Where each known column is (-1: absent), and the rank and justification column of each option. */
interface Columns {
  col: { designer: number; id: number; role: number; weight: number };
  rankCol: Map<string, number>;
  justCol: Map<string, number>;
}

export async function importRankingsCsv(csvPath: string, reviewRoot: string, opts: { force: boolean }): Promise<CsvImportResult> {
  const file = csvPath.split(path.sep).join('/');
  const diagnostics: Diagnostic[] = [];
  const done = (): CsvImportResult => ({ written: [], skipped: [], diagnostics: capPerFile(sortDiagnostics(diagnostics)) });
  const at: At = (line, col, message) => {
    diagnostics.push(error(file, message, line, col));
  };

  // The review's option ids.
  const options = await loadOptions(path.resolve(reviewRoot), false);
  if (!options.ids || hasErrors(options.diagnostics)) {
    for (const d of options.diagnostics) if (d.severity === 'error') diagnostics.push(d);
    diagnostics.push(error(file, "The review's options/ folder has problems (listed above); fix them before importing rankings."));
    return done();
  }
  const optionIds = options.ids;

  const rows = await readCsvRows(csvPath, reviewRoot, file, at);
  if (rows === undefined) return done();
  const [header, ...body] = rows;
  if (header === undefined) {
    at(0, 0, `${file} has no rows.`);
    return done();
  }
  const columns = readHeader(header, optionIds, file, diagnostics, at);
  if (hasErrors(diagnostics)) return done();
  if (body.length === 0) {
    at(header.line, 0, `${file} has column names but no designer rows.`);
    return done();
  }

  // Rows → rankings.
  const planned: Planned[] = [];
  const idLine = new Map<string, number>();
  for (const row of body) {
    const before = diagnostics.length;
    const p = rowRanking(row, columns, optionIds, idLine, at);
    if (diagnostics.length > before && hasErrors(diagnostics.slice(before))) continue;
    planned.push(p);
  }
  if (hasErrors(diagnostics)) return done();
  return writeRankings(planned, path.resolve(reviewRoot), optionIds, file, opts.force, diagnostics, at);
}

/** The CSV's non-blank rows with the file line each starts on; undefined once a problem is reported. */
async function readCsvRows(csvPath: string, reviewRoot: string, file: string, at: At): Promise<CsvRow[] | undefined> {
  let bytes: Buffer;
  try {
    // A CSV inside the review is a file of the review, so untrusted like the rest: read through the room (contained,
    // a link out refused). One the user keeps elsewhere is theirs, read as named (still regular, non-blocking, capped).
    const rel = path.relative(path.resolve(reviewRoot), path.resolve(csvPath));
    const inReview = rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
    bytes = inReview
      ? await readReviewBytes(reviewRoot, rel, FILE_KINDS.csv.maxBytes)
      : await readNamedFile(csvPath, file, FILE_KINDS.csv.maxBytes);
  } catch (err) {
    if (!(err instanceof ReviewFileError)) throw err;
    if (err.reason === 'missing') at(0, 0, `${file} does not exist or cannot be read.`);
    else if (err.reason === 'not-regular' && /a folder/.test(err.message)) at(0, 0, `${file} is a folder; give the path of a .csv file.`);
    else at(0, 0, err.message);
    return undefined;
  }
  if (firstInvalidUtf8(bytes) >= 0) {
    at(0, 0, `${file} is not UTF-8 text. In your spreadsheet, export as "CSV UTF-8".`);
    return undefined;
  }
  const text = bytes.toString('utf8');
  if (text.replace(/^\uFEFF/, '').trim() === '') {
    at(0, 0, `${file} is empty. The first row must name the columns: designer, rank:<option>, justification:<option>.`);
    return undefined;
  }
  return parseCsvRows(text, file, at);
}

function parseCsvRows(text: string, file: string, at: At): CsvRow[] | undefined {
  try {
    // Loaded on first use (an import is rare): dist/csv-parse.js in the bundles, see esbuild.mjs.
    const { parse } = require('csv-parse/sync') as typeof CsvSync;
    const records = parse(text, {
      bom: true,
      delimiter: detectDelimiter(text),
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      raw: true,
      info: true,
    }) as unknown as { record: string[]; raw: string; info: { lines: number } }[];
    return records
      .map((r) => {
        const body = r.raw.replace(/^(?:[ \t]*\r?\n)+/, '').replace(/\r?\n$/, '');
        return { line: r.info.lines - (body.split('\n').length - 1), cells: r.record };
      })
      .filter((r) => r.cells.some((c) => c !== ''));
  } catch (err) {
    const line = typeof err === 'object' && err !== null && 'lines' in err && typeof err.lines === 'number' ? err.lines : 0;
    const reason = err instanceof Error ? err.message.replace(/^Invalid Record Length:.*$/, '').split(/[:.]/)[0] : '';
    at(line, 0, `${file} could not be read as CSV (${reason || 'bad quoting'}). Check the quotes in this row.`);
    return undefined;
  }
}

/** The header row's columns; unknown options, twice-named and missing columns are reported, unknown names warned. */
function readHeader(header: CsvRow, optionIds: readonly string[], file: string, diagnostics: Diagnostic[], at: At): Columns {
  const columns = header.cells.map((c) => c.trim());
  const col = { designer: -1, id: -1, role: -1, weight: -1 };
  const rankCol = new Map<string, number>();
  const justCol = new Map<string, number>();
  columns.forEach((name, i) => {
    const lower = name.toLowerCase();
    const m = /^(rank|justification)\s*:\s*(.+)$/i.exec(name);
    if (m) {
      const [, kindWord = '', optionWord = ''] = m;
      const kind = kindWord.toLowerCase();
      const option = optionWord.trim();
      const where = `column ${columnLetter(i)}, "${name}"`;
      if (!optionIds.includes(option)) {
        at(header.line, i + 1, `There is no option "${option}" in options/ (${where}).${didYouMean(option, optionIds)}`);
        return;
      }
      const map = kind === 'rank' ? rankCol : justCol;
      if (map.has(option)) {
        at(header.line, i + 1, `The column "${name}" appears twice; keep one.`);
        return;
      }
      map.set(option, i);
      return;
    }
    if (lower in col) {
      const key = lower as keyof typeof col;
      if (col[key] >= 0) at(header.line, i + 1, `The column "${name}" appears twice; keep one.`);
      else col[key] = i;
      return;
    }
    if (name !== '') {
      diagnostics.push(
        warning(file, `The column "${name}" (column ${columnLetter(i)}) is not a known column and is ignored.`, header.line, i + 1),
      );
    }
  });
  if (col.designer < 0) at(header.line, 0, 'The first row needs a "designer" column with each designer\'s name.');
  const missingRank = optionIds.filter((o) => !rankCol.has(o));
  const missingJust = optionIds.filter((o) => !justCol.has(o));
  if (missingRank.length > 0) {
    at(
      header.line,
      0,
      `Add a column for every option's rank: ${missingRank.map((o) => `"rank:${o}"`).join(', ')} ${missingRank.length === 1 ? 'is' : 'are'} missing.`,
    );
  }
  if (missingJust.length > 0) {
    at(
      header.line,
      0,
      `Add a column for every option's justification: ${missingJust.map((o) => `"justification:${o}"`).join(', ')} ${missingJust.length === 1 ? 'is' : 'are'} missing.`,
    );
  }
  return { col, rankCol, justCol };
}

/** One designer row as a ranking; its problems are reported (the caller drops a row with errors). */
function rowRanking(row: CsvRow, columns: Columns, optionIds: readonly string[], idLine: Map<string, number>, at: At): Planned {
  const { col } = columns;
  const cell = (i: number): string => (i >= 0 ? (row.cells[i] ?? '').trim() : '');
  const designer = cell(col.designer);
  if (designer === '') at(row.line, col.designer + 1, 'The designer name is empty in this row.');
  let id = col.id >= 0 && cell(col.id) !== '' ? cell(col.id) : designerIdFromName(designer);
  if (col.id >= 0 && cell(col.id) !== '' && !DESIGNER_ID_PATTERN.test(id)) {
    at(row.line, col.id + 1, `The id "${id}" cannot be a file name; use letters, digits, "-", "_" or "." (no spaces or slashes).`);
    id = '';
  } else if (designer !== '' && id === '') {
    at(row.line, col.designer + 1, `No file name can be made from "${designer}"; fill in the id column for this row.`);
  }
  if (id !== '') {
    const other = idLine.get(designerKey(id));
    if (other !== undefined) {
      at(
        row.line,
        (col.id >= 0 && cell(col.id) !== '' ? col.id : col.designer) + 1,
        `The designer id "${id}" is used twice (also on line ${other}); give each designer their own id.`,
      );
    } else {
      idLine.set(designerKey(id), row.line);
    }
  }
  const role = cell(col.role);
  let weight: number | undefined;
  const weightText = cell(col.weight);
  if (weightText !== '') {
    const w = Number(weightText.replace(',', '.'));
    if (!Number.isFinite(w) || w <= 0) at(row.line, col.weight + 1, `The weight must be a number greater than 0 (found "${weightText}").`);
    else weight = w;
  }
  const entries = rowEntries(row.line, cell, columns, optionIds, at);
  entries.sort((a, b) => a.rank - b.rank || naturalCompare(a.option, b.option));
  const data: RankingData = { designer, ranking: entries };
  if (role !== '') data.role = role;
  if (weight !== undefined) data.weight = weight;
  return { id, line: row.line, data };
}

/** A row's rank and justification of every option, in option order; empty or bad cells reported. */
function rowEntries(line: number, cell: (i: number) => string, columns: Columns, optionIds: readonly string[], at: At): RankingEntry[] {
  const entries: RankingEntry[] = [];
  for (const option of optionIds) {
    const ri = columns.rankCol.get(option)!;
    const ji = columns.justCol.get(option)!;
    const rankText = cell(ri);
    const justification = cell(ji);
    const rank = /^\d+$/.test(rankText) ? Number(rankText) : NaN;
    if (!(Number.isInteger(rank) && rank >= 1)) {
      at(
        line,
        ri + 1,
        rankText === ''
          ? `The rank of option "${option}" is empty (column ${columnLetter(ri)}). Write a whole number of 1 or more (1 = best).`
          : `The rank of option "${option}" must be a whole number of 1 or more (found "${rankText}", column ${columnLetter(ri)}).`,
      );
    }
    if (justification === '') {
      at(line, ji + 1, `The justification of option "${option}" is empty (column ${columnLetter(ji)}). Write why it has this rank.`);
    }
    entries.push({ option, rank, justification });
  }
  return entries;
}

/** Writes the planned rankings (all rows are valid). An existing ranking for the same designer (by the one id rule, any
 * extension) is kept unless `force`. */
async function writeRankings(
  planned: readonly Planned[],
  root: string,
  optionIds: string[],
  file: string,
  force: boolean,
  diagnostics: Diagnostic[],
  at: At,
): Promise<CsvImportResult> {
  const written: string[] = [];
  const skipped: string[] = [];
  const outputs: { rel: string; text: string }[] = [];
  let existing: string[];
  try {
    existing = (await listInReview(root, 'rankings')) ?? [];
  } catch (err) {
    if (!(err instanceof ReviewFileError)) throw err;
    diagnostics.push(error(err.file || 'rankings', err.message));
    return { written: [], skipped, diagnostics: capPerFile(sortDiagnostics(diagnostics)) };
  }
  const existingByKey = new Map<string, string>();
  for (const name of existing) {
    const stem = /^(.*)\.(ya?ml|json)$/i.exec(name)?.[1];
    if (stem !== undefined && !name.startsWith('.') && !existingByKey.has(designerKey(stem))) existingByKey.set(designerKey(stem), name);
  }
  for (const p of planned) {
    const present = existingByKey.get(designerKey(p.id));
    const rel = present !== undefined ? `rankings/${present}` : `rankings/${p.id}.yaml`;
    if (present !== undefined && !force) {
      skipped.push(rel);
      diagnostics.push(warning(file, `${rel} already exists and was not changed; use --force to replace it.`, p.line, 0));
      continue;
    }
    const format = rel.toLowerCase().endsWith('.json') ? 'json' : 'yaml';
    const out = format === 'json' ? formatRankingJson(p.data) : formatRankingYaml(p.data);
    const check = validateRankingText(out, rel, optionIds, format);
    if (!check.ranking) {
      for (const d of check.diagnostics) at(p.line, 0, `The ranking made from this row is not valid: ${d.message}`);
      continue;
    }
    outputs.push({ rel, text: out });
  }
  if (hasErrors(diagnostics)) return { written: [], skipped, diagnostics: capPerFile(sortDiagnostics(diagnostics)) };
  try {
    // All or nothing: every target is checked (no link, no folder) before the first file is written.
    await checkWritable(
      root,
      outputs.map((o) => o.rel),
    );
    for (const o of outputs) {
      await writeKindFile(root, o.rel, 'ranking', o.text);
      written.push(o.rel);
    }
  } catch (err) {
    if (err instanceof ReviewFileError) diagnostics.push(error(err.file || 'rankings', err.message));
    else {
      const reason = err instanceof Error && 'code' in err ? String(err.code) : 'write failed';
      diagnostics.push(error('rankings', `Could not write the ranking files (${reason}).`));
    }
  }
  return { written, skipped, diagnostics: capPerFile(sortDiagnostics(diagnostics)) };
}
