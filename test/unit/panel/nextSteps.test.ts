/**
 * The panel's "Next" strip in words (issue 40): for the latest run, what happened, what is open and for whom, the decided
 * forks with how and what was set aside, and the one next action for the person at the panel — never a new run while
 * something of the latest run is open.
 */
import * as assert from 'node:assert/strict';
import { decidedForks, nextSteps, type NextNames, type NextStepsInput } from '../../../src/protocol/nextSteps';
import type { PanelFork, PanelForks } from '../../../src/protocol/votes';
import { candidateNamer } from '../../../src/protocol/candidateNames';

const NAMES: Record<string, string> = { ana: 'Ana Ruiz', ben: 'Ben Okafor', chen: 'Chen Wei' };
const names: NextNames = { person: (id) => NAMES[id] ?? id, image: candidateNamer({}) };
const RUN = '2026-12-06T10-00-00-000Z';
const QUESTION = 'Warm or cold palette?';

type Run = NonNullable<NextStepsInput['run']>;
function run(over: Partial<Run> = {}): Run {
  return {
    id: RUN,
    status: 'completed',
    startedAt: '2026-12-06T10:00:00.000Z',
    iterations: [{ index: 1, candidates: ['1', '2'], messages: [] }],
    finalPick: 'r1b',
    base: 'vscode-webview://x/runs/r',
    ...over,
  } as Run;
}
function state(over: Partial<NextStepsInput> = {}): NextStepsInput {
  const r = over.run ?? run();
  return {
    runs: [{ id: r.id, status: r.status, startedAt: r.startedAt, iterations: r.iterations.length }],
    run: r,
    running: false,
    ...over,
  };
}
function fork(over: Partial<PanelFork> = {}): PanelFork {
  return {
    iteration: 1,
    decisionPoint: 1,
    question: QUESTION,
    sides: [
      { id: 'r1a', letter: 'a', position: 'warm palette', holders: ['ana', 'ben'] },
      { id: 'r1b', letter: 'b', position: 'cold palette', holders: ['chen'] },
    ],
    votes: { ben: 'r1b' },
    counts: { 'warm palette': 0, 'cold palette': 1 },
    missing: ['ana', 'chen'],
    ...over,
  };
}
const forks = (...fs: PanelFork[]): PanelForks => ({ runId: RUN, team: ['ana', 'ben', 'chen'], forks: fs, problems: [] });

