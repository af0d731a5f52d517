/**
 * The Kubernetes value-type libraries (apiserver pkg/cel/library): quantity (1.28), IP and CIDR
 * (1.30), URLs (always), format (1.31), semver (1.33), and the authorization library's names (the
 * CRD environment declares them; no rule can obtain an authorizer, so only the type checker sees
 * them). Parsing and errors follow the Go packages (resource.ParseQuantity, netip, net/url,
 * blang/semver, apimachinery util/validation).
 */
import { R, STRING_TRAVERSAL_COST_FACTOR, REGEX_STRING_LENGTH_COST_FACTOR, fixed, type EstimateNode, type EstimatorContext } from '../cost/model';
import { cmpString } from '../runtime/equality';
import { goQuote } from '../../json/go';
import { k8sActualSize } from '../runtime/size';
import { parseRFC3339 } from '../runtime/time';
import { Optional, fail, type OpaqueValue, type Val } from '../runtime/values';
import { isQualifiedName, isValidLabelValue, utilValidationChecks } from '../../objectmeta/names';
import { goURLParse, goURLParseRequestURI } from '../../json/gourl';
import { fn, traversal, type Library } from './decls';
import { regexCost } from './stdlib';

// ---------------------------------------------------------------------------------------------
// Quantity

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

// ---------------------------------------------------------------------------------------------
// IP and CIDR

/** An IP address: 4 or 16 bytes. */
export class IP implements OpaqueValue {
  readonly celTypeName = 'net.IP';
  constructor(readonly bytes: Uint8Array) {}
  get family(): 4 | 6 {
    return this.bytes.length === 4 ? 4 : 6;
  }
  equals(o: OpaqueValue): boolean {
    return o instanceof IP && this.bytes.length === o.bytes.length && this.bytes.every((b, i) => b === o.bytes[i]);
  }
  toCelString(): string {
    return formatIP(this.bytes);
  }
  goString(): string {
    return formatIP(this.bytes);
  }
  size(): number {
    return this.bytes.length;
  }
}

/** A CIDR prefix: the address as written (host bits kept) and the prefix length. */
export class CIDR implements OpaqueValue {
  readonly celTypeName = 'net.CIDR';
  constructor(
    readonly ip: IP,
    readonly bits: number,
  ) {}
  equals(o: OpaqueValue): boolean {
    return o instanceof CIDR && this.bits === o.bits && this.ip.equals(o.ip);
  }
  masked(): CIDR {
    const b = Uint8Array.from(this.ip.bytes);
    for (let i = 0; i < b.length * 8; i++) if (i >= this.bits) b[i >> 3] &= ~(0x80 >> (i & 7));
    return new CIDR(new IP(b), this.bits);
  }
  containsIP(ip: IP): boolean {
    if (ip.family !== this.ip.family) return false;
    for (let i = 0; i < this.bits; i++) {
      const m = 0x80 >> (i & 7);
      if ((ip.bytes[i >> 3] & m) !== (this.ip.bytes[i >> 3] & m)) return false;
    }
    return true;
  }
  containsCIDR(o: CIDR): boolean {
    return o.ip.family === this.ip.family && o.bits >= this.bits && this.containsIP(o.ip);
  }
  toCelString(): string {
    return `${formatIP(this.ip.bytes)}/${this.bits}`;
  }
  goString(): string {
    return this.toCelString();
  }
  size(): number {
    return Math.ceil(this.bits / 8);
  }
}

/** A netip parseAddrError: the message and the rest of the input it stopped at. */
interface AddrError {
  msg: string;
  at?: string;
}

/** netip's parseIPv4Fields over s (the whole input, or the IPv4 tail of an IPv6 address). */
function parseIPv4Fields(s: string): Uint8Array | AddrError {
  const out = new Uint8Array(4);
  let val = 0;
  let pos = 0;
  let digits = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c >= '0' && c <= '9') {
      if (digits === 1 && val === 0) return { msg: 'IPv4 field has octet with leading zero' };
      val = val * 10 + (c.charCodeAt(0) - 48);
      digits++;
      if (val > 255) return { msg: 'IPv4 field has value >255' };
    } else if (c === '.') {
      if (i === 0 || i === s.length - 1 || s[i - 1] === '.') return { msg: 'IPv4 field must have at least one digit', at: s.slice(i) };
      if (pos === 3) return { msg: 'IPv4 address too long' };
      out[pos++] = val;
      val = 0;
      digits = 0;
    } else return { msg: 'unexpected character', at: s.slice(i) };
  }
  if (pos < 3) return { msg: 'IPv4 address too short' };
  out[3] = val;
  return out;
}

