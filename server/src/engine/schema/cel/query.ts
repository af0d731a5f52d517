/**
 * Queries for editor features over the CEL pipeline: the checker is the one source of types. Given a
 * rule's text, a cursor offset and where the rule lives (its schema node), these answer what an editor
 * asks: the type of the expression under the cursor (hover), what may follow the cursor (completion,
 * also in text that does not parse yet), the call being written (signature help), the fields of a
 * type, the functions and macros available on a receiver at a Kubernetes version, and a rule's cost
 * with what it is made of. Offsets are UTF-16 offsets into the expression text.
 *
 * Names are CEL names: a property `foo-bar` is the field `foo__dash__bar` (FieldInfo.jsonName keeps the
 * property name); keywords are escaped as `__namespace__` (and from Kubernetes 1.31 also found bare).
 */
import type { JSONSchemaProps } from '../types';
import { check, type CheckedAst } from '../../cel/checker/checker';
import { isAssignable } from '../../cel/checker/unify';
import { estimateCost, type CostFactor } from '../../cel/cost/estimate';
import type { Range as SizeRange } from '../../cel/cost/model';
import { celEnvironment, type CelEnvironment, type CompiledExpression } from '../../cel/environment';
import type { EnvKind, ResolvedOverload } from '../../cel/library';
import { ACCUMULATOR, children, type ComprehensionExpr, type Expr } from '../../cel/syntax/ast';
import { endsOperand, tokenize, type Token } from '../../cel/syntax/lexer';
import { parse } from '../../cel/syntax/parse';
import { schemaDeclType } from './model';
import { T, assignTypeName, declOf, formatCelType, type CelType, type DeclType } from '../../cel/common/types';

/** Where an expression lives: the schema node whose x-kubernetes-validations hold it, and the server modelled. */
export interface RuleSite {
  /** The schema node of the rule (its `self`). */
  schema: JSONSchemaProps;
  /** The node is a resource root or an embedded resource (apiVersion, kind, metadata are declared). */
  isResourceRoot: boolean;
  /** The rule sets optionalOldSelf (oldSelf is an optional). */
  optionalOldSelf?: boolean;
  /** Kubernetes minor version (default: the newest supported). */
  kubernetesMinor?: number;
  /** 'new' (default: a new rule, checked at the compatibility version) or 'stored'. */
  kind?: EnvKind;
}

/** A field of an object type. */
export interface FieldInfo {
  /** The CEL name (escaped: `foo__dash__bar`). */
  name: string;
  /** The property name in the object. */
  jsonName: string;
  type: CelType;
  /** Readable type (`string`, `list(object)`, `int-or-string`). */
  typeText: string;
  required: boolean;
  /** The property has a default (so it is present after defaulting even when not required). */
  hasDefault: boolean;
  description?: string;
  /** The property's schema. */
  schema?: JSONSchemaProps;
}

/** A function or macro an editor can offer. */
export interface FunctionInfo {
  name: string;
  kind: 'function' | 'macro';
  /** One per overload: `string.split(string) -> list(string)`. */
  signatures: string[];
  doc: string;
  /** Library (`cel.lib.ext.strings`, `kubernetes.quantity`). */
  library: string;
  /** Member (`x.f()`) or global (`f(x)`). */
  member: boolean;
}

/** What the cursor is on. */
export interface TypeAtResult {
  /** Source range of the expression. */
  range: { start: number; end: number };
  type: CelType;
  typeText: string;
  kind: 'variable' | 'iteration variable' | 'field' | 'call' | 'macro' | 'literal' | 'expression';
  /** The identifier, field or function name. */
  name?: string;
  /** Fields, when the type is an object (or an optional of one). */
  fields?: FieldInfo[];
  /** The element type of a list (or value type of a map), readable. */
  elemText?: string;
  /** For calls: the overloads it resolved to. */
  signatures?: string[];
  doc?: string;
}

