/**
 * apiextensions-apiserver pkg/apiserver/validation: ValidateCustomResource, i.e. kube-openapi's schema
 * validator on the value, its result translated into field errors (kubeOpenAPIResultToFieldErrors).
 */
import type { FieldError } from '../field';
import type { JSONSchemaProps } from '../schema/types';
import { openAPIErrorsToFieldErrors } from './kube-openapi-errors';
import { validateAgainstSchema } from './schema-validator';

/**
 * The OpenAPI schema errors of a value, as the API server reports them (nil field path at the root).
 * With oldObject (an update), errors of unchanged values are ratcheted (ValidateCustomResourceUpdate).
 */
export function validateOpenAPI(obj: unknown, schema: JSONSchemaProps, oldObject?: unknown): FieldError[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const result = validateAgainstSchema(schema, obj, oldObject === undefined ? undefined : { value: oldObject });
  if (result.errors.length === 0) return [];
  return openAPIErrorsToFieldErrors(result.errors);
}
