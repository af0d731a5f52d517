/**
 * Lints on a CRD's CEL rules, beyond what the API server checks: mistakes it accepts on create and that
 * show up later, on custom resources.
 *
 * - CELNoSuchKey: a rule reads an optional field (not required, no default) without has() or `?.`;
 *   when the field is absent the rule fails with "no such key" and the object is rejected.
 * - CELConstantRule: a rule that reads neither self nor oldSelf: always true (checks nothing), always
 *   false (rejects every object) or always an error.
 * - CELEmptyMessage: a messageExpression that can evaluate to an empty (or blank, or multi-line)
 *   string; the API server then reports the failure as if messageExpression were not set.
 *
 * Every type comes from the engine's checker (query.ts: compileAt, fieldsOf); guards are read from the
 * checked AST (has() facts flow through `&&`, `||`, `!` and `?:`, on both sides of `&&` and `||` as CEL's
 * error absorption is commutative). Each lint has a severity setting (ServiceSettings.celLints).
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { schemaNodes } from '../engine';
import { evaluate, type CompiledExpression } from '../engine';
import { fieldsOf, siteEnvironment, type RuleSite } from '../engine';
import type { CheckedAst } from '../engine';
import { ACCUMULATOR, children, type Expr } from '../engine';
import { FieldPath, type PathSegment } from '../engine';
import type { JSONSchemaProps } from '../engine';
import type { ServiceContext } from './context';
import type { Finding, FindingSeverity } from './finding';
import { lintTarget } from './lintScope';
import { isScalar, type YamlDocument } from '../yaml/file';
import { isJSONObject } from '../engine';

/** The lints' finding codes and their default severities. */
export const CEL_LINT_DEFAULTS = {
  CELNoSuchKey: 'warning',
  CELConstantRule: 'warning',
  CELEmptyMessage: 'information',
} as const satisfies Record<string, FindingSeverity>;

export type CelLintCode = keyof typeof CEL_LINT_DEFAULTS;
export type CelLintSeverity = FindingSeverity | 'off';

/** Rules longer than this are not linted (the API server's own checks still run on them). */
const MAX_LINTED_RULE_CHARS = 20_000;
/** Schema nodes with rules visited per CRD version at most. */
const MAX_RULE_NODES = 5_000;

/** An unguarded read of an optional field in a rule. */
export interface UnguardedRead {
  /** The field as written (CEL name). */
  field: string;
  /** The property name in the object. */
  jsonName: string;
  /** The expression read, as written (`self.spec.replicas`): what has() takes. */
  text: string;
  /** Range of the field name in the rule. */
  range: { start: number; end: number };
  /** The innermost boolean expression around the read (what the quick fix guards). */
  guard?: { start: number; end: number };
}

/** A key for an expression that has() can test (`self.a.b`, `x['k'].c`), undefined for others. */
function keyOf(e: Expr): string | undefined {
  if (e.kind === 'ident') return e.name;
  if (e.kind === 'select' && !e.testOnly) {
    const k = keyOf(e.operand);
    return k === undefined ? undefined : `${k}.${e.field}`;
  }
  if (e.kind === 'call' && e.fn === '_[_]' && e.args.length === 2 && e.args[1].kind === 'literal') {
    const k = keyOf(e.args[0]);
    const v = e.args[1].value;
    return k === undefined || (typeof v !== 'string' && typeof v !== 'bigint') ? undefined : `${k}[${String(v)}]`;
  }
  return undefined;
}

/** What holds when `e` is true (`has(...)` facts, with the prefixes they imply). */
function whenTrue(e: Expr): Set<string> {
  const out = new Set<string>();
  if (e.kind === 'select' && e.testOnly) {
    // has(a.b.c): a.b.c is present, so are a.b and a.
    for (let cur: Expr | undefined = e; cur; cur = cur.kind === 'select' ? cur.operand : cur.kind === 'call' && cur.fn === '_[_]' ? cur.args[0] : undefined) {
      const k = cur === e ? keyOf({ ...e, testOnly: false }) : keyOf(cur);
      if (k !== undefined) out.add(k);
    }
  } else if (e.kind === 'call' && e.fn === '_&&_') {
    for (const a of e.args) for (const k of whenTrue(a)) out.add(k);
  } else if (e.kind === 'call' && e.fn === '!_') {
    return whenFalse(e.args[0]);
  }
  return out;
}

/** What holds when `e` is false. */
function whenFalse(e: Expr): Set<string> {
  const out = new Set<string>();
  if (e.kind === 'call' && e.fn === '_||_') {
    for (const a of e.args) for (const k of whenFalse(a)) out.add(k);
  } else if (e.kind === 'call' && e.fn === '!_') {
    return whenTrue(e.args[0]);
  }
  return out;
}

