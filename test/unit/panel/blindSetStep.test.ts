/**
 * The blind set belongs to its run (issue 40): the Reviews view lists a run's blind re-rank set under the run as its
 * re-rank step ("Blind re-rank: 1 of 3 ranked"), not as a second review; a set nobody has ranked yet is no error; the
 * step opens the set's panel, which knows its run and team.
 */
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import Module = require('node:module');
import { blindSetDiagnostics, blindSetRef, placeBlindSets, rerankStepLabel } from '../../../src/extension/foundation/blindSet';
import { blindSetTeam } from '../../../src/extension/panel/state/blindSetState';
import { reviewWithRun, RUN_ID } from '../analysis/fixtures';

/** Just enough of `vscode` for the tree: items keep what is set on them. */
function fakeVscode(): Record<string, unknown> {
  class Uri {
    constructor(readonly fsPath: string) {}
    static file(p: string): Uri {
      return new Uri(path.resolve(p));
    }
    static joinPath(u: Uri, ...parts: string[]): Uri {
      return new Uri(path.join(u.fsPath, ...parts));
    }
    toString(): string {
      return `file://${this.fsPath}`;
    }
  }
  class ThemeIcon {
    constructor(readonly id: string) {}
  }
  class TreeItem {
    [k: string]: unknown;
    constructor(
      readonly label: string,
      readonly collapsibleState: number,
    ) {}
  }
  class EventEmitter {
    event = () => ({ dispose() {} });
    fire(): void {}
    dispose(): void {}
  }
  return {
    Uri,
    ThemeIcon,
    ThemeColor: class {},
    TreeItem,
    EventEmitter,
    TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
    workspace: { asRelativePath: (p: string | Uri) => (typeof p === 'string' ? p : p.fsPath) },
  };
}

function loadTree(): typeof import('../../../src/extension/foundation/reviewsTree') {
  const file = path.join(__dirname, '__vscode_tree_fake__.js');
  const mod = new Module(file);
  mod.filename = file;
  mod.loaded = true;
  mod.exports = fakeVscode();
  require.cache[file] = mod;
  const loader = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const original = loader._resolveFilename;
  loader._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]) {
    return request === 'vscode' ? file : original.call(this, request, ...rest);
  };
  try {
    const treeFile = require.resolve('../../../src/extension/foundation/reviewsTree');
    delete require.cache[treeFile];
    return require(treeFile) as typeof import('../../../src/extension/foundation/reviewsTree');
  } finally {
    loader._resolveFilename = original;
  }
}

/** A review with a completed run (designers d1, d2, d3) and that run's blind set, ranked by d2 only. */
async function reviewWithBlindSet(): Promise<{ root: string; blind: string }> {
  const { root } = await reviewWithRun();
  const blind = path.join(root, 'runs', RUN_ID, 'rerank');
  for (const d of ['options', 'rankings']) await fs.mkdir(path.join(blind, d), { recursive: true });
  await fs.writeFile(path.join(blind, 'brief.md'), '# Brief\n');
  await fs.writeFile(path.join(blind, 'review.yaml'), 'title: Fixture — re-rank\n');
  for (const l of ['A', 'B', 'C'])
    await fs.copyFile(
      path.join(root, 'options', (await fs.readdir(path.join(root, 'options')))[0]!),
      path.join(blind, 'options', `${l}.png`),
    );
  await fs.writeFile(path.join(blind, 'rankings', 'd2.yaml'), 'designer: D2\nranking: []\n');
  return { root, blind };
}

describe('the blind set belongs to its run', () => {
  const roots: string[] = [];
  after(async () => {
    for (const r of roots) await fs.rm(r, { recursive: true, force: true });
  });

  it('a blind set is placed under its run when its review is listed; on its own otherwise', () => {
    const review = path.resolve('reviews', 'bottle');
    const blind = path.join(review, 'runs', RUN_ID, 'rerank');
    assert.deepEqual(blindSetRef(blind), { root: blind, reviewRoot: review, runId: RUN_ID });
    assert.equal(blindSetRef(review), undefined);
    const placed = placeBlindSets([review, blind, path.resolve('other')]);
    assert.deepEqual(placed.reviews, [review, path.resolve('other')]);
    assert.deepEqual([...placed.blindSets.values()], [blind]);
    assert.deepEqual(placeBlindSets([blind]).reviews, [blind], 'its review not listed: still shown');
  });

  it('"Blind re-rank: 1 of 4 ranked"; no ranking yet is no error for a blind set, still one for a review', () => {
    assert.equal(rerankStepLabel(1, 4), 'Blind re-rank: 1 of 4 ranked');
    assert.equal(rerankStepLabel(0, 4), 'Blind re-rank: 0 of 4 ranked');
    const diags = [
      { message: 'rankings/ has no ranking files yet. Add one <designer-id>.yaml (or .json) per designer, or import a CSV.' },
      { message: 'options/A.png cannot be read as an image.' },
    ];
    const blind = path.join('r', 'runs', RUN_ID, 'rerank');
    assert.deepEqual(blindSetDiagnostics(blind, diags), [diags[1]]);
    assert.deepEqual(blindSetDiagnostics('r', diags), diags);
  });

  it('the tree lists the blind set under its run as "Blind re-rank: 1 of 3 ranked", opening the set; not as a review', async () => {
    const { root, blind } = await reviewWithBlindSet();
    roots.push(root);
    const { ReviewsTree } = loadTree();
    const Uri = fakeVscode().Uri as { file(p: string): unknown };
    const index = { find: async () => [Uri.file(root), Uri.file(blind)], onDidChange: () => ({ dispose() {} }) };
    const diagnostics = { count: () => ({ errors: 0, warnings: 0 }), onDidPublish: () => ({ dispose() {} }) };
    const tree = new ReviewsTree(index as never, diagnostics as never);
    const snap = await tree.snapshot(5);
    tree.dispose();
    assert.deepEqual(
      snap.map((r) => r.contextValue),
      ['review'],
      'one review: the blind set is not a second one',
    );
    const run = snap[0]!.children!.find((c) => c.label === 'Runs')!.children!.find((c) => c.runId === RUN_ID)!;
    assert.ok(run, 'the run is listed');
    assert.deepEqual(
      run.children?.map((c) => [c.label, c.contextValue, c.icon, c.command, c.runId]),
      [['Blind re-rank: 1 of 3 ranked', 'rerank', 'eye-closed', 'teamfusion.openReview', RUN_ID]],
    );
    assert.match(run.children![0]!.tooltip!, /Ranked: D2\.\nWaiting for Ana, Chloé\./);
  });

  it("the set's panel knows its run and the team that ranks it (the review's designers); another review has none", async () => {
    const { root, blind } = await reviewWithBlindSet();
    roots.push(root);
    assert.deepEqual(await blindSetTeam(blind), {
      runId: RUN_ID,
      team: [
        { id: 'd1', name: 'Ana' },
        { id: 'd2', name: 'Ben' },
        { id: 'd3', name: 'Chloé' },
      ],
    });
    assert.equal(await blindSetTeam(root), undefined);
  });
});