/** A completion candidate. */
export interface CompletionCandidate {
  label: string;
  kind: 'field' | 'function' | 'macro' | 'variable' | 'namespace' | 'type' | 'keyword';
  /** Type or signature. */
  detail: string;
  doc?: string;
  field?: FieldInfo;
}

/** What may follow the cursor. */
export interface CompletionResult {
  /** The identifier being typed (to replace): start..offset. */
  range: { start: number; end: number };
  prefix: string;
  /** 'member': after `x.` (receiver set when its type is known); 'global': at an operand; 'none': in a string or comment. */
  context: 'member' | 'global' | 'none';
  receiver?: CelType;
  receiverText?: string;
  items: CompletionCandidate[];
}

/** The call being written at the cursor. */
export interface SignatureHelpResult {
  name: string;
  signatures: Array<{ label: string; params: string[]; doc: string }>;
  activeSignature: number;
  activeParameter: number;
}

/** A rule's estimated cost and what it is made of. */
export interface CostBreakdown {
  /** cel-go's estimate of one evaluation. */
  cost: SizeRange;
  /** Size-driven parts: comprehensions (iterations over a schema path) and calls (traversals), outermost first. */
  factors: Array<CostFactor & { pathText?: string; unbounded: boolean }>;
}

/** Names and types visible to a rule: self, oldSelf. */
function ruleVars(decl: DeclType, optionalOldSelf: boolean): Map<string, CelType> {
  return new Map<string, CelType>([
    ['self', decl.cel],
    ['oldSelf', optionalOldSelf ? T.optional(decl.cel) : decl.cel],
  ]);
}

/** A rule site's environment, named self type and variables (undefined when the node has no CEL type). */
export function siteEnvironment(site: RuleSite): { env: CelEnvironment; decl: DeclType; vars: Map<string, CelType> } | undefined {
  const d = schemaDeclType(site.schema, site.isResourceRoot);
  if (!d) return undefined;
  const decl = assignTypeName(d, 'self');
  const env = celEnvironment({ kubernetesMinor: site.kubernetesMinor, kind: site.kind ?? 'new' });
  return { env, decl, vars: ruleVars(decl, site.optionalOldSelf === true) };
}

/** Compiles an expression at a rule site (parse, check, plan). */
export function compileAt(src: string, site: RuleSite): CompiledExpression | undefined {
  const s = siteEnvironment(site);
  return s?.env.compile(src, s.vars);
}

// ---------------------------------------------------------------------------------------------
// Types, readable.

/** A type as a person reads it: `list(string)`, `map(string, object)`, `int-or-string`, `Quantity`. */
export function typeText(t: CelType): string {
  switch (t.kind) {
    case 'dyn': {
      const d = declOf(t);
      if (d?.schema?.['x-kubernetes-int-or-string'] === true) return 'int-or-string';
      return 'dyn';
    }
    case 'object':
      return 'object';
    case 'list':
      return `list(${typeText(t.elem)})`;
    case 'map':
      return `map(${typeText(t.key)}, ${typeText(t.value)})`;
    case 'opaque':
      if (t.name === 'optional_type') return `optional(${typeText(t.params[0])})`;
      return t.name.replace(/^kubernetes\.|^net\./, '') + (t.params.length ? `(${t.params.map(typeText).join(', ')})` : '');
    case 'type':
      return t.param ? `type(${typeText(t.param)})` : 'type';
    case 'null_type':
      return 'null';
    case 'param':
      return 'dyn';
    case 'error':
      return 'unknown';
    default:
      return formatCelType(t);
  }
}

/** The fields of an object type (of the object inside an optional), in property order. */
export function fieldsOf(t: CelType): FieldInfo[] {
  const inner = t.kind === 'opaque' && t.name === 'optional_type' ? t.params[0] : t;
  if (inner.kind !== 'object' || !inner.decl.fields) return [];
  const out: FieldInfo[] = [];
  for (const f of inner.decl.fields.values()) {
    const schema = f.type.schema;
    out.push({
      name: f.name,
      jsonName: f.jsonName,
      type: f.type.cel,
      typeText: typeText(f.type.cel),
      required: f.required,
      hasDefault: schema?.default !== undefined,
      description: typeof schema?.description === 'string' ? schema.description : undefined,
      schema,
    });
  }
  return out;
}