const union = (a: Set<string>, b: Set<string>) => (b.size === 0 ? a : new Set([...a, ...b]));

/** Fields every resource root has (the API server sets them): never "optional" in a rule. */
const RESOURCE_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * The reads of optional fields (not required, no default) a rule makes without has() or `?.` guarding
 * them, one per field path, in source order.
 */
export function unguardedReads(a: CheckedAst): UnguardedRead[] {
  const out: UnguardedRead[] = [];
  const seen = new Set<string>();
  const src = a.parsed.source;
  const visit = (e: Expr, known: Set<string>, bools: Expr[]) => {
    const isBool = a.types.get(e.id)?.kind === 'bool' && userWritten(e);
    const stack = isBool ? [...bools, e] : bools;
    if (e.kind === 'select' && !e.testOnly) {
      const key = keyOf(e);
      const recv = a.types.get(e.operand.id);
      const f = recv ? fieldsOf(recv).find((x) => x.name === e.field) : undefined;
      const builtin = RESOURCE_FIELDS.has(e.field) || (e.operand.kind === 'select' && e.operand.field === 'metadata');
      if (f && !f.required && !f.hasDefault && !builtin && key !== undefined && !known.has(key) && !seen.has(key)) {
        seen.add(key);
        const nameStart = e.end - e.field.length;
        const range = src.slice(nameStart, e.end) === e.field ? { start: nameStart, end: e.end } : { start: e.start, end: e.end };
        const g = stack[stack.length - 1];
        out.push({ field: e.field, jsonName: f.jsonName, text: src.slice(e.start, e.end), range, ...(g ? { guard: { start: g.start, end: g.end } } : {}) });
      }
      visit(e.operand, known, stack);
      return;
    }
    if (e.kind === 'call' && e.args.length === 2 && (e.fn === '_&&_' || e.fn === '_||_')) {
      const facts = e.fn === '_&&_' ? whenTrue : whenFalse;
      visit(e.args[0], union(known, facts(e.args[1])), stack);
      visit(e.args[1], union(known, facts(e.args[0])), stack);
      return;
    }
    if (e.kind === 'call' && e.fn === '_?_:_' && e.args.length === 3) {
      visit(e.args[0], known, stack);
      visit(e.args[1], union(known, whenTrue(e.args[0])), stack);
      visit(e.args[2], union(known, whenFalse(e.args[0])), stack);
      return;
    }
    for (const k of children(e)) visit(k, known, stack);
  };
  visit(a.parsed.expr, new Set(), []);
  return out.sort((x, y) => x.range.start - y.range.start);
}

/** Not a node a macro made inside its comprehension (they read the accumulator); the comprehension is the macro call as written. */
function userWritten(e: Expr): boolean {
  if (e.kind === 'call' && e.args.some((x) => x.kind === 'ident' && x.name === ACCUMULATOR)) return false;
  return true;
}

/** The value of a rule that reads neither self nor oldSelf, or undefined when it depends on them. */
export function constantValue(c: CompiledExpression | undefined): { value: unknown } | { error: string } | undefined {
  if (!c?.checked || !c.program || c.checked.usedVariables.size > 0) return undefined;
  const r = evaluate(c.program, {});
  if ('value' in r) return { value: r.value };
  return r.kind === 'runtime' ? { error: r.error } : undefined;
}

/**
 * Whether a messageExpression can evaluate to a message the API server does not use (empty, blank or
 * with a line break), and why; undefined when it cannot (or we cannot tell: we stay quiet).
 */
export function emptyMessageReason(c: CompiledExpression | undefined): string | undefined {
  const a = c?.checked;
  if (a?.type.kind !== 'string') return undefined;
  const why: string[] = [];
  const can = (e: Expr): boolean => {
    if (e.kind === 'literal') {
      if (typeof e.value !== 'string') return false;
      if (e.value.includes('\n')) {
        why.push('it has a line break');
        return true;
      }
      if (e.value.trim() === '') {
        why.push(`the string ${JSON.stringify(e.value)} is blank`);
        return true;
      }
      return false;
    }
    if (e.kind === 'call' && e.fn === '_+_' && e.args.length === 2) return can(e.args[0]) && can(e.args[1]);
    if (e.kind === 'call' && e.fn === '_?_:_' && e.args.length === 3) {
      const t = can(e.args[1]);
      const f = can(e.args[2]);
      return t || f;
    }
    if (e.kind === 'call' && e.fn === 'string' && e.args.length === 1 && a.types.get(e.args[0].id)?.kind === 'string') return can(e.args[0]);
    if (e.kind === 'select' && !e.testOnly && a.types.get(e.id)?.kind === 'string') {
      const recv = a.types.get(e.operand.id);
      const f = recv ? fieldsOf(recv).find((x) => x.name === e.field) : undefined;
      const s = f?.schema;
      if (!s) return false;
      const nonEmpty = (typeof s.minLength === 'number' && s.minLength > 0) || (Array.isArray(s.enum) && s.enum.length > 0 && !s.enum.includes('')) || typeof s.pattern === 'string' || typeof s.format === 'string';
      if (nonEmpty) return false;
      why.push(`${a.parsed.source.slice(e.start, e.end)} can be empty (no minLength)`);
      return true;
    }
    return false;
  };
  return can(a.parsed.expr) ? why.join(', ') : undefined;
}

