/**
 * CEL part of the bench (`npm run bench`, or alone: `npm run bench:cel`): for the x-kubernetes-validations
 * rules of every real CRD under shared/realworld/crds,
 *  - compile time: type-check + cost estimation of every rule through the entry point CRD validation uses
 *    (validateCustomResourceDefinitionValidation, which also runs the schema's structural checks first),
 *    cold (fresh schema objects, so no per-schema cache is hit);
 *  - evaluation time: validateCelRules (the CR create path) on every realworld sample of that CRD version
 *    and on a minimal object synthesized from its schema, each rule evaluation timed on its own.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { FieldPath } from '../server/src/engine/field';
import { validateCustomResourceDefinitionValidation } from '../server/src/engine/crd/schema';
import { validateCelRules, type RuleEvaluation } from '../server/src/engine/schema/cel/validator';
import type { JSONSchemaProps } from '../server/src/engine/schema/types';
import { yamlFiles } from './fixtures';

function yamlDocs(file: string): unknown[] {
  const out: unknown[] = [];
  for (const d of parseAllDocuments(fs.readFileSync(file, 'utf8'))) {
    try {
      out.push(d.toJS({ maxAliasCount: 1000 }));
    } catch {
      /* a sample with YAML errors: not an object to evaluate */
    }
  }
  return out;
}

/** Rules anywhere in a schema (properties, items, additionalProperties, allOf/anyOf/oneOf/not). */
function countRules(s: unknown): number {
  if (!s || typeof s !== 'object') return 0;
  if (Array.isArray(s)) return s.reduce((a: number, x) => a + countRules(x), 0);
  let n = 0;
  for (const [k, v] of Object.entries(s as Record<string, unknown>)) {
    if (k === 'x-kubernetes-validations') n += Array.isArray(v) ? v.length : 0;
    else if (k !== 'default' && k !== 'example' && k !== 'enum') n += countRules(v);
  }
  return n;
}

interface CrdVersion {
  file: string;
  group: string;
  version: string;
  kind: string;
  storage: boolean;
  schema: JSONSchemaProps;
  rules: number;
}

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * A small object that satisfies the schema's structure: required fields, defaults, enums, minimums.
 * full: every property and one item per list too (down to a depth), so most rules have a value to run on.
 */
export function minimalObject(s: JSONSchemaProps | undefined, depth = 0, full = false): unknown {
  if (!s || typeof s !== 'object' || depth > (full ? 12 : 40)) return undefined;
  if (s.default !== undefined) return structuredClone(s.default);
  if (Array.isArray(s.enum) && s.enum.length > 0) return structuredClone(s.enum[0]);
  if (s['x-kubernetes-int-or-string'] === true) return 1;
  switch (s.type) {
    case 'object': {
      const o: Obj = {};
      const props = s.properties ?? {};
      for (const r of Array.isArray(s.required) ? s.required : []) {
        const v = minimalObject(props[r], depth + 1, full);
        if (v !== undefined) o[r] = v;
      }
      const min = full ? Infinity : typeof s.minProperties === 'number' ? s.minProperties : 0;
      for (const [k, p] of Object.entries(props)) {
        if (Object.keys(o).length >= min) break;
        if (k in o) continue;
        const v = minimalObject(p, depth + 1, full);
        if (v !== undefined) o[k] = v;
      }
      return o;
    }
    case 'array': {
      const n = Math.max(full ? 1 : 0, typeof s.minItems === 'number' ? Math.min(s.minItems, 5) : 0);
      const items = isObj(s.items) ? (s.items as JSONSchemaProps) : undefined;
      return Array.from({ length: n }, () => minimalObject(items, depth + 1, full)).filter((x) => x !== undefined);
    }
    case 'string':
      switch (s.format) {
        case 'date-time':
          return '2026-01-01T00:00:00Z';
        case 'date':
          return '2026-01-01';
        case 'duration':
          return '1s';
        case 'byte':
          return '';
      }
      return 'a'.repeat(Math.max(1, typeof s.minLength === 'number' ? s.minLength : 1));
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum + (s.exclusiveMinimum === true ? 1 : 0) : 1;
    case 'boolean':
      return false;
  }
  return undefined;
}

