/**
 * The service layer's face: the only module other layers import from service/ (test/unit/layers.test.ts).
 */
// What other layers use, by module:
export type { CelLintCode, CelLintSeverity } from './celLints';
export type { CelToken, CelTokenType } from './celTokens';
export type { CatalogAnswer, FieldValidation, FileContext, ServiceSettings, UnknownKinds } from './context';
export { checkConversionWebhook } from './conversionWebhook';
export { addCoverage, addCoverageCounts, checkedCount, emptyCoverage } from './coverage';
export type { CoverageCounts, NotCheckedReason } from './coverage';
export { RUN_TESTS_COMMAND } from './crdTests';
export type { TestRun } from './crdTests';
export { FINDING_CODES } from './finding';
export type { Finding, FindingSeverity, Fix } from './finding';
export { headRange } from './findings';
export { generationProblem } from './goTypes';
export { crdVersions, roleOf } from './kube';
export { isGoUri, LanguageService } from './languageService';
export { CEL_LINT_SCOPES } from './lintScope';
export type { CelLintScope } from './lintScope';
export { applyMigrations, migrateFile } from './migrate';
export type { DocumentMigration } from './migrate';
export { renderPreview, toPlain } from './preview';
export type { StoredObjectPreview } from './preview';
export { readOnlyTextDocument } from './textDocument';
export type { FileBaseline } from './update';
