/**
 * The Kubernetes CEL environment: cel-js configured as the API server's base environment
 * (k8s.io/apiserver/pkg/cel/environment/base.go) plus the Kubernetes and cel-go extension libraries.
 *
 * Why a factory: cel-js freezes an Environment once it is cloned, so we build one base environment per
 * compatibility version (expensive: hundreds of overloads) and hand out cheap clones that callers extend
 * with their own declarations (`self`, `oldSelf`, object types from the schema).
 */
import { Environment } from '@marcbachmann/cel-js';
import { Duration } from '@marcbachmann/cel-js/evaluator';
import { CelRuntimeError, invalidDataOf } from './lib/errors';
import { installKubernetesLibraries, INTERNAL_SUFFIX, OVERRIDDEN_FUNCTIONS } from './lib';
import { validateLiterals } from './lib/literals';
import { celGoType, validateHomogeneousLiterals } from './lib/homogeneous';
import { rewriteOptionalLiterals } from './lib/optional-literals';
import { rewriteHasMacros } from './lib/has-macro';
import { budgetExceeded, chargeCost, chargeWork, CostLimitExceeded, DEFAULT_TIMEOUT_MS, NODE_WORK, PER_CALL_LIMIT, withBudget, type CostMeter } from './lib/guard';
import { instrumentNode } from './lib/actualcost';

export { PER_CALL_LIMIT, DEFAULT_TIMEOUT_MS, CostLimitExceeded } from './lib/guard';

/** Kubernetes versions whose base environment we model; rules on CRD create compile at the min-compat version. */
export type CompatibilityVersion = '1.36' | '1.37';

/** The API server's DefaultCompatibilityVersion() for a 1.37 binary: new CRD rules compile here. */
export const DEFAULT_COMPATIBILITY_VERSION: CompatibilityVersion = '1.36';

export interface KubernetesEnvironmentOptions {
  /**
   * Which library set is visible. '1.36' = NewExpressions env of a 1.37 server (no `includes`);
   * '1.37' = StoredExpressions env (adds lists `includes`). Default DEFAULT_COMPATIBILITY_VERSION.
   */
  compatibilityVersion?: CompatibilityVersion;
  /** Accept undeclared identifiers as dyn (bare-expression evaluation); default false. */
  unlistedVariablesAreDyn?: boolean;
}

const bases = new Map<string, Environment>();

function baseEnvironment(version: CompatibilityVersion): Environment {
  let env = bases.get(version);
  if (!env) {
    env = new Environment({
      unlistedVariablesAreDyn: false,
      // base.go: HomogeneousAggregateLiterals + OptionalTypes (1.28).
      homogeneousAggregateLiterals: false,
      enableOptionalTypes: true,
      limits: { maxAstNodes: 100000, maxDepth: 250, maxListElements: 100000, maxMapEntries: 100000, maxCallArguments: 32 },
    });
    installKubernetesLibraries(env, { compatibilityVersion: version });
    bases.set(version, env);
  }
  return env;
}

/**
 * The source rewrites applied before cel-js parses an expression, for syntax cel-go accepts and cel-js'
 * parser/macros do not: optional entries in list/map literals (`[?x]`, `{?'k': v}`) and `has()` on a
 * select whose operand is not an identifier chain (`has(self[0].f)`). A checker that parses rules
 * itself can apply the same rewrite so both sides accept the same language.
 */
export function prepareSource(expr: string): string {
  return rewriteHasMacros(rewriteOptionalLiterals(expr));
}

/**
 * A fresh, extensible cel-js Environment with the Kubernetes base environment for the given compatibility
 * version: standard library, optionals, Kubernetes libraries (lists, regex, urls, quantity, ip, cidr,
 * format, semver) and cel-go extensions (strings v2, sets, lists v3, two-variable comprehensions).
 * Callers add variables/types with registerVariable/registerType on the returned clone; the shared base
 * stays untouched. Compile with `compileExpression` and run with `evaluateWithLimits` (not env.parse /
 * env.evaluate directly): they add the source rewrites, the call renaming to our cel-go-faithful
 * builtins, the homogeneous-literal check, literal validation, the cost/time guard and cel-go wording.
 */
export function createKubernetesEnvironment(opts: KubernetesEnvironmentOptions = {}): Environment {
  const base = baseEnvironment(opts.compatibilityVersion ?? DEFAULT_COMPATIBILITY_VERSION);
  return base.clone({
    unlistedVariablesAreDyn: opts.unlistedVariablesAreDyn ?? false,
    // Checked by us after type-checking (lib/homogeneous.ts) so format() arguments can be exempt.
    homogeneousAggregateLiterals: false,
    enableOptionalTypes: true,
  });
}

