/**
 * The guard rails of `npm test` catch what they are for: a planted function over the length limit fails
 * `npm run lint` (biome.jsonc: noExcessiveLinesPerFunction, 150 lines), one under it passes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../shared';

const BIOME = join(REPO_ROOT, 'node_modules', '@biomejs', 'biome', 'bin', 'biome');

/** Lints one planted file with the project's configuration (inside the checkout, so biome.jsonc applies). */
function lint(file: string, text: string): { status: number | null; out: string } {
  const dir = mkdtempSync(join(REPO_ROOT, '.planted-'));
  try {
    writeFileSync(join(dir, file), text);
    const r = spawnSync(process.execPath, [BIOME, 'lint', '--error-on-warnings', join(dir, file)], { cwd: REPO_ROOT, encoding: 'utf8' });
    return { status: r.status, out: r.stdout + r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const fn = (lines: number) => `export function f(): number {\n  let x = 0;\n${'  x++;\n'.repeat(lines)}  return x;\n}\n`;

test('a function over 150 lines fails the lint; one of 100 lines passes', () => {
  const long = lint('long.ts', fn(160));
  assert.notEqual(long.status, 0);
  assert.match(long.out, /noExcessiveLinesPerFunction/);
  const short = lint('short.ts', fn(100));
  assert.equal(short.status, 0, short.out);
});
