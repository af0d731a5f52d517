/**
 * CEL equality and ordering (cel-go types.Equal and traits.Comparer, with heterogeneous numeric
 * equality and CrossTypeNumericComparisons), and the Kubernetes list-type semantics of
 * x-kubernetes-list-type set/map lists (apiserver pkg/cel/common valuesunstructured.go): `==` on
 * such a list ignores order (the left operand decides), `+` unions (set) or merges by key (map).
 */
import {
  CelError,
  ConcatList,
  Duration,
  LIST_MAP_KEYS,
  K8S_OBJECT,
  K8S_RAW,
  LIST_TYPE,
  MutableList,
  Optional,
  Timestamp,
  TypeValue,
  isList,
  isOpaque,
  listItems,
  listSize,
  listTypeOf,
  typeName,
  type CelList,
  type TaggedList,
  type Val,
} from './values';
import { Uint } from '../common/types';
import { escapeName } from '../common/types';

function numeric(v: Val): number | bigint | undefined {
  if (typeof v === 'bigint' || typeof v === 'number') return v;
  if (v instanceof Uint) return v.value;
  return undefined;
}

/**
 * Compares two numbers of any CEL numeric type (NaN compares as NaN): int with uint exactly, an int or
 * uint with a double as cel-go's compareIntDouble/compareUintDouble do, the integer converted to double
 * (lossy beyond 2^53: 9223372036854775807 == 9223372036854775808.0).
 */
