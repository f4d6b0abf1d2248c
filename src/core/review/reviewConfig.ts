/**
 * Optional review.yaml: title, lead, run settings and (contract §1) team roles/weights. Unknown keys are warnings;
 * values of the wrong kind are errors at the value's line:col.
 */
import { isMap, isScalar, isSeq, parseYamlDocument } from '../kernel/yaml';
import type { Node } from 'yaml';
import { checkNesting } from '../files/nesting';
import * as z from 'zod';
import type { ReviewConfig } from './model';
import type { Diagnostic } from '../diagnostics/diagnostics';
import { error, warning } from '../diagnostics/diagnostics';
import { closestId } from '../rankings/suggest';
import { isOneLine, notOneLineMessage } from '../rankings/rankingFields';
import { shown } from '../kernel/text';
import {
  CONSENSUS_METHODS,
  DISCUSSION_MODES,
  HIERARCHIES,
  FORK_MODES,
  IMAGE_QUALITIES,
  IMAGE_SIZES,
  PERSONA_ROLES,
  SPEAKING_ORDERS,
  oneOf,
} from '../settings/discussionSettings';
import { OTHER_BOUNDS, checklistRepeatSetting, wholeSetting } from '../settings/settingBounds';
import { GuestsSchema, HumansSchema } from './guests';

/** How a review was decided: with TeamFusion (the default) or the team's usual way (issue 19). */
export const CONDITIONS = ['teamfusion', 'usual'] as const;

const FILE = 'review.yaml';

const text = (field: string) =>
  z.string({ error: (iss) => `${field} must be text (found ${shown(iss.input)}).` }).refine((s) => s.trim() !== '', {
    error: `${field} is empty; fill it in or remove the line.`,
  });
const choice = <T extends readonly [string, ...string[]]>(field: string, values: T) =>
  z.enum(values, { error: (iss) => `${field} must be ${oneOf(values)} (found ${shown(iss.input)}).` });
const range = (field: string, min: number, max: number) =>
  z
    .number({ error: (iss) => `${field} must be a number from ${min} to ${max} (found ${shown(iss.input)}).` })
    .min(min, { error: (iss) => `${field} must be a number from ${min} to ${max} (found ${shown(iss.input)}).` })
    .max(max, { error: (iss) => `${field} must be a number from ${min} to ${max} (found ${shown(iss.input)}).` });
const yesNo = (field: string) => z.boolean({ error: (iss) => `${field} must be true or false (found ${shown(iss.input)}).` });

/** The prompt layers a team may set under `prompts:`; each is checked at its own line. */
const PROMPT_LAYERS = {
  goal: 'what every proxy is there for (replaces the default goal)',
  style: 'how the proxies talk (replaces the default style)',
  collaborativeMove: 'a house rule given in every turn that follows other messages of the round',
} as const;
const promptLayer = (field: string) =>
  text(field).refine((s) => s.trim().length <= OTHER_BOUNDS.promptLayer.max, {
    error: `${field} is longer than ${OTHER_BOUNDS.promptLayer.max} characters; keep a prompt layer short.`,
  });

const gitEmail = z
  .string({ error: (iss) => `A team member's git: must be an e-mail (found ${shown(iss.input)}).` })
  .max(254)
  .regex(/^[^\s@<>]+@[^\s@<>]+$/, {
    error: (iss) => `A team member's git: must be an e-mail like ana@example.com (found ${shown(iss.input)}).`,
  });

const teamMember = z.object(
  {
    role: z
      .string({ error: (iss) => `A team member's role must be text (found ${shown(iss.input)}).` })
      .refine(isOneLine, { error: (iss) => notOneLineMessage("A team member's role", iss.input) })
      .optional(),
    weight: z
      .number({ error: (iss) => `A team member's weight must be a number greater than 0 (found ${shown(iss.input)}).` })
      .positive({ error: (iss) => `A team member's weight must be a number greater than 0 (found ${shown(iss.input)}).` })
      .optional(),
    /** The e-mail(s) this member's git commits are authored with (contract §7): over --sync, their entries are checked against it. */
    git: z
      .union([gitEmail, z.array(gitEmail).min(1).max(20)], {
        error: (iss) => `A team member's git: must be an e-mail or a list of e-mails (found ${shown(iss.input)}).`,
      })
      .optional(),
  },
  { error: (iss) => `Each team member (by designer id) needs role:, weight: and/or git: (found ${shown(iss.input)}).` },
);

/** `checklist: off | on | { repeat: 1–3 }` (issue 41): `on` is one check of each remix against each item. */
const checklistField = z.union(
  [z.literal('off'), z.literal('on').transform(() => ({ repeat: 1 })), z.object({ repeat: checklistRepeatSetting() }).strict()],
  {
    error: (iss) => `checklist must be off, on or { repeat: 1 to 3 } (found ${shown(iss.input)}).`,
  },
);

