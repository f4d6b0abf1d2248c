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
import { closestId, didYouMean } from './suggest';
import { designerField, ENTRY_FIELDS, justificationField, optionField, rankField, rankingListField, roleField, TOP_LEVEL_FIELDS, weightField } from './rankingFields';
import { shown } from '../kernel/text';

export type RankingFormat = 'yaml' | 'json';

interface Pos {
  line: number;
  column: number;
}

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

function keyName(pair: Pair): string {
  const k = pair.key;
  if (isScalar(k)) return String(k.value);
  return String(k);
}

function pairOf(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((p) => keyName(p) === key);
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

function checkRankingTextInner(
  text: string,
  file: string,
  optionIdsOrNull: string[] | null,
  format: RankingFormat,
): RankingCheck {
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
  const skeleton =
    format === 'json'
      ? '{ "designer": "…", "ranking": [ { "option": "1", "rank": 1, "justification": "…" } ] }'
      : 'designer:, then ranking: with one "- option: / rank: / justification:" entry per image';

  if (text.replace(/^\uFEFF/, '').trim() === '') {
    bad(`The file is empty. A ranking file needs ${skeleton}.`);
    return { diagnostics, stated };
  }

  // Depth first, on the token stream: neither the JSON checker nor the YAML composer ever sees a file nested too deep.
  const deep = checkNesting(text);
  if (deep) {
    bad(deep.message, { line: deep.line, column: deep.column });
    return { diagnostics, stated };
  }

  if (format === 'json') {
    const problem = checkJsonSyntax(text);
    if (problem) {
      bad(`This is not valid JSON: ${problem.message}`, offsetToPos(text, problem.offset));
      return { diagnostics, stated };
    }
  }

  let parsed: YamlDocument;
  try {
    parsed = parseYamlDocument(text, { keepSourceTokens: false });
  } catch {
    bad(`The file could not be read as ${format === 'json' ? 'JSON' : 'YAML'}.`);
    return { diagnostics, stated };
  }
  const { doc, at: posOfOffset, firstError } = parsed;
  const posOf = (node: Node | Pair | null | undefined, fallback?: Pos): Pos | undefined => {
    const n = node && 'range' in node ? node : node && 'key' in node ? (node.key as Node | null) : undefined;
    const range = n && 'range' in n ? n.range : undefined;
    return range ? posOfOffset(range[0]) : fallback;
  };

  if (firstError) {
    bad(`This is not valid ${format === 'json' ? 'JSON' : 'YAML'}: ${firstError.problem}`, firstError);
    return { diagnostics, stated };
  }

  const root = doc.contents;
  if (root === null || (isScalar(root) && (root.value === null || root.value === ''))) {
    bad(`The file has no fields. A ranking file needs ${skeleton}.`, posOf(root));
    return { diagnostics, stated };
  }
  if (!isMap(root)) {
    bad(
      `A ranking file must be a group of fields (designer:, ranking:, …), not ${isSeq(root) ? 'a list' : 'a single value'}.`,
      posOf(root, { line: 1, column: 1 }),
    );
    return { diagnostics, stated };
  }
  const rootPos = posOf(root, { line: 1, column: 1 });

  let data: Record<string, unknown>;
  try {
    const js: unknown = doc.toJS({ maxAliasCount: 100 });
    data = typeof js === 'object' && js !== null ? (js as Record<string, unknown>) : {};
  } catch {
    bad('The file uses a YAML alias (*name) that cannot be read; write the value out instead.', rootPos);
    return { diagnostics, stated };
  }

  /** Runs one zod field schema; on failure reports its message at the node. */
  const check = <S extends z.ZodType>(schema: S, value: unknown, at: Pos | undefined): z.output<S> | undefined => {
    const r = schema.safeParse(value);
    if (r.success) return r.data;
    bad(r.error.issues[0]?.message ?? 'This value is not valid.', at);
    return undefined;
  };

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
    if (data.weight === null) warn('The weight is empty, so the default weight 1 is used; fill it in or remove the line.', posOf(weightPair));
    else weight = check(weightField, data.weight, posOf(weightPair.value as Node, posOf(weightPair))) ?? weight;
  }

  // ranking (required list)
  const rankingPair = pairOf(root, 'ranking');
  const entries: RankingEntry[] = [];
  if (!rankingPair) {
    bad(`The ranking field is missing. Add ranking: with one entry for each ${knownOptions ? `of the ${optionIds.length} options` : 'option'}.`, rootPos);
  } else {
    const rankingKeyPos = posOf(rankingPair);
    const list = check(rankingListField, data.ranking === null ? undefined : data.ranking, posOf(rankingPair.value as Node, rankingKeyPos));
    const seq = isSeq(rankingPair.value) ? rankingPair.value : undefined;
    const firstSeen = new Map<string, Pos | undefined>();
    if (list && seq) {
      seq.items.forEach((item, index) => {
        const value = list[index];
        const itemPos = posOf(item as Node, rankingKeyPos);
        if (!isMap(item) || typeof value !== 'object' || value === null || Array.isArray(value)) {
          bad(`Entry ${index + 1} of the ranking must have option:, rank: and justification: (found ${shown(value)}).`, itemPos);
          return;
        }
        const entry = value as Record<string, unknown>;
        for (const pair of item.items) {
          const field = keyName(pair);
          if ((ENTRY_FIELDS as readonly string[]).includes(field)) continue;
          const guess = closestId(field, ENTRY_FIELDS);
          warn(
            `Unknown field "${field}" in a ranking entry is ignored.${guess ? ` Did you mean "${guess}"?` : ''} An entry has option, rank and justification.`,
            posOf(pair),
          );
        }
        const fieldPos = (f: string): Pos | undefined => {
          const p = pairOf(item, f);
          return p ? posOf(p.value as Node, posOf(p)) : itemPos;
        };

        // option
        let option: string | undefined;
        if (!pairOf(item, 'option')) bad(`Entry ${index + 1} of the ranking has no option. Add option: "<id>" (the image file name without extension).`, itemPos);
        else {
          const raw = check(optionField, entry.option, fieldPos('option'));
          if (typeof raw === 'number') {
            option = String(raw);
            warn(`Write option ids in quotes: option: "${option}". It is read as the text "${option}".`, fieldPos('option'));
          } else if (typeof raw === 'string') {
            option = raw;
          }
        }
        if (option !== undefined) {
          const at = fieldPos('option');
          if (option.trim() === '') {
            bad('The option is empty. Write the id of an image in options/, e.g. option: "1".', at);
            option = undefined;
          } else if (knownOptions && !optionIds.includes(option)) {
            const pathLike = /[\\/]|\.(png|jpe?g|webp)$/i.test(option);
            const hint = pathLike
              ? ` Write the option id only: the image file name without folder or extension.${didYouMean(option, optionIds)}`
              : didYouMean(option, optionIds);
            bad(`There is no option "${option}" in options/.${hint} The options are ${optionIds.map((o) => `"${o}"`).join(', ')}.`, at);
            option = undefined;
          } else if (firstSeen.has(option)) {
            const first = firstSeen.get(option);
            bad(
              `Option "${option}" is ranked twice${first ? ` (first on line ${first.line})` : ''}. Rank each option exactly once.`,
              at,
            );
            option = undefined;
          } else {
            firstSeen.set(option, at);
          }
        }

        // rank
        let rank: number | undefined;
        if (!pairOf(item, 'rank')) bad(`Entry ${index + 1} of the ranking has no rank. Add rank: with a whole number (1 = best).`, itemPos);
        else rank = check(rankField, entry.rank, fieldPos('rank'));

        // justification
        let justification: string | undefined;
        if (!pairOf(item, 'justification')) {
          const what = option !== undefined ? ` for option "${option}"` : '';
          bad(`Entry ${index + 1} of the ranking has no justification${what}. Add justification: with a sentence on why it has this rank.`, itemPos);
        } else {
          justification = check(justificationField, entry.justification, fieldPos('justification'))?.trim();
        }

        if (option !== undefined && rank !== undefined && justification !== undefined) entries.push({ option, rank, justification });
      });
      const missing = optionIds.filter((id) => !firstSeen.has(id));
      if (missing.length > 0 && knownOptions) {
        const list2 = missing.map((m) => `"${m}"`).join(', ');
        bad(
          missing.length === 1
            ? `Option ${list2} is missing from the ranking. Every image in options/ must be ranked exactly once.`
            : `Options ${list2} are missing from the ranking. Every image in options/ must be ranked exactly once.`,
          rankingKeyPos,
        );
      }
    }
  }

  if (diagnostics.some((d) => d.severity === 'error') || name === undefined) return { diagnostics, stated };
  const ranking: DesignerRanking = { id: designerIdOf(file), name, weight, file, entries };
  if (role !== undefined) ranking.role = role;
  return { ranking, diagnostics, stated };
}
