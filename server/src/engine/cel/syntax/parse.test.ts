import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateConformanceExpression } from '../../../../../test/cel/conformance';
import { compileSchemaValidations } from '../../schema/cel/compile';
import { errorMessage } from '../../field';

/** The value, or the error text, of a bare expression (each answer below is the Go oracle's). */
function run(expr: string): unknown {
  const r = evaluateConformanceExpression(expr, {});
  return r.error !== undefined ? `error: ${r.error}` : r.value;
}

test('float literals without a leading digit, as cel-go NUM_FLOAT', () => {
  assert.equal(run('.5'), 0.5);
  assert.equal(run('-.5'), -0.5);
  assert.equal(run('.5e1 == 5.0'), true);
  assert.equal(run('.99 > 9.9e-1'), false);
  assert.equal(run("{'a': .25}['a'] + .75 == 1.0"), true);
  // After an operand it is a float token, not a select: cel-go's syntax error.
  assert.match(String(run('x.5')), /^error: compilation failed: ERROR: <input>:1:/);
});

test('quoted field names select map keys and have()/optional selects take them (cel-go v0.29 ESC_IDENTIFIER)', () => {
  assert.equal(run("{'a.b': 1}.`a.b`"), 1n);
  assert.equal(run("{'k8s.io/name': 'web'}.`k8s.io/name` == 'web'"), true);
  assert.equal(run("has({'a.b': 1}.`c.d`)"), false);
  assert.equal(run("{'a-b': 1}.?`a-b`.orValue(0) + {'in': 1}.`in`"), 2n);
  // Not a call's name, not an identifier.
  assert.match(String(run("{'a': 1}.`a`()")), /^error: compilation failed: /);
  assert.match(String(run('`a`')), /^error: compilation failed: /);
});

test('a quoted field of a CRD object is looked up by that name, as the API server does (escaped names are the fields)', () => {
  const errs = compileSchemaValidations({
    type: 'object',
    properties: { labels: { type: 'object', additionalProperties: { type: 'string' } }, 'a.b': { type: 'string' } },
    'x-kubernetes-validations': [{ rule: "self.labels.`app.kubernetes.io/name` == 'x' && has(self.labels.`x/y`)" }, { rule: "self.`a.b` == 'x'" }],
  }).map((e) => errorMessage(e));
  assert.equal(errs.length, 1);
  assert.match(errs[0], /\[1\]\.rule: .*undefined field 'a\.b'/);
});

test('bytes literals: characters as UTF-8, escapes as bytes, raw literals verbatim', () => {
  assert.deepEqual(run("b'é'"), { $bytes: 'w6k=' });
  assert.equal(run("size(b'😀')"), 4n);
  assert.equal(run("b'ÿ' == b'\\303\\277'"), true);
  assert.equal(run("string(b'''é''')"), 'é');
  assert.deepEqual(run("br'\\n'"), { $bytes: 'XG4=' });
  assert.equal(run("size(bR'é')"), 2n);
});

test("0X is not a hex prefix in cel-go: ANTLR's error for the identifier after 0", () => {
  assert.equal(run('0x1f'), 31n);
  assert.equal(run('0X1f'), "error: compilation failed: ERROR: <input>:1:2: Syntax error: extraneous input 'X1f' expecting <EOF>\n | 0X1f\n | .^");
  assert.match(String(run('[0X1f]')), /extraneous input 'X1f' expecting \{'\]', ','\}/);
  assert.match(String(run('0X1f + 1')), /mismatched input 'X1f' expecting <EOF>/);
});

test('dyn is a function, not an identifier', () => {
  assert.match(String(run('dyn')), /undeclared reference to 'dyn'/);
  assert.equal(run('dyn(1)'), 1n);
});

test("syntax errors of common mistakes in cel-go's (ANTLR's) words (Go oracle answers)", () => {
  const messages = (expr: string) => [...String(run(expr)).matchAll(/ERROR: <input>:(\d+:\d+): ([^\n]*)/g)].map((m) => `${m[1]} ${m[2]}`);
  const OPERAND = "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";
  // The lexer's error, then the parser's on what is left.
  assert.deepEqual(messages("self.a == 'abc"), ["1:11 Syntax error: token recognition error at: ''abc'", `1:15 Syntax error: mismatched input '<EOF>' expecting ${OPERAND}`]);
  assert.deepEqual(messages('self.a = 1'), ["1:8 Syntax error: token recognition error at: '= '", "1:10 Syntax error: extraneous input '1' expecting <EOF>"]);
  assert.deepEqual(messages("'''abc"), ["1:3 Syntax error: token recognition error at: ''abc'"]);
  // A stray operator is deleted when an operand follows it.
  assert.deepEqual(messages('self.a && && true'), [`1:11 Syntax error: extraneous input '&&' expecting ${OPERAND}`]);
  // Unclosed: a list or map could take a ',', a call or parenthesis only its closing token.
  assert.deepEqual(messages('[1, 2'), ["1:6 Syntax error: mismatched input '<EOF>' expecting {']', ','}"]);
  assert.deepEqual(messages('self.a.exists(x, x > 1'), ["1:23 Syntax error: missing ')' at '<EOF>'"]);
  assert.deepEqual(messages('self.'), ["1:6 Syntax error: no viable alternative at input '.'"]);
});
