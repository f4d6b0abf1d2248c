/**
 * Engine benchmarks (`npm run bench`), all against the local mock server (no network, no key):
 * 1. Orchestration overhead: wall time of a standard run ÷ the sum of the model requests' own durations (measured by the
 *    client's fetch, from request to last byte), with the mock's latency fixed at 500 ms per request (a realistic lower
 *    bound for a hosted model's answer). Goal ≤ 1.03. Also reported at 150 ms (info): the engine's own cost per run is
 *    roughly constant (JSON building of requests with six base64 images, record writes, the file room's checks), so its
 *    share grows as the model gets faster.
 *    The image cache is warm (image preparation is measured separately in 4) and one unmeasured run warms up the process
 *    (module loading, JIT) first.
 * 2. Input tokens of a standard run (4 designers, 6 options of 4000×3000 px, 2 turns, 3 iterations) ÷ the naive way
 *    (every call re-sends all images full size, all rankings and the whole history; nothing stable to cache).
 *    Both are estimated the same way: text ≈ chars / 4, images by OpenAI's tile formula for detail "high"
 *    (fit 2048², shortest side 768, 170 per 512-px tile + 85), and counted as billed at gpt-4o prices, i.e. tokens in a
 *    stable prefix repeated from an earlier call at the cached price (50 %). Goal ≤ 0.5. The raw (uncached) ratio and the
 *    bytes sent are reported too.
 * 3. Share of input tokens inside a stable prefix (the longest run of leading messages identical to an earlier call's).
 *    Goal ≥ 0.8 (higher is better).
 * 1b. Beside 1, its floor measured in the same run: the same chat requests replayed one after another by the bare SDK
 *    against the same server (replayFloor); when the floor alone misses a goal, the output says it cannot be met here.
 *    And the floor with the record's durability (durableFloor): a step is reported done, and the next request sent, only
 *    once its record is synced to disk, so every request boundary of the run (a moment with no request in flight) holds
 *    at least one synced append; that many appends and syncs (on a file kept open, nothing else) are timed in the same
 *    run's folder and added to the bare replay's time outside requests.
 * 4. Preparing 6 × 4000×3000 JPEG images for the chat model (cold, no cache): goal ≤ 1.5 s; and again from the disk cache
 *    (a new process: the input is read and hashed, nothing is decoded).
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import OpenAI from 'openai';
import sharp from 'sharp';
import { MockOpenAI } from '../test/support/openaiMock';
import { makeReview, makeTempDir } from '../test/unit/run/fixtures';
import { clearImageMemo, prepareImage } from '../src/core/llm/images';
import { startRun } from '../src/core/run/session';
import type { RunRecord } from '../src/core/record/record';

interface Row {
  name: string;
  value: number;
  goal: number;
  unit: string;
}

const LATENCY_MS = 500;
const FAST_LATENCY_MS = 150;
const CACHED_PRICE_SHARE = 0.5; // gpt-4o: cached input costs half

export async function benchRun(): Promise<Row[]> {
  const cacheDir = await makeTempDir('tf-bench-cache-');
  const root = await makeReview({ options: 6, designers: 4, size: 4000 });
  const optionFiles = (await fs.readdir(path.join(root, 'options'))).map((f) => path.join(root, 'options', f));
  // Replace the flat test images by photo-like JPEGs (noise), as heavy as real exports.
  for (const [i, f] of optionFiles.entries()) {
    const jpeg = f.replace(/\.png$/, '.jpg');
    await sharp({
      create: {
        width: 4000,
        height: 3000,
        channels: 3,
        background: { r: 40 * i, g: 120, b: 200 - 20 * i },
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .jpeg({ quality: 90 })
      .toFile(jpeg);
    if (jpeg !== f) await fs.rm(f);
  }
  const files = (await fs.readdir(path.join(root, 'options'))).map((f) => `options/${f}`);

  // 4. image preparation, cold then cached
  const prepCache = await makeTempDir('tf-bench-prep-');
  let t = performance.now();
  await Promise.all(files.map((f) => prepareImage(root, f, { cacheDir: prepCache })));
  const prepCold = performance.now() - t;
  clearImageMemo();
  t = performance.now();
  await Promise.all(files.map((f) => prepareImage(root, f, { cacheDir: prepCache })));
  const prepWarm = performance.now() - t;
  // warm the run's cache so the overhead run measures orchestration only
  await Promise.all(files.map((f) => prepareImage(root, f, { cacheDir })));
  clearImageMemo();

  // Token accounting: an in-process mock records every request body.
  const mock = await MockOpenAI.start({ latencyMs: 0 });
  // Timing: the mock in its own process, so its request parsing and spec checks do not share this event loop.
  const timing = await startMockProcess(LATENCY_MS);
  const fastTiming = await startMockProcess(FAST_LATENCY_MS);
  try {
    // One unmeasured run first: module loading and JIT warm-up are a per-process cost, not orchestration.
    const { record } = await timedRun(mock.baseURL, root, cacheDir);
    const firstRunRequests = [...mock.requests];
    clearImageMemo();
    const measured = await timedRun(timing.baseURL, root, cacheDir);
    clearImageMemo();
    const fast = await timedRun(fastTiming.baseURL, root, cacheDir);
    const chatBodies = firstRunRequests.filter((r) => r.route === 'chat').map((r) => r.body as Record<string, unknown>);
    const floor = await replayFloor(timing.baseURL, chatBodies);
    const outside = measured.wall - measured.modelMs;
    const floorOutside = floor.wall - floor.modelMs;
    const synced = await durableFloor(root, measured.boundaries);
    const durable = floorOutside + synced.ms;
    const cannot = (goal: number, got: number): string =>
      got > goal ? ` — the floor alone misses the goal: it cannot be met on this machine now` : '';

    const chats = firstRunRequests.filter((r) => r.route === 'chat').map((r) => (r.body as { messages: ApiMessage[] }).messages);
    const ours = await tokenAccount(chats);
    const naive = naiveTokens(record, 4000, 3000);
    const sentBytes = firstRunRequests.filter((r) => r.route === 'chat').reduce((s, r) => s + JSON.stringify(r.body).length, 0);
    const naiveImageBytes = (await Promise.all(files.map((f) => fs.stat(path.join(root, f))))).reduce((s, st) => s + st.size, 0) * (4 / 3);
    const naiveBytes = naive.calls * naiveImageBytes;

    return [
      {
        name: `run: orchestration overhead, ${LATENCY_MS} ms model latency (wall ÷ model time)`,
        value: round(measured.wall / measured.modelMs, 3),
        goal: 1.03,
        unit: '×',
      },
      {
        name: `run: orchestration overhead, ${FAST_LATENCY_MS} ms model latency (info)`,
        value: round(fast.wall / fast.modelMs, 3),
        goal: 1.03,
        unit: '×',
      },
      {
        name: `run: its floor in the same run: the same ${chatBodies.length} chat requests replayed one by one by the bare SDK, ${LATENCY_MS} ms latency (wall ÷ model time)${cannot(1.03, floor.wall / floor.modelMs)}`,
        value: round(floor.wall / floor.modelMs, 3),
        goal: 1.03,
        unit: '×',
      },
      {
        name: 'run: engine time outside model requests, standard run (info)',
        value: Math.round(outside),
        goal: 300,
        unit: 'ms',
      },
      {
        name: `run: its floor: time outside model requests of the bare replay${cannot(300, floorOutside)}`,
        value: Math.round(floorOutside),
        goal: 300,
        unit: 'ms',
      },
      {
        name: `run: its floor with the record's durability: the bare replay's time outside requests + one synced append at each of the run's ${measured.boundaries} request boundaries (${round(synced.ms / Math.max(1, measured.boundaries), 1)} ms each here)${cannot(300, durable)}`,
        value: Math.round(durable),
        goal: 300,
        unit: 'ms',
      },
      {
        name: `run: orchestration overhead floor with the record's durability, ${LATENCY_MS} ms latency (wall ÷ model time)${cannot(1.03, (floor.wall + synced.ms) / floor.modelMs)}`,
        value: round((floor.wall + synced.ms) / floor.modelMs, 3),
        goal: 1.03,
        unit: '×',
      },
      {
        name: 'run: engine time outside model requests ÷ its floor (info)',
        value: round(outside / floorOutside, 2),
        goal: 1,
        unit: '×',
      },
      { name: 'run: input tokens billed vs naive (cache-discounted)', value: round(ours.billed / naive.total, 3), goal: 0.5, unit: '×' },
      { name: 'run: input tokens raw vs naive (info)', value: round(ours.total / naive.total, 3), goal: 1, unit: '×' },
      {
        name: 'run: stable-prefix share of input tokens (higher is better)',
        value: round(ours.prefix / ours.total, 3),
        goal: 0.8,
        unit: 'share',
      },
      { name: 'run: chat request bytes vs naive full-size images (info)', value: round(sentBytes / naiveBytes, 4), goal: 0.1, unit: '×' },
      { name: 'run: prepare 6 × 4000-px images (cold)', value: Math.round(prepCold), goal: 1500, unit: 'ms' },
      { name: 'run: prepare 6 × 4000-px images (cached)', value: Math.round(prepWarm), goal: 50, unit: 'ms' },
    ];
  } finally {
    await mock.close();
    timing.stop();
    fastTiming.stop();
    await fs.rm(root, { recursive: true, force: true });
    await fs.rm(cacheDir, { recursive: true, force: true });
    await fs.rm(prepCache, { recursive: true, force: true });
  }
}

/**
 * A fetch for the SDK that times the model: model time = the time at least one request is in flight (the union of the
 * request intervals, from request to last byte): independent first assessments and a pool's rankings run concurrently, so
 * a plain sum of request times would exceed the wall time.
 */
