import { test } from 'node:test';
import assert from 'node:assert/strict';
import { completionAt, costBreakdown, fieldsOf, signatureAt, typeAt, type RuleSite } from './query';
import type { JSONSchemaProps } from '../types';

const item: JSONSchemaProps = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', description: 'the name' }, 'x-port': { 'x-kubernetes-int-or-string': true }, size: { type: 'integer', default: 1 } },
};
const listSite: RuleSite = { schema: { type: 'array', items: item }, isResourceRoot: false };
const objSite: RuleSite = {
  schema: {
    type: 'object',
    properties: {
      name: { type: 'string' },
      namespace: { type: 'string' },
      items: { type: 'array', items: item },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object' } } },
      cpu: { type: 'string' },
    },
  },
  isResourceRoot: true,
};

const labels = (r: { items: Array<{ label: string }> }) => r.items.map((i) => i.label);

test('completion after a lambda variable of all() offers the list item fields, escaped', () => {
  const src = 'self.all(l, l.';
  const r = completionAt(src, src.length, listSite);
  assert.equal(r.context, 'member');
  assert.equal(r.receiverText, 'object');
  assert.ok(labels(r).includes('name') && labels(r).includes('x__dash__port') && labels(r).includes('size'), labels(r).join(','));
  assert.equal(r.items.find((i) => i.label === 'x__dash__port')!.field!.jsonName, 'x-port');
  assert.equal(r.items.find((i) => i.label === 'x__dash__port')!.detail, 'int-or-string');
});

test('completion after a string field offers string functions only; a prefix is replaced', () => {
  const src = 'self.name.sta';
  const r = completionAt(src, src.length, objSite);
  assert.equal(r.prefix, 'sta');
  assert.deepEqual(r.range, { start: src.length - 3, end: src.length });
  const l = labels(r);
  assert.ok(l.includes('startsWith') && l.includes('matches') && l.includes('split'));
  assert.ok(!l.includes('all') && !l.includes('isSorted') && !l.includes('getHours'), l.join(','));
});

test('completion inside nested macros, two-variable comprehensions, optional fields and map values', () => {
  const a = completionAt('self.items.exists(i, self.items.all(j, j.', 'self.items.exists(i, self.items.all(j, j.'.length, objSite);
  assert.ok(labels(a).includes('name'));
  const b = completionAt('self.items.all(i, v, v.', 'self.items.all(i, v, v.'.length, objSite);
  assert.ok(labels(b).includes('name'));
  const c = completionAt('self.items.all(i, v, i.', 'self.items.all(i, v, i.'.length, objSite);
  assert.equal(c.receiverText, 'int');
  const d = completionAt('self.labels["a"].', 'self.labels["a"].'.length, objSite);
  assert.equal(d.receiverText, 'string');
  const e = completionAt('self.?name.', 'self.?name.'.length, objSite);
  assert.equal(e.receiverText, 'optional(string)');
  assert.ok(labels(e).includes('orValue'));
  const f = completionAt('self.template.', 'self.template.'.length, objSite);
  assert.ok(
    ['apiVersion', 'kind', 'metadata', 'spec'].every((x) => labels(f).includes(x)),
    labels(f).join(','),
  );
  const g = completionAt('oldSelf.items[0].', 'oldSelf.items[0].'.length, objSite);
  assert.ok(labels(g).includes('name'));
  const h = completionAt('self.items.map(x, x.size).filter(y, y.', 'self.items.map(x, x.size).filter(y, y.'.length, objSite);
  assert.equal(h.receiverText, 'int');
});

test('global completion lists variables in scope, functions and namespaces', () => {
  const src = 'self.items.all(it, ';
  const r = completionAt(src, src.length, objSite);
  assert.equal(r.context, 'global');
  const l = labels(r);
  assert.ok(
    ['self', 'oldSelf', 'it', 'quantity', 'has', 'sets', 'optional'].every((x) => l.includes(x)),
    l.join(','),
  );
  assert.ok(!l.includes('__result__'));
});

test('keywords as field names: escaped, and bare from 1.31 on', () => {
  const r = completionAt('self.', 5, objSite);
  assert.ok(labels(r).includes('__namespace__'));
  assert.equal(typeAt('self.namespace == "a"', 6, objSite)?.typeText, 'string');
  assert.equal(typeAt('self.namespace == "a"', 6, { ...objSite, kubernetesMinor: 30 })?.typeText, 'unknown');
});

test('hover: an iteration variable shows the item fields; a list names its item type', () => {
  const src = 'self.all(l, l.name != "")';
  const h = typeAt(src, src.indexOf('l,'), listSite)!;
  assert.equal(h.kind, 'iteration variable');
  assert.deepEqual(
    h.fields!.map((f) => `${f.name}:${f.typeText}:${f.required}`),
    ['name:string:true', 'x__dash__port:int-or-string:false', 'size:int:false'],
  );
  const use = typeAt(src, src.indexOf('l.name'), listSite)!;
  assert.equal(use.kind, 'iteration variable');
  const self = typeAt(src, 1, listSite)!;
  assert.equal(self.typeText, 'list(object)');
  assert.equal(self.elemText, 'object');
  assert.equal(typeAt(src, src.indexOf('name'), listSite)!.typeText, 'string');
  assert.equal(fieldsOf(self.type).length, 0);
});

test('signature help for quantity( and .isGreaterThan(', () => {
  const q = signatureAt('quantity(', 9, objSite)!;
  assert.deepEqual(
    q.signatures.map((s) => s.label),
    ['quantity(string) -> kubernetes.Quantity'],
  );
  assert.equal(q.activeParameter, 0);
  const src = 'quantity(self.cpu).isGreaterThan(';
  const g = signatureAt(src, src.length, objSite)!;
  assert.deepEqual(
    g.signatures.map((s) => s.label),
    ['kubernetes.Quantity.isGreaterThan(kubernetes.Quantity) -> bool'],
  );
  const split = "self.name.split('/', ";
  const sp = signatureAt(split, split.length, objSite)!;
  assert.equal(sp.activeParameter, 1);
  assert.ok(sp.signatures.some((s) => s.label === 'string.split(string, int) -> list(string)'));
});

test('cost breakdown names the comprehension over an unbounded list', () => {
  const b = costBreakdown('self.items.all(i, i.name.startsWith("a"))', objSite)!;
  assert.ok(b.cost.max > 0);
  const it = b.factors.find((f) => f.kind === 'iteration')!;
  assert.equal(it.pathText, 'self.items');
  assert.ok(it.unbounded);
});
