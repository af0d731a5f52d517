/**
 * UnstructuredToVal (apiserver pkg/cel/common/valuesunstructured.go): a JSON value, typed by its
 * schema, as a CEL runtime value. Integers become bigint, numbers doubles, formatted strings
 * bytes/timestamps/durations, objects Maps keyed by escaped property names (null fields absent), lists
 * of x-kubernetes-list-type set/map keep their semantics. A value of the wrong JSON type for its schema
 * becomes the API server's "invalid data" error value, which fails any rule that reads it.
 */
import { IntegralFloat } from '../../json/lossless';
import type { JSONSchemaProps } from '../types';
import { goKind, goTypeName } from '../../json/go';
import { additionalPropertiesSchema, itemsSchema, withTypeAndObjectMeta } from './model';
import { escapeName } from '../../cel/common/types';
import { parseDate, parseGoDuration, parseRFC3339 } from '../../cel/runtime/time';
import { CelError, Duration, K8S_OBJECT, K8S_RAW, LIST_MAP_KEYS, LIST_TYPE, type TaggedList, type Val } from '../../cel/runtime/values';

/** A JSON value without a (usable) schema: ints as bigint, objects as Maps. */
export function untypedToCel(v: unknown): Val {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean' || typeof v === 'string' || typeof v === 'bigint') return v;
  if (v instanceof IntegralFloat) return v.value;
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  if (Array.isArray(v)) return v.map(untypedToCel);
  if (typeof v === 'object') {
    const m = new Map<string, Val>();
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) m.set(k, untypedToCel(x));
    return m;
  }
  return v;
}

/** Conversions of the current withConversionCache scope: (raw object, schema) -> CEL value. */
let scope: WeakMap<object, Map<unknown, Val>> | undefined;
const metaMemo = new WeakMap<JSONSchemaProps, JSONSchemaProps>();

/** withTypeAndObjectMeta, memoized so converted embedded objects are found in the cache again. */
export function withTypeAndObjectMetaMemo(s: JSONSchemaProps): JSONSchemaProps {
  let m = metaMemo.get(s);
  if (!m) metaMemo.set(s, (m = withTypeAndObjectMeta(s)));
  return m;
}

/**
 * Runs fn with a conversion cache: the validator converts each node's value for its rules, and the
 * values of nested nodes again for theirs; reusing them keeps deep objects linear instead of
 * quadratic. Scoped to one call because callers may change raw objects between calls.
 */
export function withConversionCache<T>(fn: () => T): T {
  const prev = scope;
  scope = new WeakMap();
  try {
    return fn();
  } finally {
    scope = prev;
  }
}

/** The CEL runtime value of v typed by schema s (which must already carry root/embedded metadata). */
export function toCelValue(v: unknown, s: JSONSchemaProps | undefined): Val {
  if (v === null || v === undefined) return null;
  if (scope && typeof v === 'object' && !(v instanceof IntegralFloat)) {
    let m = scope.get(v as object);
    if (!m) scope.set(v as object, (m = new Map()));
    if (m.has(s)) return m.get(s);
    const out = convert(v, s);
    m.set(s, out);
    return out;
  }
  return convert(v, s);
}

/**
 * UnstructuredToVal of a null list item or map value (object properties that are null are absent
 * instead): null where the schema is nullable, else the invalid-data error.
 */
function nullElement(s: JSONSchemaProps | undefined): Val {
  return s && typeof s === 'object' && s.nullable !== true ? new CelError('invalid data, got null for schema with nullable=false') : null;
}

function invalid(expected: string, v: unknown): CelError {
  return new CelError(`invalid data, expected ${expected}, got ${goTypeName(v)}`);
}

