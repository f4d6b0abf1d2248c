/**
 * Optional review.yaml: title, lead, run settings and (contract §1) team roles/weights. Unknown keys are warnings;
 * values of the wrong kind are errors at the value's line:col.
 */
import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import type { Node } from 'yaml';
import { z } from 'zod';
import type { Diagnostic, ReviewConfig } from './model';
import { error, warning } from './diagnostics';
import { closestId } from './suggest';
import { shown } from './rankingFields';
import { yamlProblem } from './rankingText';
import { wholeSetting } from '../run/settingBounds';

const FILE = 'review.yaml';

const text = (field: string) =>
  z.string({ error: (iss) => `${field} must be text (found ${shown(iss.input)}).` }).refine((s) => s.trim() !== '', {
    error: `${field} is empty; fill it in or remove the line.`,
  });

const teamMember = z.object(
  {
    role: z.string({ error: (iss) => `A team member's role must be text (found ${shown(iss.input)}).` }).optional(),
    weight: z
      .number({ error: (iss) => `A team member's weight must be a number greater than 0 (found ${shown(iss.input)}).` })
      .positive({ error: (iss) => `A team member's weight must be a number greater than 0 (found ${shown(iss.input)}).` })
      .optional(),
  },
  { error: (iss) => `Each team member (by designer id) needs role: and/or weight: (found ${shown(iss.input)}).` },
);

const FIELDS = {
  title: text('title'),
  lead: text('lead'),
  chatModel: text('chatModel'),
  imageModel: text('imageModel'),
  turnsPerAgent: wholeSetting('turnsPerAgent'),
  iterations: wholeSetting('iterations'),
  imageMaxSide: wholeSetting('imageMaxSide'),
  team: z.record(z.string(), teamMember, {
    error: (iss) => `team must list designer ids, each with role: and/or weight: (found ${shown(iss.input)}).`,
  }),
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
  const lineCounter = new LineCounter();
  const doc = parseDocument(source, { lineCounter, uniqueKeys: true, prettyErrors: false });
  const at = (offset: number): [number, number] => {
    const p = lineCounter.linePos(offset);
    return [p.line, p.col];
  };
  const firstError = doc.errors[0];
  if (firstError) {
    const hint = yamlProblem(firstError.code, firstError.message.split(/ at line \d+/)[0]);
    diagnostics.push(error(FILE, `This is not valid YAML: ${hint}`, ...at(firstError.pos[0])));
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
    if (!(known as string[]).includes(key)) {
      const guess = closestId(key, known);
      diagnostics.push(
        warning(FILE, `Unknown setting "${key}" is ignored.${guess ? ` Did you mean "${guess}"?` : ''} Known: ${known.join(', ')}.`, ...keyPos),
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
      diagnostics.push(error(FILE, r.error.issues[0]?.message ?? `${key} is not valid.`, ...valuePos));
      continue;
    }
    (config as Record<string, unknown>)[key] = typeof r.data === 'string' ? r.data.trim() : r.data;
  }
  return { config, diagnostics, positions };
}
