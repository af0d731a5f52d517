/**
 * Default values in a CRD schema must be pruned and must validate against their own schema
 * (ValidateDefaults, engine/defaulting/validation.ts), run by CRD validation once the schema is
 * structural. This module supplies the value validator and guards seams that are still stubs.
 */
import type { FieldError, FieldPath } from '../field';
import { validateDefaults } from '../defaulting/validation';
import { newStructural } from '../schema/structural';
import { isObject, type JSONSchemaProps } from '../schema/types';
import { validateCustomResourceValue } from '../validation/custom-resource';
import { cloneJSON } from './json';

/** Moves a value error (path relative to the value) under `dpath` (which ends in `.default`). */
function under(dpath: FieldPath, e: FieldError): FieldError {
  const base = dpath.toString();
  const field = e.field === '' ? base : e.field.startsWith('[') ? base + e.field : `${base}.${e.field}`;
  return { ...e, field, segments: [...dpath.segments(), ...(e.segments ?? [])] };
}

/** Whether an error means a seam is still a stub; then the check is skipped rather than failing. */
export function isNotImplemented(e: unknown): boolean {
  return e instanceof Error && e.message.startsWith('not implemented');
}

function validateValue(dpath: FieldPath, value: unknown, raw: unknown): FieldError[] {
  if (!isObject(raw)) return [];
  try {
    return validateCustomResourceValue(cloneJSON(value), raw as JSONSchemaProps, { isResourceRoot: false })
      .filter((e) => (e.severity ?? 'error') === 'error')
      .map((e) => under(dpath, e));
  } catch (e) {
    if (isNotImplemented(e)) return [];
    throw e;
  }
}

/**
 * ValidateDefaults(pth, schema, isResourceRoot=true, requirePrunedDefaults): every default is pruned
 * (no unknown fields) and valid against the schema at its place, errors under `<path>.default`.
 */
export function validateSchemaDefaults(schema: JSONSchemaProps, pth: FieldPath, requirePrunedDefaults = true): FieldError[] {
  const s = newStructural(schema).structural;
  return validateDefaults(pth, s, schema, { isResourceRoot: true, requirePrunedDefaults }, {
    validateValue: (dpath, value, node) => validateValue(dpath, value, node.raw),
  });
}
