/**
 * Partial custom resources: patches (kustomize `patches` / `patchesStrategicMerge`, which for custom
 * resources merge as JSON merge patches, RFC 7386) and objects a template fills in. The API server never
 * sees such an object alone, so the checks here are those whose answer cannot change when the missing
 * parts are added: the types, formats, enums, patterns and bounds of the values present, unknown fields,
 * and rules on values that a merge replaces whole.
 *
 * A merge patch merges objects key by key and replaces scalars and lists; kustomize also merges lists of
 * objects by a `name`-like key. So scalars and lists of scalars are complete, objects and lists of objects
 * may not be. Not checked: required fields, `minProperties`, `anyOf`/`oneOf`/`allOf`/`not` and CEL rules
 * on objects and lists of objects, `minItems` and list-type map/set checks on lists of objects.
 */
import type { JSONSchemaProps } from '../schema/types';
import { isJSONObject } from '../json/values';

const cache = new WeakMap<object, JSONSchemaProps>();

/** The schema a partial object is checked against (cached per schema object; the input is not changed). */
export function partialObjectSchema(schema: JSONSchemaProps): JSONSchemaProps {
  let out = cache.get(schema);
  if (!out) {
    out = transform(schema, 0);
    cache.set(schema, out);
  }
  return out;
}

function isObjectSchema(s: JSONSchemaProps): boolean {
  return s.type === 'object' || (s.type === undefined && (isJSONObject(s.properties) || isJSONObject(s.additionalProperties) || s['x-kubernetes-embedded-resource'] === true));
}

function isListOfObjects(s: JSONSchemaProps): boolean {
  return s.type === 'array' && isJSONObject(s.items) && isObjectSchema(s.items as JSONSchemaProps);
}

function transform(s: JSONSchemaProps, depth: number): JSONSchemaProps {
  if (!isJSONObject(s) || depth > 1000) return s;
  const out: JSONSchemaProps = { ...s };
  if (isJSONObject(s.properties)) {
    const props: Record<string, JSONSchemaProps> = {};
    for (const [k, v] of Object.entries(s.properties)) props[k] = transform(v, depth + 1);
    out.properties = props;
  }
  if (isJSONObject(s.additionalProperties)) out.additionalProperties = transform(s.additionalProperties as JSONSchemaProps, depth + 1);
  if (isJSONObject(s.items)) out.items = transform(s.items as JSONSchemaProps, depth + 1);
  if (isObjectSchema(s)) {
    for (const k of ['required', 'minProperties', 'anyOf', 'oneOf', 'allOf', 'not', 'dependencies', 'x-kubernetes-validations'] as const) delete out[k];
  } else if (isListOfObjects(s)) {
    for (const k of ['minItems', 'x-kubernetes-validations', 'x-kubernetes-list-map-keys'] as const) delete out[k];
    if (out['x-kubernetes-list-type'] !== undefined) out['x-kubernetes-list-type'] = 'atomic';
  } else {
    // A scalar or a list of scalars is replaced whole by a merge: its junctors still apply, without
    // the object-level keywords they may carry.
    for (const k of ['anyOf', 'oneOf', 'allOf'] as const) {
      const list = s[k];
      if (Array.isArray(list)) out[k] = list.map((b) => transform(b, depth + 1));
    }
  }
  return out;
}

/** The keys of strategic merge patch directives (`$patch`, `$retainKeys`, `$setElementOrder/x`, `$deleteFromPrimitiveList/x`). */
export function isPatchDirective(key: string): boolean {
  return key === '$patch' || key === '$retainKeys' || key.startsWith('$setElementOrder/') || key.startsWith('$deleteFromPrimitiveList/');
}

/** A copy of a patch without its strategic merge directives (they are instructions, not fields). */
export function withoutPatchDirectives(v: unknown, depth = 0): unknown {
  if (depth > 1000) return v;
  if (Array.isArray(v)) return v.map((x) => withoutPatchDirectives(x, depth + 1));
  if (!isJSONObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (isPatchDirective(k)) continue;
    Object.defineProperty(out, k, { value: withoutPatchDirectives(x, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
