import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { editorLspCommand, ensureBuilt, ROOT } from './client';

const hasEmacs = spawnSync('emacs', ['--version']).status === 0;

test('Emacs eglot, configured as docs/editors.md says, receives the diagnostics of an invalid CR', { skip: hasEmacs ? false : 'emacs not installed (apt-get install emacs-nox elpa-eglot elpa-yaml-mode)' }, () => {
  ensureBuilt();
  const ws = mkdtempSync(join(tmpdir(), 'crd-yaml-emacs-'));
  try {
    mkdirSync(join(ws, 'crds'));
    copyFileSync(join(ROOT, 'examples', 'crontab-crd.yaml'), join(ws, 'crds', 'crontab-crd.yaml'));
    writeFileSync(join(ws, 'cr.yaml'), 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: c\nspec:\n  replicas: 15\n');
    const out = join(ws, 'diags.json');
    // HOME in the temp dir: no user init, no ~/.emacs.d state written by the test.
    const r = spawnSync('emacs', ['-Q', '--batch', '-l', join(__dirname, 'emacs-check.el'), 'cr.yaml', out], {
      cwd: ws,
      env: { ...process.env, HOME: ws, LSP_TIMEOUT_S: '20', LSP_CMD: editorLspCommand().join(' ') },
      encoding: 'utf8',
      timeout: 40000,
    });
    assert.equal(r.status, 0, `emacs exited with ${r.status}: ${r.stderr}`);
    const diags = JSON.parse(readFileSync(out, 'utf8')) as Array<{ line: number; col: number; type: string; text: string }>;
    const d = diags.find((x) => x.text.includes('Invalid value 15'));
    assert.ok(d, JSON.stringify(diags));
    assert.match(d.text, /less than or equal to 10/);
    assert.deepEqual([d.line, d.col, d.type], [6, 12, 'error']);
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});