function signature(o: ResolvedOverload, name: string): string {
  const ps = o.params.map(formatCelType);
  if (o.member) return `${ps[0]}.${name}(${ps.slice(1).join(', ')}) -> ${formatCelType(o.result)}`;
  return `${name}(${ps.join(', ')}) -> ${formatCelType(o.result)}`;
}

const INTERNAL = /^(@|_|cel\.@|#)|^(_[^_].*_|!_|-_)$/;

/**
 * The functions and macros available in an environment: member ones whose receiver accepts `receiver`
 * (all members when receiver is dyn), or, without a receiver, the global ones.
 */
export function functionsFor(env: CelEnvironment, receiver: CelType | undefined): FunctionInfo[] {
  const out: FunctionInfo[] = [];
  for (const f of env.decls.functions.values()) {
    if (INTERNAL.test(f.name)) continue;
    const overloads = f.overloads.filter((o) => (receiver ? o.member && receiverAccepts(o.params[0], receiver) : !o.member));
    if (overloads.length === 0) continue;
    out.push({
      name: f.name,
      kind: 'function',
      signatures: overloads.map((o) => signature(o, f.name)),
      doc: f.docs.map((d) => d.doc).filter(Boolean)[0] ?? '',
      library: overloads[0].library,
      member: !!receiver,
    });
  }
  for (const lib of env.decls.libraries) {
    for (const m of lib.macros ?? []) {
      if (!macroApplies(m.receivers, receiver)) continue;
      out.push({ name: m.name, kind: 'macro', signatures: [m.signature], doc: m.doc, library: lib.name, member: !!receiver });
    }
  }
  for (const m of STANDARD_MACROS) {
    if (!macroApplies(m.receivers, receiver)) continue;
    out.push({ name: m.name, kind: 'macro', signatures: [m.signature], doc: m.doc, library: 'cel.stdlib', member: !!receiver });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name) || (a.kind === 'macro' ? -1 : 1));
}

const STANDARD_MACROS: Array<{ name: string; signature: string; doc: string; receivers: Array<'list' | 'map' | 'optional' | 'global'> }> = [
  { name: 'has', signature: 'has(x.field)', doc: 'whether the field is set', receivers: ['global'] },
  { name: 'all', signature: 'list.all(x, predicate)', doc: 'whether the predicate holds for every element (map: key)', receivers: ['list', 'map'] },
  { name: 'exists', signature: 'list.exists(x, predicate)', doc: 'whether the predicate holds for some element (map: key)', receivers: ['list', 'map'] },
  { name: 'exists_one', signature: 'list.exists_one(x, predicate)', doc: 'whether the predicate holds for exactly one element (map: key)', receivers: ['list', 'map'] },
  { name: 'map', signature: 'list.map(x, [filter,] expr)', doc: 'a list of expr for each element (map: key)', receivers: ['list', 'map'] },
  { name: 'filter', signature: 'list.filter(x, predicate)', doc: 'the elements (map: keys) for which the predicate holds', receivers: ['list', 'map'] },
];

function macroApplies(receivers: Array<'list' | 'map' | 'optional' | 'global'>, receiver: CelType | undefined): boolean {
  if (!receiver) return receivers.includes('global');
  switch (receiver.kind) {
    case 'list':
      return receivers.includes('list');
    case 'map':
      return receivers.includes('map');
    case 'opaque':
      return receiver.name === 'optional_type' && receivers.includes('optional');
    case 'dyn':
    case 'param':
      return !receivers.includes('global') || receivers.length > 1;
    default:
      return false;
  }
}

