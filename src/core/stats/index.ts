/** Agreement statistics for a review: Kendall's W, permutation p, Borda, tau-b, per-option summary, report. */
export { analyzeReview, reviewRankMatrix } from './analysis';
export type { Analysis, AnalysisDesigner, AnalyzeOptions, KendallSummary } from './analysis';
export { analysisSchema } from './analysisSchema';
export { bordaCount } from './borda';
export type { BordaEntry } from './borda';
export { chiSquareUpperTail, logGamma, regularizedGammaP, regularizedGammaQ } from './chiSquare';
export { agreementBand, kendallW } from './kendallW';
export type { AgreementBand, KendallWResult } from './kendallW';
export { DEFAULT_PERMUTATIONS, DEFAULT_SEED, permutationPValue } from './permutation';
export type { PermutationOptions, PermutationResult } from './permutation';
export { isContested, summarizeOptions } from './perOption';
export type { OptionSummary } from './perOption';
export { SeededRandom } from './prng';
export { averageRankMatrix, averageRanks, tieCorrectionTerm } from './ranks';
export { formatAnalysisTable } from './report';
export { agreementSentence, bandWords } from './sentence';
export { kendallTauB, lowestMeanTau, tauBMatrix } from './tauB';
