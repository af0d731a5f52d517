/**
 * The target Kubernetes version (engine/version.ts) against real API servers. New CEL rules compile in
 * the base environment filtered at the server's compatibility version (base.go): the engine is given the
 * version and compatibility version a server reports in /version, and must accept and reject the same
 * rules with the same errors.
 *
 * Three servers of the 1.37 binary: emulating 1.34 (`--emulated-version=1.34`), plain 1.37, and 1.37 with
 * `--min-compatibility-version=1.37`. Note what emulation does not reproduce: a 1.37 binary floors the
 * compatibility version at 1.34 (binary-3), so emulating 1.34 gives 1.34, where a real 1.34 server has
 * 1.33 (DefaultCompatibilityVersion = minor-1). The ext lists library (`distinct()`, introduced 1.34) is
 * thus accepted by the emulated 1.34 server and rejected by a real one (engine unit test in
 * engine/version.test.ts); the function checked on both sides of a version pair here is `includes()`
 * (Kubernetes lists library v1, introduced 1.37): rejected at compatibility 1.34 and 1.36, accepted at 1.37.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { skipWithoutKapi, startApiServer } from './kapi';
import { validateCustomResourceDefinition } from '../../server/src/engine/crd/validation';
import { errorMessage } from '../../server/src/engine/field';

function crd(name: string, rules: Record<string, string>) {
  const properties: Record<string, unknown> = {};
  for (const [field, rule] of Object.entries(rules)) {
    properties[field] = { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 20 }, 'x-kubernetes-validations': [{ rule }] };
  }
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${name}s.example.com` },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: `${name}s`, singular: name, kind: name[0].toUpperCase() + name.slice(1), listKind: `${name[0].toUpperCase() + name.slice(1)}List` },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties } } } } }],
    },
  };
}

const RULES: Record<string, string> = {
  distinct: 'self.distinct().size() == self.size()',
  semver: 'self.all(v, isSemver(v))',
  includes: 'self.includes("a")',
  cidr: 'self.all(v, isCIDR(v))',
};
const CRDS = Object.entries(RULES).map(([name, rule]) => crd(name, { tags: rule }));

type Cause = { type: string; field: string; message: string };
interface Answers {
  minor: number;
  compatibility: number;
  causes: Map<string, Cause[]>;
}

/** Starts a server with `flags`, reads its versions, and dry-run creates every CRD. */
async function answers(flags: string[]): Promise<Answers> {
  const s = await startApiServer({ flags });
  try {
    const v = (await s.request('GET', '/version')).body;
    const causes = new Map<string, Cause[]>();
    for (const [i, name] of Object.keys(RULES).entries()) {
      const r = await s.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions?dryRun=All', CRDS[i]);
      if (r.status === 201) causes.set(name, []);
      else {
        assert.equal(r.status, 422, JSON.stringify(r.body));
        causes.set(
          name,
          (r.body.details?.causes ?? []).map((c: { reason: string; field?: string; message: string }) => ({ type: c.reason, field: c.field ?? '', message: c.message })),
        );
      }
    }
    return { minor: Number(v.emulationMinor), compatibility: Number(v.minCompatibilityMinor), causes };
  } finally {
    s.stop();
  }
}

function assertEngineAgrees(a: Answers): void {
  for (const [i, name] of Object.keys(RULES).entries()) {
    const server = a.causes.get(name)!;
    const errs = validateCustomResourceDefinition(structuredClone(CRDS[i]), { kubernetesMinor: a.minor, compatibilityMinor: a.compatibility }).filter((e) => (e.severity ?? 'error') === 'error');
    const what = `${name} at 1.${a.minor} (compatibility 1.${a.compatibility}): server ${JSON.stringify(server)}; engine ${errs.map(errorMessage).join(' | ')}`;
    assert.deepEqual(errs.map((e) => `${e.type} ${e.field}`).sort(), server.map((c) => `${c.type} ${c.field}`).sort(), what);
    for (const c of server)
      assert.ok(
        errs.some((e) => e.field === c.field && errorMessage(e).includes(c.message)),
        what,
      );
  }
}

const rejected = (a: Answers) => [...a.causes].filter(([, c]) => c.length > 0).map(([n]) => n);

test('CEL functions by version: API servers at 1.34, 1.37 and 1.37 with compatibility 1.37 accept and reject the rules the engine does', { skip: skipWithoutKapi(), timeout: 15 * 60_000 }, async () => {
  const emulated = await answers(['--emulated-version=1.34']);
  assert.deepEqual([emulated.minor, emulated.compatibility], [34, 34]);
  assert.deepEqual(rejected(emulated), ['includes']);
  assert.match(emulated.causes.get('includes')![0].message, /undeclared reference to 'includes'/);
  assertEngineAgrees(emulated);

  const plain = await answers([]);
  assert.deepEqual([plain.minor, plain.compatibility], [37, 36]);
  assert.deepEqual(rejected(plain), ['includes']);
  assertEngineAgrees(plain);

  const newest = await answers(['--min-compatibility-version=1.37']);
  assert.deepEqual([newest.minor, newest.compatibility], [37, 37]);
  assert.deepEqual(rejected(newest), []);
  assertEngineAgrees(newest);
});
