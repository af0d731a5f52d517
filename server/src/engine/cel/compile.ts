/**
 * Compilation of x-kubernetes-validations rules (k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel
 * compilation.go): parse, type-check against the schema's CEL type, rule must be bool, messageExpression
 * must be string, transition-rule detection, static cost.
 */
import { Environment, type ASTNode } from '@marcbachmann/cel-js';
import { GoStruct, invalid, type FieldError, FieldPath } from '../field';
import type { JSONSchemaProps, ValidationRule } from '../schema/types';
import { checkExpression, children, type CheckIssue } from './checker';
import { T, assignTypeName, formatCelType, maxCardinality, schemaDeclType, type CelType, type DeclType } from './types';
import { estimateCost } from './cost';
import { rewriteListSemantics } from './listsemantics';
import { desugarOptionalLiterals } from './optionalsyntax';
import { dotInSyntaxIssues } from './dotin';

export const PER_CALL_LIMIT = 1000000;

/** What compiling one rule yields (CompilationResult). */
export interface CompiledRule {
  rule: ValidationRule;
  /** The parsed rule, when it compiled. */
  ast?: ASTNode;
  error?: { type: 'Invalid' | 'Required' | 'Internal'; detail: string; range?: { start: number; end: number } };
  usesOldSelf: boolean;
  maxCost: number;
  maxCardinality: number;
  messageExpressionAst?: ASTNode;
  messageExpressionError?: { detail: string; range?: { start: number; end: number } };
  messageExpressionMaxCost: number;
  /** The rule as the runtime evaluates it (list-type semantics rewritten), when it differs from rule.rule. */
  runtimeSource?: string;
  messageExpressionRuntimeSource?: string;
  /** The rule's fieldPath resolved against the schema (field.Path printing), when valid. */
  normalizedFieldPath?: FieldPath;
}

let parserEnv: Environment | undefined;
function parser(): Environment {
  parserEnv ??= new Environment({
    unlistedVariablesAreDyn: true,
    enableOptionalTypes: true,
    limits: { maxAstNodes: 100000, maxDepth: 1000, maxListElements: 100000, maxMapEntries: 100000, maxCallArguments: 32 },
  });
  return parserEnv;
}

