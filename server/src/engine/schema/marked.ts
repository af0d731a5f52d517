/**
 * Whether a schema node, or a node below it through properties, additionalProperties or items (the way
 * the value walks go: CEL rules, embedded resources, list types), carries a marker. A walk over a value
 * skips the subtrees whose schema has none. Memoized per node (parsed schemas are not changed).
 */
import { isJSONObject } from '../json/values';

/** The markers a value walk looks for. */
const MARKERS = {
  /** x-kubernetes-validations with at least one rule (cel hasXValidations). */
  rules: (s: Record<string, unknown>) => Array.isArray(s['x-kubernetes-validations']) && s['x-kubernetes-validations'].length > 0,
  /** x-kubernetes-embedded-resource: true. */
  embeddedResource: (s: Record<string, unknown>) => s['x-kubernetes-embedded-resource'] === true,
  /** x-kubernetes-list-type set or map (the list types whose values are checked). */
  listType: (s: Record<string, unknown>) => s['x-kubernetes-list-type'] === 'set' || s['x-kubernetes-list-type'] === 'map',
};

export type SchemaMarker = keyof typeof MARKERS;

const memo: Record<SchemaMarker, WeakMap<object, boolean>> = { rules: new WeakMap(), embeddedResource: new WeakMap(), listType: new WeakMap() };

/** Does the node, or a property, additionalProperties or items below it, carry the marker? */
export function markedBelow(s: unknown, marker: SchemaMarker): boolean {
  if (!isJSONObject(s)) return false;
  const seen = memo[marker];
  let r = seen.get(s);
  if (r !== undefined) return r;
  // A node met again while it is being looked at (a cyclic schema, made with YAML aliases) counts as
  // marked: the walk then goes on as it would without this shortcut.
  seen.set(s, true);
  const below = (v: unknown) => markedBelow(v, marker);
  r = MARKERS[marker](s) || below(s.items) || below(s.additionalProperties) || (isJSONObject(s.properties) && Object.values(s.properties).some(below));
  seen.set(s, r);
  return r;
}
