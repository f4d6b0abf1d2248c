/**
 * runs/<run-id>/rerank/key.json: `{"A": {"kind": "option"|"remix", "id": "4"|"r1", "file": "…"}}` (a brief run: kind
 * "teamfusion"|"direct") — which letter of the
 * blind re-rank set is which source (`file` relative to the review root). Read (capped, contained) only when the
 * comparison is shown. The letters are drawn here (assignLetters), for the design and the brief re-rank sets alike.
 */
import { createHash } from 'node:crypto';
import * as z from 'zod';
import { readKindText } from '../files/fileKinds';
import { ReviewFileError } from '../files/reviewFiles';
import { zodSentence } from '../kernel/zodText';
import { checkJsonSyntax } from '../diagnostics/jsonSyntax';
import { keyRel } from './paths';
import { SeededRandom, seedFromText } from '../stats/prng';

const SourceSchema = z
  .object({ kind: z.enum(['option', 'remix', 'teamfusion', 'direct']), id: z.string().min(1), file: z.string().min(1) })
  .strict();
export const KeyEntrySchema = SourceSchema.extend({
  /** (design) The sources whose image is byte-for-byte this letter's (as a blind PNG): shown once, under this letter. */
  same: z.array(SourceSchema).max(100).optional(),
  /** (brief) The lines of the revision taken out or changed because they named its method, round or model (blindText.ts). */
  removed: z
    .array(z.object({ line: z.number().int().positive(), was: z.string().max(2000), now: z.string().max(2000).optional() }).strict())
    .max(1000)
    .optional(),
}).strict();
export const RerankKeySchema = z.record(z.string().regex(/^[A-Z]+$/, 'a letter A, B, C, …'), KeyEntrySchema);
export type RerankKey = z.infer<typeof RerankKeySchema>;

export function formatKey(key: RerankKey): string {
  return `${JSON.stringify(key, null, 2)}\n`;
}

function lineColOf(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `${before.length}:${before[before.length - 1]!.length + 1}`;
}

/** The key of a run's re-rank set; throws ReviewFileError (`file:line:col: error: …` in its message) when it is unusable. */
export async function readKey(reviewRoot: string, runId: string, expectedSha256?: string): Promise<RerankKey> {
  const file = keyRel(runId);
  const text = await readKindText(reviewRoot, file, 'rerankKey');
  if (expectedSha256 && createHash('sha256').update(text).digest('hex') !== expectedSha256) {
    throw new ReviewFileError(
      file,
      `${file}:0:0: error: This key is not the one teamfusion rerank wrote (its sha256 differs from the one run.json keeps), so it is not used.`,
    );
  }
  const syntax = checkJsonSyntax(text);
  if (syntax)
    throw new ReviewFileError(file, `${file}:${lineColOf(text, syntax.offset)}: error: This is not valid JSON: ${syntax.message}`);
  const parsed = RerankKeySchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    void issue;
    throw new ReviewFileError(file, `${file}:0:0: error: ${zodSentence(parsed.error, 'the key')}`);
  }
  const ids = new Set<string>();
  for (const [letter, e] of Object.entries(parsed.data)) {
    for (const s of [e, ...(e.same ?? [])]) {
      if (ids.has(`${s.kind}:${s.id}`)) throw new ReviewFileError(file, `${file}:0:0: error: ${letter} repeats the ${s.kind} "${s.id}".`);
      ids.add(`${s.kind}:${s.id}`);
    }
  }
  return parsed.data;
}

/** A, B, …, Z, AA, AB, … */
export function letterOf(index: number): string {
  let s = '';
  let k = index;
  do {
    s = String.fromCharCode(65 + (k % 26)) + s;
    k = Math.floor(k / 26) - 1;
  } while (k >= 0);
  return s;
}

export interface RerankSource {
  kind: RerankKey[string]['kind'];
  id: string;
  /** Relative to the review root. */
  file: string;
}

/** Whether the letter's entry stands for the source `id` (itself, or one of the byte-identical sources it stands for). */
export function letterHolds(e: RerankKey[string] | undefined, id: string): boolean {
  return e !== undefined && (e.id === id || (e.same ?? []).some((s) => s.id === id));
}

/** Letters for the sources in a shuffle seeded by the run id (Fisher–Yates with the project's generator). */
export function assignLetters(runId: string, sources: readonly RerankSource[]): RerankKey {
  const order = sources.map((_, i) => i);
  const rng = new SeededRandom(seedFromText(runId));
  for (let i = order.length - 1; i > 0; i--) {
    const k = rng.nextBelow(i + 1);
    [order[i], order[k]] = [order[k]!, order[i]!];
  }
  const key: RerankKey = {};
  order.forEach((src, slot) => {
    const s = sources[src]!;
    key[letterOf(slot)] = { kind: s.kind, id: s.id, file: s.file };
  });
  return key;
}

export interface RerankSetResult {
  /** Absolute path of runs/<run-id>/rerank. */
  dir: string;
  key: RerankKey;
  /** What the set changed to stay blind, in sentences (identical images made one letter; lines naming a method removed). */
  notes?: string[];
}