function modelTimer(): { fetch: typeof fetch; modelMs: () => number; boundaries: () => number } {
  let modelMs = 0;
  let inFlight = 0;
  let busySince = 0;
  let requests = 0;
  // Request boundaries: a request sent when none was in flight, after the first.
  let boundaries = 0;
  const begin = (): void => {
    if (inFlight === 0 && requests > 0) boundaries++;
    requests++;
    if (inFlight++ === 0) busySince = performance.now();
  };
  const end = (): void => {
    if (--inFlight === 0) modelMs += performance.now() - busySince;
  };
  const timedFetch: typeof fetch = async (input, init) => {
    begin();
    let res: Response;
    try {
      res = await fetch(input, init);
    } catch (err) {
      end();
      throw err;
    }
    if (!res.body) {
      end();
      return res;
    }
    const body = res.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ flush: end }));
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  return { fetch: timedFetch, modelMs: () => modelMs, boundaries: () => boundaries };
}

/** One standard run (4 designers, 6 options, 2 turns, 3 iterations) with every model request timed by the client. */
export async function timedRun(
  baseURL: string,
  root: string,
  cacheDir: string,
): Promise<{ wall: number; modelMs: number; boundaries: number; record: RunRecord }> {
  const timer = modelTimer();
  const client = new OpenAI({ apiKey: 'bench-key', baseURL, timeout: 30_000, maxRetries: 0, fetch: timer.fetch });
  const t1 = performance.now();
  const record = await startRun({
    reviewRoot: root,
    client,
    cacheDir,
    settings: { turnsPerAgent: 2, iterations: 3 },
    confirm: async () => true,
  });
  const wall = performance.now() - t1;
  if (record.status !== 'completed') throw new Error(`bench run ${record.status}: ${record.error}`);
  return { wall, modelMs: timer.modelMs(), boundaries: timer.boundaries(), record };
}

