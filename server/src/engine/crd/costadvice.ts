/**
 * What to bound when CEL rules are over their cost budget (crdYaml's own advice, computed with the
 * estimator; the API server only says "try ... adding maxItems, maxProperties, and maxLength"):
 *
 * - the unbounded lists, maps and strings a rule's cost depends on: the ones it iterates or traverses
 *   (its estimate's comprehensions and size-dependent calls) and the unbounded lists and maps above its
 *   node (which multiply its cost by their cardinality), most dominant first (the one whose bound lowers
 *   the cost most);
 * - for the dominant one, the largest maxItems / maxProperties / maxLength N that brings every rule the
 *   bound changes (not only the one reported: a sibling iterating the same list would stay over) under
 *   the per-rule limit and the whole schema under the per-CRD limit: a binary search over N, each step
 *   re-estimating only the rules the bound can change (those on the path to the node and below it).
 *
 * Results go into the cost errors' params (FieldErrorParams.cost: dominant, unbounded, maxBound).
 */
import type { CostParams, FieldError, PathSegment } from '../field';
import type { JSONSchemaProps } from '../schema/types';
import { compileRules, type CompileOptions, type CompiledRule } from '../schema/cel/compile';
import { schemaDeclType } from '../schema/cel/model';
import { escapeName, type DeclType } from '../cel/common/types';
import { extractMaxElements, multiplyWithOverflowGuard } from './celcontext';

/** One step from a schema node to a child. */
export type Step = { prop: string } | 'items' | 'additionalProperties';

/** A rule whose cost counts, where it is and what it cost. */
export interface CostSite {
  /** Steps from the version's root schema to the rule's node. */
  steps: Step[];
  ruleIndex: number;
  /** The field path of the rule (`...x-kubernetes-validations[0].rule`), as the cost errors name it. */
  rulePath: string;
  /** The cost counted for the rule (maxCost times the cardinality) and its messageExpression's. */
  cost: number;
  messageCost: number;
}

export interface CostLimits {
  rule: number;
  total: number;
  /** The per-rule limit is not enforced (an update of an unchanged schema). */
  noRuleLimit?: boolean;
}

type Kind = 'list' | 'map' | 'string';
const KEYWORD: Record<Kind, 'maxItems' | 'maxProperties' | 'maxLength'> = { list: 'maxItems', map: 'maxProperties', string: 'maxLength' };

interface Candidate {
  steps: Step[];
  kind: Kind;
  /** The size the estimator assumes now (the implied maximum of an unbounded value). */
  current: number;
}

/** The schema path of steps, relative to openAPIV3Schema (`properties[spec].properties[items].items`). */
export function stepsPath(steps: Step[]): string {
  return steps.map((s) => (typeof s === 'string' ? s : `properties[${s.prop}]`)).join('.');
}

function child(s: JSONSchemaProps, step: Step): JSONSchemaProps | undefined {
  if (step === 'items') return s.items && typeof s.items === 'object' && !Array.isArray(s.items) ? (s.items as JSONSchemaProps) : undefined;
  if (step === 'additionalProperties') return s.additionalProperties && typeof s.additionalProperties === 'object' ? (s.additionalProperties as JSONSchemaProps) : undefined;
  const p = s.properties?.[step.prop];
  return p && typeof p === 'object' ? p : undefined;
}

function nodeAt(root: JSONSchemaProps, steps: Step[]): JSONSchemaProps | undefined {
  let cur: JSONSchemaProps | undefined = root;
  for (const st of steps) {
    if (!cur) return undefined;
    cur = child(cur, st);
  }
  return cur;
}

/** The cardinality of the node at steps (the product of its ancestors' element bounds). */
function cardinality(root: JSONSchemaProps, steps: Step[]): number | undefined {
  let card: number | undefined = 1;
  let cur: JSONSchemaProps | undefined = root;
  for (const st of steps) {
    if (!cur) return card;
    const m = extractMaxElements(cur);
    card = card === undefined || m === undefined ? undefined : multiplyWithOverflowGuard(card, m);
    cur = child(cur, st);
  }
  return card;
}

/** A copy of root where the node at steps has `keyword: n` (only the nodes on the path are copied). */
function withBound(root: JSONSchemaProps, steps: Step[], keyword: string, n: number): JSONSchemaProps {
  const copy = (s: JSONSchemaProps, i: number): JSONSchemaProps => {
    if (i === steps.length) return { ...s, [keyword]: n };
    const st = steps[i];
    const c = child(s, st)!;
    if (st === 'items') return { ...s, items: copy(c, i + 1) };
    if (st === 'additionalProperties') return { ...s, additionalProperties: copy(c, i + 1) };
    return { ...s, properties: { ...s.properties, [st.prop]: copy(c, i + 1) } };
  };
  return copy(root, 0);
}

function isPrefix(a: Step[], b: Step[]): boolean {
  if (a.length > b.length) return false;
  return a.every((s, i) => (typeof s === 'string' ? s === b[i] : typeof b[i] === 'object' && (b[i] as { prop: string }).prop === s.prop));
}

