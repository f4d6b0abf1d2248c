/**
 * Record size (`npm run bench`): a full run (2 turns, 3 iterations, 6 options) against the local mock for 4, 12 and 48
 * designers, reporting the size of run.json at the end and the bytes written to run files over the whole run (run.json
 * after every turn plus the append-only prompt parts), counted by the store's own write. Goals for 48 designers (the
 * largest review the product supports): run.json ≤ 1.5 MB, ≤ 40 MB written in all.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import OpenAI from 'openai';
import { MockOpenAI } from '../test/support/openaiMock';
import { makeReview, makeTempDir } from '../test/unit/run/fixtures';
import { startRun } from '../src/core/run/runner';
import { runFileWrites } from '../src/core/run/store';

interface Row { name: string; value: number; goal: number; unit: string }

const MB = 1024 * 1024;

export async function benchRecord(): Promise<Row[]> {
  const mock = await MockOpenAI.start({ latencyMs: 0 });
  const cacheDir = await makeTempDir('tf-bench-cache-');
  const rows: Row[] = [];
  try {
    for (const designers of [4, 12, 48]) {
      const root = await makeReview({ options: 6, designers, size: 320 });
      mock.reset();
      const before = { ...runFileWrites };
      const t = performance.now();
      const client = new OpenAI({ apiKey: 'bench-key', baseURL: mock.baseURL, timeout: 30_000, maxRetries: 0 });
      const record = await startRun({ reviewRoot: root, client, cacheDir, settings: { turnsPerAgent: 2, iterations: 3 } });
      const wall = performance.now() - t;
      if (record.status !== 'completed') throw new Error(`the ${designers}-designer run ended ${record.status}: ${record.error ?? ''}`);
      const dir = path.join(root, 'runs', record.id);
      const size = (await fs.stat(path.join(dir, 'run.json'))).size;
      const parts = await fs.stat(path.join(dir, 'prompts.jsonl')).then((s) => s.size, () => 0);
      const written = runFileWrites.bytes - before.bytes;
      const big = designers === 48;
      rows.push(
        { name: `record: run.json at the end, ${designers} designers${big ? '' : ' (info)'}`, value: size / MB, goal: 1.5, unit: 'MB' },
        { name: `record: bytes written to run files over the run, ${designers} designers${big ? '' : ' (info)'}`, value: written / MB, goal: 40, unit: 'MB' },
        { name: `record: prompt parts file (prompts.jsonl), ${designers} designers (info)`, value: parts / MB, goal: 1.5, unit: 'MB' },
        { name: `record: wall time of the run at 0 ms model latency, ${designers} designers (info)`, value: Math.round(wall), goal: designers * 500, unit: 'ms' },
      );
      await fs.rm(root, { recursive: true, force: true });
    }
  } finally {
    await mock.close();
    await fs.rm(cacheDir, { recursive: true, force: true });
  }
  return rows;
}

if (require.main === module) {
  benchRecord().then(
    (rows) => {
      for (const r of rows) console.log(`${r.name}: ${r.value.toFixed(r.unit === 'MB' ? 3 : 0)} ${r.unit} (goal ${r.goal} ${r.unit})`);
      process.exit(0);
    },
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
