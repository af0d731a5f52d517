/**
 * Every answer and notification the server sends goes through JSON.stringify (vscode-jsonrpc). The
 * engine's values are lossless JSON: integers beyond 2^53 are bigints ("Do not know how to serialize a
 * BigInt") and integral floats are IntegralFloat objects. jsonSafe turns them into JSON: a bigint within
 * the safe range becomes a number, beyond it a string of its exact digits (the preview's `yaml` text keeps
 * the number as written); an IntegralFloat its number. Workers apply it before posting, so the main thread
 * forwards answers untouched.
 */
import { IntegralFloat } from '../engine';

/** A copy of `v` that JSON.stringify accepts and that keeps every other value as is. */
export function jsonSafe<T>(v: T): T {
  return convert(v, 0) as T;
}

const MAX_DEPTH = 10_000;

function convert(v: unknown, depth: number): unknown {
  if (typeof v === 'bigint') return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (v === null || typeof v !== 'object') return typeof v === 'function' || typeof v === 'symbol' ? undefined : v;
  if (v instanceof IntegralFloat) return v.value;
  if (depth > MAX_DEPTH) return null;
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const c = convert(v[i], depth + 1);
      if (c !== v[i] && !out) out = v.slice(0, i);
      if (out) out.push(c === undefined ? null : c);
    }
    return out ?? v;
  }
  let out: Record<string, unknown> | undefined;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const c = convert(o[k], depth + 1);
    if (c !== o[k] && !out) {
      out = {};
      for (let j = 0; j < i; j++) out[keys[j]] = o[keys[j]];
    }
    if (out && c !== undefined) out[k] = c;
  }
  return out ?? v;
}
