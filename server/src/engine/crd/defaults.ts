/**
 * Default values in a CRD schema must be pruned and must validate against their own schema
 * (ValidateDefaults, engine/defaulting/validation.ts), run by CRD validation once the schema is
 * structural. This module supplies the OpenAPI value validator and the CEL evaluator it calls back.
 */
import { FieldPath, type FieldError } from '../field';
import { validateDefaults } from '../defaulting/validation';
import { validateEmbeddedResources } from '../objectmeta/validation';
import { newStructural } from '../schema/structural';
import type { JSONSchemaProps } from '../schema/types';
import { validateCelRules } from '../schema/cel/validator';
import { validateOpenAPI } from '../validation/validation';
import { MATCH_WORK_LIMIT, RegexBudget } from '../regex/re2';
import { activeSubtreeMemo, withSubtreeMemo } from '../field/memo';
import { isJSONObject, deepCopyJSON } from '../json/values';

/** Moves a value error (path relative to the value) under `dpath` (which ends in `.default`). */
function under(dpath: FieldPath, e: FieldError, openAPI = false): FieldError {
  const base = dpath.toString();
  // kubeOpenAPIResultToFieldErrors appends the error's name with Child(), so an item of an array
  // default prints as `default.[0]`; field.Path errors (CEL, list types) index as `default[0]`.
  const field = e.field === '' ? base : e.field.startsWith('[') && !openAPI ? base + e.field : `${base}.${e.field}`;
  return { ...e, field, segments: [...dpath.segments(), ...(e.segments ?? [])] };
}

/** Whether an error means a seam is still a stub; then the check is skipped rather than failing. */
export function isNotImplemented(e: unknown): boolean {
  return e instanceof Error && e.message.startsWith('not implemented');
}

/**
 * apiservervalidation.ValidateCustomResource on a default: OpenAPI value validation only, with the
 * validator of NewSchemaValidatorFromOpenAPI(s.ToKubeOpenAPI()), whose formats are not stripped.
 */
function validateValue(dpath: FieldPath, value: unknown, raw: unknown, budget: RegexBudget): FieldError[] {
  if (!isJSONObject(raw)) return [];
  return validateOpenAPI(deepCopyJSON(value), raw as JSONSchemaProps, undefined, { budget, formatsAsWritten: true }).map((e) => under(dpath, e, true));
}

/**
 * The CEL rules on a default, as ValidateDefaults runs them: with the default as both object and old
 * object, then (ratcheting, for optionalOldSelf) once more as a create when the first run passes.
 */
function validateCel(dpath: FieldPath, value: unknown, raw: unknown, isResourceRoot: boolean, kubernetesMinor: number | undefined): FieldError[] {
  if (!isJSONObject(raw)) return [];
  const schema = raw as JSONSchemaProps;
  // celValidator.Validate(..., default, default, ...) without WithRatcheting: oldSelf is bound, nothing ratchets.
  let errs = validateCelRules(schema, deepCopyJSON(value), { isResourceRoot, oldObject: deepCopyJSON(value), ratcheting: false, kubernetesMinor });
  if (errs.length === 0) errs = validateCelRules(schema, deepCopyJSON(value), { isResourceRoot, kubernetesMinor });
  return errs.filter((e) => (e.severity ?? 'error') === 'error').map((e) => under(dpath, e));
}

/**
 * ValidateDefaults(pth, schema, isResourceRoot=true, requirePrunedDefaults): every default is pruned
 * (no unknown fields) and valid against the schema at its place, errors under `<path>.default`.
 */
export function validateSchemaDefaults(schema: JSONSchemaProps, pth: FieldPath, requirePrunedDefaults = true, kubernetesMinor?: number): FieldError[] {
  const errs = schemaDefaults(schema, pth, requirePrunedDefaults, kubernetesMinor);
  // With a memo, subtrees found there are charged the pattern work they spent; an answer is only the
  // plain one when the shared budget never came near its end (else a pattern may have been skipped).
  if (errs.budget.remaining < MATCH_WORK_LIMIT && activeSubtreeMemo()) return withSubtreeMemo(undefined, () => schemaDefaults(schema, pth, requirePrunedDefaults, kubernetesMinor).errors);
  return errs.errors;
}

function schemaDefaults(schema: JSONSchemaProps, pth: FieldPath, requirePrunedDefaults: boolean, kubernetesMinor: number | undefined): { errors: FieldError[]; budget: RegexBudget } {
  const s = newStructural(schema).structural;
  // All defaults of one schema share one pattern work budget (a CRD may hold thousands of defaults).
  const budget = new RegexBudget();
  const errors = validateDefaults(
    pth,
    s,
    schema,
    { isResourceRoot: true, requirePrunedDefaults, budget },
    {
      validateObjectMeta: (p, obj, node, isResourceRoot) => validateEmbeddedResources(p ?? FieldPath.root(), deepCopyJSON(obj), isJSONObject(node.raw) ? (node.raw as JSONSchemaProps) : undefined, isResourceRoot),
      validateValue: (dpath, value, node) => validateValue(dpath, value, node.raw, budget),
      validateCEL: (dpath, value, node, isResourceRoot) => validateCel(dpath, value, node.raw, isResourceRoot, kubernetesMinor),
    },
  );
  return { errors, budget };
}
