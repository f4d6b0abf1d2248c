/**
 * Record size (`npm run bench`): a full run (2 turns, 3 iterations, 6 options, messages of about 1 KB: the mock's
 * `messageBytes`) against the local mock for 4, 12 and 48 designers, reporting the size of run.json at the end and the
 * bytes written to run files over the whole run (run.json at round boundaries and status changes, the journal's lines,
 * the append-only prompt parts), counted by the store's own writes. Goals for 48 designers (the largest review the
 * product supports): run.json ≤ 1.5 MB, ≤ 40 MB written in all, bytes written ÷ final size of the run folder ≤ 3.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { MockOpenAI } from '../test/support/openaiMock';
import { makeReview, makeTempDir } from '../test/unit/run/fixtures';
import { timedRun } from './run';
import { runFileWrites } from '../src/core/record/paths';

interface Row {
  name: string;
  value: number;
  goal: number;
  unit: string;
}

const MB = 1024 * 1024;

export async function benchRecord(): Promise<Row[]> {
  const mock = await MockOpenAI.start({ latencyMs: 0, messageBytes: 1024 });
  const cacheDir = await makeTempDir('tf-bench-cache-');
  const rows: Row[] = [];
  try {
    for (const designers of [4, 12, 48]) {
      const root = await makeReview({ options: 6, designers, size: 320 });
      mock.reset();
      const before = { ...runFileWrites };
      const t = performance.now();
      const { record } = await timedRun(mock.baseURL, root, cacheDir);
      const wall = performance.now() - t;
      const dir = path.join(root, 'runs', record.id);
      const size = (await fs.stat(path.join(dir, 'run.json'))).size;
      const parts = await fs.stat(path.join(dir, 'prompts.jsonl')).then(
        (s) => s.size,
        () => 0,
      );
      const written = runFileWrites.bytes - before.bytes;
      const folder = await folderBytes(dir);
      const recordFiles = await folderBytes(dir, (n) => /^(run\.json|journal\.jsonl|prompts\.jsonl)$/.test(n));
      const big = designers === 48;
      rows.push(
        {
          name: `record: bytes written ÷ final size of the run folder, ${designers} designers${big ? '' : ' (info)'}`,
          value: written / folder,
          goal: 3,
          unit: '×',
        },
        {
          name: `record: bytes written ÷ final size of run.json + journal + prompt parts, ${designers} designers (info)`,
          value: written / recordFiles,
          goal: 3,
          unit: '×',
        },
        {
          name: `record: bytes written to run files, ${designers} designers, messages of about 1 KB (info)`,
          value: written,
          goal: folder * 3,
          unit: 'bytes',
        },
        { name: `record: run.json at the end, ${designers} designers${big ? '' : ' (info)'}`, value: size / MB, goal: 1.5, unit: 'MB' },
        {
          name: `record: bytes written to run files over the run, ${designers} designers${big ? '' : ' (info)'}`,
          value: written / MB,
          goal: 40,
          unit: 'MB',
        },
        { name: `record: prompt parts file (prompts.jsonl), ${designers} designers (info)`, value: parts / MB, goal: 1.5, unit: 'MB' },
        {
          name: `record: wall time of the run at 0 ms model latency, ${designers} designers (info)`,
          value: Math.round(wall),
          goal: designers * 500,
          unit: 'ms',
        },
      );
      await fs.rm(root, { recursive: true, force: true });
    }
  } finally {
    await mock.close();
    await fs.rm(cacheDir, { recursive: true, force: true });
  }
  return rows;
}

/** Bytes of the files under `dir` (recursively), those whose name passes `keep`. */
async function folderBytes(dir: string, keep: (name: string) => boolean = () => true): Promise<number> {
  let total = 0;
  for (const e of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile() && keep(e.name)) total += (await fs.stat(path.join(e.parentPath, e.name))).size;
  }
  return total;
}

if (require.main === module) {
  benchRecord().then(
    (rows) => {
      for (const r of rows)
        console.log(
          `${r.name}: ${r.value.toFixed(r.unit === 'MB' || r.unit === '×' ? 3 : 0)} ${r.unit} (goal ${r.unit === 'bytes' ? Math.round(r.goal) : r.goal} ${r.unit})`,
        );
      process.exit(0);
    },
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
