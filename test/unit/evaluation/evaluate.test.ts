import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { compareRun, evaluateFolder, findReviews, makeRerankSet, writeRatings, writeSurvey } from '../../../src/core/evaluation';
import { readRunRecord } from '../../../src/core/record/store';
import { analyzeReview } from '../../../src/core/stats/summary/analysis';
import { loadReview } from '../../../src/core/review';
import { useBuiltCli } from '../cli/buildCli';
import { makeReviewWithRun, RUN_ID, snapshot, writeRerankBySource } from './fixtures';
import { makeReview } from '../run/fixtures';

describe('evaluation: evaluate a folder of reviews', function () {
  this.timeout(90_000);
  const built = useBuiltCli();
  let top = '';

  before(async () => {
    top = await fs.mkdtemp(path.join(os.tmpdir(), 'tf-evaluate-'));
    // brand-a/hero: a run with a blind re-rank set, three re-rankings, ratings and a survey.
    const hero = await makeReviewWithRun();
    await fs.mkdir(path.join(top, 'brand-a'));
    await fs.rename(hero, path.join(top, 'brand-a', 'hero'));
    const root = path.join(top, 'brand-a', 'hero');
    await makeRerankSet(root, RUN_ID);
    await writeRerankBySource(root, 'd1', ['r2', '4', '3', 'r1', '2']);
    await writeRerankBySource(root, 'd2', ['r2', '3', '4', '2', 'r1']);
    await writeRerankBySource(root, 'd3', ['4', 'r2', 'r1', '3', '2']);
    const record = await readRunRecord(root, RUN_ID);
    await writeRatings(root, record, 'd1', [
      { message: 'i1-m1', score: 5 },
      { message: 'i1-m4', score: 3 },
    ]);
    await writeRatings(root, record, 'd2', [{ message: 'i1-m2', score: 2 }]);
    await writeSurvey(root, RUN_ID, { designer: 'd1', representative: 4, clarity: 5, satisfied: 4 });
    await writeSurvey(root, RUN_ID, { designer: 'd2', representative: 3, clarity: 4 });
    // brand-b/poster: three designers, no run.
    const poster = await makeReview({ options: 4, designers: 3, size: 64 });
    await fs.mkdir(path.join(top, 'brand-b'));
    await fs.rename(poster, path.join(top, 'brand-b', 'poster'));
    // broken: a review whose ranking file is broken.
    const broken = await makeReview({ options: 3, designers: 2, size: 64 });
    await fs.rename(broken, path.join(top, 'broken'));
    await fs.writeFile(path.join(top, 'broken', 'rankings', 'd2.yaml'), 'designer: [\n');
  });
  after(async () => {
    if (top) await fs.rm(top, { recursive: true, force: true });
  });

  it('finds reviews (brief.md + options/), not the re-rank sets inside runs/', async () => {
    const found = (await findReviews(top)).map((d) => path.relative(top, d).split(path.sep).join('/'));
    assert.deepEqual(found, ['brand-a/hero', 'brand-b/poster', 'broken']);
  });

  it('per review and overall agree with compare and analyze; missing values are null; broken reviews are skipped', async () => {
    const was = await snapshot(top);
    const e = await evaluateFolder(top);
    assert.deepEqual(await snapshot(top), was, 'evaluate never writes');
    assert.deepEqual(
      e.reviews.map((r) => r.path),
      ['brand-a/hero', 'brand-b/poster'],
    );
    assert.deepEqual(
      e.skipped.map((s) => s.path),
      ['broken'],
    );
    assert.match(e.skipped[0]!.reason, /^rankings\/d2\.yaml:\d+:\d+: error: /);
    const heroRoot = path.join(top, 'brand-a', 'hero');
    const c = await compareRun(heroRoot, RUN_ID);
    const hero = e.reviews[0]!;
    assert.equal(hero.designers, 4);
    assert.equal(hero.options, 6);
    assert.ok(Math.abs(hero.w! - 1 / 7) < 1e-12);
    assert.equal(hero.runs.length, 1);
    const run = hero.runs[0]!;
    assert.equal(run.remixes, 2);
    assert.equal(run.costUsd, 0.21);
    assert.ok(Math.abs(run.costPerRemixUsd! - 0.042) < 1e-12, 'two image edits at $0.042 for two remixes');
    assert.deepEqual({ ...run.compare!, timing: null }, { ...c, timing: null });
    const posterReview = (await loadReview(path.join(top, 'brand-b', 'poster'))).review!;
    const poster = analyzeReview(posterReview).kendall;
    assert.equal(e.reviews[1]!.w, poster.w);
    assert.equal(e.reviews[1]!.pPermutation, poster.pPermutation);
    assert.deepEqual(e.reviews[1]!.runs, []);

    const o = e.overall;
    assert.equal(o.reviews, 2);
    assert.ok(Math.abs(o.meanW! - (1 / 7 + poster.w) / 2) < 1e-12);
    assert.deepEqual(Object.keys(o.wByTeamSize).sort(), ['3', '4']);
    const notSig = [hero.pPermutation!, poster.pPermutation].filter((p) => p >= 0.05).length / 2;
    assert.equal(o.notSignificantShare, notSig);
    assert.equal(o.runs, 1);
    assert.equal(o.remixes, 2);
    assert.equal(o.rerankedRuns, 1);
    assert.equal(o.meanWAfter, c.after!.w);
    assert.equal(o.meanChange, c.paired!.change);
    assert.equal(o.top1Rate, 1);
    assert.equal(o.top2Rate, 1);
    // Ratings 5, 3, 2: mean 10/3, sample SD sqrt(((5−10/3)² + (3−10/3)² + (2−10/3)²)/2) = sqrt(7/3), share 4–5 = 1/3.
    assert.equal(o.ratingsN, 3);
    assert.ok(Math.abs(o.ratingsMean! - 10 / 3) < 1e-12);
    assert.ok(Math.abs(o.ratingsSd! - Math.sqrt(7 / 3)) < 1e-12);
    assert.ok(Math.abs(o.ratingsPositiveShare! - 1 / 3) < 1e-12);
    assert.equal(o.lowestDesignerMean, 2);
    assert.deepEqual(o.survey, { n: 2, representative: 3.5, clarity: 4.5, satisfied: 4 });
    assert.equal(o.totalCostUsd, 0.21);
    assert.ok(Math.abs(o.costPerRemixUsd! - 0.042) < 1e-12);
    assert.equal(o.medianHoursToCommit, null);
    assert.match(o.timeToDecisionNote!, /1 of 1 re-ranked runs were not committed/);
  });

  it('CLI: --json prints the object, --out writes evaluation.md/json and self-contained SVGs; exit 1 when something was skipped', async () => {
    const out = path.join(top, 'evaluation-out');
    try {
      const r = await built.run('evaluate', top, '--json', '--out', out);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /^skipped broken: rankings\/d2\.yaml:/m);
      const e = JSON.parse(r.stdout) as {
        reviews: { path: string }[];
        overall: { reviews: number; ratingsMean: number };
        skipped: unknown[];
      };
      assert.equal(e.overall.reviews, 2);
      assert.deepEqual(JSON.parse(await fs.readFile(path.join(out, 'evaluation.json'), 'utf8')), e);
      const md = await fs.readFile(path.join(out, 'evaluation.md'), 'utf8');
      assert.match(md, /^\| A generated option is the blind top 1 \| 100% \| about 50% \|$/m);
      assert.match(md, /^\| brand-a\/hero \| 4 \| 6 \| 0\.14 \|/m);
      assert.match(md, /!\[Agreement before and after\]\(w-before-after\.svg\)/);
      for (const name of ['w-before-after.svg', 'acceptance.svg', 'ratings.svg']) {
        const svg = await fs.readFile(path.join(out, name), 'utf8');
        assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
        assert.match(svg, /<rect [^>]*fill="#ffffff"/, 'a white card behind everything: readable in light and dark themes');
        assert.doesNotMatch(svg, /<script|href=|@import|url\(|currentColor/i, `${name} is self-contained`);
        assert.equal((svg.match(/<svg/g) ?? []).length, (svg.match(/<\/svg>/g) ?? []).length);
      }
      const text = await built.run('evaluate', path.join(top, 'brand-a'));
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /^1 review: mean W 0\.14/m);
      const usage = await built.run('evaluate');
      assert.equal(usage.code, 2);
    } finally {
      if (!process.env.TF_KEEP_OUT) await fs.rm(out, { recursive: true, force: true });
    }
  });
});

