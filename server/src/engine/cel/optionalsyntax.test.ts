import { test } from 'node:test';
import assert from 'node:assert/strict';
import { desugarOptionalLiterals } from './optionalsyntax';
import { validateCelRules } from './validator';

test('optional literal entries are desugared; other brackets are left alone', () => {
  assert.equal(desugarOptionalLiterals("['a', ?x, 'c']"), "(['a'] + __optElem(x) + ['c'])");
  assert.equal(desugarOptionalLiterals("{?'k': v, 'k2': 1}"), "__optMap({'k2': 1}, 'k', v)");
  assert.equal(desugarOptionalLiterals('self[?0] == 1 ? a : b'), undefined);
  assert.equal(desugarOptionalLiterals("'[?x]' == s"), undefined);
});

test('rules with optional literal entries evaluate like cel-go', () => {
  const schema = {
    type: 'object',
    properties: { s: { type: 'string' } },
    'x-kubernetes-validations': [
      { rule: "['a', ?optional.of('v'), ?optional.none()] == ['a', 'v']" },
      { rule: "{?'k': optional.none(), 'k2': self.s} == {'k2': 'x'}" },
    ],
  };
  assert.deepEqual(validateCelRules(schema, { s: 'x' }, { isResourceRoot: false }), []);
  assert.equal(validateCelRules(schema, { s: 'y' }, { isResourceRoot: false }).length, 1);
});
