import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { helmChartOfTemplate, kustomizationsAround, vendoredReason, workspaceFs } from './repository';

test('chart templates: under templates/ with a Chart.yaml beside it (subcharts too), inside the workspace only', () => {
  const ws = mkdtempSync(join(tmpdir(), 'crd-yaml-repo-'));
  mkdirSync(join(ws, 'chart', 'templates', 'sub'), { recursive: true });
  mkdirSync(join(ws, 'chart', 'charts', 'dep', 'templates'), { recursive: true });
  mkdirSync(join(ws, 'other', 'templates'), { recursive: true });
  writeFileSync(join(ws, 'chart', 'Chart.yaml'), 'apiVersion: v2\nname: c\n');
  writeFileSync(join(ws, 'chart', 'charts', 'dep', 'Chart.yaml'), 'apiVersion: v2\nname: dep\n');
  const rfs = workspaceFs(ws);
  assert.equal(helmChartOfTemplate(join(ws, 'chart', 'templates', 'a.yaml'), rfs, ws), join(ws, 'chart'));
  assert.equal(helmChartOfTemplate(join(ws, 'chart', 'templates', 'sub', 'b.yaml'), rfs, ws), join(ws, 'chart'));
  assert.equal(helmChartOfTemplate(join(ws, 'chart', 'charts', 'dep', 'templates', 'c.yaml'), rfs, ws), join(ws, 'chart', 'charts', 'dep'));
  assert.equal(helmChartOfTemplate(join(ws, 'other', 'templates', 'd.yaml'), rfs, ws), undefined, 'no Chart.yaml: not a chart');
  assert.equal(helmChartOfTemplate(join(ws, 'chart', 'values.yaml'), rfs, ws), undefined, 'not under templates/');
  // A Chart.yaml that is a link to a file outside the workspace is not read as one.
  const outside = mkdtempSync(join(tmpdir(), 'crd-yaml-outside-'));
  writeFileSync(join(outside, 'Chart.yaml'), 'apiVersion: v2\n');
  symlinkSync(join(outside, 'Chart.yaml'), join(ws, 'other', 'Chart.yaml'));
  assert.equal(helmChartOfTemplate(join(ws, 'other', 'templates', 'd.yaml'), rfs, ws), undefined);
});

test('kustomizations in the folder of a file and above name it as a patch', () => {
  const ws = mkdtempSync(join(tmpdir(), 'crd-yaml-repo-'));
  mkdirSync(join(ws, 'overlays', 'prod', 'patches'), { recursive: true });
  writeFileSync(join(ws, 'overlays', 'prod', 'Kustomization'), 'patches:\n- path: patches/size.yaml\npatchesJson6902:\n- path: ops.yaml\n');
  const rfs = workspaceFs(ws);
  const p = kustomizationsAround([join(ws, 'overlays', 'prod', 'patches', 'size.yaml')], rfs, ws);
  assert.equal(p.roleOf(join(ws, 'overlays', 'prod', 'patches', 'size.yaml')), 'partial');
  assert.equal(p.roleOf(join(ws, 'overlays', 'prod', 'ops.yaml')), 'json6902');
  assert.equal(p.roleOf(join(ws, 'overlays', 'prod', 'other.yaml')), undefined);
});

test("vendored files: under vendor/, third_party/, upstream/, or a dependency chart of a chart; not a collection's own charts", () => {
  const ws = mkdtempSync(join(tmpdir(), 'crd-yaml-repo-'));
  mkdirSync(join(ws, 'chart', 'charts', 'dep', 'crds'), { recursive: true });
  mkdirSync(join(ws, 'charts', 'mine', 'crds'), { recursive: true });
  writeFileSync(join(ws, 'chart', 'Chart.yaml'), 'apiVersion: v2\nname: c\n');
  writeFileSync(join(ws, 'charts', 'mine', 'Chart.yaml'), 'apiVersion: v2\nname: mine\n');
  const rfs = workspaceFs(ws);
  const why = (...p: string[]) => vendoredReason(join(ws, ...p), ws, rfs);
  assert.equal(why('vendor', 'github.com', 'x', 'crd.yaml'), 'it is under vendor/');
  assert.equal(why('hack', 'third_party', 'crd.yaml'), 'it is under hack/third_party/');
  assert.equal(why('apps', 'trainer', 'upstream', 'base', 'crds', 'a.yaml'), 'it is under apps/trainer/upstream/');
  assert.equal(why('chart', 'charts', 'dep', 'crds', 'a.yaml'), 'it is in the dependency chart chart/charts/dep/');
  // A chart collection's charts/ folder (no Chart.yaml above it) holds the repository's own charts.
  assert.equal(why('charts', 'mine', 'crds', 'a.yaml'), undefined);
  assert.equal(why('config', 'crd', 'bases', 'a.yaml'), undefined);
  assert.equal(why('chart', 'crds', 'a.yaml'), undefined, "a chart's own crds/");
  // Only the path below the workspace folder counts: a workspace inside a vendor/ folder is not vendored.
  assert.equal(vendoredReason(join(ws, 'vendor', 'proj', 'config', 'a.yaml'), join(ws, 'vendor', 'proj'), rfs), undefined);
  assert.equal(vendoredReason(join(tmpdir(), 'elsewhere.yaml'), ws, rfs), undefined);
});
