/**
 * How a CEL function is declared: once, with everything every consumer needs. The checker reads the
 * signatures, the interpreter the implementations, the cost estimator and the runtime cost tracker the
 * costs, the environment the availability by Kubernetes version, and the editor features the docs.
 * This mirrors cel-go's `cel.Function(name, cel.Overload(id, args, result, binding))` plus the
 * Kubernetes CostEstimator (apiserver pkg/cel/library/cost.go), which keys costs by function name.
 */
import { T, type CelType } from '../common/types';
import type { Val } from '../runtime/values';
import type { CallEstimate, EstimateNode, EstimatorContext } from '../cost/model';

/** A Kubernetes minor version, e.g. 30 for 1.30. */
export type Minor = number;

/** One overload: cel-go's overload id, signature and binding. */
export interface OverloadDecl {
  /** cel-go's overload id (`add_int64`, `string_contains`, `list_a_index_of_int`): costs are keyed by it. */
  id: string;
  /** Receiver-style (`x.f(y)`): the receiver is params[0]. */
  member: boolean;
  params: CelType[];
  result: CelType;
  /** The implementation; args are never errors unless nonStrict. Throws CelThrow (fail()) for errors. */
  impl?: (...args: Val[]) => Val;
  /** Receives error arguments too (cel-go NonStrict). */
  nonStrict?: boolean;
  /**
   * false: cel-go's DisableTypeGuards — the values of dyn arguments are not checked against the
   * parameter types before the call (the implementation copes, e.g. flatten() of an already flat list).
   */
  typeGuards?: false;
  /** Available from this Kubernetes minor (for the compatibility version of new expressions). */
  since?: Minor;
  /** Removed at this minor. */
  until?: Minor;
}

/** Runtime call cost (cel-go CostTracker.costCall): undefined falls through to cel-go's default. */
export type RuntimeCost = (overloadId: string, args: Val[], result: Val) => number | undefined;

/** Static call cost (EstimateCallCost / FunctionEstimator): undefined falls through to cel-go's default. */
export type StaticCost = (ctx: EstimatorContext, overloadId: string, target: EstimateNode | undefined, args: EstimateNode[]) => CallEstimate | undefined;

/** A function and all its overloads in one library. */
export interface FunctionDecl {
  name: string;
  overloads: OverloadDecl[];
  /** One line for completion and hover. */
  doc: string;
  /** Example calls for docs. */
  examples?: string[];
  estimate?: StaticCost;
  cost?: RuntimeCost;
  /**
   * The runtime cost depends on the arguments only (not the result): when it cannot fit in the budget
   * the call stops with the cost-limit error before doing the work, as it would after it (sort, distinct,
   * sets.*: quadratic work on lists an API server stops by cost).
   */
  costFromArgs?: true;
}

/** A library as the Kubernetes base environment enables it (environment/base.go). */
export interface Library {
  /** cel-go's or Kubernetes' library name (`cel.lib.ext.strings`, `kubernetes.quantity`). */
  name: string;
  /** The Kubernetes minor that added it to the base environment (IntroducedVersion). */
  since: Minor;
  /** The minor that removed it (RemovedVersion). */
  until?: Minor;
  functions: FunctionDecl[];
  /** Names of macros this library brings (for completion and docs). */
  macros?: MacroDecl[];
  /** Opaque types this library brings (`kubernetes.Quantity`), usable as type names. */
  types?: string[];
}

/** A macro as documented for completion (the expansion itself is syntax/parse.ts). */
export interface MacroDecl {
  name: string;
  /** How it is written, e.g. `list.all(x, predicate)`. */
  signature: string;
  doc: string;
  /** Receiver kinds it applies to. */
  receivers: Array<'list' | 'map' | 'optional' | 'global'>;
}