/**
 * The least a run with the record's durability spends on it between requests, measured here: `count` appends of a
 * journal-sized line, each synced, one after another, on one file kept open in the review's runs/ folder (the disk the
 * run wrote to), with nothing else done. The engine does more at a boundary (the prompt parts are synced before the
 * journal line that names them), so this is a lower bound.
 */
async function durableFloor(root: string, count: number): Promise<{ ms: number }> {
  const file = path.join(root, 'runs', `durable-floor-${process.pid}.jsonl`);
  const line = `${JSON.stringify({ iteration: 1, message: { id: 'i1-m1', content: 'x'.repeat(600) } })}\n`;
  const handle = await fs.open(file, 'a');
  try {
    const t0 = performance.now();
    for (let i = 0; i < count; i++) {
      await handle.appendFile(line);
      await handle.sync();
    }
    return { ms: performance.now() - t0 };
  } finally {
    await handle.close();
    await fs.rm(file, { force: true });
  }
}

/**
 * The floor of the engine's time outside model requests, measured in the same run: the chat requests of a standard
 * run, exactly as the engine sent them (the same bodies, six base64 images each), sent again one after another by the
 * bare SDK against the same server, with nothing else done between them. What is left outside the model's time is what
 * this machine takes to build, send and read the requests themselves (serialising megabytes of JSON, the HTTP round
 * trip, waking up a process on a busy machine); no engine can spend less on them.
 */
async function replayFloor(baseURL: string, bodies: readonly Record<string, unknown>[]): Promise<{ wall: number; modelMs: number }> {
  const timer = modelTimer();
  const client = new OpenAI({ apiKey: 'bench-key', baseURL, timeout: 30_000, maxRetries: 0, fetch: timer.fetch });
  const t0 = performance.now();
  for (const body of bodies) {
    if (body.stream === true) {
      const stream = await client.chat.completions.create(body as unknown as OpenAI.Chat.ChatCompletionCreateParamsStreaming);
      for await (const chunk of stream) void chunk;
    } else {
      await client.chat.completions.create(body as unknown as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming);
    }
  }
  return { wall: performance.now() - t0, modelMs: timer.modelMs() };
}

