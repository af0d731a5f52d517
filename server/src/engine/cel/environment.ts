/**
 * The Kubernetes CEL environment: one pipeline as cel-go's (parse, check, plan; evaluate the checked
 * tree), with the libraries, macros and options of the API server's base environment for a
 * Kubernetes version (library/index.ts). Everything CEL in the engine goes through here: CRD rule
 * compilation (schema/cel/compile.ts), custom resource validation (schema/cel/validator.ts), bare expressions
 * (test/cel/conformance.ts) and the editor queries (schema/cel/query.ts).
 */
import { check, type CheckedAst } from './checker/checker';
import { estimateCost, type CostEstimateResult } from './cost/estimate';
import type { EnvDecls, EnvKind } from './library';
import { kubernetesMinor } from '../version';
import type { Minor } from './library/decls';
import { withDeadline } from './runtime/guard';
import { plan, type Evaluation, type Program } from './runtime/interpreter';
import type { Val } from './runtime/values';
import { formatIssue, parse, type ParseResult } from './syntax/parse';
import type { CelType, DeclType } from './common/types';
import { detachedString } from '../json/values';

export { formatIssue } from './syntax/parse';
export type { Evaluation, Program } from './runtime/interpreter';
export type { Minor } from './library/decls';

/** Kubernetes' PerCallLimit (apiserver pkg/apis/cel/config.go): cost units one evaluation may spend. */
export const PER_CALL_LIMIT = 1_000_000;

/**
 * The wall-clock safety net of one evaluation (ms). Not a Kubernetes limit: cost limits stop rules;
 * this only keeps the editor responsive (the API server has its request deadline). No test relies on it.
 */
export const SAFETY_TIMEOUT_MS = 1000;

/** A CEL issue: cel-go's message, its offset, and the source range it is about. */
export interface CelIssue {
  message: string;
  offset: number;
  /** The source range it is about (for an undefined field, the field's name). */
  range: { start: number; end: number };
  /** An undefined field: the receiver's field names and the closest ones ("did you mean"). */
  undefinedField?: { name: string; knownNames: string[]; suggestions: string[] };
}

/** A compiled expression (cel-go's checked AST plus program). */
export interface CompiledExpression {
  source: string;
  /** Set when the expression type-checked; the program is planned from it. */
  checked?: CheckedAst;
  /** Parse or check issues, sorted by location. */
  issues: CelIssue[];
  /** cel-go's issue list as the API server prints it (`ERROR: <input>:1:5: ...`). */
  issuesText?: string;
  /** Errors of program creation ("program instantiation failed: ..."). */
  programErrors: string[];
  program?: Program;
}

/** Options of an environment: the Kubernetes version and which of its two environments. */
export interface EnvironmentOptions {
  /** Kubernetes minor version 30..37 (default: the newest supported). */
  kubernetesMinor?: Minor;
  /** 'new': what a new or changed rule may use (the compatibility version); 'stored': everything the server has. */
  kind?: EnvKind;
  /**
   * The API server's compatibility version for new expressions when it is not the default of its
   * minor (`--min-compatibility-version`; a 1.37 server emulating 1.34 has 1.34, a 1.34 server 1.33).
   */
  compatibilityMinor?: Minor;
}

/** Clamps a minor to the supported range. */
export function supportedMinor(minor: Minor | undefined): Minor {
  return kubernetesMinor(minor);
}

const parseCache = new Map<string, { key: string; parsed: ParseResult }>();
/**
 * Parsed rules kept, the least recently used dropped first: a check of thousands of CRDs meets tens of
 * thousands of rules, and 4,000 ASTs (the bound before, then cleared at once) were most of what a check
 * of the CRD catalog kept alive; related CRDs come together (a project's, a provider's), so the rules
 * seen again are recent ones.
 */
const PARSE_CACHE_MAX = 1000;

function cachedParse(src: string, decls: EnvDecls): ParseResult {
  const key = `${decls.macros.twoVarComprehensions ? 1 : 0}${decls.macros.sortBy ? 1 : 0}${src}`;
  const hit = parseCache.get(key);
  if (hit) {
    // Moved to the end under its own key (the one asked with may be a slice of a CRD's text).
    parseCache.delete(hit.key);
    parseCache.set(hit.key, hit);
    return hit.parsed;
  }
  if (parseCache.size >= PARSE_CACHE_MAX) parseCache.delete(parseCache.keys().next().value!);
  // The cache outlives the CRD the rule was read from: a copy of the rule, not a slice of the CRD's text.
  const own = { key: detachedString(key), parsed: parse(detachedString(src), decls.macros) };
  parseCache.set(own.key, own);
  return own.parsed;
}

/** A CEL environment of the Kubernetes base environment at a version. */
export class CelEnvironment {
  readonly decls: EnvDecls;

  constructor(opts: EnvironmentOptions = {}) {
    // The libraries' tables are built with the first environment, not when the program loads: most CLI
    // runs check no CEL rule and would spend milliseconds of their start-up on them.
    const { environmentDeclarations } = require('./library') as typeof import('./library');
    this.decls = environmentDeclarations(supportedMinor(opts.kubernetesMinor), opts.kind ?? 'stored', opts.compatibilityMinor);
  }

  get minor(): Minor {
    return this.decls.minor;
  }

