/**
 * The convergence verdict's calibration and power (METHODS.md, "Convergence"), by seeded simulation:
 *   - false "converged": random rankings before and after, m = 2..10 designers × n = 3..10 options (after-set size 3..10);
 *   - power: random before-rankings, after-rankings every designer gives identically (5 options), m = 2..10;
 *   - a second null: persistent personal tastes and no change (m = 3..10, 5 options).
 * Prints the tables, returns the worst false rate, the power for 3 designers and the worst rate under the second null.
 */
import { SeededRandom, seedFromText } from '../src/core/stats/prng';
import { convergedShare, gauss, identicalAfter, randomRankings, ranksOf } from '../test/support/rankingSimulation';

const REPS = Number(process.env.TEAMFUSION_BENCH_CONVERGENCE_REPS ?? 400);

const pct = (x: number): string => `${(100 * x).toFixed(1)}`.padStart(5);

interface Rate {
  name: string;
  value: number;
  goal: number;
  unit: string;
  higherIsBetter?: boolean;
}

export function benchConvergence(): Rate[] {
  const rng = new SeededRandom(seedFromText('bench convergence'));
  const lines: string[] = [
    `Convergence verdict, ${REPS} seeded cases a cell (one binomial SD of a 5% rate: ${(100 * Math.sqrt(0.0475 / REPS)).toFixed(1)} points)`,
  ];
  lines.push('', 'False "converged" (%), random rankings before and after; rows m designers, columns n options:');
  lines.push(`  m\\n ${Array.from({ length: 8 }, (_, i) => String(i + 3).padStart(5)).join('')}`);
  let worst = 0;
  for (let m = 2; m <= 10; m++) {
    const cells: string[] = [];
    for (let n = 3; n <= 10; n++) {
      const nAfter = 3 + ((m * 3 + n) % 8);
      const rate = convergedShare(REPS, () => [randomRankings(rng, m, n), randomRankings(rng, m, nAfter)]);
      worst = Math.max(worst, rate);
      cells.push(pct(rate));
    }
    lines.push(`  ${String(m).padStart(3)} ${cells.join('')}`);
  }
  lines.push('', 'Power (% "converged"): random before-rankings, identical after-rankings, 5 options:');
  let power3 = 0;
  const powerCells: string[] = [];
  for (let m = 2; m <= 10; m++) {
    const rate = convergedShare(REPS, () => identicalAfter(rng, m, 5));
    if (m === 3) power3 = rate;
    powerCells.push(`m=${m}: ${pct(rate).trim()}`);
  }
  lines.push(`  ${powerCells.join('  ')}`);
  lines.push(
    '',
    'Second null (% "converged"): persistent personal tastes, no change (utility = common + τ·personal + fresh noise), 5 options:',
  );
  let worstTaste = 0;
  for (const tau of [0.5, 1, 2]) {
    const cells: string[] = [];
    for (let m = 3; m <= 10; m++) {
      const rate = convergedShare(REPS, () => {
        const common = Array.from({ length: 5 }, () => gauss(rng));
        const tastes = Array.from({ length: m }, () => common.map((x) => x + tau * gauss(rng)));
        const draw = (): number[][] => tastes.map((u) => ranksOf(u.map((x) => x + gauss(rng))));
        return [draw(), draw()];
      });
      worstTaste = Math.max(worstTaste, rate);
      cells.push(`m=${m}: ${pct(rate).trim()}`);
    }
    lines.push(`  τ=${tau}: ${cells.join('  ')}`);
  }
  console.log(`${lines.join('\n')}\n`);
  return [
    {
      name: 'convergence: worst false "converged" over m 2..10 × n 3..10',
      value: 100 * worst,
      goal: 5 + 300 * Math.sqrt(0.0475 / REPS),
      unit: '%',
    },
    {
      name: 'convergence: power, 3 designers, identical after-rankings (higher is better)',
      value: 100 * power3,
      goal: 80,
      unit: '%',
      higherIsBetter: true,
    },
    {
      name: 'convergence: worst "converged" with shared tastes and no change',
      value: 100 * worstTaste,
      goal: 5 + 300 * Math.sqrt(0.0475 / REPS),
      unit: '%',
    },
  ];
}
