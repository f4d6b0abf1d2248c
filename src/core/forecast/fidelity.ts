/**
 * Proxy fidelity (issue 32, item 1; contract §7): how well each proxy's sealed forecast matched its own designer's blind
 * answer, against the persona-free control. Design runs: Kendall's τ-b (stats/agreement/tauB.ts) between the forecast order and
 * the designer's blind re-ranking over the same letters, the same for the control, and the lift τ − control. Brief runs:
 * whether the forecast named the member's blind choice (`hit`), the same for the control, and the lift hit − controlHit
 * (1, 0 or −1). The team's means are over the designers who have both a forecast and a blind answer (`n`).
 */
import { kendallTauB } from '../stats/agreement/tauB';
import { meanOrNull } from '../stats/mean';
import type { ForecastFile, PreferAnswer } from './forecastFile';

export interface DesignFidelityRow {
  tau: number;
  /** The control's τ-b against this designer's blind ranking; null when the control failed. */
  control: number | null;
  lift: number | null;
}

export interface BriefFidelityRow {
  hit: boolean;
  controlHit: boolean | null;
  lift: number | null;
}

export interface DesignFidelity {
  task: 'design';
  byDesigner: Record<string, DesignFidelityRow>;
  meanTau: number | null;
  meanControl: number | null;
  meanLift: number | null;
  n: number;
  /** Members whose forecast failed (said in words in forecast.json). */
  failed: string[];
}

export interface BriefFidelity {
  task: 'brief';
  byDesigner: Record<string, BriefFidelityRow>;
  hitRate: number | null;
  controlHitRate: number | null;
  meanLift: number | null;
  n: number;
  failed: string[];
}

export type Fidelity = DesignFidelity | BriefFidelity;

const idKey = (id: string): string => id.toLowerCase();

/** τ-b between a forecast order (best first) and a blind ranking (letter → rank, ties allowed), over the letters both have. */
export function forecastTau(forecast: readonly string[], blind: ReadonlyMap<string, number>): number {
  const letters = forecast.filter((l) => blind.has(l));
  return kendallTauB(
    letters.map((l) => forecast.indexOf(l) + 1),
    letters.map((l) => blind.get(l)!),
  );
}

function personaOf(f: ForecastFile, designer: string): ForecastFile['forecasts'][number] | undefined {
  return f.forecasts.find((e) => e.kind === 'persona' && e.designer !== null && idKey(e.designer) === idKey(designer));
}

const failedOf = (f: ForecastFile): string[] =>
  f.forecasts.flatMap((e) => (e.kind === 'persona' && e.failed && e.designer ? [e.designer] : []));

/** Fidelity of a design run: `blind` maps each designer who re-ranked to their blind ranking (letter → rank). */
export function designFidelity(f: ForecastFile, blind: ReadonlyMap<string, ReadonlyMap<string, number>>): DesignFidelity {
  const control = f.forecasts.find((e) => e.kind === 'control')?.ranking;
  const byDesigner: Record<string, DesignFidelityRow> = {};
  for (const [designer, ranks] of blind) {
    const own = personaOf(f, designer)?.ranking;
    if (!own) continue;
    const tau = forecastTau(own, ranks);
    const c = control ? forecastTau(control, ranks) : null;
    byDesigner[designer] = { tau, control: c, lift: c === null ? null : tau - c };
  }
  const rows = Object.values(byDesigner);
  return {
    task: 'design',
    byDesigner,
    meanTau: meanOrNull(rows.map((r) => r.tau)),
    meanControl: meanOrNull(rows.flatMap((r) => (r.control === null ? [] : [r.control]))),
    meanLift: meanOrNull(rows.flatMap((r) => (r.lift === null ? [] : [r.lift]))),
    n: rows.length,
    failed: failedOf(f),
  };
}

/** Fidelity of a brief run: `blind` maps each member who chose to their blind answer (A, B or tie). */
export function briefFidelity(f: ForecastFile, blind: ReadonlyMap<string, PreferAnswer>): BriefFidelity {
  const control = f.forecasts.find((e) => e.kind === 'control')?.prefer;
  const byDesigner: Record<string, BriefFidelityRow> = {};
  for (const [designer, prefer] of blind) {
    const own = personaOf(f, designer)?.prefer;
    if (!own) continue;
    const hit = own === prefer;
    const controlHit = control ? control === prefer : null;
    byDesigner[designer] = { hit, controlHit, lift: controlHit === null ? null : Number(hit) - Number(controlHit) };
  }
  const rows = Object.values(byDesigner);
  return {
    task: 'brief',
    byDesigner,
    hitRate: meanOrNull(rows.map((r) => Number(r.hit))),
    controlHitRate: meanOrNull(rows.flatMap((r) => (r.controlHit === null ? [] : [Number(r.controlHit)]))),
    meanLift: meanOrNull(rows.flatMap((r) => (r.lift === null ? [] : [r.lift]))),
    n: rows.length,
    failed: failedOf(f),
  };
}

const two = (x: number | null): string => (x === null ? 'none' : x.toFixed(2));
const hitWord = (x: boolean | null): string => (x === null ? 'none' : x ? 'hit' : 'miss');

/** Fidelity in sentences (compare's text output). */
export function fidelitySentences(fd: Fidelity | null, note: string | null): string[] {
  if (!fd) return note ? [note] : [];
  const out: string[] = [];
  if (fd.n === 0) out.push('Proxy fidelity: no designer has both a sealed forecast and a blind answer yet.');
  else if (fd.task === 'design') {
    out.push(
      `Proxy fidelity (Kendall's τ-b between each proxy's sealed forecast and its designer's blind re-ranking, ${fd.n} designer${fd.n === 1 ? '' : 's'}): ` +
        `mean τ-b ${two(fd.meanTau)}, persona-free control ${two(fd.meanControl)}, lift ${two(fd.meanLift)}.`,
    );
    for (const [id, r] of Object.entries(fd.byDesigner))
      out.push(`  ${id}: τ-b ${two(r.tau)}, control ${two(r.control)}, lift ${two(r.lift)}`);
  } else {
    const pct = (x: number | null): string => (x === null ? 'none' : `${Math.round(x * 100)}%`);
    out.push(
      `Proxy fidelity (did each proxy's sealed forecast name its member's blind choice?, ${fd.n} member${fd.n === 1 ? '' : 's'}): ` +
        `hits ${pct(fd.hitRate)}, persona-free control ${pct(fd.controlHitRate)}, lift ${two(fd.meanLift)}.`,
    );
    for (const [id, r] of Object.entries(fd.byDesigner)) out.push(`  ${id}: ${hitWord(r.hit)}, control ${hitWord(r.controlHit)}`);
  }
  if (fd.failed.length) out.push(`No forecast for ${fd.failed.join(', ')} (it failed; forecast.json says why).`);
  return out;
}

const signed = (x: number | null): string => (x === null ? 'none' : `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(2)}`);

/**
 * One member's own fidelity, as the panel shows it beside their ratings of their proxy (after their own blind answer is
 * saved only): τ-b against their blind re-ranking (design), or whether the forecast named their blind choice (brief).
 */
export function ownFidelitySentence(r: DesignFidelityRow | BriefFidelityRow): string {
  if ('hit' in r)
    return `Your proxy's forecast of your blind choice between the two briefs: ${hitWord(r.hit)} (control ${hitWord(r.controlHit)}, lift ${signed(r.lift)}).`;
  return `Your proxy's forecast of your blind ranking: τ = ${two(r.tau)} (control ${two(r.control)}, lift ${signed(r.lift)}).`;
}
