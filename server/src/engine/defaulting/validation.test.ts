import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorMessage, FieldPath, invalid, type FieldError } from '../field';
import { toStructural } from '../schema/convert';
import { validateDefaults, type DefaultSchemaNode } from './validation';

function check(schema: Record<string, unknown>, validateValue?: (p: FieldPath, v: unknown, n: DefaultSchemaNode) => FieldError[]) {
  const calls: string[] = [];
  const errs = validateDefaults(
    FieldPath.root('spec', 'validation', 'openAPIV3Schema'),
    toStructural(schema),
    schema,
    { isResourceRoot: true, requirePrunedDefaults: true },
    {
      validateValue: (p, v, n) => {
        calls.push(p.toString());
        return validateValue ? validateValue(p, v, n) : [];
      },
    },
  );
  return { msgs: errs.map(errorMessage), calls };
}

test('defaults must be pruned', () => {
  const { msgs } = check({ type: 'object', properties: { spec: { type: 'object', default: { a: 1, b: 2 }, properties: { a: { type: 'integer' } } } } });
  assert.deepEqual(msgs, ['spec.validation.openAPIV3Schema.properties[spec].default: Invalid value: {"a":1,"b":2}: must not have unknown fields']);
});

test('each default is validated against its own schema node, raw node passed along', () => {
  const schema = { type: 'object', properties: { a: { type: 'string', maxLength: 1, default: 'long' }, l: { type: 'array', items: { type: 'string', default: 'x' } } } };
  const seen: unknown[] = [];
  const { msgs, calls } = check(schema, (p, v, n) => {
    seen.push(n.raw);
    return v === 'long' ? [invalid(p, v, 'too long')] : [];
  });
  assert.deepEqual(calls.sort(), ['spec.validation.openAPIV3Schema.properties[a].default', 'spec.validation.openAPIV3Schema.properties[l].items.default']);
  assert.ok(seen.includes(schema.properties.a));
  assert.deepEqual(msgs, ['spec.validation.openAPIV3Schema.properties[a].default: Invalid value: "long": too long']);
});

test('defaults inside metadata must coerce as ObjectMeta', () => {
  const schema = { type: 'object', properties: { metadata: { type: 'object', properties: { name: { type: 'string', default: 5 } } } } };
  const { msgs } = check(schema);
  assert.equal(msgs.length, 1);
  assert.match(
    msgs[0],
    /^spec\.validation\.openAPIV3Schema\.properties\[metadata\]\.properties\[name\]\.default: Invalid value: 5: must result in valid metadata: metadata: Invalid value: .*json: cannot unmarshal number into Go struct field ObjectMeta\.name of type string$/,
  );
});

test('an embedded resource default with a non-string kind fails coercion at its own path', () => {
  const schema = { type: 'object', properties: { e: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, default: { kind: 1 } } } };
  const { msgs } = check(schema);
  assert.deepEqual(msgs, ['spec.validation.openAPIV3Schema.properties[e].default.kind: Invalid value: 1: must be a string']);
});

test('schemaHasUnprunedDefaults: only defaults that PruneDefaults changes count', async () => {
  const { schemaHasUnprunedDefaults } = await import('./prune');
  const pruned = { type: 'object', properties: { s: { type: 'object', properties: { a: { type: 'integer' } }, default: { a: 1 } } } };
  const unpruned = { type: 'object', properties: { s: { type: 'object', properties: { a: { type: 'integer' } }, default: { a: 1, b: 2 } } } };
  const metaJunk = { type: 'object', properties: { e: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, default: { metadata: { junk: 1 } } } } };
  assert.equal(schemaHasUnprunedDefaults(pruned), false);
  assert.equal(schemaHasUnprunedDefaults(unpruned), true);
  assert.equal(schemaHasUnprunedDefaults(metaJunk), true);
  assert.equal(schemaHasUnprunedDefaults({ ...unpruned, properties: { ...unpruned.properties, x: {} } }), false, 'non-structural');
});

test('validateObjectMeta gets the embedded resource, its raw schema and Go nil path inside metadata', () => {
  const emb = {
    type: 'object',
    'x-kubernetes-embedded-resource': true,
    'x-kubernetes-preserve-unknown-fields': true,
    default: { apiVersion: 'v1' },
    properties: { metadata: { type: 'object', properties: { name: { type: 'string', default: 'n' } } } },
  };
  const schema = { type: 'object', properties: { e: emb } };
  const calls: Array<[string | null, unknown, unknown, boolean]> = [];
  validateDefaults(
    FieldPath.root('s'),
    toStructural(schema),
    schema,
    { isResourceRoot: true, requirePrunedDefaults: true },
    {
      validateValue: () => [],
      validateObjectMeta: (p, obj, node, root) => {
        calls.push([p ? p.toString() : null, obj, node.raw, root]);
        return [];
      },
    },
  );
  assert.deepEqual(calls, [
    ['s.properties[e].default', { apiVersion: 'v1' }, emb, true],
    [null, { metadata: { name: 'n' }, kind: 'Validation', apiVersion: 'validation/v1' }, emb, true],
  ]);
});
