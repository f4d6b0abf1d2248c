/**
 * analysis.json (code-discussion) and judge.json (judge) are made after a run by any member, not by its driver alone, so
 * they are not the run's record: each counts only as its maker — the author of its first commit — committed it (the door's
 * checkMade, as for criteria.json). Real git: Ana's clone holds a coded and judged run; Ben changes both files and pushes;
 * every reader on Ana's machine refuses them, naming the file, the commit and its author, and the run's record stays
 * clean. A judge.json Ben makes anew (removed, then made by him) is his, and counts.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { MockOpenAI } from '../../support/openaiMock';
import { git, makeGitTeam, pullAndPush } from '../../support/gitTeam';
import { makeTempDir } from '../run/fixtures';
import { clientFor } from '../run/helpers';
import { RUN_ID, reviewWithRun, scriptedCoder } from '../analysis/fixtures';
import { codeDiscussion, readAnalysisFile } from '../../../src/core/analysis';
import { codedCategories } from '../../../src/core/analysis/evaluationMix';
import { readJudgeFile, writeJudgeFile, JUDGE_CAVEAT, type JudgeFile } from '../../../src/core/judge/judgeFile';
import { judgeRun } from '../../../src/core/judge/judge';
import { DIMENSION_NAMES } from '../../../src/core/judge/judgePrompts';
import { driversRecordRefusal } from '../../../src/core/record/recordAuthor';
import { ReviewFileError } from '../../../src/core/files/reviewFiles';
import { discussionState } from '../../../src/extension/analysis/panelDiscussion';

const MAPPING = 'team:\n  d1: { git: ana@example.com }\n  d2: { git: ben@example.com }\n  d3: { git: chen@example.com }\n';

function judgeFile(model: string): JudgeFile {
  const order = { shownAsA: 'teamfusion', answer: 'tie', prefers: 'tie', reason: 'Both read alike.' } as const;
  return {
    runId: RUN_ID,
    model,
    at: '2026-11-22T10:00:00Z',
    dimensions: Object.fromEntries(DIMENSION_NAMES.map((d) => [d, 'tie'])) as JudgeFile['dimensions'],
    orders: Object.fromEntries(DIMENSION_NAMES.map((d) => [d, [order, { ...order, shownAsA: 'direct' }]])) as JudgeFile['orders'],
    flipped: [],
    files: { teamfusion: `runs/${RUN_ID}/result.md`, direct: `runs/${RUN_ID}/baseline.md` },
    requests: 2,
    usage: { inputTokens: 10, cachedInputTokens: 0, outputTokens: 5 },
    caveat: JUDGE_CAVEAT,
  };
}

describe('authorship: analysis.json and judge.json count only as their maker committed them (real git)', function () {
  this.timeout(600_000);
  let mock: MockOpenAI;
  before(async () => {
    mock = await MockOpenAI.start();
  });
  after(async () => {
    await mock.close();
  });

  it("Ben's change to Ana's analysis.json and judge.json is refused at every reader; the record stays clean; Ben's own judge.json counts", async () => {
    scriptedCoder(mock);
    const { root: seed } = await reviewWithRun();
    await fs.writeFile(path.join(seed, 'review.yaml'), MAPPING);
    await codeDiscussion({ reviewRoot: seed, runId: RUN_ID, client: clientFor(mock) });
    await writeJudgeFile(seed, judgeFile('ana-model'));
    const t = await makeGitTeam(await makeTempDir('tf-made-in-run-'), seed, ['ana', 'ben'] as const);
    const ana = t.review('ana');
    const analysisRel = `runs/${RUN_ID}/analysis.json`;
    const judgeRel = `runs/${RUN_ID}/judge.json`;

    // Ana made both (the first commit of each): believed.
    assert.equal((await readAnalysisFile(ana, RUN_ID))?.runId, RUN_ID);
    assert.equal((await codedCategories(ana, RUN_ID))?.coded, 11);
    assert.equal((await readJudgeFile(ana, RUN_ID))?.model, 'ana-model');

    // Ben codes or judges the run again with --force over Ana's files: refused before anything is sent or written.
    const sentBefore = mock.requests.length;
    const made = (rel: string, again: string) => (e: Error) =>
      e.message.startsWith(
        `${rel} was made by d1 (ana@example.com), the author of its first commit, and only its maker ${again}; this machine's git e-mail is not theirs, so nothing was sent or written.`,
      );
    await assert.rejects(
      codeDiscussion({ reviewRoot: t.review('ben'), runId: RUN_ID, client: clientFor(mock), force: true }),
      made(analysisRel, 'codes the discussion again'),
    );
    const noChat = (): never => assert.fail('nothing is sent');
    await assert.rejects(
      judgeRun({ reviewRoot: t.review('ben'), runId: RUN_ID, chat: { complete: noChat } as never, force: true }),
      made(judgeRel, 'judges the run again'),
    );
    assert.equal(mock.requests.length, sentBefore, 'no request');
    assert.equal(git(t.clone.ben, 'status', '--porcelain'), '', 'nothing written');

    // Ben changes both (still valid files) and pushes; Ana pulls.
    for (const rel of [analysisRel, judgeRel]) {
      const file = path.join(t.review('ben'), ...rel.split('/'));
      await fs.writeFile(file, `${(await fs.readFile(file, 'utf8')).trimEnd()}\n\n`);
    }
    git(t.clone.ben, 'commit', '--quiet', '-am', "Ana's analysis and verdicts, by Ben");
    const forged = git(t.clone.ben, 'rev-parse', 'HEAD').trim();
    pullAndPush(t.clone.ben);
    git(t.clone.ana, 'pull', '--quiet', '--rebase');

    const said = (rel: string): string => `${rel} is not counted: commit ${forged.slice(0, 12)} by Ben <ben@example.com> `;
    const refused = (rel: string) => (e: Error) =>
      e instanceof ReviewFileError && e.file === rel && e.message.startsWith(said(rel)) && e.message.includes('its maker is d1');
    await assert.rejects(readAnalysisFile(ana, RUN_ID), refused(analysisRel));
    await assert.rejects(codedCategories(ana, RUN_ID), refused(analysisRel));
    await assert.rejects(readJudgeFile(ana, RUN_ID), refused(judgeRel));
    const panel = await discussionState(ana, { id: RUN_ID, iterations: [] } as never, undefined, undefined);
    assert.ok(panel?.error?.startsWith(said(analysisRel)), panel?.error);
    assert.equal(panel?.analysis, undefined, 'not shown');
    // Neither file is the run's record: the run itself is not refused.
    assert.equal(await driversRecordRefusal(ana, RUN_ID), undefined);

    // Ben removes the judge.json he changed, then judges the run himself: his file, and it counts on Ana's machine.
    git(t.clone.ben, 'rm', '--quiet', '--', judgeRel.replace(/^/, 'review/'));
    git(t.clone.ben, 'commit', '--quiet', '-m', 'judge.json removed');
    await writeJudgeFile(t.review('ben'), judgeFile('ben-model'));
    git(t.clone.ben, 'add', '-A');
    git(t.clone.ben, 'commit', '--quiet', '-m', "Ben's verdicts");
    pullAndPush(t.clone.ben);
    git(t.clone.ana, 'pull', '--quiet', '--rebase');
    assert.equal((await readJudgeFile(ana, RUN_ID))?.model, 'ben-model');
  });
});
