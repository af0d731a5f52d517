/**
 * What package.json promises the VS Code user (issue 28): the status bar item is there before a YAML file
 * is opened (the extension activates in a workspace with YAML files), the settings list opens on the
 * settings a CR author needs first, and the onboarding command is contributed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'));

test('activates in a workspace with YAML files, not only when one is opened', () => {
  assert.ok(pkg.activationEvents.includes('onLanguage:yaml'));
  assert.ok(pkg.activationEvents.includes('workspaceContains:**/*.yaml'));
  assert.ok(pkg.activationEvents.includes('workspaceContains:**/*.yml'));
});

test('the settings list opens on crdPaths, fieldValidation and validate.exclude; every setting has its place', () => {
  const props = pkg.contributes.configuration.properties as Record<string, { order?: number }>;
  const ordered = Object.entries(props).sort(([, a], [, b]) => (a.order ?? Infinity) - (b.order ?? Infinity));
  assert.deepEqual(
    ordered.slice(0, 3).map(([k]) => k),
    ['crdYaml.crdPaths', 'crdYaml.fieldValidation', 'crdYaml.validate.exclude'],
  );
  const orders = Object.values(props).map((p) => p.order);
  assert.ok(
    orders.every((o) => typeof o === 'number'),
    'an order for each setting (the others sort before them)',
  );
  assert.equal(new Set(orders).size, orders.length);
});

test('"CRD: Add a Folder or URL of CRDs..." is contributed under the id other code runs', () => {
  const cmd = pkg.contributes.commands.find((c: { command: string }) => c.command === 'crdYaml.addCrdSource');
  assert.ok(cmd);
  assert.equal(cmd.category, 'CRD');
});

test('crd-yaml.lock opens as YAML: the client hands it to the server, which marks refused entries', () => {
  const yaml = (pkg.contributes.languages as Array<{ id: string; filenames?: string[] }>).find((l) => l.id === 'yaml');
  assert.ok(yaml?.filenames?.includes('crd-yaml.lock'));
});
