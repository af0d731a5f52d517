import type { FieldError } from '../field';
import type { JSONSchemaProps } from '../schema/types';

export interface CelValidationOptions {
  /** The value is a whole resource (self at the root exposes apiVersion, kind, metadata.name/generateName). */
  isResourceRoot: boolean;
  /** The previous object on an update: transition rules (oldSelf) run only then. */
  oldObject?: unknown;
}

/**
 * Evaluates every x-kubernetes-validations rule of the schema on obj (after pruning and defaulting),
 * as the API server's CEL validator does, with its error types, paths and messages.
 * Seam: returns [] until the CEL engine lands.
 */
export function validateCelRules(schema: JSONSchemaProps, obj: unknown, opts: CelValidationOptions): FieldError[] {
  void schema;
  void obj;
  void opts;
  return [];
}