function receiverAccepts(param: CelType, receiver: CelType): boolean {
  if (receiver.kind === 'dyn' || receiver.kind === 'param' || receiver.kind === 'error') return true;
  return isAssignable(new Map(), receiver, param) !== undefined;
}

// ---------------------------------------------------------------------------------------------
// The node under a cursor.

interface Located {
  expr: Expr;
  /** Comprehensions enclosing the node, outermost first. */
  scopes: ComprehensionExpr[];
}

/** The innermost user-written node containing offset (macro-made nodes span their call and lose to what is inside). */
function locate(root: Expr, offset: number): Located | undefined {
  let best: Located | undefined;
  const visit = (e: Expr, scopes: ComprehensionExpr[]) => {
    if (offset < e.start || offset > e.end) return;
    if (!best || e.end - e.start <= best.expr.end - best.expr.start) best = { expr: e, scopes };
    const inner = e.kind === 'comprehension' ? [...scopes, e] : scopes;
    for (const k of children(e)) {
      // A comprehension's range and accumulator init are outside its own scope.
      const s = e.kind === 'comprehension' && (k === e.iterRange || k === e.accuInit) ? scopes : inner;
      visit(k, s);
    }
  };
  visit(root, []);
  return best;
}

/** The comprehension whose macro call declares the iteration variable at offset (`l` in `self.all(l, ...)`). */
function iterationVariableAt(a: CheckedAst, offset: number): { name: string; type: CelType; range: { start: number; end: number } } | undefined {
  for (const [id, m] of a.parsed.macroCalls) {
    for (const arg of m.args.slice(0, 2)) {
      if (arg.kind === 'ident' && offset >= arg.start && offset <= arg.end) {
        const t = a.scopes.get(id)?.get(arg.name) ?? findScope(a, id, arg.name);
        if (t) return { name: arg.name, type: t, range: { start: arg.start, end: arg.end } };
      }
    }
  }
  return undefined;
}

/** A variable of a macro whose expansion is not the comprehension itself (optMap, sortBy: nested). */
function findScope(a: CheckedAst, id: number, name: string): CelType | undefined {
  const stack = [a.parsed.expr];
  let inside = false;
  while (stack.length) {
    const e = stack.pop()!;
    if (e.id === id) inside = true;
    if (inside && e.kind === 'comprehension') {
      const t = a.scopes.get(e.id)?.get(name);
      if (t) return t;
    }
    stack.push(...children(e));
  }
  return undefined;
}

/** The type and meaning of the expression at offset, in a rule that type-checks (or parses). */
export function typeAt(src: string, offset: number, site: RuleSite): TypeAtResult | undefined {
  const s = siteEnvironment(site);
  if (!s) return undefined;
  const p = parse(src, s.env.decls.macros);
  if (!p.ok) return undefined;
  const a = check(p.ast, s.env.decls, s.vars);
  const iv = iterationVariableAt(a, offset);
  if (iv) return describe(iv.type, iv.range, 'iteration variable', iv.name);
  const loc = locate(p.ast.expr, offset);
  if (!loc) return undefined;
  const e = loc.expr;
  const t = a.types.get(e.id) ?? T.dyn;
  const range = { start: e.start, end: e.end };
  switch (e.kind) {
    case 'ident': {
      const inLoop = loc.scopes.some((c) => c.iterVar === e.name || c.iterVar2 === e.name);
      return describe(t, range, inLoop ? 'iteration variable' : 'variable', e.name);
    }
    case 'select':
      return describe(t, range, 'field', e.field);
    case 'literal':
      return describe(t, range, 'literal');
    case 'comprehension': {
      const m = a.parsed.macroCalls.get(e.id);
      return describe(t, range, 'macro', m?.name);
    }
    case 'call': {
      const ref = a.references.get(e.id);
      const name = ref?.kind === 'call' ? ref.fn : e.fn;
      const r = describe(t, range, INTERNAL.test(name) ? 'expression' : 'call', INTERNAL.test(name) ? undefined : name);
      if (ref?.kind === 'call' && !INTERNAL.test(name)) {
        r.signatures = ref.overloads.map((o) => signature(o, name));
        r.doc = s.env.decls.functions.get(name)?.docs[0]?.doc;
      }
      return r;
    }
    default:
      return describe(t, range, 'expression');
  }
}

