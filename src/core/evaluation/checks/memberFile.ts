/**
 * The reading every member's feedback file shares (ratings, survey, preference, coverage confirmations, votes): the YAML
 * map with positions, its fields found by name, the designer field matched to the file's name, unknown fields warned of,
 * and the frame of a file whose one field is a list of entries (checkMemberList). Each problem is said at its line:col.
 */
import { isMap, isScalar, isSeq, parseYamlDocument } from '../../kernel/yaml';
import type { Node, Pair, YAMLMap } from 'yaml';
import { error, warning } from '../../diagnostics/diagnostics';
import type { Diagnostic } from '../../diagnostics/diagnostics';

export interface Pos {
  line: number;
  column: number;
}

/** A parsed YAML map with positions, or diagnostics. */
export function parseMap(
  text: string,
  file: string,
  what: string,
): { map?: YAMLMap; data?: Record<string, unknown>; posOf: (n: unknown) => Pos; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const { doc, at, firstError } = parseYamlDocument(text);
  const posOf = (n: unknown): Pos => {
    const node = n as (Node & { range?: [number, number] }) | Pair | null | undefined;
    const target = node && 'key' in node && !('range' in node) ? (node.key as Node | null) : node;
    const range = target && 'range' in target ? (target.range as [number, number] | undefined) : undefined;
    return range ? at(range[0]) : { line: 1, column: 1 };
  };
  if (firstError) {
    diagnostics.push(error(file, `This is not valid YAML: ${firstError.problem}`, firstError.line, firstError.column));
    return { posOf, diagnostics };
  }
  if (!isMap(doc.contents)) {
    diagnostics.push(error(file, `${what} must be a group of fields (designer:, …).`, 1, 1));
    return { posOf, diagnostics };
  }
  let data: Record<string, unknown>;
  try {
    data = (doc.toJS({ maxAliasCount: 100 }) ?? {}) as Record<string, unknown>;
  } catch {
    diagnostics.push(error(file, 'The file uses a YAML alias (*name) that cannot be read; write the value out instead.', 1, 1));
    return { posOf, diagnostics };
  }
  return { map: doc.contents, data, posOf, diagnostics };
}

export function pairOf(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((p) => isScalar(p.key) && String(p.key.value) === key) as Pair | undefined;
}

export function valuePos(pair: Pair | undefined, posOf: (n: unknown) => Pos, fallback: Pos): Pos {
  if (!pair) return fallback;
  return pair.value ? posOf(pair.value) : posOf(pair);
}

export function shownValue(v: unknown): string {
  return typeof v === 'string' ? `"${v.slice(0, 40)}"` : v === null || v === undefined ? 'nothing' : String(v).slice(0, 40);
}

/** Checks the designer field against the file name; returns the designer id or undefined. */
export function checkDesigner(
  map: YAMLMap,
  data: Record<string, unknown>,
  file: string,
  expected: string,
  posOf: (n: unknown) => Pos,
  out: Diagnostic[],
): string | undefined {
  const pair = pairOf(map, 'designer');
  if (!pair) {
    out.push(error(file, `The designer field is missing. Add designer: ${expected}.`, 1, 1));
    return undefined;
  }
  const value = data.designer;
  const at = valuePos(pair, posOf, { line: 1, column: 1 });
  if (typeof value !== 'string' || value.trim() !== expected) {
    out.push(error(file, `designer must be ${expected} (the file's name), found ${shownValue(value)}.`, at.line, at.column));
    return undefined;
  }
  return expected;
}

export function unknownFields(map: YAMLMap, allowed: readonly string[], file: string, posOf: (n: unknown) => Pos, out: Diagnostic[]): void {
  for (const pair of map.items) {
    const name = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    if (allowed.includes(name)) continue;
    const p = posOf(pair);
    out.push(warning(file, `Unknown field "${name}" is ignored; the fields are ${allowed.join(', ')}.`, p.line, p.column));
  }
}

export function designerIdOfFile(file: string): string {
  return (file.split('/').pop() ?? file).replace(/\.ya?ml$/i, '');
}

/** The list field of a member's list file (ratings, coverage confirmations, votes) and what its entries hold. */
export interface MemberList {
  /** The file in words, for a file that is not a map ("A ratings file"). */
  what: string;
  /** The list field ("ratings"). */
  field: string;
  /** The fields every entry must have, the first one starting it ("message", "score"). */
  required: readonly [string, ...string[]];
  /** Every field an entry may have (others are warned of). */
  allowed: readonly string[];
  /** What one entry stands for, after "entry" ("per rated message"). */
  per: string;
}

/** One entry of the list that is a map: its values, its node and where it starts. */
export interface MemberListEntry {
  e: Record<string, unknown>;
  item: YAMLMap;
  at: Pos;
}

/** What an entry's check needs: the member the file is named after, positions, and where problems go. */
export interface MemberListContext {
  expected: string;
  posOf: (n: unknown) => Pos;
  diagnostics: Diagnostic[];
}

/**
 * The frame a member's list file shares: a map with `designer:` (the file's own member, checkDesigner) and `list.field`,
 * a list whose entries are maps; fields outside the frame are warned of, and each problem is said at its place in
 * `diagnostics`. `entry` is called, in order, with each entry that is a map (after the warnings of its unknown fields).
 */
export function checkMemberList(
  text: string,
  file: string,
  list: MemberList,
  entry: (x: MemberListEntry, ctx: MemberListContext) => void,
): { designer?: string; diagnostics: Diagnostic[] } {
  const expected = designerIdOfFile(file);
  const { map, data, posOf, diagnostics } = parseMap(text, file, list.what);
  if (!map || !data) return { diagnostics };
  const { field, required } = list;
  unknownFields(map, ['designer', field], file, posOf, diagnostics);
  const designer = checkDesigner(map, data, file, expected, posOf, diagnostics);
  const listPair = pairOf(map, field);
  const entries = data[field];
  if (!listPair)
    diagnostics.push(
      error(file, `The ${field} field is missing. Add ${field}: with one "- ${required.join(': / ')}:" entry ${list.per}.`, 1, 1),
    );
  else if (!isSeq(listPair.value) || !Array.isArray(entries)) {
    const p = valuePos(listPair, posOf, posOf(listPair));
    diagnostics.push(error(file, `${field} must be a list of entries, each starting with "- ${required[0]}:".`, p.line, p.column));
  } else {
    const needs = required.map((f) => `${f}:`);
    const must = needs.length === 1 ? needs[0]! : `${needs.slice(0, -1).join(', ')} and ${needs.at(-1)!}`;
    listPair.value.items.forEach((item, index) => {
      const e = (entries as unknown[])[index];
      const at = posOf(item);
      if (!isMap(item) || typeof e !== 'object' || e === null) {
        diagnostics.push(error(file, `Entry ${index + 1} of ${field} must have ${must}.`, at.line, at.column));
        return;
      }
      unknownFields(item, list.allowed, file, posOf, diagnostics);
      entry({ e: e as Record<string, unknown>, item, at }, { expected, posOf, diagnostics });
    });
  }
  return { ...(designer !== undefined ? { designer } : {}), diagnostics };
}
