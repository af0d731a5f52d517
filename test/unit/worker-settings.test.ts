/**
 * The `crdYaml.cel.*` settings as the workers read them (lsp/settings.ts): lintScope and the lints'
 * severities, a value of the wrong type keeping the default; and package.json declares each with its
 * values and default; `crdYaml.diagnosticsDelayMs` as read (its effect: test/lsp/scheduler.test.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readWorkerSettings } from '../../server/src/lsp/settings';
import { CEL_LINT_SCOPES } from '../../server/src/service/lintScope';

test('crdYaml.cel.lintScope: authored by default, all or off when set, a wrong value ignored', () => {
  assert.equal(readWorkerSettings({}).celLintScope, 'authored');
  assert.equal(readWorkerSettings({ cel: { lintScope: 'all' } }).celLintScope, 'all');
  assert.equal(readWorkerSettings({ cel: { lintScope: 'off', noSuchKey: 'hint' } }).celLintScope, 'off');
  assert.deepEqual(readWorkerSettings({ cel: { lintScope: 'off', noSuchKey: 'hint' } }).celLints, { CELNoSuchKey: 'hint' });
  assert.equal(readWorkerSettings({ cel: { lintScope: 'everything' } }).celLintScope, 'authored');
  assert.equal(readWorkerSettings({ cel: 'all' }).celLintScope, 'authored');
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'));
  const decl = pkg.contributes.configuration.properties['crdYaml.cel.lintScope'];
  assert.deepEqual(decl.enum, CEL_LINT_SCOPES);
  assert.equal(decl.default, 'authored');
});

test('crdYaml.diagnosticsDelayMs: read as given, 0 by default and for a negative or non-number value', () => {
  assert.equal(readWorkerSettings({ diagnosticsDelayMs: 300 }).diagnosticsDelayMs, 300);
  assert.equal(readWorkerSettings({}).diagnosticsDelayMs, 0);
  assert.equal(readWorkerSettings({ diagnosticsDelayMs: -5 }).diagnosticsDelayMs, 0);
  assert.equal(readWorkerSettings({ diagnosticsDelayMs: '300' }).diagnosticsDelayMs, 0);
});
