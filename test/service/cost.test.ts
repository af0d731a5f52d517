/**
 * CEL cost findings as people read them: one finding per over-budget rule at its rule, the CRD's total once
 * with the rules that contributed to it as related locations (not rows of their own).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LanguageService } from '../../server/src/service/languageService';
import { docOf, WIDGET_CRD } from './helpers';

test('cost: one finding per over-budget rule, the total once with its contributors as related information', () => {
  const rules = [
    '                - rule: "self.tags.all(x, self.tags.all(y, x == y))"',
    '                - rule: "self.tags.all(x, self.tags.all(y, x.size() == y.size()))"',
    '                - rule: "self.tags.all(x, self.tags.all(y, x != y || x == y))"',
  ].join('\n');
  const crd = WIDGET_CRD.replace('                - rule: "self.replicas <= 5"\n                  message: too many replicas\n', rules + '\n');
  const s = new LanguageService();
  const { td } = docOf(crd);
  s.update(td);
  const found = s.findings(td);
  const cost = found.filter((f) => f.params?.origin === 'celCost');
  const perRule = cost.filter((f) => f.params?.cost?.scope === 'rule');
  const total = cost.filter((f) => f.params?.cost?.scope === 'total');
  assert.equal(perRule.length, 3, found.map((f) => f.message).join('\n'));
  assert.equal(total.length, 1);
  assert.equal(cost.length, 4, 'no row of its own for a contribution');
  for (const f of perRule) {
    assert.equal(td.getText(f.range), 'rule');
    assert.match(f.message, /^rule too expensive \(estimated cost [^,]+, limit 10 million\)/);
    assert.match(String(f.apiMessage), /estimated rule cost exceeds budget by factor of/);
  }
  const t = total[0];
  assert.match(t.message, /^the CRD's rules together are too expensive \(estimated cost .+, limit 100 million\)/);
  const contributed = (t.related ?? []).filter((r) => r.message.startsWith('this rule contributed'));
  assert.equal(contributed.length, 3);
  assert.deepEqual(contributed.map((r) => r.location.range.start.line).sort(), perRule.map((f) => f.range.start.line).sort());
});
