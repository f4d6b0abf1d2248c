/**
 * review.yaml's identities change only by the lead (issue 39, item 4), with real git: one commit of Ben's that remaps Ana's
 * e-mail to his own and carries a vote in her name makes neither count — the previous values stand, and review.yaml is
 * listed as not counted with Ben's commit. The lead's own change counts; an uncommitted one counts only on her machine.
 * Where this member requires signatures, the lead's change counts only signed by a key bound to the lead's e-mail (ssh keys
 * made here). Reading the history costs the same two git processes however many commits review.yaml has.
 */
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { git, makeGitTeam, pullAndPush } from '../../support/gitTeam';
import { makeReview, makeTempDir } from '../run/fixtures';
import { reviewAuthorship } from '../../../src/core/review/loadReview';
import { voteCheckOf } from '../../../src/core/evaluation/votes/authorship';
import { standingIdentities } from '../../../src/core/authorship/identityHistory';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const YAML = 'lead: d1\nteam:\n  d1: { git: ana@example.com }\n  d2: { git: ben@example.com }\n  d3: { git: chen@example.com }\n';
const VOTE = 'runs/2026-11-21T22-40-05Z-3f9c/votes/d1.yaml';

describe('authorship: review.yaml identities change only by the lead (real git)', function () {
  this.timeout(120_000);

  it("Ben's remap of Ana's e-mail does not count, nor the vote it was for; Ana's own change does", async () => {
    const seed = await makeReview({ options: 3, designers: 3 });
    await fs.writeFile(path.join(seed, 'review.yaml'), YAML);
    const t = await makeGitTeam(await makeTempDir('tf-lead-ids-'), seed, ['ana', 'ben', 'chen'] as const);
    const check = async (who: 'ana' | 'ben') => {
      const door = await reviewAuthorship(t.review(who));
      return { door, vote: voteCheckOf(door)! };
    };

    // Ben: review.yaml says d1 is ben@example.com, and a vote as d1, in one commit of his own.
    const yamlFile = path.join(t.review('ben'), 'review.yaml');
    await fs.writeFile(yamlFile, YAML.replace('d1: { git: ana@example.com }', 'd1: { git: ben@example.com }'));
    const vote = path.join(t.review('ben'), ...VOTE.split('/'));
    await fs.mkdir(path.dirname(vote), { recursive: true });
    await fs.writeFile(vote, 'designer: d1\nvotes:\n  - iteration: 1\n    decisionPoint: 1\n    choice: r1b\n');
    git(t.clone.ben, 'add', '--', 'review/review.yaml', path.join('review', ...VOTE.split('/')));
    git(t.clone.ben, 'commit', '--quiet', '-m', 'd1 is me now');
    const forged = git(t.clone.ben, 'rev-parse', 'HEAD').trim();
    pullAndPush(t.clone.ben);
    git(t.clone.ana, 'pull', '--quiet', '--rebase');

    const a = await check('ana');
    assert.match(
      (await a.vote(VOTE, 'd1'))!,
      /by Ben <ben@example\.com> wrote it, and that is not d1 \(review\.yaml team\.d1\.git: ana@example\.com\)/,
    );
    const listed = a.door.report().notCounted.find((n) => n.file === 'review.yaml');
    assert.deepEqual(listed, {
      file: 'review.yaml',
      member: 'd1',
      commit: forged,
      author: 'ben@example.com',
      reason: 'it changes team.d1.git, which only the lead (d1) may change, so the previous values stand',
    });

    // Ana, the lead, puts her own e-mail back and maps d3 to a second e-mail, and commits it: it counts. (What the lead
    // commits stands as she committed it: had she kept Ben's remap in her commit, it would stand too.)
    const anaYaml = path.join(t.review('ana'), 'review.yaml');
    await fs.writeFile(anaYaml, YAML.replace('d3: { git: chen@example.com }', 'd3: { git: [chen@example.com, chen@home.example] }'));
    const uncommitted = await check('ana');
    assert.equal(
      uncommitted.door.report().notCounted.filter((n) => n.file === 'review.yaml' && n.commit === '(uncommitted)').length,
      0,
      "the lead's uncommitted change counts on her machine",
    );
    git(t.clone.ana, 'commit', '--quiet', '-am', 'Chen has two e-mails');
    pullAndPush(t.clone.ana);
    git(t.clone.ben, 'pull', '--quiet', '--rebase');
    const b = await check('ben');
    assert.deepEqual(
      b.door
        .report()
        .notCounted.filter((n) => n.file === 'review.yaml')
        .map((n) => n.commit),
      [forged],
      "only Ben's change is listed; Ana's stands",
    );

    // Ben's own uncommitted remap counts on no machine, his own included.
    await fs.writeFile(
      yamlFile,
      (await fs.readFile(yamlFile, 'utf8')).replace('d2: { git: ben@example.com }', 'd2: { git: [ben@example.com, ana@example.com] }'),
    );
    const mine = await check('ben');
    const own = mine.door.report().notCounted.find((n) => n.commit === '(uncommitted)');
    assert.equal(own?.reason, 'it changes team.d2.git, which only the lead (d1) may change, so the previous values stand');
  });

  it("with signatures required by this member, the lead's change counts only signed by the lead's key", async () => {
    const seed = await makeReview({ options: 3, designers: 3 });
    await fs.writeFile(path.join(seed, 'review.yaml'), YAML);
    const base = await makeTempDir('tf-lead-signed-');
    const t = await makeGitTeam(base, seed, ['ana', 'ben'] as const);
    const keys = path.join(base, 'keys');
    await fs.mkdir(keys);
    const key = (who: string): string => {
      execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', who, '-f', path.join(keys, who)]);
      return `${who}@example.com ${readFileSync(path.join(keys, `${who}.pub`), 'utf8').trim()}`;
    };
    const allowed = path.join(keys, 'allowed_signers');
    await fs.writeFile(allowed, `${key('ana')}\n${key('ben')}\n`);
    for (const who of ['ana', 'ben'] as const) git(t.clone[who], 'config', 'gpg.ssh.allowedSignersFile', allowed);
    const sign = (who: string): string[] => [
      '-c',
      'gpg.format=ssh',
      '-c',
      `user.signingkey=${path.join(keys, who)}`,
      '-c',
      'commit.gpgsign=true',
    ];
    const yamlOnAna = path.join(t.review('ana'), 'review.yaml');
    /** Ana's clone commits review.yaml with d3's e-mails `emails`, as `author` (default Ana) with `signing` options. */
    const commitD3 = async (emails: string, signing: string[], author: string[] = []): Promise<string> => {
      await fs.writeFile(yamlOnAna, YAML.replace('d3: { git: chen@example.com }', `d3: { git: [${emails}] }`));
      git(t.clone.ana, ...author, ...signing, 'commit', '--quiet', '-am', `d3 is ${emails}`);
      pullAndPush(t.clone.ana);
      return git(t.clone.ana, 'rev-parse', 'HEAD').trim();
    };
    const unsigned = await commitD3('chen@example.com, chen@two.example', []);
    const benKey = await commitD3('chen@example.com, chen@three.example', sign('ben'), [
      '-c',
      'user.name=Ana',
      '-c',
      'user.email=ana@example.com',
    ]);
    const signed = await commitD3('chen@example.com, chen@four.example', sign('ana'));
    git(t.clone.ben, 'pull', '--quiet', '--rebase');
    const yamlRefused = async () => (await reviewAuthorship(t.review('ben'))).report().notCounted.filter((n) => n.file === 'review.yaml');

    assert.deepEqual(await yamlRefused(), [], 'nobody asks for signatures: every change of the lead counts');
    git(t.clone.ben, 'config', 'teamfusion.requireSignedCommits', 'true');
    const refused = await yamlRefused();
    assert.deepEqual(
      refused.map((n) => [n.commit, n.author, n.member]).sort(),
      [
        [unsigned, 'ana@example.com', 'd3'],
        [benKey, 'ana@example.com', 'd3'],
      ].sort(),
    );
    assert.equal(
      refused.find((n) => n.commit === unsigned)?.reason,
      'it changes team.d3.git, which only the lead (d1) may change, and git verify-commit does not accept its signature (requireSignedCommits: true), so the previous values stand',
    );
    assert.equal(
      refused.find((n) => n.commit === benKey)?.reason,
      "it changes team.d3.git, which only the lead (d1) may change, and it is signed by ben@example.com, not by the lead's key (requireSignedCommits: true), so the previous values stand",
    );
    assert.ok(!refused.some((n) => n.commit === signed), "the lead's signed change counts");
    const top = t.clone.ben;
    const standing = await standingIdentities(top, 'review/review.yaml', { team: {} }, 'ben@example.com', true);
    assert.deepEqual(standing.settings.team?.d3, { git: ['chen@example.com', 'chen@four.example'] }, "the lead's signed values stand");
  });

  it("reads review.yaml's history in two git processes (a log and one cat-file batch), not one per commit", async () => {
    const seed = await makeReview({ options: 3, designers: 3 });
    await fs.writeFile(path.join(seed, 'review.yaml'), YAML);
    const t = await makeGitTeam(await makeTempDir('tf-lead-cost-'), seed, ['ana'] as const);
    const yamlFile = path.join(t.review('ana'), 'review.yaml');
    for (let k = 1; k <= 30; k++) {
      await fs.writeFile(yamlFile, YAML.replace('d3: { git: chen@example.com }', `d3: { git: chen${k}@example.com }`));
      git(t.clone.ana, 'commit', '--quiet', '-am', `d3, take ${k}`);
    }
    const trace = path.join(await makeTempDir('tf-git-trace-'), 'trace');
    const before = process.env.GIT_TRACE;
    process.env.GIT_TRACE = trace;
    let standing;
    try {
      const current = {
        lead: 'd1',
        team: { d1: { git: 'ana@example.com' }, d2: { git: 'ben@example.com' }, d3: { git: 'chen30@example.com' } },
      };
      standing = await standingIdentities(t.clone.ana, 'review/review.yaml', current, 'ana@example.com');
    } finally {
      if (before === undefined) delete process.env.GIT_TRACE;
      else process.env.GIT_TRACE = before;
    }
    assert.deepEqual(standing.settings.team?.d3, { git: ['chen30@example.com'] }, 'every take read, the last standing');
    const runs = readFileSync(trace, 'utf8')
      .split('\n')
      .filter((l) => /trace: built-in: git /.test(l))
      .map((l) => /built-in: git (?:'?-C'? \S+ )?(?:'?-c'? \S+ )*'?([a-z-]+)/.exec(l)?.[1]);
    assert.deepEqual(runs, ['log', 'cat-file']);
  });
});
