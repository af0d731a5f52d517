/**
 * cel-go's standard library (common/stdlib/standard.go) with CrossTypeNumericComparisons, the
 * optional types library (cel.OptionalTypes, Kubernetes 1.28), and cel-go's default call costs
 * (checker/cost.go functionCost and interpreter/runtimecost.go costCall), which key on overload ids.
 */
import { R, STRING_TRAVERSAL_COST_FACTOR, REGEX_STRING_LENGTH_COST_FACTOR, fixed, mulU, type EstimateNode, type EstimatorContext } from '../cost/model';
import { celCompare, celEquals, mapLookup, addLists } from '../runtime/equality';
import { bytesToString, checkInt, checkUint, doubleToInt, doubleToUint, parseGoFloat, parseGoInt, parseGoUint, toCelString } from '../runtime/convert';
import { compileRE2 } from '../../regex/re2';
import { matchRegex } from './regex';
import { actualSize, k8sActualSize, runeCount } from '../runtime/size';
import { formatTimestamp, parseGoDuration, parseRFC3339Unbounded, timestampField, timestampInRange } from '../runtime/time';
import { CelError, Duration, MIN_TIMESTAMP_NANOS, Optional, Timestamp, TypeValue, fail, isList, isOpaque, listItems, listSize, typeName, type CelList, type Val } from '../runtime/values';
import { MAX_INT64, MIN_INT64, Uint } from '../common/types';
import { fn, traversal, type FunctionDecl, type Library } from './decls';
import { regexCost } from './cost';
import { work } from '../runtime/guard';

const NANOS = 1_000_000_000n;

// ---------------------------------------------------------------------------------------------
// Cost helpers shared by the declarations below.

function regexEstimate(ctx: EstimatorContext, str: EstimateNode, re: EstimateNode) {
  const strCost = R.factor(R.add(ctx.sizeEstimate(str), fixed(1)), STRING_TRAVERSAL_COST_FACTOR);
  const reCost = R.factor(ctx.sizeEstimate(re), REGEX_STRING_LENGTH_COST_FACTOR);
  return { cost: R.mul(strCost, reCost) };
}

/** Equality's cost: a traversal of the smaller operand (cel-go Equals/NotEquals and string/bytes ordering). */
function comparisonEstimate(ctx: EstimatorContext, a: EstimateNode, b: EstimateNode) {
  const l = ctx.sizeEstimate(a);
  const r = ctx.sizeEstimate(b);
  const smallestMax = Math.min(l.max, r.max);
  return { cost: R.factor({ min: smallestMax > 0 ? 1 : 0, max: smallestMax }, STRING_TRAVERSAL_COST_FACTOR) };
}

function comparisonCost(args: Val[]): number {
  return traversal(Math.min(actualSize(args[0]), actualSize(args[1])));
}

/** The Kubernetes types whose equality costs 1 (apiserver library cost.go, `_==_`). */
const UNIT_EQUALITY_TYPES = new Set(['kubernetes.Quantity', 'net.IP', 'net.CIDR', 'kubernetes.NamedFormat', 'kubernetes.URL', 'kubernetes.Semver']);

// ---------------------------------------------------------------------------------------------
// Arithmetic.

function addTs(t: Timestamp, d: Duration): Timestamp {
  const n = t.nanos + d.nanos;
  if (!timestampInRange(n)) fail('timestamp overflow');
  return new Timestamp(n);
}

/** addDurationChecked and friends: int64 arithmetic, so Go's error is the integer one. */
function checkDuration(n: bigint): Duration {
  if (n > MAX_INT64 || n < MIN_INT64) fail('integer overflow');
  return new Duration(n);
}

function intDiv(a: bigint, b: bigint): bigint {
  if (b === 0n) fail('division by zero');
  if (a === MIN_INT64 && b === -1n) fail('integer overflow');
  return a / b;
}

function intMod(a: bigint, b: bigint): bigint {
  if (b === 0n) fail('modulus by zero');
  if (a === MIN_INT64 && b === -1n) fail('integer overflow');
  return a % b;
}

