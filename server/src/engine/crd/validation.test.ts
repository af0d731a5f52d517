import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorMessage, type FieldError } from '../field';
import { validateCustomResourceDefinition, validateDeprecationWarning } from './validation';
import { goURLParse, goURLParseRequestURI } from '../json/gourl';
import { validFieldPath } from '../schema/cel/fieldpath';
import { crdObject } from '../../../../test/crd';

/** A valid single-version CRD; `mutate` edits a copy. */
function crd(mutate: (c: any) => void = () => {}): any {
  const c = crdObject({ specProperties: { size: { type: 'integer' } } });
  mutate(c);
  return c;
}

const errors = (errs: FieldError[]) => errs.filter((e) => (e.severity ?? 'error') === 'error');
const pairs = (errs: FieldError[]) =>
  errors(errs)
    .map((e) => `${e.type} ${e.field}`)
    .sort();

test('a valid CRD has no errors (singular and listKind defaulted)', () => {
  assert.deepEqual(pairs(validateCustomResourceDefinition(crd())), []);
});

test('malformed input is reported, never thrown', () => {
  for (const input of ['a string', 42, null, undefined, [], { spec: 'x' }, { spec: { versions: {} } }, { spec: { names: [] } }]) {
    const errs = validateCustomResourceDefinition(input);
    assert.ok(errs.length > 0, `no finding for ${JSON.stringify(input)}`);
  }
  const errs = validateCustomResourceDefinition('a string');
  assert.deepEqual(pairs(errs), ['FieldValueTypeInvalid ']);
});

test('wrongly typed fields are TypeInvalid at their path; the rest is still validated', () => {
  const errs = validateCustomResourceDefinition(
    crd((c) => {
      c.spec.names.kind = 7;
      c.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties = [];
      c.spec.scope = 'nope';
    }),
  );
  const p = pairs(errs);
  assert.ok(p.includes('FieldValueTypeInvalid spec.names.kind'), p.join('\n'));
  assert.ok(p.includes('FieldValueTypeInvalid spec.versions[0].schema.openAPIV3Schema.properties[spec].properties'), p.join('\n'));
  assert.ok(p.includes('FieldValueNotSupported spec.scope'), p.join('\n'));
  assert.ok(p.includes('FieldValueRequired spec.names.kind'), p.join('\n'));
});

test('random type mutations never throw', () => {
  const values: unknown[] = [null, 1, 1.5, 'x', '', true, false, [], {}, [1, 'a'], { a: 1 }, -1];
  let seed = 7;
  const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
  const paths = (o: any, pre: (string | number)[] = [], out: (string | number)[][] = []) => {
    if (o && typeof o === 'object')
      for (const k of Object.keys(o)) {
        const key = Array.isArray(o) ? Number(k) : k;
        out.push([...pre, key]);
        paths(o[k], [...pre, key], out);
      }
    return out;
  };
  const all = paths(crd());
  for (let i = 0; i < 300; i++) {
    const c = crd();
    const p = all[rnd(all.length)];
    let o = c;
    for (const k of p.slice(0, -1)) o = o[k];
    o[p[p.length - 1]] = values[rnd(values.length)];
    assert.doesNotThrow(() => validateCustomResourceDefinition(c), `mutation at ${p.join('.')}`);
  }
});

test('identical per-version schemas are reported at spec.validation, differing ones per version', () => {
  const same = crd((c) => {
    c.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.size.type = 'bogus';
    c.spec.versions.push({ ...structuredClone(c.spec.versions[0]), name: 'v2', storage: false });
  });
  assert.deepEqual(pairs(validateCustomResourceDefinition(same)), ['FieldValueNotSupported spec.validation.openAPIV3Schema.properties[spec].properties[size].type']);
  const differ = crd((c) => {
    const v2 = structuredClone(c.spec.versions[0]);
    v2.name = 'v2';
    v2.storage = false;
    v2.schema.openAPIV3Schema.properties.spec.properties.size.type = 'bogus';
    c.spec.versions.push(v2);
  });
  assert.deepEqual(pairs(validateCustomResourceDefinition(differ)), ['FieldValueNotSupported spec.versions[1].schema.openAPIV3Schema.properties[spec].properties[size].type']);
});

test('names: metadata.name must be <plural>.<group>; kind errors cascade to defaulted names', () => {
  const errs = validateCustomResourceDefinition(crd((c) => (c.spec.names.kind = 'Bad_Kind')));
  assert.deepEqual(pairs(errs), ['FieldValueInvalid spec.names.kind', 'FieldValueInvalid spec.names.listKind', 'FieldValueInvalid spec.names.singular']);
  const name = validateCustomResourceDefinition(crd((c) => (c.metadata.name = 'widgets.other.com')));
  assert.equal(errorMessage(errors(name)[0]), 'metadata.name: Invalid value: "widgets.other.com": must be spec.names.plural+"."+spec.group');
});

