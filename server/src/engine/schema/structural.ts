/**
 * The structural schema package (apiextensions-apiserver pkg/apiserver/schema), the entry point:
 *
 * - model.ts: the structural model (Structural, ValueValidation, NestedValueValidation, ...), plain data.
 * - convert.ts: newStructural(raw) -> { structural, error? } (Go's NewStructural; `error` is Go's
 *   conversion error for $ref, id, $schema, patternProperties, dependencies, additionalItems, definitions,
 *   `items` as an array, `x-kubernetes-preserve-unknown-fields: false`); toStructural(raw) ignores it.
 * - validation.ts / complete.ts: validateStructural(s, fldPath) (Go's ValidateStructural).
 * - values.ts: JSON value helpers (isJSONObject, deepCopyJSON, deepEqualJSON keeping 1 and 1.0 apart).
 */
import { internalError, type FieldError, type FieldPath } from '../field';
import { isTooDeep } from '../json/values';
import { newStructural } from './convert';
import type { JSONSchemaProps } from './types';
import { validateStructural } from './validation';

export { newStructural, toStructural, type NewStructuralResult } from './convert';
export { validateStructural, isIntOrStringAnyOfPattern, isIntOrStringAllOfPattern } from './validation';
export type { Structural, StructuralOrBool, Generic, Extensions, ValidationExtensions, ValueValidation, NestedValueValidation } from './model';

/**
 * The API server's structural-schema check (apiextensions-apiserver pkg/apiserver/schema
 * NewStructural + ValidateStructural): the NonStructural violations of an openAPIV3Schema,
 * with paths relative to fldPath (the schema root when omitted), sorted by message as Go sorts them.
 * A schema nested too deeply to recurse through gives one InternalError instead.
 *
 * Go's NewStructural conversion errors ($ref, `items` as an array, `x-kubernetes-preserve-unknown-fields:
 * false`, ...) are not reported here: they have no field path, and CRD validation reports them itself
 * from `newStructural(schema).error`. The check runs on the leniently converted model instead, so a
 * half-written schema still gets its structural findings. Never throws, whatever JSON it is given.
 */
export function validateStructuralSchema(schema: JSONSchemaProps, fldPath?: FieldPath): FieldError[] {
  try {
    const conv = newStructural(schema);
    if (conv.tooDeep) return [internalError(fldPath ?? null, 'the schema is nested too deeply to be checked')];
    return validateStructural(conv.structural, fldPath);
  } catch (e) {
    if (isTooDeep(e)) return [internalError(fldPath ?? null, 'the schema is nested too deeply to be checked')];
    throw e;
  }
}
