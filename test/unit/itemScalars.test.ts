/**
 * The line-by-line finder of validation rules (yaml/itemScalars.ts, for the highlighting of CEL) against
 * the full parse: on every real CRD with rules, it finds the same rule and messageExpression strings.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ItemScalarScan, parseYamlDocuments, scalarSourceValue } from '../../server/src/yaml';
import { needsShared, sharedPath, yamlFilesUnder } from '../shared';

const CRDS = sharedPath('realworld', 'crds');
const KEYS = new Set(['rule', 'messageExpression']);

/** The rule and messageExpression strings of every x-kubernetes-validations item under `v`. */
function parsedRules(v: unknown, out: string[] = []): string[] {
  if (Array.isArray(v)) for (const x of v) parsedRules(x, out);
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (k === 'x-kubernetes-validations' && Array.isArray(x)) {
        for (const item of x) for (const key of KEYS) if (typeof item?.[key] === 'string') out.push(item[key]);
      }
      parsedRules(x, out);
    }
  }
  return out;
}

test('on every real CRD with rules, the scan finds the rules the full parse reads', { skip: needsShared('realworld', 'crds') }, () => {
  let checked = 0;
  let rules = 0;
  for (const f of yamlFilesUnder(CRDS)) {
    const text = readFileSync(f, 'utf8');
    if (!text.includes('x-kubernetes-validations')) continue;
    const expected = parseYamlDocuments(text).documents.flatMap((d) => parsedRules(d.value));
    const found = new ItemScalarScan(text, 'x-kubernetes-validations', KEYS).all().map((s) => scalarSourceValue(text.slice(s.start, s.end)));
    // The parse reads one item's keys in its own order; both sorted.
    assert.deepEqual([...found].sort(), [...expected].sort(), f);
    checked++;
    rules += expected.length;
  }
  assert.ok(checked >= 10 && rules >= 100, `${checked} files, ${rules} rules`);
});
