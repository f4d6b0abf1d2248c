/**
 * A fork whose sides are candidates, end to end (issue 38, items 1 and 2), against the spec-checking scripted server: the
 * remix agent reports "Which candidate should lead: Image 6, Image 5, Image 3 or Image 1?" with one designer on each side.
 * Each side's edit leads with its own candidate (first input image), every "Image k" of every edit prompt names an image
 * that request carries — the side line included. The team then votes "Image 5 leads":
 * the refinement's remix round carries that remix and sets aside the three others (run.json `setAside`), its edits are
 * numbered the same way, and the final pick is never a side set aside.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { DecisionPoint } from '../../../src/core/record/record';
import { startRun, refineRun } from '../../../src/core/run/session';
import { castVote } from '../../../src/core/evaluation/votes/cast';
import type { RecordedRequest } from '../../support/openaiMock/types';
import { makeReview } from '../run/fixtures';
import { mockSuite, runJson } from '../run/helpers';
import { withDecisionPoints, editRequests } from './forkSupport';

const QUESTION = 'Which candidate should lead: Image 6, Image 5, Image 3 or Image 1?';
const LEAD: DecisionPoint = {
  question: QUESTION,
  positions: [
    { position: 'Image 6 leads', heldBy: ['d1'] },
    { position: 'Image 5 leads', heldBy: ['d2'] },
    { position: 'Image 3 leads', heldBy: ['d3'] },
    { position: 'Image 1 leads', heldBy: ['d4'] },
  ],
};

/** The prompt of an edit request and the names of the images it carries, in order. */
function edit(r: RecordedRequest): { prompt: string; images: string[] } {
  return { prompt: String((r.body as { prompt?: unknown }).prompt), images: r.files.map((f) => f.filename) };
}

function numbersWithin(e: { prompt: string; images: string[] }): void {
  for (const m of e.prompt.matchAll(/\bImage (\d+)/g)) {
    assert.ok(
      Number(m[1]) >= 1 && Number(m[1]) <= e.images.length,
      `"${m[0]}" names no image of this edit (${e.images.join(', ')}): ${e.prompt}`,
    );
  }
}

describe("forks: sides that are candidates lead their own edit; the team's vote binds the refinement", function () {
  this.timeout(240_000);
  const suite = mockSuite();

  it('each side leads with its candidate, its numbers are its own, and after the vote the refinement keeps only the chosen side', async () => {
    const root = await makeReview({ options: 6, designers: 4 });
    await fs.writeFile(path.join(root, 'review.yaml'), 'lead: d1\n');
    suite.mock.setFallback(withDecisionPoints([LEAD]));
    const run = await startRun({ reviewRoot: root, ...suite.engine, settings: { iterations: 2, turnsPerAgent: 1 } });
    assert.equal(run.status, 'completed', run.error);
    const rec = await runJson(root, run.id);
    const one = rec.iterations[0]!;
    assert.deepEqual(
      one.remixes!.map((m) => m.fork?.position),
      LEAD.positions.map((p) => p.position),
    );

    const edits = editRequests(suite.mock).map(edit);
    assert.equal(edits.length, 4, 'one edit per side');
    const leads = ['6.png', '5.png', '3.png', '1.png'];
    for (const e of edits) {
      numbersWithin(e);
      assert.ok(
        e.prompt.includes('This remix takes one side only: Image 1 leads.'),
        `the side line names its own first input: ${e.prompt}`,
      );
    }
    assert.deepEqual(edits.map((e) => e.images[0]).sort(), [...leads].sort(), 'each side leads with its own candidate');
    assert.deepEqual(
      one.remixes!.map((m) => m.from?.[0]),
      ['6', '5', '3', '1'],
      'recorded as made: each remix from its side first',
    );

    // The team votes "Image 5 leads" (r1b), 3 to 1.
    for (const [as, choice] of [
      ['d1', 'b'],
      ['d2', 'b'],
      ['d3', 'b'],
      ['d4', 'd'],
    ] as const)
      await castVote({ reviewRoot: root, runId: run.id, as, decisionPoint: 1, choice });
    suite.mock.setFallback(withDecisionPoints([]));
    const seen = suite.mock.requests.length;
    const refined = await refineRun({ reviewRoot: root, ...suite.engine, runId: run.id, feedback: 'Go on.' });
    assert.equal(refined.status, 'completed', refined.error);
    const after = await runJson(root, run.id);
    const three = after.iterations[2]!;
    assert.deepEqual(
      three.setAside,
      ['r1a', 'r1c', 'r1d'].map((id) => ({ id, question: QUESTION, decidedIn: 1 })),
    );
    assert.ok(three.candidates.includes('r1b'), `the chosen side is carried: ${three.candidates.join(', ')}`);
    for (const it of after.iterations.slice(2))
      for (const id of ['r1a', 'r1c', 'r1d']) assert.ok(!it.candidates.includes(id), `round ${it.index} leaves ${id} out`);
    assert.ok(after.finalPick && !['r1a', 'r1c', 'r1d'].includes(after.finalPick), `final pick ${after.finalPick}`);

    const refinedEdits = suite.mock.requests
      .slice(seen)
      .filter((r) => r.route === 'edit')
      .map(edit);
    assert.ok(refinedEdits.length >= 1);
    for (const e of refinedEdits) {
      numbersWithin(e);
      assert.ok(
        /Decided by the team: Which candidate should lead: .*→ .* leads, 3 to 1 to 0 to 0\./.test(e.prompt),
        `the decision is carried, renumbered: ${e.prompt}`,
      );
    }
  });
});
