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
import { parseYamlFile, type YamlDoc, type YamlFile } from './yamlDocument';
import { decidedByTemplate, hasGoTemplateActions, maskTemplate, pathKey, templateRegions } from '../yaml/template';
import { maskSubstitutions } from '../yaml/substitution';
import { maskExpressions } from '../yaml/expressions';
import { parseFieldPath } from '../yaml';
import type { PathSegment } from '../engine/field';

/** How a file is parsed, from what it is (FileContext). */
export interface ParseOptions {
  yamlVersion?: '1.1' | '1.2';
  helmTemplate?: boolean;
  /** A file of a kustomize tree: `$(NAME)` references are kustomize vars (yaml/substitution.ts). */
  kustomizeVars?: boolean;
  /** A Chainsaw test's file: `(...)` keys and values are expressions (yaml/expressions.ts). */
  testExpressions?: boolean;
  lazy?: boolean;
}

/**
 * Parses a document's text; a Helm chart template, or a text with Go template actions or `${VAR}`
 * substitution references, is parsed masked. `previous`: the last parse of the same document (reused
 * when it was parsed the same way). In a Chainsaw test's file, its expressions are masked as
 * substitution references are (yaml/expressions.ts: the document is YAML as written).
 */
export function parseFile(text: string, previous: YamlFile | undefined, opts: ParseOptions): YamlFile {
  const go = opts.helmTemplate ? (maskTemplate(text) ?? { text, actions: [], spans: [] }) : hasGoTemplateActions(text) ? maskTemplate(text) : undefined;
  const substituted = maskSubstitutions(text, go, { kustomizeVars: opts.kustomizeVars });
  const mask = opts.testExpressions ? maskExpressions(text, substituted) : substituted;
  if (!mask) return parseYamlFile(text, previous && !previous.template ? previous : undefined, { yamlVersion: opts.yamlVersion, lazy: opts.lazy });
  const f = parseYamlFile(mask.text, previous?.template ? previous : undefined, { yamlVersion: opts.yamlVersion });
  const within = (d: YamlDoc) => (r: { start: number }) => r.start >= d.start && r.start < d.end;
  for (const d of f.docs) {
    const actions = opts.helmTemplate || mask.actions.some(within(d));
    const t = actions || mask.substitutions?.some(within(d)) ? templateRegions(d.layer, mask.text, mask) : undefined;
    // `${VAR}` only in comments: nothing of the document is decided by the substitution.
    const substitutionOnly = !!t && !actions;
    d.template = t && (!substitutionOnly || t.templated.size + t.open.size + t.conditional.size > 0) ? { ...t, substitutionOnly } : undefined;
  }
  return { ...f, source: text, template: mask };
}

/** Whether the template decides a document's apiVersion or kind (then nothing in it can be checked). */
export function identityFromTemplate(doc: YamlDoc): boolean {
  const t = doc.template;
  return !!t && (t.templated.has(pathKey([{ kind: 'field', name: 'apiVersion' }])) || t.templated.has(pathKey([{ kind: 'field', name: 'kind' }])) || t.open.has(pathKey([])));
}

/** Whether a template decides anything under a document's `spec` (a CRD such as that is not indexed). */
export function templateDecidesSpec(doc: YamlDoc): boolean {
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
export function literalFindings(doc: YamlDoc, findings: Finding[], partialMessages?: ReadonlySet<string>): Finding[] {
  const t = doc.template;
  if (!t) return findings;
  return findings.filter((f) => {
    if (f.code === 'YAMLSyntax' || f.code === 'YAMLWarning') return !!t.substitutionOnly;
    const segs: PathSegment[] = f.segments ?? (f.field !== undefined ? parseFieldPath(f.field) : []);
    const engine = f.code.startsWith('FieldValue') && f.apiMessage !== undefined && partialMessages !== undefined;
    const whole = engine ? !partialMessages!.has(f.apiMessage!) : f.code === 'FieldValueRequired';
    return !decidedByTemplate(t, segs, f.code, whole);
  });
}
