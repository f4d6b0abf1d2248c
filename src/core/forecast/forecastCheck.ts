/**
 * A sealed forecast.json recomputed at every read (issue 39, item 3): its hash proves only that the file and run.json agree,
 * so what can be checked against something else is checked again each time compare or evaluate reads it. Each forecast
 * counts only when its letters are the blind set's own (the key's letters: every one once, none beside them), its request
 * is one of the run's recorded forecast prompts for the same designer (`promptId`), and its designer is on the run's team.
 * A forecast that fails is left out of every count and said in one sentence (`file:1:1: error: …`).
 */
import type { RunRecord } from '../record/record';
import { designerKey } from '../rankings/designerId';
import { forecastRel, type ForecastEntry, type ForecastFile } from './forecastFile';

/** What a forecast is checked against: the blind set's letters (its key), the run's team (designer ids). */
export interface ForecastAgainst {
  letters: readonly string[];
  team: readonly string[];
}

export interface CheckedForecasts {
  /** The file with only the forecasts that count. */
  file: ForecastFile;
  /** One sentence per forecast left out. */
  ignored: string[];
}

const whose = (e: ForecastEntry): string => (e.kind === 'control' ? 'the control forecast' : `${e.designer}'s forecast`);

/** Why this forecast does not count, or null when it does. */
function fault(e: ForecastEntry, record: Pick<RunRecord, 'prompts'>, against: ForecastAgainst, task: ForecastFile['task']): string | null {
  if (e.kind === 'persona' && !against.team.some((id) => designerKey(id) === designerKey(e.designer ?? ''))) {
    return `${whose(e)} is for someone not on this run's team (${against.team.join(', ')}), so it is not counted.`;
  }
  if (e.failed !== undefined) return null;
  if (task === 'design' && e.ranking) {
    const stray = e.ranking.filter((l) => !against.letters.includes(l));
    if (stray.length)
      return `${whose(e)} names ${stray.join(', ')}, not a letter of the blind set (${against.letters.join(', ')}), so it is not counted.`;
    const missing = against.letters.filter((l) => !e.ranking!.includes(l));
    if (missing.length) return `${whose(e)} leaves out ${missing.join(', ')} of the blind set, so it is not counted.`;
  }
  if (task === 'brief' && e.prefer && e.prefer !== 'tie' && !against.letters.includes(e.prefer)) {
    return `${whose(e)} prefers ${e.prefer}, not a letter of the blind pair (${against.letters.join(', ')}), so it is not counted.`;
  }
  const asked = e.promptId === undefined ? undefined : record.prompts.find((p) => p.id === e.promptId);
  const speakerFits =
    asked !== undefined &&
    (e.kind === 'control'
      ? asked.speaker === undefined
      : asked.speaker !== undefined && designerKey(asked.speaker) === designerKey(e.designer ?? ''));
  if (!asked || asked.kind !== 'forecast' || !speakerFits) {
    const named = e.promptId === undefined ? 'names no request' : `names the request ${e.promptId}, which`;
    return `${whose(e)} ${named} ${e.promptId === undefined ? 'of' : 'is not its forecast request in'} run.json's prompts, so it is not counted.`;
  }
  return null;
}

/** The forecasts of `file` that count against the run's record, its blind set's letters and its team; the rest said. */
export function checkForecasts(file: ForecastFile, record: Pick<RunRecord, 'id' | 'prompts'>, against: ForecastAgainst): CheckedForecasts {
  const rel = forecastRel(record.id);
  const ignored: string[] = [];
  const forecasts = file.forecasts.filter((e) => {
    const why = fault(e, record, against, file.task);
    if (why) ignored.push(`${rel}:1:1: error: ${why}`);
    return why === null;
  });
  return { file: { ...file, forecasts }, ignored };
}
