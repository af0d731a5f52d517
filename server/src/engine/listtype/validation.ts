/**
 * apiextensions-apiserver pkg/apiserver/schema/listtype: arrays with x-kubernetes-list-type `set` must
 * have unique elements, `map` unique key tuples. Paths are field.Path style (`m[key]`, `l[0]`).
 */
import { duplicate, invalid, type FieldPath, type FieldError } from '../field';
import type { JSONSchemaProps } from '../schema/types';
import { goJSON, goKind, asInt64, asFloat64 } from '../json/go';
import { isJSONObject } from '../json/values';
import { markedBelow } from '../schema/marked';

/** ValidateListSetsAndMaps(fldPath, schema, obj): obj must be an object, as at the Go call sites. */
export function validateListSetsAndMaps(fldPath: FieldPath, s: JSONSchemaProps | undefined, obj: unknown): FieldError[] {
  const errs: FieldError[] = [];
  listSetsAndMaps(errs, fldPath, s, obj);
  return errs;
}

/** The errors of validateListSetsAndMaps, appended to `errs` (one list for the whole walk). */
function listSetsAndMaps(errs: FieldError[], fldPath: FieldPath, s: JSONSchemaProps | undefined, obj: unknown): void {
  // Nothing to look at where no set or map list can be below.
  if (!s || !isJSONObject(obj) || !markedBelow(s, 'listType')) return;
  // Only into subtrees that may hold a set or map list (no path made for the others).
  const ap = s.additionalProperties;
  const keys = Object.keys(obj);
  if (isJSONObject(ap) && markedBelow(ap, 'listType')) {
    for (let i = 0; i < keys.length; i++) listValue(errs, fldPath.key(keys[i]), ap as JSONSchemaProps, obj[keys[i]]);
  }
  const props = isJSONObject(s.properties) ? (s.properties as Record<string, JSONSchemaProps>) : undefined;
  if (props) {
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      const sub = props[k];
      if (Object.hasOwn(props, k) && isJSONObject(sub) && markedBelow(sub, 'listType')) listValue(errs, fldPath.child(k), sub, obj[k]);
    }
  }
}

function listValue(errs: FieldError[], fldPath: FieldPath, s: JSONSchemaProps, obj: unknown): void {
  if (Array.isArray(obj)) listArray(errs, fldPath, s, obj);
  else if (isJSONObject(obj)) listSetsAndMaps(errs, fldPath, s, obj);
}

function listArray(errs: FieldError[], fldPath: FieldPath, s: JSONSchemaProps, obj: unknown[]): void {
  if (s['x-kubernetes-list-type'] === 'set') {
    for (const i of nonUniqueIndices(obj)) errs.push(duplicate(fldPath.index(i), obj[i]));
  } else if (s['x-kubernetes-list-type'] === 'map') {
    for (const e of validateListMap(fldPath, s, obj)) errs.push(e);
  }
  if (isJSONObject(s.items) && markedBelow(s.items, 'listType')) {
    for (let i = 0; i < obj.length; i++) listValue(errs, fldPath.index(i), s.items as JSONSchemaProps, obj[i]);
  }
}

/** A marker for a list-map element without its key (Go's unspecifiedKeyValue{}). */
const UNSPECIFIED = Symbol('unspecified key');

/**
 * Go's comparison key: scalars by dynamic type and value (int64(1) != float64(1)), compound values by
 * their JSON encoding (where 1 and 1.0 coincide).
 */
function identity(x: unknown): string {
  if (x === UNSPECIFIED) return 'u';
  switch (goKind(x)) {
    case 'map':
    case 'slice':
      return 'j' + goJSON(x);
    case 'nil':
      return 'n';
    case 'bool':
      return 'b' + String(x);
    case 'int':
      return 'i' + asInt64(x).toString();
    case 'float':
      return 'f' + String(asFloat64(x));
    case 'string':
      return 's' + (x as string);
    default:
      return '?';
  }
}

/** validateListSet: the index of each value's second occurrence (a third copy is not reported again). */
function nonUniqueIndices(obj: unknown[]): readonly number[] {
  if (obj.length <= 1) return NONE;
  const seen = new Map<string, number>();
  const out: number[] = [];
  obj.forEach((x, i) => {
    const id = identity(x);
    const times = seen.get(id);
    if (times === undefined) seen.set(id, 1);
    else {
      seen.set(id, times + 1);
      if (times === 1) out.push(i);
    }
  });
  return out;
}

const NONE: readonly number[] = [];
const NO_ERRORS: readonly FieldError[] = [];

function validateListMap(fldPath: FieldPath, s: JSONSchemaProps, obj: unknown[]): readonly FieldError[] {
  for (let i = 0; i < obj.length; i++) {
    const x = obj[i];
    if (x !== null && x !== undefined && !isJSONObject(x)) return [invalid(fldPath.index(i), x, 'must be an object for an array of list-type map')];
  }
  if (obj.length <= 1) return NO_ERRORS;
  const keyFields = Array.isArray(s['x-kubernetes-list-map-keys']) ? s['x-kubernetes-list-map-keys'].filter((k): k is string => typeof k === 'string') : [];
  if (keyFields.length === 1) {
    const keyField = keyFields[0];
    const keys: unknown[] = obj.map((x) => (isJSONObject(x) && Object.hasOwn(x, keyField) ? x[keyField] : UNSPECIFIED));
    return nonUniqueIndices(keys).map((i) => duplicate(fldPath.index(i), keys[i] === UNSPECIFIED ? {} : { [keyField]: keys[i] }));
  }
  const keys = obj.map((x) => {
    const key: Record<string, unknown> = {};
    if (isJSONObject(x)) for (const f of keyFields) if (Object.hasOwn(x, f)) key[f] = x[f];
    return key;
  });
  return nonUniqueIndices(keys).map((i) => duplicate(fldPath.index(i), keys[i]));
}