/** A rule of a CRD document, where it is and how its expressions are declared. */
export interface CrdRule {
  site: RuleSite;
  /** The path of the rule object (`...x-kubernetes-validations[i]`) in the document. */
  path: PathSegment[];
  rule?: string;
  messageExpression?: string;
}

/** Every validation rule of a CRD's versions (bounded), with its site. */
export function crdRules(ctx: ServiceContext, crd: Record<string, unknown>): CrdRule[] {
  const out: CrdRule[] = [];
  const spec = isJSONObject(crd.spec) ? crd.spec : {};
  const versions = Array.isArray(spec.versions) ? spec.versions : [];
  versions.forEach((v, vi) => {
    const schema = isJSONObject(v) && isJSONObject(v.schema) && isJSONObject(v.schema.openAPIV3Schema) ? (v.schema.openAPIV3Schema as JSONSchemaProps) : undefined;
    if (!schema) return;
    const base: PathSegment[] = [
      { kind: 'field', name: 'spec' },
      { kind: 'field', name: 'versions' },
      { kind: 'index', index: vi },
      { kind: 'field', name: 'schema' },
      { kind: 'field', name: 'openAPIV3Schema' },
    ];
    const nodes = schemaNodes(schema, FieldPath.root()).filter((n) => Array.isArray(n.node['x-kubernetes-validations']));
    for (const n of nodes.slice(0, MAX_RULE_NODES)) {
      (n.node['x-kubernetes-validations'] as unknown[]).forEach((r, i) => {
        if (!isJSONObject(r)) return;
        const site: RuleSite = { schema: n.node, isResourceRoot: n.isResourceRoot, optionalOldSelf: r.optionalOldSelf === true, kubernetesMinor: ctx.settings.kubernetesMinor };
        const path: PathSegment[] = [...base, ...n.path.segments(), { kind: 'field', name: 'x-kubernetes-validations' }, { kind: 'index', index: i }];
        out.push({ site, path, rule: typeof r.rule === 'string' ? r.rule : undefined, messageExpression: typeof r.messageExpression === 'string' ? r.messageExpression : undefined });
      });
    }
  });
  return out;
}

const field = (name: string): PathSegment => ({ kind: 'field', name });

/** A rule as written (its text and messageExpression): the same key in a baseline means not new work. */
const ruleKey = (r: CrdRule) => JSON.stringify([r.rule ?? null, r.messageExpression ?? null]);

/**
 * The lints' findings on a CRD document (rules the API server rejects are left to its findings), on the
 * CRDs and rules lintScope.ts chooses; `baseline`: the object the document updates, if any.
 */
export function celLintFindings(ctx: ServiceContext, td: TextDocument, doc: YamlDocument, crd: Record<string, unknown>, baseline?: Record<string, unknown>): Finding[] {
  const severity = (code: CelLintCode): CelLintSeverity => ctx.settings.celLints?.[code] ?? CEL_LINT_DEFAULTS[code];
  if ((Object.keys(CEL_LINT_DEFAULTS) as CelLintCode[]).every((c) => severity(c) === 'off')) return [];
  const target = lintTarget(ctx, td, doc, crd, baseline);
  if (target.rules === 'none') return [];
  const unchanged = target.rules === 'changed' ? new Set(crdRules(ctx, target.baseline).map(ruleKey)) : undefined;
  const out: Finding[] = [];
  const at = (path: PathSegment[], start: number, end: number) => {
    const r = doc.rangeInString(path, start, end);
    return r ? { start: td.positionAt(r.start), end: td.positionAt(r.end) } : undefined;
  };
  for (const r of crdRules(ctx, crd)) {
    const rule = r.rule;
    if (rule === undefined || rule.trim() === '' || rule.length > MAX_LINTED_RULE_CHARS || unchanged?.has(ruleKey(r))) continue;
    // A one-shot check (no memo) lints each rule once: no cache, nor its key (the schema's text), is kept.
    for (const l of ctx.caches.memo ? ruleLints({ ...r, rule }) : computeRuleLints({ ...r, rule })) {
      const sev = severity(l.code);
      if (sev === 'off') continue;
      const path = [...r.path, field(l.field)];
      const range = at(path, l.start, l.end);
      if (range) out.push({ range, severity: sev, code: l.code, message: l.message, document: 'crd', segments: path, provenance: { rule } });
    }
  }
  return out;
}