const NUMS = ['int', 'uint', 'double'];
const GO_NUM: Record<string, string> = { int: 'int64', uint: 'uint64', double: 'double' };

function comparisonDecls(): FunctionDecl[] {
  const ops: Array<[string, string, (c: number) => boolean, string]> = [
    ['_<_', 'less', (c) => c < 0, 'less than'],
    ['_<=_', 'less_equals', (c) => c <= 0, 'less than or equal'],
    ['_>_', 'greater', (c) => c > 0, 'greater than'],
    ['_>=_', 'greater_equals', (c) => c >= 0, 'greater than or equal'],
  ];
  return ops.map(([name, id, test, doc]) => {
    const specs: Array<[string, string, (a: never, b: never) => Val]> = [];
    const cmp = (a: Val, b: Val) => {
      const c = celCompare(a, b);
      return c !== undefined && !Number.isNaN(c) && test(c);
    };
    // In cel-go's declaration order: where operand types are still open, the first overload that fits binds them.
    specs.push([`${id}_bool`, `${name}(bool, bool): bool`, cmp]);
    for (const a of NUMS) {
      specs.push([`${id}_${GO_NUM[a]}`, `${name}(${a}, ${a}): bool`, cmp]);
      for (const b of NUMS) if (a !== b) specs.push([`${id}_${GO_NUM[a]}_${GO_NUM[b]}`, `${name}(${a}, ${b}): bool`, cmp]);
    }
    for (const t of ['string', 'bytes', 'timestamp', 'duration']) specs.push([`${id}_${t}`, `${name}(${t}, ${t}): bool`, cmp]);
    return fn(name, `${doc}`, specs, {
      estimate: (ctx, oid, _t, args) => (/_(string|bytes)$/.test(oid) ? comparisonEstimate(ctx, args[0], args[1]) : undefined),
      cost: (oid, args) => (/_(string|bytes)$/.test(oid) ? comparisonCost(args) : undefined),
    });
  });
}

function listAdd(a: CelList, b: CelList): Val {
  const r = addLists(a, b);
  if (r instanceof CelError) fail(r.message);
  return r;
}

// ---------------------------------------------------------------------------------------------
// Conversions.

function toInt(v: Val): bigint {
  if (typeof v === 'bigint') return v;
  if (v instanceof Uint) {
    if (v.value > MAX_INT64) fail('integer overflow');
    return v.value;
  }
  if (typeof v === 'number') return doubleToInt(v);
  if (typeof v === 'string') {
    const n = parseGoInt(v);
    if (n === undefined) fail("type conversion error from 'string' to 'int'");
    return n;
  }
  if (v instanceof Timestamp) return v.nanos / NANOS - (v.nanos < 0n && v.nanos % NANOS !== 0n ? 1n : 0n);
  if (v instanceof Duration) return v.nanos;
  return fail(`type conversion error from '${typeName(v)}' to 'int'`);
}

function toUint(v: Val): Uint {
  if (v instanceof Uint) return v;
  if (typeof v === 'bigint') {
    if (v < 0n) fail('unsigned integer overflow');
    return Uint.of(v);
  }
  if (typeof v === 'number') return doubleToUint(v);
  if (typeof v === 'string') {
    const n = parseGoUint(v);
    if (n === undefined) fail("type conversion error from 'string' to 'uint'");
    return Uint.of(n);
  }
  return fail(`type conversion error from '${typeName(v)}' to 'uint'`);
}

function toDouble(v: Val): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Uint) return Number(v.value);
  if (typeof v === 'string') {
    const n = parseGoFloat(v);
    if (n === undefined) fail("type conversion error from 'string' to 'double'");
    return n;
  }
  return fail(`type conversion error from '${typeName(v)}' to 'double'`);
}

function toStr(v: Val): string {
  const s = toCelString(v);
  if (s === undefined) fail(`type conversion error from '${typeName(v)}' to 'string'`);
  return s;
}

