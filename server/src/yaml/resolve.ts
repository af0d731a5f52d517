/**
 * Scalars as kubectl reads them. kubectl and the API server decode YAML with sigs.k8s.io/yaml: go-yaml
 * v2 decodes into interface{} (its `resolve` picks the type of a scalar from its text and tag), map keys
 * become strings, encoding/json writes the result, and k8s.io/apimachinery/pkg/util/json reads it back
 * (int64 when the number is written as an integer and fits, float64 otherwise). This module restates
 * those steps for one scalar: resolveScalar (go-yaml v2 resolve.go plus decode.go's scalar), then
 * jsonValue (the JSON round trip) or mapKey (sigs.k8s.io/yaml's key conversion).
 *
 * Checked row by row against the Go code by test/oracle/yamlconv (test/oracle/yaml-table.test.ts).
 */
import { IntegralFloat } from '../engine';

/** A scalar decoded by go-yaml v2 into interface{} (Go's dynamic type). */
export type GoScalar =
  | { kind: 'null' }
  | { kind: 'bool'; value: boolean }
  /** Go int/int64 (always within int64). */
  | { kind: 'int'; value: bigint }
  /** Go uint64 above int64's range. */
  | { kind: 'uint'; value: bigint }
  | { kind: 'float'; value: number }
  | { kind: 'string'; value: string };

/** A scalar go-yaml v2 refuses (decode fails with this message, after "yaml: "). */
export class GoDecodeError extends Error {}

export const TAG_PREFIX = 'tag:yaml.org,2002:';
const STR = `${TAG_PREFIX}str`;
const BOOL = `${TAG_PREFIX}bool`;
const INT = `${TAG_PREFIX}int`;
const FLOAT = `${TAG_PREFIX}float`;
const NULL = `${TAG_PREFIX}null`;
const TIMESTAMP = `${TAG_PREFIX}timestamp`;
const BINARY = `${TAG_PREFIX}binary`;
export const MERGE_TAG = `${TAG_PREFIX}merge`;

/** go-yaml's shortTag: `tag:yaml.org,2002:int` -> `!!int`. */
export function shortTag(tag: string): string {
  return tag.startsWith(TAG_PREFIX) ? `!!${tag.slice(TAG_PREFIX.length)}` : tag;
}

const RESOLVE_MAP = new Map<string, { tag: string; value: GoScalar | 'nan' | 'inf' | '-inf' | 'merge' }>();
{
  const add = (tag: string, value: GoScalar | 'nan' | 'inf' | '-inf' | 'merge', words: string[]) => words.forEach((w) => RESOLVE_MAP.set(w, { tag, value }));
  const t: GoScalar = { kind: 'bool', value: true };
  const f: GoScalar = { kind: 'bool', value: false };
  add(BOOL, t, ['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON']);
  add(BOOL, f, ['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF']);
  add(NULL, { kind: 'null' }, ['', '~', 'null', 'Null', 'NULL']);
  add(FLOAT, 'nan', ['.nan', '.NaN', '.NAN']);
  add(FLOAT, 'inf', ['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF']);
  add(FLOAT, '-inf', ['-.inf', '-.Inf', '-.INF']);
  add(MERGE_TAG, 'merge', ['<<']);
}

/** go-yaml's resolveTable: the hint of a scalar's first character ('N' for the empty scalar). */
function hint(s: string): 'S' | 'D' | 'M' | '.' | 'N' | undefined {
  if (s === '') return 'N';
  switch (s.charCodeAt(0)) {
    case 0x2b /* + */:
    case 0x2d /* - */:
      return 'S';
    case 0x30:
    case 0x31:
    case 0x32:
    case 0x33:
    case 0x34:
    case 0x35:
    case 0x36:
    case 0x37:
    case 0x38:
    case 0x39:
      return 'D';
    case 0x79 /* y */:
    case 0x59 /* Y */:
    case 0x6e /* n */:
    case 0x4e /* N */:
    case 0x74 /* t */:
    case 0x54 /* T */:
    case 0x66 /* f */:
    case 0x46 /* F */:
    case 0x6f /* o */:
    case 0x4f /* O */:
    case 0x7e /* ~ */:
      return 'M';
    case 0x2e /* . */:
      return '.';
    default:
      return undefined;
  }
}

