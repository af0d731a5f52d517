import { FieldPath, type FieldError } from '../field';
import type { JSONSchemaProps } from '../schema/types';
import { validateCelRules } from '../cel/validator';
import { validateListSetsAndMaps } from '../listtype/validation';
import { validateEmbeddedResources } from '../objectmeta/validation';
import { validateOpenAPI } from './validation';

export interface ValueValidationOptions {
  isResourceRoot: boolean;
  /** The previous object on an update (transition rules, ratcheting of list-type errors). */
  oldObject?: unknown;
  /** Skip the CEL rules (the caller runs them itself, e.g. after checking for blocking errors). */
  skipCel?: boolean;
}

/**
 * The checks the API server runs on a custom resource value against one schema: OpenAPI value
 * validation (kube-openapi, with Kubernetes error types and paths), list-type set/map checks,
 * embedded-resource metadata, and the CEL x-kubernetes-validations rules.
 */
export function validateCustomResourceValue(obj: unknown, schema: JSONSchemaProps, opts: ValueValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateOpenAPI(obj, schema, opts.oldObject));
  errs.push(...validateEmbeddedResources(FieldPath.root(), obj, schema, false));
  errs.push(...validateListTypes(obj, schema, opts.oldObject));
  if (!opts.skipCel) errs.push(...validateCelRules(schema, obj, { isResourceRoot: opts.isResourceRoot, oldObject: opts.oldObject }));
  return errs;
}

/**
 * listtype.ValidateListSetsAndMaps with the update ratcheting of strategy.go: on an update the new
 * object's list-type errors count only if the old object had none.
 */
export function validateListTypes(obj: unknown, schema: JSONSchemaProps, oldObject?: unknown): FieldError[] {
  if (oldObject !== undefined && validateListSetsAndMaps(FieldPath.root(), schema, oldObject).length > 0) return [];
  return validateListSetsAndMaps(FieldPath.root(), schema, obj);
}
