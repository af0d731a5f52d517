/**
 * The parts of cel-go's optional library cel-js lacks: optional.ofNonZeroValue, optional.unwrap,
 * list.unwrapOpt, list.first/last; and `value()` with cel-go's "optional.none() dereference" error.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { Optional } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { kindOf } from './convert';
import { fail } from './errors';
import { celEquals } from './compare';

function isZero(v: unknown): boolean {
  switch (kindOf(v)) {
    case 'null': return true;
    case 'int': return v === 0n;
    case 'uint': return (v as UnsignedInt).value === 0n;
    case 'double': return v === 0;
    case 'string': return v === '';
    case 'bool': return v === false;
    case 'bytes': return (v as Uint8Array).length === 0;
    case 'list': return Array.from(v as unknown[]).length === 0;
    case 'map': return v instanceof Map ? v.size === 0 : Object.keys(v as object).length === 0;
    case 'duration': return (v as Duration).seconds === 0n && (v as Duration).nanos === 0;
    case 'timestamp': return (v as Date).getTime() === Date.UTC(1, 0, 1) - 0 || (v as Date).toISOString() === '0001-01-01T00:00:00.000Z';
    default: return false;
  }
}

function unwrap(l: unknown): unknown[] {
  const out: unknown[] = [];
  for (const o of Array.from(l as unknown[])) {
    if (!(o instanceof Optional)) fail('unwrap: list elements must be optionals');
    if (o.hasValue()) out.push(o.value());
  }
  return out;
}

/** Names of cel-js builtins replaced here. */
export const OPTIONAL_OVERRIDES = ['value'];

/** Registers the optional additions. */
export function installOptional(env: Environment): void {
  const f = (sig: string, h: (...a: never[]) => unknown) => env.registerFunction(sig, h as (...a: unknown[]) => unknown);
  f('OptionalNamespace.ofNonZeroValue(A): optional<A>', (_ns: unknown, v: unknown) => (isZero(v) ? Optional.none() : Optional.of(v)));
  f('OptionalNamespace.unwrap(list<optional<A>>): list<A>', (_ns: unknown, l: unknown) => unwrap(l));
  f('list<optional<A>>.unwrapOpt(): list<A>', (l: unknown) => unwrap(l));
  f('list<A>.first(): optional<A>', (l: unknown) => {
    const a = Array.from(l as unknown[]);
    return a.length ? Optional.of(a[0]) : Optional.none();
  });
  f('list<A>.last(): optional<A>', (l: unknown) => {
    const a = Array.from(l as unknown[]);
    return a.length ? Optional.of(a[a.length - 1]) : Optional.none();
  });
  env.registerOperator('optional == optional', (a: unknown, b: unknown) => celEquals(a, b));
  f('optional<A>.value__k8s(): dyn', (o: Optional) => {
    if (!o.hasValue()) fail('optional.none() dereference');
    return o.value();
  });
}
