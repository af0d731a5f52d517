/**
 * UnstructuredToVal (apiextensions-apiserver pkg/apiserver/schema/cel/values.go): a JSON value, typed by
 * its schema, as a cel-js runtime value. Integers become bigint, numbers doubles, formatted strings
 * bytes/timestamps/durations, objects Maps keyed by escaped property names (null fields absent).
 */
import { IntegralFloat } from '../json/lossless';
import { goKind } from '../validation/go-values';
import type { JSONSchemaProps } from '../schema/types';
import { additionalPropertiesSchema, escapeName, itemsSchema, withTypeAndObjectMeta } from './types';
import { parseGoDuration, durationFromNanos } from './values';
import { parseRFC3339 } from './lib/time';
import { invalidData } from './lib/errors';

/** Marks list values of list-type set/map: equality ignores order (k8s unstructuredList). */
export const UNORDERED_LIST = Symbol.for('crd-yaml.cel.unorderedList');
/** The x-kubernetes-list-map-keys of a list-type map value. */
export const MAP_KEYS = Symbol.for('crd-yaml.cel.mapListKeys');
/** On an object's Map: the JSON object it came from and which keys its schema knows (unstructuredMap). */
export const RAW_OBJECT = Symbol.for('crd-yaml.cel.rawObject');

/** What unstructuredMap.Equal needs besides the converted fields. */
export interface RawObject {
  value: Record<string, unknown>;
  /** propSchema(key) found: a property, or any key of a map with additionalProperties. */
  known(key: string): boolean;
  /** The key a field has in the converted Map (properties are escaped, map keys are not). */
  mapKey(key: string): string;
}

/** Go's %T of a decoded JSON value. */
function goTypeName(v: unknown): string {
  switch (goKind(v)) {
    case 'int':
      return 'int64';
    case 'float':
      return 'float64';
    case 'string':
      return 'string';
    case 'bool':
      return 'bool';
    case 'slice':
      return '[]interface {}';
    case 'map':
      return 'map[string]interface {}';
    default:
      return '<nil>';
  }
}

export { invalidDataMessage } from './lib/errors';

function toNumber(v: unknown): number | undefined {
  if (v instanceof IntegralFloat) return v.value;
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  return undefined;
}

function toInt(v: unknown): unknown {
  if (typeof v === 'bigint') return v;
  if (v instanceof IntegralFloat) return BigInt(v.value);
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  return v;
}

/** A JSON value without a (usable) schema: ints as bigint, objects as Maps. */
export function untypedToCel(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean' || typeof v === 'string' || typeof v === 'bigint') return v;
  if (v instanceof IntegralFloat) return v.value;
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  if (Array.isArray(v)) return v.map(untypedToCel);
  if (typeof v === 'object') {
    const m = new Map<string, unknown>();
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) m.set(k, untypedToCel(x));
    return m;
  }
  return v;
}

const BARE_KEYWORDS = new Set(['as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);

function parseDate(s: string): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return undefined;
  return parseRFC3339(`${s}T00:00:00Z`);
}

const isObjectSchema = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Conversions of the current withConversionCache scope: (raw object, schema) → CEL value. */
let scope: WeakMap<object, Map<unknown, unknown>> | undefined;
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
export function toCelValue(v: unknown, s: JSONSchemaProps | undefined): unknown {
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

function convert(v: unknown, s: JSONSchemaProps | undefined): unknown {
  if (!s || typeof s !== 'object') return untypedToCel(v);
  const kind = goKind(v);
  if (s['x-kubernetes-int-or-string'] === true) {
    if (kind === 'string') return v;
    return kind === 'int' ? toInt(v) : invalidData('invalid data, expected XIntOrString value to be either a string or integer');
  }
  switch (s.type) {
    case 'integer':
      return kind === 'int' ? toInt(v) : invalidData(`invalid data, expected int, got ${goTypeName(v)}`);
    case 'number': {
      const n = kind === 'int' || kind === 'float' ? toNumber(v) : undefined;
      return n === undefined ? invalidData(`invalid data, expected float, got ${goTypeName(v)}`) : n;
    }
    case 'boolean':
      return kind === 'bool' ? v : invalidData(`invalid data, expected bool, got ${goTypeName(v)}`);
    case 'string': {
      if (typeof v !== 'string') return invalidData(`invalid data, expected string, got ${goTypeName(v)}`);
      switch (s.format) {
        case 'byte': {
          if (!/^[A-Za-z0-9+/]*={0,2}$/.test(v)) return v;
          return new Uint8Array(Buffer.from(v, 'base64'));
        }
        case 'date-time':
          return parseRFC3339(v) ?? v;
        case 'date':
          return parseDate(v) ?? v;
        case 'duration': {
          const ns = parseGoDuration(v);
          return ns === undefined ? v : durationFromNanos(ns);
        }
      }
      return v;
    }
    case 'array': {
      if (!Array.isArray(v)) return invalidData('invalid data, expected an array for the provided schema with type=array');
      const items = itemsSchema(s);
      const embedded = items?.['x-kubernetes-embedded-resource'] === true;
      const out = v.map((x) => toCelValue(x, items && embedded ? withTypeAndObjectMetaMemo(items) : items));
      const lt = s['x-kubernetes-list-type'];
      if (lt === 'set' || lt === 'map') (out as unknown as Record<symbol, unknown>)[UNORDERED_LIST] = lt;
      if (lt === 'map') {
        // Map-list keys are property names; values are keyed by escaped names.
        const keys = Array.isArray(s['x-kubernetes-list-map-keys']) ? s['x-kubernetes-list-map-keys'] : [];
        (out as unknown as Record<symbol, unknown>)[MAP_KEYS] = keys.map((k) => escapeName(k) ?? k);
      }
      return out;
    }
    case 'object': {
      if (kind !== 'map') return invalidData('invalid data, expected a map for the provided schema with type=object');
      const o = v as Record<string, unknown>;
      const m = new Map<string, unknown>();
      // Properties win over additionalProperties (a schema the API server rejects, but defaults are still checked).
      const ap = isObjectSchema(s.properties) ? undefined : additionalPropertiesSchema(s);
      if (ap) {
        const emb = ap['x-kubernetes-embedded-resource'] === true;
        for (const [k, x] of Object.entries(o)) m.set(k, toCelValue(x, emb ? withTypeAndObjectMetaMemo(ap) : ap));
        (m as unknown as Record<symbol, RawObject>)[RAW_OBJECT] = { value: o, known: () => true, mapKey: (k) => k };
        return m;
      }
      const props = s.properties ?? {};
      for (const [k, x] of Object.entries(o)) {
        if (x === null || x === undefined) continue;
        const p = props[k];
        if (!p) {
          m.set(k, untypedToCel(x));
          continue;
        }
        const cv = toCelValue(x, p['x-kubernetes-embedded-resource'] === true ? withTypeAndObjectMetaMemo(p) : p);
        const esc = escapeName(k);
        // Unescapable names cannot be selected but still take part in equality.
        m.set(esc ?? k, cv);
        if (BARE_KEYWORDS.has(k)) m.set(k, cv);
      }
      (m as unknown as Record<symbol, RawObject>)[RAW_OBJECT] = { value: o, known: (k) => Object.prototype.hasOwnProperty.call(props, k), mapKey: (k) => escapeName(k) ?? k };
      return m;
    }
  }
  return untypedToCel(v);
}