function loadCrds(dir: string): CrdVersion[] {
  const out: CrdVersion[] = [];
  for (const f of yamlFiles(dir)) {
    for (const o of yamlDocs(f)) {
      if (!isObj(o) || o.kind !== 'CustomResourceDefinition' || !isObj(o.spec)) continue;
      const spec = o.spec as Obj;
      const group = String(spec.group ?? '');
      const kind = String((spec.names as Obj | undefined)?.kind ?? '');
      for (const v of Array.isArray(spec.versions) ? (spec.versions as Obj[]) : []) {
        const schema = (v.schema as Obj | undefined)?.openAPIV3Schema as JSONSchemaProps | undefined;
        const rules = countRules(schema);
        if (schema && rules > 0) out.push({ file: path.relative(dir, f), group, version: String(v.name), kind, storage: v.storage === true, schema, rules });
      }
    }
  }
  return out;
}

function loadSamples(dir: string): Map<string, Obj[]> {
  const out = new Map<string, Obj[]>();
  if (!fs.existsSync(dir)) return out;
  for (const f of yamlFiles(dir)) {
    for (const o of yamlDocs(f)) {
      if (!isObj(o) || typeof o.apiVersion !== 'string' || typeof o.kind !== 'string') continue;
      const k = `${o.apiVersion}|${o.kind}`;
      out.set(k, [...(out.get(k) ?? []), o]);
    }
  }
  return out;
}

const quantile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : 0);
const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;

