/**
 * cel-go ext.Sets (Kubernetes base env 1.29): sets.contains, sets.equivalent, sets.intersects, with
 * CEL heterogeneous equality (so [1] contains [dyn(1.0)]).
 */
import type { Environment } from '@marcbachmann/cel-js';
import { celEquals } from './compare';
import { chargeCost } from './guard';

class SetsNamespace {}

function has(l: unknown[], v: unknown): boolean {
  return l.some((x) => celEquals(x, v));
}

function contains(a: unknown, b: unknown): boolean {
  const x = Array.from(a as unknown[]);
  const y = Array.from(b as unknown[]);
  chargeCost(x.length * y.length);
  return y.every((e) => has(x, e));
}

/** Registers the sets library. */
export function installSets(env: Environment): void {
  const f = (sig: string, h: (...a: never[]) => unknown) => env.registerFunction(sig, h as (...a: unknown[]) => unknown);
  env.registerType('SetsNamespace', SetsNamespace);
  env.registerConstant('sets', 'SetsNamespace', new SetsNamespace());
  f('SetsNamespace.contains(list, list): bool', (_n: unknown, a: unknown, b: unknown) => contains(a, b));
  f('SetsNamespace.equivalent(list, list): bool', (_n: unknown, a: unknown, b: unknown) => contains(a, b) && contains(b, a));
  f('SetsNamespace.intersects(list, list): bool', (_n: unknown, a: unknown, b: unknown) => {
    const x = Array.from(a as unknown[]);
    const y = Array.from(b as unknown[]);
    chargeCost(x.length * y.length);
    return y.some((e) => has(x, e));
  });
}
