/** FORMATS: reading, checking and writing review folders (contract §1). No `vscode` import here. */
export * from './model';
export { loadReview } from './loadReview';
export { validateRankingText, designerIdOf, rankingFormatOf } from './rankingText';
export type { RankingFormat } from './rankingText';
export { formatRankingYaml, formatRankingJson } from './rankingWriter';
export type { RankingToWrite } from './rankingWriter';
export { isReviewFolder } from './reviewFolder';
export { naturalCompare } from './naturalOrder';
export { scaffoldReview } from './scaffold';
export type { ReviewTemplate } from './scaffold';
export { importRankingsCsv } from './csvImport';
export type { CsvImportResult } from './csvImport';
export { capPerFile, formatDiagnostic, hasErrors, MAX_DIAGNOSTICS_PER_FILE, sortDiagnostics } from './diagnostics';
export { MIN_OPTIONS, MAX_OPTIONS } from './options';
export { DESIGNER_ID_PATTERN, designerIdFromName, designerKey, sameDesigner } from './designerId';