const FIELDS = {
  title: text('title'),
  lead: text('lead'),
  chatModel: text('chatModel'),
  imageModel: text('imageModel'),
  turnsPerAgent: wholeSetting('turnsPerAgent'),
  iterations: wholeSetting('iterations'),
  imageMaxSide: wholeSetting('imageMaxSide'),
  remixesPerIteration: wholeSetting('remixesPerIteration'),
  pool: wholeSetting('pool'),
  checklist: checklistField,
  mode: choice('mode', DISCUSSION_MODES),
  order: choice('order', SPEAKING_ORDERS),
  orderSeed: wholeSetting('orderSeed'),
  leadSpeaksLast: yesNo('leadSpeaksLast'),
  maxConcurrency: wholeSetting('maxConcurrency'),
  hierarchy: choice('hierarchy', HIERARCHIES),
  consensus: choice('consensus', CONSENSUS_METHODS),
  forks: choice('forks', FORK_MODES),
  personaRole: choice('personaRole', PERSONA_ROLES),
  temperature: range('temperature', OTHER_BOUNDS.temperature.min, OTHER_BOUNDS.temperature.max),
  imageSize: choice('imageSize', IMAGE_SIZES),
  imageQuality: choice('imageQuality', IMAGE_QUALITIES),
  // Checked key by key below (each layer at its own line); this only rejects a prompts: that is not a group.
  prompts: z.record(z.string(), z.unknown(), {
    error: (iss) => `prompts must be a group of prompt layers (${Object.keys(PROMPT_LAYERS).join(', ')}) (found ${shown(iss.input)}).`,
  }),
  team: z.record(z.string(), teamMember, {
    error: (iss) => `team must list designer ids, each with role: and/or weight: (found ${shown(iss.input)}).`,
  }),
  humans: HumansSchema,
  guests: GuestsSchema,
  condition: choice('condition', CONDITIONS),
  requireSignedCommits: yesNo('requireSignedCommits'),
} satisfies Record<keyof ReviewConfig, z.ZodType>;

export interface ParsedReviewConfig {
  config: ReviewConfig;
  diagnostics: Diagnostic[];
  /** line/column of each setting's key ("lead", "team", "team.ana"), for later checks against the rankings. */
  positions: Map<string, [number, number]>;
}

export function parseReviewConfig(source: string): ParsedReviewConfig {
  return parseReviewConfigInner(source);
}

function parseReviewConfigInner(source: string): ParsedReviewConfig {
  const diagnostics: Diagnostic[] = [];
  const config: ReviewConfig = {};
  const positions = new Map<string, [number, number]>();
  if (source.trim() === '') return { config, diagnostics, positions };
  const deep = checkNesting(source);
  if (deep) {
    diagnostics.push(error(FILE, deep.message, deep.line, deep.column));
    return { config, diagnostics, positions };
  }
  const { doc, at: positionOf, firstError } = parseYamlDocument(source);
  const at = (offset: number): [number, number] => {
    const p = positionOf(offset);
    return [p.line, p.column];
  };
  if (firstError) {
    diagnostics.push(error(FILE, `This is not valid YAML: ${firstError.problem}`, firstError.line, firstError.column));
    return { config, diagnostics, positions };
  }
  const root = doc.contents;
  if (root === null || (isScalar(root) && root.value === null)) return { config, diagnostics, positions }; // only comments
  if (!isMap(root)) {
    diagnostics.push(error(FILE, 'review.yaml must be a group of fields such as title: and iterations:.', 1, 1));
    return { config, diagnostics, positions };
  }
  let data: Record<string, unknown>;
  try {
    data = doc.toJS({ maxAliasCount: 100 }) as Record<string, unknown>;
  } catch {
    diagnostics.push(error(FILE, 'review.yaml uses a YAML alias (*name) that cannot be read; write the value out instead.', 1, 1));
    return { config, diagnostics, positions };
  }
  const known = Object.keys(FIELDS) as (keyof ReviewConfig)[];
  const knownList = known.join(', ');
  for (const pair of root.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    const keyPos = pair.key && (pair.key as Node).range ? at((pair.key as Node).range![0]) : ([0, 0] as [number, number]);
    positions.set(key, keyPos);
    if (key === 'team' && isMap(pair.value)) {
      for (const member of pair.value.items) {
        const node = member.key as Node | null;
        if (isScalar(node) && node.range) positions.set(`team.${String(node.value)}`, at(node.range[0]));
      }
    }
    if ((key === 'guests' || key === 'humans') && isSeq(pair.value)) {
      pair.value.items.forEach((item, i) => {
        const node = item as Node | null;
        if (node?.range) positions.set(`${key}.${i}`, at(node.range[0]));
      });
    }
    if (!(known as string[]).includes(key)) {
      const guess = closestId(key, known);
      diagnostics.push(
        warning(FILE, `Unknown setting "${key}" is ignored.${guess ? ` Did you mean "${guess}"?` : ''} Known: ${knownList}.`, ...keyPos),
      );
      continue;
    }
    const valueNode = pair.value as Node | null;
    const valuePos = valueNode?.range ? at(valueNode.range[0]) : keyPos;
    const value = data[key];
    if (value === null) {
      diagnostics.push(warning(FILE, `${key} is empty and is ignored; fill it in or remove the line.`, ...keyPos));
      continue;
    }
    const r = FIELDS[key as keyof ReviewConfig].safeParse(value);
    if (!r.success) {
      const issue = r.error.issues[0];
      const itemPos = typeof issue?.path[0] === 'number' ? positions.get(`${key}.${issue.path[0]}`) : undefined;
      // A field's own value when the issue names one (a team member's role, a guest's name), else the item, else the setting.
      const fieldNode = issue && issue.path.length >= 2 ? nodeAtPath(valueNode, issue.path) : undefined;
      const fieldPos = fieldNode?.range ? at(fieldNode.range[0]) : undefined;
      diagnostics.push(error(FILE, issue?.message ?? `${key} is not valid.`, ...(fieldPos ?? itemPos ?? valuePos)));
      continue;
    }
    if (key === 'prompts' && isMap(pair.value)) {
      const layers = parsePromptLayers(pair.value.items, value as Record<string, unknown>, at, diagnostics);
      if (layers) config.prompts = layers;
      continue;
    }
    (config as Record<string, unknown>)[key] = typeof r.data === 'string' ? r.data.trim() : r.data;
  }
  return { config, diagnostics, positions };
}

