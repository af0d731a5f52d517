import type { FieldError } from '../field';
import type { JSONSchemaProps } from '../schema/types';

/**
 * Compiles and type-checks every x-kubernetes-validations rule of a schema as the API server does on
 * CRD create; error paths are relative to the schema root (`properties[a].x-kubernetes-validations[0].rule`).
 */
export function compileSchemaValidations(schema: JSONSchemaProps): FieldError[] {
  void schema;
  throw new Error('not implemented: CEL compile');
}
