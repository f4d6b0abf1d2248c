/** "Did it help?": the blind re-rank set, the comparison, ratings, survey and the many-review evaluation. No `vscode` import. */
export { makeRerankSet, bordaTop, assignLetters, letterOf, DEFAULT_TOP } from '../rerank/rerankSet';
export type { RerankSetResult, RerankSource } from '../rerank/rerankSet';
export { readKey, formatKey } from '../rerank/key';
export type { RerankKey } from '../rerank/key';
export { compareRun, RERANKINGS_NEEDED } from './compare/compare';
export { compareBriefRun, briefComparisonSentences, signTestP } from './compare/briefCompare';
export type { BriefCompareResult, PreferenceSummary } from './compare/briefCompare';
export type { CompareResult, AgreementSide, PairedResult, Timing } from './compare/compare';
export { acceptance, summarizeRatings, summarizeSurvey } from './compare/summaries';
export type { Acceptance, RatingsSummary, SurveySummary } from './compare/summaries';
export {
  checkRatingsText,
  checkSurveyText,
  loadRatings,
  loadSurvey,
  ratableMessages,
  writeRatings,
  writeSurvey,
  SURVEY_QUESTIONS,
  SURVEY_WORDING,
  RATING_WORDING,
} from './evaluate/feedback';
export type { DesignerRatings, Rating, SurveyAnswer, SurveyQuestion } from './evaluate/feedback';
export { rerankDir, rerankRel, keyRel, ratingsRel, surveyRel, RERANK_DIR, KEY_FILE } from '../rerank/paths';
export { REFERENCE } from './evaluate/reference';
export { evaluateFolder, findReviews, collectRun, overallOf } from './evaluate/evaluate';
export type { Evaluation, ReviewEvaluation, RunEvaluation, Overall, Skipped } from './evaluate/evaluate';
export { allCharts, CHART_FILES } from './charts';
export { evaluationMarkdown } from './evaluate/report';
