/**
 * RE2 regular expressions for CEL: the standard `matches` (replacing cel-js' JS RegExp, which
 * backtracks and speaks another dialect) and the Kubernetes regex library (find, findAll), all on
 * re2js through engine/regex/re2 so matching is linear-time and errors read as Go's.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { compileRE2 } from '../../regex/re2';
import { fail, num } from './errors';
import { chargeCost } from './guard';

/** cel-go's runtime cost of a regex call: ceil(0.1 * len(s)) * len(pattern) (interpreter/runtimecost.go). */
function chargeRegex(s: string, pattern: string): void {
  chargeCost(Math.ceil(s.length * 0.1) * Math.max(1, pattern.length));
}

function compile(pattern: string) {
  const c = compileRE2(pattern);
  if (!c.ok) fail(c.error);
  return c.re;
}

/** Go's regexp.MatchString. */
export function matches(s: string, pattern: string): boolean {
  chargeRegex(s, pattern);
  return compile(pattern).matcher(s).find();
}

function find(s: string, pattern: string): string {
  chargeRegex(s, pattern);
  const m = compile(pattern).matcher(s);
  return m.find() ? (m.group() ?? '') : '';
}

/** Go's FindAllString(s, n): non-overlapping matches; an empty match right after a match is skipped. */
function findAll(s: string, pattern: string, limit: number): string[] {
  chargeRegex(s, pattern);
  if (limit === 0) return [];
  const re = compile(pattern);
  const out: string[] = [];
  const m = re.matcher(s);
  let prevEnd = -1;
  while (limit < 0 || out.length < limit) {
    if (!m.find()) break;
    const start = m.start();
    const end = m.end();
    if (end === start && start === prevEnd) continue;
    out.push(m.group() ?? '');
    prevEnd = end;
    chargeCost(1);
  }
  return out;
}

/** Registers matches (both call styles) and the Kubernetes regex library. */
export function installRegex(env: Environment): void {
  const f = (sig: string, h: (...a: never[]) => unknown) => env.registerFunction(sig, h as (...a: unknown[]) => unknown);
  f('string.matches__k8s(string): bool', (s: string, p: string) => matches(s, p));
  f('matches__k8s(string, string): bool', (s: string, p: string) => matches(s, p));
  f('string.find(string): string', (s: string, p: string) => find(s, p));
  f('string.findAll(string): list<string>', (s: string, p: string) => findAll(s, p, -1));
  f('string.findAll(string, int): list<string>', (s: string, p: string, n: bigint) => findAll(s, p, num(n)));
}
