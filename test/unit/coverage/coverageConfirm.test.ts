import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { briefFallback } from '../../support/openaiMock';
import { checkCoverageText } from '../../../src/core/evaluation/checks/coverageConfirmations';
import { cohensKappa } from '../../../src/core/stats/agreement/kappa';
import type { Coverage } from '../../../src/core/record/record';
import { completedBriefRun, mockSuite, startCli } from '../run/helpers';
import { runFeedback, saveCoverageFromPanel } from '../../../src/extension/panel/state/evaluation';
import { readRunRecord } from '../../../src/core/record/store';
import { PANEL_REQUESTS } from '../../../src/protocol/panel';

const COVERAGE: Coverage[] = [
  { designer: 'm1', point: "m1's point on the goal", status: 'kept', quote: 'Goal', verified: true },
  { designer: 'm1', point: "m1's point on tone", status: 'changed', quote: 'Tone: calm', verified: true },
  { designer: 'm2', point: "m2's point on the goal", status: 'kept', quote: 'Goal', verified: true },
];

describe("members confirm the coverage of their own points: coverage/<designer-id>.yaml, agreement and Cohen's κ", function () {
  this.timeout(90_000);
  const suite = mockSuite({ fallback: () => briefFallback() });

  it("Cohen's κ: perfect, chance-level and undefined (no items, or one category for both) are told apart", () => {
    assert.equal(
      cohensKappa([
        ['a', 'a'],
        ['b', 'b'],
      ]),
      1,
    );
    assert.equal(
      cohensKappa([
        ['a', 'a'],
        ['a', 'b'],
        ['b', 'a'],
        ['b', 'b'],
      ]),
      0,
    );
    assert.equal(cohensKappa([]), null);
    assert.equal(
      cohensKappa([
        ['a', 'a'],
        ['a', 'a'],
      ]),
      null,
    );
  });

  it("a valid file is read; someone else's point, a point that does not exist, a bad status and a contradiction are refused at their line", () => {
    const ok = checkCoverageText(
      "designer: m1\npoints:\n  - point: m1's point on the goal\n    agree: true\n  - point: m1's point on tone\n    agree: false\n    status: left-out\n    comment: It is gone.\n",
      'runs/r/coverage/m1.yaml',
      COVERAGE,
    );
    assert.deepEqual(ok.diagnostics, []);
    assert.deepEqual(ok.confirmations?.points, [
      { point: "m1's point on the goal", agree: true },
      { point: "m1's point on tone", agree: false, status: 'left-out', comment: 'It is gone.' },
    ]);
    const bad = checkCoverageText(
      "designer: m1\npoints:\n  - point: m2's point on the goal\n    agree: true\n  - point: a point nobody made\n    agree: true\n  - point: m1's point on tone\n    agree: true\n    status: kept\n  - point: m1's point on the goal\n    agree: maybe\n",
      'runs/r/coverage/m1.yaml',
      COVERAGE,
    );
    assert.equal(bad.confirmations, undefined);
    const lines = bad.diagnostics.map((d) => `${d.line}:${d.column}: ${d.message}`);
    assert.deepEqual(lines, [
      "3:12: That point is m2's, not m1's; each member confirms only their own points.",
      '5:12: There is no point "a point nobody made" of m1 in this run\'s coverage.',
      "9:13: agree: true with status kept contradicts the agent's changed; write agree: false to correct it.",
      '11:12: agree must be true or false (found "maybe").',
    ]);
    const other = checkCoverageText(
      "designer: m2\npoints:\n  - point: m2's point on the goal\n    agree: true\n",
      'runs/r/coverage/m1.yaml',
      COVERAGE,
    );
    assert.match(other.diagnostics[0]!.message, /designer must be m1 \(the file's name\), found "m2"/);
  });

  it('compare --json gives coverageCheck: quotes verified, and agreement and κ with n as computed from the files by hand', async () => {
    const { root, id, runDir } = await completedBriefRun(suite.env, 4);
    const dir = path.join(runDir, 'coverage');
    await fs.mkdir(dir);
    await fs.writeFile(
      path.join(dir, 'm1.yaml'),
      "designer: m1\npoints:\n  - point: m1's point on the goal\n    agree: true\n  - point: m1's point on tone\n    agree: false\n    status: left-out\n",
    );
    await fs.writeFile(
      path.join(dir, 'm2.yaml'),
      "designer: m2\npoints:\n  - point: m2's point on the goal\n    agree: true\n  - point: m2's point on tone\n    agree: true\n",
    );
    // m3 speaks for m1: refused at its line, not counted.
    await fs.writeFile(
      path.join(dir, 'm3.yaml'),
      "designer: m3\npoints:\n  - point: m1's point on the goal\n    agree: false\n    status: left-out\n",
    );
    const r = await startCli(['compare', root, id, '--json'], suite.env).done;
    const out = JSON.parse(r.stdout) as { coverageCheck: unknown };
    // 4 members × (kept + changed), every quote in the brief. Confirmed pairs (agent, member): (kept, kept), (changed,
    // left-out), (kept, kept), (changed, changed): pₒ = 3/4; pₑ = ½·½ (kept) + ½·¼ (changed) = 3/8; κ = (3/4 − 3/8)/(5/8) = 0.6.
    assert.deepEqual(out.coverageCheck, {
      quotes: 8,
      verified: 8,
      unverified: 0,
      unreported: [],
      confirmations: { n: 4, agreement: 0.75, kappa: 0.6 },
    });
    assert.match(r.stderr, /runs\/[^/]+\/coverage\/m3\.yaml:3:12: error: That point is m1's, not m3's/);
    const text = await startCli(['compare', root, id], suite.env).done;
    assert.match(text.stdout, /Coverage quotes found in the revised brief: 8 of 8\./);
    assert.match(text.stdout, /Members agreed with the agent's status on 75% of 4 confirmed points; Cohen's κ = 0\.60\./);
  });

  it("the panel saves a member's check through the same validation, refuses someone else's point, and gives it back in the state", async () => {
    const { root, id } = await completedBriefRun(suite.env, 2);
    const request = {
      type: 'saveCoverage' as const,
      requestId: 7,
      runId: id,
      designer: 'm1',
      points: [
        { point: "m1's point on the goal", agree: true },
        { point: "m1's point on tone", agree: false, status: 'left-out' as const, comment: 'It is gone.' },
      ],
    };
    assert.ok(PANEL_REQUESTS.saveCoverage.params.safeParse(request).success, 'the request is declared in the protocol');
    const ok = await saveCoverageFromPanel(root, request);
    assert.deepEqual(ok, { type: 'saveFeedbackResult', requestId: 7, ok: true, file: `runs/${id}/coverage/m1.yaml` });
    assert.ok(PANEL_REQUESTS.saveCoverage.reply.safeParse(ok).success);
    const theirs = await saveCoverageFromPanel(root, { ...request, requestId: 8, designer: 'm2' });
    assert.equal(theirs.ok, false);
    assert.match(theirs.message ?? '', /That point is m1's, not m2's/);
    const state = await runFeedback(root, await readRunRecord(root, id), () => undefined);
    assert.deepEqual(state?.coverage, { m1: request.points });
    assert.deepEqual(state?.problems, []);
    const compared = JSON.parse((await startCli(['compare', root, id, '--json'], suite.env).done).stdout) as {
      coverageCheck: { confirmations: { n: number } };
    };
    assert.equal(compared.coverageCheck.confirmations.n, 2, 'compare counts what the panel saved');
  });
});
