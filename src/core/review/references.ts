/**
 * references/: the team's reference gallery (issue 19) — images chosen for style, shown to the proxies and the remix agent
 * apart from the candidates, never ranked. The images go through the same scan as options/ (formats, caps, containment);
 * what each is for is said in ONE of `references.yaml` (at the review root: `references: { <id>: <what it is for> }`) or
 * `references/README.md` (a `## <id>` heading, the text under it is that reference's note). Both are read as their kinds
 * of the file-kind table; problems are `file:line:col` diagnostics.
 */
import type { Node, Pair, YAMLMap } from 'yaml';
import { isMap, isScalar, parseYamlDocument } from '../kernel/yaml';
import { fileErrorDiagnostic, readKindText } from '../files/fileKinds';
import { ReviewFileError, statInReview } from '../files/reviewFiles';
import { error, sortDiagnostics, warning } from '../diagnostics/diagnostics';
import { closestId } from '../rankings/suggest';
import type { ReviewReference } from './model';
import type { Diagnostic } from '../diagnostics/diagnostics';
import { scanImageFolder } from './options';

export const REFERENCES_DIR = 'references';
export const REFERENCES_YAML = 'references.yaml';
export const REFERENCES_README = 'references/README.md';
/** The same cap as options/. */
export const MAX_REFERENCES = 50;
/** A note saying what one reference is for. */
export const MAX_REFERENCE_NOTE = 1000;

export interface ReferencesResult {
  /** In natural order of ids, labelled "Reference 1" …; empty without references/. */
  references: ReviewReference[];
  diagnostics: Diagnostic[];
}

/** The references of a review: references/ (optional) and the notes saying what each is for. */
export async function loadReferences(root: string, decodeImages: boolean): Promise<ReferencesResult> {
  const scan = await scanImageFolder(root, decodeImages, {
    folder: REFERENCES_DIR,
    holds: 'the reference images',
    idWord: 'reference',
    strangeFile: 'error',
    allowed: ['README.md'],
    max: MAX_REFERENCES,
  });
  const diagnostics = [...scan.diagnostics];
  const references: ReviewReference[] = (scan.images ?? []).map((img, i) => ({ ...img, label: `Reference ${i + 1}` }));
  // A folder that could not be scanned (too many images, unreadable) has said so once: its notes are not checked against
  // an empty list of ids, which would add one "not a reference" error per note.
  if (scan.exists && scan.ids === undefined) return { references, diagnostics: sortDiagnostics(diagnostics) };
  const ids = scan.ids ?? [];
  const notes = await loadNotes(root, ids, scan.exists);
  diagnostics.push(...notes.diagnostics);
  for (const r of references) {
    const note = notes.notes.get(r.id);
    if (note) r.note = note;
  }
  return { references, diagnostics: sortDiagnostics(diagnostics) };
}

async function present(root: string, rel: string): Promise<boolean | Diagnostic> {
  try {
    return (await statInReview(root, rel)) !== undefined;
  } catch (err) {
    if (err instanceof ReviewFileError) return fileErrorDiagnostic(err);
    throw err;
  }
}

async function loadNotes(
  root: string,
  ids: readonly string[],
  folder: boolean,
): Promise<{ notes: Map<string, string>; diagnostics: Diagnostic[] }> {
  const yamlHere = await present(root, REFERENCES_YAML);
  const readmeHere = folder ? await present(root, REFERENCES_README) : false;
  const diagnostics: Diagnostic[] = [];
  for (const p of [yamlHere, readmeHere]) if (typeof p === 'object') diagnostics.push(p);
  if (diagnostics.length) return { notes: new Map(), diagnostics };
  if (yamlHere === true && readmeHere === true) {
    return {
      notes: new Map(),
      diagnostics: [
        error(REFERENCES_YAML, `Say what the references are for in one place: ${REFERENCES_YAML} or ${REFERENCES_README}, not both.`, 1, 1),
      ],
    };
  }
  if (yamlHere === true && !folder) {
    return {
      notes: new Map(),
      diagnostics: [
        error(
          REFERENCES_YAML,
          `${REFERENCES_YAML} describes references, but the review has no references/ folder; put the images in references/.`,
          1,
          1,
        ),
      ],
    };
  }
  const file = yamlHere === true ? REFERENCES_YAML : readmeHere === true ? REFERENCES_README : undefined;
  if (!file) return { notes: new Map(), diagnostics };
  let text: string;
  try {
    text = await readKindText(root, file, file === REFERENCES_YAML ? 'references' : 'referencesNotes');
  } catch (err) {
    if (err instanceof ReviewFileError) return { notes: new Map(), diagnostics: [fileErrorDiagnostic(err)] };
    throw err;
  }
  return file === REFERENCES_YAML ? checkReferencesYaml(text, ids) : checkReferencesReadme(text, ids);
}

