import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatGoValue, GoStruct, goJSON, goKind, goQuote } from './go';
import { IntegralFloat } from './lossless';
import { formatBadValue } from '../field';
import { isJSONObject } from './values';

// Expected strings are what Go 1.24 prints (strconv.Quote, encoding/json.Marshal).
test('goQuote is strconv.Quote: Go escapes, \\x for ASCII controls, \\u and \\U for runes unicode.IsPrint rejects', () => {
  assert.equal(goQuote('a"b\\c'), '"a\\"b\\\\c"');
  assert.equal(goQuote('\x07\b\f\n\r\t\v'), '"\\a\\b\\f\\n\\r\\t\\v"');
  assert.equal(goQuote('\x00\x1b\x7f'), '"\\x00\\x1b\\x7f"');
  assert.equal(goQuote('é ü 日本 😀'), '"é ü 日本 😀"');
  assert.equal(goQuote('\u00a0\u00ad\u2028\ufeff\ue000'), '"\\u00a0\\u00ad\\u2028\\ufeff\\ue000"');
  assert.equal(goQuote('\u{e0001}'), '"\\U000e0001"');
  assert.equal(goQuote('x\ud800y'), '"x\ufffdy"');
});

test('goJSON is json.Marshal: sorted keys, Go numbers, <, >, &, U+2028/2029 escaped, structs in field order', () => {
  assert.equal(goJSON({ b: 1, a: '<x&y>' }), '{"a":"\\u003cx\\u0026y\\u003e","b":1}');
  assert.equal(goJSON(['\u2028', null, true]), '["\\u2028",null,true]');
  assert.equal(goJSON([1.5, new IntegralFloat(2), 1e21, 1e-7, 2n ** 70n, 12345678901234567890n]), '[1.5,2,1e+21,1e-7,1.1805916207174113e+21,12345678901234567000]');
  assert.equal(
    goJSON(
      new GoStruct([
        ['Name', 'v1'],
        ['Served', true],
        ['Schema', null],
      ]),
    ),
    '{"Name":"v1","Served":true,"Schema":null}',
  );
  assert.equal(formatBadValue({ k: '<' }), '{"k":"\\u003c"}');
  assert.equal(formatBadValue('tab\there'), '"tab\\there"');
});

test("formatGoValue is fmt's %v of a decoded value: <nil>, int64 and float64 as Go prints them, slices and sorted maps", () => {
  assert.equal(formatGoValue([null, 1, 1.5, new IntegralFloat(2), 1e21, 'a b', true, { b: [false], a: 2n ** 63n }]), '[<nil> 1 1.5 2 1e+21 a b true map[a:9.223372036854776e+18 b:[false]]]');
  assert.equal(formatGoValue({}), 'map[]');
});

test('isJSONObject: plain and null-prototype objects only (not arrays, null, IntegralFloat, class instances)', () => {
  assert.equal(isJSONObject({ a: 1 }), true);
  assert.equal(isJSONObject(Object.create(null)), true);
  for (const v of [null, undefined, [], [1], 'x', 1, 1n, new IntegralFloat(1), new Map(), new Date(0), new (class K {})()]) assert.equal(isJSONObject(v), false, String(v));
});

test('goKind: the reflect.Kind of each decoded form', () => {
  const cases: Array<[unknown, string]> = [
    [null, 'nil'],
    [undefined, 'nil'],
    [true, 'bool'],
    ['s', 'string'],
    [1, 'int'],
    [-(2 ** 63), 'int'],
    [2 ** 63, 'float'],
    [1.5, 'float'],
    [1n, 'int'],
    [2n ** 63n, 'float'],
    [new IntegralFloat(1), 'float'],
    [[], 'slice'],
    [{}, 'map'],
    [Object.create(null), 'map'],
  ];
  cases.forEach(([v, kind], i) => assert.equal(goKind(v), kind, `case ${i}`));
});
