import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as os from 'node:os';
import { useBuiltCli } from './buildCli';
import { ANXIETY } from '../stats/referenceData';
import { cleanupFixtures, hashTree, makeReview, SAMPLE, tempDir } from '../review/fixtures';

const DIAGNOSTIC_LINE = /^[^\s:][^:]*:\d+:\d+: (error|warning): \S.*$/;
const STACK = /^\s+at .+:\d+:\d+\)?$/m;

describe('CLI: validate / analyze / import (spawned node process)', function () {
  this.timeout(60_000);
  const { run } = useBuiltCli();
  after(cleanupFixtures);

  describe('validate', () => {
    it('the sample: exit 0, the success line on stdout, nothing on stderr', async () => {
      const r = await run('validate', SAMPLE);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, '');
      assert.match(r.stdout, /^.+: valid — 6 options, 4 designers\.\n$/);
    });

    it('errors: exit 1, one contract-format line per problem on stdout, no stack trace, nothing changed', async () => {
      const root = await makeReview({
        rankings: { 'alice.yaml': 'designer: Alice\nranking:\n  - option: "1"\n    rank: 1.5\n    justification: x\n', 'notes.txt': 'x' },
      });
      const before = await hashTree(root);
      const r = await run('validate', root);
      assert.equal(r.code, 1);
      const out = r.stdout.trimEnd().split('\n');
      for (const line of out) assert.match(line, DIAGNOSTIC_LINE);
      assert.ok(out.includes('rankings/alice.yaml:4:11: error: Rank must be a whole number of 1 or more (found 1.5).'), r.stdout);
      assert.ok(
        out.includes(
          'rankings/alice.yaml:2:1: error: Options "2", "3" are missing from the ranking. Every image in options/ must be ranked exactly once.',
        ),
      );
      assert.ok(out.some((l) => l.startsWith('rankings/notes.txt:0:0: warning: ')));
      assert.doesNotMatch(r.stdout + r.stderr, STACK);
      assert.match(r.stderr, /2 errors, 2 warnings\./);
      assert.equal(await hashTree(root), before);
    });

    it('review.yaml discussion settings: unknown mode/order/hierarchy and a lead who is not a designer → errors at their lines, exit 1', async () => {
      const root = await makeReview({
        reviewYaml:
          'title: T\nmode: debate\norder: random\nhierarchy: boss\nlead: carol\nmaxConcurrency: 17\nprompts:\n  goal: 3\n  tone: calm\n',
      });
      const r = await run('validate', root);
      assert.equal(r.code, 1);
      const out = r.stdout.trimEnd().split('\n');
      assert.ok(
        out.includes('review.yaml:2:7: error: mode must be separate-then-together, together or separate (found "debate").'),
        r.stdout,
      );
      assert.ok(out.includes('review.yaml:3:8: error: order must be rotate, shuffle or fixed (found "random").'), r.stdout);
      assert.ok(out.includes('review.yaml:4:12: error: hierarchy must be flat, weighted or lead-decides (found "boss").'), r.stdout);
      assert.ok(
        out.some((l) => l.startsWith('review.yaml:5:1: error: lead is "carol", but no ranking file has that designer id')),
        r.stdout,
      );
      assert.ok(out.includes('review.yaml:6:17: error: maxConcurrency must be a whole number from 1 to 16 (found 17).'), r.stdout);
      assert.ok(out.includes('review.yaml:8:9: error: prompts.goal must be text (found 3).'), r.stdout);
      assert.ok(
        out.some((l) => l.startsWith('review.yaml:9:3: warning: Unknown prompt layer "prompts.tone" is ignored.')),
        r.stdout,
      );
    });

    it('warnings only: exit 0', async () => {
      const root = await makeReview({ extra: { 'options/readme.txt': 'x' } });
      const r = await run('validate', root);
      assert.equal(r.code, 0);
      assert.match(r.stdout, /^options\/readme\.txt:0:0: warning: /);
    });

    it('a path that does not exist: exit 1 with the error said as a sentence (no .:0:0), from validate and analyze alike', async () => {
      const r = await run('validate', path.join(await tempDir(), 'missing'));
      assert.equal(r.code, 1);
      assert.match(r.stdout, /^error: The review folder .* does not exist\.\n$/);
      const a = await run('analyze', '/nonexistent');
      assert.equal(a.code, 1);
      assert.match(a.stdout + a.stderr, /^error: The review folder \/nonexistent does not exist\./m);
      assert.doesNotMatch(a.stdout + a.stderr, /\.:0:0/);
    });

    it('usage errors exit 2: no argument, two arguments, unknown option', async () => {
      for (const args of [[], [SAMPLE, SAMPLE], ['--bogus', SAMPLE]]) {
        const r = await run('validate', ...args);
        assert.equal(r.code, 2, args.join(' '));
        assert.match(r.stderr, /^teamfusion validate: .+\nSee `teamfusion validate --help`\.\n$/);
        assert.doesNotMatch(r.stderr, STACK);
      }
    });
  });

  describe('--help on every command', () => {
    it('each command answers --help (and -h) with its own usage and the exit codes, exit 0, nothing else done', async () => {
      for (const name of [
        'validate',
        'analyze',
        'import',
        'run',
        'say',
        'pin',
        'rerank',
        'compare',
        'evaluate',
        'code-discussion',
        'decide',
      ]) {
        for (const flag of ['--help', '-h']) {
          const r = await run(name, flag);
          assert.equal(r.code, 0, `${name} ${flag}: ${r.stderr}`);
          assert.match(r.stdout, new RegExp(`^Usage: teamfusion ${name} `), name);
          assert.match(r.stdout, /\nOptions:\n/);
          assert.match(r.stdout, /\nExit codes: 0 ok, /);
          assert.equal(r.stderr, '');
        }
      }
    });

    it('evaluate counts in words: "1 review", not "1 reviews"', async () => {
      // A folder holding one review (samples/ also holds the brief-review sample).
      const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'tf-one-review-'));
      await fs.cp(SAMPLE, path.join(folder, path.basename(SAMPLE)), { recursive: true });
      const r = await run('evaluate', folder);
      await fs.rm(folder, { recursive: true, force: true });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^1 review: mean W/);
      assert.match(r.stdout, /^0 runs, 0 remixes, /m);
    });
  });

  describe('analyze', () => {
    it('--json prints one JSON object with the contract fields', async () => {
      const r = await run('analyze', SAMPLE, '--json');
      assert.equal(r.code, 0, r.stderr);
      const a = JSON.parse(r.stdout) as {
        options: string[];
        designers: { id: string; name: string; weight: number }[];
        kendall: { w: number; band: string; df: number };
        borda: { option: string; position: number }[];
      };
      assert.deepEqual(a.options, ['1', '2', '3', '4', '5', '6']);
      assert.deepEqual(
        a.designers.map((d) => [d.id, d.weight]),
        [
          ['ana', 2],
          ['ben', 1],
          ['chen', 1],
          ['dina', 1],
        ],
      );
      assert.ok(a.kendall.w > 0.3 && a.kendall.w < 0.5, `sample W should show real disagreement, got ${a.kendall.w}`);
      assert.equal(a.kendall.df, 5);
      assert.equal(a.borda[0]?.option, '1');
      assert.match(r.stdout, /^\{\n {2}"options"/);
    });

    it('Schulze beside Borda: --json gives the tiers, the winners and differsFromBorda; the text says how they differ', async () => {
      // 3 designers A > B > C > D > E and 2 designers B > C > D > E > A: Borda puts B first, yet 3 of 5 prefer A to each other option.
      const options = ['A', 'B', 'C', 'D', 'E'];
      const ranking = (order: string) =>
        options.map((o) => `  - option: "${o}"\n    rank: ${order.indexOf(o) + 1}\n    justification: Seen.\n`).join('');
      const rankings: Record<string, string> = {};
      for (const [id, order] of [
        ['ann', 'ABCDE'],
        ['bo', 'ABCDE'],
        ['cy', 'ABCDE'],
        ['di', 'BCDEA'],
        ['ed', 'BCDEA'],
      ]) {
        rankings[`${id}.yaml`] = `designer: ${id}\nranking:\n${ranking(order!)}`;
      }
      const root = await makeReview({ options: options.map((o) => `${o}.png`), rankings });
      const r = await run('analyze', root, '--json');
      assert.equal(r.code, 0, r.stderr);
      const a = JSON.parse(r.stdout) as {
        borda: { option: string }[];
        schulze: { ranking: string[][]; winners: string[]; differsFromBorda: boolean };
      };
      assert.equal(a.borda[0]!.option, 'B');
      assert.deepEqual(a.schulze.ranking, [['A'], ['B'], ['C'], ['D'], ['E']]);
      assert.deepEqual(a.schulze.winners, ['A']);
      assert.equal(a.schulze.differsFromBorda, true);
      const text = await run('analyze', root);
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /^ {2}Borda puts B first; a majority prefers A to every other option\.$/m);
      // di weighs 3: B's side wins the majorities and both orders put B first, but Borda keeps A above D and E.
      rankings['di.yaml'] = rankings['di.yaml']!.replace('designer: di', 'designer: di\nweight: 3');
      const heavy = await makeReview({ options: options.map((o) => `${o}.png`), rankings });
      const h = JSON.parse((await run('analyze', heavy, '--json')).stdout) as typeof a;
      assert.deepEqual(h.schulze.ranking, [['B'], ['C'], ['D'], ['E'], ['A']]);
      assert.equal(h.schulze.differsFromBorda, true);
      assert.match(
        (await run('analyze', heavy)).stdout,
        /^ {2}Weighted Borda and Schulze both put B first but differ further down \(Borda: B, C, A, D, E; Schulze: B, C, D, E, A\)\.$/m,
      );
      // Where they agree, the text says so and differsFromBorda is false.
      const same = await makeReview({
        options: options.map((o) => `${o}.png`),
        rankings: { 'ann.yaml': rankings['ann.yaml']!, 'bo.yaml': rankings['bo.yaml']! },
      });
      assert.equal((JSON.parse((await run('analyze', same, '--json')).stdout) as typeof a).schulze.differsFromBorda, false);
      assert.match((await run('analyze', same)).stdout, /^ {2}Schulze agrees with Borda\.$/m);
    });

    it('an invalid review: exit 1, diagnostics on stderr, nothing on stdout', async () => {
      const root = await makeReview({ brief: null });
      const r = await run('analyze', root, '--json');
      assert.equal(r.code, 1);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /^brief\.md:0:0: error: brief\.md is missing/m);
    });

    it('usage: exit 2', async () => {
      assert.equal((await run('analyze')).code, 2);
      assert.equal((await run('analyze', SAMPLE, '--jsonn')).code, 2);
      assert.equal((await run('analyze', SAMPLE, '--permutations', '0')).code, 2);
      assert.equal((await run('analyze', SAMPLE, '--seed', 'abc')).code, 2);
    });

    it('end to end on ranking files, matches the published anxiety-data values (DescTools/irr KendallW, ties) to 1e-6', async () => {
      // Three raters score 20 subjects 1–6 (many ties); as ranking files the scores are the ranks (only their order counts).
      const ids = ANXIETY.ratings[0]!.map((_, i) => String(i + 1));
      const rankings: Record<string, string> = {};
      ANXIETY.ratings.forEach((row, r) => {
        const ranking = ids.map((option, i) => ({ option, rank: row[i]!, justification: `Score ${row[i]}.` }));
        rankings[`rater-${r + 1}.json`] = JSON.stringify({ designer: `Rater ${r + 1}`, ranking });
      });
      const root = await makeReview({ options: ids.map((id) => `${id}.png`), rankings });
      const r = await run('analyze', root, '--json');
      assert.equal(r.code, 0, r.stderr);
      const k = (JSON.parse(r.stdout) as { kendall: { w: number; wUncorrected: number; chiSquare: number; df: number; pValue: number } })
        .kendall;
      assert.ok(Math.abs(k.w - ANXIETY.w) < 1e-6, `W ${k.w}`);
      assert.ok(Math.abs(k.wUncorrected - ANXIETY.wUncorrected) < 1e-6, `uncorrected W ${k.wUncorrected}`);
      assert.ok(Math.abs(k.chiSquare - ANXIETY.chiSquare) < 5e-3, `chi-square ${k.chiSquare}`);
      assert.equal(k.df, ANXIETY.df);
      assert.ok(Math.abs(k.pValue - ANXIETY.pValueJasp) < 1e-6, `p ${k.pValue}`);
    });

    it('--permutations and --seed make the permutation p reproducible and adjustable', async () => {
      const a = JSON.parse((await run('analyze', SAMPLE, '--json', '--permutations', '500', '--seed', '7')).stdout) as {
        kendall: { pPermutation: number; permutations: number; seed: number };
      };
      const b = JSON.parse((await run('analyze', SAMPLE, '--json', '--permutations', '500', '--seed', '7')).stdout) as typeof a;
      assert.equal(a.kendall.permutations, 500);
      assert.equal(a.kendall.seed, 7);
      assert.equal(a.kendall.pPermutation, b.kendall.pPermutation);
    });
  });

  describe('import', () => {
    it('writes ranking files, then skips them without --force, then replaces them with --force', async () => {
      const root = await makeReview({ rankings: null });
      const csv = path.join(await tempDir(), 'team.csv');
      await fs.writeFile(
        csv,
        'designer,rank:1,justification:1,rank:2,justification:2,rank:3,justification:3\nAna,1,a,2,b,3,c\nBen,3,a,2,b,1,c\n',
      );
      const first = await run('import', csv, root);
      assert.equal(first.code, 0, first.stderr);
      assert.equal(first.stdout, 'wrote rankings/ana.yaml\nwrote rankings/ben.yaml\n');
      const again = await run('import', csv, root);
      assert.equal(again.code, 0);
      assert.match(again.stdout, /^skipped rankings\/ana\.yaml/m);
      assert.match(again.stderr, /:2:0: warning: rankings\/ana\.yaml already exists/);
      const forced = await run('import', csv, root, '--force');
      assert.equal(forced.stdout, 'wrote rankings/ana.yaml\nwrote rankings/ben.yaml\n');
      assert.equal((await run('validate', root)).code, 0);
    });

    it('a bad CSV: exit 1, diagnostics naming the CSV with line:column; usage errors exit 2', async () => {
      const root = await makeReview({ rankings: null });
      const csv = path.join(await tempDir(), 'bad.csv');
      await fs.writeFile(csv, 'designer,rank:1,justification:1,rank:2,justification:2,rank:3,justification:3\nAna,1,a,2,b,0,c\n');
      const r = await run('import', csv, root);
      assert.equal(r.code, 1);
      assert.equal(r.stderr, `${csv}:2:6: error: The rank of option "3" must be a whole number of 1 or more (found "0", column F).\n`);
      assert.equal((await run('import', csv)).code, 2);
      assert.equal((await run('import', csv, root, '--overwrite')).code, 2);
    });
  });
});