const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/**
 * Go's strconv.ParseInt(s, 0, 64) / ParseUint(s, 0, 64) on a string without underscores: an optional
 * sign (ParseInt only), then `0x`/`0o`/`0b` (any case) or a leading `0` (octal) or decimal digits.
 */
function parseGoInt(s: string, unsigned: boolean): bigint | undefined {
  let i = 0;
  let neg = false;
  if (!unsigned && (s[0] === '+' || s[0] === '-')) {
    neg = s[0] === '-';
    i = 1;
  }
  let base = 10;
  let digits = s.slice(i);
  if (digits.length >= 2 && digits[0] === '0') {
    const p = digits[1].toLowerCase();
    if (p === 'x') base = 16;
    else if (p === 'o') base = 8;
    else if (p === 'b') base = 2;
    if (base !== 10) digits = digits.slice(2);
    else {
      base = 8;
      digits = digits.slice(1);
    }
  }
  if (digits === '') return undefined;
  const ok = base === 16 ? /^[0-9a-fA-F]+$/ : base === 8 ? /^[0-7]+$/ : base === 2 ? /^[01]+$/ : /^[0-9]+$/;
  if (!ok.test(digits)) return undefined;
  const prefix = base === 16 ? '0x' : base === 8 ? '0o' : base === 2 ? '0b' : '';
  let v = BigInt(prefix + digits);
  if (neg) v = -v;
  if (unsigned) return v <= UINT64_MAX ? v : undefined;
  return v >= INT64_MIN && v <= INT64_MAX ? v : undefined;
}

/**
 * Go's underscoreOK: underscores only between digits (or a base prefix and a digit). strconv.ParseFloat
 * accepts `1_000.5` but not `1__0` or `_1`.
 */
function underscoreOK(s: string): boolean {
  let saw = '^';
  let i = 0;
  if (s[0] === '+' || s[0] === '-') s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === '0' && 'bBoOxX'.includes(s[1])) {
    i = 2;
    saw = '0';
    hex = s[1] === 'x' || s[1] === 'X';
  }
  for (; i < s.length; i++) {
    const c = s[i];
    if ((c >= '0' && c <= '9') || (hex && /[a-fA-F]/.test(c))) {
      saw = '0';
      continue;
    }
    if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

/**
 * Go's strconv.ParseFloat(s, 64) for the texts go-yaml gives it: decimal only (the callers' texts start
 * with `.` or matched yamlStyleFloat), underscores as Go allows them. Undefined when Go returns an error,
 * which includes overflow to ±Inf (Go's ErrRange); underflow gives 0 without error, as in Go.
 */
function parseGoFloat(s: string): number | undefined {
  if (s.includes('_')) {
    if (!underscoreOK(s)) return undefined;
    s = s.replace(/_/g, '');
  }
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(s)) return undefined;
  const f = Number(s);
  return Number.isFinite(f) ? f : undefined;
}

/** go-yaml's parseTimestamp: four digits and `-`, then one of its layouts (checked by shape only). */
function isTimestamp(s: string): boolean {
  let i = 0;
  while (i < s.length && s[i] >= '0' && s[i] <= '9') i++;
  if (i !== 4 || i === s.length || s[i] !== '-') return false;
  return TIMESTAMP_LAYOUTS.some((re) => {
    const m = re.exec(s);
    return m !== null && validDate(+m[1], +m[2], +m[3]) && (m[4] === undefined || validTime(+m[4], +m[5], +m[6]));
  });
}