/** netip's parseIPv6 of the address without its zone. */
function parseIPv6(addr: string): Uint8Array | AddrError {
  const ip = new Uint8Array(16);
  let ellipsis = -1;
  let s = addr;
  if (s.startsWith('::')) {
    ellipsis = 0;
    s = s.slice(2);
    if (s === '') return ip;
  }
  let i = 0;
  while (i < 16) {
    let off = 0;
    let acc = 0;
    for (; off < s.length; off++) {
      const d = Number.parseInt(s[off], 16);
      if (!/[0-9a-fA-F]/.test(s[off])) break;
      acc = acc * 16 + d;
      if (off > 3) return { msg: 'each group must have 4 or less digits', at: s };
      if (acc > 0xffff) return { msg: 'IPv6 field has value >=2^16', at: s };
    }
    if (off === 0) return { msg: 'each colon-separated field must have at least one digit', at: s };
    if (off < s.length && s[off] === '.') {
      if (ellipsis < 0 && i !== 12) return { msg: 'embedded IPv4 address must replace the final 2 fields of the address', at: s };
      if (i + 4 > 16) return { msg: 'too many hex fields to fit an embedded IPv4 at the end of the address', at: s };
      const v4 = parseIPv4Fields(s);
      if (!(v4 instanceof Uint8Array)) return v4;
      ip.set(v4, i);
      s = '';
      i += 4;
      break;
    }
    ip[i] = acc >> 8;
    ip[i + 1] = acc & 0xff;
    i += 2;
    s = s.slice(off);
    if (s === '') break;
    if (s[0] !== ':') return { msg: 'unexpected character, want colon', at: s };
    if (s.length === 1) return { msg: 'colon must be followed by more characters', at: s };
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) return { msg: 'multiple :: in address', at: s };
      ellipsis = i;
      s = s.slice(1);
      if (s === '') break;
    }
  }
  if (s !== '') return { msg: 'trailing garbage after address', at: s };
  if (i < 16) {
    if (ellipsis < 0) return { msg: 'address string too short' };
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j];
    ip.fill(0, ellipsis, ellipsis + n);
  } else if (ellipsis >= 0) return { msg: 'the :: must expand to at least one field of zeros' };
  return ip;
}

/** Go's netip.ParseAddr: the bytes and zone, or Go's error text (`ParseAddr("x"): msg (at "rest")`). */
function netipParseAddr(s: string): { bytes: Uint8Array; zone: string } | string {
  const fail = (e: AddrError) => `ParseAddr(${goQuote(s)}): ${e.msg}${e.at ? ` (at ${goQuote(e.at)})` : ''}`;
  // The first '.', ':' or '%' decides what the text was meant to be.
  const kind = /[.:%]/.exec(s)?.[0];
  if (kind === '.') {
    const r = parseIPv4Fields(s);
    return r instanceof Uint8Array ? { bytes: r, zone: '' } : fail(r);
  }
  if (kind === '%') return fail({ msg: 'missing IPv6 address' });
  if (kind !== ':') return fail({ msg: 'unable to parse IP' });
  const pct = s.indexOf('%');
  const zone = pct >= 0 ? s.slice(pct + 1) : '';
  if (pct >= 0 && zone === '') return fail({ msg: 'zone must be a non-empty string' });
  const r = parseIPv6(pct >= 0 ? s.slice(0, pct) : s);
  return r instanceof Uint8Array ? { bytes: r, zone } : fail(r);
}

function is4In6(b: Uint8Array): boolean {
  return b.length === 16 && b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;
}

/** library/ip.go parseIPAddr: netip.ParseAddr without zones or IPv4-mapped IPv6 addresses; bytes or the error. */
export function parseAddr(s: string): Uint8Array | string {
  const r = netipParseAddr(s);
  if (typeof r === 'string') return `IP Address ${JSON.stringify(s)} parse error during conversion from string: ${r}`;
  if (r.zone !== '') return `IP address ${JSON.stringify(s)} with zone value is not allowed`;
  if (is4In6(r.bytes)) return `IPv4-mapped IPv6 address ${JSON.stringify(s)} is not allowed`;
  return r.bytes;
}

/** Canonical text of an address (dotted IPv4, RFC 5952 IPv6). */
export function formatIP(b: Uint8Array): string {
  if (b.length === 4) return Array.from(b).join('.');
  const words: number[] = [];
  for (let i = 0; i < 16; i += 2) words.push((b[i] << 8) | b[i + 1]);
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (w: number) => w.toString(16);
  if (bestStart < 0) return words.map(hex).join(':');
  return (
    words.slice(0, bestStart).map(hex).join(':') +
    '::' +
    words
      .slice(bestStart + bestLen)
      .map(hex)
      .join(':')
  );
}

export function ipOrFail(s: string): IP {
  const r = parseAddr(s);
  if (typeof r === 'string') fail(r);
  return new IP(r);
}

/** Go's netip.ParsePrefix: a CIDR, or Go's error text (`netip.ParsePrefix("x"): ...`). */
function netipParsePrefix(s: string): CIDR | string {
  const err = (msg: string) => `netip.ParsePrefix(${JSON.stringify(s)}): ${msg}`;
  const slash = s.lastIndexOf('/');
  if (slash < 0) return err("no '/'");
  const a = netipParseAddr(s.slice(0, slash));
  if (typeof a === 'string') return err(a);
  if (a.zone !== '') return err('IPv6 zones cannot be present in a prefix');
  const bitsStr = s.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bitsStr) || (bitsStr.length > 1 && bitsStr[0] === '0')) return err(`bad bits after slash: ${JSON.stringify(bitsStr)}`);
  const bits = Number(bitsStr);
  if (bits > a.bytes.length * 8) return err('prefix length out of range');
  return new CIDR(new IP(a.bytes), bits);
}

