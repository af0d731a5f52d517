/**
 * Kubernetes semver library (apiserver pkg/cel/library/semverlib.go, SemverVersion 1): strict
 * semver 2.0.0 parsing (blang/semver), and the normalizing form (v prefix, missing minor/patch,
 * leading zeros) with its error texts.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { cmpString } from './compare';
import { fail } from './errors';

/** A parsed semantic version. */
export class Semver {
  static celTypeName = 'kubernetes.Semver';
  constructor(
    readonly major: bigint,
    readonly minor: bigint,
    readonly patch: bigint,
    readonly pre: string[],
  ) {}
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
  equals(o: Semver): boolean {
    return this.compareTo(o) === 0;
  }
}

function parseNumber(s: string, what: string): bigint {
  if (!/^\d+$/.test(s)) fail(`Invalid character(s) found in ${what} number "${s}"`);
  if (s.length > 1 && s[0] === '0') fail(`${what[0].toUpperCase() + what.slice(1)} number must not contain leading zeroes "${s}"`);
  return BigInt(s);
}

/** blang/semver Parse. */
export function parseSemver(s: string): Semver {
  if (s.length === 0) fail('Version string empty');
  const parts = s.split('.');
  if (parts.length < 3) fail('No Major.Minor.Patch elements found');
  const major = parseNumber(parts[0], 'major');
  const minor = parseNumber(parts[1], 'minor');
  const rest = parts.slice(2).join('.');
  let patchStr = rest;
  let pre: string[] = [];
  let build = '';
  const plus = patchStr.indexOf('+');
  if (plus >= 0) {
    build = patchStr.slice(plus + 1);
    patchStr = patchStr.slice(0, plus);
    for (const b of build.split('.')) if (!/^[0-9A-Za-z-]+$/.test(b)) fail(`Invalid character(s) found in build meta data "${b}"`);
  }
  const dash = patchStr.indexOf('-');
  if (dash >= 0) {
    pre = patchStr.slice(dash + 1).split('.');
    patchStr = patchStr.slice(0, dash);
    for (const p of pre) {
      if (p === '') fail('Prerelease is empty');
      if (!/^[0-9A-Za-z-]+$/.test(p)) fail(`Invalid character(s) found in prerelease "${p}"`);
      if (/^\d+$/.test(p) && p.length > 1 && p[0] === '0') fail(`Numeric PreRelease version must not contain leading zeroes "${p}"`);
    }
  }
  const patch = parseNumber(patchStr, 'patch');
  return new Semver(major, minor, patch, pre);
}

/** The Kubernetes normalizing parse: strip "v", pad missing minor/patch, drop leading zeros. */
export function parseSemverNormalized(s: string): Semver {
  let v = s.startsWith('v') ? s.slice(1) : s;
  const core = v.split(/[-+]/)[0];
  const extra = v.slice(core.length);
  const nums = core.split('.');
  if (nums.length < 3 && extra) fail('short version cannot contain PreRelease/Build meta data');
  while (nums.length < 3) nums.push('0');
  const fixed = nums.map((n) => (/^\d+$/.test(n) ? n.replace(/^0+(?=\d)/, '') : n));
  v = fixed.join('.') + extra;
  return parseSemver(v);
}

function tryParse(s: string, normalize: boolean): boolean {
  try {
    if (normalize) parseSemverNormalized(s);
    else parseSemver(s);
    return true;
  } catch {
    return false;
  }
}

/** Registers the semver library. */
export function installSemver(env: Environment): void {
  const f = (sig: string, h: (...a: never[]) => unknown) => env.registerFunction(sig, h as (...a: unknown[]) => unknown);
  const T = 'kubernetes.Semver';
  env.registerType(T, Semver);
  env.registerOperator(`${T} == ${T}`, (a: Semver, b: Semver) => a.equals(b));
  f(`semver(string): ${T}`, (s: string) => parseSemver(s));
  f(`semver(string, bool): ${T}`, (s: string, n: boolean) => (n ? parseSemverNormalized(s) : parseSemver(s)));
  f(`isSemver(string): bool`, (s: string) => tryParse(s, false));
  f(`isSemver(string, bool): bool`, (s: string, n: boolean) => tryParse(s, n));
  f(`${T}.isGreaterThan(${T}): bool`, (a: Semver, b: Semver) => a.compareTo(b) > 0);
  f(`${T}.isLessThan(${T}): bool`, (a: Semver, b: Semver) => a.compareTo(b) < 0);
  f(`${T}.compareTo(${T}): int`, (a: Semver, b: Semver) => BigInt(a.compareTo(b)));
  f(`${T}.major(): int`, (a: Semver) => a.major);
  f(`${T}.minor(): int`, (a: Semver) => a.minor);
  f(`${T}.patch(): int`, (a: Semver) => a.patch);
}