/** Runs the CEL benchmark and prints its report; returns the headline numbers. */
export function celBenchmark(crdsDir: string, samplesDir = path.join(path.dirname(crdsDir), 'samples')) {
  const versions = loadCrds(crdsDir);
  const total = versions.reduce((a, s) => a + s.rules, 0);
  const crdCount = new Set(versions.map((v) => `${v.file}|${v.group}|${v.kind}`)).size;
  const storageRules = versions.filter((v) => v.storage).reduce((a, s) => a + s.rules, 0);
  const distinct = new Set<string>();
  const seenSchemas = new Set<string>();
  let dedupRules = 0;
  for (const v of versions) {
    const k = `${v.file}|${v.kind}|${JSON.stringify(v.schema)}`;
    if (!seenSchemas.has(k)) {
      seenSchemas.add(k);
      dedupRules += v.rules;
    }
    const walk = (s: unknown): void => {
      if (!s || typeof s !== 'object') return;
      if (Array.isArray(s)) return s.forEach(walk);
      for (const [kk, vv] of Object.entries(s as Obj)) {
        if (kk === 'x-kubernetes-validations' && Array.isArray(vv)) for (const r of vv) distinct.add(String((r as Obj)?.rule));
        else if (kk !== 'default' && kk !== 'example' && kk !== 'enum') walk(vv);
      }
    };
    walk(v.schema);
  }
  console.log(
    `cel: ${total} rule instances in ${versions.length} versions of ${crdCount} CRDs ` +
      `(${storageRules} in storage versions, ${dedupRules} after merging identical version schemas, ${distinct.size} distinct rule texts)`,
  );

  // Compile: type-check + cost estimate (per rule, per CRD), cold.
  const times: number[] = [];
  let compileErrors = 0;
  for (let round = 0; round < 3; round++) {
    const copies = versions.map((s) => structuredClone(s.schema));
    const t0 = performance.now();
    let n = 0;
    for (const c of copies) n += validateCustomResourceDefinitionValidation({ openAPIV3Schema: c }, false, FieldPath.root('spec', 'validation')).length;
    times.push(performance.now() - t0);
    compileErrors = n;
  }
  times.sort((a, b) => a - b);
  const compileMs = times[1];
  console.log(`cel compile: all ${total} rules in ${compileMs.toFixed(1)} ms (median of 3 cold runs), ${us(compileMs / Math.max(1, total))}/rule; ${compileErrors} errors reported`);

  // Evaluation: samples of each version plus a synthesized minimal object, each rule timed.
  const samples = loadSamples(samplesDir);
  const evals: (RuleEvaluation & { where: string })[] = [];
  let objects = 0;
  let sampleObjects = 0;
  let failures = 0;
  let objectMs = 0;
  for (const v of versions) {
    const own = samples.get(`${v.group}/${v.version}|${v.kind}`) ?? [];
    const head = { apiVersion: `${v.group}/${v.version}`, kind: v.kind, metadata: { name: 'bench', namespace: 'default' } };
    const minimal = Object.assign(minimalObject(v.schema) as Obj, head);
    const full = Object.assign(minimalObject(v.schema, 0, true) as Obj, head);
    const label = new Map<Obj, string>([
      [minimal, ' (minimal)'],
      [full, ' (all fields)'],
    ]);
    for (const obj of [...own, minimal, full]) {
      objects++;
      if (!label.has(obj)) sampleObjects++;
      // Warm-up: the runtime programs are compiled once per schema node and cached.
      validateCelRules(v.schema, obj, { isResourceRoot: true });
      const where = `${v.file} ${v.kind} ${v.version}${label.get(obj) ?? ''}`;
      // Best of 3 per evaluation (the same rules run in the same order): this machine is shared.
      let best: RuleEvaluation[] | undefined;
      for (let run = 0; run < 3; run++) {
        const seen: RuleEvaluation[] = [];
        const t0 = performance.now();
        const n = validateCelRules(v.schema, obj, { isResourceRoot: true, observe: (e) => seen.push(e) }).length;
        const dt = performance.now() - t0;
        if (!best) {
          best = seen;
          failures += n;
          objectMs += dt;
        } else if (seen.length === best.length) best = best.map((e, i) => (seen[i].ms < e.ms ? seen[i] : e));
      }
      for (const e of best ?? []) evals.push({ ...e, where });
    }
  }
  const ms = evals.map((e) => e.ms).sort((a, b) => a - b);
  const evalTotal = ms.reduce((a, b) => a + b, 0);
  const stopped = evals.filter((e) => e.error && /cost limit|deadline|cost budget/.test(e.error)).length;
  const ruled = new Set(evals.map((e) => `${e.where}|${e.path}|${e.rule.rule}`)).size;
  console.log(
    `cel evaluate: ${evals.length} rule evaluations (${ruled} rule/node pairs) on ${objects} objects (${sampleObjects} realworld samples, ${2 * versions.length} synthesized: minimal and all-fields): ` +
      `${evalTotal.toFixed(1)} ms in evaluation (best of 3), ${objectMs.toFixed(1)} ms in validateCelRules (first timed run, with value conversion); ` +
      `per evaluation median ${us(quantile(ms, 0.5))}, p95 ${us(quantile(ms, 0.95))}, max ${us(ms[ms.length - 1] ?? 0)}; ` +
      `${failures} failures reported, ${stopped} stopped by a limit`,
  );
  const slowest = [...evals].sort((a, b) => b.ms - a.ms).slice(0, 8);
  console.log('cel slowest evaluations:');
  for (const e of slowest) {
    const rule = String(e.rule.rule).replace(/\s+/g, ' ');
    console.log(`  ${us(e.ms).padStart(10)}  cost ${String(e.cost).padStart(5)}  ${e.where} ${e.path}: ${rule.length > 90 ? rule.slice(0, 87) + '...' : rule}`);
  }
  return { rules: total, compileMs, evaluations: evals.length, evalMedianUs: quantile(ms, 0.5) * 1000, evalP95Us: quantile(ms, 0.95) * 1000 };
}

if (require.main === module) {
  celBenchmark(path.resolve(__dirname, '..', '..', 'shared', 'realworld', 'crds'));
}
