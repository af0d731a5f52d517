import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isTestToolFile, kuttlStepRole, TestToolFiles } from './testTools';

const CHAINSAW = [
  'apiVersion: chainsaw.kyverno.io/v1alpha1',
  'kind: Test',
  'metadata: {name: t}',
  'spec:',
  '  steps:',
  '  - try:',
  '    - apply: {file: 00-widget.yaml}',
  '    - assert: {file: 00-widget.yaml}',
  '    - assert: {file: 00-assert.yaml}',
  '    - error: {file: ../shared/errors-*.yaml}',
  '    - patch: {file: 01-resize.yaml}',
  '    - create: {resource: {apiVersion: v1, kind: ConfigMap}}',
  '    - apply: {file: "https://example.com/remote.yaml"}',
  '    catch:',
  '    - delete: {file: 02-gone.yaml}',
  '  - use: {template: ../templates/step.yaml}',
  '  - try:',
  '    - apply: {file: 03-rewidget.yaml}',
  '    - create: {file: 04-recreate.yaml}',
].join('\n');

const TEMPLATE = 'apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: StepTemplate\nspec:\n  try:\n  - create: {file: made.yaml}\n  - assert: {file: made-assert.yaml}\n';

test('Chainsaw: what each operation does with the files it names, globs and step templates too', () => {
  const files: Record<string, string> = {
    '/repo/e2e/templates/step.yaml': TEMPLATE,
    '/repo/e2e/widgets/00-widget.yaml': 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n',
    '/repo/e2e/widgets/03-rewidget.yaml': 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 4}\n',
    '/repo/e2e/widgets/04-recreate.yaml': 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n',
  };
  const t = new TestToolFiles({ read: (f) => files[f], files: () => [] });
  t.addChainsawTest('/repo/e2e/widgets/chainsaw-test.yaml', CHAINSAW);
  // Applied and asserted: the API server sees it whole.
  assert.deepEqual(t.roleOf('/repo/e2e/widgets/00-widget.yaml'), { tool: 'chainsaw', role: 'resource' });
  assert.deepEqual(t.roleOf('/repo/e2e/widgets/00-assert.yaml'), { tool: 'chainsaw', role: 'assertion' });
  assert.deepEqual(t.roleOf('/repo/e2e/shared/errors-1.yaml'), { tool: 'chainsaw', role: 'assertion' });
  assert.equal(t.roleOf('/repo/e2e/shared/other.yaml'), undefined);
  assert.deepEqual(t.roleOf('/repo/e2e/widgets/01-resize.yaml'), { tool: 'chainsaw', role: 'resource', patch: true });
  assert.deepEqual(t.roleOf('/repo/e2e/widgets/02-gone.yaml'), { tool: 'chainsaw', role: 'assertion' });
  // A step template's files are relative to the template.
  assert.deepEqual(t.roleOf('/repo/e2e/templates/made.yaml'), { tool: 'chainsaw', role: 'resource' });
  assert.deepEqual(t.roleOf('/repo/e2e/templates/made-assert.yaml'), { tool: 'chainsaw', role: 'assertion' });
  // An apply of an object an earlier step sent patches it; a create sends it whole (and fails if it exists).
  assert.deepEqual(t.roleOf('/repo/e2e/widgets/03-rewidget.yaml'), { tool: 'chainsaw', role: 'resource', patch: true });
  assert.deepEqual(t.roleOf('/repo/e2e/widgets/04-recreate.yaml'), { tool: 'chainsaw', role: 'resource' });
  // A file of the test's folder no step names: what its name says, as kuttl names steps.
  assert.deepEqual(t.roleOf('/repo/e2e/widgets/05-assert-late.yaml'), { tool: 'chainsaw', role: 'assertion' });
  assert.equal(t.roleOf('/repo/e2e/widgets/notes.yaml'), undefined);
  // Not a Chainsaw test: names nothing.
  const other = new TestToolFiles();
  other.addChainsawTest('/repo/x/chainsaw-test.yaml', CHAINSAW.replace('chainsaw.kyverno.io', 'example.com'));
  other.addChainsawTest('/repo/y/chainsaw-test.yaml', 'steps: [');
  assert.equal(other.roleOf('/repo/x/00-assert.yaml'), undefined);
  assert.equal(isTestToolFile('/repo/x/chainsaw-test.yaml'), true);
  assert.equal(isTestToolFile('/repo/kuttl-test.yaml'), true);
  assert.equal(isTestToolFile('/repo/test.yaml'), false);
});

test('kuttl: the step files of the test cases of a suite, by their names', () => {
  assert.deepEqual(kuttlStepRole('00-install.yaml'), { tool: 'kuttl', role: 'resource' });
  assert.deepEqual(kuttlStepRole('00-assert.yaml'), { tool: 'kuttl', role: 'assertion' });
  assert.deepEqual(kuttlStepRole('01-assert-ready.yaml'), { tool: 'kuttl', role: 'assertion' });
  assert.deepEqual(kuttlStepRole('02-errors.yaml'), { tool: 'kuttl', role: 'assertion' });
  assert.deepEqual(kuttlStepRole('03-asserted.yaml'), { tool: 'kuttl', role: 'resource' }, 'the name up to the first dash decides');
  assert.deepEqual(kuttlStepRole('04-cleanup/assert.yaml'), { tool: 'kuttl', role: 'assertion' });
  assert.deepEqual(kuttlStepRole('04-cleanup/pod.yaml'), { tool: 'kuttl', role: 'resource' });
  for (const ignored of ['README.yaml', 'install.yaml', '00-install.yml', 'sub/00-install.yaml', '00-a.b.yaml']) assert.equal(kuttlStepRole(ignored), undefined, ignored);
  const steps: Record<string, string> = {
    '00-install.yaml': 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 3}\n',
    '00-assert.yaml': 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n',
    '01-resize.yaml': 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 4}\n',
    '01-other.yaml': 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: other}\n',
  };
  const t = new TestToolFiles({
    read: (f) => (f.startsWith('/repo/tests/e2e/basic/') ? steps[f.slice('/repo/tests/e2e/basic/'.length)] : undefined),
    files: (d) => (d === '/repo/tests/e2e/basic' ? Object.keys(steps) : []),
  });
  t.addKuttlSuite('/repo/kuttl-test.yaml', 'apiVersion: kuttl.dev/v1beta1\nkind: TestSuite\ntestDirs:\n- ./tests/e2e\n');
  assert.deepEqual(t.roleOf('/repo/tests/e2e/basic/00-assert.yaml'), { tool: 'kuttl', role: 'assertion' });
  assert.deepEqual(t.roleOf('/repo/tests/e2e/basic/00-install.yaml'), { tool: 'kuttl', role: 'resource' });
  // kuttl merge-patches an object that exists: step 1 resizes step 0's Widget.
  assert.deepEqual(t.roleOf('/repo/tests/e2e/basic/01-resize.yaml'), { tool: 'kuttl', role: 'resource', patch: true });
  assert.deepEqual(t.roleOf('/repo/tests/e2e/basic/01-other.yaml'), { tool: 'kuttl', role: 'resource' });
  assert.equal(t.roleOf('/repo/tests/e2e/00-install.yaml'), undefined, 'a file of the test folder itself is no case');
  assert.equal(t.roleOf('/repo/tests/other/basic/00-assert.yaml'), undefined);
});
