/**
 * engine/builtin/validation against the real kube-apiserver's recorded answers (expected.json, written
 * and re-checked by test/apiserver/builtin-validation.test.ts): every manifest gives exactly the server's
 * causes, field for field, without a server.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { handwrittenErrors, HANDWRITTEN_KINDS } from '../../server/src/engine/builtin/validation';
import { parseStandardError } from '../../server/src/engine/builtin/validation/cronjob';
import { EXPECTED, asCauses, loadCases, type Answer } from '../fixtures/builtin-validation/cases';

const cases = loadCases();
const expected: Answer[] = JSON.parse(readFileSync(EXPECTED, 'utf8'));

test('the recorded answers are for these manifests', () => {
  assert.equal(expected.length, cases.length);
  cases.forEach((c, i) => assert.equal(expected[i].note, c.note));
  assert.ok(cases.length >= 60);
});

for (const [i, c] of cases.entries()) {
  test(`${c.note}: the API server's causes`, () => {
    const o = c.object as { apiVersion: string; kind: string };
    assert.ok(HANDWRITTEN_KINDS.includes(`${o.apiVersion}/${o.kind}`), `${o.apiVersion}/${o.kind} is judged`);
    assert.deepEqual(asCauses(handwrittenErrors(o.apiVersion, o.kind, c.object)), expected[i].causes);
  });
}

test('a status 201 has no causes and every 422 has some', () => {
  for (const a of expected) assert.equal(a.status === 201, a.causes.length === 0, a.note);
});

/** Every value below `v`, replaced in turn by `by`: the shapes schema validation would reject. */
function* mutations(v: unknown, by: unknown): Generator<unknown> {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      yield v.map((x, j) => (j === i ? by : x));
      for (const m of mutations(v[i], by)) yield v.map((x, j) => (j === i ? m : x));
    }
  } else if (v && typeof v === 'object') {
    for (const k of Object.keys(v)) {
      yield { ...v, [k]: by };
      for (const m of mutations((v as Record<string, unknown>)[k], by)) yield { ...v, [k]: m };
    }
  }
}

test('mistyped fields are read as Go zero values, never thrown on', () => {
  let n = 0;
  for (const c of cases.slice(0, 40)) {
    const o = c.object as { apiVersion: string; kind: string };
    for (const by of [null, 7, 'x', [], {}, true]) {
      for (const m of mutations(c.object, by)) {
        if (++n > 20000) break;
        const errs = handwrittenErrors(o.apiVersion, o.kind, m as Record<string, unknown>);
        assert.ok(Array.isArray(errs));
      }
    }
  }
  assert.ok(n > 1000, `${n} mutations`);
});

test('kinds and versions not judged give nothing', () => {
  assert.deepEqual(handwrittenErrors('apps/v1beta1', 'Deployment', { metadata: { name: 'Bad_Name' } }), []);
  assert.deepEqual(handwrittenErrors('example.com/v1', 'Widget', { metadata: { name: 'Bad_Name' } }), []);
  assert.notDeepEqual(handwrittenErrors('apps/v1', 'Deployment', { metadata: { name: 'Bad_Name' } }), []);
});

// The Service and Ingress answers at 1.35 and 1.36 are a real kube-apiserver 1.37.2's with --emulated-version
// (dry-run); 1.31 cannot be emulated: its env var names are IsEnvVarName's, as k8s.io/kubernetes v1.31's
// ValidateEnv with the gate off (its default until 1.32, pkg/features/kube_features.go).
test("older --kubernetes-version targets: the handwritten checks follow that release's feature gates", () => {
  const causes = (o: Record<string, unknown>, minor: number) => asCauses(handwrittenErrors(o.apiVersion as string, o.kind as string, o, minor)).map((c) => `${c.field}: ${c.message}`);
  // RelaxedServiceNameValidation (on since 1.36): before, a Service's name (and an Ingress backend's) is a DNS-1035 label.
  const service = { apiVersion: 'v1', kind: 'Service', metadata: { name: '1web' }, spec: { ports: [{ port: 80 }] } };
  assert.deepEqual(causes(service, 37), []);
  assert.deepEqual(causes(service, 36), []);
  assert.deepEqual(causes(service, 35), [
    "metadata.name: Invalid value: \"1web\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
  ]);
  const ingress = { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'web' }, spec: { defaultBackend: { service: { name: '1web', port: { number: 80 } } } } };
  assert.deepEqual(causes(ingress, 36), []);
  assert.deepEqual(
    causes(ingress, 35).map((c) => c.slice(0, c.indexOf(':', c.indexOf(':') + 1))),
    ['spec.defaultBackend.service.name: Invalid value'],
  );
  // RelaxedEnvironmentVariableValidation (on since 1.32): before, IsEnvVarName.
  const pod = (name: string) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p' },
    spec: { containers: [{ name: 'c', image: 'busybox', env: [{ name, value: 'x' }], envFrom: [{ prefix: name, configMapRef: { name: 'cm' } }] }] },
  });
  assert.deepEqual(causes(pod('1 VAR'), 32), []);
  assert.deepEqual(causes(pod('1 VAR'), 31), [
    "spec.containers[0].env[0].name: Invalid value: \"1 VAR\": a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')",
    "spec.containers[0].envFrom[0].prefix: Invalid value: \"1 VAR\": a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')",
  ]);
  assert.deepEqual(
    causes(pod('..X'), 30).map((c) => c.slice(c.lastIndexOf(': ') + 2)),
    ["must not start with '..'", "must not start with '..'"],
  );
  assert.deepEqual(causes(pod('..X'), 37), []);
});