// Go's time.Parse layouts "2006-1-2T15:4:5.999999999Z07:00", "2006-1-2t15:4:5.999999999Z07:00",
// "2006-1-2 15:4:5.999999999", "2006-1-2": one- or two-digit fields, optional fraction, zone Z or ±hh:mm.
const TIMESTAMP_LAYOUTS = [
  /^(\d{4})-(\d{1,2})-(\d{1,2})[Tt](\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/,
  /^(\d{4})-(\d{1,2})-(\d{1,2}) (\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?$/,
  /^(\d{4})-(\d{1,2})-(\d{1,2})$/,
];

function validDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return d <= days[m - 1];
}

function validTime(h: number, mi: number, s: number): boolean {
  return h < 24 && mi < 60 && s < 60;
}

type Resolved = { tag: string; value: GoScalar | 'nan' | 'inf' | '-inf' | 'merge' };

/** go-yaml v2's resolve(tag, in) for the tags it resolves; the defer's tag check included. */
function resolve(tag: string, s: string): Resolved {
  const r = resolveUnchecked(tag, s);
  if (tag === '' || tag === r.tag || tag === STR || tag === BINARY) return r;
  if (tag === FLOAT && r.tag === INT && typeof r.value === 'object' && r.value.kind === 'int') {
    return { tag: FLOAT, value: { kind: 'float', value: Number(r.value.value) } };
  }
  throw new GoDecodeError(`cannot decode ${shortTag(r.tag)} \`${s}\` as a ${shortTag(tag)}`);
}

function resolveUnchecked(tag: string, s: string): Resolved {
  const h = hint(s);
  if (h !== undefined && tag !== STR && tag !== BINARY) {
    const known = RESOLVE_MAP.get(s);
    if (known) return known;
    if (h === '.') {
      const f = parseGoFloat(s);
      if (f !== undefined) return { tag: FLOAT, value: { kind: 'float', value: f } };
    } else if (h === 'D' || h === 'S') {
      if ((tag === '' || tag === TIMESTAMP) && isTimestamp(s)) return { tag: TIMESTAMP, value: { kind: 'string', value: s } };
      const plain = s.includes('_') ? s.replace(/_/g, '') : s;
      const i = parseGoInt(plain, false);
      if (i !== undefined) return { tag: INT, value: { kind: 'int', value: i } };
      const u = parseGoInt(plain, true);
      if (u !== undefined) return { tag: INT, value: u > INT64_MAX ? { kind: 'uint', value: u } : { kind: 'int', value: u } };
      if (YAML_STYLE_FLOAT.test(plain)) {
        const f = parseGoFloat(plain);
        if (f !== undefined) return { tag: FLOAT, value: { kind: 'float', value: f } };
      }
      // The `0b`/`-0b` branches of resolve only matter when ParseInt(·, 0, 64) failed, where they fail too.
    }
  }
  return { tag: STR, value: { kind: 'string', value: s } };
}

/**
 * What go-yaml v2 decodes a scalar into (interface{}): `plain` for an untagged plain scalar (go-yaml's
 * `implicit`), `tag` the explicit tag in long form ('' when none; non-specific `!` and local tags are
 * kept as written). Throws GoDecodeError where go-yaml fails. Infinities and NaN come back as floats
 * (encoding/json refuses them later: see jsonValue).
 */
export function resolveScalar(value: string, plain: boolean, tag: string): GoScalar {
  if (tag === '' && !plain) return { kind: 'string', value };
  // Most plain scalars (names, images, keys) start with no character any resolution looks at: a string.
  if (tag === '' && hint(value) === undefined) return { kind: 'string', value };
  if (!isResolvableTag(tag)) {
    if (tag === BINARY) return { kind: 'string', value: decodeBinary(value) };
    return { kind: 'string', value };
  }
  const r = resolve(tag, value);
  switch (r.value) {
    case 'nan':
      return { kind: 'float', value: NaN };
    case 'inf':
      return { kind: 'float', value: Infinity };
    case '-inf':
      return { kind: 'float', value: -Infinity };
    case 'merge':
      return { kind: 'string', value };
    default:
      return r.value;
  }
}

/**
 * jsonValue(resolveScalar(s, true, '')): the JSON value of an untagged plain scalar, without the Go
 * value in between where the text alone decides (most scalars of a manifest: names, images, quantities,
 * ports). Throws as they do.
 */
export function plainJsonValue(s: string): unknown {
  const c = s.charCodeAt(0);
  // Decimal digits without a leading zero (which would be octal), few enough to be exact: that integer.
  if (c >= 0x31 /* 1 */ && c <= 0x39 /* 9 */ && s.length <= 15 && allIn(s, DIGITS)) return Number(s);
  return isPlainString(s) ? s : jsonValue(resolveScalar(s, true, ''));
}

/** mapKey(resolveScalar(s, true, ''), valueGoSyntax) of an untagged plain key, without the Go value where the text alone decides. */
export function plainMapKey(s: string, valueGoSyntax: () => string): string {
  return isPlainString(s) ? s : mapKey(resolveScalar(s, true, ''), valueGoSyntax);
}

/**
 * Whether an untagged plain scalar resolves to itself (a string) by its text alone: when no resolution
 * looks at its first character; when it starts with one of `yYnNtTfFoO~` and is not a word of
 * RESOLVE_MAP (none is longer than five characters), the only other values it could have; when it
 * starts with a digit, or a sign not followed by `.` (`-.inf`), and has a character that no number or
 * timestamp is written with.
 */
function isPlainString(s: string): boolean {
  const h = hint(s);
  if (h === undefined) return true;
  if (h === 'M') return s.length > 5 || !RESOLVE_MAP.has(s);
  if (h === 'D' || (h === 'S' && s.charCodeAt(1) !== 0x2e) /* . */) return !allIn(s, NUMBER_CHARS);
  return false;
}

/** A table of the ASCII characters in `chars`. */
function charTable(chars: string): Uint8Array {
  const t = new Uint8Array(128);
  for (let i = 0; i < chars.length; i++) t[chars.charCodeAt(i)] = 1;
  return t;
}

const DIGITS = charTable('0123456789');
/**
 * What go-yaml's numbers and timestamps are written with: digits, signs, `_`, `.`, exponents, the base
 * prefixes and hex digits of ParseInt, and the separators and zone of the timestamp layouts.
 */
const NUMBER_CHARS = charTable('0123456789abcdefABCDEFxXoO+-._: tTZ');

/** Whether every character of s is in the table. */
function allIn(s: string, table: Uint8Array): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 128 || table[c] === 0) return false;
  }
  return true;
}

