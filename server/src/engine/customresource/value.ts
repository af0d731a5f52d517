import { FieldPath, invalid, withParams, type FieldError } from '../field';
import type { JSONSchemaProps } from '../schema/types';
import { validateCelRules } from '../schema/cel/validator';
import { schemaDeclType } from '../schema/cel/model';
import { escapeName, type DeclType } from '../cel/common/types';
import { validateListSetsAndMaps } from '../listtype/validation';
import { validateEmbeddedResources } from '../objectmeta/validation';
import { validateOpenAPI } from '../validation/validation';
import { isJSONObject } from '../json/values';
import { markedBelow } from '../schema/marked';

export interface ValueValidationOptions {
  isResourceRoot: boolean;
  /** The previous object on an update (transition rules, ratcheting of list-type errors). */
  oldObject?: unknown;
  /** The Kubernetes minor checked as (engine/version.ts; default the newest). */
  kubernetesMinor?: number;
  /** A patch or template object: what the missing parts may supply (Required) is not an error. */
  partial?: boolean;
}

/**
 * The checks the API server runs on a custom resource value against one schema: OpenAPI value
 * validation (kube-openapi, with Kubernetes error types and paths), then what strategy.go adds
 * (validateSchemaRules). The conformance `validate` op with a bare schema; a whole object goes
 * through validateCustomResource (strategy.ts), which runs the same steps around the metadata checks.
 */
export function validateCustomResourceValue(obj: unknown, schema: JSONSchemaProps, opts: ValueValidationOptions): FieldError[] {
  const errs = [...validateOpenAPI(obj, schema, opts.oldObject)];
  validateSchemaRules(errs, obj, schema, opts);
  return errs;
}

/**
 * strategy.go Validate after the validator's checks: embedded resources' metadata, the
 * x-kubernetes-list-type invariants, then the CEL x-kubernetes-validations rules, skipped with one
 * path-less error when an error so far blocks them (Required, NotSupported, TooLong, TooMany,
 * TypeInvalid). `errs` holds the errors so far; the new ones are appended to it.
 */
export function validateSchemaRules(errs: FieldError[], obj: unknown, schema: JSONSchemaProps, opts: ValueValidationOptions): void {
  errs.push(...validateEmbeddedResources(FieldPath.root(), obj, schema, false));
  errs.push(...validateListTypes(obj, schema, opts.oldObject));
  // What is missing from a partial object may be supplied by the rest.
  if (opts.partial) for (let i = errs.length - 1; i >= 0; i--) if (errs[i].type === 'FieldValueRequired') errs.splice(i, 1);
  // cel.NewValidator is nil without reachable rules: then nothing is skipped and nothing is said.
  if (!hasCelValidator(schema, opts.isResourceRoot)) return;
  if (errs.some((e) => BLOCKING_ERROR_TYPES.has(e.type))) errs.push(withParams(invalid(null, null, CEL_SKIPPED_MESSAGE), { origin: 'celSkipped' }));
  else errs.push(...validateCelRules(schema, obj, { isResourceRoot: opts.isResourceRoot, oldObject: opts.oldObject, kubernetesMinor: opts.kubernetesMinor }));
}

/** strategy.go hasBlockingErr: after one of these OpenAPI errors the CEL rules are not run. */
export const BLOCKING_ERROR_TYPES: ReadonlySet<string> = new Set(['FieldValueNotSupported', 'FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany', 'FieldValueTypeInvalid']);

/** The one error reported in place of the CEL results when a blocking error came first. */
export const CEL_SKIPPED_MESSAGE = 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';

/**
 * listtype.ValidateListSetsAndMaps with the update ratcheting of strategy.go: on an update the new
 * object's list-type errors count only if the old object had none.
 */
export function validateListTypes(obj: unknown, schema: JSONSchemaProps, oldObject?: unknown): FieldError[] {
  if (oldObject !== undefined && validateListSetsAndMaps(FieldPath.root(), schema, oldObject).length > 0) return [];
  return validateListSetsAndMaps(FieldPath.root(), schema, obj);
}

/** cel hasXValidations: does the node, or a property, additionalProperties or items below it, carry rules? */
export function hasXValidations(s: unknown): boolean {
  return markedBelow(s, 'rules');
}

/**
 * cel.NewValidator(s, isResourceRoot, ...) != nil: some rule sits on a node the validator reaches. validator()
 * drops properties whose CEL type is unknown (below untyped or preserve-unknown-fields-only nodes), so rules
 * there neither run nor make strategy.go report the skipped-rules error.
 */
export function hasCelValidator(schema: JSONSchemaProps, isResourceRoot: boolean): boolean {
  return hasXValidations(schema) && reachesRules(schema, schemaDeclType(schema, isResourceRoot));
}

function reachesRules(s: unknown, decl: DeclType | undefined): boolean {
  if (!isJSONObject(s)) return false;
  const rules = s['x-kubernetes-validations'];
  if (Array.isArray(rules) && rules.length > 0) return true;
  if (isJSONObject(s.items) && reachesRules(s.items, decl?.elemType)) return true;
  if (isJSONObject(s.properties)) {
    for (const [k, p] of Object.entries(s.properties)) {
      if (!isJSONObject(p)) continue;
      const escaped = escapeName(k);
      // Escapable names take their type from the parent's declared fields; others get their own.
      const t = escaped !== undefined ? decl?.fields?.get(escaped)?.type : schemaDeclType(p, p['x-kubernetes-embedded-resource'] === true);
      if (t && reachesRules(p, t)) return true;
    }
  }
  return isJSONObject(s.additionalProperties) && reachesRules(s.additionalProperties, decl?.elemType);
}
