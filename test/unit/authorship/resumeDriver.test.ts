/**
 * Only a run's driver continues it (issue 39): a member who is not the driver cannot resume or refine the run while its
 * record is still clean — the core's runSession (VS Code's Resume and Refine) and the CLI's `run --resume` refuse it in one
 * sentence naming the driver, before anything is sent or written, so the run is never made refused by their writes. Real
 * git: Ana's clone makes and commits the run (she is its driver), Ben pulls it.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { git, makeGitTeam } from '../../support/gitTeam';
import { useCliAgainstMock } from '../cli/buildCli';
import { makeReview, makeTempDir } from '../run/fixtures';
import { clientFor } from '../run/helpers';
import { refineRun, resumeRun, startRun, RunRefusedError } from '../../../src/core/run/session';
import { driversRecordRefusal } from '../../../src/core/record/recordAuthor';

const MAPPING = 'team:\n  d1: { git: ana@example.com }\n  d2: { git: ben@example.com }\n  d3: { git: chen@example.com }\n';

describe("authorship: only the run's driver resumes or refines it (real git)", function () {
  this.timeout(600_000);
  const rig = useCliAgainstMock({ drop: /^GIT_/ });

  it("Ben cannot resume or refine Ana's run: refused naming Ana, nothing sent or written; Ana still can", async () => {
    const seed = await makeReview({ options: 3, designers: 3 });
    await fs.writeFile(path.join(seed, 'review.yaml'), MAPPING);
    const cacheDir = await makeTempDir('tf-cache-');
    const run = await startRun({ reviewRoot: seed, client: clientFor(rig.mock), cacheDir, settings: { iterations: 1, turnsPerAgent: 1 } });
    assert.equal(run.status, 'completed', run.error);
    const t = await makeGitTeam(await makeTempDir('tf-resume-driver-'), seed, ['ana', 'ben'] as const);
    const ben = t.review('ben');
    const said = `Run ${run.id} is driven by d1 (ana@example.com), the author of the first commit of its run.json, and only its driver resumes or refines it; this machine's git e-mail is ben@example.com, so nothing was sent or written.`;

    const asked = rig.mock.requests.length;
    const engine = { reviewRoot: ben, client: clientFor(rig.mock), cacheDir };
    await assert.rejects(resumeRun({ ...engine, runId: run.id }), (e: Error) => e instanceof RunRefusedError && e.message === said);
    await assert.rejects(
      refineRun({ ...engine, runId: run.id, feedback: 'Warmer.' }),
      (e: Error) => e instanceof RunRefusedError && e.message === said,
    );
    const refined = await rig.run(['run', ben, '--resume', run.id, '--feedback', 'Warmer.']);
    assert.equal(refined.code, 1, refined.stderr);
    assert.ok(refined.stderr.includes(said), refined.stderr);
    assert.equal(rig.mock.requests.length, asked, 'nothing was sent');
    assert.equal(git(t.clone.ben, 'status', '--porcelain', '--untracked-files=all'), '', "nothing was written in Ben's clone");
    assert.equal(await driversRecordRefusal(ben, run.id), undefined, 'the record is still clean');

    // Ana, its driver, refines it on her clone: one more round is sent and written.
    const again = await refineRun({
      reviewRoot: t.review('ana'),
      client: clientFor(rig.mock),
      cacheDir,
      runId: run.id,
      feedback: 'Warmer.',
    });
    assert.equal(again.status, 'completed', again.error);
    assert.ok(rig.mock.requests.length > asked, "the driver's refine was sent");
    assert.equal(await driversRecordRefusal(t.review('ana'), run.id), undefined);
  });
});