/** One lint on one expression of a rule, in offsets of that expression. */
interface RuleLint {
  code: CelLintCode;
  field: 'rule' | 'messageExpression';
  start: number;
  end: number;
  message: string;
}

/**
 * The lints of rules already seen, by their site and text: an edit elsewhere in a large CRD does not
 * compile its other rules again (bounded, oldest out first).
 */
const LINT_CACHE = new Map<string, RuleLint[]>();
const MAX_LINT_CACHE = 4_000;
/**
 * Characters of the keys held (a rule at a CRD's root has the whole schema's text in its key). Enough for
 * the rules of the largest real CRDs while they are edited: at 4M, the 2.9 MB argo-workflows CRD's rules
 * pushed each other out and every keystroke linted them again (+40 ms).
 */
const MAX_LINT_CACHE_CHARS = 32_000_000;
let lintCacheChars = 0;
/** The text of a schema node, by node (the key part that says the rule's types did not change). */
const NODE_TEXT = new WeakMap<object, string>();

function nodeText(node: JSONSchemaProps): string {
  let t = NODE_TEXT.get(node);
  if (t === undefined) {
    t = JSON.stringify(node, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v));
    NODE_TEXT.set(node, t);
  }
  return t;
}

/** Every lint of a rule (all codes: severities are applied by the caller). */
function ruleLints(r: CrdRule & { rule: string }): RuleLint[] {
  const key = JSON.stringify([r.site.kubernetesMinor ?? null, r.site.isResourceRoot, r.site.optionalOldSelf === true, r.rule, r.messageExpression ?? null]) + nodeText(r.site.schema);
  const hit = LINT_CACHE.get(key);
  if (hit) {
    LINT_CACHE.delete(key);
    LINT_CACHE.set(key, hit);
    return hit;
  }
  const out = computeRuleLints(r);
  LINT_CACHE.set(key, out);
  lintCacheChars += key.length;
  while (LINT_CACHE.size > 1 && (LINT_CACHE.size > MAX_LINT_CACHE || lintCacheChars > MAX_LINT_CACHE_CHARS)) {
    const oldest = LINT_CACHE.keys().next().value as string;
    LINT_CACHE.delete(oldest);
    lintCacheChars -= oldest.length;
  }
  return out;
}

function computeRuleLints(r: CrdRule & { rule: string }): RuleLint[] {
  const out: RuleLint[] = [];
  const se = siteEnvironment(r.site);
  if (!se) return out;
  // Only rules the API server accepts: the others already have its error.
  const compiled = se.env.compile(r.rule, se.vars);
  if (!compiled?.checked || compiled.issues.length || compiled.checked.type.kind !== 'bool') return out;
  for (const u of unguardedReads(compiled.checked)) {
    const message = `${u.text} may be absent (optional, no default): the rule then fails with "no such key: ${u.jsonName}" (guard it with has(${u.text}) or use ?.${u.field})`;
    out.push({ code: 'CELNoSuchKey', field: 'rule', ...u.range, message });
  }
  const v = constantValue(compiled);
  if (v) {
    const message =
      'error' in v
        ? `the rule reads neither self nor oldSelf and always fails: ${v.error}`
        : v.value === true
          ? 'the rule reads neither self nor oldSelf and is always true: it checks nothing'
          : 'the rule reads neither self nor oldSelf and is always false: every object is rejected';
    out.push({ code: 'CELConstantRule', field: 'rule', start: 0, end: r.rule.length, message });
  }
  const me = r.messageExpression;
  if (me && me.length <= MAX_LINTED_RULE_CHARS) {
    const why = emptyMessageReason(se.env.compile(me, se.vars));
    if (why) {
      const message = `the messageExpression can produce an empty or multi-line message (${why}): the API server then reports the failure as if messageExpression were not set`;
      out.push({ code: 'CELEmptyMessage', field: 'messageExpression', start: 0, end: me.length, message });
    }
  }
  return out;
}

/** The scalar style of a string at a path (for text inserted into it). */
export function scalarStyle(doc: YamlDocument, path: PathSegment[]): string | undefined {
  const n = doc.nodeAtPath(path);
  return isScalar(n) ? (n.type ?? 'PLAIN') : undefined;
}
