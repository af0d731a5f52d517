import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { migrateToV1 } from './migrate';
import { applyEdits } from './edits';
import { validateCustomResourceDefinition } from './validation';

const FIXTURES = join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'v1beta1');
const fixture = (name: string) => parse(readFileSync(join(FIXTURES, name), 'utf8'));
const errors = (crd: unknown) => validateCustomResourceDefinition(crd).filter((e) => (e.severity ?? 'error') === 'error');
const notes = (doc: unknown, kind?: string) => (migrateToV1(doc)?.notes ?? []).filter((n) => !kind || n.kind === kind).map((n) => `${n.path}: ${n.message}`);

function widget(spec: Record<string, unknown>): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1beta1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' }, version: 'v1', ...spec },
  };
}

test("the documentation's v1beta1 CronTabs migrate to v1 CRDs our validation accepts, with nothing left to do by hand", () => {
  const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.yaml'));
  assert.equal(files.length, 4);
  for (const f of files) {
    const doc = fixture(f);
    assert.notEqual(errors(doc).length, 0, `${f}: a v1beta1 CRD is rejected as it stands`);
    const m = migrateToV1(doc)!;
    assert.deepEqual(errors(m.crd), [], f);
    assert.deepEqual(notes(doc, 'manual'), [], f);
    assert.equal(m.crd.apiVersion, 'apiextensions.k8s.io/v1');
    // The edits are the whole story: applying them to the document gives the result.
    assert.deepEqual(applyEdits(doc, m.edits), m.crd);
  }
});

test('CronTab with validation: the version list, the schema moved into it, types inferred, unknown fields kept at the root', () => {
  const m = migrateToV1(fixture('crontab-validation.yaml'))!;
  const spec = m.crd.spec as any;
  assert.equal(spec.version, undefined);
  assert.equal(spec.validation, undefined);
  assert.deepEqual(
    spec.versions.map((v: any) => [v.name, v.served, v.storage]),
    [['v1', true, true]],
  );
  const root = spec.versions[0].schema.openAPIV3Schema;
  assert.equal(root.type, 'object');
  assert.equal(root['x-kubernetes-preserve-unknown-fields'], true);
  assert.equal(root.properties.spec.type, 'object');
  assert.equal(root.properties.spec.properties.replicas.maximum, 10);
  assert.equal(spec.preserveUnknownFields, undefined);
  assert.deepEqual(notes(fixture('crontab-validation.yaml'), 'required').sort(), [
    'spec.preserveUnknownFields: unset (v1beta1 defaults it to true): v1 does not allow it; x-kubernetes-preserve-unknown-fields: true added at the root of the schema instead. Unknown fields inside spec are now pruned: add x-kubernetes-preserve-unknown-fields: true there to keep them',
    'spec.versions[0].schema.openAPIV3Schema.properties[spec]: type: object added (inferred from properties); v1 schemas must be structural',
    'spec.versions[0].schema.openAPIV3Schema: type: object added (inferred from properties); v1 schemas must be structural',
  ]);
});

test('printer columns and subresources go into every version; JSONPath becomes jsonPath', () => {
  const doc = widget({
    version: undefined,
    versions: [
      { name: 'v1', served: true, storage: true },
      { name: 'v1beta1', served: true, storage: false },
    ],
    validation: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } },
    subresources: { status: {} },
    additionalPrinterColumns: [{ name: 'Size', type: 'integer', JSONPath: '.spec.size' }],
    preserveUnknownFields: false,
  });
  const m = migrateToV1(doc)!;
  const versions = (m.crd.spec as any).versions;
  for (const v of versions) {
    assert.deepEqual(v.additionalPrinterColumns, [{ name: 'Size', type: 'integer', jsonPath: '.spec.size' }]);
    assert.deepEqual(v.subresources, { status: {} });
    assert.equal(v.schema.openAPIV3Schema.properties.spec.properties.size.type, 'integer');
  }
  assert.equal((m.crd.spec as any).preserveUnknownFields, false);
  assert.deepEqual(errors(m.crd), []);
  // One note for both versions.
  assert.ok(notes(doc).includes('spec.versions[*].additionalPrinterColumns: spec.additionalPrinterColumns moved into every version (v1 has no top-level additionalPrinterColumns)'), notes(doc).join('\n'));
});

test('webhook conversion: clientConfig and the defaulted review versions under conversion.webhook', () => {
  const m = migrateToV1(fixture('crontab-webhook-conversion.yaml'))!;
  const conv = (m.crd.spec as any).conversion;
  assert.deepEqual(Object.keys(conv), ['strategy', 'webhook']);
  assert.deepEqual(conv.webhook.conversionReviewVersions, ['v1beta1']);
  assert.equal(conv.webhook.clientConfig.service.path, '/crdconvert');
  assert.deepEqual(notes(fixture('crontab-webhook-conversion.yaml'), 'required'), []);
});

test('types the schema does not say: int-or-string from anyOf, any value kept where nothing is known', () => {
  const doc = widget({
    preserveUnknownFields: false,
    validation: {
      openAPIV3Schema: {
        properties: {
          port: { anyOf: [{ type: 'integer' }, { type: 'string' }] },
          note: { description: 'anything' },
          size: { enum: ['S', 'M'] },
          tags: { items: { type: 'string' } },
          ratio: { default: 0.5 },
        },
      },
    },
  });
  const m = migrateToV1(doc)!;
  const p = (m.crd.spec as any).versions[0].schema.openAPIV3Schema.properties;
  assert.equal(p.port['x-kubernetes-int-or-string'], true);
  assert.equal(p.port.type, undefined);
  assert.deepEqual(p.note, { 'x-kubernetes-preserve-unknown-fields': true, description: 'anything' });
  assert.equal(p.size.type, 'string');
  assert.equal(p.tags.type, 'array');
  assert.equal(p.ratio.type, 'number');
  assert.deepEqual(errors(m.crd), []);
  assert.deepEqual(notes(doc, 'manual'), []);
});

test("a version without a schema gets one that accepts anything; what v1 still rejects is listed with the API server's message", () => {
  const bare = migrateToV1(widget({ validation: undefined }))!;
  assert.deepEqual((bare.crd.spec as any).versions[0].schema, { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } });
  assert.deepEqual(errors(bare.crd), []);
  const bad = widget({ preserveUnknownFields: false, validation: { openAPIV3Schema: { type: 'object', properties: { a: { type: 'string', anyOf: [{ type: 'string' }] } } } } });
  assert.deepEqual(notes(bad, 'manual'), ['spec.validation.openAPIV3Schema.properties[a].anyOf[0].type: Forbidden: must be empty to be structural']);
});

test('anything but a v1beta1 CRD is left alone', () => {
  assert.equal(migrateToV1({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' }), undefined);
  for (const x of [null, 'text', [], 42, { apiVersion: 'apiextensions.k8s.io/v1beta1', kind: 'CustomResourceDefinition', spec: 'x' }]) {
    assert.doesNotThrow(() => migrateToV1(x));
  }
});
