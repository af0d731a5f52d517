/**
 * CEL runtime values (cel-go common/types, reduced to what Kubernetes rules use):
 *   int = bigint (int64 range), uint = Uint, double = number, bool, string, bytes = Uint8Array,
 *   null = null, list = readonly array | ConcatList, map/object = Map, timestamp = Timestamp,
 *   duration = Duration, type = TypeValue, optional = Optional, errors = CelError (a value, as in cel-go),
 *   and the Kubernetes opaque types (Quantity, IP, CIDR, URL, Semver, Format) defined by their libraries.
 */

import { Uint } from '../common/types';

/** A CEL runtime value. */
export type Val = unknown;

/** An evaluation error as a value (cel-go's *types.Err): logical operators and comprehensions absorb it. */
export class CelError {
  constructor(readonly message: string) {}
  toString(): string {
    return this.message;
  }
}

/** Thrown by library code; the interpreter turns it into a CelError value at the call. */
export class CelThrow extends Error {}

/** Fails the current call with cel-go's message. */
export function fail(message: string): never {
  throw new CelThrow(message);
}

const NANOS = 1_000_000_000n;

/** A CEL duration: int64 nanoseconds (Go's time.Duration). */
export class Duration {
  constructor(readonly nanos: bigint) {}
  get seconds(): bigint {
    return this.nanos / NANOS;
  }
}

/** A CEL timestamp: nanoseconds since the Unix epoch (years 0001..9999), and the zone offset it was written with. */
export class Timestamp {
  /** offsetMinutes: the parsed zone (string() prints it back); 0 = UTC. */
  constructor(
    readonly nanos: bigint,
    readonly offsetMinutes = 0,
  ) {}
  /** Milliseconds since the epoch (for calendar computations). */
  get millis(): number {
    return Number(this.nanos / 1_000_000n) - (this.nanos < 0n && this.nanos % 1_000_000n !== 0n ? 1 : 0);
  }
}

/** Smallest and largest timestamps CEL allows (0001-01-01T00:00:00Z .. 9999-12-31T23:59:59.999999999Z). */
export const MIN_TIMESTAMP_NANOS = -62135596800n * NANOS;
export const MAX_TIMESTAMP_NANOS = 253402300799n * NANOS + 999_999_999n;

/** A CEL type value (`type(x)`, `int`). */
export class TypeValue {
  private static readonly cache = new Map<string, TypeValue>();
  private constructor(readonly name: string) {}
  static of(name: string): TypeValue {
    let t = TypeValue.cache.get(name);
    if (!t) TypeValue.cache.set(name, (t = new TypeValue(name)));
    return t;
  }
}

/** A CEL optional value. */
export class Optional {
  private static readonly NONE = new Optional(false, undefined);
  private constructor(
    readonly present: boolean,
    private readonly v: Val,
  ) {}
  static of(v: Val): Optional {
    return new Optional(true, v);
  }
  static none(): Optional {
    return Optional.NONE;
  }
  get value(): Val {
    return this.v;
  }
}

/**
 * A list built by `a + b` without copying (cel-go's concatList): O(1) to build, so a rule that
 * concatenates in a loop costs what cel-go charges and takes comparable time.
 */
export class ConcatList {
  readonly size: number;
  private flat?: readonly Val[];
  constructor(
    readonly left: CelList,
    readonly right: CelList,
  ) {
    this.size = listSize(left) + listSize(right);
  }
  get(i: number): Val {
    let l: CelList = this;
    while (l instanceof ConcatList) {
      if (l.flat) return l.flat[i];
      const ls = listSize(l.left);
      if (i < ls) l = l.left;
      else {
        i -= ls;
        l = l.right;
      }
    }
    return listGet(l, i);
  }
  /** The elements as one array (built once). */
  items(): readonly Val[] {
    if (!this.flat) {
      const out: Val[] = new Array(this.size);
      let k = 0;
      const stack: CelList[] = [this];
      while (stack.length) {
        const l = stack.pop()!;
        if (l instanceof ConcatList) {
          if (l.flat) for (const x of l.flat) out[k++] = x;
          else stack.push(l.right, l.left);
        } else for (const x of listItems(l)) out[k++] = x;
      }
      this.flat = out;
    }
    return this.flat;
  }
}

