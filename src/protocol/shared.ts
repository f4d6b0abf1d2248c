/**
 * The shared layer: what of the core the panel's webview draws with, re-exported here so the webview imports only
 * src/protocol. Each is pure and browser-safe (no `node:` module, no `vscode`, no schema library, not the persisted
 * run.json schema nor its reading and writing): test/unit/build/webviewBoundary.test.ts follows every value import of
 * the webview through this file and fails on anything else. Add here, never import src/core from webview/.
 */
export { errorMessage } from '../core/kernel/errors';
export { forkSideText, remixesOf, remixesWithDirections, remixOfLetter } from '../core/record/remixes';
export { standingDecision } from '../core/record/decisions';
export { costPerRemix, discussionFacts } from '../core/run/runFacts';
export { decisionSentence, marginText } from '../core/discussion/decisionWords';
export { reportedNothing } from '../core/coverage/verify';
export { BALES_CATEGORIES, categoryArea } from '../core/analysis/bales';
export { COMPLIANT_SHARE, areaTotals } from '../core/analysis/summary';
export { comparisonSentences, f2, verdictFirst } from '../core/evaluation/format';
export { SCRIPTED_RUN_SENTENCE } from '../core/evaluation/checks/scripted';
export { REFERENCE } from '../core/evaluation/evaluate/reference';
export { RATING_WORDING, SURVEY_QUESTIONS, SURVEY_WORDING, type SurveyQuestion } from '../core/evaluation/evaluate/feedbackWords';
export { ownFidelitySentence } from '../core/forecast/fidelity';
export { poolTableOf, type PoolTable, type PoolColumn } from '../core/pool/poolTable';
export { poolCheckSentences } from '../core/evaluation/checks/poolChecks';
export { typedWords } from '../core/authorship/typist';