/** One AST node as cel-js builds it (only what our passes touch). */
interface CelNode {
  op: string;
  args: unknown;
  evaluate: (ev: unknown, ast: CelNode, ctx: unknown) => unknown;
  checkedType?: { name: string };
}

/** A parsed and type-checked expression, ready to run under the guard. */
export interface CelProgram {
  /** The expression's checked type as cel-js names it (`bool`, `list<string>`, `dyn`, ...). */
  type: string;
  /** The root AST node (for callers that walk it, e.g. cost estimation). */
  ast: unknown;
  /** Runs the program (prefer evaluateWithLimits: this one has no guard of its own). */
  run(ctx: Record<string, unknown>): unknown;
}

export type CompileResult =
  | { ok: true; program: CelProgram }
  | { ok: false; error: string; kind: 'parse' | 'check' };

function isNode(x: unknown): x is CelNode {
  return typeof x === 'object' && x !== null && typeof (x as CelNode).op === 'string' && 'args' in (x as object);
}

/** Visits every AST node below (and including) root, parents first. */
export function walkAst(root: unknown, visit: (n: CelNode) => void): void {
  const seen = new Set<unknown>();
  const go = (x: unknown): void => {
    if (x === null || typeof x !== 'object' || seen.has(x)) return;
    seen.add(x);
    if (isNode(x)) {
      visit(x);
      go(x.args);
      return;
    }
    if (Array.isArray(x)) for (const y of x) go(y);
    else if (Object.getPrototypeOf(x) === Object.prototype) for (const y of Object.values(x)) go(y);
  };
  go(root);
}

const ARITHMETIC = new Set(['+', '-', '*', '/', '-_']);
const MAX_INT = 9223372036854775807n;
const MIN_INT = -9223372036854775808n;
const MIN_TS = Date.UTC(1, 0, 1) - 0;
const MAX_TS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
const MAX_DURATION_SECONDS = 9223372036n; // int64 nanoseconds, as cel-go's durations

/**
 * cel-go's range checks on arithmetic results that cel-js leaves unchecked: int64 (MinInt / -1,
 * -MinInt), timestamps within years 1..9999, durations within int64 nanoseconds.
 */
function checkArithmeticResult(v: unknown): unknown {
  if (typeof v === 'bigint') {
    if (v > MAX_INT || v < MIN_INT) throw new CelRuntimeError('integer overflow');
  } else if (v instanceof Date) {
    const t = v.getTime();
    if (!(t >= MIN_TS && t <= MAX_TS)) throw new CelRuntimeError('timestamp overflow');
  } else if (v instanceof Duration) {
    if (v.seconds > MAX_DURATION_SECONDS || v.seconds < -MAX_DURATION_SECONDS) throw new CelRuntimeError('duration overflow');
  }
  return v;
}

const PATCHED = Symbol('k8sGuardPatched');

/**
 * cel-js' all/exists loops run each step through `ev.tryEval`, which turns any throw into a value
 * and keeps iterating; once our budget is spent that would walk the rest of every list. We give the
 * (per-Environment) evaluator an own tryEval that rethrows the limit error, so evaluation unwinds at once.
 */
function patchEvaluator(ev: unknown): void {
  const e = ev as {
    tryEval?: (ast: unknown, ctx: unknown) => unknown;
    debugTypeDeep?: (v: unknown) => unknown;
    getType?: (name: string) => unknown;
    [PATCHED]?: boolean;
  };
  if (!e || e[PATCHED] || typeof e.tryEval !== 'function') return;
  const orig = e.tryEval;
  e.tryEval = function (ast: unknown, ctx: unknown) {
    const r = orig.call(this, ast, ctx);
    const ex = budgetExceeded();
    if (ex) throw ex;
    return r;
  };
  // To pick an overload for dyn arguments cel-js inspects the first element of lists and maps. A value
  // the CEL conversion could not type (invalid data) is an error only when used, as in cel-go: to that
  // inspection it is of type dyn.
  const deep = e.debugTypeDeep;
  if (typeof deep === 'function' && typeof e.getType === 'function') {
    e.debugTypeDeep = function (v: unknown) {
      return invalidDataOf(v) !== undefined ? this.getType!('dyn') : deep.call(this, v);
    };
  }
  e[PATCHED] = true;
}

