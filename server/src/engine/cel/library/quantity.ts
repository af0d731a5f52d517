/**
 * The Kubernetes quantity library (apiserver pkg/cel/library/quantity.go, 1.28) and its value:
 * resource.Quantity, parsed and printed as resource.ParseQuantity and CanonicalizeBytes do.
 */
import { fail, type OpaqueValue } from '../runtime/values';
import { fn, type Library } from './decls';
import { parseCost, unitCost } from './cost';

// parseQuantityString scans sign, digits, '.', digits, suffix letters, exponent: every part may be empty
// (the documented regex says [0-9.]+, but 'Mi', '+' and '.' parse as 0; '1.2.3' is a format error).
const QUANTITY_RE = /^([+-]?[0-9]*(?:\.[0-9]*)?)([eEinumkKMGTP]*[-+]?[0-9]*)$/;
const BINARY: Record<string, bigint> = { Ki: 1n << 10n, Mi: 1n << 20n, Gi: 1n << 30n, Ti: 1n << 40n, Pi: 1n << 50n, Ei: 1n << 60n };
const BINARY_EXPONENT: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

function gcd(a: bigint, b: bigint): bigint {
  a = a < 0n ? -a : a;
  while (b) [a, b] = [b, a % b];
  return a;
}

type QuantityFormat = 'DecimalSI' | 'DecimalExponent' | 'BinarySI';

/** resource.Quantity's int64 fast path (int64Amount): value × 10^scale. */
interface Int64Amount {
  value: bigint;
  scale: number;
}

const MAX_INT = 9223372036854775807n;
const MIN_INT = -9223372036854775808n;
const inInt64 = (v: bigint): boolean => v >= MIN_INT && v <= MAX_INT;

/** positiveScaleInt64: value × 10^scale, or undefined on int64 overflow. */
function scaleUp(value: bigint, scale: number): bigint | undefined {
  const v = value * 10n ** BigInt(scale);
  return inInt64(v) ? v : undefined;
}

/** int64Amount.Add: the sum on the fast path, or undefined when it overflows (Go falls back to inf.Dec). */
function addAmounts(a: Int64Amount, b: Int64Amount): Int64Amount | undefined {
  if (b.value === 0n) return a;
  if (a.value === 0n) return b;
  if (a.scale === b.scale) {
    const c = a.value + b.value;
    return inInt64(c) ? { value: c, scale: a.scale } : undefined;
  }
  const [hi, lo] = a.scale > b.scale ? [a, b] : [b, a];
  const up = scaleUp(hi.value, hi.scale - lo.scale);
  if (up === undefined) return undefined;
  const c = up + lo.value;
  return inInt64(c) ? { value: c, scale: lo.scale } : undefined;
}

/**
 * A Kubernetes resource.Quantity: its exact value as a fraction num/den (den > 0), the format it
 * prints in, its int64 fast path when Go's has one (isInteger/asInteger answer from it alone:
 * `1.5Gi`, `1Pi` and 19-digit values are inf.Dec there), and the text Go keeps when canonical.
 */