/** The unbounded value at a decl path of the rule's estimate, as steps from the root (with its kind). */
function candidateAt(root: JSONSchemaProps, site: CostSite, compiled: CompiledRule, declPath: string[]): Candidate | undefined {
  const steps = [...site.steps];
  let node = nodeAt(root, steps);
  let decl: DeclType | undefined = compiled.declType;
  for (const seg of declPath.slice(1)) {
    if (!node || !decl) return undefined;
    let st: Step | undefined;
    if (seg === '@items') st = 'items';
    else if (seg === '@values') st = 'additionalProperties';
    else if (seg === '@keys' || seg === '@indices') return undefined;
    else {
      const prop = Object.keys(node.properties ?? {}).find((k) => k === seg || escapeName(k) === seg);
      if (prop === undefined) return undefined;
      st = { prop };
    }
    steps.push(st);
    node = child(node, st);
    decl = seg === '@items' || seg === '@values' ? decl.elemType : decl.fields?.get(seg)?.type;
  }
  if (!node || !decl) return undefined;
  return unboundedCandidate(node, steps, decl.maxElements);
}

function unboundedCandidate(s: JSONSchemaProps, steps: Step[], current: number): Candidate | undefined {
  if (s.type === 'array' && s.maxItems === undefined) return { steps, kind: 'list', current };
  if (s.type === 'object' && s.additionalProperties && typeof s.additionalProperties === 'object' && s.maxProperties === undefined) return { steps, kind: 'map', current };
  if (s.type === 'string' && s.maxLength === undefined && !(Array.isArray(s.enum) && s.enum.length > 0) && s.format === undefined) return { steps, kind: 'string', current };
  return undefined;
}

/** The context a recomputation needs: the compile options and the limits. */
export interface AdviceContext {
  root: JSONSchemaProps;
  sites: CostSite[];
  total: number;
  limits: CostLimits;
  compile: CompileOptions;
}

/** A site's rule compiled in a (modified) schema. */
function compileSite(root: JSONSchemaProps, site: CostSite, opts: CompileOptions): CompiledRule | undefined {
  const node = nodeAt(root, site.steps);
  if (!node) return undefined;
  const decl = schemaDeclType(node, site.steps.length === 0 || node['x-kubernetes-embedded-resource'] === true);
  if (!decl) return undefined;
  return compileRules(node, decl, opts)[site.ruleIndex];
}

/** The cost a site has in a (modified) schema: rule cost times cardinality, and its messageExpression's. */
function siteCost(root: JSONSchemaProps, site: CostSite, opts: CompileOptions): { cost: number; messageCost: number } {
  const r = compileSite(root, site, opts);
  if (!r) return { cost: site.cost, messageCost: site.messageCost };
  const card = cardinality(root, site.steps);
  return { cost: card !== undefined ? multiplyWithOverflowGuard(r.maxCost, card) : multiplyWithOverflowGuard(r.maxCost, r.maxCardinality), messageCost: r.messageExpression ? r.messageExpressionMaxCost : 0 };
}

/** Each rule's cost the candidate changes, and the total, with the candidate bounded at n. */
function costsWith(ctx: AdviceContext, c: Candidate, n: number): { rules: Map<CostSite, number>; total: number } {
  const root = withBound(ctx.root, c.steps, KEYWORD[c.kind], n);
  let total = ctx.total;
  const rules = new Map<CostSite, number>();
  for (const s of ctx.sites) {
    // Rules above or at the node see its type; rules below it are multiplied by its cardinality.
    if (!isPrefix(s.steps, c.steps) && !isPrefix(c.steps, s.steps)) continue;
    const now = siteCost(root, s, ctx.compile);
    total += now.cost - s.cost + now.messageCost - s.messageCost;
    rules.set(s, now.cost);
  }
  return { rules, total };
}

/** The unbounded values a site's cost depends on, most dominant first. */
function candidates(ctx: AdviceContext, site: CostSite): Candidate[] {
  const out: Candidate[] = [];
  const seen = new Set<string>();
  const add = (c: Candidate | undefined) => {
    if (!c) return;
    const k = stepsPath(c.steps);
    if (seen.has(k)) return;
    seen.add(k);
    out.push(c);
  };
  // Unbounded lists and maps above the node: its cost is multiplied by their cardinality.
  let cur: JSONSchemaProps | undefined = ctx.root;
  for (let i = 0; i < site.steps.length && cur; i++) {
    if (extractMaxElements(cur) === undefined) add(unboundedCandidate(cur, site.steps.slice(0, i), Number.MAX_SAFE_INTEGER));
    cur = child(cur, site.steps[i]);
  }
  const compiled = compileSite(ctx.root, site, ctx.compile);
  for (const f of compiled?.estimate?.factors ?? []) if (f.path) add(candidateAt(ctx.root, site, compiled!, f.path));
  if (out.length <= 1) return out;
  const withOne = new Map(out.map((c) => [c, costsWith(ctx, c, 1)]));
  const ruleCost = (c: Candidate) => withOne.get(c)!.rules.get(site) ?? site.cost;
  return out.sort((a, b) => ruleCost(a) - ruleCost(b) || withOne.get(a)!.total - withOne.get(b)!.total);
}

