/**
 * The authorship door (issue 39) with real git: a bare remote and one clone per member (test/support/gitTeam.ts commits
 * each member's files by that member's e-mail). A ranking committed by someone other than its member is left out of the
 * count and named in `validate --json` and `compare --json` (`authorship.notCounted`: file, member, commit, author,
 * reason); uncommitted changes speak only for this machine's own git identity; outside git or without e-mails in
 * review.yaml nothing is checked and `why` says so.
 */
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { git, makeGitTeam, pullAndPush } from '../../support/gitTeam';
import { makeReview, makeTempDir } from '../run/fixtures';
import { makeReviewWithRun, RUN_ID, writeRerankBySource } from '../evaluation/fixtures';
import { startCli, useBuiltCli } from '../cli/buildCli';
import { compareRun, evaluateFolder, makeRerankSet } from '../../../src/core/evaluation';
import { openAuthorship } from '../../../src/core/authorship/door';
import { loadReview } from '../../../src/core/review';

const MAPPING =
  'team:\n  d1: { git: ana@example.com }\n  d2: { git: [ben@example.com, ben@home.example] }\n  d3: { git: chen@example.com }\n';

interface ValidateJson {
  valid: boolean;
  authorship: {
    checked: boolean;
    why?: string;
    notCounted: { file: string; member: string; commit: string; author: string; reason: string }[];
  };
}

