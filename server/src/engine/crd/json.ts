/**
 * apiequality.Semantic.DeepEqual on decoded JSON (empty lists/maps equal absent), as CRD validation
 * compares the stored and the new object. The JSON value helpers themselves are in json/values.ts.
 */
import { IntegralFloat } from '../json/lossless';
import { isJSONObject } from '../json/values';
import { memoPair } from '../field/memo';

function isEmptyish(v: unknown): boolean {
  return v === undefined || v === null || (Array.isArray(v) && v.length === 0);
}

/**
 * Semantic.DeepEqual over decoded JSON: absent, null and empty lists are equal (Go nil vs empty slices);
 * ints and floats stay apart (Go int64 vs float64 after decoding).
 */
export function semanticDeepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // Objects compared before (per-version schemas of an edited CRD share their unchanged subtrees).
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) return memoPair('crd.semanticDeepEqual', a, b, () => deepEqualNodes(a, b));
  return deepEqualNodes(a, b);
}

function deepEqualNodes(a: unknown, b: unknown): boolean {
  if (isEmptyish(a) && isEmptyish(b)) return true;
  if (a instanceof IntegralFloat || b instanceof IntegralFloat) {
    return a instanceof IntegralFloat && b instanceof IntegralFloat && a.value === b.value;
  }
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
    if (typeof a === 'number' && typeof b === 'number') return a === b;
    try {
      return BigInt(a) === BigInt(b);
    } catch {
      return false;
    }
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => semanticDeepEqual(x, b[i]));
  }
  if (isJSONObject(a) && isJSONObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!semanticDeepEqual(a[k], b[k])) return false;
    return true;
  }
  return a === b;
}
