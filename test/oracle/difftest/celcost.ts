/**
 * CEL-heavy differential cases: rules of the expensive shapes (nested comprehensions, split/join,
 * regexes, sets, sorting, string building, two-variable comprehensions) over lists, maps and strings
 * that are bounded or not, with large values (thousands of items, tens of thousands of characters).
 *
 * - `cel-cost`: the estimated cost and the runtime cost cel-go's tracker charges (and the result or the
 *   error, e.g. "operation cancelled: actual cost limit exceeded" where the API server stops);
 * - `crd`: the same rules in a CRD, for the per-rule and per-CRD cost limits with cardinalities.
 */
import type { JSONSchemaProps } from '../../../server/src/engine/schema/types';
import type { Random } from './random';
import { wrapCRD, type GenCase } from './cases';

type Shape = 'ints' | 'strs' | 'str' | 'map' | 'objs';

const STRING_RULES = [
  "self.split('/').all(x, x.size() > 0)",
  "self.split(',').exists(x, x == 'a')",
  "self.split('/').join('-').size() > 0",
  "self.matches('^(ab/)*$')",
  "self.findAll('[0-9]+').size() < 4",
  "self.replace('/', '//').size() > 0",
  'self.lowerAscii().upperAscii().trim().size() > 0',
  '(self + self).size() > 0',
  "self.contains('zz')",
  "self.indexOf('/') >= 0",
  "self.substring(1).startsWith('b')",
  "self.charAt(0) == 'a'",
];
const INT_LIST_RULES = [
  'self.all(x, x >= 0)',
  'self.exists(x, x == 5)',
  'self.map(x, self.map(y, x + y)).size() > 0',
  'self.filter(x, x % 2 == 0).map(x, x * 2).size() >= 0',
  'self.all(x, x in self)',
  'self.sum() >= 0',
  'self.sort() == self',
  'self.distinct().size() == self.size()',
  'self.isSorted()',
  'self.all(i, v, i >= 0 && v >= 0)',
  'self.exists_one(x, x == 0)',
  'self.max() >= self.min()',
  'lists.range(self.size()).all(i, self[i] >= 0)',
];
const STR_LIST_RULES = [
  "self.all(x, x.matches('^[a-z]+$'))",
  "self.map(x, self.join(',')).size() > 0",
  'sets.intersects(self, self)',
  "self.filter(x, x.startsWith('a')).all(x, x.size() < 5)",
  'self.sortBy(x, x).size() == self.size()',
  "self.join(',').split(',').size() == self.size()",
  "'%s'.format([self]).size() > 0",
];
const MAP_RULES = ['self.all(k, k.size() < 100)', 'self.all(k, v, k.size() + v.size() < 100)', 'self.transformMap(k, v, v + v).size() >= 0', "self.exists(k, self[k] == 'a')", "self.map(k, self[k]).all(v, v != '')"];
const OBJ_RULES = [
  'self.all(x, x.name.size() < 50)',
  'self.map(x, x.name).distinct().size() == self.size()',
  'self.all(x, self.exists_one(y, y.name == x.name))',
  "self.filter(x, has(x.tags)).all(x, x.tags.all(t, t != ''))",
];

/** The schema of a shape; `copy` (0, 1, ...) makes bounded schemas whose bounds differ per copy. */
function shapeSchema(r: Random, shape: Shape, copy?: number): JSONSchemaProps {
  const bounded = copy !== undefined || r.chance(0.4);
  const maxItems = r.pick([10, 100, 1000, 5000]) + (copy ?? 0) * 7;
  const maxLength = r.pick([5, 63, 253, 4096]) + (copy ?? 0) * 3;
  const str: JSONSchemaProps = bounded ? { type: 'string', maxLength } : { type: 'string' };
  switch (shape) {
    case 'str':
      return str;
    case 'ints':
      return { type: 'array', items: { type: 'integer' }, ...(bounded ? { maxItems } : {}) };
    case 'strs':
      return { type: 'array', items: r.chance(0.5) ? str : { type: 'string', maxLength }, ...(bounded ? { maxItems } : {}) };
    case 'map':
      return { type: 'object', additionalProperties: str, ...(bounded ? { maxProperties: maxItems } : {}) };
    case 'objs':
      return {
        type: 'array',
        ...(bounded ? { maxItems } : {}),
        items: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 63 }, tags: { type: 'array', items: str } } },
      };
  }
}

