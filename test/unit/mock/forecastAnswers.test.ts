/**
 * The scripted forecasts (test/support/openaiMock/forecastAnswers.ts), through the real CLI's run and rerank against the
 * spec-checking mock on copies of the samples: each proxy forecasts as its persona would — a designer's blind order puts
 * the set's originals in their own ranking's order, a member prefers the revision holding more of their comment's words —
 * and the control as nobody in particular (the letters in order, a tie). Every forecast is made (valid JSON, first time).
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { memberPreference } from '../../support/openaiMock/forecastAnswers';
import { runFallback } from '../../support/openaiMock/runAnswers';
import { REPO_ROOT, useCliAgainstMock } from '../cli/buildCli';
import { SAMPLE, cleanupFixtures, tempDir } from '../review/fixtures';

interface Forecast {
  kind: 'persona' | 'control';
  designer: string | null;
  ranking?: string[];
  prefer?: string;
  failed?: string;
}

async function runAndRerank(
  rig: ReturnType<typeof useCliAgainstMock>,
  sample: string,
  args: string[],
): Promise<{ review: string; run: string }> {
  const review = path.join(await tempDir('tf-forecast-answers-'), 'review');
  await fs.cp(sample, review, { recursive: true });
  rig.mock.setFallback(runFallback('Scripted reply:'));
  const r = await rig.run(['run', review, ...args, '--iterations', '2', '--turns', '1']);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  const [run] = await fs.readdir(path.join(review, 'runs'));
  const rr = await rig.run(['rerank', review, run!, '--yes']);
  assert.equal(rr.code, 0, rr.stderr + rr.stdout);
  assert.deepEqual(rig.mock.specErrors(), []);
  return { review, run: run! };
}

const forecastsOf = async (review: string, run: string): Promise<Forecast[]> =>
  (JSON.parse(await fs.readFile(path.join(review, 'runs', run, 'forecast.json'), 'utf8')) as { forecasts: Forecast[] }).forecasts;

describe('the scripted server forecasts as each persona would, and the control as nobody in particular', function () {
  this.timeout(180_000);
  const rig = useCliAgainstMock({ checkSpec: true });
  after(cleanupFixtures);

  it("design: each proxy orders the blind set's originals as its designer ranked them; the control gives the letters in order", async () => {
    const { review, run } = await runAndRerank(rig, SAMPLE, []);
    const forecasts = await forecastsOf(review, run);
    const key = JSON.parse(await fs.readFile(path.join(review, 'runs', run, 'rerank', 'key.json'), 'utf8')) as Record<
      string,
      { kind: string; id: string }
    >;
    const letters = Object.keys(key).sort();
    assert.deepEqual(
      forecasts.map((f) => f.failed ?? null),
      forecasts.map(() => null),
      'every forecast is made',
    );
    assert.deepEqual(forecasts.find((f) => f.kind === 'control')!.ranking, letters);
    const personas = forecasts.filter((f) => f.kind === 'persona');
    assert.equal(personas.length, 4);
    for (const f of personas) {
      const file = (await fs.readdir(path.join(review, 'rankings'))).find((x) => x.startsWith(`${f.designer}.`))!;
      const text = await fs.readFile(path.join(review, 'rankings', file), 'utf8');
      const doc = (file.endsWith('.json') ? JSON.parse(text) : parseYaml(text)) as { ranking: Array<{ option: string; rank: number }> };
      const rank = new Map(doc.ranking.map((r) => [r.option, r.rank]));
      const originals = f.ranking!.filter((l) => key[l]!.kind === 'option').map((l) => rank.get(key[l]!.id)!);
      assert.deepEqual(
        originals,
        [...originals].sort((a, b) => a - b),
        `${f.designer}'s forecast keeps their own order of the originals`,
      );
    }
    assert.ok(new Set(personas.map((f) => f.ranking!.join(''))).size >= 3, 'the proxies forecast different orders');
  });

  it("brief: each proxy prefers the revision with more of its member's words; the control says tie", async () => {
    const { review, run } = await runAndRerank(rig, path.join(REPO_ROOT, 'samples', 'brief-review'), ['--task', 'brief']);
    const forecasts = await forecastsOf(review, run);
    assert.deepEqual(
      forecasts.map((f) => f.failed ?? null),
      forecasts.map(() => null),
      'every forecast is made',
    );
    assert.equal(forecasts.find((f) => f.kind === 'control')!.prefer, 'tie');
    const [a, b] = await Promise.all(['A.md', 'B.md'].map((f) => fs.readFile(path.join(review, 'runs', run, 'rerank', f), 'utf8')));
    for (const f of forecasts.filter((x) => x.kind === 'persona')) {
      const comment = (await fs.readFile(path.join(review, 'comments', `${f.designer}.md`), 'utf8')).replace(/^---[\s\S]*?---\n/, '');
      assert.equal(f.prefer, memberPreference(comment, a!, b!), f.designer!);
    }
    assert.equal(memberPreference('warm amber light', 'a warm amber bottle', 'a cold bottle'), 'A');
    assert.equal(memberPreference('warm amber light', 'bottle', 'bottle'), 'tie');
  });
});
