/**
 * Text helpers of the brief review shared by the host and the webview: no zod, no runtime imports (the webview bundle
 * carries no schema library), types only from ./brief.
 */
import type { CoverageEntry, SummaryItem } from './brief';

/** Per member: points kept, changed, left out (for the coverage table's badges). */
export function coverageByMember(
  coverage: readonly CoverageEntry[],
): Map<string, { kept: number; changed: number; leftOut: number; entries: CoverageEntry[] }> {
  const out = new Map<string, { kept: number; changed: number; leftOut: number; entries: CoverageEntry[] }>();
  for (const c of coverage) {
    const m = out.get(c.designer) ?? { kept: 0, changed: 0, leftOut: 0, entries: [] };
    if (c.status === 'kept') m.kept++;
    else if (c.status === 'changed') m.changed++;
    else m.leftOut++;
    m.entries.push(c);
    out.set(c.designer, m);
  }
  return out;
}

/** A summary item as one line of text: an object's sentences, the members it names in brackets, nested sides after "—". */
export function summaryText(item: SummaryItem | unknown, nameOf: (id: string) => string = (id) => id): string {
  const fmt = (v: unknown, depth: number): string => {
    if (typeof v === 'string') return v;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    if (depth > 4 || !v || typeof v !== 'object') return '';
    if (Array.isArray(v))
      return v
        .map((x) => fmt(x, depth + 1))
        .filter(Boolean)
        .join('; ');
    const texts: string[] = [];
    const names: string[] = [];
    const children: string[] = [];
    for (const [k, x] of Object.entries(v)) {
      if (/^(designers?|members?|who|holders?|heldBy)$/i.test(k)) {
        for (const n of Array.isArray(x) ? x : [x]) if (typeof n === 'string') names.push(nameOf(n));
      } else if (typeof x === 'string' || typeof x === 'number') texts.push(String(x));
      else {
        const c = fmt(x, depth + 1);
        if (c) children.push(c);
      }
    }
    return `${texts.join(': ')}${names.length ? ` (${names.join(', ')})` : ''}${children.length ? ` — ${children.join('; ')}` : ''}`.trim();
  };
  return fmt(item, 0);
}
