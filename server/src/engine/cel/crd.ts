import type { FieldError, FieldPath } from '../field';
import type { JSONSchemaProps } from '../schema/types';

/**
 * The CEL part of CRD validation on create: every rule compiled and type-checked against the schema,
 * messageExpression/fieldPath/reason/optionalOldSelf checked, and the cost budget (per rule and per CRD)
 * enforced, with paths under schemaPath (e.g. `spec.validation.openAPIV3Schema`).
 * Seam: returns [] until the CEL engine lands.
 */
export function validateCrdCelRules(schema: JSONSchemaProps, schemaPath: FieldPath): FieldError[] {
  void schema;
  void schemaPath;
  return [];
}