function toBool(v: Val): boolean {
  if (typeof v === 'boolean') return v;
  switch (v) {
    case '1':
    case 't':
    case 'T':
    case 'true':
    case 'TRUE':
    case 'True':
      return true;
    case '0':
    case 'f':
    case 'F':
    case 'false':
    case 'FALSE':
    case 'False':
      return false;
  }
  return fail("type conversion error from 'string' to 'bool'");
}

/** timestamp(string): String.ConvertToType(TimestampType): time.Parse(RFC3339), then CEL's range. */
export function parseTimestamp(s: string): Timestamp {
  const t = parseRFC3339Unbounded(s);
  if (!t) fail("type conversion error from 'string' to 'google.protobuf.Timestamp'");
  if (!timestampInRange(t.nanos)) fail('timestamp overflow');
  return t;
}

/** duration(string): String.ConvertToType(DurationType): time.ParseDuration. */
export function parseDurationValue(s: string): Duration {
  const n = parseGoDuration(s);
  if (n === undefined) fail("type conversion error from 'string' to 'google.protobuf.Duration'");
  return new Duration(n);
}

/** The CEL type value of a runtime value (`type(x)`). */
export function typeOfValue(v: Val): TypeValue {
  return TypeValue.of(typeName(v));
}

// ---------------------------------------------------------------------------------------------
// Time accessors.

const TS_ACCESSORS: Array<[string, string, string]> = [
  ['getFullYear', 'timestamp_to_year', 'the year'],
  ['getMonth', 'timestamp_to_month', 'the month, 0-11'],
  ['getDayOfYear', 'timestamp_to_day_of_year', 'the day of the year, 0-365'],
  ['getDayOfMonth', 'timestamp_to_day_of_month', 'the day of the month, 0-30'],
  ['getDate', 'timestamp_to_day_of_month_1_based', 'the day of the month, 1-31'],
  ['getDayOfWeek', 'timestamp_to_day_of_week', 'the day of the week, 0 (Sunday)-6'],
  ['getHours', 'timestamp_to_hours', 'the hours, 0-23'],
  ['getMinutes', 'timestamp_to_minutes', 'the minutes, 0-59'],
  ['getSeconds', 'timestamp_to_seconds', 'the seconds, 0-59'],
  ['getMilliseconds', 'timestamp_to_milliseconds', 'the milliseconds, 0-999'],
];

const DURATION_ACCESSORS: Record<string, [string, bigint]> = {
  getHours: ['duration_to_hours', 3_600_000_000_000n],
  getMinutes: ['duration_to_minutes', 60_000_000_000n],
  getSeconds: ['duration_to_seconds', NANOS],
  getMilliseconds: ['duration_to_milliseconds', 1_000_000n],
};

function timeDecls(): FunctionDecl[] {
  return TS_ACCESSORS.map(([name, id, doc]) => {
    const tzId = id === 'timestamp_to_seconds' ? 'timestamp_to_seconds_tz' : `${id}_with_tz`;
    const specs: Array<[string, string, (...a: never[]) => Val]> = [
      [id, `timestamp.${name}(): int`, (t: Timestamp) => timestampField(t, name)],
      [tzId, `timestamp.${name}(string): int`, (t: Timestamp, tz: string) => timestampField(t, name, tz)],
    ];
    const d = DURATION_ACCESSORS[name];
    if (d) specs.push([d[0], `duration.${name}(): int`, (x: Duration) => x.nanos / d[1]]);
    return fn(name, `${doc} of a timestamp (UTC, or in the given time zone)${d ? '; of a duration: its total ' + name.slice(3).toLowerCase() : ''}`, specs);
  });
}

// ---------------------------------------------------------------------------------------------
// The declarations.

const sizeOf = (v: Val): bigint => {
  if (typeof v === 'string') {
    work(v.length >> 6);
    return BigInt(runeCount(v));
  }
  if (v instanceof Uint8Array) return BigInt(v.length);
  if (isList(v)) return BigInt(listSize(v));
  if (v instanceof Map) return BigInt(v.size);
  return fail('no such overload');
};

