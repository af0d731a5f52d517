/**
 * CEL compile errors the editor can act on: an undefined field names the closest fields of its
 * receiver ("did you mean") and a quick fix replaces the name in the rule.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LanguageService } from '../../server/src/service/languageService';
import { checkFixesRemove, docOf, WIDGET_CRD } from './helpers';

test('CEL: an undefined field suggests the closest field of its receiver; the fix renames it in the rule and the error goes', () => {
  const crd = WIDGET_CRD.replace('self.replicas <= 5', 'self.replica <= 5');
  const s = new LanguageService();
  const { td } = docOf(crd);
  s.update(td);
  const f = s.findings(td).find((x) => x.params?.origin === 'celCompile');
  assert.ok(f, JSON.stringify(s.findings(td).map((x) => x.message)));
  assert.deepEqual(f.params?.suggestions, ['replicas']);
  assert.ok(f.params?.knownNames?.includes('enabled'));
  assert.equal(td.getText(f.range), 'replica', 'the range is the name inside the rule');
  assert.match(f.message, /undefined field 'replica'.*did you mean 'replicas'\?/s);
  assert.match(f.apiMessage ?? '', /compilation failed: ERROR: <input>:1:5: undefined field 'replica'/);
  const [out] = checkFixesRemove(new LanguageService(), crd, 'FieldValueInvalid', { title: /^Change to "replicas"$/ });
  assert.equal(out, WIDGET_CRD);
});

test('CEL: an undefined field inside has() after a macro is found and renamed too; unrelated names get no suggestion', () => {
  const rule = 'self.tags.all(t, t.size() < 5) && has(self.enabld)';
  const crd = WIDGET_CRD.replace('self.replicas <= 5', rule);
  const [out] = checkFixesRemove(new LanguageService(), crd, 'FieldValueInvalid', { title: /^Change to "enabled"$/ });
  assert.ok(out.includes('has(self.enabled)'), out);
  const s = new LanguageService();
  const { td } = docOf(WIDGET_CRD.replace('self.replicas <= 5', 'self.completelyDifferent == 1'));
  s.update(td);
  const f = s.findings(td).find((x) => x.params?.origin === 'celCompile');
  assert.ok(f);
  assert.equal(f.params?.suggestions, undefined);
  assert.deepEqual(
    s.fixesOf(td, f).filter((x) => x.title.startsWith('Change to')),
    [],
  );
});

test('CEL cost: an over-budget rule names the unbounded list and the largest maxItems that fits (computed with the estimator)', () => {
  const crd = WIDGET_CRD.replace('self.replicas <= 5', 'self.tags.all(x, self.tags.all(y, x == y))').replace(
    '                  items:\n                    type: string\n',
    '                  items:\n                    type: string\n                    maxLength: 10\n',
  );
  const s = new LanguageService();
  const { td } = docOf(crd);
  s.update(td);
  const f = s.findings(td).find((x) => x.params?.cost?.scope === 'rule');
  assert.ok(f, JSON.stringify(s.findings(td).map((x) => x.message)));
  const c = f.params!.cost!;
  assert.deepEqual(c.dominant, { path: 'properties[spec].properties[tags]', kind: 'list' });
  assert.equal(c.maxBound?.keyword, 'maxItems');
  assert.match(f.message, new RegExp(`the list spec\\.tags is unbounded \\(set maxItems: ${c.maxBound!.value} or less\\)`));
});
