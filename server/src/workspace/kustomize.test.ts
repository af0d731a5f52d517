import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PatchFiles, isKustomizationFile, isScaffoldCrdPatchName, kustomizationPatches } from './kustomize';

const K = [
  'apiVersion: kustomize.config.k8s.io/v1beta1',
  'kind: Kustomization',
  'resources: [../../base, widget.yaml]',
  'patches:',
  '- path: replicas.yaml',
  '  target: {kind: Widget}',
  '- patch: |-',
  '    - op: replace',
  '      path: /spec/size',
  '      value: 3',
  'patchesStrategicMerge:',
  '- old-style.yaml',
  '- |-',
  '  apiVersion: example.com/v1',
  '  kind: Widget',
  'patchesJson6902:',
  '- target: {group: example.com, version: v1, kind: Widget, name: w}',
  '  path: ops.yaml',
  '- path: https://example.com/remote.yaml',
].join('\n');

test('the patch files a kustomization names: inline patches and resources are not patch files', () => {
  assert.deepEqual(kustomizationPatches(K, '/repo/overlays/prod/kustomization.yaml'), {
    partial: ['/repo/overlays/prod/replicas.yaml', '/repo/overlays/prod/old-style.yaml'],
    json6902: ['/repo/overlays/prod/ops.yaml'],
  });
  assert.deepEqual(kustomizationPatches('patches: [', '/k/kustomization.yaml'), { partial: [], json6902: [] });
  assert.equal(isKustomizationFile('/a/Kustomization'), true);
  assert.equal(isKustomizationFile('/a/kustomization.yml'), true);
  assert.equal(isKustomizationFile('/a/my-kustomization.yaml'), false);
});

test('roles across kustomizations, updated and forgotten', () => {
  const p = new PatchFiles();
  assert.equal(p.set('/repo/overlays/prod/kustomization.yaml', K), true);
  assert.equal(p.set('/repo/overlays/prod/kustomization.yaml', K), false, 'same roles: nothing to re-check');
  assert.equal(p.roleOf('/repo/overlays/prod/replicas.yaml'), 'partial');
  assert.equal(p.roleOf('/repo/overlays/prod/ops.yaml'), 'json6902');
  assert.equal(p.roleOf('/repo/overlays/prod/widget.yaml'), undefined);
  assert.equal(p.set('/repo/overlays/prod/kustomization.yaml', undefined), true);
  assert.equal(p.roleOf('/repo/overlays/prod/replicas.yaml'), undefined);
});

test('a kustomization with a collection as a key names no patch and prints no warning of the yaml package', () => {
  const seen: string[] = [];
  const emit = process.emitWarning;
  process.emitWarning = ((w: string | Error) => void seen.push(String(w))) as typeof process.emitWarning;
  try {
    const p = kustomizationPatches('resources: [a.yaml]\npatches:\n- { { .x }: 1 }\n', '/ws/kustomization.yaml');
    assert.deepEqual(p.partial, []);
  } finally {
    process.emitWarning = emit;
  }
  assert.deepEqual(seen, []);
});

test('kubebuilder scaffold patch names, and the files of a kustomize tree', () => {
  assert.equal(isScaffoldCrdPatchName('/op/config/crd/patches/webhook_in_widgets.yaml'), true);
  assert.equal(isScaffoldCrdPatchName('/op/config/crd/patches/cainjection_in_widgets.yml'), true);
  assert.equal(isScaffoldCrdPatchName('/op/config/crd/patches/webhook_widgets.yaml'), false);
  assert.equal(isScaffoldCrdPatchName('/op/config/crd/patches/webhook_in_widgets.json'), false);
  const p = new PatchFiles();
  p.set('/repo/config/crd/kustomization.yaml', 'resources: [bases/w.yaml]\n');
  assert.equal(p.inTree('/repo/config/crd/patches/webhook_in_widgets.yaml'), true);
  assert.equal(p.inTree('/repo/config/crd/bases/w.yaml'), true);
  assert.equal(p.inTree('/repo/config/samples/w.yaml'), false);
  assert.equal(p.inTree('/repo/config/crd-extra/w.yaml'), false);
});