/** Renames calls of overridden builtins to our implementations and wraps every node with the cost tick. */
function prepareAst(root: unknown): void {
  walkAst(root, (n) => {
    if ((n.op === 'call' || n.op === 'rcall') && Array.isArray(n.args) && typeof n.args[0] === 'string') {
      if (OVERRIDDEN_FUNCTIONS.has(n.args[0])) n.args[0] = n.args[0] + INTERNAL_SUFFIX;
    }
    const node = n;
    const check = ARITHMETIC.has(n.op) ? checkArithmeticResult : undefined;
    let resolved: CelNode['evaluate'] | undefined;
    const proto = Object.getPrototypeOf(node).evaluate as CelNode['evaluate'];
    const wrapper: CelNode['evaluate'] = function (ev, ast, ctx) {
      chargeCost(1, NODE_WORK);
      patchEvaluator(ev);
      let out: unknown;
      if (resolved) out = resolved.call(node, ev, ast, ctx);
      else {
        // cel-js resolves (macro/alternate/op) on first call and caches it on the node; keep that, re-wrap.
        out = proto.call(node, ev, ast, ctx);
        resolved = node.evaluate === wrapper ? undefined : node.evaluate;
        node.evaluate = wrapper;
      }
      // Big values took (or will take, when flattened) time to build: read the clock sooner.
      if (typeof out === 'string') {
        if (out.length > 4096) chargeWork(out.length >> 6);
      } else if (Array.isArray(out) && out.length > 1024) chargeWork(out.length >> 2);
      return check ? check(out) : out;
    };
    node.evaluate = wrapper;
  });
}

/**
 * Parses and type-checks expr in env (Kubernetes AST validators included: duration/timestamp/regex
 * literals), returning a program or the compile error in cel-go's wording.
 */
export function compileExpression(env: Environment, expr: string): CompileResult {
  let parsed: ReturnType<Environment['parse']>;
  try {
    parsed = env.parse(prepareSource(expr));
  } catch (e) {
    return { ok: false, error: celErrorMessage(e), kind: 'parse' };
  }
  try {
    prepareAst(parsed.ast);
    const checked = parsed.check();
    if (!checked.valid) return { ok: false, error: undeclaredFunction(env, celErrorMessage(checked.error)), kind: 'check' };
    const literalError = validateHomogeneousLiterals(parsed.ast) ?? validateLiterals(parsed.ast);
    if (literalError) return { ok: false, error: literalError, kind: 'check' };
    // The checker has set each node's handler; charge cel-go's size-dependent costs around them.
    walkAst(parsed.ast, (n) => instrumentNode(n as unknown as Parameters<typeof instrumentNode>[0]));
    return {
      ok: true,
      program: { type: String(checked.type), ast: parsed.ast, run: (ctx) => parsed(ctx) },
    };
  } catch (e) {
    return { ok: false, error: celErrorMessage(e), kind: 'check' };
  }
}

const functionNames = new WeakMap<Environment, Set<string>>();

/** cel-go says "undeclared reference" when no overload of that name exists at all. */
function undeclaredFunction(env: Environment, msg: string): string {
  const m = /^found no matching overload for '(\w+)' applied/.exec(msg);
  if (!m) return msg;
  let names = functionNames.get(env);
  if (!names) {
    names = new Set<string>();
    for (const f of (env.getDefinitions() as { functions: { name: string }[] }).functions) names.add(f.name.split(INTERNAL_SUFFIX).join(''));
    functionNames.set(env, names);
  }
  return names.has(m[1]) ? msg : `undeclared reference to '${m[1]}' (in container '')`;
}

export interface EvaluationLimits {
  /** Cost units (≈ evaluated nodes plus sizes of built values); default PER_CALL_LIMIT. */
  costLimit?: number;
  /**
   * Wall-clock backstop in ms; default DEFAULT_TIMEOUT_MS (50). The clock is read every few thousand
   * work units and inside long library loops (regex, split, ...), so an evaluation ends within a few
   * ms of it.
   */
  timeoutMs?: number;
}

/**
 * `cost` is the cost spent (cel-go's ActualCost; on a limit error, what was spent up to the stop).
 * kind 'limit': the cost limit was exceeded; 'timeout': the deadline passed (cel-go's interrupt wording).
 */
export type EvaluationResult =
  | { value: unknown; cost: number }
  | { error: string; kind: 'parse' | 'check' | 'runtime' | 'limit' | 'timeout'; cost: number };

/**
 * Compiles (if given a string) and evaluates under the cost budget and wall-clock deadline.
 * Never throws: every failure comes back as `{error}` with cel-go's wording.
 */
