/**
 * validateRankingText: one ranking file's text → a DesignerRanking, or diagnostics with line:col of the offending
 * node. YAML and JSON are both read with the `yaml` parser (JSON is YAML) so every node keeps its source range; JSON
 * is first checked by a strict JSON syntax checker so that YAML-only forms in a .json file are reported.
 */
import { isMap, isScalar, isSeq, parseYamlDocument, type YamlDocument } from '../kernel/yaml';
import type { Node, Pair, YAMLMap } from 'yaml';
import type * as z from 'zod';
import type { DesignerRanking, RankingEntry } from './ranking';
import type { Diagnostic } from '../diagnostics/diagnostics';
import { capPerFile, error, sortDiagnostics, warning } from '../diagnostics/diagnostics';
import { checkJsonSyntax } from '../diagnostics/jsonSyntax';
import { checkNesting } from '../files/nesting';
import { closestId } from './suggest';
import { checkRankingList, keyName, pairOf, type FieldChecker, type Pos } from './rankingEntries';
import { designerField, roleField, TOP_LEVEL_FIELDS, weightField } from './rankingFields';

export type RankingFormat = 'yaml' | 'json';

/** "rankings/ana.yaml" → "ana". */
export function designerIdOf(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  return base.replace(/\.(ya?ml|json)$/i, '');
}

export function rankingFormatOf(file: string): RankingFormat | undefined {
  if (/\.ya?ml$/i.test(file)) return 'yaml';
  if (/\.json$/i.test(file)) return 'json';
  return undefined;
}

function offsetToPos(text: string, offset: number): Pos {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before.at(-1) ?? '').length + 1 };
}

export interface RankingCheck {
  ranking?: DesignerRanking;
  diagnostics: Diagnostic[];
  /** Whether the file itself states role / weight (review.yaml `team` fills in the others). */
  stated: { role: boolean; weight: boolean };
}

export function validateRankingText(
  text: string,
  file: string,
  optionIds: string[],
  format: RankingFormat,
): { ranking?: DesignerRanking; diagnostics: Diagnostic[] } {
  const { ranking, diagnostics } = checkRankingText(text, file, optionIds, format);
  return ranking ? { ranking, diagnostics } : { diagnostics };
}

/**
 * As validateRankingText, plus what the file states. `optionIds` null: the options are unknown (options/ is broken),
 * so only the file's own shape is checked, not which options it names.
 */
export function checkRankingText(text: string, file: string, optionIds: string[] | null, format: RankingFormat): RankingCheck {
  // Everything the check reads is in the key, so a hit is the same answer: a review loaded again (the panel opened
  // again, the Problems view's check and then the panel) parses each unchanged ranking file once.
  const key = `${format}\0${file}\0${optionIds === null ? '\u0001' : optionIds.join('\0')}\0${text}`;
  const hit = checked.get(key);
  if (hit) {
    checked.delete(key);
    checked.set(key, hit);
    checkCounts.reused++;
    return structuredClone(hit);
  }
  const result = checkRankingTextInner(text, file, optionIds, format);
  result.diagnostics = capPerFile(sortDiagnostics(result.diagnostics));
  checkCounts.parsed++;
  remember(key, structuredClone(result));
  return result;
}

/** Checked ranking files by everything the check reads, oldest first; each caller gets a copy of its own. */
const checked = new Map<string, RankingCheck>();
/** What the remembered checks' keys may hold in all (characters): about a hundred 50 × 50 reviews' rankings. */
const CHECKED_CHARS = 16_000_000;
let checkedChars = 0;
/** How many checks parsed a file and how many were answered from an earlier one (the unit tests read them). */
export const checkCounts = { parsed: 0, reused: 0 };

function remember(key: string, result: RankingCheck): void {
  if (key.length > CHECKED_CHARS / 4) return;
  checked.set(key, result);
  checkedChars += key.length;
  for (const k of checked.keys()) {
    if (checkedChars <= CHECKED_CHARS) break;
    checked.delete(k);
    checkedChars -= k.length;
  }
}

