/**
 * Editor features inside the CEL expressions of a CRD (`rule:` and `messageExpression:` of
 * x-kubernetes-validations): completion, hover and signature help. Every type comes from the engine's
 * checker through its query API (engine/schema/cel/query.ts); this module only finds the expression and the
 * cursor in the YAML (any scalar style, through the YAML layer's string offsets) and renders answers.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { CompletionItemKind, InsertTextFormat, MarkupKind, type CompletionItem, type Position, type Range, type SignatureHelp } from 'vscode-languageserver-types';
import { compileAt, completionAt, costBreakdown, fieldsOf, functionsFor, signatureAt, siteEnvironment, typeAt, typeText, type CompletionCandidate, type FieldInfo, type RuleSite, type TypeAtResult } from '../engine';
import { PER_CALL_LIMIT } from '../engine';
import type { CelType } from '../engine';
import type { PathSegment } from '../engine';
import type { JSONSchemaProps } from '../engine';
import { scalarSourceOffsets } from '../yaml';
import type { ServiceContext } from './context';
import { guard } from './engineCalls';
import { openAPISchemaIndex, schemaPlace, valueAt } from './kube';
import { formatCost, valuePathOfSchemaPath } from './messages';
import { extractMaxElements, multiplyWithOverflowGuard, STATIC_ESTIMATED_COST_LIMIT } from '../engine';
import { isScalar, nodeRange, pathAtOffset, type Node, type YamlDocument } from '../yaml/file';
import { isJSONObject } from '../engine';

/**
 * How many times a rule runs per object, as the API server's estimate at CRD create counts it (the bounds of
 * the lists and maps above its node): `times`, or the first unbounded one (`unboundedAt`, a value path).
 */
export interface RuleRuns {
  times?: number;
  unboundedAt?: string;
}

/** A CEL expression of a CRD with a cursor in it. */
export interface CelAt {
  /** Which field of the validation rule holds the expression. */
  field: 'rule' | 'messageExpression';
  site: RuleSite;
  runs: RuleRuns;
  /** The expression (the string's value). */
  src: string;
  /** The cursor, as an offset into `src`. */
  offset: number;
  /** The path of the string in the document. */
  path: PathSegment[];
}

function segName(s: PathSegment): string {
  return s.kind === 'field' ? s.name : s.kind === 'key' ? s.key : String(s.index);
}

/**
 * Where a rule at `path` (…`x-kubernetes-validations[i].rule` or `.messageExpression`) of a CRD value
 * lives: its schema node and how the API server declares `self` and `oldSelf` there. Undefined when the
 * path is not such a field.
 */
export function ruleSiteOf(ctx: ServiceContext, crd: unknown, path: readonly PathSegment[]): { site: RuleSite; field: 'rule' | 'messageExpression'; runs: RuleRuns } | undefined {
  const names = path.map(segName);
  const oi = openAPISchemaIndex(names);
  const field = names[names.length - 1];
  if (oi < 0 || (field !== 'rule' && field !== 'messageExpression')) return undefined;
  if (schemaPlace(names.slice(oi + 1, -1)) !== 'rule') return undefined;
  const ownerPath = path.slice(0, -3);
  const owner = valueAt(crd, ownerPath);
  const rule = valueAt(crd, path.slice(0, -1));
  if (!isJSONObject(owner)) return undefined;
  const schema = owner as JSONSchemaProps;
  const site: RuleSite = {
    schema,
    // The root of a resource and an embedded resource declare apiVersion, kind and metadata.
    isResourceRoot: ownerPath.length === oi + 1 || schema['x-kubernetes-embedded-resource'] === true,
    optionalOldSelf: isJSONObject(rule) && rule.optionalOldSelf === true,
    kubernetesMinor: ctx.settings.kubernetesMinor,
  };
  return { site, field, runs: ruleRuns(valueAt(crd, path.slice(0, oi + 1)), names.slice(oi + 1, -3)) };
}

/** RuleRuns of the node at `steps` (schema path names below openAPIV3Schema) under `root`. */
function ruleRuns(root: unknown, steps: string[]): RuleRuns {
  let cur = root;
  let times = 1;
  const schemaPath: string[] = [];
  for (let i = 0; i < steps.length && isJSONObject(cur); i++) {
    const max = extractMaxElements(cur as JSONSchemaProps);
    if (max === undefined) return { unboundedAt: valuePathOfSchemaPath(schemaPath.join('.')) };
    times = multiplyWithOverflowGuard(times, max);
    if (steps[i] === 'properties') {
      const key = steps[++i];
      schemaPath.push(`properties[${key}]`);
      cur = isJSONObject(cur.properties) ? cur.properties[key] : undefined;
    } else {
      schemaPath.push(steps[i]);
      cur = cur[steps[i]];
    }
  }
  return { times };
}

