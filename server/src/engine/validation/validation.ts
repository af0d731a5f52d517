/**
 * apiextensions-apiserver pkg/apiserver/validation: ValidateCustomResource, i.e. kube-openapi's schema
 * validator on the value, its result translated into field errors (kubeOpenAPIResultToFieldErrors).
 */
import { notChecked, type FieldError } from '../field';
import type { RegexBudget } from '../regex/re2';
import type { JSONSchemaProps } from '../schema/types';
import { openAPIErrorsToFieldErrors } from './kube-openapi-errors';
import { validateAgainstSchema } from './schema';

/** Checks cut short are listed one by one up to this many, then counted in one more finding. */
const MAX_NOT_CHECKED = 20;

/**
 * The OpenAPI schema errors of a value, as the API server reports them (nil field path at the root).
 * With oldObject (an update), errors of unchanged values are ratcheted (ValidateCustomResourceUpdate).
 * Pattern matches share one work budget (a fresh one per call unless given, e.g. one per CRD for all its
 * defaults); checks a bound cut short follow the errors as `NotChecked` informations.
 */
export function validateOpenAPI(obj: unknown, schema: JSONSchemaProps, oldObject?: unknown, opts: { budget?: RegexBudget; formatsAsWritten?: boolean } = {}): FieldError[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const result = validateAgainstSchema(schema, obj, oldObject === undefined ? undefined : { value: oldObject }, opts);
  const out = result.errors.length === 0 ? [] : openAPIErrorsToFieldErrors(result.errors);
  if (result.notChecked.length === 0) return out;
  for (const n of result.notChecked.slice(0, MAX_NOT_CHECKED)) {
    const path = n.name === '' || n.name === '.' ? null : n.name.startsWith('.') ? n.name.slice(1) : n.name;
    const e = notChecked(path, n.detail);
    if (path !== null && n.segments) e.segments = n.segments;
    out.push(e);
  }
  const more = result.notChecked.length - MAX_NOT_CHECKED;
  if (more > 0) out.push(notChecked(null, `${more} more pattern ${more === 1 ? 'check' : 'checks'} cut short by the work bound`));
  return out;
}