const OPAQUE: Record<string, string> = {
  Quantity: 'kubernetes.Quantity',
  IP: 'net.IP',
  CIDR: 'net.CIDR',
  URL: 'kubernetes.URL',
  Semver: 'kubernetes.Semver',
  Format: 'kubernetes.NamedFormat',
  Authorizer: 'kubernetes.authorization.Authorizer',
  PathCheck: 'kubernetes.authorization.PathCheck',
  GroupCheck: 'kubernetes.authorization.GroupCheck',
  ResourceCheck: 'kubernetes.authorization.ResourceCheck',
  Decision: 'kubernetes.authorization.Decision',
};

/** Parses a type written like `list<A>`, `map<K, V>`, `optional<T>`, `Quantity`, `type<A>`. */
export function parseType(s: string): CelType {
  let i = 0;
  const ws = () => {
    while (s[i] === ' ') i++;
  };
  const ident = () => {
    ws();
    const m = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(s.slice(i));
    if (!m) throw new Error(`bad type ${s}`);
    i += m[0].length;
    return m[0];
  };
  const type = (): CelType => {
    const n = ident();
    ws();
    const args: CelType[] = [];
    if (s[i] === '<') {
      i++;
      args.push(type());
      ws();
      while (s[i] === ',') {
        i++;
        args.push(type());
        ws();
      }
      if (s[i] !== '>') throw new Error(`bad type ${s}`);
      i++;
    }
    switch (n) {
      case 'list':
        return T.list(args[0] ?? T.dyn);
      case 'map':
        return T.map(args[0] ?? T.dyn, args[1] ?? T.dyn);
      case 'optional':
        return T.optional(args[0]);
      case 'type':
        return T.type(args[0] ?? null);
      case 'int':
      case 'uint':
      case 'double':
      case 'bool':
      case 'string':
      case 'bytes':
      case 'timestamp':
      case 'duration':
      case 'dyn':
        return { kind: n } as CelType;
      case 'null':
        return T.null;
      default:
        if (/^[A-Z]$/.test(n)) return T.param(n);
        if (OPAQUE[n]) return T.opaque(OPAQUE[n]);
        throw new Error(`unknown type ${n}`);
    }
  };
  const t = type();
  ws();
  if (i !== s.length) throw new Error(`bad type ${s}`);
  return t;
}

function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const c of s) {
    if (c === '<') depth++;
    if (c === '>') depth--;
    if (c === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/**
 * An overload from its signature: `name(T1, T2): R` (global) or `Recv.name(T1): R` (member; the
 * receiver is a type, e.g. `string.contains(string): bool`, `list<A>.indexOf(A): int`).
 */
export function overload(id: string, signature: string, impl?: (...args: never[]) => Val, extra: Partial<OverloadDecl> = {}): OverloadDecl {
  const m = /^(.*)\((.*)\): (.*)$/.exec(signature);
  if (!m) throw new Error(`bad signature ${signature}`);
  const head = m[1];
  const params = m[2].trim() === '' ? [] : splitTop(m[2]).map(parseType);
  const result = parseType(m[3]);
  // `Recv.name`: Recv is a type when it parses as one and is not a namespace (optional., sets., ...).
  const dot = head.lastIndexOf('.');
  let member = false;
  if (dot > 0) {
    const recv = head.slice(0, dot);
    if (/^[A-Za-z]/.test(recv) && !/^(optional|sets|lists|strings|format|ip|math|cel)$/.test(recv)) {
      member = true;
      params.unshift(parseType(recv));
    }
  }
  return { id, member, params, result, impl: impl as OverloadDecl['impl'], ...extra };
}

/** Declares a function from overload specs `[id, signature, impl?]`. */
export function fn(name: string, doc: string, specs: Array<[string, string, ((...args: never[]) => Val)?, Partial<OverloadDecl>?]>, more: Partial<Omit<FunctionDecl, 'name' | 'doc' | 'overloads'>> = {}): FunctionDecl {
  return { name, doc, overloads: specs.map(([id, sig, impl, extra]) => overload(id, sig, impl, extra)), ...more };
}

/** ceil(size * 0.1): the traversal cost of a string or bytes of that size. */
export function traversal(size: number, factor = 0.1): number {
  return Math.ceil(size * factor);
}
