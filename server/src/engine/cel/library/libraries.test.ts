import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateConformanceExpression } from '../../../../../test/cel/conformance';
import { IntegralFloat } from '../../json/lossless';

/** Evaluates and returns the value (or throws with the CEL error), corpus encoding. */
function ev(expr: string, vars: Record<string, unknown> = {}): unknown {
  const r = evaluateConformanceExpression(expr, vars);
  if (r.error !== undefined) throw new Error(r.error);
  return r.value;
}

function err(expr: string, vars: Record<string, unknown> = {}): string {
  const r = evaluateConformanceExpression(expr, vars);
  assert.ok(r.error !== undefined, `expected an error from ${expr}, got ${JSON.stringify(r.value, (_k, v) => (typeof v === 'bigint' ? `${v}` : v))}`);
  return r.error!;
}

test('strings: code-point indices, Go TrimSpace and Replace/SplitN semantics', () => {
  assert.equal(ev("'a👑b'.indexOf('b')"), 2n);
  assert.equal(ev("'a👑b'.substring(1, 2)"), '👑');
  assert.equal(ev("'\\u00a0x\\u200b'.trim()"), 'x\u200b');
  assert.equal(ev("'abc'.replace('', '-', 2)"), '-a-bc');
  assert.deepEqual(ev("'a,b,c'.split(',', 2)"), ['a', 'b,c']);
  assert.match(err("'abc'.substring(2, 1)"), /invalid substring range\. start: 2, end: 1/);
});

test('string(double) and format follow Go printing', () => {
  assert.equal(ev('string(1.0)'), '1');
  assert.equal(ev('string(1234567.0)'), '1.234567e+06');
  assert.equal(ev("'%.1f|%s|%x'.format([1234.56, [1.5], 255])"), '1,234.6|[1.500000]|ff');
  assert.equal(ev("'%s'.format([{'b': [1], 'a': 'x'}])"), '{"a":"x", "b":[1]}');
  // quoteForCEL quotes list and map strings with %q (strconv.Quote), not JSON.
  assert.equal(ev("'%s'.format([['a\\a\\u00ad', 'é']])"), '["a\\a\\u00ad", "é"]');
});

test('format of doubles: exact value rounded half to even, every digit, -0 as the printer and fmt print it', () => {
  // The exact binary value decides: 2.5 and 0.125 are ties (to even), 0.15 is just below .15.
  assert.equal(ev("'%.0f|%.0f|%.2f|%.1f'.format([2.5, 3.5, 0.125, 0.15])"), '2|4|0.12|0.1');
  assert.equal(ev("'%.2f'.format([1234567.125])"), '1,234,567.12');
  // No exponent form from 1e21 on, as JavaScript's toFixed would switch to.
  assert.equal(ev("'%.0f'.format([1e21])"), '1,000,000,000,000,000,000,000');
  assert.equal(ev("'%s'.format([[1.5e21]])"), '[1500000000000000000000.000000]');
  // The en_US printer drops the sign of -0 (it tests x < 0); %s of a list uses fmt, which keeps it.
  assert.equal(ev("'%.1f|%.0f'.format([-0.0, -0.0001])"), '0.0|-0');
  assert.equal(ev("'%s'.format([[-0.0]])"), '[-0.000000]');
  // %e: the precision is a width; NaN and infinities are padded to it (6 by default).
  assert.equal(ev("'%e|%e|%.8e'.format([double('NaN'), double('-Infinity'), 1.5])"), '   NaN|    -∞|1.500000×10⁰⁰');
  assert.equal(ev("'%e'.format([1234568.5])"), '1.234568×10⁰⁶');
  assert.equal(ev("'%e'.format([9.9999999])"), '1.000000×10⁰¹');
});

