/**
 * What a coverage file holds that is not used is said, never silently dropped (issue 39, item 7): an unknown field of a
 * coverage file is ignored and compare says so at its line (in its problems, --json and on stderr) while the rest of the
 * file counts; a coverage folder on a design run (coverage belongs to brief runs) is ignored and said in one sentence.
 * A warning does not change compare's exit.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { briefFallback } from '../../support/openaiMock';
import { compareRun } from '../../../src/core/evaluation/compare/compare';
import { completedBriefRun, mockSuite, startCli } from '../run/helpers';
import { makeReviewWithRun, RUN_ID } from '../evaluation/fixtures';

describe('coverage files: what is ignored is said', function () {
  this.timeout(90_000);
  const suite = mockSuite({ fallback: () => briefFallback() });

  it('an unknown field of a coverage file is ignored and named at its line by compare; the confirmations still count', async () => {
    const { root, id, runDir } = await completedBriefRun(suite.env, 2);
    await fs.mkdir(path.join(runDir, 'coverage'));
    await fs.writeFile(
      path.join(runDir, 'coverage', 'm1.yaml'),
      "designer: m1\nmood: happy\npoints:\n  - point: m1's point on the goal\n    agree: true\n    weight: 3\n",
    );
    const r = await startCli(['compare', root, id, '--json'], suite.env).done;
    const out = JSON.parse(r.stdout) as { problems: string[]; coverageCheck: { confirmations: { n: number } } };
    assert.equal(out.coverageCheck.confirmations.n, 1, 'the valid rest of the file counts');
    const rel = `runs/${id}/coverage/m1.yaml`;
    assert.ok(
      out.problems.includes(`${rel}:2:1: warning: Unknown field "mood" is ignored; the fields are designer, points.`),
      out.problems.join('\n'),
    );
    assert.ok(
      out.problems.includes(`${rel}:6:5: warning: Unknown field "weight" is ignored; the fields are point, agree, status, comment.`),
      out.problems.join('\n'),
    );
    assert.match(r.stderr, new RegExp(`${rel.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:2:1: warning: Unknown field "mood" is ignored`));
  });

  it('a coverage folder on a design run is ignored, and compare says so in one sentence naming it', async () => {
    const root = await makeReviewWithRun();
    const dir = path.join(root, 'runs', RUN_ID, 'coverage');
    await fs.mkdir(dir);
    await fs.writeFile(path.join(dir, 'd1.yaml'), 'designer: d1\npoints:\n  - point: anything\n    agree: false\n');
    const c = await compareRun(root, RUN_ID, { permutations: 20 });
    assert.ok(
      c.problems.includes(
        `runs/${RUN_ID}/coverage:0:0: warning: This is a design run: coverage confirmations belong to brief runs, so the 1 file in runs/${RUN_ID}/coverage/ is ignored.`,
      ),
      c.problems.join('\n'),
    );
    await fs.rm(dir, { recursive: true });
    assert.deepEqual(
      (await compareRun(root, RUN_ID, { permutations: 20 })).problems.filter((p) => p.includes('/coverage')),
      [],
    );
  });
});
