/**
 * Benchmark of the agreement statistics: Kendall's W plus a 10,000-permutation Monte Carlo p-value for
 * 50 designers × 50 options (goal ≤ 100 ms), and the whole analyzeReview at that size (goal ≤ 200 ms). One warm-up run,
 * then the median of several timed runs, as wall-clock time and as this process's CPU time; a wall-clock row says when
 * this process had the CPU for less than two thirds of it (a machine busy with other work).
 *
 * Beside it, a reference measured in the same run, alternating with it: the same amount of shuffling done the plain way
 * (Fisher–Yates of the same 49 rows of 50, 10,000 times, one draw of the same generator per step, no statistic). It
 * says how fast this machine is at the moment. The test draws one number for two raters' steps, so it can take less than
 * this reference (the ratio row); when both take more than the goal, the output says the goal looks out of reach here now.
 */
import { performance } from 'node:perf_hooks';
import type { Review } from '../src/core/review/model';
import { analyzeReview, kendallW, permutationPValue, SeededRandom } from '../src/core/stats';

export interface BenchResult {
  name: string;
  ms?: number;
  goalMs?: number;
  value?: number;
  goal?: number;
  unit?: string;
}

/** m random rankings of n items (1..n shuffled), from a fixed seed, so every run measures the same input. */
function randomRankings(m: number, n: number, seed: number): number[][] {
  const rng = new SeededRandom(seed);
  const rows: number[][] = [];
  for (let j = 0; j < m; j++) {
    const row = Array.from({ length: n }, (_, i) => i + 1);
    for (let i = n - 1; i > 0; i--) {
      const k = rng.nextBelow(i + 1);
      [row[i], row[k]] = [row[k]!, row[i]!];
    }
    rows.push(row);
  }
  return rows;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Median wall-clock and median CPU time (this process, user + system) in ms, after one warm-up run. */
function timeIt(fn: () => void, runs: number): { wall: number; cpu: number } {
  fn(); // warm-up (lets the JIT compile the hot loop)
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let r = 0; r < runs; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    fn();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

/**
 * The floor: every rater but the first shuffled N times with Fisher–Yates (SeededRandom.nextBelow per step), the rows'
 * values summed once at the end so the work is not optimized away.
 */
function plainShuffles(ranks: number[][], permutations: number): number {
  const m = ranks.length;
  const n = ranks[0]!.length;
  const rows = Int32Array.from(ranks.flat());
  const rng = new SeededRandom(20261121);
  for (let p = 0; p < permutations; p++) {
    for (let j = 1; j < m; j++) {
      const off = j * n;
      for (let i = n - 1; i > 0; i--) {
        const k = off + rng.nextBelow(i + 1);
        const a = rows[k]!;
        rows[k] = rows[off + i]!;
        rows[off + i] = a;
      }
    }
  }
  let check = 0;
  for (let i = 0; i < n; i++) check += rows[i]! * (i + 1);
  return check;
}

/** The median CPU time of `fn` and of `floor`, timed alternately (each run of one beside a run of the other). */
function timeBeside(fn: () => void, floor: () => void, runs: number): { cpu: number; floorCpu: number; ratio: number } {
  fn();
  floor();
  const cpu: number[] = [];
  const floorCpu: number[] = [];
  const ratios: number[] = [];
  const one = (f: () => void): number => {
    const c0 = process.cpuUsage();
    f();
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / 1000;
  };
  for (let r = 0; r < runs; r++) {
    const a = one(fn);
    const b = one(floor);
    cpu.push(a);
    floorCpu.push(b);
    ratios.push(a / b);
  }
  return { cpu: median(cpu), floorCpu: median(floorCpu), ratio: median(ratios) };
}

/**
 * When this process had the CPU for less than two thirds of a wall-clock measurement, says so with the share: the machine
 * was busy with other work, and the CPU-time row is the one that tells about this code.
 */
function busyNote(t: { wall: number; cpu: number }): string {
  const share = t.cpu / t.wall;
  return share < 2 / 3 ? ` — the machine is busy: this process had the CPU for ${Math.round(share * 100)} % of it` : '';
}

/** An in-memory review with these rankings (ids "o1".., designers "d1"..). */
function reviewOf(ranks: number[][]): Review {
  const n = ranks[0]!.length;
  const ids = Array.from({ length: n }, (_, i) => `o${i + 1}`);
  return {
    root: '/bench',
    title: 'bench',
    brief: '',
    comments: [],
    options: ids.map((id, i) => ({
      id,
      label: `Image ${i + 1}`,
      file: `options/${id}.png`,
      absPath: `/bench/options/${id}.png`,
      mime: 'image/png',
      width: 1,
      height: 1,
    })),
    designers: ranks.map((row, j) => ({
      id: `d${j + 1}`,
      name: `Designer ${j + 1}`,
      weight: 1 + (j % 3),
      file: `rankings/d${j + 1}.yaml`,
      entries: row.map((rank, i) => ({ option: ids[i]!, rank, justification: 'x' })),
    })),
    config: {},
  };
}

export async function benchStats(): Promise<BenchResult[]> {
  const ranks = randomRankings(50, 50, 7);
  const test = (): void => {
    kendallW(ranks);
    permutationPValue(ranks, { permutations: 10_000 });
  };
  const core = timeIt(test, 5);
  const beside = timeBeside(test, () => void plainShuffles(ranks, 10_000), 7);
  const review = reviewOf(ranks);
  const full = timeIt(() => analyzeReview(review), 3);
  // The plain shuffling draws one number a swap; the test draws one for two raters, so it can beat this reference. Only
  // when both take more than the goal does the goal look out of reach on this machine now.
  const floorNote =
    beside.floorCpu > 100 && core.cpu > 100 ? ' — this machine cannot meet the 100 ms goal now: the plain shuffling alone takes more' : '';
  return [
    { name: `stats: Kendall's W + 10,000 permutations, 50 designers × 50 options${busyNote(core)}`, ms: core.wall, goalMs: 100 },
    {
      name: "stats: Kendall's W + 10,000 permutations, 50 × 50, CPU time (less sensitive to a busy machine)",
      ms: core.cpu,
      goalMs: 100,
    },
    {
      name: `stats: its reference in the same run (info), CPU time: plain Fisher–Yates of the same 49 rows × 50, 10,000 times${floorNote}`,
      ms: beside.floorCpu,
    },
    {
      name: "stats: Kendall's W + 10,000 permutations ÷ its reference (CPU time, median of alternating runs)",
      value: Math.round(beside.ratio * 100) / 100,
      goal: 1,
      unit: '×',
    },
    {
      name: `stats: analyzeReview (everything, 10,000 permutations), 50 designers × 50 options${busyNote(full)}`,
      ms: full.wall,
      goalMs: 200,
    },
    { name: 'stats: analyzeReview (everything, 10,000 permutations), 50 × 50, CPU time', ms: full.cpu, goalMs: 200 },
  ];
}

if (require.main === module) {
  void benchStats().then((results) => {
    for (const r of results)
      console.log(`${r.name}: ${(r.ms ?? r.value ?? NaN).toFixed(2)} ${r.unit ?? 'ms'} (goal ≤ ${r.goalMs ?? r.goal} ${r.unit ?? 'ms'})`);
  });
}