/** library/cidr.go parseCIDR: netip.ParsePrefix without IPv4-mapped IPv6 addresses; a CIDR or the error. */
export function parsePrefix(s: string): CIDR | string {
  const r = netipParsePrefix(s);
  if (typeof r === 'string') return `network address parse error during conversion from string: ${r}`;
  if (is4In6(r.ip.bytes)) return `IPv4-mapped IPv6 address ${JSON.stringify(s)} is not allowed`;
  return r;
}

/** stringToCIDR: its error wraps parseCIDR's in the same prefix again, as Go does. */
export function cidrOrFail(s: string): CIDR {
  const r = parsePrefix(s);
  if (typeof r === 'string') fail(`network address parse error during conversion from string: ${r}`);
  return r;
}

// ---------------------------------------------------------------------------------------------
// URLs

/** A parsed URL (the net/url fields the library exposes). */
export class URLValue implements OpaqueValue {
  readonly celTypeName = 'kubernetes.URL';
  constructor(
    readonly scheme: string,
    readonly host: string,
    readonly path: string,
    readonly rawQuery: string,
    readonly opaque: string,
    /** The path as written (Go's RawPath), and the fragment as written. */
    readonly rawPath = '',
    readonly fragment = '',
  ) {}
  /** url.URL.EscapedPath(): the path as written when it is a valid encoding, else the path escaped. */
  escapedPath(): string {
    if (this.rawPath && validEncodedPath(this.rawPath)) return this.rawPath;
    return this.path === '*' ? '*' : escapedPath(this.path);
  }
  /** url.URL.String() (no user info: the library never prints it). */
  goString(): string {
    let s = this.scheme ? `${this.scheme}:` : '';
    if (this.opaque) s += this.opaque;
    else {
      if (this.host || this.scheme) s += `//${escapeHost(this.host)}`;
      s += this.escapedPath();
    }
    if (this.rawQuery) s += `?${this.rawQuery}`;
    return this.fragment ? `${s}#${this.fragment}` : s;
  }
  equals(o: OpaqueValue): boolean {
    return o instanceof URLValue && this.scheme === o.scheme && this.host === o.host && this.path === o.path && this.rawQuery === o.rawQuery && this.opaque === o.opaque;
  }
}