test("url(): hosts as Go's url.Parse reads them, the value from url.Parse after ParseRequestURI (Go oracle answers)", () => {
  assert.equal(ev("isURL('https://exa mple.com/')"), false);
  assert.match(err("url('https://exa mple.com/').getHost()"), /parse "https:\/\/exa mple\.com\/": invalid character " " in host name/);
  // http(s) take the first colon as the port's start (Go 1.26); other schemes the last one.
  assert.equal(ev("isURL('https://a:1:2/')"), false);
  assert.equal(ev("url('foo://a:1:2/').getHost()"), 'a:1:2');
  assert.equal(ev("isURL('https://x[1]/')"), false);
  // Only non-ASCII bytes (and %25) may be escaped in a host; getHost answers it unescaped.
  assert.equal(ev("isURL('https://a%41.com/')"), false);
  assert.equal(ev("url('https://%C3%A9.com/').getHost()"), 'é.com');
  // EscapedPath keeps the path as written when it is a valid encoding.
  assert.equal(ev("url('https://example.com/a%2Fb').getEscapedPath()"), '/a%2Fb');
  assert.deepEqual(ev("url('https://example.com/#x')"), { $opaque: 'kubernetes.URL(https://example.com/#x)' });
  // isURL is ParseRequestURI alone (a path '//c ^' passes it), url() also needs url.Parse.
  assert.equal(ev("isURL('//c ^')"), true);
  assert.match(err("url('//c ^')"), /invalid character " " in host name/);
  // EscapedPath escapes what net/url's path set lacks, '*' included.
  assert.equal(ev("url('/`;*').getEscapedPath()"), '/%60;%2A');
  assert.match(err("url('https://u%zz:p@a/')"), /invalid URL escape "%zz"$/);
});

test('semver(): numbers are uint64 (strconv.ParseUint), checks in blang/semver order (Go oracle answers)', () => {
  assert.equal(ev("isSemver('999999999999999999999.0.0')"), false);
  assert.equal(err("semver('1.0.0-999999999999999999999').major()"), 'strconv.ParseUint: parsing "999999999999999999999": value out of range');
  assert.equal(err("semver('1..0').major()"), 'strconv.ParseUint: parsing "": invalid syntax');
  // The patch number is checked before the prerelease and build metadata.
  assert.equal(err("semver('1.0.a-b_c').major()"), 'Invalid character(s) found in patch number "a"');
  assert.equal(err("semver('1.0.0+').major()"), 'Build meta data is empty');
  assert.equal(ev("semver('18446744073709551615.0.0').major()"), -1n);
  // Normalizing: leading zeros go, and a part not starting with a digit gets a '0' (-1 is 0-1: patch 0, prerelease 1).
  assert.equal(ev("semver('01.2.-1', true).patch()"), 0n);
  assert.equal(ev("isSemver('v1.02', true)"), true);
});

test("flatten() of a value that is not a list: ext.Lists' own error naming its type (Go oracle answers)", () => {
  assert.equal(err('dyn({}).flatten()'), 'no such overload: map(dyn, dyn).flatten()');
  assert.equal(err('dyn({}).flatten(1)'), 'no such overload: map(dyn, dyn).flatten(int)');
  assert.deepEqual(ev('dyn([[1], [2]]).flatten()'), [1n, 2n]);
});

test("ip(): netip.ParseAddr's errors name the rest of the input they stopped at (Go oracle answers)", () => {
  assert.match(err("ip('2001:db8:::68')"), /ParseAddr\("2001:db8:::68"\): each colon-separated field must have at least one digit \(at ":68"\)$/);
  // The first '.', ':' or '%' decides: 1.2.3.4:5 is a bad IPv4 address.
  assert.match(err("ip('1.2.3.4:5')"), /ParseAddr\("1\.2\.3\.4:5"\): unexpected character \(at ":5"\)$/);
  assert.match(err("ip('%eth0')"), /missing IPv6 address$/);
  assert.equal(ev("ip('fe80::1:2.3.4.5').family()"), 6n);
});

test('RE2: Go syntax accepted, Perl lookaround rejected, find/findAll', () => {
  assert.equal(ev("'x1y22'.find('[0-9]+')"), '1');
  assert.deepEqual(ev("'x1y22'.findAll('[0-9]+')"), ['1', '22']);
  assert.equal(ev("'abc'.matches('(?i)ABC')"), true);
  // cel-go's ValidateRegexLiterals reports the literal without the parser's detail.
  assert.match(err("'abc'.matches('a(?=b)')"), /ERROR: <input>:1:15: invalid matches argument\n/);
  assert.match(err("'abc'.matches(p)", { p: '(' }), /error parsing regexp/);
});

