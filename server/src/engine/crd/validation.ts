import type { FieldError } from '../field';

/**
 * CRD validation on a v1 create (apiextensions-apiserver pkg/apis/apiextensions/validation
 * ValidateCustomResourceDefinition), after the v1 defaulting and conversion the REST handler does.
 * Warnings (e.g. deprecated versions) come back with severity `warning`.
 */
export function validateCustomResourceDefinition(crd: unknown): FieldError[] {
  void crd;
  throw new Error('not implemented: CRD validation');
}
