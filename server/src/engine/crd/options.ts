/**
 * validationOptions of apiextensions validation.go: what CRD validation requires. A create requires
 * everything; an update relaxes each rule the stored CRD already broke ("don't tighten validation on
 * existing persisted data") and exempts what is unchanged.
 */

export interface CRDValidationOptions {
  /** A webhook's conversionReviewVersions must include v1 or v1beta1. */
  requireRecognizedConversionReviewVersion: boolean;
  /** spec.scope and spec.names.kind are immutable (the stored CRD is Established). */
  requireImmutableNames: boolean;
  /** Every version needs a schema (else only served versions, "because otherwise all fields are pruned"). */
  requireOpenAPISchema: boolean;
  /** `type` must be one of the OpenAPI v3 types. */
  requireValidPropertyType: boolean;
  /** Defaults must already be pruned. */
  requirePrunedDefaults: boolean;
  /** Items of a list-type set must be atomic. */
  requireAtomicSetType: boolean;
  /** List-map keys required or defaulted and not nullable; set/map items not nullable. */
  requireMapListKeysMapSetValidation: boolean;
  /** CEL rules of the stored CRD: compiled in the stored-expressions environment. */
  preexistingRules: ReadonlySet<string>;
  /** messageExpressions of the stored CRD, likewise. */
  preexistingMessageExpressions: ReadonlySet<string>;
  /** Versions whose schema is unchanged: their per-expression cost limit is not enforced. */
  versionsWithUnchangedSchemas: ReadonlySet<string>;
  /** A conversion webhook caBundle is not checked (create, or the stored one was invalid or not established). */
  allowInvalidCABundle: boolean;
  /** Versions ('' for the top level) whose unchanged selectable fields may exceed the maximum. */
  allowTooManySelectableFields: ReadonlySet<string>;
  /** The Kubernetes minor checked as (engine/version.ts; undefined: the newest). */
  kubernetesMinor?: number;
  /** The server's compatibility version for new CEL rules when not the minor's default (`--min-compatibility-version`). */
  compatibilityMinor?: number;
}

/** ValidateCustomResourceDefinition's options. */
export const CREATE_OPTIONS: CRDValidationOptions = Object.freeze({
  requireRecognizedConversionReviewVersion: true,
  requireImmutableNames: false,
  requireOpenAPISchema: true,
  requireValidPropertyType: true,
  requirePrunedDefaults: true,
  requireAtomicSetType: true,
  requireMapListKeysMapSetValidation: true,
  preexistingRules: new Set<string>(),
  preexistingMessageExpressions: new Set<string>(),
  versionsWithUnchangedSchemas: new Set<string>(),
  allowInvalidCABundle: true,
  allowTooManySelectableFields: new Set<string>(),
});