function cmpNum(a: number | bigint, b: number | bigint): number {
  if (typeof a === 'number' && Number.isNaN(a)) return NaN;
  if (typeof b === 'number' && Number.isNaN(b)) return NaN;
  if (typeof a !== typeof b) {
    a = Number(a);
    b = Number(b);
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

function cmpBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** Go string ordering (bytes of UTF-8 = code point order), which differs from UTF-16 order above U+FFFF. */
export function cmpString(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (astral code points) sort after every BMP character in code point order.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/**
 * The order of two values (`<` and friends, and sorting); undefined when the values are not comparable
 * (the caller reports "no such overload").
 */
export function celCompare(a: Val, b: Val): number | undefined {
  const na = numeric(a);
  if (na !== undefined) {
    const nb = numeric(b);
    return nb === undefined ? undefined : cmpNum(na, nb);
  }
  if (typeof a === 'string') return typeof b === 'string' ? cmpString(a, b) : undefined;
  if (typeof a === 'boolean') return typeof b === 'boolean' ? (a === b ? 0 : a ? 1 : -1) : undefined;
  if (a instanceof Uint8Array) return b instanceof Uint8Array ? cmpBytes(a, b) : undefined;
  if (a instanceof Timestamp) return b instanceof Timestamp ? (a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0) : undefined;
  if (a instanceof Duration) return b instanceof Duration ? (a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0) : undefined;
  return undefined;
}

let errorKeys = 0;

/**
 * The key of a scalar set element (setElementKey): type and value; lists and maps are not allowed. Invalid
 * data (UnstructuredToVal's error value) keys by its identity in Go, and every conversion makes a new
 * one: it matches nothing, so a set list holding one equals no list (not even itself).
 */
function setElementKey(v: Val): string | CelError {
  if (isList(v) || v instanceof Map) return new CelError('listSet operations are only supported on lists of scalar values');
  if (v instanceof CelError) return `!err:${errorKeys++}`;
  if (v instanceof Uint) return `u:${v.value}`;
  if (typeof v === 'bigint') return `i:${v}`;
  if (typeof v === 'number') return `d:${v}`;
  if (typeof v === 'string') return `s:${v}`;
  if (typeof v === 'boolean') return `b:${v}`;
  if (v instanceof Uint8Array) return `y:${Buffer.from(v).toString('base64')}`;
  if (v instanceof Timestamp || v instanceof Duration) return `${typeName(v)}:${v.nanos}`;
  return `${typeName(v)}:${String(v)}`;
}

function mapListKey(v: Val, keys: readonly string[]): string {
  if (!(v instanceof Map)) return `!${typeName(v)}`;
  return keys
    .map((k) => (v.has(k) ? setElementKey(v.get(k)) : 'absent'))
    .map(String)
    .join('\u0000');
}

/** cel-go's Equal as a boolean, or the error a set-list comparison raises. */
export function celEqualsOrError(a: Val, b: Val): boolean | CelError {
  // Invalid data inside a value (UnstructuredToVal's error) fails the comparison that reaches it.
  if (a instanceof CelError) return a;
  if (b instanceof CelError) return b;
  if (a === b) return typeof a !== 'number' || !Number.isNaN(a);
  const na = numeric(a);
  if (na !== undefined) {
    const nb = numeric(b);
    return nb !== undefined && cmpNum(na, nb) === 0;
  }
  if (isList(a)) {
    if (!isList(b)) return false;
    const n = listSize(a);
    if (n !== listSize(b)) return false;
    const lt = listTypeOf(a);
    if (lt === 'set') return setEquals(a as TaggedList, b);
    if (lt === 'map') return mapListEquals(a as TaggedList, b);
    const x = listItems(a);
    const y = listItems(b);
    for (let i = 0; i < n; i++) {
      const e = celEqualsOrError(x[i], y[i]);
      if (e !== true) return e;
    }
    return true;
  }
  if (a instanceof Map) {
    if (!(b instanceof Map)) return false;
    const raw = (a as unknown as Record<symbol, Record<string, unknown> | undefined>)[K8S_RAW];
    if (raw) return objectEquals(a, raw, b);
    if (a.size !== b.size) return false;
    for (const [k, v] of a) {
      const found = mapLookup(b, k);
      if (!found.found) return false;
      const e = celEqualsOrError(v, found.value);
      if (e !== true) return e;
    }
    return true;
  }
  if (typeof a === 'string' || typeof a === 'boolean' || a === null) return false;
  if (a instanceof Uint8Array) return b instanceof Uint8Array && cmpBytes(a, b) === 0;
  if (a instanceof Timestamp) return b instanceof Timestamp && a.nanos === b.nanos;
  if (a instanceof Duration) return b instanceof Duration && a.nanos === b.nanos;
  if (a instanceof TypeValue) return b instanceof TypeValue && a.name === b.name;
  if (a instanceof Optional) {
    if (!(b instanceof Optional) || a.present !== b.present) return false;
    return !a.present || celEqualsOrError(a.value, b.value);
  }
  if (isOpaque(a)) return isOpaque(b) && a.celTypeName === b.celTypeName && a.equals(b);
  return false;
}

/** cel-go's Equal (errors of set-list comparisons count as unequal). */
export function celEquals(a: Val, b: Val): boolean {
  return celEqualsOrError(a, b) === true;
}

/**
 * unstructuredMap.Equal: sizes count every field of the raw objects; declared fields compare as CEL
 * values, undeclared ones (kept by x-kubernetes-preserve-unknown-fields) by deep equality of the JSON.
 */
function objectEquals(a: ReadonlyMap<Val, Val>, raw: Record<string, unknown>, b: ReadonlyMap<Val, Val>): boolean | CelError {
  // Objects know their properties; maps (additionalProperties) know every key.
  const props = (a as unknown as Record<symbol, Record<string, unknown> | undefined>)[K8S_OBJECT];
  const oraw = (b as unknown as Record<symbol, Record<string, unknown> | undefined>)[K8S_RAW];
  if (Object.keys(raw).length !== (oraw ? Object.keys(oraw).length : b.size)) return false;
  for (const key of Object.keys(raw)) {
    if (!props || Object.hasOwn(props, key)) {
      const esc = props ? (escapeName(key) ?? key) : key;
      const v = a.get(esc);
      const found = a.has(esc);
      const ofound = b.has(esc);
      if (found !== ofound) return false;
      if (!found) continue;
      const e = celEqualsOrError(v, b.get(esc));
      if (e !== true) return e;
    } else if (oraw && Object.hasOwn(oraw, key)) {
      if (!jsonDeepEqual(raw[key], oraw[key])) return false;
    }
  }
  return true;
}

function jsonDeepEqual(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (typeof x !== typeof y || x === null || y === null || typeof x !== 'object') {
    const nx = typeof x === 'object' && x !== null && 'value' in (x as object) ? (x as { value: unknown }).value : x;
    const ny = typeof y === 'object' && y !== null && 'value' in (y as object) ? (y as { value: unknown }).value : y;
    return nx === ny;
  }
  if (Array.isArray(x) !== Array.isArray(y)) return false;
  if (Array.isArray(x)) return x.length === (y as unknown[]).length && x.every((e, i) => jsonDeepEqual(e, (y as unknown[])[i]));
  const kx = Object.keys(x as object);
  const ky = Object.keys(y as object);
  return kx.length === ky.length && kx.every((k) => Object.hasOwn(y as object, k) && jsonDeepEqual((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k]));
}

function setEquals(a: TaggedList, b: CelList): boolean | CelError {
  const set = new Set<string>();
  for (const x of a) {
    const k = setElementKey(x);
    if (k instanceof CelError) return k;
    set.add(k);
  }
  const seen = new Set<string>();
  for (const y of listItems(b)) {
    const k = setElementKey(y);
    if (k instanceof CelError) return k;
    if (!set.has(k)) return false;
    seen.add(k);
  }
  return seen.size === set.size;
}

function mapListEquals(a: TaggedList, b: CelList): boolean | CelError {
  const keys = a[LIST_MAP_KEYS] ?? [];
  const byKey = new Map<string, Val>();
  for (const x of a) byKey.set(mapListKey(x, keys), x);
  const seen = new Set<string>();
  for (const y of listItems(b)) {
    const k = mapListKey(y, keys);
    if (!byKey.has(k)) return false;
    const e = celEqualsOrError(byKey.get(k), y);
    if (e !== true) return e;
    seen.add(k);
  }
  return seen.size === byKey.size;
}

/** Map lookup with CEL key equality (numeric keys match across int/uint/double). */
export function mapLookup(m: ReadonlyMap<Val, Val>, k: Val): { found: boolean; value?: Val } {
  if (m.has(k)) return { found: true, value: m.get(k) };
  const n = numeric(k);
  if (n === undefined) return { found: false };
  // Heterogeneous numeric keys: 1, 1u and 1.0 name the same entry.
  if (typeof n === 'number' && !Number.isInteger(n)) return { found: false };
  const i = typeof n === 'bigint' ? n : BigInt(n);
  if (m.has(i)) return { found: true, value: m.get(i) };
  if (i >= 0n) {
    const u = Uint.of(i);
    if (m.has(u)) return { found: true, value: m.get(u) };
  }
  return { found: false };
}

/** `a + b` on lists: a set/map list on the left unions/merges; other lists concatenate without copying. */
export function addLists(a: CelList, b: CelList): CelList | CelError {
  if (a instanceof MutableList) {
    // A comprehension accumulator: appended in place (cel-go's mutable list).
    for (const x of listItems(b)) a.items.push(x);
    return a;
  }
  const lt = listTypeOf(a);
  if (lt === 'set') {
    const out = [...(a as TaggedList)] as TaggedList;
    const set = new Set<string>();
    for (const x of out) {
      const k = setElementKey(x);
      if (k instanceof CelError) return k;
      set.add(k);
    }
    for (const y of listItems(b)) {
      const k = setElementKey(y);
      if (k instanceof CelError) return k;
      if (!set.has(k)) {
        set.add(k);
        out.push(y);
      }
    }
    out[LIST_TYPE] = 'set';
    return out;
  }
  if (lt === 'map') {
    const keys = (a as TaggedList)[LIST_MAP_KEYS] ?? [];
    const out = [...(a as TaggedList)] as TaggedList;
    const at = new Map<string, number>();
    out.forEach((x, i) => at.set(mapListKey(x, keys), i));
    for (const y of listItems(b)) {
      const k = mapListKey(y, keys);
      const i = at.get(k);
      if (i !== undefined) out[i] = y;
      else {
        at.set(k, out.length);
        out.push(y);
      }
    }
    out[LIST_TYPE] = 'map';
    out[LIST_MAP_KEYS] = keys;
    return out;
  }
  // An empty side adds nothing; a tagged list on the right must not lend its semantics to the result.
  if (listSize(a) === 0 && !listTypeOf(b)) return b;
  if (listSize(b) === 0) return a;
  return new ConcatList(a, b);
}