// robfig/cron v3 ParseStandard: strings.Fields splits the spec (unicode.IsSpace, runs and ends ignored),
// strings.FieldsFunc each field on ',' (empty parts skipped), getRange each part.
test("a CronJob schedule is split as Go's strings.Fields splits it", () => {
  assert.equal(parseStandardError(' */5\t0 \u00a0* *\u0085* \n'), undefined);
  assert.equal(parseStandardError('0\v0 *\f*'), 'expected exactly 5 fields, found 4: [0 0 * *]');
  assert.equal(parseStandardError('*,,* * * * *'), undefined);
  assert.equal(parseStandardError('* * * * */0'), 'step of range should be a positive number: */0');
  assert.equal(parseStandardError('* * * * 7'), 'end of range (7) above maximum (6): 7');
  // Beyond Latin-1 too: unicode.IsSpace (U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000).
  assert.equal(parseStandardError('*\u2003*\u3000*\u1680*\u205f*'), undefined);
  assert.equal(parseStandardError('0\u2028\u2029\u202f0 * *'), 'expected exactly 5 fields, found 4: [0 0 * *]');
});

// ValidateStatefulSetSpec checks the template as the controller makes its Pods: without hostname and
// subdomain, with a volume for each volumeClaimTemplate.
test("a StatefulSet's template hostname and subdomain are not judged, a Deployment's are", () => {
  const template = {
    metadata: { labels: { app: 'a' } },
    spec: { hostname: 'Bad_Name', subdomain: 'Bad_Name', containers: [{ name: 'c', image: 'i', volumeMounts: [{ name: 'data', mountPath: '/d' }] }] },
  };
  const spec = { selector: { matchLabels: { app: 'a' } }, template };
  const fields = (kind: string, s: Record<string, unknown>) => handwrittenErrors('apps/v1', kind, { metadata: { name: 'x' }, spec: s }).map((e) => e.field);
  assert.deepEqual(fields('StatefulSet', { ...spec, volumeClaimTemplates: [{ metadata: { name: 'data' } }] }), []);
  assert.deepEqual(fields('StatefulSet', spec), ['spec.template.spec.containers[0].volumeMounts[0].name']);
  assert.deepEqual(fields('Deployment', spec), ['spec.template.spec.containers[0].volumeMounts[0].name', 'spec.template.spec.hostname', 'spec.template.spec.subdomain']);
  assert.equal(template.spec.hostname, 'Bad_Name', 'the object is not changed');
});

// validateVolumeSource and validateHandler ask the union's members in their own order: the first set is
// used, each later one is forbidden, whatever order the file writes them in.
test('a volume or handler with several members set: the first in Go order is used, the others forbidden', () => {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p' },
    spec: {
      volumes: [{ name: 'v', secret: {}, emptyDir: {}, configMap: {} }],
      containers: [{ name: 'c', image: 'i', readinessProbe: { tcpSocket: { port: 80 }, exec: { command: ['true'] } } }],
    },
  };
  assert.deepEqual(
    handwrittenErrors('v1', 'Pod', pod).map((e) => `${e.type} ${e.field}`),
    ['FieldValueForbidden spec.volumes[0].secret', 'FieldValueForbidden spec.volumes[0].configMap', 'FieldValueForbidden spec.containers[0].readinessProbe.tcpSocket'],
  );
});
