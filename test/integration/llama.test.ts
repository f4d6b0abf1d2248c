/**
 * A real inference engine behind the product (issue 32, item 5): llama.cpp on the CPU (node-llama-cpp 3.21.1, one thread)
 * with a tiny stand-in model generated at test time, behind our OpenAI-compatible test server (test/support/llamaServer).
 * The command line runs against it from the extension host: one brief run, one design run without images (the engine
 * has no vision: `--text-only`; the one remix image comes from the scripted server), `judge`, `rerank` with the proxies'
 * forecasts, `compare`, and a brief run under a tiny token cap.
 *
 * The model's words are noise, so this pins what can be said of them: every json_schema the product sends becomes a
 * grammar (the server refuses one it cannot convert, and an image, with a 400) and every answer conforms to it or is
 * repaired or recorded in words; the usage the server counted is the usage the run records; an answer cut by the length
 * limit is marked `cut` and said. Timings are printed, never asserted.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { RunRecord } from '../../src/core/record/record';
import { MockOpenAI } from '../support/openaiMock';
import { startLlamaServer, type LlamaRequestLog, type LlamaServer } from '../support/llamaServer';

const REPO = process.env.TEAMFUSION_REPO ?? resolve(__dirname, '..', '..', '..');
const KEY = 'sk-teamfusion-llama-it';

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** `teamfusion <args>` (dist/cli.js) in a process of its own, against `baseURL`; never blocks the host's event loop. */
function cli(args: string[], baseURL: string, env: Record<string, string> = {}): Promise<CliResult> {
  const t0 = Date.now();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(REPO, 'dist', 'cli.js'), ...args], {
      cwd: REPO,
      env: {
        ...process.env,
        ELECTRON_RUN_AS_NODE: '1',
        OPENAI_API_KEY: KEY,
        OPENAI_BASE_URL: baseURL,
        TEAMFUSION_REQUEST_TIMEOUT_SECONDS: '900',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', fail);
    child.on('close', (code) => done({ code: code ?? 1, stdout, stderr, ms: Date.now() - t0 }));
  });
}

function copySample(name: string, into: string): string {
  const from = join(REPO, 'samples', name);
  cpSync(from, join(into, name), { recursive: true, filter: (src) => !src.startsWith(join(from, 'runs')) });
  return join(into, name);
}

const onlyRun = (review: string): string => {
  const ids = readdirSync(join(review, 'runs')).filter((n) => existsSync(join(review, 'runs', n, 'run.json')));
  assert.equal(ids.length, 1, `one run in ${review}`);
  return ids[0] ?? '';
};
const readRecord = (review: string, id: string): RunRecord =>
  JSON.parse(readFileSync(join(review, 'runs', id, 'run.json'), 'utf8')) as RunRecord;
const sum = (logs: LlamaRequestLog[], key: 'promptTokens' | 'completionTokens'): number => logs.reduce((a, l) => a + (l[key] ?? 0), 0);

/** Every request answered (200): each json_schema became a grammar, no image was sent; each whole JSON answer conforms. */
function assertAnsweredWithinGrammar(logs: LlamaRequestLog[], what: string): void {
  assert.ok(logs.length > 0, `${what}: the engine was asked`);
  for (const l of logs) assert.equal(l.status, 200, `${what}: ${l.error ?? 'refused'}`);
  for (const l of logs.filter((x) => x.format === 'json_schema' && x.finishReason === 'stop')) {
    assert.equal(l.withinSchema, true, `${what}: the ${l.schemaName} answer conforms to its schema: ${l.text ?? ''}`);
  }
}

interface ForecastEntry {
  kind: 'persona' | 'control';
  designer: string | null;
  ranking?: string[];
  prefer?: 'A' | 'B' | 'tie';
  failed?: string;
}
interface Forecasts {
  task: 'design' | 'brief';
  letters: string[];
  forecasts: ForecastEntry[];
}

