/** FORMATS: reading, checking and writing review folders (contract §1). No `vscode` import here. */
export * from './model';
export type { Diagnostic, Severity } from '../diagnostics/diagnostics';
export { loadReview } from './loadReview';
export { validateRankingText, designerIdOf, rankingFormatOf } from '../rankings/rankingText';
export type { RankingFormat } from '../rankings/rankingText';
export { formatRankingYaml, formatRankingJson } from '../rankings/rankingWriter';
export type { RankingToWrite } from '../rankings/rankingWriter';
export { isReviewFolder } from './reviewFolder';
export { naturalCompare } from '../kernel/naturalOrder';
export { scaffoldReview } from './scaffold';
export type { ReviewTemplate } from './scaffold';
export { importRankingsCsv } from './csvImport';
export type { CsvImportResult } from './csvImport';
export { capPerFile, formatDiagnostic, hasErrors, MAX_DIAGNOSTICS_PER_FILE, sortDiagnostics } from '../diagnostics/diagnostics';
export { MIN_OPTIONS, MAX_OPTIONS } from './options';
export { DESIGNER_ID_PATTERN, designerIdFromName, designerKey, sameDesigner } from '../rankings/designerId';
