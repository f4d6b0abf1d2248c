/**
 * Proxy fidelity (issue 32, item 1), end to end through the real CLI against the scripted server, with real files: a run,
 * then `rerank`, whose proxies each forecast their own designer's blind answer from the persona their discussion turns
 * carried, plus one persona-free control; the forecasts sealed in forecast.json; `compare --json` giving τ-b, control and
 * lift equal to a computation from the files written here; a non-permutation repaired, then failed in words; a forecast
 * changed afterwards refused; --no-forecast sending nothing; a brief run's hits and misses.
 */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { loadPrompt } from '../../../src/core/record/promptParts';
import { useCliAgainstMock, type CliRun } from '../cli/buildCli';
import { forecastOf, isForecast, makeDesignRun } from '../../support/forecastRuns';
import { makeBriefRunReview, makeReview } from '../run/fixtures';
import { writeRerankRanking } from '../evaluation/fixtures';
import { runJson } from '../run/helpers';
import { parse as parseYaml } from 'yaml';

/** Kendall's τ-b written out plainly: x and y give each item's rank (1 = best). */
function tauB(x: number[], y: number[]): number {
  let concordant = 0;
  let discordant = 0;
  let tiedX = 0;
  let tiedY = 0;
  for (let i = 0; i < x.length; i++) {
    for (let j = i + 1; j < x.length; j++) {
      const a = Math.sign(x[i]! - x[j]!);
      const b = Math.sign(y[i]! - y[j]!);
      if (a === 0) tiedX++;
      if (b === 0) tiedY++;
      if (a !== 0 && b !== 0) {
        if (a === b) concordant++;
        else discordant++;
      }
    }
  }
  const pairs = (x.length * (x.length - 1)) / 2;
  return (concordant - discordant) / Math.sqrt((pairs - tiedX) * (pairs - tiedY));
}

