/**
 * Structural completeness (apiextensions-apiserver pkg/apiserver/schema/complete.go): every property or
 * items named under a junctor must also be specified in the structural part of the schema, so that
 * every value validation applies to a value whose schema is known.
 */
import { required, withParams, type FieldError, type FieldPath } from '../field';
import type { NestedValueValidation, Structural, ValueValidation } from './model';
import { propertyOf } from './model';

/**
 * validateStructuralCompleteness: only the junctors of the root node are checked (recursing through
 * their nested junctors); junctors of properties are not, exactly as in Go.
 */
export function validateStructuralCompleteness(s: Structural | undefined, fldPath: FieldPath): FieldError[] {
  if (!s) return [];
  return validateValueValidationCompleteness(s.valueValidation, s, fldPath, fldPath);
}

function missing(sPath: FieldPath, vPath: FieldPath): FieldError[] {
  return [withParams(required(sPath, `because it is defined in ${vPath.toString()}`), { origin: 'completeness', definedIn: vPath.toString() })];
}

function validateValueValidationCompleteness(v: ValueValidation | undefined, s: Structural | undefined, sPath: FieldPath, vPath: FieldPath): FieldError[] {
  if (!v) return [];
  if (!s) return missing(sPath, vPath);
  const errs: FieldError[] = [];
  errs.push(...validateNestedValueValidationCompleteness(v.not, s, sPath, vPath.child('not')));
  (v.allOf ?? []).forEach((n, i) => errs.push(...validateNestedValueValidationCompleteness(n, s, sPath, vPath.child('allOf').index(i))));
  (v.anyOf ?? []).forEach((n, i) => errs.push(...validateNestedValueValidationCompleteness(n, s, sPath, vPath.child('anyOf').index(i))));
  (v.oneOf ?? []).forEach((n, i) => errs.push(...validateNestedValueValidationCompleteness(n, s, sPath, vPath.child('oneOf').index(i))));
  return errs;
}

function validateNestedValueValidationCompleteness(v: NestedValueValidation | undefined, s: Structural | undefined, sPath: FieldPath, vPath: FieldPath): FieldError[] {
  if (!v) return [];
  if (!s) return missing(sPath, vPath);
  const errs: FieldError[] = [];
  errs.push(...validateValueValidationCompleteness(v.valueValidation, s, sPath, vPath));
  errs.push(...validateNestedValueValidationCompleteness(v.items, s.items, sPath.child('items'), vPath.child('items')));
  for (const [k, vFld] of Object.entries(v.properties ?? {})) {
    const sFld = propertyOf(s.properties, k);
    // CRDs never enable AllowValidationPropertiesWithAdditionalProperties: a property not specified
    // structurally is missing even when additionalProperties is
    if (!sFld) errs.push(...missing(sPath.child('properties').key(k), vPath.child('properties').key(k)));
    else errs.push(...validateNestedValueValidationCompleteness(vFld, sFld, sPath.child('properties').key(k), vPath.child('properties').key(k)));
  }
  return errs;
}
