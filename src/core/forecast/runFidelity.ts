/**
 * A run's fidelity as compare shows it: its sealed forecast.json read (and checked against the seal run.json keeps), then
 * checked again against the blind set's letters, the run's prompts and its team (forecastCheck.ts), then matched with the
 * blind answers compare already read. A run without forecasts has none (said in `note`); a forecast
 * that is unusable or tampered with is a problem (`file:line:col: error: …`), never used.
 */
import { ReviewFileError } from '../files/reviewFiles';
import type { RunRecord } from '../record/record';
import { designerKey } from '../rankings/designerId';
import { briefFidelity, designFidelity, type Fidelity } from './fidelity';
import { forecastRel, readForecastFile, type PreferAnswer } from './forecastFile';
import { checkForecasts, type ForecastAgainst } from './forecastCheck';
import { DRIVER_MADE, driversFilesRefusal } from '../record/recordAuthor';
import type { AuthorshipDoor } from '../authorship/door';

/** What the designers answered blind: their re-rankings (design) or preferences (brief). */
export type BlindAnswers =
  | { task: 'design'; rankings: readonly { designer: string; ranks: ReadonlyMap<string, number> }[] }
  | { task: 'brief'; preferences: readonly { designer: string; prefer: PreferAnswer }[] };

export interface RunFidelity {
  fidelity: Fidelity | null;
  /** Why there is no fidelity, in words (no forecasts made); null when there is one or a problem says why. */
  note: string | null;
  /** forecast.json unusable or tampered with. */
  problem: string | null;
  /** Forecasts left out, one sentence each (forecastCheck.ts): a letter not in the set, a request never made, a non-member. */
  ignored: string[];
}

/**
 * `door`: the review's authorship door when the reader has one open (else one is opened): forecast.json counts only as
 * its maker, the run's driver, committed it (issue 39, item 3).
 */
export async function runFidelity(
  root: string,
  record: RunRecord,
  blind: BlindAnswers,
  against: ForecastAgainst,
  door?: AuthorshipDoor,
): Promise<RunFidelity> {
  let sealed;
  try {
    sealed = await readForecastFile(root, record);
  } catch (err) {
    if (!(err instanceof ReviewFileError)) throw err;
    return {
      fidelity: null,
      note: null,
      ignored: [],
      problem: /:\d+:\d+: error: /.test(err.message) ? err.message : `${err.file}:1:1: error: ${err.message}`,
    };
  }
  if (!sealed && record.forecastSha256) {
    return {
      fidelity: null,
      note: null,
      ignored: [],
      problem: `${forecastRel(record.id)}:1:1: error: run.json seals a forecast.json, but it is not there, so there is no proxy fidelity (put back the one rerank wrote).`,
    };
  }
  if (sealed) {
    const unmade = await driversFilesRefusal(root, record.id, DRIVER_MADE.forecast.owned, door, DRIVER_MADE.forecast.alone);
    if (unmade) return { fidelity: null, note: null, ignored: [], problem: `${unmade.file}:1:1: error: ${unmade.sentence}` };
  }
  if (!sealed)
    return {
      fidelity: null,
      note: `No proxy forecasts were made for this run (${forecastRel(record.id)}), so there is no proxy fidelity.`,
      problem: null,
      ignored: [],
    };
  if (blind.task !== sealed.task)
    return {
      fidelity: null,
      note: null,
      problem: `${forecastRel(record.id)}:1:1: error: These forecasts are for a ${sealed.task} run, but run ${record.id} is a ${blind.task} run.`,
      ignored: [],
    };
  const { file, ignored } = checkForecasts(sealed, record, against);
  // Designer ids as the forecast names them (the one id rule: file names match whatever their case).
  const named = (id: string): string =>
    file.forecasts.find((e) => e.designer !== null && designerKey(e.designer) === designerKey(id))?.designer ?? id;
  const fidelity =
    blind.task === 'design'
      ? designFidelity(file, new Map(blind.rankings.map((r) => [named(r.designer), r.ranks])))
      : briefFidelity(file, new Map(blind.preferences.map((p) => [named(p.designer), p.prefer])));
  return { fidelity, note: null, problem: null, ignored };
}
