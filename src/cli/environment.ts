/**
 * What the commands that send requests read from the environment: numbers (timeouts, retries) and the price table.
 */
import { PriceTableSchema, type PriceTable } from '../core/llm/pricing';
import { readNamedFile, ReviewFileError } from '../core/files/reviewFiles';
import { FILE_KINDS, checkKindText } from '../core/files/fileKinds';

export function envNumber(name: string, scale: number): number | undefined {
  const v = process.env[name]?.trim();
  if (!v) return undefined;
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 ? n * scale : undefined;
}

/**
 * TEAMFUSION_PRICES names a JSON file with prices merged over the built-in table, e.g.
 * `{ "my-model": { "inputPerMTok": 1, "cachedInputPerMTok": 0.5, "outputPerMTok": 4 }, "gpt-image-1": { "perImage": 0.04 } }`.
 */
export async function readPriceTable(file: string | undefined): Promise<PriceTable | undefined> {
  if (!file?.trim()) return undefined;
  let text: string;
  try {
    text = (await readNamedFile(file, file, FILE_KINDS.prices.maxBytes)).toString('utf8');
    checkKindText(file, text, 'prices');
  } catch (err) {
    throw new Error(`TEAMFUSION_PRICES names ${file}, which cannot be read${err instanceof ReviewFileError ? ` (${err.message})` : ''}.`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${file} (TEAMFUSION_PRICES) is not valid JSON.`);
  }
  const parsed = PriceTableSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${file} (TEAMFUSION_PRICES): ${issue.path.join('.') || 'the table'}: ${issue.message}.`);
  }
  return parsed.data;
}
