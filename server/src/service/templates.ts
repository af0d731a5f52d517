/**
 * Go templates (Helm chart templates, and any document with Go template actions) and `${VAR}`
 * substitution references (envsubst, Flux, clusterctl: yaml/substitution.ts) in the service: the
 * file is parsed with its actions masked (yaml/template.ts), its documents get no YAML syntax findings
 * (unless their only template parts are substitution references: such a document is YAML as written),
 * and a finding is kept only when the literal YAML decides it: findings on keys and values that came
 * from an action are dropped, and so are findings that need the whole object (required fields, rules
 * over objects, ...) where an action may add to that object.
 */
import type { Finding } from './finding';
import { isMap, isScalar, parseYamlFile, type Node, type Pair, type YamlDocument, type YamlFile } from '../yaml/file';
import { decidedByTemplate, hasGoTemplateActions, keySegments, maskTemplate, pathKey, templateRegions, type TemplateRegions } from '../yaml/template';
import { maskSubstitutions } from '../yaml/substitution';
import { maskExpressions } from '../yaml/expressions';
import { parseFieldPath } from '../yaml';
import type { PathSegment } from '../engine';
import { isJSONObject, setOwn } from '../engine';

/** How a file is parsed, from what it is (FileContext). */
export interface ParseOptions {
  yamlVersion?: '1.1' | '1.2';
  helmTemplate?: boolean;
  /** A file of a kustomize tree: `$(NAME)` references are kustomize vars (yaml/substitution.ts). */
  kustomizeVars?: boolean;
  /** A Chainsaw test's file: `(...)` keys and values are expressions (yaml/expressions.ts). */
  testExpressions?: boolean;
  /** A file as the API server serves it (a catalog CRD): `{{ }}` in it is text, never a template action. */
  plainYaml?: boolean;
  lazy?: boolean;
}

/**
 * Parses a document's text; a Helm chart template, or a text with Go template actions or `${VAR}`
 * substitution references, is parsed masked. `previous`: the last parse of the same document (reused
 * when it was parsed the same way). In a Chainsaw test's file, its expressions are masked as
 * substitution references are (yaml/expressions.ts: the document is YAML as written).
 */
export function parseFile(text: string, previous: YamlFile | undefined, opts: ParseOptions): YamlFile {
  const go = opts.helmTemplate ? (maskTemplate(text) ?? { text, actions: [], spans: [] }) : !opts.plainYaml && hasGoTemplateActions(text) ? maskTemplate(text) : undefined;
  const substituted = maskSubstitutions(text, go, { kustomizeVars: opts.kustomizeVars });
  const mask = opts.testExpressions ? maskExpressions(text, substituted) : substituted;
  if (!mask) return parseYamlFile(text, previous && !previous.template ? previous : undefined, { yamlVersion: opts.yamlVersion, lazy: opts.lazy });
  const f = parseYamlFile(mask.text, previous?.template ? previous : undefined, { yamlVersion: opts.yamlVersion });
  const within = (d: YamlDocument) => (r: { start: number }) => r.start >= d.start && r.start < d.end;
  for (const d of f.documents) {
    const actions = opts.helmTemplate || mask.actions.some(within(d));
    const t = actions || mask.substitutions?.some(within(d)) ? templateRegions(d, mask.text, mask) : undefined;
    // `${VAR}` only in comments: nothing of the document is decided by the substitution.
    const substitutionOnly = !!t && !actions;
    d.template = t && (!substitutionOnly || t.templated.size + t.open.size + t.conditional.size > 0) ? { ...t, substitutionOnly } : undefined;
    if (d.template && !substitutionOnly) d.value = knownValue(d.value, d.template);
  }
  f.source = text;
  f.template = mask;
  return f;
}

/**
 * A Go template document's value without what its actions print: such a value (or key) is unknown until
 * rendered, so it is neither checked nor shown (its mask `xxxx` is not the user's text; a label value
 * `{{ .Values.team | quote }}` is not "more than 63 bytes"). Map entries are left out, copying only the
 * objects on their paths; list items stay (leaving one out would renumber the rest): findings on them are
 * dropped by literalFindings, as they are on the object's name. Leaving a value out makes no finding of its
 * own: a required field missing at a templated path is decided by the template too.
 */
