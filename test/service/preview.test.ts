/**
 * The one preview implementation (service/preview.ts): one document or the whole file as stored, the
 * header with defaulted values and a dropped status; the CLI prints the same text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderPreview } from '../../server/src/service/preview';
import { runCli } from '../../server/src/cli/main';
import { docOf, serviceWithCrd, WIDGET_CRD } from './helpers';

const HEAD = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n';

/** The Widget CRD with the status subresource and a defaulted status. */
const WITH_STATUS = WIDGET_CRD.replace('      storage: true\n      schema:', '      storage: true\n      subresources:\n        status: {}\n      schema:').replace(
  '            spec:\n              type: object\n',
  '            status:\n              type: object\n              default: {phase: New}\n              properties:\n                phase: {type: string}\n            spec:\n              type: object\n',
);

test('preview header: defaulted values, and a dropped status said as such (not as defaulted)', () => {
  const s = serviceWithCrd({}, WITH_STATUS);
  const { td } = docOf(HEAD + 'spec:\n  size: small\n');
  s.update(td);
  const p = s.preview(td, { line: 0, character: 0 })!;
  assert.equal(p.statusDropped, true);
  assert.deepEqual(p.defaulted, [{ path: 'spec.replicas', action: 'default', value: 1 }]);
  const text = renderPreview(p);
  assert.match(text, /^# status dropped: the status subresource is enabled/m);
  assert.match(text, /^# defaulted: spec\.replicas = 1$/m);
  assert.doesNotMatch(text, /defaulted: status/);
  assert.doesNotMatch(text, /^status:/m);
  // Without the status subresource nothing is dropped.
  const plain = serviceWithCrd();
  plain.update(td);
  assert.equal(plain.preview(td, { line: 0, character: 0 })!.statusDropped, false);
});

test('whole-file stored view: each CR replaced by its stored object, other documents as written, documents line up', () => {
  const s = serviceWithCrd();
  const cm = '---\n# a ConfigMap stays as written\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n';
  const text = HEAD + 'spec:\n  size: small\n' + cm + '---\n' + HEAD.replace('name: w', 'name: v') + 'spec:\n  size: large\n  colour: red\n';
  const { td } = docOf(text);
  s.update(td);
  const view = s.previewFile(td);
  const parts = view.split(/^---\n/m);
  assert.equal(parts.length, 3, view);
  assert.equal(parts[0], renderPreview(s.preview(td, { line: 0, character: 0 })!));
  assert.equal('---\n' + parts[1], cm);
  assert.equal(parts[2], renderPreview(s.preview(td, { line: 14, character: 0 })!));
  assert.match(parts[2], /^# pruned: spec\.colour \(unknown field\)$/m);
  assert.doesNotMatch(parts[2], /colour: red/);
});

test('the CLI preview prints the service preview of each object', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crd-yaml-preview-'));
  try {
    writeFileSync(join(dir, 'crd.yaml'), WITH_STATUS);
    const cr = HEAD + 'spec:\n  size: small\n';
    writeFileSync(join(dir, 'cr.yaml'), cr);
    let out = '';
    runCli(['preview', 'cr.yaml', '--crd', 'crd.yaml'], { stdout: (x) => (out += x), stderr: () => undefined, cwd: dir });
    const s = serviceWithCrd({}, WITH_STATUS);
    const { td } = docOf(cr);
    s.update(td);
    assert.equal(out, renderPreview(s.preview(td, { line: 0, character: 0 })!, { title: 'cr.yaml:1: Widget w' }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
