/**
 * Benchmark of the agreement statistics: Kendall's W plus a 10,000-permutation Monte Carlo p-value for
 * 50 designers × 50 options (goal ≤ 100 ms), and the whole analyzeReview at that size. One warm-up run, then
 * the median of several timed runs, as wall-clock time and as this process's CPU time.
 */
import { performance } from 'node:perf_hooks';
import type { Review } from '../src/core/review/model';
import { analyzeReview, kendallW, permutationPValue, SeededRandom } from '../src/core/stats';

export interface BenchResult {
  name: string;
  ms: number;
  goalMs: number;
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
  const core = timeIt(() => {
    kendallW(ranks);
    permutationPValue(ranks, { permutations: 10_000 });
  }, 5);
  const review = reviewOf(ranks);
  const full = timeIt(() => analyzeReview(review), 3);
  return [
    { name: "stats: Kendall's W + 10,000 permutations, 50 designers × 50 options", ms: core.wall, goalMs: 100 },
    {
      name: "stats: Kendall's W + 10,000 permutations, 50 × 50, CPU time (less sensitive to a busy machine)",
      ms: core.cpu,
      goalMs: 100,
    },
    { name: 'stats: analyzeReview (everything, 10,000 permutations), 50 designers × 50 options', ms: full.wall, goalMs: 200 },
  ];
}

if (require.main === module) {
  void benchStats().then((results) => {
    for (const r of results) console.log(`${r.name}: ${r.ms.toFixed(1)} ms (goal ≤ ${r.goalMs} ms)`);
  });
}