function describe(t: CelType, range: { start: number; end: number }, kind: TypeAtResult['kind'], name?: string): TypeAtResult {
  const r: TypeAtResult = { range, type: t, typeText: typeText(t), kind, ...(name ? { name } : {}) };
  const fields = fieldsOf(t);
  if (fields.length) r.fields = fields;
  if (t.kind === 'list') r.elemText = typeText(t.elem);
  if (t.kind === 'map') r.elemText = typeText(t.value);
  return r;
}

// ---------------------------------------------------------------------------------------------
// Completion and signature help over text that need not parse.

const PROBE = 'zzCelProbe';

/** The text before offset made parseable: the identifier being typed replaced by a probe, brackets closed. */
function probeText(tokens: Token[], src: string, start: number): string {
  const closers: string[] = [];
  for (const t of tokens) {
    if (t.start >= start) break;
    if (t.kind !== 'punct') continue;
    if (t.text === '(' || t.text === '[' || t.text === '{') closers.push(t.text === '(' ? ')' : t.text === '[' ? ']' : '}');
    else if (t.text === ')' || t.text === ']' || t.text === '}') closers.pop();
  }
  // An unfinished conditional needs its else branch.
  let open = 0;
  let prev: Token | undefined;
  for (const t of tokens) {
    if (t.start >= start) break;
    // `?` after an operand is the conditional; after `.`, `[`, `,` or `{` it is optional syntax.
    if (t.text === '?' && t.kind === 'punct' && endsOperand(prev)) open++;
    else if (t.text === ':' && open > 0) open--;
    prev = t;
  }
  return src.slice(0, start) + PROBE + (open > 0 ? ' : ' + PROBE : '') + closers.reverse().join('');
}