test('versions: storage count, stored versions and the internal spec.version copy', () => {
  const errs = validateCustomResourceDefinition(crd((c) => (c.spec.versions[0].storage = false)));
  assert.deepEqual(pairs(errs), ['FieldValueInvalid spec.versions', 'FieldValueInvalid status.storedVersions']);
  const upper = validateCustomResourceDefinition(crd((c) => (c.spec.versions[0].name = 'V1')));
  assert.deepEqual(pairs(upper), ['FieldValueInvalid spec.version', 'FieldValueInvalid spec.versions[0].name']);
});

test('deprecationWarning: non-printable characters are reported at their byte index', () => {
  const errs = validateCustomResourceDefinition(
    crd((c) => {
      c.spec.versions[0].deprecated = true;
      c.spec.versions[0].deprecationWarning = 'é\tx';
    }),
  );
  assert.match(errorMessage(errors(errs)[0]), /non-printable character found at index 2$/);
});

test('conversion webhook: url rules, service path segments, review versions', () => {
  const url = (u: string) => validateCustomResourceDefinition(crd((c) => (c.spec.conversion = { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: u } } })));
  assert.deepEqual(pairs(url('https://example.com/convert')), []);
  assert.match(errorMessage(errors(url('http://example.com'))[0]), /'https' is the only allowed URL scheme/);
  assert.match(errorMessage(errors(url('https://u:p@example.com'))[0]), /user information is not permitted/);
  assert.equal(errors(url('https://example.com/?a=b#f')).length, 2);
  const svc = validateCustomResourceDefinition(
    crd((c) => (c.spec.conversion = { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v2', 'v2'], clientConfig: { service: { name: 's', namespace: 'n', path: '/a//B' } } } })),
  );
  assert.deepEqual(pairs(svc), [
    'FieldValueInvalid spec.conversion.conversionReviewVersions',
    'FieldValueInvalid spec.conversion.conversionReviewVersions[1]',
    'FieldValueInvalid spec.conversion.webhookClientConfig.service.path',
    'FieldValueInvalid spec.conversion.webhookClientConfig.service.path',
  ]);
});

test('conversion webhook service: name and namespace are swapped as the API server swaps them', () => {
  const svc = (service: object) => pairs(validateCustomResourceDefinition(crd((c) => (c.spec.conversion = { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { service } } }))));
  // validation.go calls ValidateWebhookService(path, Name, Namespace, ...) against a (namespace, name, ...) signature.
  assert.deepEqual(svc({ namespace: 'n' }), ['FieldValueRequired spec.conversion.webhookClientConfig.service.namespace']);
  assert.deepEqual(svc({ name: 's' }), ['FieldValueRequired spec.conversion.webhookClientConfig.service.name']);
});

test('selectableFields resolve against the schema; metadata and non-scalars are rejected', () => {
  const errs = validateCustomResourceDefinition(crd((c) => (c.spec.versions[0].selectableFields = [{ jsonPath: '.spec.size' }, { jsonPath: '.spec' }, { jsonPath: '.spec.nope' }, { jsonPath: '.spec.size' }])));
  assert.deepEqual(pairs(errs), ['FieldValueDuplicate spec.selectableFields[3].jsonPath', 'FieldValueInvalid spec.selectableFields[1].jsonPath', 'FieldValueInvalid spec.selectableFields[2].jsonPath']);
});

test('protected groups need the API approval annotation', () => {
  const mk = (annotation?: string) =>
    crd((c) => {
      c.spec.group = 'x.k8s.io';
      c.metadata.name = 'widgets.x.k8s.io';
      if (annotation !== undefined) c.metadata.annotations = { 'api-approved.kubernetes.io': annotation };
    });
  assert.deepEqual(pairs(validateCustomResourceDefinition(mk())), ['FieldValueRequired metadata.annotations[api-approved.kubernetes.io]']);
  assert.deepEqual(pairs(validateCustomResourceDefinition(mk('https://github.com/kubernetes/enhancements/pull/1111'))), []);
  assert.deepEqual(pairs(validateCustomResourceDefinition(mk('unapproved, experimental'))), []);
  assert.deepEqual(pairs(validateCustomResourceDefinition(mk('yes'))), ['FieldValueInvalid metadata.annotations[api-approved.kubernetes.io]']);
});