test('numeric semantics: int64/uint64 overflow, conversions, heterogeneous equality', () => {
  assert.match(err('-9223372036854775808 / -1'), /integer overflow/);
  assert.match(err('0u - 1u'), /unsigned integer overflow/);
  assert.match(err("int('1.5')"), /type conversion error from 'string' to 'int'/);
  assert.match(err('int(1e19)'), /integer overflow/);
  assert.equal(ev('dyn(1) == 1u'), true);
  assert.deepEqual(ev('double(2)'), new IntegralFloat(2));
});

test('timestamps keep zone and nanoseconds; overflow is an error', () => {
  assert.equal(ev("string(timestamp('2020-01-01T10:00:00.000000001+05:30'))"), '2020-01-01T10:00:00.000000001+05:30');
  assert.equal(ev("timestamp('2020-01-01T10:00:00+05:30').getHours('+05:30')"), 10n);
  assert.match(err("timestamp('9999-12-31T23:59:59Z') + duration('1s')"), /timestamp overflow/);
  assert.match(err("duration('1d')"), /invalid duration argument/);
});

test('lists and sets use CEL equality and ordering', () => {
  assert.deepEqual(ev('[[1], [1], [2]].distinct()'), [[1n], [2n]]);
  assert.equal(ev('[1, 2].indexOf(2)'), 1n);
  assert.equal(ev('sets.contains([1, 2], [dyn(2.0)])'), true);
  assert.deepEqual(ev("['b', 'a'].sortBy(e, e)"), ['a', 'b']);
  assert.match(err('[].max()'), /max called on empty list/);
});

test('optional literal entries and two-variable comprehensions', () => {
  assert.deepEqual(ev('[1, ?optional.none(), ?optional.of(3)]'), [1n, 3n]);
  assert.deepEqual(ev("{?'a': optional.of(1), ?'b': optional.none()}"), { a: 1n });
  assert.deepEqual(ev("{'a': 1, 'b': 2}.transformMap(k, v, v > 1, v * 10)"), { b: 20n });
  assert.equal(ev('[1, 2].all(i, v, v > i)'), true);
});

test('Kubernetes types: quantity, ip/cidr, url, semver, format', () => {
  assert.equal(ev("quantity('1Gi').compareTo(quantity('1G'))"), 1n);
  assert.equal(ev("quantity('1.5').isInteger()"), false);
  assert.equal(ev("string(cidr('10.1.2.3/8').masked())"), '10.0.0.0/8');
  assert.equal(ev("cidr('10.0.0.0/8').containsIP('10.255.0.1')"), true);
  assert.equal(ev("ip('fe80::1').family()"), 6n);
  assert.match(err("ip('::ffff:1.2.3.4')"), /IPv4-mapped/);
  assert.equal(ev("url('https://a.b:8443/p?q=1').getPort()"), '8443');
  assert.equal(ev("semver('1.2.3-rc.1').isLessThan(semver('1.2.3'))"), true);
  assert.equal(ev("format.dns1123Label().validate('xY').hasValue()"), true);
  assert.equal(ev("format.labelValue().validate('a-b_c.d').hasValue()"), false);
});

test('has() on any select (cel-go) and null comparisons with opaque types', () => {
  assert.equal(ev('has(self[0].m)', { self: [{ m: 1 }] }), true);
  assert.equal(ev('has(self[0].n)', { self: [{ m: 1 }] }), false);
  assert.equal(ev("'has(a[0].b)'.size()"), 11n);
  assert.equal(ev("format.dns1123Label().validate('ok') == null"), false);
});

test('sum of an empty list is the zero of its declared element type', async () => {
  const { celEnvironment, evaluate } = await import('../environment');
  const { T } = await import('../common/types');
  const c = celEnvironment().compile("ds.sum() == duration('0')", new Map([['ds', T.list(T.duration)]]));
  assert.deepEqual(c.issues, []);
  const r = evaluate(c.program!, { ds: [] });
  assert.ok('value' in r && r.value === true, JSON.stringify(r));
  assert.equal(ev('dyn([]).sum()'), 0n);
});
