/** Discussion analysis: Bales IPA coding of a run's messages (analysis.json) and the stance table. No vscode import. */
export * from './bales';
export * from './analysisFile';
export * from './stance';
export * from './summary';
export {
  codeDiscussion,
  CodingError,
  CONFIRM_ABOVE_REQUESTS,
  costWords,
  MAX_ATTEMPTS,
  DEFAULT_MAX_WAIT_MS,
  DEFAULT_POLL_INTERVAL_MS,
  MIN_POLL_INTERVAL_MS,
} from './coder';
export type { CodeDiscussionOptions, CodeDiscussionResult, CodingCost, CodingProgress, CodingState } from './coder';
export { codingJsonSchema, CODING_SYSTEM, SCHEMA_NAME, CONTEXT_MESSAGES, MESSAGES_PER_REQUEST } from './codingPrompt';
