/**
 * Hover: on a CR field, what its CRD schema says about it; on a CRD keyword, what it means and its
 * Kubernetes restrictions; inside a CEL expression, the type of what the cursor is on (celEditor.ts).
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { MarkupKind, type Hover, type Position } from 'vscode-languageserver-types';
import type { JSONSchemaProps } from '../engine';
import type { ServiceContext } from './context';
import type { IndexedCrd } from '../workspace/crdIndex';
import { byVersionPriority, preferredVersion } from '../engine';
import { defaultDeprecationWarning } from '../engine';
import type { PathSegment } from '../engine';
import { celAt, celHover, ruleSiteOf, ruleSummary } from './celEditor';
import { CRD_FIELDS, SCHEMA_KEYWORDS, VALIDATION_RULE_FIELDS } from './keywords';
import { crdVersions, openAPISchemaIndex, resolveCr, roleOf, schemaAtPath, schemaPlace, valueAt } from './kube';
import { keyRange, nodeRange, pathAtOffset, type YamlFile } from '../yaml/file';
import { baselineFor } from './update';
import { testObjectAt } from './crdTests';
import { printedByTemplate } from './templates';
import { isJSONObject } from '../engine';
import { validateAgainstSchema } from '../engine';
import { guard } from './engineCalls';

/** The hover at a position, or null. */
export function hover(ctx: ServiceContext, td: TextDocument, file: YamlFile, pos: Position): Hover | null {
  const offset = td.offsetAt(pos);
  const doc = file.documentAt(offset);
  if (!doc || doc.value === undefined) return null;
  const found = pathAtOffset(doc, offset);
  if (!found || found.segments.length === 0) return null;
  const r = found.onKey ? keyRange(doc, found.pair) : nodeRange(doc, found.node);
  const range = r ? { start: td.positionAt(r[0]), end: td.positionAt(r[1]) } : undefined;
  // Inside a CRD rule test's object or oldObject: that object is the custom resource.
  const inTest = testObjectAt(td.uri, doc.value, found.segments);
  if (inTest && inTest.segments.length === 0) return null;
  const at = inTest ? { ...found, segments: inTest.segments } : found;
  const value = inTest ? inTest.object : doc.value;
  const role = roleOf(value);
  let md: string | undefined;
  if (role.role === 'cr') {
    const res = resolveCr(ctx.index, role);
    if (res && at.segments.length === 1 && at.segments[0].kind === 'field' && at.segments[0].name === 'apiVersion') {
      return { contents: { kind: MarkupKind.Markdown, value: versionsHover(res.crd, role.version) }, range };
    }
    if (!res?.version?.schema) return null;
    const s = schemaAtPath(res.version.schema, at.segments);
    // A key or value a template action prints is unknown until rendered: nothing is said about it, nor
    // about the field of a key an action prints (its name is not known).
    const printed = printedByTemplate(doc, at.segments);
    const key = printed ? keyRange(doc, found.pair) : undefined;
    if (key && td.getText().slice(key[0], key[1]) !== file.text.slice(key[0], key[1])) return null;
    if (!s) {
      if (printed) return null;
      // A field the schema does not know: say what the API server will do with it.
      const parent = schemaAtPath(res.version.schema, at.segments.slice(0, -1));
      const last = at.segments[at.segments.length - 1];
      if (!at.onKey || !parent || last.kind !== 'field' || parent.schema['x-kubernetes-preserve-unknown-fields']) return null;
      md = `**${last.name}**: not in the schema of ${res.crd.name} (version ${res.version.name}): the API server prunes it on create and update.`;
      return { contents: { kind: MarkupKind.Markdown, value: md }, range };
    }
    md = describeSchema(s.name ?? '', s.schema, s.required);
    const base = inTest || printed ? undefined : baselineFor(ctx, td.uri, doc.value);
    if (base)
      md += `

${baselineValue(valueAt(base.object, at.segments), valueAt(doc.value, at.segments), base.label, s.schema)}`;
    if (!s.builtin) md += `\n\n---\n_${res.crd.name}, version ${res.version.name}_${res.crd.catalog ? ` from the catalog: ${res.crd.catalog.url} (tag ${res.crd.catalog.tag})` : ''}`;
  } else if (role.role === 'crd') {
    // Inside a CEL expression: the sub-expression under the cursor, typed by the engine's checker.
    const cel = found.onKey ? undefined : celAt(ctx, td, doc, offset);
    if (cel) {
      const text = celHover(cel);
      return text ? { contents: { kind: MarkupKind.Markdown, value: text } } : null;
    }
    md = crdHover(ctx, doc.value, at.segments, at.onKey);
  }
  if (!md) return null;
  return { contents: { kind: MarkupKind.Markdown, value: md }, range };
}