/** The completion context at offset: what kind of name may follow, and the candidates. */
export function completionAt(src: string, offset: number, site: RuleSite): CompletionResult {
  const before = src.slice(0, offset);
  const tokens = tokenize(before);
  const last = tokens[tokens.length - 1];
  const none: CompletionResult = { range: { start: offset, end: offset }, prefix: '', context: 'none', items: [] };
  if (last?.kind === 'error' && /^[rRbB]*['"]/.test(last.text)) return none;
  if (last && (last.kind === 'string' || last.kind === 'number') && last.end === offset) return none;
  let start = offset;
  let prefix = '';
  let idx = tokens.length;
  if (last?.kind === 'ident' && last.end === offset) {
    start = last.start;
    prefix = last.text;
    idx--;
  }
  const prev = tokens[idx - 1];
  const prev2 = tokens[idx - 2];
  const member = prev?.kind === 'punct' && (prev.text === '.' || (prev.text === '?' && prev2?.text === '.'));
  const s = siteEnvironment(site);
  const range = { start, end: offset };
  if (!s) return { range, prefix, context: member ? 'member' : 'global', items: [] };
  const probe = probeText(tokens, src, start);
  const p = parse(probe, s.env.decls.macros);
  let receiver: CelType | undefined;
  let scope = new Map<string, CelType>();
  if (p.ok) {
    const a = check(p.ast, s.env.decls, s.vars);
    const found = findProbe(p.ast.expr);
    if (found) {
      if (member && found.operand) receiver = a.types.get(found.operand.id);
      for (const c of found.scopes) {
        for (const [k, t] of a.scopes.get(c.id) ?? []) if (k !== ACCUMULATOR && !k.startsWith('@') && !k.startsWith('#')) scope.set(k, t);
      }
    }
  } else if (!member) scope = new Map();
  if (member) {
    const items: CompletionCandidate[] = [];
    const recv = receiver ?? T.dyn;
    for (const f of fieldsOf(recv)) items.push({ label: f.name, kind: 'field', detail: f.typeText, doc: f.description, field: f });
    if (!member || prev?.text !== '?') {
      for (const fn of functionsFor(s.env, recv)) items.push({ label: fn.name, kind: fn.kind, detail: fn.signatures[0], doc: fn.doc });
    }
    return { range, prefix, context: 'member', receiver, receiverText: receiver ? typeText(receiver) : undefined, items };
  }
  const items: CompletionCandidate[] = [];
  for (const [k, t] of s.vars) items.push({ label: k, kind: 'variable', detail: typeText(t), doc: k === 'oldSelf' ? 'the previous value (transition rules, on update)' : 'the value the rule is on' });
  for (const [k, t] of scope) items.push({ label: k, kind: 'variable', detail: typeText(t) });
  const namespaces = new Set<string>();
  for (const fn of functionsFor(s.env, undefined)) {
    const dot = fn.name.indexOf('.');
    if (dot > 0) namespaces.add(fn.name.slice(0, dot));
    else items.push({ label: fn.name, kind: fn.kind, detail: fn.signatures[0], doc: fn.doc });
  }
  for (const n of namespaces) items.push({ label: n, kind: 'namespace', detail: `${n}.* functions` });
  for (const k of ['true', 'false', 'null']) items.push({ label: k, kind: 'keyword', detail: k === 'null' ? 'null' : 'bool' });
  return { range, prefix, context: 'global', items };
}

/** The probe node: an identifier, a select's field or an optional select's field named PROBE. */
function findProbe(root: Expr): { operand?: Expr; scopes: ComprehensionExpr[] } | undefined {
  let out: { operand?: Expr; scopes: ComprehensionExpr[] } | undefined;
  const visit = (e: Expr, scopes: ComprehensionExpr[]) => {
    if (out) return;
    if (e.kind === 'ident' && e.name === PROBE) out = { scopes };
    else if (e.kind === 'select' && e.field === PROBE) out = { operand: e.operand, scopes };
    else if (e.kind === 'call' && e.fn === '_?._' && e.args[1]?.kind === 'literal' && e.args[1].value === PROBE) out = { operand: e.args[0], scopes };
    else if (e.kind === 'call' && e.target && e.fn === PROBE) out = { operand: e.target, scopes };
    const inner = e.kind === 'comprehension' ? [...scopes, e] : scopes;
    for (const k of children(e)) visit(k, e.kind === 'comprehension' && (k === e.iterRange || k === e.accuInit) ? scopes : inner);
  };
  visit(root, []);
  return out;
}

/** The call being written at offset: its overloads and the argument the cursor is in. */
export function signatureAt(src: string, offset: number, site: RuleSite): SignatureHelpResult | undefined {
  const tokens = tokenize(src.slice(0, offset));
  // The innermost unclosed '(' preceded by a name.
  let depth = 0;
  let commas = 0;
  let open = -1;
  for (let i = tokens.length - 1; i >= 0; i--) {
    const t = tokens[i];
    if (t.kind !== 'punct') continue;
    if (t.text === ')' || t.text === ']' || t.text === '}') depth++;
    else if (t.text === '(' || t.text === '[' || t.text === '{') {
      if (depth === 0) {
        if (t.text === '(') open = i;
        break;
      }
      depth--;
    } else if (t.text === ',' && depth === 0) commas++;
  }
  if (open <= 0 || tokens[open - 1].kind !== 'ident') return undefined;
  const nameTok = tokens[open - 1];
  const dot = tokens[open - 2];
  const s = siteEnvironment(site);
  if (!s) return undefined;
  let name = nameTok.text;
  let receiver: CelType | undefined;
  let member = false;
  if (dot?.kind === 'punct' && dot.text === '.') {
    const ns = tokens[open - 3];
    if (ns?.kind === 'ident' && s.env.decls.functions.has(`${ns.text}.${name}`) && !s.vars.has(ns.text)) name = `${ns.text}.${name}`;
    else {
      member = true;
      const probe = probeText(tokens, src, nameTok.start);
      const p = parse(probe, s.env.decls.macros);
      if (p.ok) {
        const a = check(p.ast, s.env.decls, s.vars);
        const found = findProbe(p.ast.expr);
        if (found?.operand) receiver = a.types.get(found.operand.id);
      }
    }
  }
  const fn = s.env.decls.functions.get(name);
  const macro = [...STANDARD_MACROS, ...s.env.decls.libraries.flatMap((l) => l.macros ?? [])].filter((m) => m.name === name && macroApplies(m.receivers, member ? (receiver ?? T.dyn) : undefined));
  const signatures: SignatureHelpResult['signatures'] = [];
  for (const m of macro) signatures.push({ label: m.signature, params: paramsOf(m.signature), doc: m.doc });
  for (const o of fn?.overloads ?? []) {
    if (o.member !== member) continue;
    if (member && receiver && !receiverAccepts(o.params[0], receiver)) continue;
    const ps = (member ? o.params.slice(1) : o.params).map(formatCelType);
    if (ps.length < commas + 1 && !(ps.length === 0 && commas === 0)) continue;
    const label = member ? `${formatCelType(o.params[0])}.${name.split('.').pop()}(${ps.join(', ')}) -> ${formatCelType(o.result)}` : `${name}(${ps.join(', ')}) -> ${formatCelType(o.result)}`;
    signatures.push({ label, params: ps, doc: fn?.docs[0]?.doc ?? '' });
  }
  if (signatures.length === 0) return undefined;
  return { name, signatures, activeSignature: 0, activeParameter: commas };
}

function paramsOf(sig: string): string[] {
  const m = /\((.*)\)/.exec(sig);
  return m
    ? m[1]
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)
    : [];
}

// ---------------------------------------------------------------------------------------------
// Cost.

/** The declaration at a cost path (`self`, a field, `@items`, `@values`, `@keys`) under root. */
export function declAtPath(root: DeclType, path: string[] | undefined): DeclType | undefined {
  if (!path || path.length === 0) return undefined;
  let cur: DeclType | undefined = root;
  for (const seg of path.slice(1)) {
    if (!cur) return undefined;
    if (seg === '@items' || seg === '@values') cur = cur.elemType;
    else if (seg === '@keys') cur = cur.keyType;
    else cur = cur.fields?.get(seg)?.type;
  }
  return cur;
}

/** Whether the value at a cost path has no declared bound (maxItems, maxProperties, maxLength; enums bound strings). */
function isUnbounded(root: DeclType, path: string[] | undefined): boolean {
  const d = declAtPath(root, path);
  const s = d?.schema;
  if (!d || !s) return !!path;
  switch (d.cel.kind) {
    case 'list':
      return s.maxItems === undefined;
    case 'map':
      return s.maxProperties === undefined;
    case 'string':
    case 'bytes':
      return s.maxLength === undefined && !(Array.isArray(s.enum) && s.enum.length > 0) && s.format === undefined;
    case 'dyn':
      return s.maxLength === undefined;
    default:
      return false;
  }
}

/** The estimated cost of a rule at its site, with the comprehensions and calls that size it. */
export function costBreakdown(src: string, site: RuleSite): CostBreakdown | undefined {
  const s = siteEnvironment(site);
  if (!s) return undefined;
  const c = s.env.compile(src, s.vars);
  if (!c.checked) return undefined;
  const est = estimateCost(c.checked, s.decl);
  return {
    cost: est.cost,
    factors: est.factors.map((f) => ({ ...f, pathText: f.path ? f.path.join('.') : undefined, unbounded: isUnbounded(s.decl, f.path) })),
  };
}