/** `node out/test/support/openaiMock/cli.js --latency MS` as a child process; resolves with its base URL. */
export function startMockProcess(latencyMs: number): Promise<{ baseURL: string; stop: () => void }> {
  const cli = path.join(__dirname, '..', 'test', 'support', 'openaiMock', 'cli.js');
  const child = spawn(process.execPath, [cli, '--latency', String(latencyMs)], { stdio: ['ignore', 'pipe', 'ignore'] });
  const stop = (): void => void child.kill('SIGTERM');
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => {
      stop();
      reject(new Error('the mock server did not start'));
    }, 20_000);
    child.stdout!.on('data', (d: Buffer) => {
      if (seen === null) return;
      seen += d.toString();
      const m = /OPENAI_BASE_URL=(\S+)/.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve({ baseURL: m[1]!, stop });
      }
    });
    child.on('exit', () => reject(new Error('the mock server stopped')));
  });
}

type ApiPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };
type ApiMessage = { role: string; content: string | ApiPart[] };

/** OpenAI's published estimate for a detail "high" image. */
export function imageTokens(width: number, height: number): number {
  let w = width;
  let h = height;
  const fit = Math.min(1, 2048 / Math.max(w, h));
  w *= fit;
  h *= fit;
  const shrink = Math.min(1, 768 / Math.min(w, h));
  w *= shrink;
  h *= shrink;
  return 85 + 170 * Math.ceil(w / 512) * Math.ceil(h / 512);
}

function textTokens(s: string): number {
  return Math.ceil(s.length / 4);
}

async function messageTokens(m: ApiMessage, dims: Map<string, number>): Promise<number> {
  let n = 4 + textTokens(m.role);
  if (typeof m.content === 'string') return n + textTokens(m.content);
  for (const p of m.content) {
    if (p.type === 'text') n += textTokens(p.text);
    else {
      let tok = dims.get(p.image_url.url);
      if (tok === undefined) {
        const meta = await sharp(Buffer.from(p.image_url.url.split(',')[1]!, 'base64')).metadata();
        tok = imageTokens(meta.width ?? 0, meta.height ?? 0);
        dims.set(p.image_url.url, tok);
      }
      n += tok;
    }
  }
  return n;
}

/** Total, stable-prefix and billed (prefix at the cached price) input tokens of the calls as sent. */
async function tokenAccount(calls: ApiMessage[][]): Promise<{ total: number; prefix: number; billed: number }> {
  const dims = new Map<string, number>();
  const seen: string[][] = [];
  let total = 0;
  let prefix = 0;
  for (const call of calls) {
    const keys = call.map((m) => JSON.stringify(m));
    const tokens = await Promise.all(call.map((m) => messageTokens(m, dims)));
    let common = 0;
    for (const prev of seen) {
      let k = 0;
      while (k < keys.length && k < prev.length && keys[k] === prev[k]) k++;
      common = Math.max(common, k);
    }
    const callTotal = tokens.reduce((a, b) => a + b, 0);
    const callPrefix = tokens.slice(0, common).reduce((a, b) => a + b, 0);
    total += callTotal;
    prefix += callPrefix;
    seen.push(keys);
  }
  return { total, prefix, billed: total - prefix + prefix * CACHED_PRICE_SHARE };
}

/**
 * The naive way, same run shape and the same recorded messages: every call carries one prompt with the persona, all
 * designers' rankings, every option and remix made so far at full size, and the whole conversation of all iterations.
 * Nothing is a stable prefix (the persona comes first), so nothing is billed at the cached price.
 */
function naiveTokens(record: RunRecord, width: number, height: number): { total: number; calls: number } {
  const perImage = imageTokens(width, height);
  const rankingText = 4 * 6 * 90; // 4 designers × 6 options × ~90 chars of rank + justification
  const fixedText = 1200 + rankingText; // goal, style, brief, task, labels
  let total = 0;
  let calls = 0;
  let history = 0;
  let images = record.options.filter((o) => !o.file.startsWith('runs/')).length;
  for (const it of record.iterations) {
    for (const m of it.messages) {
      total += textTokens('x'.repeat(fixedText + history)) + images * perImage;
      history += m.content.length + 20;
      calls++;
    }
    total += textTokens('x'.repeat(fixedText + history)) + images * perImage; // remix agent
    calls++;
    if (it.remix) images++;
  }
  return { total, calls };
}

function round(n: number, d: number): number {
  const f = 10 ** d;
  return Math.round(n * f) / f;
}

if (require.main === module) {
  benchRun().then(
    (rows) => console.table(rows),
    (e) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
