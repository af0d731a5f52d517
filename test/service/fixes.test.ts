/**
 * Every quick fix of service/fixes/, applied: the finding it fixes is gone from the text it produces
 * (checkFixesRemove), and the text is what a person would write.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LanguageService } from '../../server/src/service/languageService';
import { FIXES } from '../../server/src/service/fixes';
import { applyEdits, checkFixesRemove, docOf, quickFixes, serviceWithCrd, WIDGET_CRD } from './helpers';
import { needsShared, sharedPath } from '../shared';

const HEAD = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n';
const REALWORLD = sharedPath('realworld');
const NO_SHARED = needsShared('realworld', 'crds', 'cert-manager');

/** The Widget CRD with more fields under spec (indented as its properties). */
function widgetWith(props: string, required = '[size]'): string {
  return WIDGET_CRD.replace('              required: [size]\n', `              required: ${required}\n`).replace('                enabled:\n', props + '                enabled:\n');
}

// ---- CRDs

test('fix: a missing type is added (inferred), and the NonStructural finding goes', () => {
  const [out] = checkFixesRemove(new LanguageService(), WIDGET_CRD.replace('            spec:\n              type: object\n', '            spec:\n'), 'FieldValueRequired');
  assert.equal(out, WIDGET_CRD);
});

test('fix: a v1beta1 CRD is upgraded to apiextensions.k8s.io/v1 (the whole document, comments kept)', () => {
  const crd = readFileSync(join(__dirname, '..', 'fixtures', 'v1beta1', 'crontab-printer-columns.yaml'), 'utf8');
  const [out] = checkFixesRemove(new LanguageService(), crd, 'NoKindMatch', { title: /^Upgrade to apiextensions\.k8s\.io\/v1$/ });
  assert.match(out, /^# A CronTab CRD with extra `kubectl get` columns/);
  assert.match(out, /^ {4}additionalPrinterColumns:\n {4}- name: Spec\n/m);
  assert.match(out, /^ {6}jsonPath: \.spec\.cronSpec$/m);
});

test('fix: the v1beta1 upgrade names the workspace objects whose verdict it changes, before it is applied, and offers to keep their fields', () => {
  // The Kubernetes documentation's v1beta1 CronTab CRD (no `image` in its schema; v1beta1 kept unknown
  // fields) and its example CronTab, open: after the upgrade, v1 prunes spec.image.
  const crd = readFileSync(join(__dirname, '..', 'fixtures', 'v1beta1', 'crontab-validation.yaml'), 'utf8');
  const cr = 'apiVersion: "stable.example.com/v1"\nkind: CronTab\nmetadata:\n  name: my-new-cron-object\nspec:\n  cronSpec: "* * * * */5"\n  image: my-awesome-cron-image\n  replicas: 3\n';
  const s = new LanguageService();
  const crdDoc = TextDocument.create('file:///ws/crontab-crd.yaml', 'yaml', 1, crd);
  const crDoc = TextDocument.create('file:///ws/my-crontab.yaml', 'yaml', 1, cr);
  s.update(crdDoc);
  s.update(crDoc);
  const open = [crdDoc, crDoc];
  s.setWorkspaceObjects((_group, kind) => open.filter((d) => d.getText().includes(`kind: ${kind}`)).map((d) => ({ uri: d.uri, text: d.getText() })));
  const f = s.findings(crdDoc).find((x) => x.code === 'NoKindMatch');
  assert.ok(f);
  // The finding (before any fix is applied) names the object, and links to the field it would lose.
  assert.match(f.message, /the upgrade changes what 1 CronTab object of the workspace gets: my-new-cron-object$/);
  const link = f.related?.find((r) => r.location.uri === crDoc.uri);
  assert.ok(link, JSON.stringify(f.related));
  assert.equal(link.message, 'after the upgrade, CronTab my-new-cron-object: unknown field "spec.image"');
  assert.equal(crDoc.getText(link.location.range), 'image');
  // The upgrade's preview (its notes, shown with the edit before it is applied) lists the CR first.
  const fixes = s.fixesOf(crdDoc, f);
  const upgrade = fixes.find((x) => /^Upgrade to apiextensions\.k8s\.io\/v1( \(|$)/.test(x.title));
  assert.ok(upgrade, fixes.map((x) => x.title).join('\n'));
  assert.equal(upgrade.notes?.[0], 'changes verdict: CronTab my-new-cron-object: unknown field "spec.image" (now: valid)');
  // Applied, the verdict does change as announced.
  const after = (text: string) => {
    const d = TextDocument.create(crdDoc.uri, 'yaml', 2, text);
    s.update(d);
    return s.findings(crDoc).map((x) => x.message);
  };
  assert.ok(after(applyEdits(crdDoc, upgrade.edits)).some((m) => m.startsWith('unknown field "spec.image"')));
  // The fix that keeps the field: x-kubernetes-preserve-unknown-fields on spec; the CronTab stays valid.
  s.update(crdDoc);
  const keep = s.fixesOf(crdDoc, s.findings(crdDoc).find((x) => x.code === 'NoKindMatch')!).find((x) => x.title.includes('keeping unknown fields'));
  assert.ok(keep, fixes.map((x) => x.title).join('\n'));
  assert.equal(keep.title, 'Upgrade to apiextensions.k8s.io/v1, keeping unknown fields in spec');
  const kept = applyEdits(crdDoc, keep.edits);
  assert.match(kept, /x-kubernetes-preserve-unknown-fields: true/);
  assert.deepEqual(after(kept), []);
});

test('fix: an embedded resource becomes type: object', () => {
  const crd = WIDGET_CRD.replace(
    '                enabled:\n                  type: boolean\n',
    '                enabled:\n                  type: string\n                  x-kubernetes-embedded-resource: true\n                  x-kubernetes-preserve-unknown-fields: true\n',
  );
  const [out] = checkFixesRemove(new LanguageService(), crd, 'FieldValueInvalid', { title: /^Set "type: object"$/ });
  assert.match(out, /enabled:\n {18}type: object\n {18}x-kubernetes-embedded-resource: true/);
});

test('fix: x-kubernetes-preserve-unknown-fields goes where x-kubernetes-int-or-string is set', () => {
  const crd = WIDGET_CRD.replace(
    '                enabled:\n                  type: boolean\n',
    '                enabled:\n                  x-kubernetes-int-or-string: true\n                  x-kubernetes-preserve-unknown-fields: true\n',
  );
  const [out] = checkFixesRemove(new LanguageService(), crd, 'FieldValueInvalid');
  assert.ok(out.includes('                enabled:\n                  x-kubernetes-int-or-string: true\n                tags:'), out);
});

test('fix: uniqueItems: true becomes x-kubernetes-list-type: set (or goes when a list type is there)', () => {
  const [a] = checkFixesRemove(new LanguageService(), WIDGET_CRD.replace('                  x-kubernetes-list-type: set\n', '                  uniqueItems: true\n'), 'FieldValueForbidden');
  assert.equal(a, WIDGET_CRD);
  const [b] = checkFixesRemove(
    new LanguageService(),
    WIDGET_CRD.replace('                  x-kubernetes-list-type: set\n', '                  x-kubernetes-list-type: set\n                  uniqueItems: true\n'),
    'FieldValueForbidden',
  );
  assert.equal(b, WIDGET_CRD);
});

test('fix: a keyword inside a junctor moves to the nearest node outside every junctor, never into an enclosing one', () => {
  // description of `a` inside anyOf, itself inside oneOf: the target is properties[mode].properties[a].
  const crd = widgetWith(
    [
      '                mode:',
      '                  type: object',
      '                  properties:',
      '                    a:',
      '                      type: string',
      '                  oneOf:',
      '                    - properties:',
      '                        a:',
      '                          anyOf:',
      '                            - description: the first form',
      '                              maxLength: 3',
      '                            - minLength: 5',
      '',
    ].join('\n'),
  );
  const [out] = checkFixesRemove(new LanguageService(), crd, 'FieldValueForbidden', { title: /^Move "description" out of the anyOf$/ });
  assert.ok(out.includes('                    a:\n                      description: the first form\n                      type: string\n'), out);
  assert.ok(out.includes('                            - maxLength: 3\n'), out);
  // Already there: removed (preferred); a flow or multi-line value cannot move: removed too.
  const twice = crd.replace('                    a:\n                      type: string\n', '                    a:\n                      type: string\n                      description: said\n');
  const fixes = quickFixes(new LanguageService(), twice);
  assert.ok(
    fixes.some((f) => f.title === 'Remove "description" from the anyOf (not allowed there)'),
    JSON.stringify(fixes.map((f) => f.title)),
  );
  checkFixesRemove(new LanguageService(), twice, 'FieldValueForbidden');
});

test('fix: a metadata schema restricting more than name/generateName goes', () => {
  const crd = WIDGET_CRD.replace(
    '          properties:\n            spec:\n',
    '          properties:\n            metadata:\n              type: object\n              properties:\n                labels:\n                  type: object\n            spec:\n',
  );
  const [out] = checkFixesRemove(new LanguageService(), crd, 'FieldValueForbidden');
  assert.equal(out, WIDGET_CRD);
});

test('fix: a field only specified under a junctor is declared outside it', () => {
  const crd = WIDGET_CRD.replace(
    '          type: object\n          properties:\n            spec:\n',
    '          type: object\n          anyOf:\n            - properties:\n                color:\n                  maxLength: 5\n          properties:\n            spec:\n',
  );
  const [out] = checkFixesRemove(new LanguageService(), crd, 'FieldValueRequired');
  assert.ok(out.includes('            color:\n              type: string\n'), out);
});

// ---- CRs

test('fix: an unknown field is renamed to the closest declared one: dnsName -> dnsNames on a real cert-manager Certificate', { skip: NO_SHARED }, () => {
  const s = new LanguageService();
  const crdPath = join(REALWORLD, 'crds', 'cert-manager', 'cert-manager.io_certificates.yaml');
  s.indexDiskFile('file:///ws/crds/certificates.yaml', readFileSync(crdPath, 'utf8'));
  const cert =
    'apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata:\n  name: example\nspec:\n  secretName: example-tls\n  issuerRef:\n    name: letsencrypt\n    kind: ClusterIssuer\n  dnsName:\n    - example.com\n';
  const [rename] = checkFixesRemove(s, cert, 'UnknownField', { title: /^Rename to "dnsNames"$/ });
  assert.equal(rename, cert.replace('  dnsName:\n', '  dnsNames:\n'));
  const { td } = docOf(rename);
  s.update(td);
  assert.deepEqual(
    s.findings(td).map((f) => f.message),
    [],
  );
  // The rename is the preferred fix; removing is offered after it.
  const fixes = quickFixes(s, cert).map((f) => f.title);
  assert.deepEqual(fixes, ['Rename to "dnsNames"', 'Remove unknown field "spec.dnsName"']);
});

test('fix: an unknown field is renamed in a CRD too: a misspelt schema keyword (strict decoding of the CRD)', () => {
  const crd = WIDGET_CRD.replace('                  minimum: 0\n', '                  minimun: 0\n');
  const s = new LanguageService();
  const { td } = docOf(crd);
  s.update(td);
  const f = s.findings(td).find((x) => x.code === 'UnknownField')!;
  assert.ok(f, JSON.stringify(s.findings(td).map((x) => x.message)));
  assert.equal(f.severity, 'error');
  assert.equal(f.message, 'unknown field "minimun" (did you mean "minimum"?): rejected by strict field validation (kubectl apply); other clients drop it (pruning)');
  assert.equal(
    f.apiMessage,
    'CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: strict decoding error: unknown field "spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.replicas.minimun"',
  );
  assert.equal(td.getText(f.range), 'minimun');
  const [out] = checkFixesRemove(new LanguageService(), crd, 'UnknownField', { title: /^Rename to "minimum"$/ });
  assert.equal(out, WIDGET_CRD);
  // With Warn, a warning in the API server's warning words.
  const w = new LanguageService({ fieldValidation: 'Warn' });
  w.update(td);
  const wf = w.findings(td).find((x) => x.code === 'UnknownField')!;
  assert.deepEqual([wf.severity, wf.apiMessage], ['warning', 'unknown field "spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.replicas.minimun"']);
});

test('fix: an unknown field is removed with its lines (comments of other fields kept)', () => {
  const [out] = checkFixesRemove(serviceWithCrd(), HEAD + 'spec:\n  size: small\n  # about colour\n  colour:\n    r: 1\n  replicas: 1\n', 'UnknownField', { title: /^Remove/ });
  assert.equal(out, HEAD + 'spec:\n  size: small\n  # about colour\n  replicas: 1\n');
});

test('fix: a value not supported is replaced with the closest supported one (the others offered too)', () => {
  const [closest] = checkFixesRemove(serviceWithCrd(), HEAD + 'spec:\n  size: medum  # kept\n', 'FieldValueNotSupported', { title: /medium/ });
  assert.equal(closest, HEAD + 'spec:\n  size: medium  # kept\n');
  const titles = quickFixes(serviceWithCrd(), HEAD + 'spec:\n  size: medum\n').map((f) => f.title);
  assert.deepEqual(titles, ['Replace with medium', 'Replace with small', 'Replace with large']);
});

test('fix: a missing required field is added with a value that validates (default, enum, bounds, format, nested required)', () => {
  const crd = widgetWith(
    [
      '                name:',
      '                  type: string',
      '                  minLength: 3',
      '                  pattern: "^[a-z]+(-[0-9]+)?$"',
      '                count:',
      '                  type: integer',
      '                  minimum: 2',
      '                  multipleOf: 3',
      '                when:',
      '                  type: string',
      '                  format: date-time',
      '                ref:',
      '                  type: object',
      '                  required: [kind, name]',
      '                  properties:',
      '                    kind: {type: string, enum: [Secret, ConfigMap]}',
      '                    name: {type: string, maxLength: 10, minLength: 1}',
      '',
    ].join('\n'),
    '[size, name, count, when, ref]',
  );
  const s = serviceWithCrd({}, crd);
  const cr = HEAD + 'spec:\n  replicas: 1 # one\n';
  const outs = checkFixesRemove(s, cr, 'FieldValueRequired', { title: /^Add required field/ });
  assert.deepEqual(outs, [cr + '  size: small\n', cr + '  name: example\n', cr + '  count: 3\n', cr + '  when: "1970-01-01T00:00:00Z"\n', cr + '  ref:\n    kind: Secret\n    name: example\n']);
  // "Add all missing required fields": one edit, and the object is then valid.
  const [all] = checkFixesRemove(s, cr, 'FieldValueRequired', { title: /^Add all missing required fields$/ }).slice(0, 1);
  const { td } = docOf(all);
  s.update(td);
  assert.deepEqual(
    s.findings(td).map((f) => f.message),
    [],
    all,
  );
});

test('fix: YAML 1.1 surprises in string fields are explained and quoted (off, y, 0755, 1.10)', () => {
  const crd = widgetWith(['                mode:', '                  type: string', ''].join('\n'));
  const s = serviceWithCrd({}, crd);
  for (const [plain, readAs] of [
    ['off', 'the boolean false (YAML 1.1, as kubectl reads it)'],
    ['y', 'the boolean true (YAML 1.1, as kubectl reads it)'],
    ['0755', 'the number 493 (octal) (YAML 1.1, as kubectl reads it)'],
    // Numbers in any YAML: no word of YAML 1.1.
    ['1.10', 'the number 1.1'],
    ['42', 'the number 42'],
  ]) {
    const cr = HEAD + `spec:\n  size: small\n  mode: ${plain}\n`;
    const { td } = docOf(cr);
    s.update(td);
    const f = s.findings(td).find((x) => x.code === 'FieldValueTypeInvalid');
    assert.ok(f, plain);
    assert.equal(f.message, `${plain} is read as ${readAs}, but this field is a string: quote it`);
    const [out] = checkFixesRemove(s, cr, 'FieldValueTypeInvalid', { title: /^Quote it/ });
    assert.equal(out, cr.replace(`mode: ${plain}`, `mode: "${plain}"`));
  }
  // A quoted value or a value of another type is not a surprise: no quote fix.
  const { td } = docOf(HEAD + 'spec:\n  size: small\n  replicas: "3"\n');
  s.update(td);
  const typed = s.findings(td).find((x) => x.code === 'FieldValueTypeInvalid')!;
  assert.equal(typed.params?.plainScalar, undefined);
});

test('fix: `metadata.name: no` gets the YAML 1.1 finding and "Quote it", and the spec errors are still reported', () => {
  const s = serviceWithCrd();
  const cr = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: no\n  labels:\n    enabled: true\n    tier: web\nspec:\n  size: huge\n  replicas: -1\n';
  const { td } = docOf(cr);
  s.update(td);
  const got = s.findings(td);
  const show = got.map((f) => `${f.code} ${td.getText(f.range)}: ${f.message}`).join('\n');
  const name = got.find((f) => f.path === 'metadata.name');
  assert.ok(name, show);
  assert.equal(td.getText(name.range), 'no');
  assert.equal(name.message, 'no is read as the boolean false (YAML 1.1, as kubectl reads it), but this field is a string: quote it');
  // The API server's words (ObjectMeta's decoding error) one click away.
  assert.match(String(name.apiMessage), /json: cannot unmarshal bool into Go struct field ObjectMeta\.\w+ of type string/);
  const label = got.find((f) => f.path === 'metadata.labels[enabled]');
  assert.ok(label, show);
  assert.equal(td.getText(label.range), 'true');
  // The rest of the object is checked as it is once quoted: the enum and the minimum.
  assert.ok(
    got.some((f) => f.code === 'FieldValueNotSupported' && td.getText(f.range) === 'huge'),
    show,
  );
  assert.ok(
    got.some((f) => f.path === 'spec.replicas' && td.getText(f.range) === '-1'),
    show,
  );
  assert.ok(!got.some((f) => f.field === 'metadata' && f !== name && f !== label), `no row for the whole metadata:\n${show}`);
  // "Quote it" on each; quoted, the metadata findings go and the spec ones stay.
  const quoted = checkFixesRemove(s, cr, 'FieldValueTypeInvalid', { title: /^Quote it/ });
  assert.ok(quoted.includes(cr.replace('name: no', 'name: "no"')));
  assert.ok(quoted.includes(cr.replace('enabled: true', 'enabled: "true"')));
  const both = docOf(cr.replace('name: no', 'name: "no"').replace('enabled: true', 'enabled: "true"')).td;
  s.update(both);
  const after = s.findings(both);
  assert.deepEqual(
    after.filter((f) => f.segments?.[0]?.kind === 'field' && f.segments[0].name === 'metadata').map((f) => f.message),
    [],
  );
  assert.ok(after.some((f) => f.code === 'FieldValueNotSupported'));
});

test('fix: "Add all missing required fields" comes as a snippet too: each inserted value a tab stop, enum values as choices', () => {
  const crd = widgetWith(['                owner:', '                  type: string', ''].join('\n'), '[size, owner]');
  const s = serviceWithCrd({}, crd);
  const { td } = docOf(HEAD + 'spec:\n  replicas: 1\n');
  s.update(td);
  const missing = s.findings(td).filter((f) => f.code === 'FieldValueRequired');
  assert.equal(missing.length, 2, missing.map((f) => f.message).join('\n'));
  const all = s.fixesOf(td, missing[0]).find((x) => x.title === 'Add all missing required fields');
  assert.ok(all?.snippets, JSON.stringify(s.fixesOf(td, missing[0]).map((x) => x.title)));
  assert.equal(all.snippets.length, all.edits.length);
  const snippet = all.snippets[0].newText;
  assert.match(snippet, /size: \$\{1\|small,medium,large\|\}/);
  assert.match(snippet, /owner: \$\{2:""\}/);
  // The plain edit is the snippet with each stop at its first value, at the same place.
  assert.deepEqual(all.snippets[0].range, all.edits[0].range);
  const expanded = snippet
    .replace(/\$\{\d+:([^}]*)\}/g, '$1')
    .replace(/\$\{\d+\|([^,|]*)[^}]*\}/g, '$1')
    .replace(/\\([$}\\])/g, '$1');
  assert.equal(expanded, all.edits[0].newText);
});

