import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from '../../cel/syntax/parse';

// Regression (found by test/fuzz): a 20,000-term chain (`1 + 1 + ...`) parsed fine but the recursive
// depth check overflowed the stack, so the CRD got "internal error validating x-kubernetes-validations:
// Maximum call stack size exceeded" and CRs "CEL evaluation failed" instead of the recursion-limit error.
test('very long operator chains are refused with the recursion-limit error, not a stack overflow', () => {
  for (const src of [`${Array(20_000).fill('1').join(' + ')} > 0`, `${Array(20_000).fill('a').join(' - ')} == 0`]) {
    const p = parse(src);
    assert.equal(p.ok, false);
    assert.equal(!p.ok && p.issues[0].message, 'max recursion depth exceeded');
  }
});

test('chains within the recursion limit parse', () => {
  const p = parse(`${Array(200).fill('1').join(' + ')} > 0`);
  assert.equal(p.ok, true);
});

test('&& and || chains are flat in the grammar: long ones parse (cel-go balances them)', () => {
  assert.equal(parse(Array(1000).fill('true').join(' && ')).ok, true);
});