test('create warnings: unrecognized formats and set lists of objects', () => {
  const errs = validateCustomResourceDefinition(
    crd((c) => {
      const p = c.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties;
      p.name = { type: 'string', format: 'k8s-short-name' };
      p.when = { type: 'string', format: 'whenever' };
      p.tags = { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object', 'x-kubernetes-map-type': 'atomic' } };
    }),
  );
  assert.deepEqual(errors(errs), []);
  const warnings = errs.filter((e) => e.severity === 'warning').map((e) => e.detail);
  assert.deepEqual(warnings.sort(), ['unrecognized format "whenever"', 'x-kubernetes-list-type: set for items of type "object" is not supported by server-side apply or CEL validation rules']);
});

test('Go url.Parse edge cases', () => {
  assert.equal(goURLParse('https://host:x/').error, 'parse "https://host:x/": invalid port ":x" after host');
  assert.equal(goURLParse('https:://x/').url?.host, '');
  assert.equal(goURLParse('//host/p').url?.host, 'host');
  assert.equal(goURLParse('a:b').url?.opaque, 'b');
  assert.ok(goURLParse(':foo').error);
  assert.ok(goURLParseRequestURI('relative/path').error);
  assert.equal(goURLParseRequestURI('https://x.io/a#b').url?.path, '/a#b');
});

test('validFieldPath: fields, map keys and array notation', () => {
  const schema = { type: 'object', properties: { m: { type: 'object', additionalProperties: { type: 'string' } }, 'a.b': { type: 'string' } } };
  assert.equal(validFieldPath(".m['k.x']", schema).path?.toString(), 'm[k.x]');
  assert.equal(validFieldPath(".m['k']", schema, false).error, 'array notation is not allowed');
  assert.equal(validFieldPath("['a.b']", schema).schema?.type, 'string');
  assert.equal(validFieldPath('.x', schema).error, 'does not refer to a valid field');
  assert.equal(validFieldPath('m', schema).error, 'expected [ or . but got: m');
});

test('validateDeprecationWarning (Go Test_validateDeprecationWarning)', () => {
  const idx12 = ['must only contain printable UTF-8 characters; non-printable character found at index 12'];
  assert.deepEqual(validateDeprecationWarning(false, undefined), []);
  assert.deepEqual(validateDeprecationWarning(false, ''), ['can only be set for deprecated versions']);
  assert.deepEqual(validateDeprecationWarning(false, 'foo'), ['can only be set for deprecated versions']);
  assert.deepEqual(validateDeprecationWarning(true, 'Iñtërnâtiônàlizætiøn,💝🐹🌇⛔'), []);
  assert.deepEqual(validateDeprecationWarning(true, 'x'.repeat(256)), []);
  assert.deepEqual(validateDeprecationWarning(true, 'x'.repeat(257)), ['must be <= 256 characters long']);
  assert.deepEqual(validateDeprecationWarning(true, ''), ['must not be an empty string']);
  assert.deepEqual(validateDeprecationWarning(true, 'Test message\nfoo'), idx12);
  assert.deepEqual(validateDeprecationWarning(true, 'Test message\u0008'), idx12);
  assert.deepEqual(validateDeprecationWarning(true, 'Test message\u0000'), idx12);
  assert.deepEqual(validateDeprecationWarning(true, 'Test message\ud800'), []);
});

test('unknown fields are warnings with the server text, and do not change the errors', () => {
  const errs = validateCustomResourceDefinition(crd((c) => (c.spec.versions[0].schema.openAPIV3Schema.properties.spec.typo = 'x')));
  assert.deepEqual(pairs(errs), []);
  const w = errs.filter((e) => e.severity === 'warning');
  assert.equal(w.length, 1);
  assert.equal(errorMessage(w[0]), 'spec.versions[0].schema.openAPIV3Schema.properties[spec].typo: Not found: unknown field "spec.versions[0].schema.openAPIV3Schema.properties.spec.typo"');
  assert.equal(w[0].provenance?.crd, 'widgets.example.com');
});

test('identical selectableFields are hoisted even when schemas differ (then Go asks for a top-level schema)', () => {
  const errs = validateCustomResourceDefinition(
    crd((c) => {
      c.spec.versions[0].selectableFields = [{ jsonPath: '.spec.size' }];
      const v2 = structuredClone(c.spec.versions[0]);
      v2.name = 'v2';
      v2.storage = false;
      v2.schema.openAPIV3Schema.properties.spec.properties.extra = { type: 'string' };
      c.spec.versions.push(v2);
    }),
  );
  assert.deepEqual(pairs(errs), ['FieldValueInvalid spec.selectableFields']);
  assert.match(errorMessage(errors(errs)[0]), /may only be set when validations.schema is included/);
});

test('property names like __proto__ and constructor are ordinary properties', () => {
  const c = crd();
  c.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties = JSON.parse('{"__proto__": {"type": "bogus"}, "constructor": {"type": "string"}}');
  assert.deepEqual(pairs(validateCustomResourceDefinition(c)), ['FieldValueNotSupported spec.validation.openAPIV3Schema.properties[spec].properties[__proto__].type']);
});

test('rule metadata errors are reported once (not again by the CEL compilation)', () => {
  const errs = validateCustomResourceDefinition(
    crd((c) => {
      c.spec.versions[0].schema.openAPIV3Schema['x-kubernetes-validations'] = [
        { rule: 'true', message: '  ', reason: 'Bogus', fieldPath: '.nope' },
        { rule: 'has(self.spec) &&\ntrue', messageExpression: ' ' },
      ];
    }),
  );
  assert.deepEqual(
    errors(errs).map((e) => `${e.type} ${e.field}`),
    [
      'FieldValueInvalid spec.validation.openAPIV3Schema.x-kubernetes-validations[0].message',
      'FieldValueNotSupported spec.validation.openAPIV3Schema.x-kubernetes-validations[0].reason',
      'FieldValueInvalid spec.validation.openAPIV3Schema.x-kubernetes-validations[0].fieldPath',
      'FieldValueRequired spec.validation.openAPIV3Schema.x-kubernetes-validations[1].message',
      'FieldValueRequired spec.validation.openAPIV3Schema.x-kubernetes-validations[1].messageExpression',
    ],
  );
});

test('only apiextensions.k8s.io/v1 is served', () => {
  const errs = validateCustomResourceDefinition(crd((c) => (c.apiVersion = 'apiextensions.k8s.io/v1beta1')));
  assert.deepEqual(pairs(errs), ['FieldValueInvalid apiVersion']);
  assert.match(errorMessage(errors(errs)[0]), /no longer served since Kubernetes 1\.22/);
  assert.deepEqual(pairs(validateCustomResourceDefinition(crd((c) => delete c.apiVersion))), []);
});

test('defaults of embedded resources need apiVersion and kind (objectmeta.Validate)', () => {
  const errs = validateCustomResourceDefinition(
    crd((c) => {
      c.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.template = {
        type: 'object',
        'x-kubernetes-embedded-resource': true,
        'x-kubernetes-preserve-unknown-fields': true,
        default: { kind: 'Pod' },
      };
    }),
  );
  assert.deepEqual(pairs(errs), ['FieldValueRequired spec.validation.openAPIV3Schema.properties[spec].properties[template].default.apiVersion']);
});

test('length wording: util/validation says characters, label keys (content package) say bytes', () => {
  const long = 'a'.repeat(64);
  const plural = validateCustomResourceDefinition(
    crd((c) => {
      c.spec.names.plural = long;
      c.metadata.name = `${long}.example.com`;
    }),
  );
  assert.ok(errors(plural).some((e) => e.field === 'spec.names.plural' && e.detail === 'must be no more than 63 characters'));
  const label = validateCustomResourceDefinition(crd((c) => (c.metadata.labels = { [long]: 'x' })));
  assert.deepEqual(
    errors(label).map((e) => e.detail),
    ['name part must be no more than 63 bytes'],
  );
});

test('metadata: a wrongly typed label does not hide the name; ownerReferences are validated', () => {
  const typed = validateCustomResourceDefinition(crd((c) => (c.metadata.labels = { a: 1 })));
  assert.deepEqual(pairs(typed), ['FieldValueTypeInvalid metadata.labels[a]']);
  const owners = validateCustomResourceDefinition(crd((c) => (c.metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'x' }])));
  assert.deepEqual(pairs(owners), ['FieldValueRequired metadata.ownerReferences[0].uid']);
});

test('CEL on defaults does not ratchet: a failing child rule is reported beside a compile error of its parent', () => {
  const errs = validateCustomResourceDefinition(
    crd((c) => {
      c.spec.versions[0].schema.openAPIV3Schema.properties.spec = {
        type: 'object',
        properties: { port: { type: 'object', properties: { kind: { type: 'string' } }, 'x-kubernetes-validations': [{ rule: 'has(self.kind)' }] } },
        default: { port: {} },
        'x-kubernetes-validations': [{ rule: 'has(self.nope)' }],
      };
    }),
  );
  assert.deepEqual(pairs(errs), ['FieldValueInvalid spec.validation.openAPIV3Schema.properties[spec].default', 'FieldValueInvalid spec.validation.openAPIV3Schema.properties[spec].default.port']);
});