test('fix: a kind the group does not have is changed to the kind meant (a built-in group, a CRD group)', () => {
  const [out] = checkFixesRemove(new LanguageService(), 'apiVersion: apps/v1\nkind: Deploymnet\nmetadata:\n  name: d\n', 'NoKindMatch');
  assert.equal(out, 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n');
  // A CRD group's kind no known CRD defines is not checked (the group may be shared), not an error: the
  // information on it says which kind was likely meant.
  const s = serviceWithCrd({ unknownKinds: 'file' });
  const { td } = docOf(`${HEAD.replace('Widget', 'Widgit')}spec:\n  size: small\n`);
  s.update(td);
  const hint = s.findings(td).find((f) => f.code === 'UnknownKind');
  assert.equal(hint?.severity, 'information');
  const change = s.fixes(td, hint!.range).find((x) => x.title === 'Change kind to Widget');
  assert.ok(change, 'the kind meant is offered');
  assert.equal(applyEdits(td, change.edits), `${HEAD}spec:\n  size: small\n`);
});

test('fix: an object with no CRD offers ways to supply CRDs: editor commands, no edits', () => {
  const s = serviceWithCrd({ unknownKinds: 'file' });
  const { td } = docOf('apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata:\n  name: c\n');
  s.update(td);
  const [f] = s.findings(td);
  assert.equal(f.code, 'UnknownKind');
  const fixes = s.fixes(td, f.range);
  assert.deepEqual(
    fixes.map((x) => [x.title, x.command, x.edits]),
    [
      ['Import CRDs from a cluster...', { command: 'crdYaml.importFromCluster' }, []],
      ['Add a folder or URL of CRDs...', { command: 'crdYaml.addCrdSource' }, []],
      ['Open the crdYaml.crdSources setting', { command: 'workbench.action.openSettings', arguments: ['crdYaml.crdSources'] }, []],
    ],
  );
  // A built-in kind of a Kubernetes older than the built-in table is hinted, with nothing to supply.
  const old = new LanguageService({ unknownKinds: 'hint', kubernetesMinor: 30 });
  const d = docOf('apiVersion: apps/v1\nkind: Deploymnet\n').td;
  old.update(d);
  const [hint] = old.findings(d);
  assert.equal(hint.code, 'UnknownKind');
  assert.deepEqual(old.fixes(d, hint.range), []);
});

test('every fix in the index is exercised by a test of this file', () => {
  const src = readFileSync(__filename, 'utf8');
  const titles: Record<string, RegExp> = {
    upgradeToV1: /fix: a v1beta1 CRD is upgraded/,
    addType: /fix: a missing type/,
    setType: /fix: an embedded resource/,
    removeConflictingKeyword: /fix: x-kubernetes-preserve-unknown-fields goes/,
    uniqueItemsToSet: /fix: uniqueItems/,
    moveOutOfJunctor: /fix: a keyword inside a junctor/,
    removeMetadataSchema: /fix: a metadata schema/,
    declareOutside: /fix: a field only specified under a junctor/,
    renameUnknownField: /fix: an unknown field is renamed to the closest/,
    removeUnknownField: /fix: an unknown field is removed/,
    addRequired: /fix: a missing required field/,
    closestEnum: /fix: a value not supported/,
    quoteScalar: /fix: YAML 1.1 surprises/,
    closestKind: /fix: a kind the group does not have/,
    supplyCrds: /fix: an object with no CRD offers ways to supply CRDs/,
  };
  const missing = FIXES.map((f) => f.id).filter((id) => !titles[id] && !/^cel/i.test(id));
  assert.deepEqual(missing, [], 'a fix without a test here');
  for (const [id, re] of Object.entries(titles)) assert.match(src, re, id);
  void TextDocument;
});