function knownValue(value: unknown, t: TemplateRegions): unknown {
  if (t.templated.size === 0 || !isJSONObject(value)) return value;
  const root = { ...value };
  const copies = new WeakSet<object>([root]);
  for (const key of t.templated) {
    const segs = keySegments(key);
    // The object's name stays (masked): without one the API server stops before the CEL rules, and
    // findings on it are dropped as decided by the template.
    if (segs.length === 0 || (segs.length === 2 && segs[0] === 'metadata' && (segs[1] === 'name' || segs[1] === 'generateName'))) continue;
    let node: unknown = root;
    for (let i = 0; i < segs.length - 1 && node; i++) {
      const g = segs[i];
      let child: unknown;
      if (typeof g === 'number') child = Array.isArray(node) ? node[g] : undefined;
      else child = isJSONObject(node) && Object.hasOwn(node, g) ? node[g] : undefined;
      if (!isJSONObject(child) && !Array.isArray(child)) {
        node = undefined;
        break;
      }
      if (!copies.has(child)) {
        child = Array.isArray(child) ? [...child] : { ...child };
        copies.add(child as object);
        if (typeof g === 'number') (node as unknown[])[g] = child;
        else setOwn(node as Record<string, unknown>, g, child);
      }
      node = child;
    }
    const last = segs[segs.length - 1];
    if (typeof last === 'string' && isJSONObject(node) && Object.hasOwn(node, last)) delete node[last];
  }
  return root;
}

/** Why a Go template document is not checked at all (see notCheckedByTemplate). */
export type TemplateSkip =
  /** its apiVersion or kind is printed by an action */
  | 'identity'
  /** an action at its top level may print any field, apiVersion and kind included */
  | 'whole'
  /** if/else branches set apiVersion or kind: a known CRD's group is among them, and no branch is served */
  | 'branches';

/** What each TemplateSkip says, for people. */
export const TEMPLATE_SKIP_REASONS: Readonly<Record<TemplateSkip, string>> = {
  identity: 'its apiVersion or kind comes from a template action',
  whole: 'a template action at its top level may print any field',
  branches: 'template branches set its apiVersion or kind, and no branch is a version a known CRD serves',
};

/**
 * What the CRD index knows of an apiVersion and kind: `served` by a known CRD, `known` (a CRD of its
 * group is known, but none serves it), or `unknown`.
 */
export type IdentityLookup = (apiVersion: string, kind: string) => 'served' | 'known' | 'unknown';

/**
 * Why a Go template document is not checked at all, or undefined when its literal YAML is checked (the
 * summary's "not checked (template)"). `lookup`: what the CRD index knows of an identity; without it,
 * documents whose identity is set by if/else branches count as checked.
 */
export function notCheckedByTemplate(doc: YamlDocument, lookup?: IdentityLookup): TemplateSkip | undefined {
  const t = doc.template;
  if (!t || t.substitutionOnly) return undefined;
  if (t.templated.has(pathKey([{ kind: 'field', name: 'apiVersion' }])) || t.templated.has(pathKey([{ kind: 'field', name: 'kind' }]))) return 'identity';
  if (t.open.has(pathKey([]))) return 'whole';
  if (lookup && identityBranches(doc) && !identityToCheck(doc, lookup)) return 'branches';
  return undefined;
}

/** An apiVersion and kind a template may render with. */
export interface BranchIdentity {
  apiVersion: string;
  kind: string;
}

/**
 * The identities a Go template document may render with, when if/else branches write its apiVersion or
 * kind more than once (`{{- if ... }}apiVersion: a/v1{{- else }}apiVersion: a/v1beta1{{- end }}`; the
 * masked parse keeps the last of each): each apiVersion with the kind written after it up to the next
 * apiVersion, else the document's last kind (and the other way round when kind is the one repeated).
 * Undefined when each is written once.
 */
export function identityBranches(doc: YamlDocument): BranchIdentity[] | undefined {
  const root = doc.template && !doc.template.substitutionOnly ? (doc.ast.contents as Node | null) : null;
  if (!isMap(root)) return undefined;
  const written = (name: string) => (root.items as Pair[]).flatMap((p, i) => (isScalar(p.key) && p.key.value === name && isScalar(p.value) && typeof p.value.value === 'string' ? [{ at: i, value: p.value.value }] : []));
  const versions = written('apiVersion');
  const kinds = written('kind');
  if ((versions.length < 2 && kinds.length < 2) || versions.length === 0 || kinds.length === 0) return undefined;
  const lead = versions.length >= kinds.length ? versions : kinds;
  const other = lead === versions ? kinds : versions;
  const out: BranchIdentity[] = [];
  lead.forEach((p, i) => {
    const next = lead[i + 1]?.at ?? Infinity;
    const partner = other.find((o) => o.at > p.at && o.at < next) ?? other[other.length - 1];
    const id = lead === versions ? { apiVersion: p.value, kind: partner.value } : { apiVersion: partner.value, kind: p.value };
    if (!out.some((x) => x.apiVersion === id.apiVersion && x.kind === id.kind)) out.push(id);
  });
  return out.length > 1 ? out : undefined;
}