export function evaluateWithLimits(
  env: Environment,
  exprOrProgram: string | CelProgram,
  ctx: Record<string, unknown>,
  limits: EvaluationLimits = {},
): EvaluationResult {
  let program: CelProgram;
  if (typeof exprOrProgram === 'string') {
    const c = compileExpression(env, exprOrProgram);
    if (!c.ok) return { error: c.error, kind: c.kind, cost: 0 };
    program = c.program;
  } else program = exprOrProgram;
  const meter: CostMeter = { cost: 0 };
  try {
    const value = withBudget(limits.costLimit ?? PER_CALL_LIMIT, limits.timeoutMs ?? DEFAULT_TIMEOUT_MS, () => {
      let out: unknown;
      try {
        out = program.run(ctx);
      } catch (e) {
        throw budgetExceeded() ?? e;
      }
      // An absorbed limit error (inside all/exists) still invalidates the result.
      const ex = budgetExceeded();
      if (ex) throw ex;
      return out;
    }, meter);
    if (value instanceof Promise) return { error: 'internal error: asynchronous evaluation', kind: 'runtime', cost: meter.cost };
    return { value, cost: meter.cost };
  } catch (e) {
    const limit = e instanceof CostLimitExceeded ? e : (e as { cause?: unknown })?.cause;
    if (limit instanceof CostLimitExceeded) return { error: limit.message, kind: limit.reason === 'cost' ? 'limit' : 'timeout', cost: meter.cost };
    if (e instanceof RangeError && /call stack/.test(e.message)) return { error: 'operation cancelled: ' + e.message, kind: 'limit', cost: meter.cost };
    return { error: celErrorMessage(e), kind: 'runtime', cost: meter.cost };
  }
}

const OPERATOR_NAMES: Record<string, string> = {
  '+': '_+_', '-': '_-_', '*': '_*_', '/': '_/_', '%': '_%_', '==': '_==_', '!=': '_!=_',
  '<': '_<_', '<=': '_<=_', '>': '_>_', '>=': '_>=_', in: '@in', '!': '!_',
};

/**
 * The message of a cel-js error (or one of ours) reworded as cel-go words it, without cel-js' source
 * excerpt: `no such key: x`, `found no matching overload for '_+_' applied to '(int, double)'`,
 * `undeclared reference to 'x'`.
 */
export function celErrorMessage(e: unknown): string {
  if (e instanceof CostLimitExceeded) return e.message;
  const err = e as { summary?: string; message?: string } | undefined;
  let msg = String(err?.summary ?? err?.message ?? e);
  msg = msg.split(INTERNAL_SUFFIX).join('').replace(/__opt(?:Entry|List|Map)\(/g, '(').replace(/__has\(/g, 'has(');
  let m: RegExpMatchArray | null;
  if ((m = /^Exceeded maxDepth \((\d+)\)/.exec(msg))) return `expression recursion limit exceeded: ${m[1]}`;
  if ((m = /^No such key: index out of bounds, index (-?\d+) (>= size (\d+)|< 0)$/s.exec(msg))) {
    // cel-go reports indexes into variables through its attribute resolver: "index out of bounds: 100".
    return `index out of bounds: ${m[1]}`;
  }
  if ((m = /^No such key: (.*)$/s.exec(msg))) return `no such key: ${m[1]}`;
  if ((m = /^Unknown variable: (.*)$/s.exec(msg))) return `undeclared reference to '${m[1]}' (in container '')`;
  if ((m = /^no such overload: (.+?) (\+|-|\*|\/|%|==|!=|<=|>=|<|>|in) (.+)$/s.exec(msg))) {
    return `found no matching overload for '${OPERATOR_NAMES[m[2]] ?? m[2]}' applied to '(${celGoType(m[1])}, ${celGoType(m[3])})'`;
  }
  if ((m = /^no such overload: (!|-)(.+)$/s.exec(msg))) {
    return `found no matching overload for '${m[1] === '!' ? '!_' : '-_'}' applied to '(${m[2]})'`;
  }
  if ((m = /^found no matching overload for '(?:(.+)\.)?(\w+)\((.*)\)'$/s.exec(msg))) {
    const applied = m[1] ? `${m[1]}.(${m[3]})` : `(${m[3]})`;
    return `found no matching overload for '${m[2]}' applied to '${applied.replace(/</g, '(').replace(/>/g, ')')}'`;
  }
  if (/^integer overflow/.test(msg)) return 'integer overflow';
  if (/^Unsigned integer overflow/i.test(msg)) return 'unsigned integer overflow';
  return msg;
}