describe('panel: the Next strip', () => {
  it('an open vote: the strip names who has not voted; the primary is that vote for one of them, never a new run', () => {
    const s = state({ forks: forks(fork()) });
    const forAna = nextSteps(s, 'ana', names);
    assert.equal(forAna.happened, `Run ${RUN} is done: final pick remix r1b.`);
    assert.deepEqual(
      forAna.open.map((o) => [o.kind, o.text, o.who]),
      [['vote', `Vote: ${QUESTION} — waiting for Ana Ruiz, Chen Wei`, ['ana', 'chen']]],
    );
    assert.deepEqual(forAna.primary, { kind: 'vote', runId: RUN, iteration: 1, decisionPoint: 1, label: `Vote: ${QUESTION}` });
    assert.equal(forAna.runIsNext, false);

    const forBen = nextSteps(s, 'ben', names);
    assert.equal(forBen.primary, undefined, 'Ben has voted: nothing is his to do');
    assert.equal(forBen.waiting, 'Ana Ruiz, Chen Wei');
    assert.equal(forBen.runIsNext, false, 'still no new run while the vote is open');

    const nobody = nextSteps(s, undefined, names);
    assert.equal(nobody.primary?.kind, 'chooseMe', 'before the person says who they are');
  });

  it('a decided fork: the chosen side, how (the team with its count, or the lead in person), the sides set aside; nothing open', () => {
    const byTeam = fork({
      votes: { ana: 'r1b', ben: 'r1b', chen: 'r1a' },
      missing: [],
      decision: { decision: 'cold palette', by: 'team', via: 'human', counts: { 'warm palette': 1, 'cold palette': 2 } },
    });
    const s = nextSteps(state({ forks: forks(byTeam) }), 'ana', names);
    assert.deepEqual(s.decided, [
      {
        iteration: 1,
        decisionPoint: 1,
        question: QUESTION,
        chosen: 'cold palette',
        chosenId: 'r1b',
        how: "by the team's vote, 2 to 1",
        setAside: ['warm palette'],
      },
    ]);
    assert.deepEqual(s.open, []);
    assert.deepEqual(s.primary, { kind: 'run', label: 'Run again' });
    assert.equal(s.runIsNext, true);

    const byLead = fork({
      missing: ['chen'],
      decision: { decision: 'warm palette', by: 'ana', via: 'human', counts: { 'warm palette': 1, 'cold palette': 1 } },
    });
    const [d] = decidedForks(forks(byLead), names);
    assert.equal(d?.how, 'by Ana Ruiz in person');
    assert.deepEqual(d?.setAside, ['cold palette']);
    assert.deepEqual(nextSteps(state({ forks: forks(byLead) }), 'chen', names).open, [], 'a decided fork waits for nobody');
  });

  it('the strip names a picture by its one label: the review\'s "Image k", "remix r1b"', () => {
    const named = candidateNamer({ review: { options: [{ id: 'hero', label: 'Image 2' }] } as never });
    assert.match(nextSteps(state(), 'ana', { ...names, image: named }).happened, /final pick remix r1b\./);
    assert.match(nextSteps(state({ run: run({ finalPick: 'hero' }) }), 'ana', { ...names, image: named }).happened, /final pick Image 2\./);
  });

  it('nothing open: the next action is a run', () => {
    const s = nextSteps(state(), 'ana', names);
    assert.deepEqual(s.open, []);
    assert.deepEqual(s.primary, { kind: 'run', label: 'Run again' });
    const team = { designers: [{ id: 'ana' }, { id: 'ben' }] } as NextStepsInput['review'];
    assert.deepEqual(
      nextSteps({ runs: [], running: false, review: team }, undefined, names).primary,
      { kind: 'run', label: 'Run' },
      'no run yet',
    );
    assert.deepEqual(
      nextSteps({ runs: [], running: false, review: { designers: [{ id: 'ana' }] } as NextStepsInput['review'] }, undefined, names).primary,
      { kind: 'rank', label: 'Add your ranking' },
      'one ranking: a run cannot start yet',
    );
  });

  it("a blind re-rank set opened on its own: its step is each member's ranking, never a new run", () => {
    const set = {
      root: '/reviews/lumen/runs/2026-12-06T10-00-00-000Z/rerank',
      runs: [],
      running: false,
      review: { designers: [{ id: 'ben' }] } as NextStepsInput['review'],
    };
    const forAna = nextSteps(set, 'ana', names);
    assert.equal(forAna.happened, 'The blind re-rank set of run 2026-12-06T10-00-00-000Z: 1 member has ranked it.');
    assert.deepEqual(forAna.primary, { kind: 'rank', label: 'Rank the blind set' });
    assert.equal(forAna.runIsNext, false);
    assert.equal(nextSteps(set, 'ben', names).primary, undefined, 'Ben has ranked it');
    // A way back to its run, beside the ranking, for everyone.
    for (const who of ['ana', 'ben', undefined]) {
      assert.deepEqual(nextSteps(set, who, names).secondary, [
        { kind: 'backToRun', runId: '2026-12-06T10-00-00-000Z', label: 'Back to run 2026-12-06T10-00-00-000Z' },
      ]);
    }
  });

  it('after a recorded decision the lead may reopen it: a secondary action; the primary stays the real next step', () => {
    const decided = fork({
      votes: { ana: 'r1b', ben: 'r1b', chen: 'r1a' },
      missing: [],
      decision: { decision: 'cold palette', by: 'team', via: 'human', counts: { 'warm palette': 1, 'cold palette': 2 }, recorded: true },
    });
    const open = fork({ decisionPoint: 2, question: 'Serif or sans?', missing: ['ana', 'chen'] });
    const withLead = (...fs: PanelFork[]) => state({ forks: { ...forks(...fs), lead: 'ana' } });
    const lead = nextSteps(withLead(decided), 'ana', names);
    assert.deepEqual(lead.primary, { kind: 'run', label: 'Run again' });
    assert.deepEqual(lead.secondary, [{ kind: 'reopen', runId: RUN, iteration: 1, decisionPoint: 1, label: 'Reopen this decision…' }]);
    // Still a vote open: the primary is Ana's vote, the reopen beside it.
    const voting = nextSteps(withLead(open, decided), 'ana', names);
    assert.equal(voting.primary?.kind, 'vote');
    assert.deepEqual(
      voting.secondary?.map((a) => a.kind),
      ['reopen'],
    );
    // Not the lead, nobody chosen, or a decision only counted from the votes (not recorded): no reopen.
    assert.equal(nextSteps(withLead(decided), 'ben', names).secondary, undefined);
    assert.equal(nextSteps(withLead(decided), undefined, names).secondary, undefined);
    const counted = fork({ ...decided, decision: { ...decided.decision!, recorded: undefined } });
    assert.equal(nextSteps(withLead(counted), 'ana', names).secondary, undefined);
    // Two recorded decisions: each named by its question.
    const second = fork({ ...decided, decisionPoint: 2, question: 'Serif or sans?' });
    assert.deepEqual(
      nextSteps(withLead(decided, second), 'ana', names).secondary?.map((a) => a.label),
      ['Reopen "Warm or cold palette?"…', 'Reopen "Serif or sans?"…'],
    );
  });

  it('missing blind re-rankings and unrated proxy messages are open, each for its members', () => {
    const r = run({
      iterations: [
        {
          index: 1,
          candidates: ['1', '2'],
          messages: [
            { id: 'i1-m1', speaker: 'ana', kind: 'proxy', turn: 1, content: 'x' },
            { id: 'i1-m2', speaker: 'ben', kind: 'proxy', turn: 1, content: 'y' },
            { id: 'i1-m3', speaker: 'chen', kind: 'human', turn: null, content: 'z' },
          ],
        },
      ],
    });
    const evaluation = {
      runId: RUN,
      before: { designers: ['ana', 'ben', 'chen'] },
      after: null,
      reranked: ['ben'],
    } as unknown as NextStepsInput['evaluation'];
    const feedback = { runId: RUN, ratings: { ana: { 'i1-m1': { score: 4 } } }, survey: {}, problems: [] };
    const s = nextSteps(state({ run: r, evaluation, feedback }), 'ana', names);
    assert.deepEqual(
      s.open.map((o) => [o.kind, o.who]),
      [
        ['rerank', ['ana', 'chen']],
        ['rate', ['ben']],
      ],
    );
    assert.equal(s.open[0]?.text, 'Blind re-ranking: 1 of 3 done — waiting for Ana Ruiz, Chen Wei');
    assert.deepEqual(s.primary, { kind: 'rerank', runId: RUN, label: 'Re-rank the blind set' });
    assert.deepEqual(nextSteps(state({ run: r, evaluation, feedback }), 'ben', names).primary, {
      kind: 'rate',
      runId: RUN,
      label: 'Rate your proxy',
    });
  });

  it('a brief run: coverage rows to confirm per member; once none is open, adopting the revised brief (unless adopted)', () => {
    const r = run({ task: 'brief', finalPick: undefined });
    const round = {
      iteration: 1,
      path: 'runs/x/iteration-1/brief.md',
      text: '# New brief\n',
      coverage: [
        { designer: 'ana', point: 'Keep it light', status: 'kept' },
        { designer: 'chen', point: 'No jokes', status: 'left-out' },
      ],
    };
    const brief = { runId: RUN, rounds: [round] } as unknown as NextStepsInput['brief'];
    const feedback = { runId: RUN, ratings: {}, survey: {}, coverage: { ana: [{ point: 'Keep it light', agree: true }] }, problems: [] };
    const s = nextSteps(state({ run: r, brief, feedback }), 'chen', names);
    assert.equal(s.happened, `Run ${RUN} is done: the revised brief of round 1.`);
    assert.deepEqual(
      s.open.map((o) => [o.kind, o.text]),
      [['coverage', 'Coverage: 1 row to confirm — Chen Wei']],
    );
    assert.deepEqual(s.primary, { kind: 'coverage', runId: RUN, label: 'Confirm your points' });
    const done = { ...feedback, coverage: { ...feedback.coverage, chen: [{ point: 'No jokes', agree: false }] } };
    const review = { brief: 'Old brief' } as NextStepsInput['review'];
    assert.equal(nextSteps(state({ run: r, brief, feedback: done, review }), 'chen', names).primary?.kind, 'adoptBrief');
    const adopted = { brief: '# New brief' } as NextStepsInput['review'];
    assert.equal(
      nextSteps(state({ run: r, brief, feedback: done, review: adopted }), 'chen', names).primary?.kind,
      'run',
      'adopted: a new run is next',
    );
  });

  it("a run in flight has no primary; a failed one offers resume, with its error; a waiting one is its person's turn", () => {
    const live = nextSteps(state({ run: run({ status: 'running' }), forks: forks(fork()) }), 'ana', names);
    assert.equal(live.primary, undefined);
    assert.equal(live.runIsNext, false);
    const failed = nextSteps(state({ run: run({ status: 'failed', error: 'The model refused <b>' }) }), 'ana', names);
    assert.equal(failed.error, 'The model refused <b>');
    assert.deepEqual(failed.primary, { kind: 'resume', runId: RUN, label: 'Resume the run' });
    const waiting = run({ status: 'waiting', waitingFor: { speaker: 'chen', iteration: 1, turn: 2 } });
    assert.deepEqual(nextSteps(state({ run: waiting }), 'chen', names).primary, { kind: 'answer', runId: RUN, label: 'Answer your turn' });
    assert.equal(nextSteps(state({ run: waiting }), 'ana', names).waiting, 'Chen Wei');
  });

  it('the latest run failing to load is said with its file and place; an older run shown points to the latest', () => {
    const problem = `runs/2026-12-07T00-00-00-000Z/run.json:3:7: error: Expected a number`;
    const s = nextSteps(state({ brokenRuns: [{ id: '2026-12-07T00-00-00-000Z', problem }] }), 'ana', names);
    assert.equal(s.error, problem);
    assert.deepEqual(s.primary, {
      kind: 'openFile',
      path: 'runs/2026-12-07T00-00-00-000Z/run.json',
      label: 'Open runs/2026-12-07T00-00-00-000Z/run.json',
    });
    const older = state();
    older.runs = [
      { id: '2026-12-08T00-00-00-000Z', status: 'completed', startedAt: '2026-12-08T00:00:00.000Z', iterations: 2, finalPick: 'r2a' },
      ...older.runs,
    ];
    const o = nextSteps(older, 'ana', names);
    assert.deepEqual(o.primary, { kind: 'showLatest', runId: '2026-12-08T00-00-00-000Z', label: 'Show the latest run' });
    assert.match(o.happened, /final pick remix r2a/);
  });
});