describe('evaluation: the folder walk refuses links and special files in words', function () {
  this.timeout(60_000);
  let top = '';
  let outside = '';
  after(async () => {
    for (const d of [top, outside]) if (d) await fs.rm(d, { recursive: true, force: true });
  });

  it('a link to a review outside, a link to the folder itself and a FIFO are named and not followed; the real review is still found', async () => {
    top = await fs.mkdtemp(path.join(os.tmpdir(), 'tf-evaluate-walk-'));
    outside = await makeReview({ options: 3, designers: 2, size: 32 });
    const inside = await makeReview({ options: 3, designers: 2, size: 32 });
    await fs.rename(inside, path.join(top, 'real'));
    await fs.symlink(outside, path.join(top, 'elsewhere'));
    await fs.symlink('..', path.join(top, 'loop'));
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [path.join(top, 'pipe')]);
    const skips: { rel: string; reason: string }[] = [];
    const found = await findReviews(top, (rel, reason) => skips.push({ rel, reason }));
    assert.deepEqual(
      found.map((d) => path.relative(top, d)),
      ['real'],
    );
    assert.deepEqual(skips.map((s) => s.rel).sort(), ['elsewhere', 'loop', 'pipe']);
    assert.match(skips.find((s) => s.rel === 'elsewhere')!.reason, /symbolic link/);
    assert.match(skips.find((s) => s.rel === 'pipe')!.reason, /FIFO/);
    const e = await evaluateFolder(top);
    assert.deepEqual(
      e.reviews.map((r) => r.path),
      ['real'],
    );
    assert.deepEqual(e.skipped.map((s) => s.path).sort(), ['elsewhere', 'loop', 'pipe']);
  });
});