function rules(shape: Shape): string[] {
  return shape === 'str' ? STRING_RULES : shape === 'ints' ? INT_LIST_RULES : shape === 'strs' ? STR_LIST_RULES : shape === 'map' ? MAP_RULES : OBJ_RULES;
}

/** A value of the shape, large: up to `n` items or characters (bounds of the schema respected). */
function bigValue(r: Random, shape: Shape, s: JSONSchemaProps): unknown {
  const cap = (n: number, max: number | undefined) => (max === undefined ? n : Math.min(n, max));
  const strOf = (len: number) => 'ab/'.repeat(Math.ceil(len / 3)).slice(0, len);
  const itemLen = (it: JSONSchemaProps | undefined) => cap(r.pick([1, 3, 8]), it?.maxLength);
  switch (shape) {
    case 'str':
      return strOf(cap(r.pick([100, 3000, 30000]), s.maxLength));
    case 'ints': {
      const n = cap(r.pick([10, 1000, 3000]), s.maxItems);
      return Array.from({ length: n }, (_, i) => (r.chance(0.5) ? i : n - i));
    }
    case 'strs': {
      const n = cap(r.pick([10, 500, 2000]), s.maxItems);
      const len = itemLen(s.items as JSONSchemaProps);
      return Array.from({ length: n }, (_, i) => ('abcdefgh'.slice(i % 4) + 'x'.repeat(len)).slice(0, Math.max(1, len)));
    }
    case 'map': {
      const n = cap(r.pick([10, 300, 1500]), s.maxProperties);
      const len = itemLen(s.additionalProperties as JSONSchemaProps);
      return Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v'.repeat(len)]));
    }
    case 'objs': {
      const n = cap(r.pick([10, 300, 1500]), s.maxItems);
      return Array.from({ length: n }, (_, i) => ({ name: `n${i % Math.max(1, n - 1)}`, ...(i % 3 === 0 ? { tags: ['a', 'b'] } : {}) }));
    }
  }
}

/** One CEL-heavy case: its estimate and runtime cost (cel-cost), or its CRD cost checks (crd). */
export function genCelCostCase(r: Random, id: string): GenCase {
  const shape = r.pick<Shape>(['ints', 'strs', 'str', 'map', 'objs']);
  const field = shapeSchema(r, shape);
  const rule = r.pick(rules(shape));
  if (r.chance(0.7)) {
    return { id: `${id}-cel-cost`, op: 'cel-cost', schema: field, expr: rule, object: bigValue(r, shape, field), isResourceRoot: false };
  }
  // In a CRD: under a list (cardinality) half of the time, several rules so the total may exceed its
  // limit. Copies get different bounds: among rules of equal cost the API server names a random four.
  const props: Record<string, JSONSchemaProps> = {};
  // (Rules whose estimate saturates still tie: lists.range() has no size bound; objs hold unbounded tags.)
  const copies = shape === 'objs' || rule.includes('lists.range') ? 1 : r.pick([1, 1, 3, 12]);
  for (let i = 0; i < copies; i++) props[`f${i}`] = { ...(copies === 1 ? field : shapeSchema(r, shape, i)), 'x-kubernetes-validations': [{ rule }] };
  const spec: JSONSchemaProps = r.chance(0.5)
    ? { type: 'object', properties: props }
    : { type: 'object', properties: { items: { type: 'array', ...(r.chance(0.5) ? { maxItems: r.pick([5, 100]) } : {}), items: { type: 'object', properties: props } } } };
  return { id: `${id}-crd-cost`, op: 'crd', crd: wrapCRD({ type: 'object', properties: { spec } }) };
}