function unknownId(file: string, id: string, ids: readonly string[], line: number, col: number): Diagnostic {
  const guess = closestId(id, [...ids]);
  const known = ids.length ? `The references are ${ids.join(', ')}.` : 'references/ holds no images.';
  return error(
    file,
    `"${id.slice(0, 60)}" is not a reference image in references/${guess ? `; did you mean "${guess}"?` : '.'} ${known}`,
    line,
    col,
  );
}

function noteProblem(file: string, id: string, note: string, line: number, col: number): Diagnostic | undefined {
  if (note.length > MAX_REFERENCE_NOTE) {
    return error(file, `The note on "${id}" is ${note.length} characters long; a note is at most ${MAX_REFERENCE_NOTE}.`, line, col);
  }
  return undefined;
}

/** references.yaml: `references:` mapping each reference id to what it is for (one line of text). */
export function checkReferencesYaml(
  text: string,
  ids: readonly string[],
  file = REFERENCES_YAML,
): { notes: Map<string, string>; diagnostics: Diagnostic[] } {
  const notes = new Map<string, string>();
  const diagnostics: Diagnostic[] = [];
  const { doc, startOf, firstError } = parseYamlDocument(text);
  if (firstError) {
    return { notes, diagnostics: [error(file, `This is not valid YAML: ${firstError.problem}`, firstError.line, firstError.column)] };
  }
  const shape = `${file} must be "references:" followed by one line per reference, "<id>: what it is for".`;
  if (doc.contents === null) return { notes, diagnostics };
  if (!isMap(doc.contents)) return { notes, diagnostics: [error(file, shape, 1, 1)] };
  const top = doc.contents as YAMLMap;
  let list: Pair | undefined;
  for (const pair of top.items as Pair[]) {
    const name = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    if (name === 'references') list = pair;
    else
      diagnostics.push(
        warning(file, `Unknown field "${name.slice(0, 40)}" is ignored; ${file} has one field, references.`, ...startOf(pair.key)),
      );
  }
  if (!list || list.value === null || (isScalar(list.value) && list.value.value === null))
    return { notes, diagnostics: sortDiagnostics(diagnostics) };
  if (!isMap(list.value)) return { notes, diagnostics: [...diagnostics, error(file, shape, ...startOf(list.value))] };
  for (const pair of (list.value as YAMLMap).items as Pair[]) {
    const keyNode = pair.key as Node | null;
    const id = isScalar(keyNode) ? String(keyNode.value) : '';
    const at = startOf(keyNode);
    if (!ids.includes(id)) {
      diagnostics.push(unknownId(file, id, ids, ...at));
      continue;
    }
    const value = pair.value as Node | null;
    const v = isScalar(value) ? value.value : undefined;
    if (typeof v !== 'string' || !v.trim()) {
      diagnostics.push(error(file, `Say in words what "${id}" is for (e.g. ${id}: the gold foil of the cap).`, ...at));
      continue;
    }
    const p = noteProblem(file, id, v.trim(), ...startOf(value));
    if (p) diagnostics.push(p);
    else notes.set(id, v.trim());
  }
  return { notes, diagnostics: sortDiagnostics(diagnostics) };
}

/**
 * references/README.md: a `## <id>` heading per reference (the id, or the file name with its extension) and the text under
 * it, up to the next heading of that level or higher, is its note. Text before the first such heading is about the gallery.
 */
export function checkReferencesReadme(
  text: string,
  ids: readonly string[],
  file = REFERENCES_README,
): { notes: Map<string, string>; diagnostics: Diagnostic[] } {
  const notes = new Map<string, string>();
  const diagnostics: Diagnostic[] = [];
  const lines = text.split(/\r?\n/);
  let current: { id: string; line: number; body: string[] } | undefined;
  let fence = false;
  const close = (): void => {
    if (!current) return;
    const note = current.body.join('\n').trim();
    const p = note ? noteProblem(file, current.id, note, current.line, 1) : undefined;
    if (p) diagnostics.push(p);
    else if (note) notes.set(current.id, note);
    current = undefined;
  };
  const seen = new Map<string, number>();
  lines.forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    const h = fence ? null : /^(#{1,2})\s+(.*?)\s*#*\s*$/.exec(line);
    if (!h) {
      current?.body.push(line);
      return;
    }
    close();
    if (h[1] === '#') return; // the title of the gallery
    const title = h[2]!.replace(/^`(.*)`$/, '$1');
    const id = ids.includes(title) ? title : ids.find((x) => new RegExp(`^${escapeRe(x)}\\.(png|jpe?g|webp)$`, 'i').test(title));
    const col = line.indexOf(h[2]!) + 1;
    if (id === undefined) {
      diagnostics.push(unknownId(file, title, ids, i + 1, col));
      return;
    }
    const earlier = seen.get(id);
    if (earlier !== undefined) {
      diagnostics.push(error(file, `"${id}" already has a section (line ${earlier}); one section a reference.`, i + 1, col));
      return;
    }
    seen.set(id, i + 1);
    current = { id, line: i + 1, body: [] };
  });
  close();
  return { notes, diagnostics: sortDiagnostics(diagnostics) };
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
