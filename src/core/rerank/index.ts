/** Re-ranking the final candidates of a run, and Kendall's W before → after. No `vscode` import here. */
export { startReRanking, finalCandidateFiles } from './startReRanking';
export type { RerankOptionSource } from './startReRanking';
export { compareAgreement } from './compareAgreement';
export type { AgreementComparison, AgreementSide } from './compareAgreement';
export { rerankDir, RERANK_DIR } from './paths';
export { formatAgreementLine, formatSide, verdictWords, RERANKINGS_NEEDED } from './format';
export type { ComparisonForWords, SideForWords } from './format';
