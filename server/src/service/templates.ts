/**
 * Go templates (Helm chart templates, and any document with Go template actions) in the service: the
 * file is parsed with its actions masked (yaml/template.ts), its documents get no YAML syntax findings,
 * and a finding is kept only when the literal YAML decides it: findings on keys and values that came
 * from an action are dropped, and so are findings that need the whole object (required fields, rules
 * over objects, ...) where an action may add to that object.
 */
import type { Finding } from './finding';
import { parseYamlFile, type YamlDoc, type YamlFile } from './yamlDocument';
import { decidedByTemplate, hasGoTemplateActions, maskTemplate, pathKey, templateRegions } from '../yaml/template';
import { parseFieldPath } from '../yaml';
import type { PathSegment } from '../engine/field';

/**
 * Parses a document's text; a Helm chart template, or a text with Go template actions, is parsed masked.
 * `previous`: the last parse of the same document (reused when it was parsed the same way).
 */
export function parseFile(text: string, previous: YamlFile | undefined, opts: { yamlVersion?: '1.1' | '1.2'; helmTemplate?: boolean; lazy?: boolean }): YamlFile {
  const mask = opts.helmTemplate ? (maskTemplate(text) ?? { text, actions: [], spans: [] }) : hasGoTemplateActions(text) ? maskTemplate(text) : undefined;
  if (!mask) return parseYamlFile(text, previous && !previous.template ? previous : undefined, { yamlVersion: opts.yamlVersion, lazy: opts.lazy });
  const f = parseYamlFile(mask.text, previous?.template ? previous : undefined, { yamlVersion: opts.yamlVersion });
  for (const d of f.docs) {
    const has = opts.helmTemplate || mask.actions.some((a) => a.start >= d.start && a.start < d.end);
    d.template = has ? templateRegions(d.layer, mask.text, mask) : undefined;
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
  return [...t.templated, ...t.open, ...t.conditional].some(under) || t.open.has(pathKey([]));
}

/**
 * The findings of a template document that its literal YAML decides. `partialMessages`: the API server
 * messages of the same object checked as a partial one (a finding missing there needs the whole object).
 */
export function literalFindings(doc: YamlDoc, findings: Finding[], partialMessages?: ReadonlySet<string>): Finding[] {
  const t = doc.template;
  if (!t) return findings;
  return findings.filter((f) => {
    if (f.code === 'YAMLSyntax' || f.code === 'YAMLWarning') return false;
    const segs: PathSegment[] = f.segments ?? (f.field !== undefined ? parseFieldPath(f.field) : []);
    const engine = f.code.startsWith('FieldValue') && f.apiMessage !== undefined && partialMessages !== undefined;
    const whole = engine ? !partialMessages!.has(f.apiMessage!) : f.code === 'FieldValueRequired';
    return !decidedByTemplate(t, segs, f.code, whole);
  });
}