type PairItems = readonly { key: unknown; value: unknown }[];

/** The YAML node a zod issue path leads to inside `node` (map keys by name, list items by index), if it is there. */
function nodeAtPath(node: Node | null, issuePath: readonly PropertyKey[]): Node | undefined {
  let cur: Node | null | undefined = node;
  for (const seg of issuePath) {
    if (isMap(cur)) cur = cur.items.find((p) => isScalar(p.key) && String(p.key.value) === String(seg))?.value as Node | null | undefined;
    else if (isSeq(cur) && typeof seg === 'number') cur = cur.items[seg] as Node | null | undefined;
    else return undefined;
  }
  return cur ?? undefined;
}

/** `prompts:` key by key: unknown layers are warnings, bad values errors at their own line. */
function parsePromptLayers(
  items: PairItems,
  data: Record<string, unknown>,
  at: (offset: number) => [number, number],
  diagnostics: Diagnostic[],
): NonNullable<ReviewConfig['prompts']> | undefined {
  const known = Object.keys(PROMPT_LAYERS) as (keyof typeof PROMPT_LAYERS)[];
  const out: NonNullable<ReviewConfig['prompts']> = {};
  for (const item of items) {
    const keyNode = item.key as Node | null;
    const layer = isScalar(keyNode) ? String(keyNode.value) : String(keyNode);
    const keyPos = keyNode?.range ? at(keyNode.range[0]) : ([0, 0] as [number, number]);
    const valueNode = item.value as Node | null;
    const valuePos = valueNode?.range ? at(valueNode.range[0]) : keyPos;
    if (!(known as string[]).includes(layer)) {
      const guess = closestId(layer, known);
      diagnostics.push(
        warning(
          FILE,
          `Unknown prompt layer "prompts.${layer}" is ignored.${guess ? ` Did you mean "${guess}"?` : ''} Known: ${known.map((k) => `${k} (${PROMPT_LAYERS[k]})`).join('; ')}.`,
          ...keyPos,
        ),
      );
      continue;
    }
    const value = data[layer];
    if (value === null || value === undefined) {
      diagnostics.push(warning(FILE, `prompts.${layer} is empty and is ignored; fill it in or remove the line.`, ...keyPos));
      continue;
    }
    const r = promptLayer(`prompts.${layer}`).safeParse(value);
    if (!r.success) {
      diagnostics.push(error(FILE, r.error.issues[0]?.message ?? `prompts.${layer} is not valid.`, ...valuePos));
      continue;
    }
    out[layer as keyof typeof PROMPT_LAYERS] = r.data.trim();
  }
  return Object.keys(out).length ? out : undefined;
}