/** forecast.json: one persona forecast per member and one control, each an answer or a failure in words. */
function readForecasts(review: string, id: string, members: string[], task: 'design' | 'brief'): Forecasts {
  const f = JSON.parse(readFileSync(join(review, 'runs', id, 'forecast.json'), 'utf8')) as Forecasts;
  assert.equal(f.task, task);
  assert.deepEqual(
    f.forecasts
      .filter((e) => e.kind === 'persona')
      .map((e) => e.designer)
      .sort(),
    [...members].sort(),
    'a forecast for every member',
  );
  assert.equal(f.forecasts.filter((e) => e.kind === 'control' && e.designer === null).length, 1, 'one persona-free control');
  for (const e of f.forecasts) {
    if (e.failed !== undefined) assert.ok(e.failed.trim().length > 0, 'a failed forecast says why in words');
    else if (task === 'design')
      assert.deepEqual([...(e.ranking ?? [])].sort(), [...f.letters].sort(), `${e.designer ?? 'control'}: an order of every letter`);
    else assert.ok(e.prefer === 'A' || e.prefer === 'B' || e.prefer === 'tie', `${e.designer ?? 'control'}: A, B or tie`);
  }
  return f;
}

/** Kendall's τ between two orders of the same letters (no ties, so τ-b is τ-a). */
function tau(a: readonly string[], b: readonly string[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) {
    for (let j = i + 1; j < a.length; j++) s += Math.sign(b.indexOf(a[j] ?? '') - b.indexOf(a[i] ?? '')); // +1 when b also puts a[i] first
  }
  return s / ((a.length * (a.length - 1)) / 2);
}

function timing(label: string, r: CliResult, logs: LlamaRequestLog[]): void {
  const engineMs = logs.reduce((a, l) => a + (l.ms ?? 0), 0);
  console.log(
    `  llama.cpp: ${label}: ${(r.ms / 1000).toFixed(1)} s, ${logs.length} requests, ${sum(logs, 'promptTokens')} prompt + ${sum(logs, 'completionTokens')} completion tokens, ${(engineMs / 1000).toFixed(1)} s in the engine`,
  );
}

