import type { FieldError, FieldPath } from '../field';
import type { JSONSchemaProps } from './types';

/**
 * The API server's structural-schema check (apiextensions-apiserver pkg/apiserver/schema
 * NewStructural + ValidateStructural): the NonStructural violations of an openAPIV3Schema,
 * with paths relative to fldPath (the schema root when omitted).
 */
export function validateStructuralSchema(schema: JSONSchemaProps, fldPath?: FieldPath): FieldError[] {
  void schema;
  void fldPath;
  throw new Error('not implemented: structural schema checks');
}