/**
 * The field's value at the baseline, for people: what an update changes, and for an unchanged value the
 * schema rejects, that the API server lets it through on update (ratcheting); said of invalid values only.
 */
function baselineValue(old: unknown, now: unknown, label: string, schema: JSONSchemaProps): string {
  if (old === undefined) return `**At ${label}:** not set (the update adds it)`;
  const show = (v: unknown) => {
    const s = JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? Number(x) : x)) ?? String(v);
    return s.length > 200 ? s.slice(0, 200) + '…' : s;
  };
  const same = show(old) === show(now);
  let note = '';
  if (same) {
    const invalid = guard(() => validateAgainstSchema(schema, now).errors.length > 0);
    note = invalid.ok && invalid.value ? ' (unchanged and invalid: the API server lets it through on update)' : ' (unchanged)';
  }
  return `**At ${label}:** \`${show(old)}\`${note}`;
}

/** A CRD's versions in kubectl's order of preference, the storage, deprecated and unserved ones marked. */
function versionsHover(crd: IndexedCrd, current: string): string {
  const versions = byVersionPriority(crdVersions(crd.crd));
  const preferred = preferredVersion(versions);
  const spec = isJSONObject(crd.crd.spec) ? crd.crd.spec : {};
  const lines = versions.map((v) => {
    const marks = [
      v === preferred ? 'preferred' : '',
      v.storage ? 'storage version' : '',
      v.served ? '' : 'not served',
      v.deprecated ? `deprecated: ${v.deprecationWarning ?? defaultDeprecationWarning(v.name, spec)}` : '',
    ].filter(Boolean);
    return `- \`${v.name}\`${marks.length ? `: ${marks.join('; ')}` : ''}${v.name === current ? ' (this object)' : ''}`;
  });
  return [`**${crd.kind}** versions (${crd.name}), in the order kubectl prefers them:`, '', ...lines].join('\n');
}

function crdHover(ctx: ServiceContext, crd: unknown, segs: PathSegment[], onKey: boolean): string | undefined {
  const path = segs.map((x) => (x.kind === 'field' ? x.name : x.kind === 'key' ? x.key : String(x.index)));
  const oi = openAPISchemaIndex(path);
  const key = path[path.length - 1];
  if (oi >= 0 && path.length > oi + 1) {
    const below = path.slice(oi + 1);
    const place = schemaPlace(below.slice(0, -1));
    if (onKey && key === 'rule' && place === 'rule') {
      // On the `rule:` key: what self and oldSelf are, and the rule's estimated cost with its breakdown.
      const r = ruleSiteOf(ctx, crd, segs);
      const src = valueAt(crd, segs);
      if (r) return `${ruleSummary(r.site, typeof src === 'string' ? src : undefined, r.runs)}\n\n---\n${VALIDATION_RULE_FIELDS.rule.doc}`;
    }
    if (!onKey) return undefined;
    if (place === 'schema' && SCHEMA_KEYWORDS[key]) return `**${key}** (schema keyword)\n\n${SCHEMA_KEYWORDS[key].doc}`;
    if (place === 'rule' && VALIDATION_RULE_FIELDS[key]) return `**${key}** (validation rule)\n\n${VALIDATION_RULE_FIELDS[key].doc}`;
    if (place === 'propertyMap') {
      const node = valueAt(crd, path) as JSONSchemaProps | undefined;
      if (isJSONObject(node)) return describeSchema(key, node, false);
    }
    return undefined;
  }
  if (onKey && CRD_FIELDS[key]) return `**${key}**\n\n${CRD_FIELDS[key].doc}`;
  return undefined;
}

