/**
 * The review panel says what `validate --json` says about authorship (issue 39): the host's state carries the same report
 * (outside git: not checked, and why; in git: the member's file another member committed, with its commit and author),
 * its list bounded; and the Overview's notice words it, once.
 */
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { git, makeGitTeam, pullAndPush } from '../../support/gitTeam';
import { makeReview, makeTempDir } from '../run/fixtures';
import { loadReview } from '../../../src/core/review';
import { validateFolder } from '../../../src/core/questions/validate';
import type { AuthorshipReport } from '../../../src/core/authorship/door';
import { PANEL_NOT_COUNTED_MAX, PanelStateSchema, type PanelState } from '../../../src/protocol/panel';
import { buildPanelState } from '../../../src/extension/panel/panelState';
import { panelAuthorship, panelAuthorshipOf } from '../../../src/extension/panel/state/authorshipState';
import { authorshipWords } from '../../../webview/panel/views/review/authorship';

const MAPPING = 'team:\n  d1: { git: ana@example.com }\n  d2: { git: ben@example.com }\n  d3: { git: chen@example.com }\n';

/** The host's state of the review at `root`, loaded as the panel loads it, through the protocol's schema. */
async function hostState(root: string): Promise<PanelState> {
  const load = await loadReview(root, { partial: true, despiteSettings: true, decodeImages: false });
  const state = buildPanelState({
    root,
    load,
    analysis: { error: 'not asked' },
    runs: [],
    trusted: true,
    running: false,
    toWebviewUri: (p) => `https://webview.test/${p.split(path.sep).join('/')}`,
    authorship: await panelAuthorship(load),
  });
  return PanelStateSchema.parse(state);
}

describe('panel: who wrote each member file (issue 39)', function () {
  this.timeout(120_000);

  it('outside git: the state says not checked, with the reason validate gives, and the notice says it once', async () => {
    const root = await makeReview({ options: 3, designers: 3 });
    await fs.writeFile(path.join(root, 'review.yaml'), MAPPING);
    const state = await hostState(root);
    const cli = (await validateFolder(root)).authorship;
    assert.equal(cli.checked, false);
    assert.deepEqual(state.authorship, { checked: false, why: cli.why, notCounted: [], more: 0 });
    assert.match(state.authorship?.why ?? '', /not in a git repository/);
    assert.deepEqual(authorshipWords(state.authorship), {
      head: 'Authorship is not checked: the review is not in a git repository.',
      items: [],
    });
  });

  it("in git: ben's ranking committed by ana is listed with its commit and author, as validate lists it", async () => {
    const seed = await makeReview({ options: 3, designers: 3 });
    await fs.writeFile(path.join(seed, 'review.yaml'), MAPPING);
    const t = await makeGitTeam(await makeTempDir('tf-panel-authorship-'), seed, ['ana', 'ben', 'chen'] as const);
    const clean = await hostState(t.review('chen'));
    assert.deepEqual(clean.authorship, { checked: true, notCounted: [], more: 0 });
    assert.equal(authorshipWords(clean.authorship), undefined, 'nothing to say when every file counts');

    const file = path.join(t.review('ana'), 'rankings', 'd2.yaml');
    const text = await fs.readFile(file, 'utf8');
    await fs.writeFile(file, text.replace('rank: 1\n', 'rank: X\n').replace('rank: 2\n', 'rank: 1\n').replace('rank: X\n', 'rank: 2\n'));
    git(t.clone.ana, 'commit', '--quiet', '-am', "Ben's ranking, by Ana");
    const forged = git(t.clone.ana, 'rev-parse', 'HEAD').trim();
    pullAndPush(t.clone.ana);
    git(t.clone.chen, 'pull', '--quiet', '--rebase');

    const state = await hostState(t.review('chen'));
    assert.equal(state.authorship?.checked, true);
    assert.deepEqual(
      state.authorship?.notCounted.map(({ reason: _r, ...n }) => n),
      [{ file: 'rankings/d2.yaml', member: 'd2', commit: forged, author: 'ana@example.com' }],
    );
    const cli = (await validateFolder(t.review('chen'))).authorship;
    assert.deepEqual(state.authorship?.notCounted, cli.notCounted, 'the same report as validate --json');
    const words = authorshipWords(state.authorship);
    assert.equal(words?.head, '1 file does not count for its member');
    assert.deepEqual(words?.items, [
      `rankings/d2.yaml — commit ${forged.slice(0, 12)} by ana@example.com: ${state.authorship?.notCounted[0]?.reason ?? ''}`,
    ]);
  });

  it('bounds the list at PANEL_NOT_COUNTED_MAX and counts the rest; the notice says how many in all', () => {
    const n = (i: number) => ({
      file: `rankings/m${i}.yaml`,
      member: `m${i}`,
      commit: 'a'.repeat(40),
      author: 'x@example.com',
      reason: 'r',
    });
    const report: AuthorshipReport = { checked: true, notCounted: Array.from({ length: PANEL_NOT_COUNTED_MAX + 7 }, (_, i) => n(i)) };
    assert.equal(PANEL_NOT_COUNTED_MAX, 50, 'docs/sync.md states 50');
    const a = panelAuthorshipOf(report);
    assert.equal(a.notCounted.length, PANEL_NOT_COUNTED_MAX);
    assert.equal(a.more, 7);
    const words = authorshipWords(a);
    assert.equal(words?.head, `${PANEL_NOT_COUNTED_MAX + 7} files do not count for their member`);
    assert.equal(words?.items.at(-1), '… and 7 more (teamfusion validate lists them all).');
    assert.equal(
      authorshipWords({
        checked: true,
        notCounted: [{ file: 'rankings/d1.yaml', member: 'd1', commit: '(uncommitted)', author: 'ben@example.com', reason: 'r' }],
        more: 0,
      })?.items[0],
      'rankings/d1.yaml — changes not committed yet by ben@example.com: r',
    );
  });
});
