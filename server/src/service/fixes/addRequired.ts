/**
 * A missing required field of a CR is added with a value that validates (minimalValue.ts); when none is
 * simple, an empty string placeholder to fill in (the field is then present, its value flagged). Where
 * several are missing, "Add all missing required fields" adds them in one edit per mapping. Each inserted
 * value is also a tab stop of the fix's snippet form (choices where the schema names them), for editors
 * that apply a fix as a snippet.
 */
import type { PathSegment } from '../../engine';
import type { JSONSchemaProps } from '../../engine';
import { formatFieldPath, yamlText } from '../../yaml';
import { markStops, renderStops, yamlScalar, type Stop } from '../newObject';
import type { Finding, Fix } from '../finding';
import { resolveCr, roleOf, schemaAtPath } from '../kube';
import { findWrittenPath, isMap } from '../../yaml/file';
import { fix, type TextEdit, placed } from './edits';
import { appendToMapping, yamlKeyText } from '../../yaml/sourceEdits';
import { minimalValidValue } from './minimalValue';
import type { FixContext, FixProvider } from './types';

const isMissingRequired = (f: Finding) => f.document === 'cr' && f.code === 'FieldValueRequired' && f.params?.origin === 'required';

export const addRequired: FixProvider = {
  id: 'addRequired',
  matches: isMissingRequired,
  fixes(ctx, f) {
    const one = addFields(ctx, [f]);
    if (!one) return [];
    const out: Fix[] = [{ ...fix(`Add required field "${one.names[0]}"`, f, one.edits), snippets: one.snippets }];
    const all = ctx.findings.filter(isMissingRequired);
    if (all.length > 1) {
      const every = addFields(ctx, all);
      if (every && every.names.length > 1) out.push({ ...fix('Add all missing required fields', all, every.edits, false), snippets: every.snippets });
    }
    return out;
  },
};

/** One edit per parent mapping adding the given missing fields (skipping those that cannot be added). */
function addFields(ctx: FixContext, findings: Finding[]): { edits: TextEdit[]; snippets: TextEdit[]; names: string[] } | undefined {
  const stops: Stop[] = [];
  const byParent = new Map<string, { parent: PathSegment[]; lines: string[]; names: string[] }>();
  for (const f of findings) {
    const segs = f.segments ?? [];
    const last = segs[segs.length - 1];
    if (!last || last.kind === 'index') continue;
    const key = last.kind === 'field' ? last.name : last.key;
    const parent = segs.slice(0, -1);
    const id = formatFieldPath(parent);
    let g = byParent.get(id);
    if (!g) byParent.set(id, (g = { parent, lines: [], names: [] }));
    if (g.names.includes(key)) continue;
    g.names.push(key);
    const v = valueFor(ctx, segs);
    g.lines.push(...fieldLines(key, markStops(v.value, v.schema, stops)));
  }
  const edits: TextEdit[] = [];
  const snippets: TextEdit[] = [];
  const names: string[] = [];
  for (const g of byParent.values()) {
    const m = findWrittenPath(ctx.doc, g.parent);
    if (!isMap(m.node) || m.matched !== g.parent.length) continue;
    const e = placed(ctx.td, appendToMapping(ctx.td.getText(), ctx.doc, m.node, g.lines));
    if (!e) continue;
    const r = renderStops(e.newText, stops);
    edits.push({ ...e, newText: r.plain });
    snippets.push({ ...e, newText: r.snippet });
    names.push(...g.names);
  }
  return edits.length ? { edits, snippets, names } : undefined;
}

/** The value to insert for a missing field (one that validates, else an empty string to fill in) and its schema. */
function valueFor(ctx: FixContext, segs: PathSegment[]): { value: unknown; schema?: JSONSchemaProps } {
  const role = roleOf(ctx.doc.value);
  if (role.role !== 'cr') return { value: '' };
  const schema = resolveCr(ctx.service.index, role)?.version?.schema;
  const at = schema ? schemaAtPath(schema, segs) : undefined;
  if (!at) return { value: '' };
  return { value: minimalValidValue(at.schema)?.value ?? '', schema: at.schema };
}

/** `key: value` as YAML lines (block style for non-empty objects and lists), relative to the mapping. */
function fieldLines(key: string, value: unknown): string[] {
  const k = yamlKeyText(key);
  if (value !== null && typeof value === 'object' && Object.keys(value).length > 0) {
    const body = yamlText(value).replace(/\n$/, '');
    return [`${k}:`, ...body.split('\n').map((l) => `  ${l}`)];
  }
  if (value !== null && typeof value === 'object') return [`${k}: ${Array.isArray(value) ? '[]' : '{}'}`];
  return [`${k}: ${yamlScalar(value)}`];
}
