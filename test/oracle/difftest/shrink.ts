/**
 * Minimises a disagreeing case: greedily removes object keys and array elements (and whole optional
 * inputs such as oldObject) while the engine and the oracle still disagree in the same way.
 */
import { IntegralFloat } from '../../../server/src/engine/json/lossless';
import { structuredCloneJson } from './generate';

type Json = unknown;

/**
 * Where a case may be cut: a CRD only inside its schemas, an object's apiVersion/kind/metadata are
 * kept, and a validation rule keeps its `rule` (cutting those gives degenerate inputs that the API
 * server rejects before the step under test).
 */
export function mayRemove(field: string, p: (string | number)[]): boolean {
  const last = p[p.length - 1];
  const inRule = p.length >= 3 && p[p.length - 3] === 'x-kubernetes-validations';
  if (inRule && last === 'rule') return false;
  if (field === 'crd' || field === 'oldCrd') return p.length > 5 && p[0] === 'spec' && p[1] === 'versions' && p[3] === 'schema' && p[4] === 'openAPIV3Schema';
  if ((field === 'object' || field === 'oldObject') && p.length === 1 && ['apiVersion', 'kind', 'metadata'].includes(String(last))) return false;
  return true;
}

/** Smaller variants of a case, the biggest reductions first. */
export function* reductions(c: Record<string, Json>): Generator<Record<string, Json>> {
  if ('oldObject' in c) {
    const d = structuredCloneJson(c);
    delete d.oldObject;
    yield d;
  }
  for (const field of ['object', 'oldObject', 'schema', 'crd', 'oldCrd']) {
    if (!(field in c)) continue;
    const paths: (string | number)[][] = [];
    const walk = (v: Json, p: (string | number)[]) => {
      if (v instanceof IntegralFloat || v === null || typeof v !== 'object') return;
      for (const [k, e] of Array.isArray(v) ? v.entries() : Object.entries(v)) {
        paths.push([...p, k]);
        walk(e, [...p, k]);
      }
    };
    walk(c[field], []);
    for (const p of paths) {
      if (!mayRemove(field, p)) continue;
      const d = structuredCloneJson(c);
      let parent = d[field] as Record<string | number, Json>;
      for (const k of p.slice(0, -1)) parent = parent[k] as Record<string | number, Json>;
      const last = p[p.length - 1];
      if (Array.isArray(parent)) parent.splice(last as number, 1);
      else delete parent[last];
      yield d;
    }
  }
}

/**
 * Greedy minimisation. `stillFails` gets a batch of candidates and returns the index of the first
 * that still disagrees (or -1). Stops after `budget` candidate evaluations.
 */
export async function shrink(c: Record<string, Json>, stillFails: (cands: Record<string, Json>[]) => Promise<number>, budget = 400): Promise<Record<string, Json>> {
  let cur = c;
  let spent = 0;
  outer: while (spent < budget) {
    const batch: Record<string, Json>[] = [];
    for (const d of reductions(cur)) {
      batch.push(d);
      if (batch.length === 24) {
        spent += batch.length;
        const i = await stillFails(batch);
        if (i >= 0) {
          cur = batch[i];
          continue outer;
        }
        batch.length = 0;
        if (spent >= budget) break outer;
      }
    }
    if (batch.length === 0) break;
    spent += batch.length;
    const i = await stillFails(batch);
    if (i < 0) break;
    cur = batch[i];
  }
  return cur;
}
