import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { editorLspCommand, ensureBuilt } from './client';

const hasNvim = spawnSync('nvim', ['--version']).status === 0;
const CRD = readFileSync(join(__dirname, '..', 'service', 'fixtures', 'widget-crd.yaml'), 'utf8');

test('Neovim, as an independent LSP client, receives the diagnostics of an invalid CR', { skip: hasNvim ? false : 'nvim not installed (apt-get install neovim)' }, () => {
  ensureBuilt();
  const ws = mkdtempSync(join(tmpdir(), 'crd-yaml-nvim-'));
  try {
    mkdirSync(join(ws, 'crds'));
    writeFileSync(join(ws, 'crds', 'widget.yaml'), CRD);
    writeFileSync(join(ws, 'cr.yaml'), 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: huge\n');
    const out = join(ws, 'diags.json');
    const r = spawnSync('nvim', ['--headless', '-u', join(__dirname, 'nvim-init.lua'), '-i', 'NONE', 'cr.yaml', '+lua dump_diags()'], {
      cwd: ws,
      env: { ...process.env, LSP_CMD: editorLspCommand().join(' '), DIAG_OUT: out, LSP_TIMEOUT_MS: '20000', XDG_STATE_HOME: ws, XDG_DATA_HOME: ws, XDG_CONFIG_HOME: ws },
      timeout: 40000,
    });
    assert.equal(r.status, 0, `nvim exited with ${r.status}: ${r.stderr}`);
    const diags = JSON.parse(readFileSync(out, 'utf8')) as Array<{ lnum: number; col: number; end_col: number; message: string; source: string; code?: string; severity: number }>;
    const d = diags.find((x) => x.message.startsWith('Unsupported value "huge"'));
    assert.ok(d, JSON.stringify(diags));
    assert.equal(d.source, 'crd-yaml');
    assert.deepEqual([d.lnum, d.col, d.end_col, d.severity], [5, 8, 12, 1]);
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});
