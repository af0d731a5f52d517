/**
 * The migration's v1beta1 -> v1 conversion (engine/crd/v1beta1.ts) against the API server's own: for
 * each v1beta1 CRD, the Go oracle's v1 object of the original and of the engine's v1 document must be
 * equal (both go through Go's decoding, defaulting and conversion, so shared defaults the engine leaves
 * unwritten compare equal). Skipped without Go, like the rest of the oracle tier.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { goAvailable, ensureOracleBinary, runOracleOnLines } from './oracle';
import { defaultSharedDir } from '../conformance/runner';
import { applyEdits } from '../../server/src/engine/crd/edits';
import { convertV1beta1ToV1 } from '../../server/src/engine/crd/v1beta1';

const SKIP = goAvailable() ? false : 'the oracle tier did not run: `go` is not on PATH';
const FIXTURES = join(__dirname, '..', 'fixtures', 'v1beta1');

const base = () => ({
  apiVersion: 'apiextensions.k8s.io/v1beta1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: { group: 'example.com', names: { plural: 'widgets', kind: 'Widget' } } as Record<string, unknown>,
});
const schema = { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer', default: null } } } } };

/** Shapes the conversion treats differently, beside the documentation's CronTabs. */
function variants(): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const v = (spec: Record<string, unknown>) => {
    const c = base();
    Object.assign(c.spec, spec);
    out.push(c);
  };
  // Several versions share the top-level schema, columns, subresources and selectable fields.
  v({
    versions: [
      { name: 'v1', served: true, storage: true },
      { name: 'v1alpha1', served: true, storage: false, additionalPrinterColumns: [{ name: 'Own', type: 'string', JSONPath: '.spec.x' }] },
    ],
    validation: { openAPIV3Schema: schema },
    subresources: { status: {} },
    additionalPrinterColumns: [{ name: 'Size', type: 'integer', JSONPath: '.spec.size', priority: 1 }],
    selectableFields: [{ jsonPath: '.spec.size' }],
    preserveUnknownFields: false,
  });
  // `version` beside `versions`; explicit preserveUnknownFields: true; no scope.
  v({ version: 'v2', versions: [{ name: 'v2', served: true, storage: true, schema: { openAPIV3Schema: schema } }], preserveUnknownFields: true });
  // Webhook with a URL and both review versions; a None strategy with review versions.
  v({
    version: 'v1',
    scope: 'Cluster',
    conversion: { strategy: 'Webhook', webhookClientConfig: { url: 'https://conv.example.com/convert' }, conversionReviewVersions: ['v1', 'v1beta1'] },
  });
  v({ version: 'v1', conversion: { strategy: 'None', conversionReviewVersions: ['v1'] } });
  v({ version: 'v1', conversion: { strategy: 'Webhook', webhookClientConfig: { service: { namespace: 'ns', name: 'svc', port: 8443 } }, conversionReviewVersions: [] } });
  // Per-version schemas with `example: null` and an empty top-level columns list.
  v({
    versions: [
      { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { ...schema, example: null } } },
      { name: 'v2', served: false, storage: false, schema: { openAPIV3Schema: { type: 'object' } } },
    ],
    additionalPrinterColumns: [],
  });
  return out;
}

test("the v1beta1 -> v1 conversion gives the API server's v1 object", { skip: SKIP, timeout: 15 * 60_000 }, () => {
  const bin = ensureOracleBinary();
  const docs: Record<string, unknown>[] = [
    ...readdirSync(FIXTURES)
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => parse(readFileSync(join(FIXTURES, f), 'utf8'))),
    ...variants(),
  ];
  const lines: string[] = [];
  docs.forEach((doc, i) => {
    const converted = applyEdits(doc, convertV1beta1ToV1(doc).edits);
    lines.push(JSON.stringify({ id: `original-${i}`, op: 'crd-v1', crd: doc }));
    lines.push(JSON.stringify({ id: `engine-${i}`, op: 'crd-v1', crd: converted }));
  });
  const answers = new Map(runOracleOnLines(lines, defaultSharedDir(), bin).map((a) => [a.id, a]));
  docs.forEach((doc, i) => {
    const original = answers.get(`original-${i}`)!;
    const engine = answers.get(`engine-${i}`)!;
    assert.equal(original.oracleError, undefined, original.oracleError);
    assert.equal(engine.oracleError, undefined, engine.oracleError);
    assert.deepEqual(engine.object, original.object, `case ${i}: ${JSON.stringify(doc)}`);
  });
});
