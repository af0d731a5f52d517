import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { errorMessage } from '../field';
import { validateCustomResource } from './strategy';
import { partialObjectSchema } from './partial';

const schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['size', 'mode'],
      minProperties: 2,
      properties: {
        size: { type: 'integer', maximum: 10, 'x-kubernetes-validations': [{ rule: 'self % 2 == 0', message: 'size must be even' }] },
        mode: { type: 'string', enum: ['fast', 'slow'] },
        name: { type: 'string', pattern: '^[a-z]+$' },
        tags: { type: 'array', items: { type: 'string' }, minItems: 1, 'x-kubernetes-list-type': 'set' },
        ports: {
          type: 'array',
          minItems: 2,
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', required: ['name', 'port'], properties: { name: { type: 'string' }, port: { type: 'integer', maximum: 65535 } } },
        },
      },
      oneOf: [{ required: ['size'] }, { required: ['name'] }],
      'x-kubernetes-validations': [{ rule: 'self.size > 0', message: 'size must be positive' }],
    },
  },
};
const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: { group: 'example.com', scope: 'Namespaced', names: { kind: 'Widget', plural: 'widgets' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }] },
};
const messages = (obj: unknown, partial: boolean) => validateCustomResource(crd, obj, { partial }).errors.map(errorMessage).sort();

test('a partial object: no required fields, no rules over objects; values present are checked', () => {
  const patch = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { name: 'w', ports: [{ name: 'http' }] } };
  assert.notDeepEqual(messages(patch, false), [], 'as a whole object it is invalid');
  assert.deepEqual(messages(patch, true), []);
  // Types, enums, patterns, bounds and rules on scalars still apply.
  const bad = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: {}, spec: { size: 3, mode: 'medium', name: 'A', tags: ['a', 'a'], ports: [{ name: 'x', port: 'http' }] } };
  const got = messages(bad, true);
  assert.ok(
    got.some((m) => m.includes('spec.mode: Unsupported value: "medium"')),
    got.join('\n'),
  );
  assert.ok(
    got.some((m) => m.includes("spec.name in body should match '^[a-z]+$'")),
    got.join('\n'),
  );
  assert.ok(
    got.some((m) => m.startsWith('spec.tags[1]: Duplicate value')),
    got.join('\n'),
  );
  assert.ok(
    got.some((m) => m.includes('spec.ports[0].port: Invalid value: "string"')),
    got.join('\n'),
  );
  assert.ok(!got.some((m) => m.includes('Required value')), got.join('\n'));
  // The scalar rule runs once the type errors are fixed; the object rule never does.
  const rule = messages({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: {}, spec: { size: -3 } }, true);
  assert.deepEqual(rule, ['spec.size: Invalid value: -3: size must be even']);
});

test('strategic merge patch directives are not fields; a deletion is not checked', () => {
  const patch = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { $patch: 'replace', $retainKeys: ['size'], size: 4 } };
  const r = validateCustomResource(crd, patch, { partial: true });
  assert.deepEqual(r.pruned, []);
  assert.deepEqual(r.errors, []);
  assert.deepEqual(validateCustomResource(crd, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, $patch: 'delete', spec: 1 }, { partial: true }).errors, []);
});

test('the partial schema is derived once and leaves the CRD alone', () => {
  const s = schema as never;
  assert.equal(partialObjectSchema(s), partialObjectSchema(s));
  assert.deepEqual(schema.properties.spec.required, ['size', 'mode']);
});