describe('proxy fidelity: forecasts of the blind re-rank', function () {
  this.timeout(240_000);
  const rig = useCliAgainstMock();
  const tf = (...args: string[]): Promise<CliRun> => rig.run(args);

  const designRun = async (): Promise<{ root: string; id: string }> => makeDesignRun(rig, await makeReview({ options: 4, designers: 3 }));

  it('each designer and the control forecast, sealed in forecast.json; compare --json gives the τ-b, control and lift computed from the files', async () => {
    const { root, id } = await designRun();
    const before = await runJson(root, id);
    // The blind set has 4 letters (the Borda top 3 and the remix): each proxy answers an order of its own; the control another.
    rig.mock.enqueue(
      'chat',
      { kind: 'json', value: { ranking: ['B', 'A', 'D', 'C'] } },
      { kind: 'json', value: { ranking: ['D', 'C', 'B', 'A'] } },
      { kind: 'json', value: { ranking: ['A', 'B', 'C', 'D'] } },
      { kind: 'json', value: { ranking: ['C', 'D', 'A', 'B'] } },
    );
    const made = await tf('rerank', root, id);
    assert.equal(made.code, 0, made.stderr);
    assert.match(made.stderr, /Forecasts sealed in runs\/.+\/forecast\.json: 4 of 4 made \(4 requests/);
    assert.doesNotMatch(made.stdout + made.stderr, /B, A, D, C|"ranking"/, 'no forecast is shown when it is made');

    const sent = rig.mock.requests.filter(isForecast);
    assert.equal(sent.length, 4, 'one request per designer and one control');
    for (const r of sent) {
      const schema = (
        r.body as {
          response_format: { json_schema: { strict: boolean; schema: { properties: { ranking: { items: { enum: string[] } } } } } };
        }
      ).response_format.json_schema;
      assert.equal(schema.strict, true);
      assert.deepEqual(schema.schema.properties.ranking.items.enum, ['A', 'B', 'C', 'D']);
    }

    const f = await forecastOf(root, id);
    assert.equal(f.runId, id);
    assert.equal(f.task, 'design');
    assert.deepEqual(f.letters, ['A', 'B', 'C', 'D']);
    assert.deepEqual(
      f.forecasts.map((x) => [x.kind, x.designer]),
      [
        ['persona', 'd1'],
        ['persona', 'd2'],
        ['persona', 'd3'],
        ['control', null],
      ],
    );
    assert.deepEqual(
      f.forecasts.map((x) => x.ranking),
      [
        ['B', 'A', 'D', 'C'],
        ['D', 'C', 'B', 'A'],
        ['A', 'B', 'C', 'D'],
        ['C', 'D', 'A', 'B'],
      ],
    );

    // Sealed: run.json keeps the hash of the content; the prompts are in the record by reference, their usage in the run's.
    const after = await runJson(root, id);
    const { sha256, ...content } = f;
    assert.equal(createHash('sha256').update(JSON.stringify(content)).digest('hex'), sha256);
    assert.equal(after.forecastSha256, sha256);
    const prompts = after.prompts.filter((p) => p.kind === 'forecast');
    assert.deepEqual(
      prompts.map((p) => p.id),
      f.forecasts.map((x) => x.promptId),
    );
    assert.ok(
      prompts.every((p) => p.messages === undefined && p.parts !== undefined && p.sha256),
      'recorded by reference (prompts.jsonl)',
    );
    assert.deepEqual(
      prompts.map((p) => p.speaker),
      ['d1', 'd2', 'd3', undefined],
    );
    const added = sent.reduce((n, r) => n + ((r.body as { messages: unknown[] }).messages.length > 0 ? 1 : 0), 0);
    assert.equal(added, 4);
    assert.ok(after.usage.inputTokens > before.usage.inputTokens, "the forecasts' tokens are in the run's usage");
    assert.equal(
      after.usage.inputTokens - before.usage.inputTokens,
      prompts.reduce((n, p) => n + (p.usage?.inputTokens ?? 0), 0),
    );

    // The persona of the discussion (who, their ranking and reasons), without a discussion turn's task, format or length.
    const names: Record<string, string> = { d1: 'Ana', d2: 'Ben', d3: 'Chloé' };
    for (const d of ['d1', 'd2', 'd3']) {
      const ranking = parseYaml(await fs.readFile(path.join(root, 'rankings', `${d}.yaml`), 'utf8')) as {
        ranking: { justification: string }[];
      };
      const forecast = (await loadPrompt(root, after, prompts.find((p) => p.speaker === d)!.id))!;
      const persona = forecast[0]!;
      assert.equal(persona.role, 'system');
      assert.ok(
        typeof persona.content === 'string' && persona.content.startsWith(`You are role-playing "${names[d]}"`),
        `${d}'s forecast speaks as ${names[d]}`,
      );
      for (const r of ranking.ranking)
        assert.ok(persona.content.includes(JSON.stringify(r.justification)), `${d}'s reasons are in the persona`);
      assert.doesNotMatch(
        persona.content,
        /120 words|plain prose|one to three sentences|no list|Round \d+ of|turn \d+ of/i,
        "no discussion turn's format, length or task",
      );
      const images = forecast.flatMap((m) => (typeof m.content === 'string' ? [] : m.content.filter((p) => p.type === 'image')));
      assert.deepEqual(
        images.map((p) => (p.type === 'image' ? p.file : '')),
        ['A', 'B', 'C', 'D'].map((l) => `runs/${id}/rerank/options/${l}.png`),
      );
    }
    const control = JSON.stringify(await loadPrompt(root, after, prompts[3]!.id));
    assert.doesNotMatch(control, /role-playing|Ana|Ben|Chloé/, 'the control carries no member');

    // The designers re-rank blind; compare gives τ-b, control and lift equal to the computation from the files.
    const blind: Record<string, Record<string, number>> = {
      d1: { A: 1, B: 2, C: 3, D: 4 },
      d2: { A: 4, B: 3, C: 1, D: 2 },
      d3: { A: 2, B: 1, C: 3, D: 3 },
    };
    const dir = path.join(root, 'runs', id, 'rerank');
    for (const [d, ranks] of Object.entries(blind)) await writeRerankRanking(dir, d, ranks);
    const compared = await tf('compare', root, id, '--json');
    assert.equal(compared.code, 0, compared.stderr);
    const fidelity = (
      JSON.parse(compared.stdout) as {
        fidelity: {
          byDesigner: Record<string, { tau: number; control: number; lift: number }>;
          meanTau: number;
          meanControl: number;
          meanLift: number;
          n: number;
        };
      }
    ).fidelity;
    const rankOf = (order: string[], l: string): number => order.indexOf(l) + 1;
    const letters = f.letters;
    const expected: Record<string, { tau: number; control: number; lift: number }> = {};
    for (const e of f.forecasts.filter((x) => x.kind === 'persona')) {
      const ranks = blind[e.designer!]!;
      const tau = tauB(
        letters.map((l) => rankOf(e.ranking!, l)),
        letters.map((l) => ranks[l]!),
      );
      const c = tauB(
        letters.map((l) => rankOf(f.forecasts[3]!.ranking!, l)),
        letters.map((l) => ranks[l]!),
      );
      expected[e.designer!] = { tau, control: c, lift: tau - c };
    }
    assert.equal(fidelity.n, 3);
    for (const d of Object.keys(blind)) {
      for (const k of ['tau', 'control', 'lift'] as const)
        assert.ok(Math.abs(fidelity.byDesigner[d]![k] - expected[d]![k]) < 1e-12, `${d} ${k}`);
    }
    const mean = (k: 'tau' | 'control' | 'lift'): number => Object.values(expected).reduce((s, r) => s + r[k], 0) / 3;
    assert.ok(Math.abs(fidelity.meanTau - mean('tau')) < 1e-12);
    assert.ok(Math.abs(fidelity.meanControl - mean('control')) < 1e-12);
    assert.ok(Math.abs(fidelity.meanLift - mean('lift')) < 1e-12);
    const text = await tf('compare', root, id);
    assert.match(text.stdout, /Proxy fidelity \(Kendall's τ-b .*3 designers\): mean τ-b/);
    // evaluate carries the run's lift among its per-run measures (the mean over runs with its interval; one run: no interval).
    const evaluated = await tf('evaluate', root, '--json');
    const lift = (
      JSON.parse(evaluated.stdout) as {
        overall: { perRun: { fidelityLift: { n: number; mean: number; low: number | null; high: number | null } } };
      }
    ).overall.perRun.fidelityLift;
    assert.equal(lift.n, 1, evaluated.stderr);
    assert.ok(Math.abs(lift.mean - mean('lift')) < 1e-12);
    assert.deepEqual([lift.low, lift.high], [null, null]);

    // A letter changed after the re-rank was saved (the file's own hash kept as it was): noticed against run.json's, said.
    const file = path.join(root, 'runs', id, 'forecast.json');
    const tampered = { ...f, forecasts: f.forecasts.map((x, i) => (i === 0 ? { ...x, ranking: ['A', 'B', 'D', 'C'] } : x)) };
    await fs.writeFile(file, `${JSON.stringify(tampered, null, 2)}\n`);
    const refused = await tf('compare', root, id, '--json');
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      new RegExp(
        `runs/${id}/forecast\\.json:1:1: error: This forecast is not the one teamfusion rerank wrote \\(its content no longer matches the one run\\.json keeps\\), so it is not used\\.`,
      ),
    );
    assert.equal((JSON.parse(refused.stdout) as { fidelity: unknown }).fidelity, null);
    // Its own hash recomputed by whoever changed it does not help: run.json keeps the seal.
    const { sha256: _old, ...rest } = tampered;
    const resealed = { ...rest, sha256: createHash('sha256').update(JSON.stringify(rest)).digest('hex') };
    await fs.writeFile(file, `${JSON.stringify(resealed, null, 2)}\n`);
    assert.match(
      (await tf('compare', root, id, '--json')).stderr,
      /forecast\.json:1:1: error: This forecast is not the one teamfusion rerank wrote/,
    );
  });

  it('a ranking that is not every letter once is repaired; still not one after the bounded retries, it is recorded as failed in words', async () => {
    const { root, id } = await designRun();
    rig.mock.enqueue(
      'chat',
      { kind: 'json', value: { ranking: ['A', 'A', 'B', 'C'] } }, // d1: A twice, D missing …
      { kind: 'json', value: { ranking: ['D', 'A', 'B', 'C'] } }, // … repaired
      { kind: 'json', value: { ranking: ['B', 'B', 'B', 'B'] } }, // d2: never a permutation
      { kind: 'json', value: { ranking: ['C', 'C', 'A', 'D'] } },
      { kind: 'json', value: { ranking: ['A', 'B', 'C'] } },
      { kind: 'json', value: { ranking: ['C', 'A', 'B', 'D'] } }, // d3
      { kind: 'json', value: { ranking: ['A', 'B', 'C', 'D'] } }, // control
    );
    const made = await tf('rerank', root, id);
    assert.equal(made.code, 0, made.stderr);
    assert.match(
      made.stderr,
      /The forecast of Ana's proxy was not usable \(the ranking must name every letter \(A, B, C, D\) exactly once, but it names A twice and it leaves out D\.\); asking it to repair \(1 of 2\)/,
    );
    assert.equal(rig.mock.requests.filter(isForecast).length, 7, 'd1 twice, d2 three times (bounded), d3 and the control once');
    const f = await forecastOf(root, id);
    assert.deepEqual(f.forecasts[0]!.ranking, ['D', 'A', 'B', 'C']);
    assert.equal(f.forecasts[1]!.ranking, undefined);
    assert.match(
      f.forecasts[1]!.failed ?? '',
      /^The forecast of Ben's proxy failed: after 3 attempts its answer was still not usable \(last problem: the ranking must name every letter \(A, B, C, D\) exactly once, but it leaves out D\.\)\.$/,
    );
    assert.match(made.stderr, /The forecast of Ben's proxy failed: .*; it is recorded as failed\./);
    const rec = await runJson(root, id);
    const d2 = rec.prompts.filter((p) => p.kind === 'forecast' && p.speaker === 'd2');
    assert.equal(d2.length, 3);
    assert.ok(
      d2.every((p) => p.error && p.rejectedOutput),
      'every rejected answer is kept for audit',
    );
    assert.equal(f.forecasts[1]!.promptId, d2[2]!.id);

    // compare leaves the failed designer out of the means and says why.
    const dir = path.join(root, 'runs', id, 'rerank');
    for (const d of ['d1', 'd2', 'd3']) await writeRerankRanking(dir, d, { A: 1, B: 2, C: 3, D: 4 });
    const out = await tf('compare', root, id, '--json');
    const fidelity = (JSON.parse(out.stdout) as { fidelity: { n: number; byDesigner: Record<string, unknown>; failed: string[] } })
      .fidelity;
    assert.equal(fidelity.n, 2);
    assert.deepEqual(Object.keys(fidelity.byDesigner), ['d1', 'd3']);
    assert.deepEqual(fidelity.failed, ['d2']);
    assert.match((await tf('compare', root, id)).stdout, /No forecast for d2 \(it failed; forecast\.json says why\)\./);
  });

  it('--no-forecast makes the set and sends no request; compare says there are no forecasts', async () => {
    const { root, id } = await designRun();
    const made = await tf('rerank', root, id, '--no-forecast');
    assert.equal(made.code, 0, made.stderr);
    assert.equal(rig.mock.requests.length, 0, 'nothing sent');
    await assert.rejects(fs.stat(path.join(root, 'runs', id, 'forecast.json')));
    assert.equal((await runJson(root, id)).forecastSha256, undefined);
    const dir = path.join(root, 'runs', id, 'rerank');
    for (const d of ['d1', 'd2']) await writeRerankRanking(dir, d, { A: 1, B: 2, C: 3, D: 4 });
    const out = await tf('compare', root, id, '--json');
    const c = JSON.parse(out.stdout) as { fidelity: unknown; fidelityNote: string };
    assert.equal(c.fidelity, null);
    assert.match(c.fidelityNote, /No proxy forecasts were made for this run/);
  });

  it("a brief run: each member's proxy forecasts A, B or tie; compare gives hit and controlHit per member and the rates", async () => {
    const root = await makeBriefRunReview(4);
    const r = await tf('run', root, '--task', 'brief', '--iterations', '1', '--turns', '1', '--json');
    assert.equal(r.code, 0, r.stderr);
    const id = (await fs.readdir(path.join(root, 'runs')))[0]!;
    rig.mock.reset();
    const answers = ['A', 'B', 'tie', 'A', 'B'];
    rig.mock.enqueue('chat', ...answers.map((prefer) => ({ kind: 'json' as const, value: { prefer } })));
    const made = await tf('rerank', root, id);
    assert.equal(made.code, 0, made.stderr);
    const sent = rig.mock.requests.filter(isForecast);
    assert.equal(sent.length, 5);
    assert.deepEqual(
      (sent[0]!.body as { response_format: { json_schema: { schema: { properties: { prefer: { enum: string[] } } } } } }).response_format
        .json_schema.schema.properties.prefer.enum,
      ['A', 'B', 'tie'],
    );
    const f = await forecastOf(root, id);
    assert.equal(f.task, 'brief');
    assert.deepEqual(
      f.forecasts.map((x) => [x.designer, x.prefer]),
      [
        ['m1', 'A'],
        ['m2', 'B'],
        ['m3', 'tie'],
        ['m4', 'A'],
        [null, 'B'],
      ],
    );

    // Blind choices: m1 A (hit; control miss), m2 B (hit; control hit), m3 A (miss; control miss), m4 B (miss; control hit).
    const blind: Record<string, string> = { m1: 'A', m2: 'B', m3: 'A', m4: 'B' };
    await fs.mkdir(path.join(root, 'runs', id, 'preference'), { recursive: true });
    for (const [m, prefer] of Object.entries(blind))
      await fs.writeFile(path.join(root, 'runs', id, 'preference', `${m}.yaml`), `designer: ${m}\nprefer: ${prefer}\n`);
    const out = await tf('compare', root, id, '--json');
    assert.equal(out.code, 0, out.stderr);
    const fidelity = (
      JSON.parse(out.stdout) as {
        fidelity: {
          byDesigner: Record<string, { hit: boolean; controlHit: boolean; lift: number }>;
          hitRate: number;
          controlHitRate: number;
          meanLift: number;
          n: number;
        };
      }
    ).fidelity;
    const expected = Object.fromEntries(
      Object.entries(blind).map(([m, prefer]) => {
        const hit = f.forecasts.find((x) => x.designer === m)!.prefer === prefer;
        const controlHit = f.forecasts.find((x) => x.kind === 'control')!.prefer === prefer;
        return [m, { hit, controlHit, lift: Number(hit) - Number(controlHit) }];
      }),
    );
    assert.deepEqual(fidelity.byDesigner, expected);
    assert.deepEqual([fidelity.hitRate, fidelity.controlHitRate, fidelity.meanLift, fidelity.n], [0.5, 0.5, 0, 4]);
    const evaluated = await tf('evaluate', root, '--json');
    assert.deepEqual(
      (JSON.parse(evaluated.stdout) as { overall: { perRun: { fidelityLift: unknown } } }).overall.perRun.fidelityLift,
      { n: 1, mean: 0, low: null, high: null },
      evaluated.stderr,
    );
    assert.match(
      (await tf('compare', root, id)).stdout,
      /Proxy fidelity \(did each proxy's sealed forecast name its member's blind choice\?, 4 members\): hits 50%, persona-free control 50%, lift 0\.00\./,
    );
  });
});
