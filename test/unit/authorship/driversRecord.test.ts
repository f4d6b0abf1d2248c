/**
 * A run's record is its driver's at every reader (issue 39, item 2), with real git: Ana's clone makes a run and commits it
 * (she is its driver); Ben's clone edits a file only the driver writes and pushes; Ana `git pull`s — no `--sync` driver is
 * mid-pull to see it. Then compare refuses the run, evaluate skips it, resume and refine (the CLI's `run --resume` and
 * the core's runSession the extension calls too) refuse it before anything is sent, the read-only questions refuse it, and
 * the panel's loader lists it as a run that cannot be used, its Next strip naming the file; each says the file, the commit and its author. Files of the
 * run folder that are its members' (a vote) do not touch the record's standing.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { git, makeGitTeam, pullAndPush } from '../../support/gitTeam';
import { useCliAgainstMock } from '../cli/buildCli';
import { makeReview, makeTempDir } from '../run/fixtures';
import { clientFor } from '../run/helpers';
import { refineRun, resumeRun, startRun, RunRefusedError } from '../../../src/core/run/session';
import { compareRun, evaluateFolder } from '../../../src/core/evaluation';
import { driversRecordRefusal } from '../../../src/core/record/recordAuthor';
import { panelRuns } from '../../../src/extension/panel/state/runsState';
import { buildPanelState } from '../../../src/extension/panel/panelState';
import { nextSteps, type NextNames } from '../../../src/protocol/nextSteps';
import { runSummary } from '../../../src/core/questions/runSummary';
import { nextSteps as askedNextSteps } from '../../../src/core/questions/nextSteps';

const MAPPING = 'team:\n  d1: { git: ana@example.com }\n  d2: { git: ben@example.com }\n  d3: { git: chen@example.com }\n';
const names: NextNames = { person: (id) => id, image: (id) => id };

describe("authorship: a run's record is its driver's at every reader, also after git pull (real git)", function () {
  this.timeout(600_000);
  const rig = useCliAgainstMock({ drop: /^GIT_/ });

  async function drivenByAna() {
    const seed = await makeReview({ options: 3, designers: 3 });
    await fs.writeFile(path.join(seed, 'review.yaml'), MAPPING);
    const cacheDir = await makeTempDir('tf-cache-');
    const run = await startRun({ reviewRoot: seed, client: clientFor(rig.mock), cacheDir, settings: { iterations: 2, turnsPerAgent: 1 } });
    assert.equal(run.status, 'completed', run.error);
    const t = await makeGitTeam(await makeTempDir('tf-drivers-record-'), seed, ['ana', 'ben'] as const);
    return { t, runId: run.id, cacheDir };
  }

  /** Ben changes `fileInRun` of Ana's run on his clone (still what it was, read as the same record), commits and pushes; Ana pulls. */
  async function benChanges(t: Awaited<ReturnType<typeof drivenByAna>>['t'], runId: string, fileInRun: string): Promise<string> {
    const file = path.join(t.review('ben'), 'runs', runId, ...fileInRun.split('/'));
    git(t.clone.ben, 'pull', '--quiet', '--rebase');
    await fs.writeFile(file, `${(await fs.readFile(file, 'utf8')).trimEnd()}\n\n`);
    git(t.clone.ben, 'commit', '--quiet', '-am', `Ana's ${fileInRun}, by Ben`);
    const forged = git(t.clone.ben, 'rev-parse', 'HEAD').trim();
    pullAndPush(t.clone.ben);
    git(t.clone.ana, 'pull', '--quiet', '--rebase');
    return forged;
  }

  it('run.json Ben committed: compare, evaluate, resume, refine and the panel all refuse it, naming the file, commit and author', async () => {
    const { t, runId, cacheDir } = await drivenByAna();
    const ana = t.review('ana');
    // Ana's own record, and a vote of Ben's own in the run folder: believed everywhere.
    const vote = path.join(t.review('ben'), 'runs', runId, 'votes', 'd2.yaml');
    await fs.mkdir(path.dirname(vote), { recursive: true });
    await fs.writeFile(vote, 'designer: d2\nvotes: []\n');
    git(t.clone.ben, 'add', '-A');
    git(t.clone.ben, 'commit', '--quiet', '-m', "Ben's votes");
    pullAndPush(t.clone.ben);
    git(t.clone.ana, 'pull', '--quiet', '--rebase');
    assert.equal(await driversRecordRefusal(ana, runId), undefined, "a member's own file in the run folder is not the record");
    const fair = await panelRuns(ana, () => undefined);
    assert.deepEqual([fair.runs.map((r) => r.id), fair.brokenRuns], [[runId], []]);
    await compareRun(ana, runId);

    const forged = await benChanges(t, runId, 'run.json');
    const file = `runs/${runId}/run.json`;
    const said = `${file} is not counted: commit ${forged.slice(0, 12)} by Ben <ben@example.com> wrote it, and the run's driver is ana@example.com (the author of the first commit of its run.json); a run's record is its driver's alone; git log -p -- ${file} shows what that commit changed.`;

    await assert.rejects(compareRun(ana, runId), (e: Error) => e.message === said);
    const e = await evaluateFolder(ana);
    assert.equal(e.reviews[0]?.runs.length ?? 0, 0, 'not summed');
    assert.ok(
      e.skipped.some((s) => s.reason.includes(said)),
      JSON.stringify(e.skipped),
    );

    // Resume and refine, in the core (the extension's Resume and Refine call runSession too) and in the CLI: refused
    // before any model is asked.
    const asked = rig.mock.requests.length;
    const engine = { reviewRoot: ana, client: clientFor(rig.mock), cacheDir };
    await assert.rejects(
      resumeRun({ ...engine, runId }),
      (err: Error) => err instanceof RunRefusedError && err.message === `Run ${runId} is not resumed or refined: ${said}`,
    );
    await assert.rejects(
      refineRun({ ...engine, runId, feedback: 'Warmer.' }),
      (err: Error) => err instanceof RunRefusedError && err.message === `Run ${runId} is not resumed or refined: ${said}`,
    );
    const resumed = await rig.run(['run', ana, '--resume', runId]);
    assert.equal(resumed.code, 1, resumed.stderr);
    assert.ok(resumed.stderr.includes(`Run ${runId} is not resumed or refined: ${said}`), resumed.stderr);
    const refined = await rig.run(['run', ana, '--resume', runId, '--feedback', 'Warmer.']);
    assert.equal(refined.code, 1, refined.stderr);
    assert.ok(refined.stderr.includes(`Run ${runId} is not resumed or refined: ${said}`), refined.stderr);
    assert.equal(rig.mock.requests.length, asked, 'nothing was sent');

    // The panel: the run is not believed; it is listed as a run that cannot be used, and the Next strip says it with the file.
    const shown = await panelRuns(ana, () => undefined);
    assert.deepEqual(shown.runs, []);
    assert.deepEqual(shown.brokenRuns, [{ id: runId, problem: `${file}:0:0: error: ${said}` }]);
    const state = buildPanelState({
      root: ana,
      load: { diagnostics: [] },
      analysis: { error: '' },
      ...shown,
      trusted: true,
      running: false,
      toWebviewUri: (p) => p,
    });
    const strip = nextSteps(state, 'd1', names);
    assert.equal(strip.error, `${file}:0:0: error: ${said}`);
    assert.deepEqual(strip.primary, { kind: 'openFile', path: file, label: `Open ${file}` });

    // The read-only questions (teamfusion mcp, VS Code's tools and chat) refuse it too.
    await assert.rejects(runSummary(ana, runId), (err: Error) => err.message === said);
    await assert.rejects(askedNextSteps(ana, runId), (err: Error) => err.message === said);

    // Ana reverting Ben's commit does not make the record count: his commit is still in its history.
    git(t.clone.ana, 'revert', '--no-edit', forged);
    assert.equal((await driversRecordRefusal(ana, runId))?.commit, forged);
  });

  it("another file only the driver writes (the transcript) is the record too; Ana's own uncommitted change is hers", async () => {
    const { t, runId } = await drivenByAna();
    const ana = t.review('ana');
    // On the driver's machine her own changes not committed yet count; on Ben's they do not.
    const transcript = (who: 'ana' | 'ben'): string => path.join(t.review(who), 'runs', runId, 'transcript.md');
    await fs.appendFile(transcript('ana'), '\n');
    assert.equal(await driversRecordRefusal(ana, runId), undefined);
    git(t.clone.ana, 'checkout', '--quiet', '--', '.');
    await fs.appendFile(transcript('ben'), '\n');
    const uncommitted = await driversRecordRefusal(t.review('ben'), runId);
    assert.deepEqual(
      [uncommitted?.file, uncommitted?.commit, uncommitted?.author],
      [`runs/${runId}/transcript.md`, '(uncommitted)', 'ben@example.com'],
    );
    git(t.clone.ben, 'checkout', '--quiet', '--', '.');

    const forged = await benChanges(t, runId, 'transcript.md');
    const refused = await driversRecordRefusal(ana, runId);
    assert.deepEqual([refused?.file, refused?.commit, refused?.author], [`runs/${runId}/transcript.md`, forged, 'ben@example.com']);
    const resumed = await rig.run(['run', ana, '--resume', runId]);
    assert.equal(resumed.code, 1, resumed.stderr);
    assert.match(
      resumed.stderr,
      new RegExp(`runs/${runId}/transcript\\.md is not counted: commit ${forged.slice(0, 12)} by Ben <ben@example\\.com> wrote it`),
    );
    const shown = await panelRuns(ana, () => undefined);
    assert.match(shown.brokenRuns[0]?.problem ?? '', new RegExp(`^runs/${runId}/transcript\\.md:0:0: error: `));
  });
});
