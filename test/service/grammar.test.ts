import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// The CEL injection grammar: its patterns must find the CEL text in the YAML forms rules are written in.
// (Oniguruma and JS regexes agree on the constructs used here: no possessive quantifiers or \G.)
const grammar = JSON.parse(readFileSync(join(__dirname, '..', '..', 'syntaxes', 'cel.injection.tmLanguage.json'), 'utf8'));
const repo = grammar.repository;
const re = (s: string) => new RegExp(s);

test('the grammar is injected into YAML, outside comments and strings', () => {
  assert.equal(grammar.scopeName, 'cel.injection.yaml');
  assert.match(grammar.injectionSelector, /source\.yaml/);
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'));
  const g = pkg.contributes.grammars.find((x: { scopeName: string }) => x.scopeName === grammar.scopeName);
  assert.deepEqual(g.injectTo, ['source.yaml']);
});

test('rule values are found: double-quoted, single-quoted, plain, block', () => {
  assert.ok(re(repo['cel-double'].begin).test('  - rule: "self.a > 0"'));
  assert.ok(re(repo['cel-single'].begin).test("    messageExpression: 'x'"));
  const plain = re(repo['cel-plain'].match).exec('  - rule: self.replicas <= self.max # keep small');
  assert.equal(plain?.[3], 'self.replicas <= self.max');
  assert.equal(re(repo['cel-plain'].match).exec('rule: "quoted"'), null, 'quoted values are not plain');
  const item = re(repo['cel-block-item'].begin).exec('              - rule: |');
  assert.ok(item);
  // The block ends at the first line not indented deeper than `rule`.
  const itemEnd = re(repo['cel-block-item'].end.replace('\\1', item![1]).replace('\\2', item![2]));
  assert.equal(itemEnd.test('                  self.a > 0'), false);
  assert.equal(itemEnd.test(''), false);
  assert.equal(itemEnd.test('                message: foo'), true);
  const block = re(repo['cel-block'].begin).exec('    rule: >-');
  assert.ok(block);
  const end = re(repo['cel-block'].end.replace('\\1', block![1]));
  assert.equal(end.test('      self.a > 0'), false);
  assert.equal(end.test('    message: foo'), true);
  assert.equal(re(repo['cel-double'].begin).test('  description: "rule: x"'), false);
});

test('CEL tokens: self, functions, operators, strings', () => {
  const pats: Array<{ match: string; name: string }> = repo.cel.patterns;
  const scopeOf = (token: string) => pats.find((p) => new RegExp(`^(?:${p.match})$`).test(token))?.name;
  assert.equal(scopeOf('self'), 'variable.language.cel');
  assert.equal(scopeOf('oldSelf'), 'variable.language.cel');
  assert.equal(scopeOf('&&'), 'keyword.operator.cel');
  assert.equal(scopeOf("'abc'"), 'string.quoted.single.cel');
  assert.equal(scopeOf('42'), 'constant.numeric.cel');
  assert.ok(new RegExp(pats.find((p) => p.name === 'support.function.cel')!.match).test('has(self.x)'));
});
