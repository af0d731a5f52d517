import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseQuantity, Quantity } from './quantity';

test('ParseQuantity accepts an empty numeric part as 0 (suffix-only, sign-only, dot-only), as the oracle does', () => {
  for (const s of ['Mi', '+', '-', '.', 'n', 'e-9', '-.Ki', '1.Mi']) assert.ok(parseQuantity(s) instanceof Quantity, s);
  assert.equal((parseQuantity('Mi') as Quantity).num, 0n);
});

test('ParseQuantity errors: empty value below nano scale, two dots, bare exponent marker', () => {
  assert.equal(parseQuantity('e-10'), 'unable to parse numeric part of quantity');
  assert.match(String(parseQuantity('1.2.3')), /^quantities must match the regular expression/);
  assert.match(String(parseQuantity('')), /^quantities must match the regular expression/);
  assert.equal(parseQuantity('e'), "unable to parse quantity's suffix");
  assert.ok(parseQuantity('1e-10') instanceof Quantity);
});

const q = (s: string): Quantity => parseQuantity(s) as Quantity;

test('AsInt64 answers from the int64 fast path only, as resource.Quantity does (Go oracle answers)', () => {
  // Binary suffixes with a fraction or beyond the fast path's precision are inf.Dec in Go: not integers.
  for (const s of ['1.5Gi', '0.5Gi', '1Pi', '1Ei', '1.0', '9223372036854775807', '9223372036854775807m']) assert.equal(q(s).asInt64(), undefined, s);
  assert.equal(q('1Ti').asInt64(), 1n << 40n);
  assert.equal(q('10k').asInt64(), 10000n);
  assert.equal(q('922337203685477580').asInt64(), 922337203685477580n);
  // Add and Sub stay on the fast path while int64Amount.Add does: 500m + 500m has scale -3.
  assert.equal(q('500m').add(q('500m')).asInt64(), undefined);
  assert.equal(q('1G').sub(Quantity.ofInt(1n)).asInt64(), 999999999n);
  assert.equal(q('1').add(q('1.5')).asInt64(), undefined);
});

test('Quantity.String(): the text kept when canonical, else CanonicalizeBytes (Go oracle answers)', () => {
  const cases: Record<string, string> = {
    '12Mi': '12Mi',
    '+12M': '+12M',
    '1.5M': '1500k',
    '12e2': '1200',
    '2048Ki': '2Mi',
    '1000E': '1',
    '1.5Gi': '1536Mi',
    '0.5Ki': '512',
    '0.1': '100m',
    '1.0': '1',
    '16Ei': '9223372036854775807',
    '1e21': '1e21',
  };
  for (const [s, want] of Object.entries(cases)) assert.equal(q(s).goString(), want, s);
  assert.equal(q('1Ki').add(q('1.5')).goString(), '1025500m');
  assert.equal(q('0').add(q('1Mi')).goString(), '1Mi');
});

test('AsApproximateFloat64: the unscaled value of the int64 or inf.Dec form times math.Pow10 (Go oracle answers)', () => {
  // inf.Dec at nano scale: 1024.60Pi is 1153597044550952345.6 exactly, 1153597044550952700 in Go (not the nearest double).
  assert.equal(q('1024.60Pi').asApproximateFloat(), 1153597044550952700);
  assert.equal(q('-9223372036854775807k').asApproximateFloat(), -9.223372036854777e21);
  assert.ok(Number.isNaN(q('0e400').asApproximateFloat()));
});
