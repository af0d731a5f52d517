/**
 * The Kubernetes semver library (apiserver pkg/cel/library/semverlib.go, 1.33) and its value:
 * blang/semver's parse, checks and order.
 */
import { cmpString } from '../runtime/equality';
import { goQuote } from '../../json/go';
import { fail, type OpaqueValue } from '../runtime/values';
import { fn, type Library } from './decls';
import { parseCost, unitCost } from './cost';

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
