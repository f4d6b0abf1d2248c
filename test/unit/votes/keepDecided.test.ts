/**
 * The next remix agent keeps the decided side (issue 38, item 1): directions that take a side the team did not choose are
 * sent back once, naming the decision; an answer that still does is kept and said (bounded: one send-back). A decided point
 * is not forked again in a later round while the decision stands. Real engine against the spec-checking scripted server.
 */
import { strict as assert } from 'node:assert';
import { refineRun } from '../../../src/core/run/session';
import { castVote } from '../../../src/core/evaluation/votes/cast';
import { againstDecidedSide } from '../../../src/core/remix/decidedSides';
import { forkablePoints } from '../../../src/core/fork/points';
import { defaultReply, requestedJsonSchema } from '../../support/openaiMock/autoResponder';
import type { MockFallback } from '../../support/openaiMock/types';
import type { Iteration } from '../../../src/core/record/record';
import type { RunEvent } from '../../../src/core/step/events';
import { mockSuite, runJson } from '../run/helpers';
import { QUESTION, forkedRun } from './forkedRun';

const SENT_BACK = 'not the side decided';

/** The scripted answers, except that every remix proposal's colour takes `colour`. */
function colourAlways(colour: string): MockFallback {
  return (req) => {
    const reply = defaultReply(req);
    if (requestedJsonSchema(req.body)?.name !== 'teamfusion_remix' || reply.kind !== 'json') return reply;
    // The answer's several proposals are its `remixes`.
    const value = reply.value as { remixes?: { editingDirections: Record<string, string> }[] };
    for (const p of value.remixes ?? []) p.editingDirections.colour = `${p.editingDirections.colour} ${colour}`;
    return reply;
  };
}

const decidedRound = (reopened = false): Iteration => ({
  index: 1,
  candidates: ['1', '2'],
  messages: [],
  decisionPoints: [
    {
      question: QUESTION,
      positions: [
        { position: 'warm palette', heldBy: ['d1'] },
        { position: 'cool palette', heldBy: ['d2'] },
      ],
    },
  ],
  decisions: [
    {
      question: QUESTION,
      decision: 'warm palette',
      by: 'team',
      via: 'human',
      counts: { 'warm palette': 2, 'cool palette': 1 },
      ...(reopened ? { reopened: { by: 'd1', at: '2026-01-01T00:00:00Z' } } : {}),
    },
  ],
});

describe('votes: the next remix agent keeps the decided side', function () {
  this.timeout(180_000);
  const suite = mockSuite();

  it('which directions go against a decision: a non-chosen side without the chosen one, while it stands', () => {
    const rounds = [decidedRound()];
    assert.match(
      againstDecidedSide(['Colour: a cool palette throughout.'], rounds, 2) ?? '',
      /^the editing directions take "cool palette", but that is not the side decided: Decided by the team: Warm or cool palette\? → warm palette, 2 to 1\. Keep the decided side \("warm palette"\) in every direction\.$/,
    );
    assert.equal(againstDecidedSide(['A warm palette, never the cool palette.'], rounds, 2), undefined, 'the chosen side said');
    assert.equal(againstDecidedSide(['Coolness in the palette.', undefined], rounds, 2), undefined, 'words, not parts of words');
    assert.equal(againstDecidedSide(['A cool palette.'], [decidedRound(true)], 2), undefined, 'a reopened decision binds nothing');
    assert.equal(againstDecidedSide(['A cool palette.'], rounds, 1), undefined, 'only decisions of earlier rounds');
    // A decided point is not forked again while the decision stands.
    const later = { ...decidedRound(), index: 3, decisions: [] };
    assert.deepEqual(forkablePoints(later, ['d1', 'd2'], [QUESTION]), []);
    assert.deepEqual(forkablePoints(later, ['d1', 'd2']), [1]);
  });

  it("the refinement's remix agent is sent back once for directions that take the side not chosen, then its answer is kept and said", async () => {
    const { root, runId } = await forkedRun(suite.mock, suite.cacheDir);
    for (const [as, choice] of [
      ['d1', 'a'],
      ['d2', 'a'],
      ['d3', 'b'],
    ] as const)
      await castVote({ reviewRoot: root, runId, as, decisionPoint: 1, choice });
    suite.mock.setFallback(colourAlways('A cool palette throughout.'));
    const seen = suite.mock.requests.length;
    const events: RunEvent[] = [];
    const refined = await refineRun({ reviewRoot: root, ...suite.engine, runId, feedback: 'Go on.', onEvent: (e) => events.push(e) });
    assert.equal(refined.status, 'completed', refined.error);
    const sentBack = suite.mock.requests.slice(seen).filter((r) => r.route === 'chat' && JSON.stringify(r.body).includes(SENT_BACK));
    assert.equal(sentBack.length, 1, 'sent back once, not more');
    assert.ok(
      events.some(
        (e) =>
          e.type === 'notice' &&
          e.level === 'warning' &&
          e.message.startsWith(
            'The remix agent was asked once to keep the decided side and still answered: the editing directions take "cool palette"',
          ),
      ),
    );
    const rec = await runJson(root, runId);
    assert.equal(rec.prompts.filter((p) => p.iteration === 3 && p.kind === 'remix-repair').length, 1);
  });
});
