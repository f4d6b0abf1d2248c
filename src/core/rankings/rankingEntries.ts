/**
 * The ranking: list of a ranking file, entry by entry (rankingText.ts checks the rest of the file): each entry's option,
 * rank and justification, options unknown or ranked twice, and options missing from the list.
 */
import { isMap, isScalar, isSeq } from '../kernel/yaml';
import type { Node, Pair, YAMLMap } from 'yaml';
import type * as z from 'zod';
import type { RankingEntry } from './ranking';
import { closestId, didYouMean } from './suggest';
import { ENTRY_FIELDS, justificationField, optionField, rankField, rankingListField } from './rankingFields';
import { shown } from '../kernel/text';

export interface Pos {
  line: number;
  column: number;
}

export function keyName(pair: Pair): string {
  const k = pair.key;
  if (isScalar(k)) return String(k.value);
  return String(k);
}

export function pairOf(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((p) => keyName(p) === key);
}

/** How one ranking file's check reports and reads: errors and warnings at a place, a node's place, one field schema. */
export interface FieldChecker {
  bad(message: string, at?: Pos): void;
  warn(message: string, at?: Pos): void;
  posOf(node: Node | Pair | null | undefined, fallback?: Pos): Pos | undefined;
  /** Runs one zod field schema; on failure reports its message at the node. */
  check<S extends z.ZodType>(schema: S, value: unknown, at: Pos | undefined): z.output<S> | undefined;
}

/** The valid entries of the ranking: field (`value` is its data); every problem is reported through `c`. */
export function checkRankingList(
  rankingPair: Pair,
  value: unknown,
  optionIds: string[],
  knownOptions: boolean,
  c: FieldChecker,
): RankingEntry[] {
  const entries: RankingEntry[] = [];
  const rankingKeyPos = c.posOf(rankingPair);
  const list = c.check(rankingListField, value === null ? undefined : value, c.posOf(rankingPair.value as Node, rankingKeyPos));
  const seq = isSeq(rankingPair.value) ? rankingPair.value : undefined;
  const firstSeen = new Map<string, Pos | undefined>();
  if (!list || !seq) return entries;
  seq.items.forEach((item, index) => {
    const entry = checkEntry(item, list[index], index, rankingKeyPos, firstSeen, optionIds, knownOptions, c);
    if (entry) entries.push(entry);
  });
  const missing = optionIds.filter((id) => !firstSeen.has(id));
  if (missing.length > 0 && knownOptions) {
    const list2 = missing.map((m) => `"${m}"`).join(', ');
    c.bad(
      missing.length === 1
        ? `Option ${list2} is missing from the ranking. Every image in options/ must be ranked exactly once.`
        : `Options ${list2} are missing from the ranking. Every image in options/ must be ranked exactly once.`,
      rankingKeyPos,
    );
  }
  return entries;
}

function checkEntry(
  item: unknown,
  value: unknown,
  index: number,
  rankingKeyPos: Pos | undefined,
  firstSeen: Map<string, Pos | undefined>,
  optionIds: string[],
  knownOptions: boolean,
  c: FieldChecker,
): RankingEntry | undefined {
  const itemPos = c.posOf(item as Node, rankingKeyPos);
  if (!isMap(item) || typeof value !== 'object' || value === null || Array.isArray(value)) {
    c.bad(`Entry ${index + 1} of the ranking must have option:, rank: and justification: (found ${shown(value)}).`, itemPos);
    return undefined;
  }
  const entry = value as Record<string, unknown>;
  for (const pair of item.items) {
    const field = keyName(pair);
    if ((ENTRY_FIELDS as readonly string[]).includes(field)) continue;
    const guess = closestId(field, ENTRY_FIELDS);
    c.warn(
      `Unknown field "${field}" in a ranking entry is ignored.${guess ? ` Did you mean "${guess}"?` : ''} An entry has option, rank and justification.`,
      c.posOf(pair),
    );
  }
  const fieldPos = (f: string): Pos | undefined => {
    const p = pairOf(item, f);
    return p ? c.posOf(p.value as Node, c.posOf(p)) : itemPos;
  };

  const option = entryOption(item, entry, index, itemPos, fieldPos, firstSeen, optionIds, knownOptions, c);

  let rank: number | undefined;
  if (!pairOf(item, 'rank')) c.bad(`Entry ${index + 1} of the ranking has no rank. Add rank: with a whole number (1 = best).`, itemPos);
  else rank = c.check(rankField, entry.rank, fieldPos('rank'));

  let justification: string | undefined;
  if (!pairOf(item, 'justification')) {
    const what = option !== undefined ? ` for option "${option}"` : '';
    c.bad(
      `Entry ${index + 1} of the ranking has no justification${what}. Add justification: with a sentence on why it has this rank.`,
      itemPos,
    );
  } else {
    justification = c.check(justificationField, entry.justification, fieldPos('justification'))?.trim();
  }

  if (option !== undefined && rank !== undefined && justification !== undefined) return { option, rank, justification };
  return undefined;
}

/** An entry's option id when it is one of the options and not ranked before (recorded in `firstSeen`). */
function entryOption(
  item: YAMLMap,
  entry: Record<string, unknown>,
  index: number,
  itemPos: Pos | undefined,
  fieldPos: (f: string) => Pos | undefined,
  firstSeen: Map<string, Pos | undefined>,
  optionIds: string[],
  knownOptions: boolean,
  c: FieldChecker,
): string | undefined {
  let option: string | undefined;
  if (!pairOf(item, 'option'))
    c.bad(`Entry ${index + 1} of the ranking has no option. Add option: "<id>" (the image file name without extension).`, itemPos);
  else {
    const raw = c.check(optionField, entry.option, fieldPos('option'));
    if (typeof raw === 'number') {
      option = String(raw);
      c.warn(`Write option ids in quotes: option: "${option}". It is read as the text "${option}".`, fieldPos('option'));
    } else if (typeof raw === 'string') {
      option = raw;
    }
  }
  if (option === undefined) return undefined;
  const at = fieldPos('option');
  if (option.trim() === '') {
    c.bad('The option is empty. Write the id of an image in options/, e.g. option: "1".', at);
    return undefined;
  }
  if (knownOptions && !optionIds.includes(option)) {
    const pathLike = /[\\/]|\.(png|jpe?g|webp)$/i.test(option);
    const hint = pathLike
      ? ` Write the option id only: the image file name without folder or extension.${didYouMean(option, optionIds)}`
      : didYouMean(option, optionIds);
    c.bad(`There is no option "${option}" in options/.${hint} The options are ${optionIds.map((o) => `"${o}"`).join(', ')}.`, at);
    return undefined;
  }
  if (firstSeen.has(option)) {
    const first = firstSeen.get(option);
    c.bad(`Option "${option}" is ranked twice${first ? ` (first on line ${first.line})` : ''}. Rank each option exactly once.`, at);
    return undefined;
  }
  firstSeen.set(option, at);
  return option;
}
