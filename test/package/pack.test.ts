/**
 * The npm package as a user gets it (issue 24): `npm pack`, installed from the tarball into an empty prefix
 * with `npm install -g --prefix` (scripts/pack-install.mjs), then the installed `crd-yaml`: its version,
 * `check examples/` with the findings and exit code examples/README.md states, and `crd-yaml lsp --stdio`
 * answering an LSP client. Prints the packed size.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../shared';
import { startServer } from '../lsp/client';

/** The budget the issue sets for the packed tarball. */
const MAX_PACKED_BYTES = 5 * 1024 * 1024;
const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string> };

type Installed = { dir: string; tarball: string; size: number; files: string[]; prefix: string; bin: string; manifest: Record<string, unknown> };
let installed: Installed;

before(async () => {
  const { packAndInstall } = (await import(pathToFileURL(join(REPO_ROOT, 'scripts', 'pack-install.mjs')).href)) as { packAndInstall: () => Installed };
  installed = packAndInstall();
  console.log(`npm pack: ${installed.tarball.split(/[\\/]/).pop()} ${(installed.size / 1024 / 1024).toFixed(2)} MB packed, ${installed.files.length} files`);
});
after(() => rmSync(installed.dir, { recursive: true, force: true }));

test('the tarball holds the built program, the bin, README, LICENSE and CHANGELOG; no sources, tests or maps; under 5 MB', () => {
  for (const f of ['bin/crd-yaml', 'dist/cli.js', 'dist/cli-main.js', 'dist/server.js', 'dist/worker.js', 'README.md', 'LICENSE', 'CHANGELOG.md', 'package.json'])
    assert.ok(installed.files.includes(f), `${f} missing from ${installed.files.join(', ')}`);
  assert.deepEqual(
    installed.files.filter((f) => /\.(ts|map)$/.test(f) || /^(test|server|client|scripts|node_modules)\//.test(f)),
    [],
  );
  assert.ok(installed.size <= MAX_PACKED_BYTES, `${installed.size} bytes packed`);
});

// (`prepare` runs where npm installs from git, as pre-commit does, never from the tarball.)
test('installing needs nothing else: no dependencies, no install scripts', () => {
  const m = installed.manifest as { dependencies?: object; scripts?: Record<string, string> };
  assert.deepEqual(Object.keys(m.dependencies ?? {}), []);
  assert.deepEqual(
    Object.keys(m.scripts ?? {}).filter((s) => /^(pre|post)?install$/.test(s)),
    [],
  );
});

test('crd-yaml --version prints the version of package.json', () => {
  const r = spawnSync(installed.bin, ['--version'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, `crd-yaml ${pkg.version}\n`);
});

/** examples/README.md's table: file -> what it expects. */
function expectedExamples(): Map<string, string> {
  const rows = new Map<string, string>();
  for (const m of readFileSync(join(REPO_ROOT, 'examples', 'README.md'), 'utf8').matchAll(/^\| `([\w.-]+\.yaml)` \| (.*) \|$/gm)) rows.set(m[1], m[2]);
  return rows;
}

test('crd-yaml check examples/ reports what examples/README.md says, and exits 1', () => {
  const r = spawnSync(installed.bin, ['check', 'examples/'], { cwd: REPO_ROOT, encoding: 'utf8' });
  assert.equal(r.status, 1, r.stderr);
  const rows = expectedExamples();
  assert.ok(rows.size >= 8, `examples/README.md table: ${[...rows.keys()]}`);
  const errorsOf = (file: string) => r.stdout.split('\n').filter((l) => l.startsWith(`examples/${file}:`) && /: error: /.test(l));
  for (const [file, expect] of rows) {
    const errors = errorsOf(file);
    if (/no findings/.test(expect)) assert.deepEqual(errors, [], file);
    else {
      assert.ok(errors.length > 0, `${file}: expected ${expect}, got:\n${r.stdout}`);
      // A field path the row names first (`spec.replicas`) is the one the errors name.
      const field = /^`(spec\.[\w.]+)`/.exec(expect)?.[1] ?? /unknown field `(spec\.[\w.]+)`/.exec(expect)?.[1];
      if (field)
        assert.ok(
          errors.some((l) => l.includes(field)),
          `${file}: no error on ${field}:\n${errors.join('\n')}`,
        );
    }
  }
  assert.match(r.stderr, /^crd-yaml: 9 files, /m);
});

test('crd-yaml lsp --stdio answers initialize and publishes the diagnostics of an opened CR', async () => {
  const ws = mkdtempSync(join(tmpdir(), 'crd-yaml-pack-lsp-'));
  cpSync(join(REPO_ROOT, 'examples', 'crontab-crd.yaml'), join(ws, 'crontab-crd.yaml'));
  const server = await startServer(ws, undefined, { command: [installed.bin, 'lsp', '--stdio'] });
  try {
    const caps = (server.initializeResult as { capabilities?: { hoverProvider?: boolean; textDocumentSync?: unknown } }).capabilities;
    assert.ok(caps?.hoverProvider && caps.textDocumentSync, JSON.stringify(server.initializeResult));
    const uri = pathToFileURL(join(ws, 'cr.yaml')).href;
    const text = readFileSync(join(REPO_ROOT, 'examples', 'crontab-replicas-out-of-range.yaml'), 'utf8');
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
    const diags = await server.diagnostics(uri, (d) => d.length > 0, 30000);
    const d = diags.find((x) => x.source === 'crd-yaml' && x.severity === 1);
    assert.ok(d, JSON.stringify(diags));
    assert.match(String(d.message), /less than or equal to 10/);
  } finally {
    await server.stop();
    rmSync(ws, { recursive: true, force: true });
  }
});