function checkRankingTextInner(text: string, file: string, optionIdsOrNull: string[] | null, format: RankingFormat): RankingCheck {
  const optionIds = optionIdsOrNull ?? [];
  const knownOptions = optionIdsOrNull !== null;
  const stated = { role: false, weight: false };
  const diagnostics: Diagnostic[] = [];
  const bad = (message: string, at?: Pos): void => {
    diagnostics.push(error(file, message, at?.line ?? 0, at?.column ?? 0));
  };
  const warn = (message: string, at?: Pos): void => {
    diagnostics.push(warning(file, message, at?.line ?? 0, at?.column ?? 0));
  };
  const parsed = parseRankingDoc(text, format, bad);
  if (!parsed) return { diagnostics, stated };
  const { root, data, posOf } = parsed;
  const rootPos = posOf(root, { line: 1, column: 1 });
  const check = <S extends z.ZodType>(schema: S, value: unknown, at: Pos | undefined): z.output<S> | undefined => {
    const r = schema.safeParse(value);
    if (r.success) return r.data;
    bad(r.error.issues[0]?.message ?? 'This value is not valid.', at);
    return undefined;
  };
  const c: FieldChecker = { bad, warn, posOf, check };

  for (const pair of root.items) {
    const name = keyName(pair);
    if ((TOP_LEVEL_FIELDS as readonly string[]).includes(name) || name === '$schema') continue;
    const guess = closestId(name, TOP_LEVEL_FIELDS);
    warn(
      `Unknown field "${name}" is ignored.${guess ? ` Did you mean "${guess}"?` : ''} A ranking file has designer, role, weight and ranking.`,
      posOf(pair),
    );
  }

  // designer (required)
  const designerPair = pairOf(root, 'designer');
  let name: string | undefined;
  if (!designerPair) bad('The designer field is missing. Add a line like designer: Ana Ruiz (the name shown to the team).', rootPos);
  else name = check(designerField, data.designer, posOf(designerPair.value as Node, posOf(designerPair)))?.trim();

  // role (optional)
  let role: string | undefined;
  const rolePair = pairOf(root, 'role');
  if (rolePair) {
    stated.role = data.role !== null;
    if (data.role === null) warn('The role is empty and is ignored; fill it in or remove the line.', posOf(rolePair));
    else role = check(roleField, data.role, posOf(rolePair.value as Node, posOf(rolePair)))?.trim() || undefined;
  }

  // weight (optional, > 0, default 1)
  let weight = 1;
  const weightPair = pairOf(root, 'weight');
  if (weightPair) {
    stated.weight = data.weight !== null;
    if (data.weight === null)
      warn('The weight is empty, so the default weight 1 is used; fill it in or remove the line.', posOf(weightPair));
    else weight = check(weightField, data.weight, posOf(weightPair.value as Node, posOf(weightPair))) ?? weight;
  }

  // ranking (required list)
  const rankingPair = pairOf(root, 'ranking');
  let entries: RankingEntry[] = [];
  if (!rankingPair) {
    bad(
      `The ranking field is missing. Add ranking: with one entry for each ${knownOptions ? `of the ${optionIds.length} options` : 'option'}.`,
      rootPos,
    );
  } else {
    entries = checkRankingList(rankingPair, data.ranking, optionIds, knownOptions, c);
  }

  if (diagnostics.some((d) => d.severity === 'error') || name === undefined) return { diagnostics, stated };
  const ranking: DesignerRanking = { id: designerIdOf(file), name, weight, file, entries };
  if (role !== undefined) ranking.role = role;
  return { ranking, diagnostics, stated };
}

/** The file's top-level map and its data, with a node → place function; undefined once the one problem is reported
 * (empty, nested too deep, not JSON/YAML, not a map, an unreadable alias). */
function parseRankingDoc(
  text: string,
  format: RankingFormat,
  bad: (message: string, at?: Pos) => void,
): { root: YAMLMap; data: Record<string, unknown>; posOf: FieldChecker['posOf'] } | undefined {
  const skeleton =
    format === 'json'
      ? '{ "designer": "…", "ranking": [ { "option": "1", "rank": 1, "justification": "…" } ] }'
      : 'designer:, then ranking: with one "- option: / rank: / justification:" entry per image';

  if (text.replace(/^\uFEFF/, '').trim() === '') {
    bad(`The file is empty. A ranking file needs ${skeleton}.`);
    return undefined;
  }

  // Depth first, on the token stream: neither the JSON checker nor the YAML composer ever sees a file nested too deep.
  const deep = checkNesting(text);
  if (deep) {
    bad(deep.message, { line: deep.line, column: deep.column });
    return undefined;
  }

  if (format === 'json') {
    const problem = checkJsonSyntax(text);
    if (problem) {
      bad(`This is not valid JSON: ${problem.message}`, offsetToPos(text, problem.offset));
      return undefined;
    }
  }

  let parsed: YamlDocument;
  try {
    parsed = parseYamlDocument(text, { keepSourceTokens: false });
  } catch {
    bad(`The file could not be read as ${format === 'json' ? 'JSON' : 'YAML'}.`);
    return undefined;
  }
  const { doc, at: posOfOffset, firstError } = parsed;
  const posOf = (node: Node | Pair | null | undefined, fallback?: Pos): Pos | undefined => {
    const n = node && 'range' in node ? node : node && 'key' in node ? (node.key as Node | null) : undefined;
    const range = n && 'range' in n ? n.range : undefined;
    return range ? posOfOffset(range[0]) : fallback;
  };

  if (firstError) {
    bad(`This is not valid ${format === 'json' ? 'JSON' : 'YAML'}: ${firstError.problem}`, firstError);
    return undefined;
  }

  const root = doc.contents;
  if (root === null || (isScalar(root) && (root.value === null || root.value === ''))) {
    bad(`The file has no fields. A ranking file needs ${skeleton}.`, posOf(root));
    return undefined;
  }
  if (!isMap(root)) {
    bad(
      `A ranking file must be a group of fields (designer:, ranking:, …), not ${isSeq(root) ? 'a list' : 'a single value'}.`,
      posOf(root, { line: 1, column: 1 }),
    );
    return undefined;
  }

  try {
    const js: unknown = doc.toJS({ maxAliasCount: 100 });
    const data = typeof js === 'object' && js !== null ? (js as Record<string, unknown>) : {};
    return { root, data, posOf };
  } catch {
    bad('The file uses a YAML alias (*name) that cannot be read; write the value out instead.', posOf(root, { line: 1, column: 1 }));
    return undefined;
  }
}
