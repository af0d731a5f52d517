/**
 * The engine layer's face: the only module other layers import from engine/ (test/unit/layers.test.ts).
 */
// What other layers use, by module:
export type { CheckedAst } from './cel/checker/checker';
export type { CelType } from './cel/common/types';
export { evaluate, PER_CALL_LIMIT } from './cel/environment';
export type { CompiledExpression } from './cel/environment';
export { ACCUMULATOR, children } from './cel/syntax/ast';
export type { Expr } from './cel/syntax/ast';
export { COMPAT_CATEGORIES } from './compat/categories';
export type { CompatSeverity } from './compat/categories';
export { compareCustomResourceDefinitions } from './compat/compare';
export { extractMaxElements, multiplyWithOverflowGuard, STATIC_ESTIMATED_COST_LIMIT } from './crd/celcontext';
export { checkConversionReviewResponse, conversionReviewRequest, formatGroupVersionKind, objectsToConvert } from './crd/conversionreview';
export type { SentConversionReview } from './crd/conversionreview';
export { applyEdits } from './crd/edits';
export type { DocumentEdit, JSONPathKeys, KeyPosition } from './crd/edits';
export { migrateToV1 } from './crd/migrate';
export { crdVersionSchemas, readBack, storedObject, versionFieldLoss } from './crd/storageversion';
export type { CrdVersionSchema } from './crd/storageversion';
export { compareWithCreate, validateCustomResourceDefinitionUpdate } from './crd/update';
export { convertV1beta1ToV1, keysOf } from './crd/v1beta1';
export type { MigrationNote } from './crd/v1beta1';
export { validateCustomResourceDefinition } from './crd/validation';
export { byVersionPriority, preferredVersion } from './crd/versionpriority';
export { defaultDeprecationWarning, validateCustomResource } from './customresource/strategy';
export type { CustomResourceResult } from './customresource/strategy';
export { BLOCKING_ERROR_TYPES, CEL_SKIPPED_MESSAGE } from './customresource/value';
export { BUILTIN_MINORS, builtinGroups, builtinKind, builtinKindsNamed, builtinKindsOfGroup, builtinVersions, isBuiltinGroup } from './discovery/builtin';
export { errorMessage, errorTypeString, formatBadValue, OMIT_VALUE } from './field/errors';
export type { ErrorType, FieldError, FieldErrorParams, PathSegment } from './field/errors';
export { SubtreeMemo, withSubtreeMemo } from './field/memo';
export { FieldPath, strictDecodingPath } from './field/path';
export { closestNames, closestValue } from './field/similar';
export { goDeepEqual, GoStruct } from './json/go';
export { IntegralFloat, parseJSONLossless, stringifyJSONLossless } from './json/lossless';
export { deepEqualJSON, isJSONObject, setOwn } from './json/values';
export { compileRE2 } from './regex/re2';
export { schemaNodes } from './schema/cel/compile';
export { compileAt, completionAt, costBreakdown, fieldsOf, functionsFor, signatureAt, siteEnvironment, typeAt, typeText } from './schema/cel/query';
export type { CompletionCandidate, FieldInfo, RuleSite, TypeAtResult } from './schema/cel/query';
export { inferType } from './schema/infer';
export type { JSONSchemaProps } from './schema/types';
export { SUPPORTED_STRING_FORMAT_NAMES } from './validation/formats';
export { validateAgainstSchema } from './validation/schema';
export { parseKubernetesVersion, supportedKubernetesVersions } from './version';
export type { KubernetesTarget } from './version';
