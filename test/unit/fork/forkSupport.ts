/** Shared set-up of the fork suites: a scripted remix agent that reports given decision points, and the edits the mock saw. */
import type { MockOpenAI } from '../../support/openaiMock';
import type { RecordedRequest } from '../../support/openaiMock/types';

export { withDecisionPoints } from '../../support/decisionPoints';

export function editRequests(mock: MockOpenAI): RecordedRequest[] {
  return mock.requests.filter((r) => r.route === 'edit');
}
