/**
 * The lead reopens a decision from the review panel (issue 38): the webview offers "Reopen this decision…" on a fork whose
 * decision is recorded, only when "I am" is the run's lead; its `reopen` message (declared `writes`) goes through the host's
 * dispatcher, which asks to confirm and then calls the core's reopenDecision — the same as `teamfusion vote --reopen` —
 * so the decision stays as history ("Reopened by …; kept as history.") and the panel reloads. Real run against the mock.
 */
import * as assert from 'node:assert/strict';
import { readRunRecord } from '../../../src/core/record/store';
import { castVote } from '../../../src/core/evaluation/votes/cast';
import { MESSAGE_EFFECTS } from '../../../src/protocol/effects';
import { parseWebviewMessage, type HostMessage, type PanelFork, type WebviewMessage } from '../../../src/protocol/panel';
import { panelForks } from '../../../src/extension/panel/state/votesState';
import { canReopen } from '../../../webview/panel/views/run/forks';
import { decisionLine } from '../../../webview/panel/views/run/decisions';
import { fakePanel, usePanelDispatch } from '../../support/panelDispatch';
import { mockSuite } from '../run/helpers';
import { QUESTION, forkedRun } from '../votes/forkedRun';

const TEAM = ['d1', 'd2', 'd3'];
const decided = (recorded?: boolean): Pick<PanelFork, 'decision'> => ({
  decision: { decision: 'warm palette', by: 'team', ...(recorded ? { recorded } : {}) },
});

describe('panel: the lead reopens a decision', function () {
  this.timeout(120_000);
  const suite = mockSuite();
  const dispatch = usePanelDispatch();

  it('the reopen message: a decision point of a run, as someone; it writes', () => {
    const m = parseWebviewMessage({ type: 'reopen', runId: 'r1', as: 'd1', iteration: 1, decisionPoint: 2 });
    assert.ok(m.ok && m.value.type === 'reopen');
    assert.equal(parseWebviewMessage({ type: 'reopen', runId: 'r1', as: 'd1', iteration: 1, decisionPoint: 0 }).ok, false);
    assert.equal(parseWebviewMessage({ type: 'reopen', runId: 'r1', iteration: 1, decisionPoint: 1 }).ok, false, 'as whom is said');
    assert.equal(MESSAGE_EFFECTS.reopen, 'writes');
  });

  it('only the lead at the panel sees the button, and only on a recorded decision', () => {
    const forks = { lead: 'd1' };
    assert.equal(canReopen(forks, decided(true), 'd1'), true);
    assert.equal(canReopen(forks, decided(true), 'd2'), false, 'a member who is not the lead');
    assert.equal(canReopen(forks, decided(true), undefined), false, 'nobody chosen at "I am"');
    assert.equal(canReopen({}, decided(true), 'd1'), false, 'a review without a lead');
    assert.equal(canReopen(forks, decided(), 'd1'), false, 'counted from the votes but not yet in run.json');
    assert.equal(canReopen(forks, {}, 'd1'), false, 'an open fork');
  });

  it('through the dispatcher: asks first; the core refuses a member who is not the lead; the lead reopens, kept as history', async () => {
    const { root, runId } = await forkedRun(suite.mock, suite.cacheDir);
    for (const [as, choice] of [
      ['d1', 'a'],
      ['d2', 'a'],
      ['d3', 'b'],
    ] as const)
      await castVote({ reviewRoot: root, runId, as, decisionPoint: 1, choice });
    const before = (await panelForks(root, await readRunRecord(root, runId), { lead: 'd1' }, TEAM))!;
    assert.equal(before.lead, 'd1');
    assert.equal(before.forks[0]!.decision?.recorded, true);
    assert.equal(canReopen(before, before.forks[0]!, 'd1'), true);

    const asked: string[] = [];
    let answer = false;
    const { panel, posted, told, touched } = fakePanel(true, {
      services: { sync: { enabled: () => false }, log: { info: () => undefined } },
      root: { fsPath: root },
      confirm: (message: string, _detail: string, button: string) => (asked.push(`${message} [${button}]`), Promise.resolve(answer)),
    });
    const reloads = (): number => touched.filter((t) => t === 'reload').length;
    const reopen = (as: string): WebviewMessage => ({ type: 'reopen', runId, as, iteration: 1, decisionPoint: 1 });
    const standing = async () => (await readRunRecord(root, runId)).iterations[0]!.decisions![0]!;

    await dispatch(reopen('d1'), panel);
    assert.deepEqual(asked, [`Reopen the decision on "${QUESTION}" of round 1 (run ${runId})? [Reopen]`], 'the fork named as recorded');
    assert.deepEqual(posted, [], 'cancelled: nothing said');
    assert.equal((await standing()).reopened, undefined, 'cancelled: nothing written');

    answer = true;
    await dispatch(reopen('d2'), panel);
    assert.deepEqual(posted, [{ type: 'notice', level: 'warning', message: 'Not reopened: Only the lead (d1) reopens a decision.' }]);
    assert.equal((await standing()).reopened, undefined);
    assert.equal(reloads(), 0);

    await dispatch(reopen('d1'), panel);
    assert.equal(asked.length, 3);
    const said = posted[1] as HostMessage | undefined;
    assert.ok(said?.type === 'notice' && said.level === 'info', JSON.stringify(said));
    assert.match(said.message, new RegExp(`^Reopened "${QUESTION.replace('?', '\\?')}" \\(decided: warm palette; kept as history\\)\\.`));
    assert.equal(reloads(), 1, 'the panel reloads');
    await dispatch({ type: 'reopen', runId, as: 'd1', iteration: 1, decisionPoint: 2 }, panel);
    assert.equal(
      asked[3],
      `Reopen the decision on decision point 2 of round 1 (run ${runId})? [Reopen]`,
      'no fork there: named by its number',
    );
    assert.deepEqual(posted[2], {
      type: 'notice',
      level: 'warning',
      message: `Not reopened: Round 1 of run ${runId} has no fork at decision point 2.`,
    });
    assert.equal(reloads(), 1);
    const d = await standing();
    assert.equal(d.reopened?.by, 'd1');
    assert.equal(decisionLine(d, (id) => (id === 'd1' ? 'Ana' : id)).endsWith(' Reopened by Ana; kept as history.'), true);
    const after = (await panelForks(root, await readRunRecord(root, runId), { lead: 'd1' }, TEAM))!;
    assert.equal(canReopen(after, after.forks[0]!, 'd1'), false, 'no longer a recorded decision to reopen');
    assert.deepEqual(told, [], 'trusted: nothing refused');
    assert.deepEqual(touched, ['reload'], 'the handler touched nothing else of the panel');
  });
});