/**
 * The largest bound on the candidate with which every rule it changes and the total are under their
 * limits (one bound that fixes a rule but leaves a sibling iterating the same list over its limit is no
 * fix). Rules still over the limit at 0 are left out of the per-rule check (this bound cannot fix them),
 * and `fixes` lists the rules it brings under; undefined when even 0 leaves the total over.
 */
function largestBound(ctx: AdviceContext, c: Candidate): { value: number; fixes: Set<CostSite> } | undefined {
  const atZero = costsWith(ctx, c, 0);
  if (atZero.total > ctx.limits.total) return undefined;
  const fixes = new Set<CostSite>();
  for (const [s, cost] of atZero.rules) if (ctx.limits.noRuleLimit === true || cost <= ctx.limits.rule) fixes.add(s);
  const ok = (n: number) => {
    const r = costsWith(ctx, c, n);
    if (r.total > ctx.limits.total) return false;
    if (ctx.limits.noRuleLimit === true) return true;
    for (const s of fixes) if ((r.rules.get(s) ?? s.cost) > ctx.limits.rule) return false;
    return true;
  };
  let lo = 0;
  let hi = Math.min(Math.max(1, Math.floor(c.current)), 2 ** 31 - 1);
  if (ok(hi)) return { value: hi, fixes };
  // Invariant: ok(lo), !ok(hi).
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (ok(mid)) lo = mid;
    else hi = mid;
  }
  return { value: lo, fixes };
}

function describe(c: Candidate): { path: string; kind: Kind } {
  return { path: stepsPath(c.steps), kind: c.kind };
}

/**
 * The cost errors (scope rule, contribution, total) found by CRD validation with the advice added (as
 * copies: the originals may be memoized): the dominant unbounded value, every unbounded one, and the
 * largest bound N on the dominant one. Other errors are returned as they are.
 */
export function adviseCosts(ctx: AdviceContext, errs: readonly FieldError[]): FieldError[] {
  const bySite = new Map<string, CostSite>();
  for (const s of ctx.sites) bySite.set(s.rulePath, s);
  const advice = new Map<CostSite, Pick<CostParams, 'dominant' | 'unbounded' | 'maxBound'>>();
  // One bound per value, whichever rule's error it is offered on: every rule iterating it counts.
  const bounds = new Map<string, ReturnType<typeof largestBound>>();
  const adviceFor = (site: CostSite): Pick<CostParams, 'dominant' | 'unbounded' | 'maxBound'> => {
    let a = advice.get(site);
    if (a) return a;
    const cs = candidates(ctx, site);
    a = {};
    if (cs.length) {
      a.dominant = describe(cs[0]);
      a.unbounded = cs.map(describe);
      const key = stepsPath(cs[0].steps);
      if (!bounds.has(key)) bounds.set(key, largestBound(ctx, cs[0]));
      const b = bounds.get(key);
      if (b?.fixes.has(site)) a.maxBound = { keyword: KEYWORD[cs[0].kind], value: b.value };
    }
    advice.set(site, a);
    return a;
  };
  const mostExpensive = [...ctx.sites].sort((a, b) => b.cost - a.cost)[0];
  return errs.map((e) => {
    const cost = e.params?.cost;
    if (e.params?.origin !== 'celCost' || !cost) return e;
    const site = cost.scope === 'total' ? mostExpensive : bySite.get(e.field);
    if (!site) return e;
    return { ...e, params: { ...e.params, cost: { ...cost, ...adviceFor(site) } } };
  });
}

/**
 * The cost sites of a schema from the expression costs CRD validation collected (field paths under
 * `schemaPath`): each rule's steps from the root, its index, its cost and its messageExpression's.
 */
export function costSites(costs: ReadonlyArray<{ field: string; segments: readonly PathSegment[]; cost: number }>, schemaPathLength: number): CostSite[] {
  const messageCosts = new Map<string, number>();
  for (const c of costs) if (c.field.endsWith('.messageExpression')) messageCosts.set(c.field.slice(0, -'.messageExpression'.length), c.cost);
  const out: CostSite[] = [];
  for (const c of costs) {
    if (!c.field.endsWith('.rule')) continue;
    const segs = c.segments.slice(schemaPathLength);
    const steps: Step[] = [];
    let ruleIndex = -1;
    for (let i = 0; i < segs.length; i++) {
      const s = segs[i];
      if (s.kind !== 'field') break;
      if (s.name === 'properties' && segs[i + 1]?.kind === 'key') steps.push({ prop: (segs[++i] as { key: string }).key });
      else if (s.name === 'items' || s.name === 'additionalProperties') steps.push(s.name);
      else if (s.name === 'x-kubernetes-validations' && segs[i + 1]?.kind === 'index') {
        ruleIndex = (segs[i + 1] as { index: number }).index;
        break;
      } else break;
    }
    if (ruleIndex < 0) continue;
    out.push({ steps, ruleIndex, rulePath: c.field, cost: c.cost, messageCost: messageCosts.get(c.field.slice(0, -'.rule'.length)) ?? 0 });
  }
  return out;
}