export class Quantity implements OpaqueValue {
  readonly celTypeName = 'kubernetes.Quantity';
  readonly num: bigint;
  readonly den: bigint;
  constructor(
    num: bigint,
    den: bigint = 1n,
    readonly format: QuantityFormat = 'DecimalSI',
    readonly fast?: Int64Amount,
    private readonly s?: string,
    /** The scale of Go's inf.Dec form (value = unscaled × 10^-scale): nano after ParseQuantity, the larger one after Add. */
    readonly decScale = 9,
  ) {
    const g = gcd(num, den) || 1n;
    this.num = num / g;
    this.den = den / g;
  }
  /** resource.NewQuantity(v, DecimalExponent), what add(int) and sub(int) add. */
  static ofInt(v: bigint): Quantity {
    return new Quantity(v, 1n, 'DecimalExponent', { value: v, scale: 0 });
  }
  compareTo(o: Quantity): number {
    const l = this.num * o.den;
    const r = o.num * this.den;
    return l < r ? -1 : l > r ? 1 : 0;
  }
  equals(o: OpaqueValue): boolean {
    if (!(o instanceof Quantity)) return false;
    return this.compareTo(o) === 0;
  }
  /** Quantity.Add (on a copy). */
  add(o: Quantity): Quantity {
    const fast = this.fast && o.fast ? addAmounts(this.fast, o.fast) : undefined;
    const format = (this.fast ? this.fast.value === 0n : this.num === 0n) ? o.format : this.format;
    return new Quantity(this.num * o.den + o.num * this.den, this.den * o.den, format, fast, undefined, Math.max(this.asDecScale(), o.asDecScale()));
  }
  /** Quantity.Sub (on a copy). */
  sub(o: Quantity): Quantity {
    const fast = this.fast && o.fast ? addAmounts(this.fast, { value: -o.fast.value, scale: o.fast.scale }) : undefined;
    const format = this.num === 0n ? o.format : this.format;
    return new Quantity(this.num * o.den - o.num * this.den, this.den * o.den, format, fast, undefined, Math.max(this.asDecScale(), o.asDecScale()));
  }
  /** The inf.Dec scale of ToDec()/AsDec(): an int64Amount's is its negated scale. */
  private asDecScale(): number {
    return this.fast ? -this.fast.scale : this.decScale;
  }
  /** Quantity.AsApproximateFloat64: the unscaled value as a double times math.Pow10 of the exponent. */
  asApproximateFloat(): number {
    let base: number;
    let exponent: number;
    if (this.fast) {
      base = Number(this.fast.value);
      exponent = this.fast.scale;
    } else {
      const d = this.decScale;
      base = Number(d >= 0 ? (this.num * 10n ** BigInt(d)) / this.den : this.num / (this.den * 10n ** BigInt(-d)));
      exponent = -d;
    }
    return exponent === 0 ? base : base * goPow10(exponent);
  }
  /** Quantity.AsInt64: only the fast path converts. */
  asInt64(): bigint | undefined {
    const f = this.fast;
    if (!f || f.scale < 0) return undefined;
    return f.scale === 0 ? f.value : scaleUp(f.value, f.scale);
  }
  /** Quantity.String(): the kept text, else CanonicalizeBytes. */
  goString(): string {
    return this.s ?? canonicalQuantity(this);
  }
}

const POW10_TAB = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28, 1e29, 1e30, 1e31];
const POW10_POS32 = [1, 1e32, 1e64, 1e96, 1e128, 1e160, 1e192, 1e224, 1e256, 1e288];
const POW10_NEG32 = [1, 1e-32, 1e-64, 1e-96, 1e-128, 1e-160, 1e-192, 1e-224, 1e-256, 1e-288, 1e-320];

/** Go's math.Pow10, by its tables (a product, or a quotient for negative n). */
function goPow10(n: number): number {
  if (n >= 0 && n <= 308) return POW10_POS32[n >> 5] * POW10_TAB[n & 31];
  if (n < 0 && n >= -323) return POW10_NEG32[-n >> 5] / POW10_TAB[-n & 31];
  return n > 0 ? Infinity : 0;
}

/** Strips factors of base: [rest, count]. */
function removeFactors(v: bigint, base: bigint): [bigint, number] {
  let n = 0;
  while (v !== 0n && v % base === 0n) {
    v /= base;
    n++;
  }
  return [v, n];
}

const DECIMAL_SUFFIX: Record<number, string> = { [-9]: 'n', [-6]: 'u', [-3]: 'm', 0: '', 3: 'k', 6: 'M', 9: 'G', 12: 'T', 15: 'P', 18: 'E' };
const BINARY_SUFFIX: Record<number, string> = { 0: '', 1: 'Ki', 2: 'Mi', 3: 'Gi', 4: 'Ti', 5: 'Pi', 6: 'Ei' };

