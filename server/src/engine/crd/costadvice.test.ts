import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FieldError } from '../field';
import { validateCustomResourceDefinition } from './validation';
import { crdObject } from '../../../../test/crd';

const crd = (spec: Record<string, unknown>) => crdObject({ specProperties: spec });

const costErrors = (errs: FieldError[]) => errs.filter((e) => e.params?.origin === 'celCost');

/** Sets keyword: n at a schema path relative to openAPIV3Schema (`properties[spec].properties[tags]`). */
function bound(c: any, path: string, keyword: string, n: number): any {
  const copy = structuredClone(c);
  let node = copy.spec.versions[0].schema.openAPIV3Schema;
  for (const seg of path.split('.')) {
    const m = /^properties\[(.*)\]$/.exec(seg);
    node = m ? node.properties[m[1]] : node[seg];
  }
  node[keyword] = n;
  return copy;
}

/** The advice of the first cost error; checks that its bound clears every cost error and one more does not. */
function checkAdvice(c: any, scope: 'rule' | 'total' = 'rule') {
  const errs = costErrors(validateCustomResourceDefinition(structuredClone(c)));
  const e = errs.find((x) => x.params!.cost!.scope === scope);
  assert.ok(e, JSON.stringify(errs.map((x) => x.detail)));
  const p = e.params!.cost!;
  assert.ok(p.dominant && p.maxBound, JSON.stringify(p));
  assert.equal(p.unbounded?.[0].path, p.dominant.path);
  const fixed = bound(c, p.dominant.path, p.maxBound.keyword, p.maxBound.value);
  assert.deepEqual(
    costErrors(validateCustomResourceDefinition(fixed)).map((x) => x.detail),
    [],
    `${p.maxBound.keyword}: ${p.maxBound.value} clears the cost errors`,
  );
  const over = bound(c, p.dominant.path, p.maxBound.keyword, p.maxBound.value + 1);
  assert.ok(costErrors(validateCustomResourceDefinition(over)).length > 0, `${p.maxBound.keyword}: ${p.maxBound.value + 1} does not: the bound is the largest`);
  return p;
}

test('cost advice: a nested loop over an unbounded list names the list and the largest maxItems that brings the rule under budget', () => {
  const p = checkAdvice(crd({ tags: { type: 'array', items: { type: 'string', maxLength: 10 }, 'x-kubernetes-validations': [{ rule: 'self.all(x, self.all(y, x == y))' }] } }));
  assert.deepEqual(p.dominant, { path: 'properties[spec].properties[tags]', kind: 'list' });
  assert.equal(p.maxBound!.keyword, 'maxItems');
});

test('cost advice: split() of an unbounded string names the string and a maxLength', () => {
  const p = checkAdvice(crd({ path: { type: 'string', 'x-kubernetes-validations': [{ rule: "self.split('/').all(x, x.size() > 0)" }] } }));
  assert.deepEqual(p.dominant, { path: 'properties[spec].properties[path]', kind: 'string' });
  assert.equal(p.maxBound!.keyword, 'maxLength');
});

test('cost advice: a rule on the items of unbounded lists: the dominant one of the lists it is under and iterates, with its bound', () => {
  const spec = {
    groups: {
      type: 'array',
      items: {
        type: 'object',
        properties: { members: { type: 'array', maxItems: 50, items: { type: 'string', maxLength: 64 } }, labels: { type: 'object', additionalProperties: { type: 'string', maxLength: 63 } } },
        'x-kubernetes-validations': [{ rule: 'self.members.all(m, self.labels.exists(k, k == m))' }],
      },
    },
  };
  const p = checkAdvice(crd(spec));
  assert.ok(['properties[spec].properties[groups]', 'properties[spec].properties[groups].items.properties[labels]'].includes(p.dominant!.path), p.dominant!.path);
  assert.deepEqual(p.unbounded!.map((u) => u.path).sort(), ['properties[spec].properties[groups]', 'properties[spec].properties[groups].items.properties[labels]']);
});

test("cost advice: the CRD total over its limit: the most expensive rule's dominant value, bounded so that the total fits", () => {
  const rule = { rule: "self.all(x, x.matches('^[a-z]+$'))" };
  const spec: Record<string, unknown> = {};
  for (let i = 0; i < 8; i++) spec[`f${i}`] = { type: 'array', maxItems: 2000, items: { type: 'string', maxLength: 500 }, 'x-kubernetes-validations': [rule] };
  spec.big = { type: 'array', items: { type: 'string', maxLength: 500 }, 'x-kubernetes-validations': [rule] };
  const p = checkAdvice(crd(spec), 'total');
  assert.deepEqual(p.dominant, { path: 'properties[spec].properties[big]', kind: 'list' });
});
