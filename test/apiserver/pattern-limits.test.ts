/**
 * Go's regexp limits on a CRD `pattern`, as a real kube-apiserver words them, next to the engine's
 * findings on the same CRD: repeat counts over 1000, nested repeats over 1000, nesting depth.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorMessage } from '../../server/src/engine/field';
import { validateCustomResourceDefinition } from '../../server/src/engine/crd/validation';
import { skipWithoutKapi, startApiServer } from './kapi';

const PATTERNS = ['a{1001}', '(a{100}){100}', 'x{2,1001}', '('.repeat(1001) + 'a' + ')'.repeat(1001)];

function crd(name: string, pattern: string) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${name}s.example.com` },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: `${name}s`, singular: name, kind: name[0].toUpperCase() + name.slice(1), listKind: `${name[0].toUpperCase() + name.slice(1)}List` },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { v: { type: 'string', pattern } } } } } },
        },
      ],
    },
  };
}

test("Go regexp limits in a CRD pattern: the engine's messages are the API server's", { skip: skipWithoutKapi() }, async () => {
  const s = await startApiServer();
  try {
    for (const [i, p] of PATTERNS.entries()) {
      const obj = crd(`w${i}`, p);
      const r = await s.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions?dryRun=All', obj);
      assert.equal(r.status, 422, JSON.stringify(r.body).slice(0, 300));
      const server = (r.body.details.causes as { field: string; message: string }[]).map((c) => `${c.field}: ${c.message}`).sort();
      const ours = validateCustomResourceDefinition(structuredClone(obj))
        .filter((e) => (e.severity ?? 'error') === 'error')
        .map(errorMessage)
        .sort();
      assert.deepEqual(ours, server, p.slice(0, 30));
      assert.match(server[0], /must be a valid regular expression, but isn't: error parsing regexp: /);
    }
    // 2 M instructions: over re2js' limit (1.4 M) and the engine's compile bound, under Go's (3.36 M): the
    // API server accepts it, and the engine reports no error either (its CRs' values say "not checked").
    const big = crd('big', '[a-z]{1000}'.repeat(2000));
    const r = await s.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions?dryRun=All', big);
    assert.equal(r.status, 201, JSON.stringify(r.body).slice(0, 300));
    assert.deepEqual(
      validateCustomResourceDefinition(structuredClone(big)).filter((e) => (e.severity ?? 'error') === 'error'),
      [],
    );
  } finally {
    s.stop();
  }
});