  /** Parses and type-checks src with the given variables; plans the program when it checks. */
  compile(src: string, vars: Map<string, CelType>): CompiledExpression {
    const p = cachedParse(src, this.decls);
    if (!p.ok) {
      const issues = p.issues;
      return { source: src, issues, issuesText: issues.map((i) => formatIssue(src, i.offset, i.message)).join('\n'), programErrors: [] };
    }
    const checked = check(p.ast, this.decls, vars);
    if (checked.issues.length) {
      const ranges = new Map<number, { start: number; end: number }>();
      walkRanges(p.ast.expr, ranges);
      const issues = checked.issues.map((i): CelIssue => {
        const range = ranges.get(i.exprId) ?? { start: i.offset, end: i.offset + 1 };
        if (!i.undefinedField) return { message: i.message, offset: i.offset, range };
        // The name is the last occurrence of it as a whole word in the select (`self.replica`, `x.?name`,
        // or the whole `has(self.name)` when a macro made the select).
        const nameRange = wordRange(src, i.undefinedField.name, range) ?? range;
        return { message: i.message, offset: i.offset, range: nameRange, undefinedField: i.undefinedField };
      });
      return { source: src, checked, issues, issuesText: issues.map((i) => formatIssue(src, i.offset, i.message)).join('\n'), programErrors: [] };
    }
    const program = plan(checked);
    return { source: src, checked, issues: [], programErrors: program.errors, program };
  }

  /** The static cost of a compiled expression whose variables are typed by root. */
  estimate(c: CompiledExpression, root: DeclType | undefined): CostEstimateResult | undefined {
    return c.checked ? estimateCost(c.checked, root) : undefined;
  }
}

function walkRanges(e: import('./syntax/ast').Expr, out: Map<number, { start: number; end: number }>): void {
  const stack = [e];
  while (stack.length) {
    const x = stack.pop()!;
    out.set(x.id, { start: x.start, end: x.end });
    switch (x.kind) {
      case 'select':
        stack.push(x.operand);
        break;
      case 'call':
        if (x.target) stack.push(x.target);
        stack.push(...x.args);
        break;
      case 'list':
        stack.push(...x.elems);
        break;
      case 'map':
        for (const en of x.entries) stack.push(en.key, en.value);
        break;
      case 'comprehension':
        stack.push(x.iterRange, x.accuInit, x.loopCondition, x.loopStep, x.result);
        break;
    }
  }
}

const envs = new Map<string, CelEnvironment>();

/** The shared environment for a version and kind. */
export function celEnvironment(opts: EnvironmentOptions = {}): CelEnvironment {
  const minor = supportedMinor(opts.kubernetesMinor);
  const kind = opts.kind ?? 'stored';
  const compat = kind === 'new' ? opts.compatibilityMinor : undefined;
  const key = `${minor}/${kind}/${compat ?? ''}`;
  let e = envs.get(key);
  if (!e) envs.set(key, (e = new CelEnvironment({ kubernetesMinor: minor, kind, compatibilityMinor: compat })));
  return e;
}

/** Limits of one evaluation. */
export interface EvaluationLimits {
  /** Cost units (cel-go's actual cost); default PER_CALL_LIMIT. */
  costLimit?: number;
  /** Wall-clock safety net in ms; default SAFETY_TIMEOUT_MS. */
  timeoutMs?: number;
}

/**
 * Work units (interpreter steps, elements and characters processed) an evaluation may report per unit of
 * cost it was charged, plus a fixed WORK_PER_EVALUATION: the claim that cel-go's cost bounds our work,
 * which tests check on every evaluation they cause (engine/schema/cel/bounded.test.ts, the fuzz tier).
 */
export const WORK_PER_COST = 64;
export const WORK_PER_EVALUATION = WORK_PER_COST * 1000;

/**
 * What the evaluations of this thread did so far, added once per evaluation (no cost per step): tests
 * bound the work by the cost charged and count what the cost limit and the safety net stopped (counters,
 * never the clock). `pastLimitNotStopped`: evaluations charged past their cost limit that the limit did not
 * stop (a limit not applied); `interrupted`: evaluations the wall-clock safety net ended.
 */
export const evaluationWork = { evaluations: 0, cost: 0, work: 0, stoppedByLimit: 0, interrupted: 0, pastLimitNotStopped: 0 };

/** Runs a program under the cost limit and the safety deadline. Never throws. */
export function evaluate(program: Program, vars: Record<string, Val>, limits: EvaluationLimits = {}): Evaluation {
  try {
    const costLimit = limits.costLimit ?? PER_CALL_LIMIT;
    const { result, work } = withDeadline(limits.timeoutMs ?? SAFETY_TIMEOUT_MS, () => program.run(vars, costLimit));
    result.work = work;
    const w = evaluationWork;
    w.evaluations++;
    w.cost += result.cost;
    w.work += work;
    const stopped = 'error' in result && result.kind === 'limit';
    if (stopped) w.stoppedByLimit++;
    else if (result.cost > costLimit) w.pastLimitNotStopped++;
    if ('error' in result && result.kind === 'timeout') w.interrupted++;
    return result;
  } catch (e) {
    return { error: `internal error: ${e instanceof Error ? e.message : String(e)}`, kind: 'runtime', cost: 0 };
  }
}

/** The last occurrence of an identifier as a whole word within a range of the source. */
function wordRange(src: string, name: string, within: { start: number; end: number }): { start: number; end: number } | undefined {
  const ident = /[A-Za-z0-9_]/;
  for (let at = src.lastIndexOf(name, within.end - name.length); at >= within.start; at = src.lastIndexOf(name, at - 1)) {
    if (at < 0) break;
    const end = at + name.length;
    if ((at === 0 || !ident.test(src[at - 1])) && (end >= src.length || !ident.test(src[end]))) return { start: at, end };
  }
  return undefined;
}
