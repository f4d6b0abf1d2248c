/**
 * FORMATS benchmark: loadReview on a large review (50 designers × 50 options, small real PNGs) built in a temp
 * folder, with and without decoding every image; plus validateRankingText on one 50-entry ranking. Median of runs.
 */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { formatRankingYaml, loadReview, validateRankingText } from '../src/core/review';
import { errorMessage } from '../src/core/kernel/errors';

const DESIGNERS = 50;
const OPTIONS = 50;
const RUNS = 5;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

async function timeIt(fn: () => Promise<unknown> | unknown, runs = RUNS): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return Math.round(median(times) * 10) / 10;
}

/** A reproducible shuffle (LCG) so that every designer has a different order. */
function order(ids: string[], seed: number): string[] {
  let x = seed * 7919 + 17;
  const out = [...ids];
  for (let i = out.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const j = x % (i + 1);
    const [a, b] = [out[i], out[j]];
    if (a !== undefined && b !== undefined) [out[i], out[j]] = [b, a];
  }
  return out;
}

export async function buildLargeReview(dir: string): Promise<string[]> {
  await fs.mkdir(path.join(dir, 'options'), { recursive: true });
  await fs.mkdir(path.join(dir, 'rankings'), { recursive: true });
  await fs.writeFile(path.join(dir, 'brief.md'), '# Benchmark brief\n\nFifty options, fifty designers.\n');
  const ids = Array.from({ length: OPTIONS }, (_, i) => String(i + 1));
  for (const [i, id] of ids.entries()) {
    const png = await sharp({
      create: { width: 160, height: 120, channels: 3, background: { r: (i * 37) % 256, g: (i * 91) % 256, b: (i * 53) % 256 } },
    })
      .png()
      .toBuffer();
    await fs.writeFile(path.join(dir, 'options', `${id}.png`), png);
  }
  for (let d = 0; d < DESIGNERS; d++) {
    const text = formatRankingYaml({
      designer: `Designer ${d + 1}`,
      role: d % 3 === 0 ? 'Art Director' : 'Designer',
      ranking: order(ids, d).map((option, r) => ({
        option,
        rank: r + 1,
        justification: `Reason number ${r + 1}: the layout and colour of ${option}.`,
      })),
    });
    await fs.writeFile(path.join(dir, 'rankings', `designer-${d + 1}.yaml`), text);
  }
  return ids;
}

export async function benchValidate(): Promise<{ name: string; ms: number; goalMs: number }[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tf-bench-validate-'));
  try {
    const ids = await buildLargeReview(dir);
    const check = await loadReview(dir);
    if (!check.review || check.review.designers.length !== DESIGNERS) {
      throw new Error(`benchmark review did not load: ${check.diagnostics.map((d) => d.message).join('; ')}`);
    }
    await loadReview(dir); // warm-up (module init, file cache)
    const full = await timeIt(() => loadReview(dir));
    const noDecode = await timeIt(() => loadReview(dir, { decodeImages: false }));
    const oneText = await fs.readFile(path.join(dir, 'rankings', 'designer-1.yaml'), 'utf8');
    const sampleDir = path.resolve(__dirname, '..', '..', 'samples', 'lumen-perfume');
    await loadReview(sampleDir);
    const sample = await timeIt(() => loadReview(sampleDir));
    const single = await timeIt(() => validateRankingText(oneText, 'rankings/designer-1.yaml', ids, 'yaml'), 21);
    return [
      { name: `loadReview ${DESIGNERS} designers × ${OPTIONS} options (validation, every image decoded)`, ms: full, goalMs: 500 },
      { name: `loadReview ${DESIGNERS} designers × ${OPTIONS} options (decodeImages: false)`, ms: noDecode, goalMs: 500 },
      { name: `validateRankingText, one ${OPTIONS}-entry YAML ranking (live diagnostics on a keystroke)`, ms: single, goalMs: 20 },
      { name: 'loadReview of the sample (6 banners of 1200×800, decoded)', ms: sample, goalMs: 500 },
    ];
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  benchValidate().then(
    (rows) => {
      for (const r of rows) console.log(`${r.ms <= r.goalMs ? 'ok  ' : 'SLOW'} ${r.ms} ms (goal ${r.goalMs} ms)  ${r.name}`);
    },
    (err: unknown) => {
      console.error(errorMessage(err));
      process.exitCode = 1;
    },
  );
}