describe('authorship: one door says who wrote a member file (real git)', function () {
  this.timeout(120_000);
  const cli = useBuiltCli();
  const compareCli = (): string => cli.cli;

  async function team() {
    const seed = await makeReview({ options: 3, designers: 3 });
    await fs.writeFile(path.join(seed, 'review.yaml'), MAPPING);
    return makeGitTeam(await makeTempDir('tf-authorship-'), seed, ['ana', 'ben', 'chen'] as const);
  }

  /** Swaps ranks 1 and 2 of a ranking file (still a valid ranking). */
  async function reorder(file: string): Promise<void> {
    const text = await fs.readFile(file, 'utf8');
    await fs.writeFile(file, text.replace('rank: 1\n', 'rank: X\n').replace('rank: 2\n', 'rank: 1\n').replace('rank: X\n', 'rank: 2\n'));
  }

  it("every member's own commits count; a ranking Ben commits for Ana is not counted and named in validate --json", async () => {
    const t = await team();
    const clean = await cli.run('validate', '--json', t.review('ana'));
    assert.equal(clean.code, 0, clean.stdout + clean.stderr);
    assert.deepEqual(
      (JSON.parse(clean.stdout) as ValidateJson).authorship,
      { checked: true, notCounted: [] },
      'the support commits each ranking as its member',
    );

    await reorder(path.join(t.review('ben'), 'rankings', 'd1.yaml'));
    git(t.clone.ben, 'commit', '--quiet', '-am', "Ana's ranking, by Ben");
    const forged = git(t.clone.ben, 'rev-parse', 'HEAD').trim();
    pullAndPush(t.clone.ben);
    git(t.clone.chen, 'pull', '--quiet', '--rebase');

    const r = await cli.run('validate', '--json', t.review('chen'));
    const out = JSON.parse(r.stdout) as ValidateJson;
    assert.equal(out.authorship.checked, true);
    assert.deepEqual(
      out.authorship.notCounted.map(({ reason: _r, ...n }) => n),
      [{ file: 'rankings/d1.yaml', member: 'd1', commit: forged, author: 'ben@example.com' }],
    );
    assert.match(
      out.authorship.notCounted[0]!.reason,
      new RegExp(
        `^commit ${forged.slice(0, 12)} by Ben <ben@example\\.com> wrote it, and that is not d1 \\(review\\.yaml team\\.d1\\.git: ana@example\\.com\\)$`,
      ),
    );

    // The plain output says it on the file; the review is analysed without d1.
    const plain = await cli.run('validate', t.review('chen'));
    assert.ok(
      plain.stdout.includes(
        `rankings/d1.yaml:0:0: warning: rankings/d1.yaml is not counted for d1: commit ${forged.slice(0, 12)} by Ben <ben@example.com> wrote it`,
      ),
      plain.stdout,
    );
    const loaded = await loadReview(t.review('chen'));
    assert.deepEqual(
      loaded.review?.designers.map((d) => d.id),
      ['d2', 'd3'],
    );
  });

  it("uncommitted changes count only for this machine's own git identity", async () => {
    const t = await team();
    await reorder(path.join(t.review('ana'), 'rankings', 'd1.yaml')); // Ana's own file, on Ana's machine
    await reorder(path.join(t.review('ana'), 'rankings', 'd2.yaml')); // Ben's file, edited on Ana's machine
    const door = await openAuthorship(t.review('ana'), { team: { d1: { git: 'ana@example.com' }, d2: { git: 'ben@example.com' } } });
    assert.equal(await door.check(path.join(t.review('ana'), 'rankings', 'd1.yaml'), 'd1'), undefined);
    const ben = await door.check(path.join(t.review('ana'), 'rankings', 'd2.yaml'), 'd2');
    assert.equal(ben?.commit, '(uncommitted)');
    assert.equal(ben?.author, 'ana@example.com');
    assert.match(ben!.reason, /changes not committed yet, and this machine's git user\.email is ana@example\.com, which is not d2/);
    assert.deepEqual(
      door.report().notCounted.map((n) => n.file),
      ['rankings/d2.yaml'],
    );
  });

  it("mayWriteRecord: a record never committed is this machine's; once committed, only its driver's machine may write it", async () => {
    const t = await team();
    const ids = { team: { d1: { git: 'ana@example.com' }, d2: { git: 'ben@example.com' } } };
    const record = (who: 'ana' | 'ben'): string => path.join(t.review(who), 'runs', 'r-1', 'run.json');
    assert.equal(await (await openAuthorship(t.review('ben'), ids)).mayWriteRecord(record('ben')), true, 'never committed');
    await fs.mkdir(path.dirname(record('ana')), { recursive: true });
    await fs.writeFile(record('ana'), '{}\n');
    git(t.clone.ana, 'add', '--', record('ana'));
    git(t.clone.ana, 'commit', '--quiet', '-m', 'a run');
    pullAndPush(t.clone.ana);
    git(t.clone.ben, 'pull', '--quiet', '--rebase');
    assert.equal(await (await openAuthorship(t.review('ana'), ids)).mayWriteRecord(record('ana')), true, "Ana's machine: she drives it");
    assert.equal(await (await openAuthorship(t.review('ben'), ids)).mayWriteRecord(record('ben')), false, "Ben's machine: Ana drives it");
    assert.equal(await (await openAuthorship(t.review('ben'), {})).mayWriteRecord(record('ben')), true, 'nothing checked without e-mails');
  });

  it("a member's own git config teamfusion.requireSignedCommits asks for signatures that review.yaml does not", async () => {
    const t = await team();
    const settings = { team: { d1: { git: 'ana@example.com' }, d2: { git: 'ben@example.com' } } };
    const ranking = path.join(t.review('ana'), 'rankings', 'd2.yaml');
    assert.equal(
      await (await openAuthorship(t.review('ana'), settings)).check(ranking, 'd2'),
      undefined,
      "Ben's unsigned commit counts while nobody asks for signatures",
    );
    git(t.clone.ana, 'config', 'teamfusion.requireSignedCommits', 'true');
    const refused = await (await openAuthorship(t.review('ana'), settings)).check(ranking, 'd2');
    assert.match(
      refused!.reason,
      /^commit [0-9a-f]{12} by Ben <ben@example\.com> wrote it, and git verify-commit does not accept its signature \(requireSignedCommits: true\)$/,
    );
  });

  it("a merge commit keeps each member's authorship; a squash makes the squasher the author of everyone's files", async () => {
    const t = await team();
    git(t.clone.ben, 'switch', '--quiet', '-c', 'review-run');
    await reorder(path.join(t.review('ben'), 'rankings', 'd2.yaml'));
    git(t.clone.ben, 'commit', '--quiet', '-am', "Ben's new ranking");
    git(t.clone.ben, 'push', '--quiet', '-u', 'origin', 'review-run');
    git(t.clone.ana, 'fetch', '--quiet', 'origin');
    const settings = { team: { d1: { git: 'ana@example.com' }, d2: { git: 'ben@example.com' } } };
    const ranking = path.join(t.review('ana'), 'rankings', 'd2.yaml');
    git(t.clone.ana, 'commit', '--quiet', '--allow-empty', '-m', "something of Ana's meanwhile");
    git(t.clone.ana, 'merge', '--quiet', '--no-ff', '-m', 'merge the run', 'origin/review-run');
    assert.equal(
      await (await openAuthorship(t.review('ana'), settings)).check(ranking, 'd2'),
      undefined,
      "merged: Ben's commit is still Ben's",
    );
    git(t.clone.ana, 'reset', '--quiet', '--hard', 'HEAD~1');
    git(t.clone.ana, 'merge', '--quiet', '--squash', 'origin/review-run');
    git(t.clone.ana, 'commit', '--quiet', '-m', 'the run, squashed');
    const squashed = await (await openAuthorship(t.review('ana'), settings)).check(ranking, 'd2');
    assert.equal(squashed?.author, 'ana@example.com', "squashed: Ana is the author of Ben's ranking, so it no longer counts");
  });

  it('compare --json lists the files not counted and leaves them out of agreement before', async () => {
    const seed = await makeReviewWithRun();
    const yamlFile = path.join(seed, 'review.yaml');
    const yaml = await fs.readFile(yamlFile, 'utf8').catch(() => '');
    await fs.writeFile(
      yamlFile,
      `${yaml}\nteam:\n  d1: { git: ana@example.com }\n  d2: { git: ben@example.com }\n  d3: { git: chen@example.com }\n  d4: { git: dev@example.com }\n`,
    );
    const t = await makeGitTeam(await makeTempDir('tf-authorship-cmp-'), seed, ['ana', 'ben', 'chen', 'dev'] as const);
    const before = await compareRun(t.review('ana'), RUN_ID);
    assert.deepEqual(before.authorship, { checked: true, notCounted: [] });
    assert.deepEqual(before.before.designers, ['d1', 'd2', 'd3', 'd4']);

    await reorder(path.join(t.review('ana'), 'rankings', 'd3.yaml'));
    git(t.clone.ana, 'commit', '--quiet', '-am', "Chen's ranking, by Ana");
    const r = await cli.run('compare', '--json', t.review('ana'), RUN_ID);
    const c = JSON.parse(r.stdout) as { before: { designers: string[] }; authorship: ValidateJson['authorship'] };
    assert.deepEqual(c.before.designers, ['d1', 'd2', 'd4']);
    assert.deepEqual(
      c.authorship.notCounted.map((n) => [n.file, n.member, n.author]),
      [['rankings/d3.yaml', 'd3', 'ana@example.com']],
    );
    const plain = await cli.run('compare', t.review('ana'), RUN_ID);
    assert.match(
      plain.stdout,
      /Not counted for d3: rankings\/d3\.yaml \(commit [0-9a-f]{12} by Ana <ana@example\.com> wrote it, and that is not d3/,
    );
  });

  it('survey files and blind re-rankings count only as their member committed them (compare, also for the re-rank set)', async () => {
    const seed = await makeReviewWithRun();
    await fs.appendFile(
      path.join(seed, 'review.yaml'),
      '\nteam:\n  d1: { git: ana@example.com }\n  d2: { git: ben@example.com }\n  d3: { git: chen@example.com }\n  d4: { git: dev@example.com }\n',
    );
    await makeRerankSet(seed, RUN_ID);
    const orders: Record<string, string[]> = {
      d1: ['r2', '4', '3', 'r1', '2'],
      d2: ['r2', '3', '4', '2', 'r1'],
      d3: ['4', 'r2', 'r1', '3', '2'],
    };
    for (const [d, order] of Object.entries(orders)) await writeRerankBySource(seed, d, order);
    const survey = (id: string): string => `designer: ${id}\nrepresentative: 4\nclarity: 5\nsatisfied: 4\n`;
    await fs.mkdir(path.join(seed, 'runs', RUN_ID, 'survey'), { recursive: true });
    await fs.writeFile(path.join(seed, 'runs', RUN_ID, 'survey', 'd1.yaml'), survey('d1'));
    const t = await makeGitTeam(await makeTempDir('tf-authorship-rr-'), seed, ['ana', 'ben', 'chen', 'dev'] as const);
    const fair = await compareRun(t.review('ana'), RUN_ID);
    assert.deepEqual(fair.authorship.notCounted, []);
    assert.equal(fair.rerankings, 3);
    assert.equal(fair.survey.n, 1);

    // Dev writes Ben's survey and re-ranks as Chen, and commits both as himself.
    const dev = t.review('dev');
    await fs.writeFile(path.join(dev, 'runs', RUN_ID, 'survey', 'd2.yaml'), survey('d2'));
    await reorder(path.join(dev, 'runs', RUN_ID, 'rerank', 'rankings', 'd3.yaml'));
    git(t.clone.dev, 'add', '-A');
    git(t.clone.dev, 'commit', '--quiet', '-m', 'for Ben and Chen');
    pullAndPush(t.clone.dev);
    git(t.clone.ana, 'pull', '--quiet', '--rebase');
    const c = await compareRun(t.review('ana'), RUN_ID);
    assert.deepEqual(
      c.authorship.notCounted.map((n) => [n.file, n.member, n.author]),
      [
        [`runs/${RUN_ID}/rerank/rankings/d3.yaml`, 'd3', 'dev@example.com'],
        [`runs/${RUN_ID}/survey/d2.yaml`, 'd2', 'dev@example.com'],
      ],
    );
    assert.equal(c.rerankings, 2, "Chen's re-ranking as Dev committed it is left out");
    assert.equal(c.survey.n, 1, "Ben's survey as Dev committed it is left out");
    assert.ok(
      c.problems.some((p) => p.startsWith(`runs/${RUN_ID}/survey/d2.yaml:1:1: error: This file is not counted: commit `)),
      c.problems.join('\n'),
    );
  });

  it('run.json counts only as its driver committed it: compare refuses it and evaluate skips the run, never sums it', async () => {
    const seed = await makeReviewWithRun();
    await fs.appendFile(
      path.join(seed, 'review.yaml'),
      '\nteam:\n  d1: { git: ana@example.com }\n  d2: { git: ben@example.com }\n  d3: { git: chen@example.com }\n  d4: { git: dev@example.com }\n',
    );
    const t = await makeGitTeam(await makeTempDir('tf-authorship-rec-'), seed, ['ana', 'ben'] as const);
    await compareRun(t.review('ben'), RUN_ID); // Ana's record (she committed the run first): believed everywhere
    const evaluated = await evaluateFolder(t.review('ben'));
    assert.equal(evaluated.reviews[0]!.runs.length, 1);

    // Ben edits Ana's record on his machine: not believed there while uncommitted, nor anywhere once committed.
    const record = path.join(t.review('ben'), 'runs', RUN_ID, 'run.json');
    await fs.writeFile(record, `${(await fs.readFile(record, 'utf8')).trimEnd()}\n\n`);
    await assert.rejects(
      compareRun(t.review('ben'), RUN_ID),
      /run\.json is not counted: it has changes not committed yet, and this machine's git user\.email is ben@example\.com, while the run's driver is ana@example\.com/,
    );
    git(t.clone.ben, 'checkout', '--quiet', '--', '.');

    // The journal read over run.json is the driver's too: one Ben commits is refused the same way.
    await fs.writeFile(path.join(t.review('ben'), 'runs', RUN_ID, 'journal.jsonl'), '');
    git(t.clone.ben, 'add', '-A');
    git(t.clone.ben, 'commit', '--quiet', '-m', 'a journal for Ana');
    pullAndPush(t.clone.ben);
    git(t.clone.ana, 'pull', '--quiet', '--rebase');
    await assert.rejects(
      compareRun(t.review('ana'), RUN_ID),
      new RegExp(
        `runs/${RUN_ID}/journal\\.jsonl is not counted: commit [0-9a-f]{12} by Ben <ben@example\\.com> wrote it, and the run's driver is ana@example\\.com`,
      ),
    );

    await fs.writeFile(record, `${(await fs.readFile(record, 'utf8')).trimEnd()}\n\n`);
    git(t.clone.ben, 'commit', '--quiet', '-am', "Ana's record, by Ben");
    const forged = git(t.clone.ben, 'rev-parse', 'HEAD').trim();
    pullAndPush(t.clone.ben);
    git(t.clone.ana, 'pull', '--quiet', '--rebase');
    const refusal = new RegExp(
      `runs/${RUN_ID}/run\\.json is not counted: commit ${forged.slice(0, 12)} by Ben <ben@example\\.com> wrote it, and the run's driver is ana@example\\.com \\(the author of the first commit of its run\\.json\\)`,
    );
    await assert.rejects(compareRun(t.review('ana'), RUN_ID), refusal);
    const cli = await startCli(compareCli(), ['compare', t.review('ana'), RUN_ID]).done;
    assert.equal(cli.code, 1);
    assert.match(cli.stderr, refusal);
    const e = await evaluateFolder(t.review('ana'));
    assert.equal(e.reviews[0]!.runs.length, 0, 'not summed');
    assert.ok(
      e.skipped.some((s) => s.path.endsWith(`runs/${RUN_ID}`) && refusal.test(s.reason)),
      JSON.stringify(e.skipped),
    );
  });

  it('outside git, or without e-mails in review.yaml: nothing is checked, and why is said', async () => {
    const loose = await makeReview({ options: 3, designers: 3 });
    await fs.writeFile(path.join(loose, 'review.yaml'), MAPPING);
    const outside = JSON.parse((await cli.run('validate', '--json', loose)).stdout) as ValidateJson;
    assert.deepEqual(outside.authorship, {
      checked: false,
      why: "Who wrote each member's file is not checked: the review is not in a git repository.",
      notCounted: [],
    });
    const plain = await cli.run('validate', loose);
    assert.equal(plain.code, 0);
    assert.match(plain.stderr, /not checked: the review is not in a git repository/);

    // A shallow clone cannot tell who wrote the older commits; without git nothing can be asked.
    const t = await team();
    const shallow = path.join(path.dirname(t.remote), 'shallow');
    git(path.dirname(t.remote), 'clone', '--quiet', '--depth', '1', `file://${t.remote}`, shallow);
    const cut = JSON.parse((await cli.run('validate', '--json', path.join(shallow, 'review'))).stdout) as ValidateJson;
    assert.equal(cut.authorship.checked, false);
    assert.match(cut.authorship.why!, /this clone is shallow.*git fetch --unshallow/);
    const env = { ...process.env, PATH: await makeTempDir('tf-nopath-') }; // node itself is started by its full path
    const noGit = await startCli(cli.cli, ['validate', '--json', t.review('ana')], { env }).done;
    assert.match((JSON.parse(noGit.stdout) as ValidateJson).authorship.why!, /git was not found on this machine/);

    const noEmails = await makeReview({ options: 3, designers: 3 });
    const r = JSON.parse((await cli.run('validate', '--json', noEmails)).stdout) as ValidateJson;
    assert.equal(r.valid, true);
    assert.equal(r.authorship.checked, false);
    assert.match(r.authorship.why!, /review\.yaml names no git e-mail/);
    assert.equal(
      (await cli.run('validate', noEmails)).stderr,
      '',
      'a review that asks for no check is not told about it on every validate',
    );
  });
});
