/**
 * apiserver pkg/cel/common MakeMapList: how an update correlates the items of an
 * `x-kubernetes-list-type: map` list with the old list's, for ratcheting and for `oldSelf`.
 *
 * An item correlates only when it has every map key and each key is a scalar (bool, int64, float64,
 * string); the first old item with the same key tuple wins. An item missing a key correlates with
 * nothing, so its errors are never ratcheted.
 */
import type { JSONSchemaProps } from '../schema/types';
import { asFloat64, asInt64, goKind } from '../json/go';
import { isJSONObject } from '../json/values';

/** A lookup of old items by the key tuple of a new item. */
export interface MapList {
  /** The first old item whose keys equal item's, or undefined (also when item has no usable key). */
  get(item: unknown): unknown;
}

const EMPTY: MapList = { get: () => undefined };

/** The x-kubernetes-list-map-keys of a schema (strings only). */
export function listMapKeys(s: JSONSchemaProps): string[] {
  const keys = s['x-kubernetes-list-map-keys'];
  return Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : [];
}

/** Go's %f of a float64: fixed, six decimals. */
function goFixed(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  if (Math.abs(f) < 1e21) return f.toFixed(6);
  return BigInt(f).toString() + '.000000';
}

/**
 * singleKeyStrategy / multiKeyStrategy CompositeKeyFor: a string standing for Go's key (the single
 * key's dynamic type and value; or the delimited %t/%f/%d/%q of every key), or undefined.
 */
function compositeKey(item: Record<string, unknown>, keys: string[]): string | undefined {
  let out = '';
  for (const k of keys) {
    if (!Object.hasOwn(item, k)) return undefined;
    const v = item[k];
    switch (goKind(v)) {
      case 'bool':
        out += '\u0000b' + String(v);
        break;
      case 'int':
        out += '\u0000i' + asInt64(v).toString();
        break;
      case 'float': {
        const f = asFloat64(v);
        // NaN is never equal to itself as a Go map key.
        if (Number.isNaN(f)) return undefined;
        out += '\u0000f' + (keys.length === 1 ? String(f) : goFixed(f));
        break;
      }
      case 'string':
        out += '\u0000s' + JSON.stringify(v);
        break;
      default:
        return undefined;
    }
  }
  return out;
}

/**
 * MakeMapList(schema, items): empty unless the schema is an array with list-type map and keys and
 * there are items. Items are keyed lazily, in order, as Go does.
 */
export function makeMapList(s: JSONSchemaProps | undefined, items: unknown[] | undefined): MapList {
  if (!s || !isJSONObject(s) || s.type !== 'array' || s['x-kubernetes-list-type'] !== 'map' || !items || items.length === 0) return EMPTY;
  const keys = listMapKeys(s);
  if (keys.length === 0) return EMPTY;
  const keyed = new Map<string, unknown>();
  let next = 0;
  return {
    get(item: unknown): unknown {
      if (!isJSONObject(item)) return undefined;
      const key = compositeKey(item, keys);
      if (key === undefined) return undefined;
      if (keyed.has(key)) return keyed.get(key);
      while (next < items.length) {
        const old = items[next++];
        if (!isJSONObject(old)) continue;
        const k = compositeKey(old, keys);
        if (k === undefined) continue;
        if (!keyed.has(k)) keyed.set(k, old);
        if (k === key) return old;
      }
      return undefined;
    },
  };
}
