/** Shared set-up of the fork suites: a scripted remix agent that reports given decision points, and the edits the mock saw. */
import type { MockOpenAI } from '../../support/openaiMock';
import { defaultReply, requestedJsonSchema } from '../../support/openaiMock/autoResponder';
import type { MockFallback, RecordedRequest } from '../../support/openaiMock/types';
import type { DecisionPoint } from '../../../src/core/record/record';

/**
 * The mock's usual answers, except that the remix agent of a remix round (design: `teamfusion_remix`; brief:
 * `teamfusion_brief`, as its disagreements) reports `points`. The final pick reports none.
 */
export function withDecisionPoints(points: readonly DecisionPoint[]): MockFallback {
  return (req) => {
    const reply = defaultReply(req);
    const name = requestedJsonSchema(req.body)?.name;
    if (reply.kind !== 'json' || typeof reply.value !== 'object' || reply.value === null) return reply;
    if (name === 'teamfusion_remix') return { ...reply, value: { ...reply.value, decisionPoints: points } };
    if (name === 'teamfusion_final_pick') return { ...reply, value: { ...reply.value, decisionPoints: [] } };
    if (name === 'teamfusion_brief') return { ...reply, value: { ...reply.value, disagreements: points } };
    return reply;
  };
}

export function editRequests(mock: MockOpenAI): RecordedRequest[] {
  return mock.requests.filter((r) => r.route === 'edit');
}
