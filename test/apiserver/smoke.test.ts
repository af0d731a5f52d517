/**
 * The API server tier's own check: a real kube-apiserver starts, accepts a CRD, and answers a strict
 * dry-run of a custom resource with an unknown field as kubectl apply would see it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { skipWithoutKapi, startApiServer } from './kapi';

test('a real kube-apiserver rejects an unknown field under fieldValidation=Strict', { skip: skipWithoutKapi() }, async () => {
  const s = await startApiServer();
  try {
    await s.createCrds([
      {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: 'widgets.example.com' },
        spec: {
          group: 'example.com',
          scope: 'Namespaced',
          names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
          versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }],
        },
      },
    ]);
    const body = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 1, colour: 'red' } };
    const strict = await s.request('POST', '/apis/example.com/v1/namespaces/default/widgets?dryRun=All&fieldValidation=Strict', body);
    assert.equal(strict.status, 400, JSON.stringify(strict.body));
    assert.match(strict.body.message, /strict decoding error: unknown field "spec.colour"/);
    const warn = await s.request('POST', '/apis/example.com/v1/namespaces/default/widgets?dryRun=All&fieldValidation=Warn', body);
    assert.equal(warn.status, 201, JSON.stringify(warn.body));
  } finally {
    s.stop();
  }
});