/** True for a plain `<<` that go-yaml takes as a merge key (untagged or tagged !!merge). */
export function isMergeKey(value: string, plain: boolean, tag: string): boolean {
  return value === '<<' && ((plain && tag === '') || tag === MERGE_TAG);
}

/** Whether go-yaml treats the node as null before decoding (prepare): `!!null`, or an untagged null word. */
export function isResolvableTag(tag: string): boolean {
  return tag === '' || tag === STR || tag === BOOL || tag === INT || tag === FLOAT || tag === NULL || tag === TIMESTAMP;
}

/** Go's base64.StdEncoding.DecodeString (line breaks ignored), then the bytes as a Go string written by encoding/json. */
function decodeBinary(s: string): string {
  const b64 = s.replace(/[\r\n]/g, '');
  if (b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(b64)) {
    throw new GoDecodeError('!!binary value contains invalid base64 data');
  }
  return goStringFromBytes(Buffer.from(b64, 'base64'));
}

/** Bytes as encoding/json writes a Go string: each byte of an invalid UTF-8 sequence becomes U+FFFD. */
export function goStringFromBytes(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    let n = 0;
    let cp = 0;
    let min = 0;
    if (b < 0x80) {
      out += String.fromCharCode(b);
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) [n, cp, min] = [1, b & 0x1f, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [n, cp, min] = [2, b & 0x0f, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [n, cp, min] = [3, b & 0x07, 0x10000];
    let ok = n > 0 && i + n < bytes.length;
    for (let k = 1; ok && k <= n; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) ok = false;
      else cp = (cp << 6) | (c & 0x3f);
    }
    if (ok && cp >= min && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff)) {
      out += String.fromCodePoint(cp);
      i += n + 1;
    } else {
      out += '\ufffd';
      i++;
    }
  }
  return out;
}

/** A number encoding/json cannot write: kubectl stops with this error. */
export class JsonValueError extends Error {}