/**
 * A comprehension's list accumulator (cel-go's mutable list): `accu + [x]` appends in place, so
 * map() and filter() are linear as in cel-go. It never escapes its comprehension.
 */
export class MutableList {
  readonly items: Val[] = [];
}

/** A CEL list value. */
export type CelList = readonly Val[] | ConcatList | MutableList;

export function isList(v: Val): v is CelList {
  return Array.isArray(v) || v instanceof ConcatList || v instanceof MutableList;
}

export function listSize(l: CelList): number {
  return l instanceof ConcatList ? l.size : l instanceof MutableList ? l.items.length : l.length;
}

/** The elements of a list as an array (concatenations flattened once). */
export function listItems(l: CelList): readonly Val[] {
  return l instanceof ConcatList ? l.items() : l instanceof MutableList ? l.items : l;
}

export function listGet(l: CelList, i: number): Val {
  return l instanceof ConcatList ? l.get(i) : l instanceof MutableList ? l.items[i] : l[i];
}

/** Marks Maps that are schema objects (fields keyed by escaped name; lookups accept the bare keyword spelling). */
export const K8S_OBJECT = Symbol.for('crd-yaml.cel.object');
/** The raw JSON object of a schema object Map: fields the schema does not declare still count in equality. */
export const K8S_RAW = Symbol.for('crd-yaml.cel.rawObject');

/** Marks a comprehension's map accumulator (cel-go's mutable map): cel.@mapInsert inserts in place. */
export const MUTABLE_MAP = Symbol.for('crd-yaml.cel.mutableMap');

/** A CEL map or object value (Kubernetes objects are maps keyed by their escaped property names). */
export type CelMap = ReadonlyMap<Val, Val>;

export function isMap(v: Val): v is CelMap {
  return v instanceof Map;
}

/** Opaque Kubernetes values (Quantity, IP, ...) implement this to take part in equality and string(). */
export interface OpaqueValue {
  /** cel-go's type name (`kubernetes.Quantity`, `net.IP`). */
  readonly celTypeName: string;
  equals(other: OpaqueValue): boolean;
  /** Go's %v of the value's Value() (the native Go value), where it prints meaningfully. */
  goString?(): string;
}

export function isOpaque(v: Val): v is OpaqueValue {
  return typeof v === 'object' && v !== null && typeof (v as OpaqueValue).celTypeName === 'string';
}

/** cel-go's runtime type name of a value (what type(x) names and "no such overload" messages print). */
export function typeName(v: Val): string {
  switch (typeof v) {
    case 'bigint':
      return 'int';
    case 'number':
      return 'double';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
  }
  if (v === null || v === undefined) return 'null_type';
  if (v instanceof Uint) return 'uint';
  if (v instanceof Uint8Array) return 'bytes';
  if (v instanceof Timestamp) return 'google.protobuf.Timestamp';
  if (v instanceof Duration) return 'google.protobuf.Duration';
  if (isList(v)) return 'list';
  if (v instanceof Map) return 'map';
  if (v instanceof Optional) return 'optional_type';
  if (v instanceof TypeValue) return 'type';
  if (v instanceof CelError) return '*types.Err';
  if (isOpaque(v)) return v.celTypeName;
  return 'unknown';
}

/** A list of set/map list-type (x-kubernetes-list-type) keeps its semantics in equality and `+`. */
export const LIST_TYPE = Symbol.for('crd-yaml.cel.listType');
/** The escaped x-kubernetes-list-map-keys of a map list. */
export const LIST_MAP_KEYS = Symbol.for('crd-yaml.cel.listMapKeys');

export type TaggedList = Val[] & { [LIST_TYPE]?: 'set' | 'map'; [LIST_MAP_KEYS]?: string[] };

export function listTypeOf(l: CelList): 'set' | 'map' | undefined {
  return Array.isArray(l) ? (l as TaggedList)[LIST_TYPE] : undefined;
}
