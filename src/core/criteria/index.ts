export * from './model';
export { foldForQuote, quoteFound } from './grounding';
export { criteriaState, findCriteria, loadForCriteria, type CriteriaState, type FindCriteriaResult } from './find';
export { readCriteriaSources, criteriaTask } from './sources';
export { criteriaMarkdown, readCriteriaFile } from './file';
export { explainContested, groundAnswer } from './ground';
export { criteriaSummary, type CriteriaSummary } from './summary';
export { criteriaToSettle } from './summary';
