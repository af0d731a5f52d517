/**
 * CEL part of the bench: compile (type-check + cost) time of the x-kubernetes-validations rules of every
 * real CRD, through the same entry point CRD validation uses.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { FieldPath } from '../server/src/engine/field';
import { validateCrdCelRules } from '../server/src/engine/cel/crd';
import type { JSONSchemaProps } from '../server/src/engine/schema/types';

function* yamlFiles(dir: string): Generator<string> {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* yamlFiles(p);
    else if (/\.ya?ml$/.test(e.name)) yield p;
  }
}

function countRules(s: unknown): number {
  if (!s || typeof s !== 'object') return 0;
  let n = 0;
  const o = s as Record<string, unknown>;
  if (Array.isArray(o['x-kubernetes-validations'])) n += (o['x-kubernetes-validations'] as unknown[]).length;
  for (const [k, v] of Object.entries(o)) if (k !== 'x-kubernetes-validations' && k !== 'default' && k !== 'enum' && k !== 'example') {
    if (Array.isArray(v)) for (const x of v) n += countRules(x);
    else n += countRules(v);
  }
  return n;
}

export function celBenchmark(crdsDir: string): void {
  const schemas: { file: string; schema: JSONSchemaProps; rules: number }[] = [];
  for (const f of yamlFiles(crdsDir)) {
    for (const d of parseAllDocuments(fs.readFileSync(f, 'utf8'))) {
      const o = d.toJS() as any;
      if (o?.kind !== 'CustomResourceDefinition') continue;
      for (const v of o.spec?.versions ?? []) {
        const s = v.schema?.openAPIV3Schema;
        const rules = countRules(s);
        if (s && rules) schemas.push({ file: path.relative(crdsDir, f), schema: s, rules });
      }
    }
  }
  const total = schemas.reduce((a, s) => a + s.rules, 0);
  const times: number[] = [];
  let errors = 0;
  for (let round = 0; round < 3; round++) {
    // Fresh copies each round, so no per-schema cache from an earlier round is hit: cold compiles.
    const copies = schemas.map((s) => structuredClone(s.schema));
    const t0 = performance.now();
    let n = 0;
    for (const c of copies) n += validateCrdCelRules(c, FieldPath.root('spec', 'validation', 'openAPIV3Schema')).length;
    times.push(performance.now() - t0);
    errors = n;
  }
  times.sort((a, b) => a - b);
  console.log(`cel: ${total} rules in ${schemas.length} CRD versions: compile+cost of all, median of 3 cold runs ${times[1].toFixed(1)} ms (${((times[1] * 1000) / Math.max(1, total)).toFixed(1)} µs/rule); ${errors} errors reported`);
}
