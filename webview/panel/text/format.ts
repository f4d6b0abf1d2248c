/** Number and text formatting for the panel. Pure functions (unit tested). */
import type { RunSummary } from '../../../src/protocol/panel';

export function fixed(n: number, digits = 2): string {
  return Number.isFinite(n) ? n.toFixed(digits) : '–';
}

/** p-values: "< 0.001" below a thousandth, else three decimals. */
export function pValue(p: number): string {
  if (!Number.isFinite(p)) return '–';
  return p < 0.001 ? '< 0.001' : p.toFixed(3);
}

export function ordinal(n: number): string {
  const r = Math.round(n);
  if (r !== n) return n.toFixed(1);
  const s = r % 100 >= 11 && r % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][r % 10] ?? 'th');
  return `${r}${s}`;
}

/** "1 run", "2 runs": a count with its noun in the right number (`many` for irregular plurals). */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${integer(n)} ${n === 1 ? one : many}`;
}

/**
 * A whole number with thousands separators ("12,345"), as `toLocaleString('en-US')` writes it but without Intl: the
 * first Intl call of a page loads its locale data, tens of milliseconds of the panel's first frame.
 */
export function integer(n: number): string {
  const r = Math.round(n);
  if (!Number.isFinite(r)) return String(r);
  return String(r).replace(/\B(?=(\d{3})+$)/g, ',');
}

export function usd(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n)) return 'unknown';
  return n < 0.01 && n > 0 ? '< $0.01' : `$${n.toFixed(2)}`;
}

/**
 * An ISO time ("2026-11-21T22:40:05.123Z") or a run id's time ("2026-11-21T22-40-05Z-3f9c") as a readable date and time
 * in the viewer's time zone (`timeZone` only for tests): "21 Nov 2026, 23:40". Anything else is shown as it is.
 */
export function readableTime(iso: string, timeZone?: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})[:-](\d{2})(?:[:-](\d{2}(?:\.\d+)?))?(Z|[+-]\d{2}:?\d{2})?/.exec(iso);
  if (!m) return iso;
  const d = new Date(`${m[1]}T${m[2]}:${m[3]}:${m[4] ?? '00'}${m[5] ?? ''}`);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
    timeZone,
  });
}

/** A line of the run picker: "1 Mar 2026, 10:04 · completed · 2 iterations · partly scripted" (`timeZone` only for tests). */
export function runOptionLabel(
  r: Pick<RunSummary, 'startedAt' | 'status' | 'iterations' | 'interrupted' | 'scripted' | 'partlyScripted'>,
  timeZone?: string,
): string {
  const scripted = r.scripted ? ' · scripted' : r.partlyScripted ? ' · partly scripted' : '';
  return `${readableTime(r.startedAt, timeZone)} · ${r.interrupted ? 'interrupted' : r.status} · ${count(r.iterations, 'iteration')}${scripted}`;
}

/** The plain sentence for a Kendall's W when the analysis carries none. */
export function agreementSentence(w: number, band: string, p: number, designers: number): string {
  const strength = band.replace(/-/g, ' ');
  const sig = p < 0.05 ? 'unlikely to be chance' : 'could well be chance';
  return `The ${designers} designers show ${strength} agreement (W = ${fixed(w)}); an agreement this strong ${sig} (p ${p < 0.001 ? '< 0.001' : `= ${p.toFixed(3)}`}).`;
}
