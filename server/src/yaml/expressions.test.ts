import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { isExpressionKey, isExpressionValue, lexExpressions, maskExpressions } from './expressions';

test('Chainsaw expressions: keys and values in parentheses, iterations and bindings', () => {
  for (const k of ['(conditions != null)', "(wildcard('http://x.*', url || ''))", '~.(containers)', '~c.(spec.containers)', '(spec.replicas)->n', 'metadata->meta']) assert.equal(isExpressionKey(k), true, k);
  for (const k of ['name', 'a(b)', '(open', '~.containers', 'x->']) assert.equal(isExpressionKey(k), false, k);
  assert.equal(isExpressionValue('($namespace)'), true);
  assert.equal(isExpressionValue('(a) || (b)'), true, 'chainsaw reads any (...) value as one');
  for (const v of ['ns', '(', 'a (b)', 3, null]) assert.equal(isExpressionValue(v), false, String(v));
  const text = [
    'metadata:',
    '  namespace: ($namespace)',
    "  name: '(quoted)'",
    'status:',
    '  (conditions != null): true',
    '  (url != null): true',
    '  ~.(conditions):',
    '    status: ($s)',
    '  items: [(a), b]',
    '  note: |',
    '    (block scalar)',
  ].join('\n');
  assert.deepEqual(
    lexExpressions(text).map((r) => text.slice(r.start, r.end)),
    ['($namespace)', "'(quoted)'", '(conditions != null)', '(url != null)', '~.(conditions)', '(a)'],
  );
  // Masked in place; two keys of one length stay two keys.
  const m = maskExpressions(text)!;
  assert.equal(m.text.length, text.length);
  const v = parse(m.text) as { metadata: Record<string, string>; status: Record<string, unknown> };
  assert.match(v.metadata.namespace, /^x+$/);
  assert.equal(Object.keys(v.status).length, 5);
  assert.equal(v.status.note, '(block scalar)\n');
  assert.equal(maskExpressions('a: b\n'), undefined);
});
