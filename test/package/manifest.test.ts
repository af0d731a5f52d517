/**
 * The extension's manifest as both marketplaces take it (issue 24): the fields the VS Code Marketplace and
 * Open VSX require, the walkthrough (its pages ship, its command links and completion events name real
 * commands), every setting described with a default, CHANGELOG.md kept as Keep a Changelog with the
 * version, and the version written in one place: every copy of it in the docs and CI files is that one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listFiles, PackageManager } from '@vscode/vsce';
import { REPO_ROOT } from '../shared';

type Setting = { default?: unknown; description?: string; markdownDescription?: string; enum?: unknown[]; type?: string | string[] };
type Step = { id: string; title: string; description: string; media: { markdown?: string; image?: string }; completionEvents?: string[] };
const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  publisher: string;
  displayName: string;
  description: string;
  license: string;
  icon: string;
  categories: string[];
  repository: { url: string };
  engines: { vscode: string };
  contributes: { commands: Array<{ command: string }>; configuration: { properties: Record<string, Setting> }; walkthroughs: Array<{ id: string; steps: Step[] }> };
};
/** Commands of VS Code itself that the walkthrough links to. */
const BUILTIN_COMMANDS = new Set(['workbench.actions.view.problems']);

test('the manifest has the fields both marketplaces require', () => {
  for (const k of ['name', 'version', 'publisher', 'displayName', 'description', 'license', 'icon'] as const) assert.ok(pkg[k], k);
  assert.match(pkg.repository?.url ?? '', /^https:\/\//);
  assert.ok(existsSync(join(REPO_ROOT, pkg.icon)), pkg.icon);
  assert.ok(existsSync(join(REPO_ROOT, 'LICENSE')));
  assert.ok(pkg.categories.length > 0);
  assert.match(pkg.engines.vscode, /^\^\d+\.\d+\.\d+$/);
});

test('every setting has a description and a default (of one of its enum values)', () => {
  const bad: string[] = [];
  for (const [name, s] of Object.entries(pkg.contributes.configuration.properties)) {
    if (!(s.description || s.markdownDescription)) bad.push(`${name}: no description`);
    if (!('default' in s)) bad.push(`${name}: no default`);
    else if (s.enum && !s.enum.includes(s.default)) bad.push(`${name}: default ${JSON.stringify(s.default)} not in its enum`);
  }
  assert.deepEqual(bad, []);
});

test('the walkthrough: open a CRD, see a finding, preview a CR, check in CI; its pages ship, its commands exist', async () => {
  const [w] = pkg.contributes.walkthroughs;
  assert.deepEqual(
    w.steps.map((s) => s.id),
    ['openCrd', 'seeFinding', 'previewCr', 'checkInCi'],
  );
  const shipped = await listFiles({ cwd: REPO_ROOT, packageManager: PackageManager.None });
  const commands = new Set(pkg.contributes.commands.map((c) => c.command));
  const bad: string[] = [];
  for (const s of w.steps) {
    const media = s.media.markdown ?? s.media.image ?? '';
    if (!existsSync(join(REPO_ROOT, media))) bad.push(`${s.id}: ${media} missing`);
    if (!shipped.includes(media)) bad.push(`${s.id}: ${media} not in the .vsix (.vscodeignore)`);
    const named = [...s.description.matchAll(/\(command:([\w.]+)\)/g)].map((m) => m[1]);
    named.push(...(s.completionEvents ?? []).filter((e) => e.startsWith('onCommand:')).map((e) => e.slice('onCommand:'.length)));
    for (const c of named) if (!commands.has(c) && !BUILTIN_COMMANDS.has(c)) bad.push(`${s.id}: command ${c} does not exist`);
  }
  assert.deepEqual(bad, []);
  for (const f of ['CHANGELOG.md', 'LICENSE']) assert.ok(shipped.includes(f), `${f} not in the .vsix`);
});

test('CHANGELOG.md follows Keep a Changelog and has the version of package.json', () => {
  const log = readFileSync(join(REPO_ROOT, 'CHANGELOG.md'), 'utf8');
  assert.match(log, /keepachangelog\.com/);
  assert.match(log, /^## \[Unreleased\]$/m);
  assert.match(log, new RegExp(`^## \\[${pkg.version.replace(/\./g, '\\.')}\\]( - \\d{4}-\\d{2}-\\d{2})?$`, 'm'));
});

/** The files that show the released version to users: install lines, action and hook refs, the mason entry. */
const VERSION_COPIES = ['README.md', 'docs/editors.md', 'docs/releasing.md', 'walkthrough/ci.md', 'action.yml', '.pre-commit-hooks.yaml', 'packaging/mason/package.yaml'];

test('the version is kept in package.json: every copy of it in the docs, the action, the hook and the mason entry is that one', () => {
  const stale: string[] = [];
  for (const f of VERSION_COPIES) {
    const text = readFileSync(join(REPO_ROOT, f), 'utf8');
    for (const m of text.matchAll(/(?:crd-yaml(?:\/crd-yaml)?@v?|rev: v|pkg:npm\/crd-yaml@|crd-yaml\.git#v)(\d+\.\d+\.\d+)\b/g)) if (m[1] !== pkg.version) stale.push(`${f}: ${m[0]}`);
  }
  assert.deepEqual(stale, []);
});
