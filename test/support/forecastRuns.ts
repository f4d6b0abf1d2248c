/**
 * The forecast suites' shared set-up: a completed design run made by the real CLI against the mock, the forecast
 * requests among what the mock was sent, forecast.json as written; for a forecast.json a test writes itself, the blind
 * set's letters and the requests run.json holds.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { RecordedRequest } from './openaiMock/types';
import type { MockOpenAI } from './openaiMock';
import { makeRerankSet } from '../../src/core/evaluation';

/** forecast.json as the tests read it. */
export interface ForecastJson {
  runId: string;
  task: 'design' | 'brief';
  letters: string[];
  forecasts: {
    kind: 'persona' | 'control';
    designer: string | null;
    ranking?: string[];
    prefer?: string;
    promptId?: string;
    failed?: string;
  }[];
  sha256: string;
}

/** Whether a request the mock recorded asks for a forecast (the forecast's structured answer). */
export const isForecast = (r: RecordedRequest): boolean => {
  const body = r.body as { response_format?: { json_schema?: { name?: string } } } | undefined;
  return r.route === 'chat' && body?.response_format?.json_schema?.name === 'teamfusion_forecast';
};

/** forecast.json of run `id` in the review at `root`. */
export async function forecastOf(root: string, id: string): Promise<ForecastJson> {
  return JSON.parse(await fs.readFile(path.join(root, 'runs', id, 'forecast.json'), 'utf8')) as ForecastJson;
}

/**
 * Makes a completed design run in the review at `root` (three designers and four options make one remix: two rounds of one
 * turn, together, fixed order) with the suite's CLI against its mock, then resets the mock. Its review and id.
 */
export async function makeDesignRun(
  rig: { run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }>; readonly mock: MockOpenAI },
  root: string,
): Promise<{ root: string; id: string }> {
  const r = await rig.run(['run', root, '--iterations', '2', '--turns', '1', '--mode', 'together', '--order', 'fixed', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const id = (JSON.parse(r.stdout) as { id: string }).id;
  rig.mock.reset();
  return { root, id };
}

/** A forecast request as run.json's prompts hold it (round 1): a forecast.json a test writes names requests like these. */
export const forecastPrompt = (id: string, speaker?: string) => ({
  id,
  iteration: 1,
  kind: 'forecast' as const,
  model: 'm',
  at: '2026-11-21T22:40:05Z',
  ...(speaker ? { speaker } : {}),
});

/** Makes the blind set of run `runId` (makeRerankSet); its letters in order, and reversed. */
export async function blindLetters(root: string, runId: string): Promise<{ letters: string[]; reversed: string[] }> {
  const { key } = await makeRerankSet(root, runId);
  const letters = Object.keys(key).sort();
  return { letters, reversed: [...letters].reverse() };
}
