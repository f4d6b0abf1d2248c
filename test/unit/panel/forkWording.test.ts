/**
 * What the panel says of forks beside the Forks section (issue 33): nobody votes, and nobody's view of the blind vote is
 * shown, until the person at the panel has said who they are; the decision points of a round that forked name no holders
 * until the fork is decided; a settled point reads as later prompts read it, the team's vote with its margin.
 */
import * as assert from 'node:assert/strict';
import { decisionLine, holdersShown, setAsideLines } from '../../../webview/panel/views/run/decisions';
import { decidedText, sideFate, voterOf } from '../../../webview/panel/views/run/forks';

const QUESTION = 'Warm or cold palette?';
const names: Record<string, string> = { ana: 'Ana Ruiz', ben: 'Ben Okafor' };
const nameOf = (id: string): string => names[id] ?? id;
const forkRemix = (position: string, letter: string) => ({
  id: `r1${letter}`,
  file: `iteration-1/remix-${letter}.png`,
  letter,
  from: ['1'],
  fork: { question: QUESTION, position, decisionPoint: 1 },
});

describe('panel: forks in words', () => {
  it('the voter is the member chosen at the panel, if on the team; nobody until then (not the first member)', () => {
    const forks = { team: ['ana', 'ben'] };
    assert.equal(voterOf(forks, undefined), undefined);
    assert.equal(voterOf(forks, 'ben'), 'ben');
    assert.equal(voterOf(forks, 'zoe'), undefined, "a remembered choice of someone not on this run's team");
  });

  it('holders of a forked point stay unnamed until the fork is decided; an unforked point names them', () => {
    const round = { remixes: [forkRemix('warm palette', 'a'), forkRemix('cold palette', 'b')] };
    assert.equal(holdersShown(round, { question: QUESTION }), false);
    assert.equal(holdersShown(round, { question: 'Serif or sans?' }), true, 'a point the round did not fork');
    assert.equal(holdersShown({}, { question: QUESTION }), true, 'a round without forks');
    const decided = {
      ...round,
      decisions: [
        {
          question: QUESTION,
          decision: 'cold palette',
          by: 'team',
          via: 'human' as const,
          counts: { 'warm palette': 1, 'cold palette': 3 },
        },
      ],
    };
    assert.equal(holdersShown(decided, { question: QUESTION }), true);
    const reopened = { ...round, decisions: [{ ...decided.decisions[0]!, reopened: { by: 'ana', at: '2026-01-01T00:00:00Z' } }] };
    assert.equal(holdersShown(reopened, { question: QUESTION }), false, 'reopened: the vote is open again');
  });

  it('a reopened decision says so; a round says what it set aside (issue 38)', () => {
    assert.equal(
      decisionLine(
        {
          question: QUESTION,
          decision: 'cold palette',
          by: 'team',
          via: 'human',
          counts: { 'warm palette': 1, 'cold palette': 3 },
          reopened: { by: 'ana', at: '2026-01-01T00:00:00Z' },
        },
        nameOf,
      ),
      'Decided by the team: Warm or cold palette? → cold palette, 3 to 1. Reopened by Ana Ruiz; kept as history.',
    );
    assert.deepEqual(
      setAsideLines({
        setAside: [
          { id: 'r1a', question: QUESTION, decidedIn: 1 },
          { id: 'r1c', question: QUESTION, decidedIn: 1 },
        ],
      }),
      ['Set aside: r1a, r1c (not the side chosen on "Warm or cold palette?" in round 1).'],
    );
    assert.deepEqual(setAsideLines({}), []);
  });

  it('a decision reads as later prompts read it: the team with its margin, the lead and their proxy by name', () => {
    assert.equal(
      decisionLine(
        {
          question: QUESTION,
          decision: 'cold palette',
          by: 'team',
          via: 'human',
          voters: ['ana', 'ben'],
          counts: { 'warm palette': 1, 'cold palette': 3 },
        },
        nameOf,
      ),
      'Decided by the team: Warm or cold palette? → cold palette, 3 to 1.',
    );
    assert.equal(
      decisionLine(
        { question: 'Serif or sans?', decision: 'serif', by: 'ana', via: 'proxy', reason: 'the brief asks for elegance' },
        nameOf,
      ),
      "Decided by the lead: Serif or sans? → serif. (Ana Ruiz's proxy: the brief asks for elegance)",
    );
    assert.equal(
      decisionLine(
        { question: QUESTION, decision: 'warm palette', by: 'ana', via: 'human', counts: { 'warm palette': 1, 'cold palette': 3 } },
        nameOf,
      ),
      'Decided by the lead in person: Warm or cold palette? → warm palette. (Ana Ruiz)',
    );
  });

  it("the Forks section says how a fork was decided: the team's vote with its count, a lead in person or their proxy by name", () => {
    const counts = { 'warm palette': 1, 'cold palette': 3 };
    assert.equal(
      decidedText({ decision: 'cold palette', by: 'team', counts }, nameOf),
      "Decided: cold palette (by the team's vote, 3 to 1).",
    );
    assert.equal(
      decidedText({ decision: 'warm palette', by: 'ana', via: 'human', counts }, nameOf),
      'Decided: warm palette (by Ana Ruiz in person).',
    );
    assert.equal(
      decidedText({ decision: 'warm palette', by: 'ana', via: 'proxy' }, nameOf),
      "Decided: warm palette (by Ana Ruiz's proxy).",
    );
  });

  it('a decided fork marks the side chosen and sets the others aside; an open one marks none', () => {
    const decision = { decision: 'cold palette', by: 'team', counts: { 'warm palette': 1, 'cold palette': 3 } };
    assert.equal(sideFate({ decision }, { position: 'cold palette' }), 'chosen');
    assert.equal(sideFate({ decision }, { position: 'warm palette' }), 'set-aside');
    assert.equal(sideFate({}, { position: 'warm palette' }), undefined);
  });
});
