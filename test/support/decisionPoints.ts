/**
 * A scripted remix agent that reports given decision points (issue 33's forks): the mock's usual answers, except that the
 * remix agent of a remix round (design: `teamfusion_remix`; brief: `teamfusion_brief`, as its disagreements) reports
 * `points`, and the final pick reports none. Shared by the fork unit suites and the e2e suite of the panel's forks.
 */
import { briefFallback } from './openaiMock';
import { defaultReply, requestedJsonSchema } from './openaiMock/autoResponder';
import type { MockFallback } from './openaiMock/types';
import type { DecisionPoint } from '../../src/core/record/record';

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

/**
 * The scripted server's brief-run answers, with `points` as the remix agent's disagreements and, when given, `passages` as
 * the contested passage written each way (the `teamfusion_brief_fork` answer, one per position in order).
 */
export function briefWithDecisionPoints(points: readonly DecisionPoint[], passages?: readonly string[]): MockFallback {
  const brief = briefFallback();
  const withPoints = withDecisionPoints(points);
  return (req) => {
    const name = requestedJsonSchema(req.body)?.name;
    if (name === 'teamfusion_brief') {
      const reply = brief(req);
      return reply?.kind === 'json' && typeof reply.value === 'object' && reply.value !== null
        ? { ...reply, value: { ...reply.value, disagreements: points } }
        : reply;
    }
    if (name === 'teamfusion_brief_fork' && passages) return { kind: 'json', value: { passages } };
    return brief(req) ?? withPoints(req);
  };
}
