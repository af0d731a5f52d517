/**
 * Conversion between the conformance corpus' JSON value encoding (FORMAT.md "Values") and CEL runtime
 * values (runtime/values.ts). String-keyed JSON objects become Maps, so keys such as `constructor` or
 * `__proto__` are plain data.
 */
import { IntegralFloat } from '../../server/src/engine/json/lossless';
import { formatGoDuration, parseGoDuration, parseRFC3339 } from '../../server/src/engine/cel/runtime/time';
import { formatTimestamp } from '../../server/src/engine/cel/runtime/time';
import { Duration, Optional, Timestamp, TypeValue, isList, isOpaque, listItems, type Val } from '../../server/src/engine/cel/runtime/values';
import { Uint } from '../../server/src/engine/cel/common/types';
import { formatGoFloat } from '../../server/src/engine/json/go';

function base64ToBytes(s: string): Uint8Array {
  return new Uint8Array(Buffer.from(s, 'base64'));
}

/** A corpus JSON value (vars) as a CEL value. */
export function fromConformanceValue(v: unknown): Val {
  if (v === null || typeof v === 'boolean' || typeof v === 'string' || typeof v === 'bigint') return v;
  if (v instanceof IntegralFloat) return v.value;
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  if (Array.isArray(v)) return v.map(fromConformanceValue);
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    if (keys.length === 1 && keys[0].startsWith('$') && typeof o[keys[0]] === 'string') {
      const s = o[keys[0]] as string;
      switch (keys[0]) {
        case '$bytes':
          return base64ToBytes(s);
        case '$uint':
          return Uint.of(BigInt(s));
        case '$double':
          return Number(s === 'Infinity' || s === '+Inf' ? Infinity : s === '-Infinity' || s === '-Inf' ? -Infinity : s);
        case '$timestamp': {
          const t = parseRFC3339(s);
          if (!t) throw new Error(`invalid timestamp ${s}`);
          return t;
        }
        case '$duration': {
          const ns = parseGoDuration(s);
          if (ns === undefined) throw new Error(`invalid duration ${s}`);
          return new Duration(ns);
        }
      }
    }
    const m = new Map<Val, Val>();
    for (const k of keys) m.set(k, fromConformanceValue(o[k]));
    return m;
  }
  return v;
}

/** A CEL value as corpus JSON (what the runner compares with expect.value). */
export function toConformanceValue(v: Val): unknown {
  if (v === null || v === undefined || typeof v === 'boolean' || typeof v === 'string' || typeof v === 'bigint') return v ?? null;
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return { $double: 'NaN' };
    if (!Number.isFinite(v)) return { $double: v > 0 ? 'Infinity' : '-Infinity' };
    return Number.isInteger(v) ? new IntegralFloat(v) : v;
  }
  if (v instanceof Uint) return { $uint: v.value.toString() };
  if (v instanceof Uint8Array) return { $bytes: Buffer.from(v).toString('base64') };
  if (v instanceof Timestamp) return { $timestamp: formatTimestamp(new Timestamp(v.nanos)) };
  if (v instanceof Duration) return { $duration: formatGoDuration(v.nanos) };
  // The oracle prints other values as {"$opaque": "<TypeName>(<%v of Value()>)"}.
  if (v instanceof Optional) return { $opaque: `optional_type(${v.present ? goNative(v.value) : '<nil>'})` };
  if (v instanceof TypeValue) return { $type: v.name };
  if (isList(v)) return listItems(v).map(toConformanceValue);
  if (v instanceof Map) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of v) o[String(k instanceof Uint ? k.value : k)] = toConformanceValue(x);
    return o;
  }
  if (isOpaque(v)) return { $opaque: `${v.celTypeName}(${goNative(v)})` };
  return String(v);
}

/** Go's %v of a CEL value's native Go value (ref.Val.Value()), as the oracle prints opaque values. */
export function goNative(v: Val): string {
  if (v === null) return 'NULL_VALUE';
  switch (typeof v) {
    case 'string':
      return v;
    case 'bigint':
      return v.toString();
    case 'boolean':
      return String(v);
    case 'number':
      return formatGoFloat(v);
  }
  if (v instanceof Uint) return v.value.toString();
  if (v instanceof Uint8Array) return `[${Array.from(v).join(' ')}]`;
  if (v instanceof Duration) return formatGoDuration(v.nanos);
  if (v instanceof Optional) return v.present ? goNative(v.value) : '<nil>';
  if (isList(v)) return `[${listItems(v).map(goNative).join(' ')}]`;
  if (v instanceof Map) {
    const items = [...v].map(([k, x]) => [goNative(k), goNative(x)] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return `map[${items.map(([k, x]) => `${k}:${x}`).join(' ')}]`;
  }
  if (isOpaque(v)) return v.goString?.() ?? v.celTypeName;
  return String(v);
}
