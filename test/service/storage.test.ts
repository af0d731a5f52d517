/**
 * Versions in the editor: the loss warning of a CRD whose versions convert with strategy None but have
 * different schemas, the preview of a CR as stored (storage version, pruned and defaulted) and as read back
 * at each served version, and the "Upgrade to apiextensions.k8s.io/v1" fix of a v1beta1 CRD.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { LanguageService } from '../../server/src/service/languageService';
import { renderPreview } from '../../server/src/service/preview';
import { applyEdits, checkFindings, docOf, serviceWithCrd } from './helpers';

const CRONTAB = (conversion = '') => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: crontabs, kind: CronTab}
${conversion}  versions:
  - name: v1beta1
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              cronSpec: {type: string}
              image: {type: string}
              replicas: {type: integer}
              tags:
                type: array
                items:
                  type: object
                  properties:
                    name: {type: string}
                    colour: {type: string}
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              schedule: {type: string}
              image: {type: string, default: busybox}
              replicas: {type: integer}
              tags:
                type: array
                items:
                  type: object
                  properties:
                    name: {type: string}
`;

const CR = `apiVersion: stable.example.com/v1beta1
kind: CronTab
metadata:
  name: nightly
spec:
  cronSpec: "0 3 * * *"
  replicas: 2
  tags:
  - name: a
    colour: red
`;

const NONE = '  conversion:\n    strategy: None\n';

test('conversion None with different schemas: the loss warning names the fields, at the version that loses them', () => {
  const found = checkFindings(new LanguageService(), CRONTAB(NONE), [
    { text: 'v1beta1', code: 'VersionFieldLoss', severity: 'warning', message: 'objects written as v1beta1 lose spec.cronSpec, spec.tags[*].colour when stored as v1' },
    { text: 'v1beta1', code: 'VersionFieldLoss', severity: 'warning', message: 'objects read as v1beta1 lose spec.schedule (stored as v1)' },
  ]);
  assert.equal(found[0].related?.[0].message, 'v1 is the storage version');
  // Without spec.conversion (None by default, but often given a webhook when deployed): information.
  checkFindings(new LanguageService(), CRONTAB(), [
    { text: 'v1beta1', code: 'VersionFieldLoss', severity: 'information', message: 'unless a conversion webhook is added when it is deployed' },
    { text: 'v1beta1', code: 'VersionFieldLoss', severity: 'information', message: 'objects read as v1beta1 lose spec.schedule' },
  ]);
  // The same versions through a webhook, or with the same schema, lose nothing.
  checkFindings(new LanguageService(), CRONTAB('  conversion:\n    strategy: Webhook\n    webhook:\n      conversionReviewVersions: [v1]\n      clientConfig: {url: "https://conv.example.com/convert"}\n'), []);
});

test('the preview shows the object as stored: the storage version, without the fields it lacks, defaulted by its schema', () => {
  const s = serviceWithCrd({}, CRONTAB());
  const { td } = docOf(CR);
  s.update(td);
  const p = s.preview(td, { line: 0, character: 0 })!;
  assert.equal(p.version, 'v1beta1');
  assert.deepEqual(
    p.storage?.lost.map((x) => x.path),
    ['spec.cronSpec', 'spec.tags[0].colour'],
  );
  const text = renderPreview(p);
  assert.match(text, /^# stored as stable\.example\.com\/v1, the storage version \(conversion None: only apiVersion changes\)$/m);
  assert.match(text, /^# lost when stored: spec\.cronSpec \(not in v1's schema\)$/m);
  assert.match(text, /^# defaulted when read from storage: spec\.image = "busybox"$/m);
  const [shown] = parseAllDocuments(text).map((d) => d.toJSON());
  assert.deepEqual(shown, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'nightly' }, spec: { replicas: 2, tags: [{ name: 'a' }], image: 'busybox' } });
  // A CR written in the storage version has no separate storage view.
  const { td: v1 } = docOf(CR.replace('stable.example.com/v1beta1', 'stable.example.com/v1').replace('cronSpec', 'schedule').replace('    colour: red\n', ''));
  s.update(v1);
  assert.equal(s.preview(v1, { line: 0, character: 0 })!.storage, undefined);
});

test('on request, the preview shows the stored object as read back at each served version', () => {
  const s = serviceWithCrd({}, CRONTAB());
  const { td } = docOf(CR);
  s.update(td);
  const p = s.preview(td, { line: 0, character: 0 }, { readBack: true })!;
  const docs = parseAllDocuments(renderPreview(p)).map((d) => d.toJSON());
  assert.equal(docs.length, 3);
  // Read as v1beta1, the stored object keeps everything (v1beta1 declares image, replicas and tags).
  assert.deepEqual(
    p.readBack?.map((r) => [r.version, r.lost.map((x) => x.path)]),
    [
      ['v1beta1', []],
      ['v1', []],
    ],
  );
  assert.deepEqual(docs[1], { apiVersion: 'stable.example.com/v1beta1', kind: 'CronTab', metadata: { name: 'nightly' }, spec: { replicas: 2, tags: [{ name: 'a' }], image: 'busybox' } });
  assert.deepEqual(docs[2], docs[0]);
  // Written as v1: its schedule is stored, and lost to a client reading v1beta1.
  const { td: v1 } = docOf('apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: n}\nspec: {schedule: "@daily"}\n');
  s.update(v1);
  const back = s.preview(v1, { line: 0, character: 0 }, { readBack: true })!;
  assert.deepEqual(
    back.readBack?.map((r) => [r.version, r.lost.map((x) => x.path)]),
    [
      ['v1beta1', ['spec.schedule']],
      ['v1', []],
    ],
  );
  assert.match(renderPreview(back), /^---\n# read back as v1beta1\n# lost when read: spec\.schedule \(not in v1beta1's schema\)$/m);
});

test("a webhook-converted CRD: the preview says the stored object is the webhook's to make", () => {
  const s = serviceWithCrd({}, CRONTAB('  conversion:\n    strategy: Webhook\n    webhook:\n      conversionReviewVersions: [v1]\n      clientConfig: {url: "https://conv.example.com/convert"}\n'));
  const { td } = docOf(CR);
  s.update(td);
  const text = renderPreview(s.preview(td, { line: 0, character: 0 })!);
  assert.match(text, /^# stored as stable\.example\.com\/v1, the storage version: converted to the storage version by the conversion webhook: not computed here/m);
  assert.equal(parseAllDocuments(text)[0].toJSON().apiVersion, 'stable.example.com/v1beta1');
});

test('"Upgrade to apiextensions.k8s.io/v1" on a v1beta1 CRD: the whole CRD migrated, comments kept, what changed in notes', () => {
  const v1beta1 = readFileSync(join(__dirname, '..', 'fixtures', 'v1beta1', 'crontab-validation.yaml'), 'utf8');
  const s = new LanguageService();
  const found = checkFindings(s, v1beta1, [{ text: 'apiextensions.k8s.io/v1beta1', code: 'NoKindMatch', severity: 'error', message: 'quick fix: upgrade to apiextensions.k8s.io/v1' }]);
  const { td } = docOf(v1beta1);
  s.update(td);
  const fixes = s.fixesOf(td, found[0]);
  assert.deepEqual(
    fixes.map((f) => f.title),
    ['Upgrade to apiextensions.k8s.io/v1'],
  );
  const text = applyEdits(td, fixes[0].edits);
  assert.match(text, /# What a CronTab may hold\.\n {4}schema:/);
  assert.match(text, /minimum: 1 # at least one/);
  assert.ok(
    fixes[0].notes?.some((n) => n.startsWith('spec.versions[0].schema.openAPIV3Schema.properties[spec]: type: object added')),
    fixes[0].notes?.join('\n'),
  );
  checkFindings(new LanguageService(), text, []);
});
