/**
 * cel-go's int(), uint() and double() conversions (common/types ConvertToType): Go's strconv parsing,
 * range checks ("integer overflow", "unsigned integer overflow"), int(timestamp) as Unix seconds,
 * and "type conversion error from 'string' to 'int'" for unparsable strings.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { fail } from './errors';

const MAX_INT = 9223372036854775807n;
const MIN_INT = -9223372036854775808n;
const MAX_UINT = 18446744073709551615n;

function parseGoInt(s: string): bigint | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  return BigInt(s);
}

/** Go's strconv.ParseFloat (decimal, exponent, hex floats, inf/nan spellings, underscores not allowed). */
function parseGoFloat(s: string): number | undefined {
  const t = s.toLowerCase();
  if (/^[+-]?(inf|infinity)$/.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
  if (/^[+-]?nan$/.test(t)) return NaN;
  if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/.test(t)) return Number(s);
  return undefined;
}

function doubleToInt(d: number): bigint {
  // Go: valid when -2^63 <= d < 2^63 (exclusive at the top, as float64(MaxInt64) rounds to 2^63).
  if (!Number.isFinite(d) || d < -9223372036854775808 || d >= 9223372036854775807) fail('integer overflow');
  return BigInt(Math.trunc(d));
}

/** Registers the conversions under our internal names (see OVERRIDDEN_FUNCTIONS). */
export function installConversions(env: Environment): void {
  const f = (sig: string, h: (...a: never[]) => unknown) => env.registerFunction(sig, h as (...a: unknown[]) => unknown);
  f('int__k8s(int): int', (v: bigint) => v);
  f('int__k8s(uint): int', (v: UnsignedInt) => {
    if (v.value > MAX_INT) fail('integer overflow');
    return v.value;
  });
  f('int__k8s(double): int', (v: number) => doubleToInt(v));
  f('int__k8s(string): int', (s: string) => {
    const n = parseGoInt(s);
    if (n === undefined || n > MAX_INT || n < MIN_INT) fail("type conversion error from 'string' to 'int'");
    return n;
  });
  f('int__k8s(google.protobuf.Timestamp): int', (t: Date) => BigInt(Math.floor(t.getTime() / 1000)));
  f('int__k8s(google.protobuf.Duration): int', (d: Duration) => d.seconds * 1_000_000_000n + BigInt(d.nanos));
  f('uint__k8s(uint): uint', (v: UnsignedInt) => v);
  f('uint__k8s(int): uint', (v: bigint) => {
    if (v < 0n) fail('unsigned integer overflow');
    return new UnsignedInt(v);
  });
  f('uint__k8s(double): uint', (d: number) => {
    if (!Number.isFinite(d) || d < 0 || d >= 18446744073709551615) fail('unsigned integer overflow');
    return new UnsignedInt(BigInt(Math.trunc(d)));
  });
  f('uint__k8s(string): uint', (s: string) => {
    const n = /^\d+$/.test(s) ? BigInt(s) : undefined;
    if (n === undefined || n > MAX_UINT) fail("type conversion error from 'string' to 'uint'");
    return new UnsignedInt(n);
  });
  f('double__k8s(double): double', (v: number) => v);
  f('double__k8s(int): double', (v: bigint) => Number(v));
  f('double__k8s(uint): double', (v: UnsignedInt) => Number(v.value));
  f('double__k8s(string): double', (s: string) => {
    const n = parseGoFloat(s);
    if (n === undefined) fail("type conversion error from 'string' to 'double'");
    return n;
  });
}
