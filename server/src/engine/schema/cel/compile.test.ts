import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileSchemaValidations, formatIssue } from './compile';
import { errorMessage } from '../../field';
import type { JSONSchemaProps } from '../types';
import { validFieldPath } from './fieldpath';

function compile(schema: JSONSchemaProps): string[] {
  return compileSchemaValidations(schema).map((e) => errorMessage(e));
}

test('type errors use cel-go wording and operator positions', () => {
  const errs = compile({ type: 'object', properties: { v: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self == true' }] } } });
  assert.equal(errs.length, 1);
  assert.match(errs[0], /^properties\[v\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: .*compilation failed: ERROR: <input>:1:6: found no matching overload for '_==_' applied to '\(int, bool\)'/);
});

test('undefined fields, resource-root metadata and escaping', () => {
  const root: JSONSchemaProps = {
    type: 'object',
    properties: { 'f-1': { type: 'string' }, if: { type: 'integer' } },
    'x-kubernetes-validations': [{ rule: 'self.metadata.name.size() > 0' }, { rule: 'self.metadata.labels.size() > 0' }, { rule: "self.f__dash__1 == 'a' && self.if > 0 && self.__if__ > 0" }, { rule: 'self.nope' }],
  };
  const errs = compile(root);
  assert.equal(errs.length, 2);
  assert.match(errs[0], /\[1\]\.rule: .*undefined field 'labels'/);
  assert.match(errs[1], /\[3\]\.rule: .*undefined field 'nope'/);
});

test('rule must be bool, messageExpression must be string and is compiled only after the rule', () => {
  const errs = compileSchemaValidations({
    type: 'object',
    properties: {
      a: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self + 1' }] },
      b: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 1', messageExpression: '42' }] },
      c: { type: 'integer', 'x-kubernetes-validations': [{ rule: "self == 'x'", messageExpression: '42' }] },
    },
  });
  assert.deepEqual(
    errs.map((e) => [e.field, e.detail.split('\n')[0]]),
    [
      ['properties[a].x-kubernetes-validations[0].rule', 'cel expression must evaluate to a bool'],
      ['properties[b].x-kubernetes-validations[0].messageExpression', 'messageExpression must evaluate to a string'],
      ['properties[c].x-kubernetes-validations[0].rule', "compilation failed: ERROR: <input>:1:6: found no matching overload for '_==_' applied to '(int, string)'"],
    ],
  );
});

test('optionalOldSelf makes oldSelf optional; field selection on it stays optional', () => {
  const errs = compileSchemaValidations({
    type: 'object',
    properties: { i: { type: 'integer' } },
    'x-kubernetes-validations': [
      { rule: 'self.i >= oldSelf.i.orValue(0)', optionalOldSelf: true },
      { rule: 'self.i >= oldSelf.i', optionalOldSelf: true },
    ],
  });
  assert.deepEqual(
    errs.map((e) => e.field),
    ['x-kubernetes-validations[1].rule'],
  );
  assert.match(errs[0].detail, /applied to '\(int, optional_type\(int\)\)'/);
});

test('literal validators, null comparisons and ruleRange', () => {
  const errs = compileSchemaValidations({
    type: 'object',
    properties: { s: { type: 'string' }, o: { type: 'object' } },
    'x-kubernetes-validations': [{ rule: "duration('1d') > duration('1s')" }, { rule: 'self.s == null' }, { rule: 'self.o == null' }, { rule: "[1, 'a'].size() == 2" }],
  });
  assert.equal(errs.length, 3);
  assert.match(errs[0].detail, /<input>:1:10: invalid duration argument/);
  assert.deepEqual(errs[0].ruleRange, { start: 9, end: 13 });
  assert.match(errs[1].detail, /'_==_' applied to '\(string, null\)'/);
  assert.match(errs[2].detail, /expected type 'int' but found 'string'/);
});

test('validFieldPath resolves properties, map keys and quoted names', () => {
  const s: JSONSchemaProps = {
    type: 'object',
    properties: { m: { type: 'object', additionalProperties: { type: 'string' } }, 'a.b': { type: 'string' } },
  };
  assert.equal(validFieldPath('.m.foo', s).path?.toString(), 'm[foo]');
  assert.equal(validFieldPath("['a.b']", s).path?.toString(), 'a.b');
  assert.equal(validFieldPath('.x', s).error, 'does not refer to a valid field');
  assert.equal(validFieldPath('.m[0]', s).error, 'expected single quoted string but got 0');
});

test('formatIssue prints line, column and caret like cel-go', () => {
  assert.equal(formatIssue('a &&\n  b', 7, 'x'), 'ERROR: <input>:2:3: x\n |   b\n | ..^');
});

test('timestamps and durations print as cel-go kinds; the rule prints as the internal struct', () => {
  const errs = compile({ type: 'object', properties: { t: { type: 'string', format: 'date-time', 'x-kubernetes-validations': [{ rule: "self.startsWith('a')" }] } } });
  assert.equal(errs.length, 1);
  assert.match(errs[0], /Invalid value: \{"Rule":"self\.startsWith\('a'\)","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null\}: /);
  assert.match(errs[0], /found no matching overload for 'startsWith' applied to 'timestamp\.\(string\)'/);
});

test('every type error of a rule is reported, in source order, as cel-go does (oracle-checked)', () => {
  const rule = "self.q == 1 && self.r == 2\n && self.a == ''";
  const errs = compile({ type: 'object', properties: { a: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule }] });
  assert.equal(errs.length, 1);
  const detail = errs[0].slice(errs[0].indexOf('compilation failed: '));
  assert.equal(
    detail,
    "compilation failed: ERROR: <input>:1:5: undefined field 'q'\n | self.q == 1 && self.r == 2\n | ....^\n" +
      "ERROR: <input>:1:20: undefined field 'r'\n | self.q == 1 && self.r == 2\n | ...................^\n" +
      "ERROR: <input>:2:12: found no matching overload for '_==_' applied to '(int, string)'\n |  && self.a == ''\n | ...........^",
  );
  // An erroneous operand has the error type: its parent operator reports nothing more; literal checks
  // (the bad regex) run only on rules without type errors.
  const one = compile({ type: 'object', properties: { a: { type: 'integer' }, b: { type: 'string' } }, 'x-kubernetes-validations': [{ rule: "self.c + 1 == 2 && self.b.matches(')')" }] });
  assert.equal((one[0].match(/ERROR:/g) ?? []).length, 1);
  assert.match(one[0], /undefined field 'c'/);
});

test('has(): the expanded select sits at the macro call (the "("); a bad argument at its own operator', () => {
  const node: JSONSchemaProps = { type: 'object', properties: { 'x-y': { type: 'string' } }, 'x-kubernetes-validations': [{ rule: 'has(self.kind) || !has(self.kind)' }, { rule: '!has(self.x-y)' }] };
  const errs = compile({ type: 'object', properties: { n: node } });
  assert.equal(errs.length, 2);
  assert.match(errs[0], /ERROR: <input>:1:4: undefined field 'kind'[\s\S]*ERROR: <input>:1:23: undefined field 'kind'/);
  assert.match(errs[1], /ERROR: <input>:1:12: invalid argument to has\(\) macro/);
});