/** cel-go's issue printing: `ERROR: <input>:L:C: msg` plus the source line and a caret. */
export function formatIssue(src: string, offset: number, message: string): string {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < src.length; i++) {
    if (src[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  let lineEnd = src.indexOf('\n', lineStart);
  if (lineEnd < 0) lineEnd = src.length;
  const col = [...src.slice(lineStart, offset)].length;
  const text = src.slice(lineStart, lineEnd);
  return `ERROR: <input>:${line}:${col + 1}: ${message}\n | ${text}\n | ${'.'.repeat(col)}^`;
}

const MAX_RECURSION_DEPTH = 250;

/**
 * Whether the AST nests more than `max` operations deep. Iterative: the parser builds long chains
 * (`1 + 1 + ...`, `a && b && ...`) without recursing, and a recursive walk of a 20,000-term chain
 * overflowed the stack (reported as an internal error instead of cel-go's recursion-limit error).
 */
function deeperThan(root: ASTNode, max: number): boolean {
  const stack: Array<[ASTNode, number]> = [[root, 0]];
  while (stack.length) {
    const [n, d] = stack.pop()!;
    const kids = children(n);
    if (kids.length && d + 1 > max) return true;
    for (const k of kids) stack.push([k, d + 1]);
  }
  return false;
}

export type ParseOutcome = { ok: true; ast: ASTNode } | { ok: false; message: string; offset: number; range: { start: number; end: number } };

/** Parse a CEL expression, translating parser failures to cel-go's wording. */
export function parseExpression(src: string): ParseOutcome {
  let ast: ASTNode;
  try {
    ast = parser().parse(src).ast;
  } catch (e) {
    const err = e as { summary?: string; message?: string; range?: { start: number; end: number } };
    const range = err.range ?? { start: 0, end: src.length };
    const summary = err.summary ?? err.message ?? String(e);
    const tok = src.slice(range.start, Math.max(range.end, range.start + 1));
    let message: string;
    if (/maximum.*depth|depth/i.test(summary)) message = 'max recursion depth exceeded';
    else if (/^Expected (\w+), got/.test(summary)) message = `Syntax error: mismatched input '${tok}' expecting ${/^Expected (\w+)/.exec(summary)![1]}`;
    else if (/^Unexpected (character|token)/.test(summary)) message = `Syntax error: mismatched input '${tok}' expecting <EOF>`;
    else message = `Syntax error: ${summary.charAt(0).toLowerCase()}${summary.slice(1)}`;
    return { ok: false, message, offset: range.start, range };
  }
  if (deeperThan(ast, MAX_RECURSION_DEPTH)) {
    return { ok: false, message: 'max recursion depth exceeded', offset: 0, range: { start: 0, end: src.length } };
  }
  return { ok: true, ast };
}

function issuesString(src: string, issues: CheckIssue[]): string {
  return issues.map((i) => formatIssue(src, i.offset, i.message)).join('\n');
}

/** The variables of a rule environment: self, and oldSelf (optional when optionalOldSelf). */
function ruleVars(selfType: CelType, optionalOldSelf: boolean): Map<string, CelType> {
  return new Map<string, CelType>([
    ['self', selfType],
    ['oldSelf', optionalOldSelf ? T.optional(selfType) : selfType],
  ]);
}

/** Compile one CEL expression against vars; a compile error string in the API server's form, or the AST. */
export function compileExpressionAgainst(
  src: string,
  vars: Map<string, CelType>,
  opts: { storedExpressions?: boolean } = {},
): { ast?: ASTNode; type?: CelType; usesOldSelf: boolean; error?: string; programError?: string; range?: { start: number; end: number }; runtimeSource?: string; typeOf?: (n: ASTNode) => CelType | undefined } {
  let text = src;
  let p = parseExpression(src);
  if (!p.ok && src.includes('?')) {
    // Optional entries in literals ([?x], {?k: v}) are valid CEL the cel-js parser lacks: desugar and retry.
    const d = desugarOptionalLiterals(src);
    if (d !== undefined) {
      const p2 = parseExpression(d);
      if (p2.ok) {
        p = p2;
        text = d;
      }
    }
  }
  if (!p.ok) {
    // `x.in`: cel-go's ANTLR recovery reports several errors the cel-js parser does not.
    const dotIn = dotInSyntaxIssues(src, (t) => parseExpression(t).ok);
    if (dotIn) return { usesOldSelf: false, error: dotIn.map((i) => formatIssue(src, i.offset, i.message)).join('\n'), range: p.range };
    return { usesOldSelf: false, error: formatIssue(src, p.offset, p.message), range: p.range };
  }
  const r = checkExpression(p.ast, vars, opts);
  if (r.issues.length) return { usesOldSelf: r.usesOldSelf, error: issuesString(text, r.issues), range: text === src ? r.issues[0].range : undefined };
  let runtimeSource: string | undefined;
  try {
    runtimeSource = rewriteListSemantics(text, p.ast, r.typeOf) ?? (text !== src ? text : undefined);
  } catch {
    runtimeSource = text !== src ? text : undefined;
  }
  return { ast: p.ast, type: r.type, usesOldSelf: r.usesOldSelf, programError: r.programErrors[0], runtimeSource, typeOf: r.typeOf };
}

/**
 * Which expressions compile in the StoredExpressions environment (cel.Compile's envLoader): all of them
 * when serving custom resources, those the stored CRD already had on a CRD update; the others (a CRD
 * create, rules new in an update) in the NewExpressions environment.
 */
export interface ExpressionEnvironments {
  storedRule?(rule: string): boolean;
  storedMessageExpression?(expr: string): boolean;
}

/** Every expression in the StoredExpressions environment (the custom resource handler's). */
export const STORED_EXPRESSIONS: ExpressionEnvironments = { storedRule: () => true, storedMessageExpression: () => true };

/**
 * Compile all rules of one schema node (Compile + compileRule). declType is the node's CEL type
 * (SchemaDeclType of the node); cardinality the node's MaxCardinality fallback.
 */
export function compileRules(node: JSONSchemaProps, declType: DeclType | undefined, envs: ExpressionEnvironments = {}): CompiledRule[] {
  const rules = Array.isArray(node['x-kubernetes-validations']) ? node['x-kubernetes-validations'] : [];
  if (rules.length === 0) return [];
  if (!declType) {
    return rules.map((rule) => ({
      rule,
      usesOldSelf: false,
      maxCost: 0,
      maxCardinality: 0,
      messageExpressionMaxCost: 0,
      error: { type: 'Internal', detail: 'failed to convert to declType for CEL validation rules' },
    }));
  }
  const named = assignTypeName(declType, 'selfType0');
  const card = maxCardinality(declType.minSerializedSize);
  return rules.map((rule) => compileRule(node, rule ?? ({} as ValidationRule), named, card, envs));
}

function compileRule(node: JSONSchemaProps, rule: ValidationRule, declType: DeclType, card: number, envs: ExpressionEnvironments): CompiledRule {
  const out: CompiledRule = { rule, usesOldSelf: false, maxCost: 0, maxCardinality: 0, messageExpressionMaxCost: 0 };
  const src = typeof rule.rule === 'string' ? rule.rule : '';
  if (src.trim().length === 0) return out;
  const vars = ruleVars(declType.cel, rule.optionalOldSelf === true);
  const c = compileExpressionAgainst(src, vars, { storedExpressions: envs.storedRule?.(src) === true });
  if (c.error !== undefined) {
    out.error = { type: 'Invalid', detail: `compilation failed: ${c.error}`, range: c.range };
    return out;
  }
  if (c.type!.kind !== 'bool') {
    out.error = { type: 'Invalid', detail: 'cel expression must evaluate to a bool', range: { start: 0, end: src.length } };
    return out;
  }
  out.usesOldSelf = c.usesOldSelf;
  if (c.programError !== undefined) {
    out.error = { type: 'Invalid', detail: `program instantiation failed: ${c.programError}`, range: { start: 0, end: src.length } };
    return out;
  }
  out.ast = c.ast;
  out.runtimeSource = c.runtimeSource;
  out.maxCost = estimateCost(c.ast!, declType, c.typeOf!);
  out.maxCardinality = card;
  const me = typeof rule.messageExpression === 'string' ? rule.messageExpression : '';
  if (me !== '') {
    const m = compileExpressionAgainst(me, vars, { storedExpressions: envs.storedMessageExpression?.(me) === true });
    if (m.error !== undefined) {
      out.messageExpressionError = { detail: `messageExpression compilation failed: ${m.error}`, range: m.range };
    } else if (m.type!.kind !== 'string') {
      out.messageExpressionError = { detail: 'messageExpression must evaluate to a string', range: { start: 0, end: me.length } };
    } else if (m.programError !== undefined) {
      out.messageExpressionError = { detail: `messageExpression instantiation failed: ${m.programError}` };
    } else {
      out.messageExpressionAst = m.ast;
      out.messageExpressionRuntimeSource = m.runtimeSource;
      out.messageExpressionMaxCost = estimateCost(m.ast!, declType, m.typeOf!);
    }
  }
  // compileRule returns on a messageExpression error before normalizing the fieldPath: such a rule's
  // failures are reported at the node itself.
  if (typeof rule.fieldPath === 'string' && rule.fieldPath !== '' && !out.messageExpressionError) {
    const fp = validFieldPath(rule.fieldPath, node);
    if (fp.path) out.normalizedFieldPath = fp.path;
  }
  return out;
}

/** The CEL type of a node's `self` for rules at schemaPath (for editor hovers). */
export function selfTypeString(node: JSONSchemaProps, isResourceRoot: boolean): string | undefined {
  const d = schemaDeclType(node, isResourceRoot);
  return d ? formatCelType(assignTypeName(d, 'self').cel) : undefined;
}

function unescapeSingleQuote(s: string): string | undefined {
  let bad = false;
  const out = s.replace(/\\./g, (m) => {
    const map: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', "'": "'", '\\': '\\' };
    const r = map[m[1]];
    if (r === undefined) bad = true;
    return r ?? '';
  });
  return bad ? undefined : out;
}

/**
 * ValidFieldPath: resolve a rule's fieldPath (`.a.b`, `['x.y']`) against the schema; the path as
 * field.Path (map keys as [key]) or an error message.
 */
export function validFieldPath(jsonPath: string, schema: JSONSchemaProps): { path?: FieldPath; schema?: JSONSchemaProps; error?: string } {
  // Tokenize as the Go scanner does: '.', '[', ']' single tokens, quoted strings, identifiers.
  const toks: string[] = [];
  let i = 0;
  while (i < jsonPath.length) {
    const c = jsonPath[i];
    if (c === '\'') {
      let j = i + 1;
      while (j < jsonPath.length && !(jsonPath[j] === '\'' && jsonPath[j - 1] !== '\\')) j++;
      if (j >= jsonPath.length) {
        toks.push(jsonPath.slice(i));
        break;
      }
      toks.push(jsonPath.slice(i, j + 1));
      i = j + 1;
      continue;
    }
    if (c === '.' || c === '[' || c === ']') {
      toks.push(c);
      i++;
      continue;
    }
    let j = i;
    while (j < jsonPath.length && !'.[]'.includes(jsonPath[j])) j++;
    toks.push(jsonPath.slice(i, j));
    i = j;
  }
  let path: FieldPath | undefined;
  let s: JSONSchemaProps | undefined = schema;
  const append = (name: string, named: boolean): string | undefined => {
    if (!named) {
      path = (path ?? FieldPath.root()).key(name);
      s = s && typeof s.additionalProperties === 'object' ? (s.additionalProperties as JSONSchemaProps) : undefined;
    } else {
      path = path ? path.child(name) : FieldPath.root(name);
      const p: JSONSchemaProps | undefined = s?.properties?.[name];
      if (!p) return 'does not refer to a valid field';
      s = p;
    }
    return undefined;
  };
  const isNamed = (): boolean | undefined => {
    if (s?.properties) return true;
    if (s?.additionalProperties !== undefined && s.additionalProperties !== false) return false;
    return undefined;
  };
  for (let k = 0; k < toks.length; k++) {
    const tok = toks[k];
    if (tok === '[') {
      const q = toks[++k];
      if (q === undefined) return { error: 'unexpected end of JSON path' };
      if (q.length < 2 || q[0] !== '\'' || q[q.length - 1] !== '\'') return { error: `expected single quoted string but got ${q}` };
      const un = unescapeSingleQuote(q.slice(1, -1));
      if (un === undefined) return { error: 'invalid string literal' };
      const named = isNamed();
      if (named === undefined) return { error: 'does not refer to a valid field' };
      const e = append(un, named);
      if (e) return { error: e };
      const close = toks[++k];
      if (close === undefined) return { error: 'unexpected end of JSON path' };
      if (close !== ']') return { error: `expected ] but got ${close}` };
    } else if (tok === '.') {
      const name = toks[++k];
      if (name === undefined) return { error: 'unexpected end of JSON path' };
      const named = isNamed();
      if (named === undefined) return { error: 'does not refer to a valid field' };
      const e = append(name, named);
      if (e) return { error: e };
    } else {
      return { error: `expected [ or . but got: ${tok}` };
    }
  }
  return { path: path ?? FieldPath.root(), schema: s };
}

interface Visit {
  node: JSONSchemaProps;
  path: FieldPath;
  isResourceRoot: boolean;
}

/** Every schema node with its path relative to the schema root (properties, items, additionalProperties). */
export function schemaNodes(schema: JSONSchemaProps, root: FieldPath): Visit[] {
  const out: Visit[] = [];
  const walk = (s: JSONSchemaProps, p: FieldPath, isRoot: boolean) => {
    if (!s || typeof s !== 'object') return;
    out.push({ node: s, path: p, isResourceRoot: isRoot || s['x-kubernetes-embedded-resource'] === true });
    if (s.properties && typeof s.properties === 'object') {
      for (const k of Object.keys(s.properties).sort()) walk(s.properties[k], p.child('properties').key(k), false);
    }
    if (s.additionalProperties && typeof s.additionalProperties === 'object') walk(s.additionalProperties, p.child('additionalProperties'), false);
    if (s.items && typeof s.items === 'object' && !Array.isArray(s.items)) walk(s.items, p.child('items'), false);
  };
  walk(schema, root, true);
  return out;
}

/**
 * The rule as the API server prints it in a compile error: the internal apiextensions.ValidationRule struct
 * (no json tags, so Go field names in declaration order, nil pointers as null).
 */
export function internalValidationRule(rule: ValidationRule): GoStruct {
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const ptr = (v: unknown) => (v === undefined ? null : v);
  return new GoStruct([
    ['Rule', str(rule?.rule)],
    ['Message', str(rule?.message)],
    ['MessageExpression', str(rule?.messageExpression)],
    ['Reason', ptr(rule?.reason)],
    ['FieldPath', str(rule?.fieldPath)],
    ['OptionalOldSelf', ptr(rule?.optionalOldSelf)],
  ]);
}

function ruleErr(path: FieldPath, i: number, child: string, bad: unknown, detail: string, range?: { start: number; end: number }): FieldError {
  const e = invalid(path.child('x-kubernetes-validations').index(i).child(child), bad, detail);
  if (range) e.ruleRange = range;
  return e;
}

/**
 * Compiles and type-checks every x-kubernetes-validations rule of a schema as the API server does on
 * CRD create; error paths are relative to the schema root (`properties[a].x-kubernetes-validations[0].rule`).
 */
export function compileSchemaValidations(schema: JSONSchemaProps): FieldError[] {
  const errs: FieldError[] = [];
  try {
    for (const v of schemaNodes(schema, FieldPath.root())) {
      const rules = v.node['x-kubernetes-validations'];
      if (!Array.isArray(rules) || rules.length === 0) continue;
      const results = compileRules(v.node, schemaDeclType(v.node, v.isResourceRoot));
      results.forEach((r, i) => {
        if (r.error) errs.push(ruleErr(v.path, i, 'rule', internalValidationRule(r.rule), r.error.detail, r.error.range));
        if (r.messageExpressionError) errs.push(ruleErr(v.path, i, 'messageExpression', internalValidationRule(r.rule), r.messageExpressionError.detail, r.messageExpressionError.range));
      });
    }
  } catch (e) {
    errs.push(invalid(FieldPath.root(), undefined, `internal error compiling rules: ${e instanceof Error ? e.message : String(e)}`));
  }
  return errs;
}
