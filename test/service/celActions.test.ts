/**
 * What the editor offers on CEL rules beyond the API server's verdict: the cost quick fix (the bound the
 * estimator computed, applied, clears every cost error of the CRD), and compile errors in people's words.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LanguageService } from '../../server/src/service/languageService';
import { applyEdits, docOf, WIDGET_CRD } from './helpers';

function costFixed(crd: string, title: RegExp): string {
  const s = new LanguageService();
  const { td } = docOf(crd);
  s.update(td);
  const costs = s.findings(td).filter((f) => f.params?.origin === 'celCost');
  assert.ok(costs.length > 0, 'over budget before the fix');
  const fixes = s.fixesOf(td, costs[0]);
  const fx = fixes.find((x) => title.test(x.title));
  assert.ok(fx, fixes.map((x) => x.title).join(', '));
  const text = applyEdits(td, fx.edits);
  const after = docOf(text).td;
  const fresh = new LanguageService();
  fresh.update(after);
  // The lints (an optional field read without has()) are not what this fix is about.
  const left = fresh.findings(after).filter((f) => !f.code.startsWith('CEL'));
  assert.deepEqual(
    left.map((f) => f.message),
    [],
    `findings left after "${fx.title}":\n${text}`,
  );
  return text;
}

test('cost quick fix: "Add maxItems: N" on the unbounded list; applied, the rule and the CRD are under budget', () => {
  const crd = WIDGET_CRD.replace('self.replicas <= 5', 'self.tags.all(x, self.tags.all(y, x == y))').replace(
    '                  items:\n                    type: string\n',
    '                  items:\n                    type: string\n                    maxLength: 10\n',
  );
  const out = costFixed(crd, /^Add maxItems: \d+ on spec\.tags$/);
  const n = Number(/maxItems: (\d+)/.exec(out)![1]);
  assert.ok(n > 10 && n < 100000, String(n));
  // The bound is the largest that fits: one more is over budget again.
  const s = new LanguageService();
  const { td } = docOf(out.replace(`maxItems: ${n}`, `maxItems: ${n + 1}`));
  s.update(td);
  assert.ok(
    s.findings(td).some((f) => f.params?.origin === 'celCost'),
    'N + 1 is over budget',
  );
});

test('cost quick fix: maxLength on a string a rule splits, in a flow mapping', () => {
  const base = WIDGET_CRD.replace('"self.replicas <= 5"', "\"self.size.split('/').all(p, self.size.split('-').all(q, p != q))\"");
  const flow = base.replace('                  type: string\n                  description: How big the widget is.\n                  enum: [small, medium, large]\n', '                  { type: string }\n');
  assert.notEqual(flow, base);
  const out = costFixed(flow, /^Add maxLength: \d+ on spec\.size$/);
  assert.match(
    out,
    /\{ type: string, maxLength: \d+ \}/,
    out
      .split('\n')
      .filter((l) => l.includes('type: string'))
      .join('\n'),
  );
});

test("CEL compile errors: the compiler's words without cel-go's position prefix or container; the API server text kept", () => {
  const s = new LanguageService();
  const { td } = docOf(WIDGET_CRD.replace('self.replicas <= 5', 'foo(self.replicas) && bar').replace('message: too many replicas', 'messageExpression: "1 + x"'));
  s.update(td);
  const f = s.findings(td).find((x) => x.params?.origin === 'celCompile')!;
  assert.equal(f.message, "undeclared reference to 'foo'\nundeclared reference to 'bar'");
  assert.match(f.apiMessage!, /compilation failed: ERROR: <input>:1:4: undeclared reference to 'foo' \(in container ''\)/);
  const s2 = new LanguageService();
  const { td: td2 } = docOf(WIDGET_CRD.replace('message: too many replicas', 'messageExpression: "1 + x"'));
  s2.update(td2);
  const m = s2.findings(td2).find((x) => x.code === 'FieldValueInvalid')!;
  assert.equal(m.message, "undeclared reference to 'x'");
  assert.equal(td2.getText(m.range), 'x');
  assert.match(m.apiMessage!, /messageExpression compilation failed: ERROR: <input>:1:5:/);
});