/** Quantity.CanonicalizeBytes: mantissa and suffix (Go prints no suffix for an exponent its tables lack). */
function canonicalQuantity(q: Quantity): string {
  if (q.num === 0n) return '0';
  let format = q.format;
  if (format === 'BinarySI' && (q.den !== 1n || (q.num > -1024n && q.num < 1024n))) format = 'DecimalSI';
  if (format === 'BinarySI') {
    const [m, e] = removeFactors(q.num, 1024n);
    return `${m}${BINARY_SUFFIX[e] ?? ''}`;
  }
  // The value as an integer times 10^exponent (den divides a power of ten: quantities are rounded to nano).
  let k = 0;
  while ((q.num * 10n ** BigInt(k)) % q.den !== 0n && k < 1100) k++;
  let [m, e] = removeFactors((q.num * 10n ** BigInt(k)) / q.den, 10n);
  e -= k;
  while (e % 3 !== 0) {
    m *= 10n;
    e--;
  }
  if (format === 'DecimalExponent') return e === 0 ? `${m}` : `${m}e${e}`;
  return `${m}${DECIMAL_SUFFIX[e] ?? ''}`;
}

const QUANTITY_FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
/** resource.maxAllowed: binary quantities are capped at int64's maximum. */
const MAX_ALLOWED = MAX_INT;

/** resource.ParseQuantity: the quantity, or Go's error text. */
export function parseQuantity(s: string): Quantity | string {
  if (s.length === 0) return QUANTITY_FORMAT_ERROR;
  if (s === '0') return new Quantity(0n, 1n, 'DecimalSI', { value: 0n, scale: 0 }, s);
  const m = QUANTITY_RE.exec(s);
  if (!m) return QUANTITY_FORMAT_ERROR;
  const numStr = m[1];
  const suffix = m[2];
  const nm = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(numStr);
  if (!nm) return 'unable to parse numeric part of quantity';
  const negative = nm[1] === '-';
  const digits = (nm[2] || '') + (nm[3] || '');
  let num = BigInt(digits || '0');
  if (negative) num = -num;
  let den = 10n ** BigInt((nm[3] || '').length);
  let format: QuantityFormat;
  let exponent: number;
  if (suffix in BINARY) {
    format = 'BinarySI';
    exponent = BINARY_EXPONENT[suffix];
    num *= BINARY[suffix];
  } else if (suffix in DECIMAL) {
    format = 'DecimalSI';
    exponent = DECIMAL[suffix];
    if (exponent >= 0) num *= 10n ** BigInt(exponent);
    else den *= 10n ** BigInt(-exponent);
  } else {
    const em = /^[eE]([-+]?\d+)$/.exec(suffix);
    if (!em) return "unable to parse quantity's suffix";
    format = 'DecimalExponent';
    exponent = Number(em[1]);
    if (Math.abs(exponent) > 1000) return "unable to parse quantity's suffix";
    if (exponent >= 0) num *= 10n ** BigInt(exponent);
    else den *= 10n ** BigInt(-exponent);
  }
  const fast = fastPath(s, negative, nm[2] || '', nm[3] || '', format, exponent);
  if (fast) return fast;
  // Without digits only ParseQuantity's int64 fast path (scale >= nano) succeeds: inf.Dec rejects the empty value.
  if (digits === '' && den > 1_000_000_000n) return 'unable to parse numeric part of quantity';
  // ParseQuantity rounds values finer than nano up to the next nano (away from zero).
  const scaled = num * 1_000_000_000n;
  if (scaled % den !== 0n) {
    num = scaled / den + (num < 0n ? -1n : 1n);
    den = 1_000_000_000n;
  }
  // inf.Dec's scale: rounded to nano (a zero is not rounded); the binary cap is int64's maximum at scale 0.
  let decScale = num === 0n ? 0 : 9;
  if (format === 'BinarySI') {
    if (num > MAX_ALLOWED * den) [num, den, decScale] = [MAX_ALLOWED, 1n, 0];
    else if (num < -MAX_ALLOWED * den) [num, den, decScale] = [-MAX_ALLOWED, 1n, 0];
    // A binary value between 0 and 1 prints as decimal.
    if (num > 0n && num < den) format = 'DecimalSI';
  }
  return new Quantity(num, den, format, undefined, undefined, decScale);
}