/**
 * The identity a Go template document is checked as: its value's own (the last written) when it has no
 * if/else branches or a known CRD serves it, else the first branch a known CRD serves. When none is
 * served: undefined (not checked) if a branch is of a known CRD's group, as helm picks the branch (e.g. by
 * `.Capabilities`) and no branch alone is an error; else its own (an object no known CRD defines).
 */
export function identityToCheck(doc: YamlDocument, lookup: IdentityLookup): BranchIdentity | undefined {
  const v = doc.value;
  const own = isJSONObject(v) && typeof v.apiVersion === 'string' && typeof v.kind === 'string' ? { apiVersion: v.apiVersion, kind: v.kind } : undefined;
  const branches = identityBranches(doc);
  if (!branches) return own;
  if (own && lookup(own.apiVersion, own.kind) === 'served') return own;
  const known = branches.map((x) => lookup(x.apiVersion, x.kind));
  const served = branches.find((_, i) => known[i] === 'served');
  if (served) return served;
  return known.includes('known') ? undefined : own;
}

/** Whether an action prints the key or value at a path (or one of its parents): unknown until rendered. */
export function printedByTemplate(doc: YamlDocument, segs: readonly PathSegment[]): boolean {
  const t = doc.template;
  return !!t && !t.substitutionOnly && decidedByTemplate(t, segs, '', false);
}

/** Whether a template decides anything under a document's `spec` (a CRD such as that is not indexed). */
export function templateDecidesSpec(doc: YamlDocument): boolean {
  const t = doc.template;
  if (!t) return false;
  const spec = pathKey([{ kind: 'field', name: 'spec' }]);
  const under = (k: string) => k === spec || k.startsWith(spec + '\u0000') || k.startsWith(spec + '\u0001');
  // A schema's description decides nothing that objects are checked against (the Flux Kustomization
  // CRD documents `${var:=default}` in one); a property named `description` is a schema, not text.
  const description = (k: string) => k.endsWith('\u0000description') && !k.endsWith('\u0000properties\u0000description') && !k.endsWith('\u0000patternProperties\u0000description');
  return [...t.templated].some((k) => under(k) && !description(k)) || [...t.open, ...t.conditional].some(under) || t.open.has(pathKey([]));
}

/**
 * The findings of a template document that its literal YAML decides. `partialMessages`: the API server
 * messages of the same object checked as a partial one (a finding missing there needs the whole object).
 */
export function literalFindings(doc: YamlDocument, findings: Finding[], partialMessages?: ReadonlySet<string>, wholeScope?: readonly PathSegment[]): Finding[] {
  const t = doc.template;
  if (!t) return findings;
  // When an if/else picks the kind, a field inside an `if` may be another branch's kind's (a chart's
  // `volumeClaimTemplates` written for its StatefulSet branch): not unknown to the one checked.
  const branched = identityBranches(doc) !== undefined;
  return findings.filter((f) => {
    if (f.code === 'YAMLSyntax' || f.code === 'YAMLWarning') return !!t.substitutionOnly;
    const segs: PathSegment[] = f.segments ?? (f.field !== undefined ? parseFieldPath(f.field) : []);
    if (branched && f.code === 'UnknownField' && t.conditional.has(pathKey(segs.slice(0, -1)))) return false;
    const engine = f.code.startsWith('FieldValue') && f.apiMessage !== undefined && partialMessages !== undefined;
    const whole = engine ? !partialMessages!.has(f.apiMessage!) : f.code === 'FieldValueRequired';
    // `wholeScope`: a finding that needs the whole object depends on all of it there (the API server's
    // cross-field checks of a built-in kind: a volume mount's volume, a selector's template labels; a
    // required field, which an item of an `if` or `range` list may hold).
    if (whole && wholeScope) return !decidedByTemplate(t, wholeScope, '', true);
    return !decidedByTemplate(t, segs, f.code, whole);
  });
}
