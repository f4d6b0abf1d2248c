/**
 * Member files at their caps (issue 39, item 5): 50 members' coverage files of a brief run, each filled to its 1 MB cap
 * with confirmations (each member's own points first, then the same points again, refused as confirmed twice), against a
 * run holding the record's most coverage entries (10,000: 200 points a member). Timed: the whole check as compare makes
 * it (loadCoverageConfirmations: contained reads, caps, the one-id rule, each entry checked) and, in the same run, its
 * floor: reading and parsing the same 50 files as YAML and nothing else. The check must stay within a few times its
 * floor and take seconds, not the minutes a check quadratic in points would.
 */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadCoverageConfirmations } from '../src/core/evaluation/checks/coverageConfirmations';
import { LIMITS } from '../src/core/files/reviewFiles';
import { parseYamlDocument } from '../src/core/kernel/yaml';
import { errorMessage } from '../src/core/kernel/errors';
import type { Coverage, RunRecord } from '../src/core/record/record';

const MEMBERS = 50;
const POINTS_PER_MEMBER = 200; // 50 × 200 = 10,000: RECORD_LIMITS' coverage entries of one round
const RUN_ID = '2026-12-06T20-00-00Z-bench';
const RUNS = 1; // 50 MB of YAML a pass: one timed pass each (after one untimed check)

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

async function timeIt(fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return Math.round(median(times));
}

const point = (m: number, k: number): string => `Point ${k} of member m${m}: the brief should keep this exact wording of theirs`;

/** A coverage file of member `m` filled to just under `cap` bytes. */
function coverageFile(m: number, cap: number): string {
  const lines = [`designer: m${m}`, 'points:'];
  let bytes = lines.join('\n').length + 1;
  for (let i = 0; ; i++) {
    const entry = `  - point: "${point(m, i % POINTS_PER_MEMBER)}"\n    agree: ${i % 3 === 0 ? 'false\n    status: left-out' : 'true'}`;
    if (bytes + entry.length + 1 > cap) break;
    lines.push(entry);
    bytes += entry.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

export async function benchMemberFiles(): Promise<
  { name: string; ms?: number; goalMs?: number; value?: number; goal?: number; unit?: string }[]
> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'tf-bench-member-files-'));
  try {
    const coverage: Coverage[] = [];
    for (let m = 1; m <= MEMBERS; m++)
      for (let k = 0; k < POINTS_PER_MEMBER; k++)
        coverage.push({ designer: `m${m}`, point: point(m, k), status: 'kept', quote: `q${k}`, verified: true });
    const record = { id: RUN_ID, iterations: [{ index: 1, brief: { file: 'iteration-1/brief.md', coverage } }] } as unknown as RunRecord;
    const team = Array.from({ length: MEMBERS }, (_, i) => `m${i + 1}`);
    const dir = path.join(root, 'runs', RUN_ID, 'coverage');
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(root, 'brief.md'), '# Brief\n');
    const files: string[] = [];
    for (let m = 1; m <= MEMBERS; m++) {
      const file = path.join(dir, `m${m}.yaml`);
      await fs.writeFile(file, coverageFile(m, LIMITS.smallFile));
      files.push(file);
    }
    const check = await loadCoverageConfirmations(root, record, team);
    if (check.confirmations.length !== 0 && check.confirmations.length !== MEMBERS) throw new Error('unexpected confirmations');
    if (!check.diagnostics.length) throw new Error('the repeated confirmations were not refused');
    const full = await timeIt(() => loadCoverageConfirmations(root, record, team));
    const floor = await timeIt(async () => {
      for (const f of files) parseYamlDocument(await fs.readFile(f, 'utf8'));
    });
    const mb = Math.round(LIMITS.smallFile / (1024 * 1024));
    return [
      {
        name: `member-file checks: ${MEMBERS} coverage files at their ${mb} MB cap against 10,000 points (compare's check)`,
        ms: full,
        goalMs: 10_000,
      },
      { name: `  its floor in the same run: reading and parsing the same ${MEMBERS} files as YAML only`, ms: floor, goalMs: 10_000 },
      {
        name: '  the check ÷ its floor (linear: a few times, not hundreds)',
        value: Math.round((full / Math.max(1, floor)) * 100) / 100,
        goal: 5,
        unit: '×',
      },
    ];
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}

if (require.main === module) {
  benchMemberFiles().then(
    (rows) => {
      for (const r of rows) console.log(`${r.ms ?? r.value} ${r.unit ?? 'ms'} (goal ${r.goalMs ?? r.goal} ${r.unit ?? 'ms'})  ${r.name}`);
    },
    (err: unknown) => {
      console.error(errorMessage(err));
      process.exitCode = 1;
    },
  );
}