/** validEncoded(s, encodePath): only bytes a path may hold unescaped, and escapes. */
function validEncodedPath(s: string): boolean {
  return /^[A-Za-z0-9\-._~!$&'()*+,;=:@[\]%/]*$/.test(s);
}

/** escape(host, encodeHost): non-ASCII bytes and '%' escaped. */
function escapeHost(h: string): string {
  return h.replace(/[^A-Za-z0-9!"$&'()*+,\-.;<=>[\]_~:]/gu, (c) => encodeURIComponent(c));
}

function urlUnescape(s: string, query: boolean): string | undefined {
  try {
    return decodeURIComponent(query ? s.replace(/\+/g, ' ') : s);
  } catch {
    return undefined;
  }
}

/**
 * stringToUrl: url.ParseRequestURI checks the text, then url.Parse makes the value (ParseRequestURI
 * would keep a fragment in the path or query); the error is ParseRequestURI's (`parse "x": missing protocol scheme`).
 */
export function parseRequestURI(raw: string): URLValue | string {
  const r = goURLParseRequestURI(raw);
  if (r.error !== undefined) return r.error;
  const p = goURLParse(raw);
  if (p.error !== undefined) return p.error;
  return new URLValue(p.url.scheme, p.url.host, urlUnescape(p.url.path, false) ?? p.url.path, p.url.rawQuery, p.url.opaque, p.url.path, p.url.fragment);
}

export function hostname(host: string): string {
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return host.slice(1, end);
  }
  const c = host.lastIndexOf(':');
  return c >= 0 ? host.slice(0, c) : host;
}

export function port(host: string): string {
  const start = host.startsWith('[') ? host.indexOf(']') + 1 : 0;
  const c = host.indexOf(':', start);
  return c >= 0 ? host.slice(c + 1) : '';
}

/** escape(path, encodePath): bytes outside net/url's path set percent-encoded (`*` and `!` included). */
export function escapedPath(p: string): string {
  return p.replace(/[^A-Za-z0-9\-._~$&+,/:;=@]/gu, (c) => [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''));
}

export function query(raw: string): Map<string, string[]> {
  const m = new Map<string, string[]>();
  if (raw === '') return m;
  for (const part of raw.split('&')) {
    if (part === '' || part.includes(';')) continue;
    const eq = part.indexOf('=');
    const k = urlUnescape(eq >= 0 ? part.slice(0, eq) : part, true);
    const v = urlUnescape(eq >= 0 ? part.slice(eq + 1) : '', true);
    if (k === undefined || v === undefined) continue;
    const l = m.get(k) ?? [];
    l.push(v);
    m.set(k, l);
  }
  return m;
}

// ---------------------------------------------------------------------------------------------
// Semver

/** A parsed semantic version. */
export class Semver implements OpaqueValue {
  readonly celTypeName = 'kubernetes.Semver';
  constructor(
    readonly major: bigint,
    readonly minor: bigint,
    readonly patch: bigint,
    readonly pre: string[],
  ) {}
  /** blang/semver Version.String() (build metadata is not kept). */
  goString(): string {
    return `${this.major}.${this.minor}.${this.patch}${this.pre.length ? '-' + this.pre.join('.') : ''}`;
  }
  compareTo(o: Semver): number {
    for (const k of ['major', 'minor', 'patch'] as const) {
      if (this[k] !== o[k]) return this[k] < o[k] ? -1 : 1;
    }
    if (this.pre.length === 0 && o.pre.length === 0) return 0;
    if (this.pre.length === 0) return 1;
    if (o.pre.length === 0) return -1;
    for (let i = 0; i < Math.min(this.pre.length, o.pre.length); i++) {
      const a = this.pre[i];
      const b = o.pre[i];
      const an = /^\d+$/.test(a);
      const bn = /^\d+$/.test(b);
      if (an && bn) {
        const x = BigInt(a);
        const y = BigInt(b);
        if (x !== y) return x < y ? -1 : 1;
      } else if (an !== bn) return an ? -1 : 1;
      else if (a !== b) return cmpString(a, b);
    }
    return this.pre.length === o.pre.length ? 0 : this.pre.length < o.pre.length ? -1 : 1;
  }
  equals(o: OpaqueValue): boolean {
    return o instanceof Semver && this.compareTo(o) === 0;
  }
}

/** strconv.ParseUint(s, 10, 64), failing with Go's error. */
function parseUint64(s: string): bigint {
  if (!/^\d+$/.test(s)) fail(`strconv.ParseUint: parsing ${goQuote(s)}: invalid syntax`);
  const v = BigInt(s);
  if (v > 18446744073709551615n) fail(`strconv.ParseUint: parsing ${goQuote(s)}: value out of range`);
  return v;
}

/** A version number of blang/semver: digits only (an empty one fails in ParseUint), no leading zero, uint64. */
function parseNumber(s: string, what: string): bigint {
  if (!/^\d*$/.test(s)) fail(`Invalid character(s) found in ${what} number ${goQuote(s)}`);
  if (s.length > 1 && s[0] === '0') fail(`${what[0].toUpperCase() + what.slice(1)} number must not contain leading zeroes ${goQuote(s)}`);
  return parseUint64(s);
}

const ALPHANUM = /^[0-9A-Za-z-]*$/;

/** blang/semver Parse, its checks in its order. */
export function parseSemver(s: string): Semver {
  if (s.length === 0) fail('Version string empty');
  const parts = s.split('.');
  if (parts.length < 3) fail('No Major.Minor.Patch elements found');
  const major = parseNumber(parts[0], 'major');
  const minor = parseNumber(parts[1], 'minor');
  let patchStr = parts.slice(2).join('.');
  let build: string[] = [];
  let pre: string[] = [];
  const plus = patchStr.indexOf('+');
  if (plus >= 0) {
    build = patchStr.slice(plus + 1).split('.');
    patchStr = patchStr.slice(0, plus);
  }
  const dash = patchStr.indexOf('-');
  if (dash >= 0) {
    pre = patchStr.slice(dash + 1).split('.');
    patchStr = patchStr.slice(0, dash);
  }
  const patch = parseNumber(patchStr, 'patch');
  for (const p of pre) {
    // NewPRVersion
    if (p === '') fail('Prerelease is empty');
    if (/^\d+$/.test(p)) {
      if (p.length > 1 && p[0] === '0') fail(`Numeric PreRelease version must not contain leading zeroes ${goQuote(p)}`);
      parseUint64(p);
    } else if (!ALPHANUM.test(p)) fail(`Invalid character(s) found in prerelease ${goQuote(p)}`);
  }
  for (const b of build) {
    if (b === '') fail('Build meta data is empty');
    if (!ALPHANUM.test(b)) fail(`Invalid character(s) found in build meta data ${goQuote(b)}`);
  }
  return new Semver(major, minor, patch, pre);
}

/**
 * The Kubernetes normalizing parse (semverlib.go normalizeAndParse): strip "v", drop leading zeros of
 * the first three dot-separated parts (a part left empty or not starting with a digit gets a "0"), pad
 * missing minor/patch.
 */
export function parseSemverNormalized(s: string): Semver {
  const v = s.startsWith('v') ? s.slice(1) : s;
  const dots = v.split('.');
  const parts = dots.length > 3 ? [dots[0], dots[1], dots.slice(2).join('.')] : dots;
  for (let i = 0; i < parts.length; i++) {
    let p = parts[i];
    if (p.length > 1) {
      p = p.replace(/^0+/, '');
      if (p === '' || !/[0-9]/.test(p[0])) p = `0${p}`;
      parts[i] = p;
    }
  }
  if (parts.length < 3) {
    if (/[+-]/.test(parts[parts.length - 1])) fail('short version cannot contain PreRelease/Build meta data');
    while (parts.length < 3) parts.push('0');
  }
  return parseSemver(parts.join('.'));
}

export function tryParseSemver(s: string, normalize: boolean): boolean {
  try {
    if (normalize) parseSemverNormalized(s);
    else parseSemver(s);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Format

// The DNS checks of apimachinery's util/validation (which format.go calls), shared with CRD validation.
const { isDNS1123Label: dns1123Label, isDNS1123Subdomain: dns1123Subdomain, isDNS1035Label: dns1035Label } = utilValidationChecks;

// qualifiedName and labelValue: util/validation's IsQualifiedName / IsValidLabelValue are content's
// IsLabelKey / IsLabelValue (lengths in bytes), shared with metadata validation.
const qualifiedName = isQualifiedName;
const labelValue = isValidLabelValue;

/** NameIsDNS*(name, prefix=true): a trailing '-' is allowed in a generateName prefix. */
function asPrefix(fn: (v: string) => string[]): (v: string) => string[] {
  return (v) => fn(v.endsWith('-') ? v.slice(0, -1) + 'a' : v);
}

export const VALIDATORS: Record<string, (v: string) => string[]> = {
  dns1123Label,
  dns1123Subdomain,
  dns1035Label,
  qualifiedName,
  dns1123LabelPrefix: asPrefix(dns1123Label),
  dns1123SubdomainPrefix: asPrefix(dns1123Subdomain),
  dns1035LabelPrefix: asPrefix(dns1035Label),
  labelValue,
  // url.ParseRequestURI alone, as the format library checks it.
  uri: (v) => {
    const r = goURLParseRequestURI(v);
    return r.error !== undefined ? [r.error] : [];
  },
  uuid: (v) => (/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(v) ? [] : ['does not match the UUID format']),
  byte: (v) => (/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(v) ? [] : ['invalid base64']),
  date: (v) => (/^\d{4}-\d{2}-\d{2}$/.test(v) && parseRFC3339(`${v}T00:00:00Z`) ? [] : ['invalid date']),
  datetime: (v) => (parseRFC3339(v) ? [] : ['invalid datetime']),
};

/** A named format validator value. */
export class NamedFormat implements OpaqueValue {
  readonly celTypeName = 'kubernetes.NamedFormat';
  constructor(readonly name: string) {}
  equals(o: OpaqueValue): boolean {
    return o instanceof NamedFormat && this.name === o.name;
  }
}

// ---------------------------------------------------------------------------------------------
// The declarations.

/** Cost of parsing the first argument: a traversal of it (Kubernetes CostEstimator). */
const parseCost = {
  estimate: (ctx: EstimatorContext, _id: string, _t: EstimateNode | undefined, args: EstimateNode[]) => (args.length >= 1 ? { cost: R.factor(ctx.sizeEstimate(args[0]), STRING_TRAVERSAL_COST_FACTOR) } : undefined),
  cost: (_id: string, args: Val[]) => (args.length >= 1 ? traversal(k8sActualSize(args[0])) : undefined),
};

/** Accessors and comparisons of the Kubernetes types cost 1 (estimate and runtime). */
const unitCost = { estimate: () => ({ cost: fixed(1) }), cost: () => 1 };

export const QUANTITY: Library = {
  name: 'kubernetes.quantity',
  since: 28,
  types: ['kubernetes.Quantity'],
  functions: [
    fn('quantity', 'parses a Kubernetes resource quantity ("100m", "1Gi")', [['string_to_quantity', 'quantity(string): Quantity', quantityOrFail]], parseCost),
    fn('isQuantity', 'whether the string is a valid quantity', [['is_quantity_string', 'isQuantity(string): bool', (s: string) => typeof parseQuantity(s) !== 'string']], parseCost),
    fn('sign', 'the sign of the quantity: -1, 0 or 1', [['quantity_sign', 'sign(Quantity): int', (q: Quantity) => BigInt(q.num > 0n ? 1 : q.num < 0n ? -1 : 0)]], unitCost),
    fn('isGreaterThan', 'whether this quantity (semver) is greater than the other', [['quantity_is_greater_than', 'Quantity.isGreaterThan(Quantity): bool', (a: Quantity, b: Quantity) => a.compareTo(b) > 0]], unitCost),
    fn('isLessThan', 'whether this quantity (semver) is less than the other', [['quantity_is_less_than', 'Quantity.isLessThan(Quantity): bool', (a: Quantity, b: Quantity) => a.compareTo(b) < 0]], unitCost),
    fn('compareTo', 'compares with the other quantity (semver): -1, 0 or 1', [['quantity_compare_to', 'Quantity.compareTo(Quantity): int', (a: Quantity, b: Quantity) => BigInt(a.compareTo(b))]], unitCost),
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

function containsCost(kind: 'ip' | 'cidr') {
  return {
    estimate: (ctx: EstimatorContext, id: string, _t: EstimateNode | undefined, args: EstimateNode[]) => {
      if (args.length < 1) return undefined;
      const sz = { min: 4, max: 16 };
      let c = R.factor(R.add(sz, sz), STRING_TRAVERSAL_COST_FACTOR);
      if (kind === 'cidr') c = R.add(R.add(c, R.factor(sz, STRING_TRAVERSAL_COST_FACTOR)), fixed(1));
      if (id === `cidr_contains_${kind}_string`) c = R.add(c, R.factor(ctx.sizeEstimate(args[0]), STRING_TRAVERSAL_COST_FACTOR));
      return { cost: c };
    },
    cost: (id: string, args: Val[]) => {
      if (args.length < 2) return undefined;
      const cidrSize = k8sActualSize(args[0]);
      let c = traversal(cidrSize + cidrSize);
      if (kind === 'cidr') c += traversal(cidrSize) + 1;
      if (id === `cidr_contains_${kind}_string`) c += traversal(k8sActualSize(args[1]));
      return c;
    },
  };
}

export const IP_LIB: Library = {
  name: 'kubernetes.net.ip',
  since: 30,
  types: ['net.IP'],
  functions: [
    fn(
      'ip',
      'parses an IPv4 or IPv6 address; of a CIDR: its address',
      [
        ['string_to_ip', 'ip(string): IP', ipOrFail],
        ['cidr_ip', 'CIDR.ip(): IP', (c: CIDR) => c.ip],
      ],
      {
        estimate: (ctx, id, _t, args) => (id === 'cidr_ip' ? { cost: fixed(1) } : args.length >= 1 ? { cost: R.factor(ctx.sizeEstimate(args[0]), STRING_TRAVERSAL_COST_FACTOR) } : undefined),
        cost: (id, args) => (id === 'cidr_ip' ? 1 : traversal(k8sActualSize(args[0]))),
      },
    ),
    fn('isIP', 'whether the string is a valid IP address', [['is_ip', 'isIP(string): bool', (s: string) => typeof parseAddr(s) !== 'string']], parseCost),
    fn('ip.isCanonical', 'whether the IP address is written in canonical form', [['ip_is_canonical', 'ip.isCanonical(string): bool', (s: string) => formatIP(ipOrFail(s).bytes) === s]], {
      estimate: (ctx, _id, _t, args) => (args.length >= 1 ? { cost: R.factor(ctx.sizeEstimate(args[0]), 2 * STRING_TRAVERSAL_COST_FACTOR) } : undefined),
      cost: (_id, args) => Math.ceil(k8sActualSize(args[0]) * 2 * STRING_TRAVERSAL_COST_FACTOR),
    }),
    fn('string', 'the address as a string', [['ip_to_string', 'string(IP): string', (v: IP) => v.toCelString()]]),
    fn('family', 'the IP family: 4 or 6', [['ip_family', 'IP.family(): int', (v: IP) => BigInt(v.family)]], unitCost),
    fn('isUnspecified', 'whether the address is 0.0.0.0 or ::', [['ip_is_unspecified', 'IP.isUnspecified(): bool', (v: IP) => v.bytes.every((b) => b === 0)]], unitCost),
    fn(
      'isLoopback',
      'whether the address is a loopback address',
      [['ip_is_loopback', 'IP.isLoopback(): bool', (v: IP) => (v.family === 4 ? v.bytes[0] === 127 : v.bytes.slice(0, 15).every((b) => b === 0) && v.bytes[15] === 1)]],
      unitCost,
    ),
    fn(
      'isLinkLocalMulticast',
      'whether the address is a link-local multicast address',
      [['ip_is_link_local_multicast', 'IP.isLinkLocalMulticast(): bool', (v: IP) => (v.family === 4 ? v.bytes[0] === 224 && v.bytes[1] === 0 && v.bytes[2] === 0 : v.bytes[0] === 0xff && (v.bytes[1] & 0x0f) === 0x02)]],
      unitCost,
    ),
    fn(
      'isLinkLocalUnicast',
      'whether the address is a link-local unicast address',
      [['ip_is_link_local_unicast', 'IP.isLinkLocalUnicast(): bool', (v: IP) => (v.family === 4 ? v.bytes[0] === 169 && v.bytes[1] === 254 : v.bytes[0] === 0xfe && (v.bytes[1] & 0xc0) === 0x80)]],
      unitCost,
    ),
    fn(
      'isGlobalUnicast',
      'whether the address is a global unicast address',
      [
        [
          'ip_is_global_unicast',
          'IP.isGlobalUnicast(): bool',
          (v: IP) => {
            const b = v.bytes;
            if (v.family === 4) {
              if (b.every((x) => x === 255)) return false;
              return !(b.every((x) => x === 0) || b[0] === 127 || (b[0] === 169 && b[1] === 254) || b[0] >= 224);
            }
            if (b.every((x) => x === 0) || (b.slice(0, 15).every((x) => x === 0) && b[15] === 1)) return false;
            return !(b[0] === 0xff || (b[0] === 0xfe && (b[1] & 0xc0) === 0x80));
          },
        ],
      ],
      unitCost,
    ),
  ],
};

export const CIDR_LIB: Library = {
  name: 'kubernetes.net.cidr',
  since: 30,
  types: ['net.CIDR'],
  functions: [
    fn('cidr', 'parses a CIDR ("10.0.0.0/8")', [['string_to_cidr', 'cidr(string): CIDR', cidrOrFail]], parseCost),
    fn('isCIDR', 'whether the string is a valid CIDR', [['is_cidr', 'isCIDR(string): bool', (s: string) => typeof parsePrefix(s) !== 'string']], parseCost),
    fn('string', 'the CIDR as a string', [['cidr_to_string', 'string(CIDR): string', (v: CIDR) => v.toCelString()]]),
    fn(
      'containsIP',
      'whether the CIDR contains the address',
      [
        [
          'cidr_contains_ip_string',
          'CIDR.containsIP(string): bool',
          (c: CIDR, s: string) => {
            const r = parseAddr(s);
            return typeof r === 'string' ? fail('no such overload') : c.containsIP(new IP(r));
          },
        ],
        ['cidr_contains_ip_ip', 'CIDR.containsIP(IP): bool', (c: CIDR, ip: IP) => c.containsIP(ip)],
      ],
      containsCost('ip'),
    ),
    fn(
      'containsCIDR',
      'whether the CIDR contains the other CIDR',
      [
        ['cidr_contains_cidr_string', 'CIDR.containsCIDR(string): bool', (c: CIDR, s: string) => c.containsCIDR(cidrOrFail(s))],
        ['cidr_contains_cidr', 'CIDR.containsCIDR(CIDR): bool', (c: CIDR, o: CIDR) => c.containsCIDR(o)],
      ],
      containsCost('cidr'),
    ),
    fn('masked', 'the CIDR with the host bits cleared', [['cidr_masked', 'CIDR.masked(): CIDR', (c: CIDR) => c.masked()]], unitCost),
    fn('prefixLength', 'the prefix length in bits', [['cidr_prefix_length', 'CIDR.prefixLength(): int', (c: CIDR) => BigInt(c.bits)]], unitCost),
  ],
};

function urlOrFail(s: string): URLValue {
  const u = parseRequestURI(s);
  if (typeof u === 'string') fail(`URL parse error during conversion from string: ${u}`);
  return u;
}

export const URLS: Library = {
  name: 'kubernetes.urls',
  since: 0,
  types: ['kubernetes.URL'],
  functions: [
    fn('url', 'parses an absolute URI or absolute path', [['string_to_url', 'url(string): URL', urlOrFail]], {
      estimate: (ctx, _id, _t, args) => {
        if (args.length !== 1) return undefined;
        const sz = ctx.sizeEstimate(args[0]);
        return { cost: R.factor(sz, STRING_TRAVERSAL_COST_FACTOR), resultSize: sz };
      },
      cost: (_id, args) => traversal(k8sActualSize(args[0])),
    }),
    fn('isURL', 'whether the string is a valid URL', [['is_url_string', 'isURL(string): bool', (s: string) => goURLParseRequestURI(s).error === undefined]]),
    fn('getScheme', 'the scheme ("https")', [['url_get_scheme', 'URL.getScheme(): string', (u: URLValue) => u.scheme]], unitCost),
    fn('getHost', 'the host with its port', [['url_get_host', 'URL.getHost(): string', (u: URLValue) => u.host]], unitCost),
    fn('getHostname', 'the host without its port', [['url_get_hostname', 'URL.getHostname(): string', (u: URLValue) => hostname(u.host)]], unitCost),
    fn('getPort', 'the port ("" when absent)', [['url_get_port', 'URL.getPort(): string', (u: URLValue) => port(u.host)]], unitCost),
    fn('getEscapedPath', 'the escaped path', [['url_get_escaped_path', 'URL.getEscapedPath(): string', (u: URLValue) => u.escapedPath()]], unitCost),
    fn('getQuery', 'the query parameters', [['url_get_query', 'URL.getQuery(): map<string, list<string>>', (u: URLValue) => new Map(query(u.rawQuery))]], unitCost),
  ],
};

export const SEMVER: Library = {
  name: 'kubernetes.semver',
  since: 33,
  types: ['kubernetes.Semver'],
  functions: [
    fn(
      'semver',
      'parses a semantic version; with true, normalizes ("v1.2" -> 1.2.0)',
      [
        ['string_to_semver', 'semver(string): Semver', (s: string) => parseSemver(s)],
        ['string_bool_to_semver', 'semver(string, bool): Semver', (s: string, n: boolean) => (n ? parseSemverNormalized(s) : parseSemver(s))],
      ],
      parseCost,
    ),
    fn(
      'isSemver',
      'whether the string is a valid semantic version (normalizing with true)',
      [
        ['is_semver_string', 'isSemver(string): bool', (s: string) => tryParseSemver(s, false)],
        ['is_semver_string_bool', 'isSemver(string, bool): bool', (s: string, n: boolean) => tryParseSemver(s, n)],
      ],
      parseCost,
    ),
    fn('isGreaterThan', 'whether this version is greater than the other', [['semver_is_greater_than', 'Semver.isGreaterThan(Semver): bool', (a: Semver, b: Semver) => a.compareTo(b) > 0]], unitCost),
    fn('isLessThan', 'whether this version is less than the other', [['semver_is_less_than', 'Semver.isLessThan(Semver): bool', (a: Semver, b: Semver) => a.compareTo(b) < 0]], unitCost),
    fn('compareTo', 'compares with the other version: -1, 0 or 1', [['semver_compare_to', 'Semver.compareTo(Semver): int', (a: Semver, b: Semver) => BigInt(a.compareTo(b))]], unitCost),
    // types.Int(uint64): Go's conversion wraps above int64 (18446744073709551615 is -1).
    fn('major', 'the major version', [['semver_major', 'Semver.major(): int', (a: Semver) => BigInt.asIntN(64, a.major)]], unitCost),
    fn('minor', 'the minor version', [['semver_minor', 'Semver.minor(): int', (a: Semver) => BigInt.asIntN(64, a.minor)]], unitCost),
    fn('patch', 'the patch version', [['semver_patch', 'Semver.patch(): int', (a: Semver) => BigInt.asIntN(64, a.patch)]], unitCost),
  ],
};

/** format.go's MaxRegexSize per named format (the runtime cost of validate()). */
const UUID_PATTERN = '(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$';
const DATETIME_PATTERN = '^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$';
const MAX_REGEX_SIZE: Record<string, number> = {
  dns1123Label: 30,
  dns1123Subdomain: 60,
  dns1035Label: 30,
  qualifiedName: 60,
  dns1123LabelPrefix: 30,
  dns1123SubdomainPrefix: 60,
  dns1035LabelPrefix: 30,
  labelValue: 40,
  uri: 1103,
  uuid: UUID_PATTERN.length,
  byte: 84,
  date: DATETIME_PATTERN.length,
  datetime: DATETIME_PATTERN.length,
};
const MAX_NAME_FORMAT_REGEX_SIZE = 128;

export const FORMAT: Library = {
  name: 'kubernetes.format',
  since: 31,
  types: ['kubernetes.NamedFormat'],
  functions: [
    ...Object.keys(VALIDATORS).map((name) => fn(`format.${name}`, `the ${name} format, for validate()`, [[`format_${name}`, `format.${name}(): Format`, () => new NamedFormat(name)]])),
    fn(
      'format.named',
      'the named format, if it exists',
      [['format_named', 'format.named(string): optional<Format>', (s: string) => (Object.hasOwn(VALIDATORS, s) ? Optional.of(new NamedFormat(s)) : Optional.none())]],
      unitCost,
    ),
    fn(
      'validate',
      'validates the string: none when valid, else the list of errors',
      [
        [
          'format_validate',
          'Format.validate(string): optional<list<string>>',
          (f: NamedFormat, s: string) => {
            const errs = VALIDATORS[f.name](s);
            return errs.length ? Optional.of(errs) : Optional.none();
          },
        ],
      ],
      {
        estimate: (ctx, _id, _t, args) =>
          args.length >= 1 ? { cost: R.factor(R.factor(ctx.sizeEstimate(args[0]), STRING_TRAVERSAL_COST_FACTOR), MAX_NAME_FORMAT_REGEX_SIZE * REGEX_STRING_LENGTH_COST_FACTOR) } : undefined,
        cost: (_id, args) => (args[0] instanceof NamedFormat ? regexCost(k8sActualSize(args[1]), MAX_REGEX_SIZE[args[0].name] ?? MAX_NAME_FORMAT_REGEX_SIZE) : undefined),
      },
    ),
  ],
};

/** The authorization library's functions (no implementation: a CRD rule has no authorizer value). */
export const AUTHZ: Library = {
  name: 'kubernetes.authz',
  since: 27,
  functions: [
    fn('path', '', [['authorizer_path', 'Authorizer.path(string): PathCheck']]),
    fn('group', '', [['authorizer_group', 'Authorizer.group(string): GroupCheck']]),
    fn('serviceAccount', '', [['authorizer_serviceaccount', 'Authorizer.serviceAccount(string, string): Authorizer']]),
    fn('resource', '', [['groupcheck_resource', 'GroupCheck.resource(string): ResourceCheck']]),
    fn('subresource', '', [['resourcecheck_subresource', 'ResourceCheck.subresource(string): ResourceCheck']]),
    fn('namespace', '', [['resourcecheck_namespace', 'ResourceCheck.namespace(string): ResourceCheck']]),
    fn('name', '', [['resourcecheck_name', 'ResourceCheck.name(string): ResourceCheck']]),
    fn('check', '', [
      ['pathcheck_check', 'PathCheck.check(string): Decision'],
      ['resourcecheck_check', 'ResourceCheck.check(string): Decision'],
    ]),
    fn('errored', '', [['decision_errored', 'Decision.errored(): bool']]),
    fn('error', '', [['decision_error', 'Decision.error(): string']]),
    fn('allowed', '', [['decision_allowed', 'Decision.allowed(): bool']]),
    fn('reason', '', [['decision_reason', 'Decision.reason(): string']]),
  ],
};

/** AuthzSelectors (1.31): field and label selectors on resource checks. */
export const AUTHZ_SELECTORS: Library = {
  name: 'kubernetes.authzSelectors',
  since: 31,
  functions: [
    fn('fieldSelector', '', [['authorizer_fieldselector', 'ResourceCheck.fieldSelector(string): ResourceCheck']]),
    fn('labelSelector', '', [['authorizer_labelselector', 'ResourceCheck.labelSelector(string): ResourceCheck']]),
  ],
};
