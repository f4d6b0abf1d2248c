/** formatRankingYaml: a ranking as readable YAML, the way a designer would write it (option ids always quoted). */
import { Document, isScalar, visit } from '../kernel/yaml';
import type { RankingEntry } from './ranking';

export interface RankingToWrite {
  designer: string;
  role?: string;
  weight?: number;
  ranking: RankingEntry[];
}

export function formatRankingYaml(r: RankingToWrite): string {
  const body: Record<string, unknown> = { designer: r.designer };
  if (r.role !== undefined && r.role !== '') body.role = r.role;
  if (r.weight !== undefined) body.weight = r.weight;
  body.ranking = r.ranking.map((e) => ({ option: String(e.option), rank: e.rank, justification: e.justification }));
  const doc = new Document(body);
  visit(doc, {
    Pair(_, pair) {
      // "4" must stay the text "4", and an id like "yes" or "1e3" must not turn into something else.
      if (isScalar(pair.key) && pair.key.value === 'option' && isScalar(pair.value)) pair.value.type = 'QUOTE_DOUBLE';
      // Words that YAML 1.1 tools read as true/false/null stay text everywhere.
      if (
        isScalar(pair.value) &&
        typeof pair.value.value === 'string' &&
        /^(y|yes|n|no|on|off|true|false|null|~)$/i.test(pair.value.value)
      ) {
        pair.value.type = 'QUOTE_DOUBLE';
      }
    },
  });
  return doc.toString({ lineWidth: 0, indentSeq: true });
}

/** The same ranking as pretty JSON (for files that already are .json). */
export function formatRankingJson(r: RankingToWrite): string {
  const body: Record<string, unknown> = { designer: r.designer };
  if (r.role !== undefined && r.role !== '') body.role = r.role;
  if (r.weight !== undefined) body.weight = r.weight;
  body.ranking = r.ranking.map((e) => ({ option: String(e.option), rank: e.rank, justification: e.justification }));
  return `${JSON.stringify(body, null, 2)}\n`;
}