describe('llama.cpp on the CPU behind the product (tiny generated model)', function () {
  this.timeout(1_200_000);
  let llama: LlamaServer;
  let images: MockOpenAI;
  let scratch = '';
  let brief = '';
  let briefRun = '';

  before(async () => {
    // No install, no engine: this fails with the reason (never skipped).
    llama = await startLlamaServer();
    console.log(`  llama.cpp: engine and model ready in ${(llama.readyMs / 1000).toFixed(1)} s (chat template: ${llama.chatWrapper})`);
    images = await MockOpenAI.start();
    scratch = mkdtempSync(join(tmpdir(), 'teamfusion-llama-it-'));
  });

  after(async () => {
    await llama?.close();
    await images?.close();
    if (scratch && process.env.TEAMFUSION_IT_KEEP !== '1') rmSync(scratch, { recursive: true, force: true });
  });

  it("serves the model list and speaks ChatML through the model's own template", async () => {
    assert.equal(llama.chatWrapper, 'ChatML');
    const models = (await (await fetch(`${llama.baseURL}/models`)).json()) as { data: { id: string }[] };
    assert.equal(models.data.length, 1);
  });

  it('a brief run: every answer within its grammar, the usage the engine counted, coverage said for every member', async () => {
    brief = copySample('brief-review', scratch);
    const from = llama.requests.length;
    const r = await cli(['run', brief, '--task', 'brief', '--iterations', '1', '--turns', '1', '--yes', '--no-wait'], llama.baseURL);
    const logs = llama.requests.slice(from);
    timing('brief run', r, logs);
    assert.equal(r.code, 0, r.stderr);
    briefRun = onlyRun(brief);
    const record = readRecord(brief, briefRun);
    assert.equal(record.status, 'completed', record.error);
    assertAnsweredWithinGrammar(logs, 'brief run');
    assert.ok(
      logs.some((l) => l.schemaName === 'teamfusion_brief'),
      'the revision was asked for in strict json_schema',
    );
    assert.ok(
      logs.some((l) => l.stream === true && l.format === 'text'),
      'the proxies were streamed',
    );
    // The run's usage plus the direct baseline's (recorded on its own) is what the engine counted, token for token.
    const baseline = record.baseline?.usage;
    assert.equal(record.usage.inputTokens + (baseline?.inputTokens ?? 0), sum(logs, 'promptTokens'));
    assert.equal(record.usage.outputTokens + (baseline?.outputTokens ?? 0), sum(logs, 'completionTokens'));
    // Every member who commented has a coverage entry, or result.md says the agent reported nothing for them.
    const result = readFileSync(join(brief, 'runs', briefRun, 'result.md'), 'utf8');
    const coverage = record.iterations.at(-1)?.brief?.coverage ?? [];
    for (const name of readdirSync(join(brief, 'comments')).map((f) => f.replace(/\.md$/, ''))) {
      const covered = coverage.some((c) => c.designer === name);
      assert.ok(covered || /the agent reported nothing for/i.test(result), `${name}: a coverage entry or a "reported nothing" line`);
    }
    // Each quote of nonsense was checked against the revised brief (verified true or false), none left unchecked.
    for (const c of coverage.filter((x) => x.status !== 'left-out'))
      assert.equal(typeof c.verified, 'boolean', `${c.designer}: ${c.point}`);
    for (const m of record.iterations.flatMap((it) => it.messages)) assert.ok(m.content.trim().length > 0, `${m.id} has words`);
  });

  it('judge, rerank with forecasts and compare on the brief run: strict json_schema answers, forecasts sealed and counted, hit or miss as the files say', async () => {
    assert.ok(briefRun, 'the brief run exists');
    const from = llama.requests.length;
    const r = await cli(['judge', brief, briefRun], llama.baseURL);
    const logs = llama.requests.slice(from);
    timing('judge', r, logs);
    assert.equal(r.code, 0, r.stderr);
    assertAnsweredWithinGrammar(logs, 'judge');
    assert.ok(
      logs.every((l) => l.format === 'json_schema'),
      'every judge request is strict json_schema',
    );
    const judged = JSON.parse(readFileSync(join(brief, 'runs', briefRun, 'judge.json'), 'utf8')) as object;
    assert.ok(judged && typeof judged === 'object');
    // The blind pair and the forecasts (one per member and the control, in strict json_schema), then compare.
    const usageBefore = readRecord(brief, briefRun).usage;
    const at = llama.requests.length;
    const rerank = await cli(['rerank', brief, briefRun], llama.baseURL);
    const forecastLogs = llama.requests.slice(at);
    timing('rerank with forecasts (brief)', rerank, forecastLogs);
    assert.equal(rerank.code, 0, rerank.stderr);
    assert.ok(existsSync(join(brief, 'runs', briefRun, 'rerank', 'A.md')) && existsSync(join(brief, 'runs', briefRun, 'rerank', 'B.md')));
    const members = readdirSync(join(brief, 'comments'))
      .map((f) => f.replace(/\.md$/, ''))
      .sort();
    assertAnsweredWithinGrammar(forecastLogs, 'brief forecasts');
    assert.ok(forecastLogs.length >= members.length + 1, 'a request per member and the control');
    const usageAfter = readRecord(brief, briefRun).usage;
    assert.equal(
      usageAfter.inputTokens - usageBefore.inputTokens,
      sum(forecastLogs, 'promptTokens'),
      "the forecasts are counted in the run's usage",
    );
    assert.equal(usageAfter.outputTokens - usageBefore.outputTokens, sum(forecastLogs, 'completionTokens'));
    const forecasts = readForecasts(brief, briefRun, members, 'brief');
    // Each member chooses blind (alternating A, B), then compare reports hit or miss against the sealed forecasts.
    mkdirSync(join(brief, 'runs', briefRun, 'preference'), { recursive: true });
    members.forEach((m, i) =>
      writeFileSync(join(brief, 'runs', briefRun, 'preference', `${m}.yaml`), `designer: ${m}\nprefer: ${i % 2 ? 'B' : 'A'}\n`),
    );
    const compare = await cli(['compare', brief, briefRun, '--json'], llama.baseURL);
    assert.equal(compare.code, 0, compare.stderr);
    const fidelity = (JSON.parse(compare.stdout) as { fidelity?: { byDesigner: Record<string, { hit: boolean }> } }).fidelity;
    members.forEach((m, i) => {
      const said = forecasts.forecasts.find((e) => e.designer === m)?.prefer;
      if (said !== undefined)
        assert.equal(fidelity?.byDesigner[m]?.hit, said === (i % 2 ? 'B' : 'A'), `${m}: hit is the forecast against the blind choice`);
    });
    const text = await cli(['compare', brief, briefRun], llama.baseURL);
    assert.equal(text.code, 0, text.stderr);
  });

  it('a design run without images (--text-only): completed, no image reached the engine; rerank with forecasts, blind re-rankings, τ-b and lift as the files say', async () => {
    const design = copySample('lumen-perfume', scratch);
    const from = llama.requests.length;
    const r = await cli(
      ['run', design, '--iterations', '2', '--turns', '1', '--text-only', '--image-base-url', images.baseURL, '--yes', '--no-wait'],
      llama.baseURL,
      { TEAMFUSION_IMAGE_API_KEY: KEY },
    );
    const logs = llama.requests.slice(from);
    timing('design run', r, logs);
    assert.equal(r.code, 0, r.stderr);
    const id = onlyRun(design);
    const record = readRecord(design, id);
    assert.equal(record.status, 'completed', record.error);
    assertAnsweredWithinGrammar(logs, 'design run');
    assert.ok(logs.filter((l) => l.format === 'json_schema').length >= 2, 'the remix agent and the final pick answered in json_schema');
    assert.equal(record.usage.inputTokens, sum(logs, 'promptTokens'));
    assert.equal(record.usage.outputTokens, sum(logs, 'completionTokens'));
    assert.equal(images.requests.filter((q) => q.route === 'edit').length, 1, 'one remix image, from the scripted image endpoint');

    // The blind set and each proxy's forecast of its designer's blind ranking (the letters as an enum), without images.
    const at = llama.requests.length;
    const rerank = await cli(['rerank', design, id, '--text-only'], llama.baseURL);
    const forecastLogs = llama.requests.slice(at);
    timing('rerank with forecasts (design)', rerank, forecastLogs);
    assert.equal(rerank.code, 0, rerank.stderr);
    assert.ok(existsSync(join(design, 'runs', id, 'rerank', 'key.json')));
    assertAnsweredWithinGrammar(forecastLogs, 'design forecasts');
    // Every designer re-ranks the blind set (a fixed order each, rotated per designer), as the panel would write it.
    const rerankDir = join(design, 'runs', id, 'rerank');
    const letters = readdirSync(join(rerankDir, 'options'))
      .map((n) => n.replace(/\.[^.]+$/, ''))
      .sort();
    const designers = readdirSync(join(design, 'rankings'))
      .map((n) => n.replace(/\.[^.]+$/, ''))
      .sort();
    designers.forEach((d, i) => {
      const order = [...letters.slice(i % letters.length), ...letters.slice(0, i % letters.length)];
      writeFileSync(
        join(rerankDir, 'rankings', `${d}.yaml`),
        `designer: ${d}\nranking:\n${order.map((l, k) => `  - option: "${l}"\n    rank: ${k + 1}\n    justification: Re-ranked blind.\n`).join('')}`,
      );
    });
    const compare = await cli(['compare', design, id, '--json'], llama.baseURL);
    assert.equal(compare.code, 0, compare.stderr);
    const compared = JSON.parse(compare.stdout) as {
      runId: string;
      after: { designers: string[] } | null;
      fidelity?: { byDesigner: Record<string, { tau: number; control: number | null; lift: number | null }> };
    };
    assert.equal(compared.runId, id);
    assert.deepEqual(compared.after?.designers, designers, 'the re-rankings were read');
    // τ-b of each forecast against its designer's blind order, the control's, and the lift, as computed here from the files.
    const forecasts = readForecasts(design, id, designers, 'design');
    const control = forecasts.forecasts.find((e) => e.kind === 'control')?.ranking;
    designers.forEach((d, i) => {
      const blind = [...letters.slice(i % letters.length), ...letters.slice(0, i % letters.length)];
      const mine = forecasts.forecasts.find((e) => e.designer === d)?.ranking;
      if (!mine) return;
      const row = compared.fidelity?.byDesigner[d];
      assert.ok(row, `${d}: a fidelity row`);
      assert.ok(Math.abs(row.tau - tau(mine, blind)) < 1e-9, `${d}: τ-b ${row.tau} vs ${tau(mine, blind)}`);
      if (control) {
        assert.ok(Math.abs((row.control ?? NaN) - tau(control, blind)) < 1e-9, `${d}: the control's τ-b`);
        assert.ok(Math.abs((row.lift ?? NaN) - (tau(mine, blind) - tau(control, blind))) < 1e-9, `${d}: the lift`);
      }
    });
  });

  it('a tiny token cap: answers cut by the length limit are marked cut and said, naming the member and turn', async () => {
    const capped = await startLlamaServer({ maxTokens: 6 });
    try {
      const review = copySample('brief-review', mkdtempSync(join(scratch, 'cap-')));
      const r = await cli(['run', review, '--task', 'brief', '--iterations', '1', '--turns', '1', '--yes', '--no-wait'], capped.baseURL);
      timing('brief run, 6-token cap', r, capped.requests);
      const lengthCut = capped.requests.filter((l) => l.finishReason === 'length');
      assert.ok(lengthCut.length > 0, 'the engine stopped answers at the cap (finish_reason "length")');
      const record = readRecord(review, onlyRun(review));
      const messages = record.iterations.flatMap((it) => it.messages);
      const cut = messages.filter((m) => m.cut === true);
      // A proxy turn is streamed text; the engine samples (temperature 1), so a turn may end on its own before the cap.
      const turnsAtCap = capped.requests.filter((l) => l.stream === true && l.format === 'text' && l.finishReason === 'length').length;
      if (turnsAtCap > 0) assert.ok(cut.length > 0, `${turnsAtCap} turns stopped at the cap, and a message is marked cut: true`);
      else assert.equal(cut.length, 0, 'no turn reached the cap, and no message is marked cut');
      // Said once per cut answer, naming whose proxy and which turn: "<name>'s proxy (round 1, turn 1): the answer was cut off…".
      const said = r.stderr
        .split('\n')
        .filter((l) => /^warning: .+'s proxy \(round 1, turn 1\): the answer was cut off by the model's length limit/.test(l));
      assert.ok(new Set(said).size >= cut.length, `each cut answer is said (${said.length} lines for ${cut.length} cut messages)`);
      // A JSON answer cut mid-way cannot parse: repaired, or the run ends failed with the reason in words (no stack).
      if (record.status !== 'completed') {
        assert.equal(record.status, 'failed');
        assert.ok(record.error && !/\n\s+at /.test(record.error), `the failure in words: ${record.error}`);
      }
      console.log(
        `  llama.cpp: with a 6-token cap: ${lengthCut.length} of ${capped.requests.length} answers cut (${turnsAtCap} proxy turns), ${cut.length} messages marked cut, run ${record.status}${record.error ? ` (${record.error})` : ''}`,
      );
    } finally {
      await capped.close();
    }
  });
});
