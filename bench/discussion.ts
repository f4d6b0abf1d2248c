/**
 * Discussion-design benchmarks (`npm run bench`), against the mock server in its own process with a fixed latency:
 * 1. Wall time of a standard run (4 designers, 6 options, 2 turns, 3 iterations) in `separate-then-together` ÷ the same run
 *    in `together`. The independent first assessments of a round go out concurrently (maxConcurrency 4), so a round costs
 *    1 + 4 model latencies instead of 8. Goal ≤ 0.8.
 * 2. Cost per remixed image at list prices (gpt-image-1: text in $5, image in $10, image out $40 per 1M tokens; medium
 *    quality by default), from the usage the server reports. Goal ≤ $0.20 (the study reports about $0.67). Also (info) the
 *    whole run's estimated cost (gpt-4o discussion + edits) ÷ remixes.
 */
import { promises as fs } from 'node:fs';
import OpenAI from 'openai';
import { makeReview, makeTempDir } from '../test/unit/run/fixtures';
import { startRun } from '../src/core/run/session';
import type { RunRecord, RunSettings } from '../src/core/record/record';
import { costPerRemix } from '../src/core/run/runFacts';
import { startMockProcess } from './run';

interface Row {
  name: string;
  value: number;
  goal?: number;
  unit: string;
}

const LATENCY_MS = 250;

export async function benchDiscussion(): Promise<Row[]> {
  const root = await makeReview({ options: 6, designers: 4 });
  const cacheDir = await makeTempDir('tf-bench-disc-');
  const server = await startMockProcess(LATENCY_MS);
  try {
    const run = async (settings: Partial<RunSettings>): Promise<{ wall: number; record: RunRecord }> => {
      const client = new OpenAI({ apiKey: 'bench-key', baseURL: server.baseURL, timeout: 30_000, maxRetries: 0 });
      const t0 = performance.now();
      const record = await startRun({
        reviewRoot: root,
        client,
        cacheDir,
        settings: { turnsPerAgent: 2, iterations: 3, orderSeed: 1, ...settings },
      });
      const wall = performance.now() - t0;
      if (record.status !== 'completed') throw new Error(`bench run ${record.status}: ${record.error}`);
      return { wall, record };
    };
    await run({ mode: 'together', iterations: 1, turnsPerAgent: 1 }); // warm-up: module loading, image cache
    const together = await run({ mode: 'together' });
    const separate = await run({ mode: 'separate-then-together', maxConcurrency: 4 });
    const perRemix = costPerRemix(separate.record) ?? Number.NaN;
    const remixes = separate.record.iterations.filter((it) => it.remix).length;
    const runPerRemix = (separate.record.usage.costUsd ?? Number.NaN) / remixes;
    return [
      {
        name: `discussion: wall time separate-then-together ÷ together (${LATENCY_MS} ms latency)`,
        value: round(separate.wall / together.wall, 3),
        goal: 0.8,
        unit: '×',
      },
      { name: 'discussion: wall time together, standard run (info)', value: Math.round(together.wall), unit: 'ms' },
      { name: 'discussion: wall time separate-then-together, standard run (info)', value: Math.round(separate.wall), unit: 'ms' },
      { name: 'remix: cost per remixed image at list prices (gpt-image-1, medium)', value: round(perRemix, 4), goal: 0.2, unit: '$' },
      { name: 'remix: whole run cost ÷ remixes, gpt-4o + gpt-image-1 (info)', value: round(runPerRemix, 4), unit: '$' },
    ];
  } finally {
    server.stop();
    await fs.rm(root, { recursive: true, force: true });
    await fs.rm(cacheDir, { recursive: true, force: true });
  }
}

function round(n: number, d: number): number {
  const f = 10 ** d;
  return Math.round(n * f) / f;
}

if (require.main === module) {
  benchDiscussion().then(
    (rows) => console.table(rows),
    (e) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
