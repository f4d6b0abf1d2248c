/**
 * Trust a push cannot turn off (issue 39, item 4), with real git: a vote in Ana's name that Ben commits unsigned with Ana's
 * e-mail as its author counts while nobody asks for signatures (git cannot tell), and is not counted once Ana asks for
 * signatures herself — by git config `teamfusion.requireSignedCommits true` or by the VS Code setting (passed into the core
 * as ownSettings.ts) — although review.yaml says `requireSignedCommits: false`.
 */
import * as assert from 'node:assert/strict';
import { promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { git, makeGitTeam, pullAndPush } from '../../support/gitTeam';
import { makeReview, makeTempDir } from '../run/fixtures';
import { reviewAuthorship } from '../../../src/core/review/loadReview';
import { voteCheckOf } from '../../../src/core/evaluation/votes/authorship';
import { setOwnRequireSignedCommits } from '../../../src/core/authorship/ownSettings';

const YAML =
  'team:\n  d1: { git: ana@example.com }\n  d2: { git: ben@example.com }\n  d3: { git: chen@example.com }\nrequireSignedCommits: false\n';
const VOTE = 'runs/2026-11-21T22-40-05Z-3f9c/votes/d1.yaml';

describe("authorship: a member's own signature setting, which review.yaml cannot turn off (real git)", function () {
  this.timeout(120_000);
  afterEach(() => setOwnRequireSignedCommits(false));

  async function forged() {
    const seed = await makeReview({ options: 3, designers: 3 });
    await fs.writeFile(path.join(seed, 'review.yaml'), YAML);
    const t = await makeGitTeam(await makeTempDir('tf-own-signed-'), seed, ['ana', 'ben', 'chen'] as const);
    // Ben writes Ana's vote and commits it with Ana's name and e-mail as its author, unsigned.
    const file = path.join(t.review('ben'), ...VOTE.split('/'));
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, 'designer: d1\nvotes:\n  - iteration: 1\n    decisionPoint: 1\n    choice: r1b\n');
    git(t.clone.ben, 'add', '--', path.join('review', ...VOTE.split('/')));
    git(t.clone.ben, '-c', 'user.name=Ana', '-c', 'user.email=ana@example.com', 'commit', '--quiet', '-m', "Ana's vote");
    pullAndPush(t.clone.ben);
    git(t.clone.ana, 'pull', '--quiet', '--rebase');
    const check = async (): Promise<string | undefined> => {
      const vote = voteCheckOf(await reviewAuthorship(t.review('ana')));
      assert.ok(vote, 'e-mails named and a git repository: votes are checked');
      return vote(VOTE, 'd1');
    };
    return { t, check };
  }

  const UNSIGNED =
    /^commit [0-9a-f]{12} by Ana <ana@example\.com> wrote it, and git verify-commit does not accept its signature \(requireSignedCommits: true\)$/;

  it('git config teamfusion.requireSignedCommits true: the unsigned forged vote is not counted, review.yaml false notwithstanding', async () => {
    const { t, check } = await forged();
    assert.equal(await check(), undefined, 'without signatures git cannot tell: the forgery counts');
    git(t.clone.ana, 'config', 'teamfusion.requireSignedCommits', 'true');
    assert.match((await check())!, UNSIGNED);
  });

  it('the VS Code setting teamfusion.requireSignedCommits (set in the core by the extension) does the same', async () => {
    const { check } = await forged();
    setOwnRequireSignedCommits(true);
    assert.match((await check())!, UNSIGNED);
    setOwnRequireSignedCommits(false);
    assert.equal(await check(), undefined);
  });

  it('package.json contributes the setting for the user only (a workspace, which a push can bring, cannot set it)', () => {
    const pkg = JSON.parse(readFileSync(path.resolve(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, { type: string; default: unknown; scope?: string }> } };
    };
    const s = pkg.contributes.configuration.properties['teamfusion.requireSignedCommits'];
    assert.deepEqual([s?.type, s?.default, s?.scope], ['boolean', false, 'application']);
  });
});