/** Markdown for a schema node: type, description, constraints, default, enum, list type, CEL rules. */
export function describeSchema(name: string, s: JSONSchemaProps, required: boolean): string {
  const lines: string[] = [];
  let type = s['x-kubernetes-int-or-string'] ? 'integer | string' : (s.type ?? (s['x-kubernetes-preserve-unknown-fields'] ? 'any' : 'unspecified'));
  if (s.type === 'array' && isJSONObject(s.items) && typeof (s.items as JSONSchemaProps).type === 'string') type = `array of ${(s.items as JSONSchemaProps).type}`;
  if (s.type === 'object' && isJSONObject(s.additionalProperties)) type = `map of ${(s.additionalProperties as JSONSchemaProps).type ?? 'any'}`;
  lines.push(`**${name}**: \`${type}\`${s.format ? ` (format: \`${s.format}\`)` : ''}${required ? ' — required' : ''}`);
  if (s.description) lines.push('', s.description);
  const facts: string[] = [];
  if (s.default !== undefined) facts.push(`Default: \`${JSON.stringify(s.default)}\``);
  if (Array.isArray(s.enum)) facts.push(`Enum: ${s.enum.map((v) => `\`${JSON.stringify(v)}\``).join(', ')}`);
  const c: Array<[keyof JSONSchemaProps, string]> = [
    ['minimum', 'Minimum'],
    ['maximum', 'Maximum'],
    ['exclusiveMinimum', 'Exclusive minimum'],
    ['exclusiveMaximum', 'Exclusive maximum'],
    ['multipleOf', 'Multiple of'],
    ['minLength', 'Min length'],
    ['maxLength', 'Max length'],
    ['pattern', 'Pattern'],
    ['minItems', 'Min items'],
    ['maxItems', 'Max items'],
    ['minProperties', 'Min properties'],
    ['maxProperties', 'Max properties'],
    ['nullable', 'Nullable'],
  ];
  for (const [k, label] of c) if (s[k] !== undefined) facts.push(`${label}: \`${String(s[k])}\``);
  if (Array.isArray(s.required) && s.required.length) facts.push(`Required fields: ${s.required.map((r) => `\`${r}\``).join(', ')}`);
  if (s['x-kubernetes-list-type']) {
    const keys = s['x-kubernetes-list-map-keys'];
    facts.push(`List type: \`${s['x-kubernetes-list-type']}\`${Array.isArray(keys) ? ` (keys: ${keys.map((k) => `\`${k}\``).join(', ')})` : ''}`);
  }
  if (s['x-kubernetes-map-type']) facts.push(`Map type: \`${s['x-kubernetes-map-type']}\``);
  if (s['x-kubernetes-preserve-unknown-fields']) facts.push('Unknown fields are kept (x-kubernetes-preserve-unknown-fields)');
  if (s['x-kubernetes-embedded-resource']) facts.push('Embedded Kubernetes object (x-kubernetes-embedded-resource)');
  if (facts.length) lines.push('', ...facts.map((f) => `- ${f}`));
  const rules = s['x-kubernetes-validations'];
  if (Array.isArray(rules) && rules.length) {
    lines.push('', 'CEL rules:');
    for (const r of rules) {
      if (!isJSONObject(r)) continue;
      const msg = r.message ?? r.messageExpression;
      lines.push(`- \`${String(r.rule)}\`${msg ? ` — ${String(msg)}` : ''}`);
    }
  }
  return lines.join('\n');
}
