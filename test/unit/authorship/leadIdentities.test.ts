/**
 * review.yaml's identities change only by the lead (issue 39, item 4), with real git: one commit of Ben's that remaps Ana's
 * e-mail to his own and carries a vote in her name makes neither count — the previous values stand, and review.yaml is
 * listed as not counted with Ben's commit. The lead's own change counts; an uncommitted one counts only on her machine.
 */
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { git, makeGitTeam, pullAndPush } from '../../support/gitTeam';
import { makeReview, makeTempDir } from '../run/fixtures';
import { reviewAuthorship } from '../../../src/core/review/loadReview';
import { voteCheckOf } from '../../../src/core/evaluation/votes/authorship';

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
    assert.match((await a.vote(VOTE, 'd1'))!, /by Ben <ben@example\.com> wrote it, and that is not d1 \(review\.yaml team\.d1\.git: ana@example\.com\)/);
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
    assert.equal(uncommitted.door.report().notCounted.filter((n) => n.file === 'review.yaml' && n.commit === '(uncommitted)').length, 0, "the lead's uncommitted change counts on her machine");
    git(t.clone.ana, 'commit', '--quiet', '-am', 'Chen has two e-mails');
    pullAndPush(t.clone.ana);
    git(t.clone.ben, 'pull', '--quiet', '--rebase');
    const b = await check('ben');
    assert.deepEqual(b.door.report().notCounted.filter((n) => n.file === 'review.yaml').map((n) => n.commit), [forged], "only Ben's change is listed; Ana's stands");

    // Ben's own uncommitted remap counts on no machine, his own included.
    await fs.writeFile(yamlFile, (await fs.readFile(yamlFile, 'utf8')).replace('d2: { git: ben@example.com }', 'd2: { git: [ben@example.com, ana@example.com] }'));
    const mine = await check('ben');
    const own = mine.door.report().notCounted.find((n) => n.commit === '(uncommitted)');
    assert.equal(own?.reason, 'it changes team.d2.git, which only the lead (d1) may change, so the previous values stand');
  });
});
