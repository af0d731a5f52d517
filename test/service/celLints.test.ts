/**
 * Lints on CEL rules beyond the API server (service/celLints.ts), each with a positive and a negative
 * case: an optional field read without a guard (with its quick fix), a constant rule, a messageExpression
 * that can produce an empty message; and their severity settings.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LanguageService } from '../../server/src/service/languageService';
import type { ServiceSettings } from '../../server/src/service/context';
import { applyEdits, docOf } from './helpers';
import { celCrdYaml } from '../crd';

/** The CEL tests' CRD (test/crd.ts) with one rule on its spec (and that rule's messageExpression). */
function crd(rule: string, messageExpression?: string): string {
  return celCrdYaml(`- rule: ${rule}${messageExpression ? `\n  messageExpression: ${messageExpression}` : ''}`);
}

function lint(text: string, settings: Partial<ServiceSettings> = {}) {
  const s = new LanguageService(settings);
  const { td } = docOf(text);
  s.update(td);
  const all = s.findings(td);
  return { s, td, all, lints: all.filter((f) => f.code.startsWith('CEL')) };
}

test('CELNoSuchKey: an optional field read without has() is reported at the field name, with a guard quick fix that clears it', () => {
  const { s, td, all, lints } = lint(crd('"self.port > 0 && self.workers.all(w, w.size < 10)"'));
  assert.deepEqual(
    all.filter((f) => !f.code.startsWith('CEL')),
    [],
    'the API server accepts the CRD',
  );
  assert.deepEqual(
    lints.map((f) => `${f.code}:${td.getText(f.range)}:${f.severity}`),
    ['CELNoSuchKey:port:warning', 'CELNoSuchKey:workers:warning', 'CELNoSuchKey:size:warning'],
  );
  assert.match(lints[0].message, /^self\.port may be absent \(optional, no default\): the rule then fails with "no such key: port"/);
  // What it says happens: a custom resource without the field is rejected with that error.
  const cr = docOf('apiVersion: example.com/v1\nkind: Pool\nmetadata:\n  name: p\nspec:\n  name: a\n').td;
  s.update(cr);
  assert.ok(
    s.findings(cr).some((f) => /no such key: port/.test(f.message)),
    JSON.stringify(s.findings(cr).map((f) => f.message)),
  );
  const fx = s.fixesOf(td, lints[0]);
  assert.deepEqual(
    fx.map((x) => x.title),
    ['Guard with has(self.port)'],
  );
  const fixed = applyEdits(td, fx[0].edits);
  assert.match(fixed, /rule: "\(!has\(self\.port\) \|\| self\.port > 0\) && self\.workers/);
  const inner = s.fixesOf(td, lints[2]);
  const fixed2 = applyEdits(td, inner[0].edits);
  assert.match(fixed2, /self\.workers\.all\(w, \(!has\(w\.size\) \|\| w\.size < 10\)\)/);
  // All three fixes applied one after the other: no lint left, and the API server still accepts it.
  let text = td.getText();
  for (let i = 0; i < 3; i++) {
    const r = lint(text);
    const f = r.lints.find((x) => x.code === 'CELNoSuchKey');
    if (!f) break;
    text = applyEdits(r.td, r.s.fixesOf(r.td, f)[0].edits);
  }
  assert.deepEqual(
    lint(text).all.map((f) => f.message),
    [],
  );
});

test('CELNoSuchKey: no finding on guarded reads, required fields, defaulted fields, optional chaining, or in any scalar style', () => {
  const quiet = [
    '"has(self.port) && self.port > 0"',
    '"!has(self.port) || self.port > 0"',
    '"has(self.port) ? self.port > 0 : true"',
    '"self.port > 0 || !has(self.port)"',
    '"self.name.size() > 0"',
    '"self.mode != \'slow\'"',
    '"self.?port.orValue(1) > 0"',
    '"!has(self.tls) || !has(self.tls.secret) || self.tls.secret != \'\'"',
    '"has(self.tls.secret)" # not a guard of tls: see below',
    "'has(self.workers) && self.workers.all(w, has(w.size) && w.size < 10)'",
    '|\n    has(self.port) &&\n    self.port > 0',
  ];
  for (const r of quiet) {
    const { all, td } = lint(crd(r));
    const found = all.filter((f) => f.code === 'CELNoSuchKey').map((f) => td.getText(f.range));
    if (r.includes('not a guard')) assert.deepEqual(found, ['tls'], 'has(self.tls.secret) reads self.tls');
    else assert.deepEqual(found, [], r);
  }
});

test('CELConstantRule: a rule reading neither self nor oldSelf; not a rule that reads self', () => {
  const t = lint(crd('"1 < 2"'));
  assert.deepEqual(
    t.lints.map((f) => `${f.code}:${t.td.getText(f.range)}`),
    ['CELConstantRule:1 < 2'],
  );
  assert.match(t.lints[0].message, /always true: it checks nothing/);
  const f = lint(crd("\"'a' == 'b'\""));
  assert.match(f.lints[0].message, /always false: every object is rejected/);
  assert.deepEqual(lint(crd('"self.name != \'\'"')).lints, []);
  assert.deepEqual(
    lint(crd('"self.workers.all(w, true) || true"')).lints.filter((x) => x.code === 'CELConstantRule'),
    [],
  );
});

test('CELEmptyMessage: a messageExpression that can be empty or blank; not one with a non-empty literal or a minLength field', () => {
  const me = (expr: string) => lint(crd('"self.name != \'\'"', expr));
  const blank = me('"\' \'"');
  assert.deepEqual(
    blank.lints.map((f) => `${f.code}:${blank.td.getText(f.range)}:${f.severity}`),
    ["CELEmptyMessage:' ':information"],
  );
  const field = me('"self.name"');
  assert.match(field.lints[0].message, /self\.name can be empty \(no minLength\)/);
  assert.equal(me('"self.name + \'\'"').lints.length, 1);
  assert.deepEqual(me('"\'bad name: \' + self.name"').lints, []);
  assert.deepEqual(me('"self.title"').lints, []);
  assert.deepEqual(me("\"self.name.size() > 3 ? 'long' : 'short'\"").lints, []);
});

test('lint severities: each code has its setting; off hides it', () => {
  const text = crd('"self.port > 0"', '"self.name"');
  assert.deepEqual(
    lint(text)
      .lints.map((f) => f.code)
      .sort(),
    ['CELEmptyMessage', 'CELNoSuchKey'],
  );
  const r = lint(text, { celLints: { CELNoSuchKey: 'error', CELEmptyMessage: 'off' } });
  assert.deepEqual(
    r.lints.map((f) => `${f.code}:${f.severity}`),
    ['CELNoSuchKey:error'],
  );
});