/** The offset into a string scalar's value of a file offset inside its source (any scalar style). */
function offsetInValue(fileText: string, doc: YamlDocument, node: Node, value: string, fileOffset: number): number | undefined {
  const r = nodeRange(doc, node);
  if (!r || !isScalar(node)) return undefined;
  const map = scalarSourceOffsets(fileText.slice(r[0], r[1]), node.type, value);
  if (!map) return undefined;
  const rel = fileOffset - r[0];
  // The last value offset whose source is at or before the cursor.
  let lo = 0;
  let hi = map.length - 1;
  if (rel < map[0]) return 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (map[mid] <= rel) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The CEL expression under a file offset of a CRD document, with the cursor in it. */
export function celAt(ctx: ServiceContext, td: TextDocument, doc: YamlDocument, offset: number): CelAt | undefined {
  const found = pathAtOffset(doc, offset);
  if (!found || found.onKey) return undefined;
  const at = ruleSiteOf(ctx, doc.value, found.segments);
  if (!at) return undefined;
  const node = found.node;
  if (!isScalar(node)) return undefined;
  if (node.value === null || node.value === undefined || node.value === '') return { ...at, src: '', offset: 0, path: found.segments };
  if (typeof node.value !== 'string') return undefined;
  const inValue = offsetInValue(td.getText(), doc, node, node.value, offset);
  if (inValue === undefined) return undefined;
  return { ...at, src: node.value, offset: inValue, path: found.segments };
}

// ---------------------------------------------------------------------------------------------
// Completion.

const ITEM_KIND: Record<CompletionCandidate['kind'], CompletionItemKind> = {
  field: CompletionItemKind.Field,
  function: CompletionItemKind.Function,
  macro: CompletionItemKind.Function,
  variable: CompletionItemKind.Variable,
  namespace: CompletionItemKind.Module,
  type: CompletionItemKind.Class,
  keyword: CompletionItemKind.Keyword,
};

/** Sorted: fields, then variables, then functions and macros, then namespaces and keywords. */
const SORT: Record<CompletionCandidate['kind'], string> = { field: '0', variable: '1', function: '2', macro: '2', namespace: '3', type: '3', keyword: '4' };

/**
 * Completion inside a CEL expression: `src` is the expression text up to (at least) the cursor,
 * `offset` the cursor in it, `pos` the cursor in the file. The identifier being typed is replaced.
 */
export function celCompletion(site: RuleSite, src: string, offset: number, pos: Position): CompletionItem[] {
  const r = guard(() => completionAt(src, offset, site));
  if (!r.ok || r.value.context === 'none') return [];
  const c = r.value;
  // An identifier has no escapes in any scalar style: the prefix is as long in the file as in the value.
  const range: Range = { start: { line: pos.line, character: pos.character - c.prefix.length }, end: pos };
  let items = c.items;
  // `sets.`, `optional.`: the functions of a namespace (a name that is not a variable in scope).
  const ns = c.context === 'member' ? namespaceBefore(src, c.range.start) : undefined;
  if (ns) {
    const at = c.range.start - ns.length - 1;
    const scope = guard(() => completionAt(src.slice(0, at), at, site));
    const isVariable = !scope.ok || scope.value.items.some((i) => i.kind === 'variable' && i.label === ns);
    const inNamespace = isVariable ? [] : globalFunctions(site).filter((f) => f.label.startsWith(ns + '.'));
    if (inNamespace.length) items = inNamespace.map((f) => ({ ...f, label: f.label.slice(ns.length + 1) }));
  }
  return mergeOverloads(items).map((i) => completionItem(i, range));
}

/**
 * One item per function or macro name: `all` and `exists` are two macros each (one and two variables,
 * the second from the two-variable comprehensions), listed once with both signatures.
 */
function mergeOverloads(items: CompletionCandidate[]): CompletionCandidate[] {
  const byName = new Map<string, CompletionCandidate>();
  const out: CompletionCandidate[] = [];
  for (const i of items) {
    const call = i.kind === 'function' || i.kind === 'macro';
    const seen = call ? byName.get(i.label) : undefined;
    if (!seen) {
      const copy = { ...i };
      if (call) byName.set(i.label, copy);
      out.push(copy);
      continue;
    }
    if (!seen.detail.split(' / ').includes(i.detail)) seen.detail = `${seen.detail} / ${i.detail}`;
    if (i.doc && i.doc !== seen.doc) seen.doc = seen.doc ? `${seen.doc}\n\n${i.doc}` : i.doc;
  }
  return out;
}

/** The identifier before the `.` that ends at `start` (`sets` in `sets.con`), unless it is itself a field (`x.sets.`). */
function namespaceBefore(src: string, start: number): string | undefined {
  const m = /([A-Za-z_][A-Za-z0-9_]*)\s*\.\s*$/.exec(src.slice(0, start));
  if (!m) return undefined;
  const before = src.slice(0, start - m[0].length);
  return /\.\s*$/.test(before) ? undefined : m[1];
}

/** Every global function of the site's environment, by full name (`sets.contains`). */
function globalFunctions(site: RuleSite): CompletionCandidate[] {
  const s = siteEnvironment(site);
  if (!s) return [];
  return functionsFor(s.env, undefined).map((fn) => ({ label: fn.name, kind: fn.kind, detail: fn.signatures[0], doc: fn.doc }));
}

function completionItem(i: CompletionCandidate, range: Range): CompletionItem {
  const call = i.kind === 'function' || i.kind === 'macro';
  const item: CompletionItem = {
    label: i.label,
    kind: ITEM_KIND[i.kind],
    detail: i.field ? fieldDetail(i.field) : i.detail,
    sortText: SORT[i.kind] + i.label,
    textEdit: { range, newText: call ? `${i.label}($0)` : i.label },
  };
  if (call) item.insertTextFormat = InsertTextFormat.Snippet;
  const doc = i.field?.description ?? i.doc;
  if (doc) item.documentation = { kind: MarkupKind.Markdown, value: doc };
  return item;
}

function fieldDetail(f: FieldInfo): string {
  const marks = [f.required ? 'required' : f.hasDefault ? 'has a default' : 'optional', f.name !== f.jsonName ? `property "${f.jsonName}"` : ''].filter(Boolean);
  return `${f.typeText} (${marks.join(', ')})`;
}

// ---------------------------------------------------------------------------------------------
// Hover.

/** How many fields a hover lists before it says how many more there are. */
const MAX_HOVER_FIELDS = 30;

function fieldLines(fields: FieldInfo[]): string[] {
  const out = fields
    .slice(0, MAX_HOVER_FIELDS)
    .map((f) => `- \`${f.name}\`: \`${f.typeText}\`${f.required ? ' — required' : f.hasDefault ? ' — has a default' : ''}${f.description ? ` — ${firstSentence(f.description)}` : ''}`);
  if (fields.length > MAX_HOVER_FIELDS) out.push(`- … ${fields.length - MAX_HOVER_FIELDS} more`);
  return out;
}

function firstSentence(s: string): string {
  const line = s.split('\n')[0];
  const m = /^(.{1,120}?[.!?])(\s|$)/.exec(line);
  return m ? m[1] : line.length > 120 ? line.slice(0, 119) + '…' : line;
}

/** A type for people: an object lists its fields, a list or map names its items (and their fields). */
export function describeType(t: CelType): string[] {
  const lines: string[] = [];
  const fields = fieldsOf(t);
  if (fields.length) {
    lines.push('', 'Fields:', ...fieldLines(fields));
    return lines;
  }
  const elem = t.kind === 'list' ? t.elem : t.kind === 'map' ? t.value : undefined;
  if (elem) {
    const ef = fieldsOf(elem);
    lines.push('', `${t.kind === 'list' ? 'Items' : 'Values'}: \`${typeText(elem)}\`${ef.length ? ' with fields:' : ''}`);
    if (ef.length) lines.push(...fieldLines(ef));
  }
  return lines;
}

function subExpressionHover(r: TypeAtResult, src: string): string[] {
  const what = r.name ? `\`${r.name}\` (${r.kind})` : `\`${src.slice(r.range.start, r.range.end)}\``;
  const lines = [`${what}: \`${r.typeText}\``];
  if (r.signatures?.length) lines.push('', ...r.signatures.map((s) => `- \`${s}\``));
  if (r.doc) lines.push('', r.doc);
  lines.push(...describeType(r.type));
  return lines;
}

/**
 * The estimated cost of a rule and what it is made of, for people. Two limits apply and each is named:
 * the API server's estimate when the CRD is created (the cost of one evaluation times the times the rule
 * runs per object, limit 10 million per rule, the number the cost errors quote) and each evaluation's
 * runtime limit (1 million).
 */
export function costLines(site: RuleSite, src: string, runs: RuleRuns = { times: 1 }): string[] {
  const b = guard(() => costBreakdown(src, site));
  if (!b.ok || !b.value) return [];
  const { cost, factors } = b.value;
  const lines: string[] = [];
  const compiled = guard(() => compileAt(src, site));
  if (compiled.ok && compiled.value?.checked?.usedVariables.has('oldSelf')) lines.push('A transition rule (uses `oldSelf`): checked on update only.', '');
  const perCall = cost.max;
  const atCreate = runs.times !== undefined ? multiplyWithOverflowGuard(perCall, runs.times) : undefined;
  const createLimit = `the limit of ${formatCost(STATIC_ESTIMATED_COST_LIMIT)} per rule when the CRD is created`;
  const callLimit = `the runtime limit of ${formatCost(PER_CALL_LIMIT)} per evaluation`;
  if (runs.times === 1) {
    const over = [perCall > STATIC_ESTIMATED_COST_LIMIT ? createLimit : '', perCall > PER_CALL_LIMIT ? callLimit : ''].filter(Boolean);
    lines.push(
      `Estimated cost: ${formatCost(perCall)}${over.length ? ` — over ${over.join(', and over ')}` : ` (limits: ${formatCost(STATIC_ESTIMATED_COST_LIMIT)} per rule when the CRD is created, ${formatCost(PER_CALL_LIMIT)} per evaluation at runtime)`}`,
    );
  } else {
    lines.push(`Estimated cost: ${formatCost(perCall)} per evaluation${perCall > PER_CALL_LIMIT ? ` — over ${callLimit}` : ` (runtime limit ${formatCost(PER_CALL_LIMIT)})`}`);
    if (atCreate !== undefined) lines.push(`It runs up to ${formatCost(runs.times!)} times per object: ${formatCost(atCreate)} in all, ${atCreate > STATIC_ESTIMATED_COST_LIMIT ? 'over' : 'under'} ${createLimit}.`);
    else lines.push(`It runs once per item of \`${runs.unboundedAt}\`, which is unbounded: the API server multiplies its cost by the most items a request can hold and holds that to ${createLimit}.`);
  }
  // The parts sized by the schema: what a bound (maxItems, maxProperties, maxLength) changes.
  for (const f of factors.filter((x) => x.pathText && x.size.max > 1).slice(0, 8)) {
    const expr = src.slice(f.start, f.end);
    const short = expr.length > 60 ? expr.slice(0, 59) + '…' : expr;
    const size = f.unbounded ? 'unbounded (no maxItems/maxProperties/maxLength)' : `at most ${formatCost(f.size.max)}`;
    const verb = f.kind === 'iteration' ? 'iterates' : 'traverses';
    lines.push(`- \`${short}\` ${verb} \`${f.pathText}\`: size ${size}, cost ${formatCost(f.cost.max)}`);
  }
  return lines;
}

/** What the cursor is on in a CEL expression: its type; on the rule as a whole, also its cost. */
export function celHover(at: CelAt): string | undefined {
  const lines: string[] = [];
  const t = guard(() => typeAt(at.src, at.offset, at.site));
  if (t.ok && t.value) lines.push(...subExpressionHover(t.value, at.src));
  if (at.field === 'rule' && at.src.trim()) {
    const cost = costLines(at.site, at.src, at.runs);
    if (cost.length) lines.push('', '---', ...cost);
  }
  return lines.length ? lines.join('\n') : undefined;
}

/** The rule summary shown on a `rule:` key: what `self` and `oldSelf` are, and the rule's cost. */
export function ruleSummary(site: RuleSite, src: string | undefined, runs?: RuleRuns): string {
  const lines = ['**CEL rule**'];
  const self = guard(() => typeAt('self', 0, site));
  if (self.ok && self.value) {
    lines.push('', `\`self\`: \`${self.value.typeText}\`; \`oldSelf\`: ${site.optionalOldSelf ? `\`optional(${self.value.typeText})\`` : 'the same'} (on update)`);
    lines.push(...describeType(self.value.type));
  }
  if (src?.trim()) {
    const cost = costLines(site, src, runs);
    if (cost.length) lines.push('', ...cost);
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Signature help.

/** The call being written at the cursor, as LSP signature help. */
export function celSignatureHelp(at: CelAt): SignatureHelp | null {
  const r = guard(() => signatureAt(at.src, at.offset, at.site));
  if (!r.ok || !r.value) return null;
  const s = r.value;
  // The first overload that takes as many arguments as are written.
  const fits = s.signatures.findIndex((x) => x.params.length > s.activeParameter);
  return {
    signatures: s.signatures.map((x) => ({ label: x.label, documentation: x.doc || undefined, parameters: x.params.map((p) => ({ label: p })) })),
    activeSignature: fits < 0 ? s.activeSignature : fits,
    activeParameter: s.activeParameter,
  };
}