/** ParseQuantity's int64 fast path, when it applies (with the text Go keeps when it is canonical). */
function fastPath(s: string, negative: boolean, intDigits: string, fracDigits: string, format: QuantityFormat, exponent: number): Quantity | undefined {
  const num = intDigits.replace(/^0+/, '') || '0';
  const denom = fracDigits;
  let scale = 0;
  let mantissa = 1n;
  let precision: number;
  if (format === 'BinarySI') {
    if (exponent >= 0 && denom.length === 0) {
      mantissa = 1n << BigInt(exponent);
      precision = 15 - num.length - Math.trunc(Math.fround((Math.fround(exponent) * 3) / 10)) - 1;
    } else precision = -1;
  } else {
    scale = exponent;
    precision = 18 - (num.length + denom.length);
  }
  if (precision < 0) return undefined;
  scale -= denom.length;
  if (scale < -9) return undefined;
  const shifted = num + denom;
  const value = BigInt(shifted);
  let result = value * mantissa;
  if (!inInt64(value) || !inInt64(result)) return undefined;
  if (negative) result = -result;
  const canonical = format === 'BinarySI' ? exponent % 10 === 0 && (value & 7n) !== 0n : scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
  const den = scale < 0 ? 10n ** BigInt(-scale) : 1n;
  const n = scale > 0 ? result * 10n ** BigInt(scale) : result;
  return new Quantity(n, den, format, { value: result, scale }, canonical ? s : undefined);
}

export function asInt64(q: Quantity): bigint | undefined {
  return q.asInt64();
}

export function quantityOrFail(s: string): Quantity {
  const q = parseQuantity(s);
  if (typeof q === 'string') fail(q);
  return q;
}

export const QUANTITY: Library = {
  name: 'kubernetes.quantity',
  since: 28,
  types: ['kubernetes.Quantity'],
  functions: [
    fn('quantity', 'parses a Kubernetes resource quantity ("100m", "1Gi")', [['string_to_quantity', 'quantity(string): Quantity', quantityOrFail]], parseCost),
    fn('isQuantity', 'whether the string is a valid quantity', [['is_quantity_string', 'isQuantity(string): bool', (s: string) => typeof parseQuantity(s) !== 'string']], parseCost),
    fn('sign', 'the sign of the quantity: -1, 0 or 1', [['quantity_sign', 'sign(Quantity): int', (q: Quantity) => BigInt(q.num > 0n ? 1 : q.num < 0n ? -1 : 0)]], unitCost),
    fn('isGreaterThan', 'whether this quantity is greater than the other', [['quantity_is_greater_than', 'Quantity.isGreaterThan(Quantity): bool', (a: Quantity, b: Quantity) => a.compareTo(b) > 0]], unitCost),
    fn('isLessThan', 'whether this quantity is less than the other', [['quantity_is_less_than', 'Quantity.isLessThan(Quantity): bool', (a: Quantity, b: Quantity) => a.compareTo(b) < 0]], unitCost),
    fn('compareTo', 'compares with the other quantity: -1, 0 or 1', [['quantity_compare_to', 'Quantity.compareTo(Quantity): int', (a: Quantity, b: Quantity) => BigInt(a.compareTo(b))]], unitCost),
    fn('asApproximateFloat', 'the quantity as a double (may lose precision)', [['quantity_get_float', 'Quantity.asApproximateFloat(): double', (q: Quantity) => q.asApproximateFloat()]], unitCost),
    fn('asInteger', 'the quantity as an int (an error when it is not an integer)', [['quantity_get_int', 'Quantity.asInteger(): int', (q: Quantity) => asInt64(q) ?? fail('cannot convert value to integer')]], unitCost),
    fn('isInteger', 'whether the quantity is an integer in int range', [['quantity_is_integer', 'Quantity.isInteger(): bool', (q: Quantity) => asInt64(q) !== undefined]], unitCost),
    fn(
      'add',
      'the sum of the quantities',
      [
        ['quantity_add', 'Quantity.add(Quantity): Quantity', (a: Quantity, b: Quantity) => a.add(b)],
        ['quantity_add_int', 'Quantity.add(int): Quantity', (a: Quantity, b: bigint) => a.add(Quantity.ofInt(b))],
      ],
      unitCost,
    ),
    fn(
      'sub',
      'the difference of the quantities',
      [
        ['quantity_sub', 'Quantity.sub(Quantity): Quantity', (a: Quantity, b: Quantity) => a.sub(b)],
        ['quantity_sub_int', 'Quantity.sub(int): Quantity', (a: Quantity, b: bigint) => a.sub(Quantity.ofInt(b))],
      ],
      unitCost,
    ),
  ],
};
