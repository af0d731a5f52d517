/**
 * Every CustomResourceDefinition published by real projects (shared/realworld/crds) is accepted by real
 * API servers, so CRD validation must report no error for any of them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { validateCustomResourceDefinition } from '../../server/src/engine/crd/validation';
import { errorMessage } from '../../server/src/engine/field';
import { needsShared, sharedPath } from '../shared';

const ROOT = sharedPath('realworld', 'crds');
// The large CRDs (over 100 kB, up to 3 MB) take most of the time; they run only with CRD_YAML_REALWORLD=all.
const MAX_BYTES = process.env.CRD_YAML_REALWORLD === 'all' ? Infinity : 100_000;

function yamlFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of fs.readdirSync(dir).sort()) {
    const p = path.join(dir, e);
    if (fs.statSync(p).isDirectory()) out.push(...yamlFiles(p));
    else if (/\.ya?ml$/.test(e)) out.push(p);
  }
  return out;
}

test('real-world CRDs validate without errors', { skip: needsShared('realworld', 'crds') }, () => {
  const failures: string[] = [];
  let count = 0;
  for (const file of yamlFiles(ROOT)) {
    if (fs.statSync(file).size > MAX_BYTES) continue;
    for (const doc of parseAllDocuments(fs.readFileSync(file, 'utf8'))) {
      const crd = doc.toJS({ maxAliasCount: -1 }) as { kind?: string } | null;
      if (crd?.kind !== 'CustomResourceDefinition') continue;
      count++;
      const errors = validateCustomResourceDefinition(crd).filter((e) => (e.severity ?? 'error') === 'error');
      for (const e of errors) failures.push(`${path.relative(ROOT, file)}: ${errorMessage(e).slice(0, 300)}`);
    }
  }
  assert.ok(count > 50, `expected the real-world corpus, found ${count} CRDs`);
  assert.deepEqual(failures, []);
});
