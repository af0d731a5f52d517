/**
 * The map stays true: every source file named in ARCHITECTURE.md, README.md and the code's comments
 * exists (a name is a path suffix of a file of the checkout, or a path in the shared folder beside it).
 * A renamed or deleted file leaves no pointer behind.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { needsShared, REPO_ROOT, sharedDir } from '../shared';

const SKIP = new Set(['node_modules', 'dist', '.git', '.work', 'oracle-bin']);
// Dot folders are tools' state or files a test plants for a moment (guardrails.test.ts), not the map.
const skipped = (name: string) => SKIP.has(name) || name.startsWith('.');

function checkoutFiles(): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d)) {
      if (skipped(e)) continue;
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(REPO_ROOT, p).split('\\').join('/'));
    }
  };
  walk(REPO_ROOT);
  return out;
}

/** A source file name in prose: `lsp/server.ts`, `engineCalls.ts`; not a glob (`*.test.ts`) nor a URL part. */
const NAME = /(?<![\w./*-])((?:[\w-]+\/)*[\w-][\w.-]*\.(?:ts|mjs|cjs))(?![\w/])/g;

/** The names in a text that no file has. */
export function danglingNames(text: string, files: readonly string[]): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(NAME)) {
    const name = m[1];
    if (files.some((f) => f === name || f.endsWith(`/${name}`))) continue;
    // Without the shared folder (a fresh clone) its names cannot be checked (CI has it: needsShared throws there).
    if (name.startsWith('shared/') && (needsShared() || existsSync(join(sharedDir(), name.slice('shared/'.length))))) continue;
    out.push(name);
  }
  return out;
}

/** The comments of a source file (line and block comments; enough for names in prose). */
function comments(text: string): string {
  return [...text.matchAll(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g)].map((m) => m[0]).join('\n');
}

test('every file named in ARCHITECTURE.md, README.md and comments exists', () => {
  const files = checkoutFiles();
  const dangling: string[] = [];
  for (const doc of ['ARCHITECTURE.md', 'README.md']) for (const n of danglingNames(readFileSync(join(REPO_ROOT, doc), 'utf8'), files)) dangling.push(`${doc}: ${n}`);
  for (const f of files.filter((f) => /\.(ts|mjs|cjs)$/.test(f) && !f.endsWith('.d.ts'))) {
    for (const n of danglingNames(comments(readFileSync(join(REPO_ROOT, f), 'utf8')), files)) dangling.push(`${f}: ${n}`);
  }
  assert.deepEqual(dangling, []);
});

test('a planted pointer to a file that does not exist is found; globs and real names are not', () => {
  const files = ['server/src/lsp/server.ts', 'server/src/service/engineCalls.ts'];
  assert.deepEqual(danglingNames('see lsp/server.ts and engineCalls.ts, and service/gone.ts', files), ['service/gone.ts']);
  assert.deepEqual(danglingNames('runs every *.test.ts file (https://example.com/a.ts is part of a URL) beside lsp/server.ts', files), []);
});