function convert(v: unknown, s: JSONSchemaProps | undefined): Val {
  if (!s || typeof s !== 'object') return untypedToCel(v);
  const kind = goKind(v);
  if (s['x-kubernetes-int-or-string'] === true) {
    if (kind === 'string') return v;
    if (kind === 'int') return typeof v === 'bigint' ? v : BigInt(v as number);
    return new CelError('invalid data, expected XIntOrString value to be either a string or integer');
  }
  switch (s.type) {
    case 'integer':
      if (kind === 'int') return typeof v === 'bigint' ? v : BigInt(v as number);
      return invalid('int', v);
    case 'number':
      if (v instanceof IntegralFloat) return v.value;
      if (kind === 'int' || kind === 'float') return typeof v === 'bigint' ? Number(v) : (v as number);
      return invalid('float', v);
    case 'boolean':
      return kind === 'bool' ? v : invalid('bool', v);
    case 'string': {
      if (typeof v !== 'string') return invalid('string', v);
      switch (s.format) {
        case 'byte': {
          if (!/^[A-Za-z0-9+/]*={0,2}$/.test(v)) return new CelError(`Invalid byte formatted string ${v}: illegal base64 data`);
          return new Uint8Array(Buffer.from(v, 'base64'));
        }
        case 'date-time':
          return parseRFC3339(v) ?? new CelError(`Invalid date-time formatted string ${v}`);
        case 'date':
          return parseDate(v) ?? new CelError(`Invalid date formatted string ${v}`);
        case 'duration': {
          const ns = parseGoDuration(v);
          return ns === undefined ? new CelError(`Invalid duration ${v}`) : new Duration(ns);
        }
      }
      return v;
    }
    case 'array': {
      if (!Array.isArray(v)) return new CelError('invalid data, expected an array for the provided schema with type=array');
      const items = itemsSchema(s);
      const embedded = items?.['x-kubernetes-embedded-resource'] === true;
      const out = v.map((x) => (x === null ? nullElement(items) : toCelValue(x, items && embedded ? withTypeAndObjectMetaMemo(items) : items))) as TaggedList;
      const lt = s['x-kubernetes-list-type'];
      if (lt === 'set' || lt === 'map') out[LIST_TYPE] = lt;
      if (lt === 'map') {
        // Map-list keys are property names; values are keyed by escaped names.
        const keys = Array.isArray(s['x-kubernetes-list-map-keys']) ? (s['x-kubernetes-list-map-keys'] as string[]) : [];
        out[LIST_MAP_KEYS] = keys.map((k) => escapeName(k) ?? k);
      }
      return out;
    }
    case 'object': {
      if (kind !== 'map') return new CelError('invalid data, expected a map for the provided schema with type=object');
      const o = v as Record<string, unknown>;
      const m = new Map<Val, Val>();
      const props = s.properties && typeof s.properties === 'object' ? s.properties : undefined;
      // Properties win over additionalProperties (a schema the API server rejects, but defaults are still checked).
      const ap = props ? undefined : additionalPropertiesSchema(s);
      if (ap) {
        const emb = ap['x-kubernetes-embedded-resource'] === true;
        for (const [k, x] of Object.entries(o)) m.set(k, x === null ? nullElement(ap) : toCelValue(x, emb ? withTypeAndObjectMetaMemo(ap) : ap));
        // unstructuredMap: equality and size count the JSON object's entries.
        (m as unknown as Record<symbol, unknown>)[K8S_RAW] = o;
        return m;
      }
      (m as unknown as Record<symbol, unknown>)[K8S_OBJECT] = props ?? {};
      (m as unknown as Record<symbol, unknown>)[K8S_RAW] = o;
      if (!props) return m;
      for (const [k, x] of Object.entries(o)) {
        if (x === null || x === undefined) continue;
        const p = props[k];
        if (!p) continue;
        const cv = toCelValue(x, p['x-kubernetes-embedded-resource'] === true ? withTypeAndObjectMetaMemo(p) : p);
        m.set(escapeName(k) ?? k, cv);
      }
      return m;
    }
  }
  if (s['x-kubernetes-preserve-unknown-fields'] === true) return untypedToCel(v);
  return untypedToCel(v);
}