function inList(v: Val, l: CelList): boolean {
  const items = listItems(l);
  work(items.length);
  for (const x of items) if (celEquals(v, x)) return true;
  return false;
}

function matches(s: string, pattern: string): boolean {
  return matchRegex(s, pattern);
}

/** Standard functions and operators. */
export const STANDARD: Library = {
  name: 'cel.stdlib',
  since: 0,
  functions: [
    fn('_==_', 'equality', [['equals', '_==_(A, A): bool', (a: Val, b: Val) => celEquals(a, b)]], {
      estimate: (ctx, _id, _t, args) => {
        const [l, r] = args;
        if (l.type.kind === 'opaque' && r.type.kind === 'opaque' && l.type.name === r.type.name) {
          if (l.type.name === 'net.IP' || l.type.name === 'net.CIDR') return { cost: fixed(1) };
          if (['kubernetes.Quantity', 'kubernetes.Semver'].includes(l.type.name)) return { cost: fixed(1) };
          if (l.type.name === 'kubernetes.NamedFormat') return { cost: R.factor({ min: 1, max: 64 }, STRING_TRAVERSAL_COST_FACTOR) };
          if (l.type.name === 'kubernetes.URL') {
            // The Kubernetes estimator reads the right operand's size twice (sic).
            const rs = r.computedSize;
            const size = rs ? R.union(rs, rs) : fixed(1);
            return { cost: R.factor({ min: 1, max: size.max }, STRING_TRAVERSAL_COST_FACTOR) };
          }
        }
        return comparisonEstimate(ctx, l, r);
      },
      cost: (_id, args) => (isOpaque(args[0]) && UNIT_EQUALITY_TYPES.has(args[0].celTypeName) ? 1 : comparisonCost(args)),
    }),
    fn('_!=_', 'inequality', [['not_equals', '_!=_(A, A): bool', (a: Val, b: Val) => !celEquals(a, b)]], {
      estimate: (ctx, _id, _t, args) => comparisonEstimate(ctx, args[0], args[1]),
      cost: (_id, args) => comparisonCost(args),
    }),
    ...comparisonDecls(),
    fn(
      '_+_',
      'addition; concatenation of strings, bytes and lists; a timestamp plus a duration',
      [
        // cel-go's declaration order (see comparisonDecls).
        ['add_bytes', '_+_(bytes, bytes): bytes', (a: Uint8Array, b: Uint8Array) => new Uint8Array([...a, ...b])],
        ['add_double', '_+_(double, double): double', (a: number, b: number) => a + b],
        ['add_duration_duration', '_+_(duration, duration): duration', (a: Duration, b: Duration) => checkDuration(a.nanos + b.nanos)],
        ['add_duration_timestamp', '_+_(duration, timestamp): timestamp', (d: Duration, t: Timestamp) => addTs(t, d)],
        ['add_timestamp_duration', '_+_(timestamp, duration): timestamp', (t: Timestamp, d: Duration) => addTs(t, d)],
        ['add_int64', '_+_(int, int): int', (a: bigint, b: bigint) => checkInt(a + b)],
        ['add_list', '_+_(list<A>, list<A>): list<A>', (a: CelList, b: CelList) => listAdd(a, b)],
        [
          'add_string',
          '_+_(string, string): string',
          (a: string, b: string) => {
            work((a.length + b.length) >> 6);
            return a + b;
          },
        ],
        ['add_uint64', '_+_(uint, uint): uint', (a: Uint, b: Uint) => checkUint(a.value + b.value)],
      ],
      {
        estimate: (ctx, id, _t, args) => {
          if (id !== 'add_string' && id !== 'add_bytes' && id !== 'add_list') return undefined;
          const size = R.add(ctx.sizeEstimate(args[0]), ctx.sizeEstimate(args[1]));
          return id === 'add_list' ? { cost: fixed(1), resultSize: size } : { cost: R.factor(size, STRING_TRAVERSAL_COST_FACTOR), resultSize: size };
        },
        cost: (id, args) => (id === 'add_string' || id === 'add_bytes' ? traversal(actualSize(args[0]) + actualSize(args[1])) : undefined),
      },
    ),
    fn('_-_', 'subtraction; the duration between timestamps', [
      ['subtract_double', '_-_(double, double): double', (a: number, b: number) => a - b],
      ['subtract_duration_duration', '_-_(duration, duration): duration', (a: Duration, b: Duration) => checkDuration(a.nanos - b.nanos)],
      ['subtract_int64', '_-_(int, int): int', (a: bigint, b: bigint) => checkInt(a - b)],
      ['subtract_timestamp_duration', '_-_(timestamp, duration): timestamp', (t: Timestamp, d: Duration) => addTs(t, checkDuration(-d.nanos))],
      ['subtract_timestamp_timestamp', '_-_(timestamp, timestamp): duration', (a: Timestamp, b: Timestamp) => checkDuration(a.nanos - b.nanos)],
      ['subtract_uint64', '_-_(uint, uint): uint', (a: Uint, b: Uint) => checkUint(a.value - b.value)],
    ]),
    fn('_*_', 'multiplication', [
      ['multiply_double', '_*_(double, double): double', (a: number, b: number) => a * b],
      ['multiply_int64', '_*_(int, int): int', (a: bigint, b: bigint) => checkInt(a * b)],
      ['multiply_uint64', '_*_(uint, uint): uint', (a: Uint, b: Uint) => checkUint(a.value * b.value)],
    ]),
    fn('_/_', 'division', [
      ['divide_double', '_/_(double, double): double', (a: number, b: number) => a / b],
      ['divide_int64', '_/_(int, int): int', (a: bigint, b: bigint) => intDiv(a, b)],
      ['divide_uint64', '_/_(uint, uint): uint', (a: Uint, b: Uint) => (b.value === 0n ? fail('division by zero') : Uint.of(a.value / b.value))],
    ]),
    fn('_%_', 'remainder', [
      ['modulo_int64', '_%_(int, int): int', (a: bigint, b: bigint) => intMod(a, b)],
      ['modulo_uint64', '_%_(uint, uint): uint', (a: Uint, b: Uint) => (b.value === 0n ? fail('modulus by zero') : Uint.of(a.value % b.value))],
    ]),
    fn('-_', 'negation', [
      ['negate_int64', '-_(int): int', (a: bigint) => checkInt(-a)],
      ['negate_double', '-_(double): double', (a: number) => -a],
    ]),
    fn('!_', 'logical not', [['logical_not', '!_(bool): bool', (a: boolean) => !a]]),
    fn('_&&_', 'logical and', [['logical_and', '_&&_(bool, bool): bool']]),
    fn('_||_', 'logical or', [['logical_or', '_||_(bool, bool): bool']]),
    fn('_?_:_', 'conditional', [['conditional', '_?_:_(bool, A, A): A']]),
    fn('@not_strictly_false', 'internal: true unless the argument is false', [['not_strictly_false', '@not_strictly_false(bool): bool', (a: Val) => a !== false, { nonStrict: true }]]),
    fn('_[_]', 'index', [
      ['index_list', '_[_](list<A>, int): A'],
      ['index_map', '_[_](map<K, V>, K): V'],
    ]),
    fn(
      '@in',
      'membership in a list, or key of a map',
      [
        ['in_list', '@in(A, list<A>): bool', (v: Val, l: CelList) => inList(v, l)],
        ['in_map', '@in(K, map<K, V>): bool', (k: Val, m: Map<Val, Val>) => mapLookup(m, k).found],
      ],
      {
        estimate: (ctx, id, _t, args) => (id === 'in_list' ? { cost: R.factor(ctx.sizeEstimate(args[1]), 1) } : undefined),
        cost: (id, args) => (id === 'in_list' ? actualSize(args[1]) : undefined),
      },
    ),
    fn('size', 'the number of characters of a string, bytes of bytes, elements of a list or entries of a map', [
      ['size_string', 'size(string): int', sizeOf],
      ['string_size', 'string.size(): int', sizeOf],
      ['size_bytes', 'size(bytes): int', sizeOf],
      ['bytes_size', 'bytes.size(): int', sizeOf],
      ['size_list', 'size(list<A>): int', sizeOf],
      ['list_size', 'list<A>.size(): int', sizeOf],
      ['size_map', 'size(map<K, V>): int', sizeOf],
      ['map_size', 'map<K, V>.size(): int', sizeOf],
    ]),
    fn(
      'contains',
      'whether the string contains the substring',
      [
        [
          'contains_string',
          'string.contains(string): bool',
          (s: string, sub: string) => {
            work(s.length >> 4);
            return s.includes(sub);
          },
        ],
      ],
      {
        estimate: (ctx, _id, t, args) => (t ? { cost: R.mul(R.factor(ctx.sizeEstimate(t), STRING_TRAVERSAL_COST_FACTOR), R.factor(ctx.sizeEstimate(args[0]), STRING_TRAVERSAL_COST_FACTOR)) } : undefined),
        cost: (_id, args) => mulU(traversal(actualSize(args[0])), traversal(actualSize(args[1]))),
      },
    ),
    fn('startsWith', 'whether the string starts with the prefix', [['starts_with_string', 'string.startsWith(string): bool', (s: string, p: string) => s.startsWith(p)]], {
      estimate: (ctx, _id, _t, args) => ({ cost: R.factor(ctx.sizeEstimate(args[0]), STRING_TRAVERSAL_COST_FACTOR) }),
      cost: (_id, args) => traversal(actualSize(args[1])),
    }),
    fn('endsWith', 'whether the string ends with the suffix', [['ends_with_string', 'string.endsWith(string): bool', (s: string, p: string) => s.endsWith(p)]], {
      estimate: (ctx, _id, _t, args) => ({ cost: R.factor(ctx.sizeEstimate(args[0]), STRING_TRAVERSAL_COST_FACTOR) }),
      cost: (_id, args) => traversal(actualSize(args[1])),
    }),
    fn(
      'matches',
      'whether the string matches the RE2 regular expression (anywhere; anchor with ^ and $)',
      [
        ['matches', 'matches(string, string): bool', matches],
        ['matches_string', 'string.matches(string): bool', matches],
      ],
      {
        estimate: (ctx, id, t, args) => (id === 'matches_string' && t ? regexEstimate(ctx, t, args[0]) : id === 'matches' && !t ? regexEstimate(ctx, args[0], args[1]) : undefined),
        cost: (_id, args) => regexCost(actualSize(args[0]), actualSize(args[1])),
        // Charged before the match: a long match the safety net interrupts was paid for.
        costFromArgs: true,
      },
    ),
    ...timeDecls(),
    fn('int', 'conversion to int', [
      ['int64_to_int64', 'int(int): int', toInt],
      ['uint64_to_int64', 'int(uint): int', toInt],
      ['double_to_int64', 'int(double): int', toInt],
      ['string_to_int64', 'int(string): int', toInt],
      ['timestamp_to_int64', 'int(timestamp): int', toInt],
      ['duration_to_int64', 'int(duration): int', toInt],
    ]),
    fn('uint', 'conversion to uint', [
      ['uint64_to_uint64', 'uint(uint): uint', toUint],
      ['int64_to_uint64', 'uint(int): uint', toUint],
      ['double_to_uint64', 'uint(double): uint', toUint],
      ['string_to_uint64', 'uint(string): uint', toUint],
    ]),
    fn('double', 'conversion to double', [
      ['double_to_double', 'double(double): double', toDouble],
      ['int64_to_double', 'double(int): double', toDouble],
      ['uint64_to_double', 'double(uint): double', toDouble],
      ['string_to_double', 'double(string): double', toDouble],
    ]),
    fn(
      'string',
      'conversion to string',
      [
        ['string_to_string', 'string(string): string', toStr],
        ['bool_to_string', 'string(bool): string', toStr],
        ['int64_to_string', 'string(int): string', toStr],
        ['uint64_to_string', 'string(uint): string', toStr],
        ['double_to_string', 'string(double): string', toStr],
        ['bytes_to_string', 'string(bytes): string', (b: Uint8Array) => bytesToString(b)],
        ['timestamp_to_string', 'string(timestamp): string', (t: Timestamp) => formatTimestamp(t)],
        ['duration_to_string', 'string(duration): string', toStr],
      ],
      {
        estimate: (ctx, id, _t, args) => {
          if (id !== 'bytes_to_string') return undefined;
          const sz = ctx.sizeEstimate(args[0]);
          return { cost: R.factor(sz, STRING_TRAVERSAL_COST_FACTOR), resultSize: { min: Math.floor(sz.min / 4), max: sz.max } };
        },
        cost: (id, args) => (id === 'bytes_to_string' ? traversal(actualSize(args[0])) : undefined),
      },
    ),
    fn(
      'bytes',
      'conversion to bytes (UTF-8)',
      [
        ['bytes_to_bytes', 'bytes(bytes): bytes', (b: Uint8Array) => b],
        ['string_to_bytes', 'bytes(string): bytes', (s: string) => new Uint8Array(Buffer.from(s, 'utf8'))],
      ],
      {
        estimate: (ctx, id, _t, args) => {
          if (id !== 'string_to_bytes') return undefined;
          const sz = ctx.sizeEstimate(args[0]);
          return { cost: R.factor(sz, STRING_TRAVERSAL_COST_FACTOR), resultSize: { min: sz.min, max: mulU(sz.max, 4) } };
        },
        cost: (id, args) => (id === 'string_to_bytes' ? traversal(actualSize(args[0])) : undefined),
      },
    ),
    fn('bool', 'conversion to bool', [
      ['bool_to_bool', 'bool(bool): bool', toBool],
      ['string_to_bool', 'bool(string): bool', toBool],
    ]),
    fn('timestamp', 'a timestamp from an RFC 3339 string or Unix seconds', [
      ['timestamp_to_timestamp', 'timestamp(timestamp): timestamp', (t: Timestamp) => t],
      ['string_to_timestamp', 'timestamp(string): timestamp', parseTimestamp],
      [
        'int64_to_timestamp',
        'timestamp(int): timestamp',
        (n: bigint) => {
          const ns = n * NANOS;
          if (!timestampInRange(ns)) fail('timestamp overflow');
          return new Timestamp(ns);
        },
      ],
    ]),
    fn('duration', 'a duration from a Go duration string ("1h30m", "300ms")', [
      ['duration_to_duration', 'duration(duration): duration', (d: Duration) => d],
      ['string_to_duration', 'duration(string): duration', parseDurationValue],
    ]),
    fn('dyn', 'the value with its static type erased', [['to_dyn', 'dyn(A): dyn', (v: Val) => v]]),
    fn('type', 'the type of a value', [['type', 'type(A): type<A>', typeOfValue]]),
  ],
};