/**
 * The JSON value the API server gets for a decoded scalar: encoding/json writes the Go value and
 * apimachinery's json reads it back. An integral float64 below 1e21 is written without a fraction and
 * read back as int64 when it fits; other floats stay floats (IntegralFloat when integral); uint64 above
 * int64 is read back as a float. Infinities and NaN throw JsonValueError ("json: unsupported value").
 */
export function jsonValue(s: GoScalar): unknown {
  switch (s.kind) {
    case 'null':
      return null;
    case 'bool':
    case 'string':
      return s.value;
    case 'int':
      return intValue(s.value);
    case 'uint':
      return new IntegralFloat(Number(s.value));
    case 'float':
      return floatValue(s.value);
  }
}

function intValue(v: bigint): number | bigint {
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
}

function floatValue(f: number): unknown {
  if (Number.isNaN(f)) throw new JsonValueError('json: unsupported value: NaN');
  if (!Number.isFinite(f)) throw new JsonValueError(`json: unsupported value: ${f > 0 ? '+Inf' : '-Inf'}`);
  if (!Number.isInteger(f)) return f;
  if (Math.abs(f) < 1e21) {
    // Written without a fraction: the shortest digits that read back as f, padded with zeros (Go's 'f'
    // format, and JavaScript's), so 2^62 is sent as 4611686018427388000; read back as int64 when it fits.
    const b = BigInt(String(f));
    if (b >= INT64_MIN && b <= INT64_MAX) return intValue(b);
  }
  return new IntegralFloat(f);
}

/** A map key sigs.k8s.io/yaml cannot turn into a JSON key. */
export class KeyConversionError extends Error {}

/**
 * sigs.k8s.io/yaml's conversion of a decoded map key to a JSON key: strings as they are, ints in
 * decimal, floats as strconv.FormatFloat(f, 'g', -1, 32) (with `.inf`, `-.inf`, `.nan`), booleans as
 * `true`/`false`. Null and uint64 keys throw KeyConversionError (kubectl's message, given the value's
 * Go syntax for the message).
 */
export function mapKey(k: GoScalar, valueGoSyntax: () => string): string {
  switch (k.kind) {
    case 'string':
      return k.value;
    case 'int':
      return k.value.toString();
    case 'bool':
      return k.value ? 'true' : 'false';
    case 'float':
      return formatFloat32g(k.value);
    case 'null':
      throw new KeyConversionError(`unsupported map key of type: %!s(<nil>), key: <nil>, value: ${valueGoSyntax()}`);
    case 'uint':
      throw new KeyConversionError(`unsupported map key of type: uint64, key: 0x${k.value.toString(16)}, value: ${valueGoSyntax()}`);
  }
}

/** strconv.FormatFloat(f, 'g', -1, 32), as sigs.k8s.io/yaml formats float keys (with `.inf`, `-.inf`, `.nan`). */
export function formatFloat32g(f: number): string {
  const s = formatGoG(f, 32);
  return s === '+Inf' ? '.inf' : s === '-Inf' ? '-.inf' : s === 'NaN' ? '.nan' : s;
}

/** strconv.FormatFloat(f, 'g', -1, bits), which is also fmt's %v of a float64 (bits 64). */
export function formatGoG(f: number, bits: 32 | 64): string {
  if (Number.isNaN(f)) return 'NaN';
  const x = bits === 32 ? Math.fround(f) : f;
  if (x === Infinity) return '+Inf';
  if (x === -Infinity) return '-Inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const ax = Math.abs(x);
  // Shortest decimal digits that read back as the same number.
  let digits = '';
  let exp = 0;
  for (let p = 1; p <= 17; p++) {
    const s = ax.toExponential(p - 1);
    const back = Number(s);
    if ((bits === 32 ? Math.fround(back) : back) === ax) {
      const [m, e] = s.split('e');
      digits = m.replace('.', '');
      exp = Number(e);
      break;
    }
  }
  digits = digits.replace(/0+$/, '') || '0';
  const sign = x < 0 ? '-' : '';
  // %e when the exponent is below -4 or at least 6 (Go's precision for the shortest form).
  if (exp < -4 || exp >= 6) {
    const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  if (digits.length <= exp + 1) return `${sign}${digits}${'0'.repeat(exp + 1 - digits.length)}`;
  return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
}
