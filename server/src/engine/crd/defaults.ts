/**
 * Default values in a CRD schema must be pruned and must validate against their own schema
 * (apiextensions-apiserver pkg/apiserver/schema/defaulting/validation.go ValidateDefaults), run by
 * CRD validation once the schema is structural.
 */
import { FieldPath, invalid, type FieldError } from '../field';
import { pruneUnknownFields } from '../pruning/algorithm';
import { isObject, type JSONSchemaProps } from '../schema/types';
import { validateCustomResourceValue } from '../validation/custom-resource';
import { cloneJSON, semanticDeepEqual } from './json';

/** Moves a value error (path relative to the value) under `<pth>.default`. */
function under(prefix: FieldPath, e: FieldError): FieldError {
  const base = prefix.toString();
  const field = e.field === '' ? base : e.field.startsWith('[') ? base + e.field : `${base}.${e.field}`;
  const out: FieldError = { ...e, field };
  out.segments = [...prefix.segments(), ...(e.segments ?? [])];
  return out;
}

/** Whether an error means a seam is still a stub; then the check is skipped rather than failing. */
export function isNotImplemented(e: unknown): boolean {
  return e instanceof Error && e.message.startsWith('not implemented');
}

function validateDefault(node: JSONSchemaProps, pth: FieldPath, insideMeta: boolean, requirePruned: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const value = node.default;
  const embedded = node['x-kubernetes-embedded-resource'] === true;
  if (!insideMeta && requirePruned) {
    try {
      const pruned = pruneUnknownFields(cloneJSON(value), node, { isResourceRoot: embedded }).object;
      if (!semanticDeepEqual(pruned, value)) errs.push(invalid(pth.child('default'), value, 'must not have unknown fields'));
    } catch (e) {
      if (!isNotImplemented(e)) throw e;
    }
  }
  try {
    for (const e of validateCustomResourceValue(cloneJSON(value), node, { isResourceRoot: embedded })) {
      if ((e.severity ?? 'error') === 'error') errs.push(under(pth.child('default'), e));
    }
  } catch (e) {
    if (!isNotImplemented(e)) throw e;
  }
  return errs;
}

function walk(node: JSONSchemaProps, pth: FieldPath, insideMeta: boolean, isRoot: boolean, requirePruned: boolean, out: FieldError[]): void {
  // The root and every x-kubernetes-embedded-resource start a new resource whose metadata is special.
  const embedded = isRoot || node['x-kubernetes-embedded-resource'] === true;
  if (embedded) insideMeta = false;
  if (node.default !== undefined) out.push(...validateDefault(node, pth, insideMeta, requirePruned));
  // additionalProperties is not followed: defaults are forbidden there.
  if (isObject(node.items) && !Array.isArray(node.items)) walk(node.items as JSONSchemaProps, pth.child('items'), insideMeta, false, requirePruned, out);
  if (isObject(node.properties)) {
    for (const [k, sub] of Object.entries(node.properties)) {
      if (!isObject(sub)) continue;
      const subInsideMeta = insideMeta || (embedded && (k === 'metadata' || k === 'apiVersion' || k === 'kind'));
      walk(sub as JSONSchemaProps, pth.child('properties').key(k), subInsideMeta, false, requirePruned, out);
    }
  }
}

/**
 * ValidateDefaults(pth, schema, isResourceRoot=true, requirePrunedDefaults): every default is pruned
 * (no unknown fields) and valid against the schema at its place, errors under `<path>.default`.
 */
export function validateSchemaDefaults(schema: JSONSchemaProps, pth: FieldPath, requirePrunedDefaults = true): FieldError[] {
  const out: FieldError[] = [];
  walk(schema, pth, false, true, requirePrunedDefaults, out);
  return out;
}