// ---------------------------------------------------------------------------------------------
// Optional types (cel-go cel/library.go optionalLib).

function isZeroValue(v: Val): boolean {
  if (v === null) return true;
  if (typeof v === 'bigint') return v === 0n;
  if (typeof v === 'number') return v === 0;
  if (typeof v === 'string') return v === '';
  if (typeof v === 'boolean') return v === false;
  if (v instanceof Uint) return v.value === 0n;
  if (v instanceof Uint8Array) return v.length === 0;
  if (isList(v)) return listSize(v) === 0;
  if (v instanceof Map) return v.size === 0;
  if (v instanceof Duration) return v.nanos === 0n;
  if (v instanceof Timestamp) return v.nanos === MIN_TIMESTAMP_NANOS;
  return false;
}

function unwrapOptionals(l: CelList): Val[] {
  const out: Val[] = [];
  for (const o of listItems(l)) {
    if (!(o instanceof Optional)) fail('unwrap: list elements must be optionals');
    if (o.present) out.push(o.value);
  }
  return out;
}

export const OPTIONAL: Library = {
  name: 'cel.lib.optional',
  since: 28,
  types: ['optional_type'],
  macros: [
    { name: 'optMap', signature: 'optional.optMap(x, expr)', doc: 'applies expr to the value if present, as an optional', receivers: ['optional'] },
    { name: 'optFlatMap', signature: 'optional.optFlatMap(x, expr)', doc: 'applies expr (which returns an optional) to the value if present', receivers: ['optional'] },
  ],
  functions: [
    fn('optional.of', 'an optional holding the value', [['optional_of', 'optional.of(A): optional<A>', (v: Val) => Optional.of(v)]]),
    fn('optional.ofNonZeroValue', 'an optional holding the value, or none for a zero value', [
      ['optional_ofNonZeroValue', 'optional.ofNonZeroValue(A): optional<A>', (v: Val) => (isZeroValue(v) ? Optional.none() : Optional.of(v))],
    ]),
    fn('optional.none', 'the empty optional', [['optional_none', 'optional.none(): optional<V>', () => Optional.none()]]),
    fn('value', 'the value of an optional (an error when empty)', [['optional_value', 'optional<A>.value(): A', (o: Optional) => (o.present ? o.value : fail('optional.none() dereference'))]]),
    fn('hasValue', 'whether the optional holds a value', [['optional_hasValue', 'optional<A>.hasValue(): bool', (o: Optional) => o.present]]),
    fn('or', 'this optional if it has a value, else the other', [['optional_or_optional', 'optional<A>.or(optional<A>): optional<A>', (a: Optional, b: Optional) => (a.present ? a : b)]]),
    fn('orValue', 'the value if present, else the default', [['optional_orValue_value', 'optional<A>.orValue(A): A', (a: Optional, d: Val) => (a.present ? a.value : d)]]),
    fn('_?._', 'optional field selection', [['select_optional_field', '_?._(dyn, string): optional<dyn>']]),
    fn('_[?_]', 'optional index', [
      ['list_optindex_optional_int', '_[?_](list<V>, int): optional<V>'],
      ['optional_list_optindex_optional_int', '_[?_](optional<list<V>>, int): optional<V>'],
      ['map_optindex_optional_value', '_[?_](map<K, V>, K): optional<V>'],
      ['optional_map_optindex_optional_value', '_[?_](optional<map<K, V>>, K): optional<V>'],
    ]),
    fn('_[_]', 'index into an optional list or map', [
      ['optional_list_index_int', '_[_](optional<list<V>>, int): optional<V>'],
      ['optional_map_index_value', '_[_](optional<map<K, V>>, K): optional<V>'],
    ]),
    fn('optional.unwrap', 'the values of the present optionals of a list', [['optional_unwrap', 'optional.unwrap(list<optional<V>>): list<V>', (l: CelList) => unwrapOptionals(l), { since: 33 }]]),
    fn('unwrapOpt', 'the values of the present optionals of a list', [['optional_unwrapOpt', 'list<optional<V>>.unwrapOpt(): list<V>', (l: CelList) => unwrapOptionals(l), { since: 33 }]]),
    fn('first', 'the first element of a list, if any', [['list_first', 'list<V>.first(): optional<V>', (l: CelList) => (listSize(l) ? Optional.of(listItems(l)[0]) : Optional.none()), { since: 33 }]]),
    fn('last', 'the last element of a list, if any', [['list_last', 'list<V>.last(): optional<V>', (l: CelList) => (listSize(l) ? Optional.of(listItems(l)[listSize(l) - 1]) : Optional.none()), { since: 33 }]]),
  ],
};

/** Regex validity for the ValidateRegexLiterals validator. */
export function regexError(pattern: string): string | undefined {
  const c = compileRE2(pattern);
  return c.ok ? undefined : c.error;
}

export { k8sActualSize };
