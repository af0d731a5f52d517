/**
 * Completion: in CRs, apiVersion/kind from the known CRDs, property names from the schema (required
 * first, snippets with defaults), enum values and booleans; in CRDs, schema keywords, x-kubernetes-*
 * extensions and their values; inside CEL expressions, what the engine's checker says may follow (celEditor.ts).
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { CompletionItemKind, CompletionItemTag, InsertTextFormat, MarkupKind, type CompletionItem, type Position, type Range } from 'vscode-languageserver-types';
import { byVersionPriority } from '../engine';
import { defaultDeprecationWarning } from '../engine';
import type { PathSegment } from '../engine';
import type { JSONSchemaProps } from '../engine';
import type { ServiceContext } from './context';
import { cursorContext, type CursorContext, type CursorSegment } from './cursorContext';
import { CRD_FIELDS, SCHEMA_KEYWORDS, VALIDATION_RULE_FIELDS, type KeywordDoc } from './keywords';
import { crdVersions, openAPISchemaIndex, resolveCr, roleOf, schemaAtPath, schemaPlace, valueAt, RESOURCE_ROOT_FIELDS } from './kube';
import { testObjectAt } from './crdTests';
import { celAt, celCompletion, ruleSiteOf } from './celEditor';
import type { YamlDocument, YamlFile } from '../yaml/file';
import { choiceEscape, isEmptyDocument, newObjectItems, snippetEscape, yamlScalar } from './newObject';
import { isJSONObject } from '../engine';

/** The completion items at a position. */
export function completion(ctx: ServiceContext, td: TextDocument, file: YamlFile, pos: Position): CompletionItem[] {
  const offset = td.offsetAt(pos);
  const doc = file.documentAt(offset);
  // An empty document: a new object of a known kind.
  if (isEmptyDocument(doc) && /^\s*$/.test(td.getText({ start: { line: pos.line, character: 0 }, end: { line: pos.line + 1, character: 0 } }))) {
    return newObjectItems(ctx, { start: { line: pos.line, character: 0 }, end: pos });
  }
  if (!doc) return [];
  // Inside a CEL expression of a CRD (any scalar style, over several lines): the engine's checker answers.
  const cel = roleOf(doc.value).role === 'crd' ? celAt(ctx, td, doc, offset) : undefined;
  if (cel) return celCompletion(cel.site, cel.src, cel.offset, pos);
  const docLine = td.positionAt(doc.start).line;
  const lines = doc.text.split('\n').map((l) => l.replace(/\r$/, ''));
  if (lines[pos.line - docLine] === undefined) return [];
  const cc = cursorContext(lines, pos.line - docLine, pos.character);
  const replace: Range = { start: { line: pos.line, character: pos.character - cc.prefix.length }, end: pos };
  let head = documentHead(doc);
  let segs = toSegments(cc.path);
  // Inside a CRD rule test's object or oldObject: that object is the custom resource.
  const inTest = testObjectAt(td.uri, doc.value, segs);
  if (inTest) {
    segs = inTest.segments;
    const o = inTest.object;
    head = { apiVersion: typeof o?.apiVersion === 'string' ? o.apiVersion : undefined, kind: typeof o?.kind === 'string' ? o.kind : undefined };
    if (segs.length === 0 && cc.inKey) {
      const extra = RESOURCE_ROOT_FIELDS;
      const res = head.apiVersion && head.kind ? resolveCr(ctx.index, crRole(head.apiVersion, head.kind)) : undefined;
      return res?.version?.schema ? propertyItems(res.version.schema, cc, replace, extra) : [];
    }
  } else if (cc.path.length === 0 || (cc.path.length === 1 && !cc.inKey)) {
    const root = rootCompletion(ctx, cc, head, replace);
    if (root) return root;
  }
  if (head.kind === 'CustomResourceDefinition') return crdCompletion(ctx, doc, cc, segs, replace, pos);
  if (head.apiVersion && head.kind) {
    const res = resolveCr(ctx.index, crRole(head.apiVersion, head.kind));
    const schema = res?.version?.schema;
    if (!schema) return [];
    if (cc.inKey) {
      const at = schemaAtPath(schema, segs);
      const extra = segs.length === 0 ? RESOURCE_ROOT_FIELDS : undefined;
      return at ? propertyItems(at.schema, cc, replace, extra) : [];
    }
    const at = schemaAtPath(schema, segs);
    return at ? valueItems(at.schema, replace) : [];
  }
  return [];
}

function crRole(apiVersion: string, kind: string) {
  const slash = apiVersion.indexOf('/');
  return { role: 'cr' as const, group: slash < 0 ? '' : apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1), kind, apiVersion };
}

/** apiVersion and kind as written in the document (works on half-typed text). */
function documentHead(doc: YamlDocument): { apiVersion?: string; kind?: string } {
  const v = doc.value;
  const role = roleOf(v);
  if (role.role !== 'other' && isJSONObject(v)) return { apiVersion: String(v.apiVersion), kind: String(v.kind) };
  const av = /^apiVersion:[ \t]*["']?([^\s"'#]+)/m.exec(doc.text);
  const k = /^kind:[ \t]*["']?([^\s"'#]+)/m.exec(doc.text);
  return { apiVersion: av?.[1], kind: k?.[1] };
}

function toSegments(path: CursorSegment[]): PathSegment[] {
  return path.map((s) => ('key' in s ? { kind: 'field' as const, name: s.key } : { kind: 'index' as const, index: s.item }));
}

function rootCompletion(ctx: ServiceContext, cc: CursorContext, head: { apiVersion?: string; kind?: string }, replace: Range): CompletionItem[] | undefined {
  const crds = ctx.index.all();
  if (!cc.inKey) {
    const key = 'key' in cc.path[0] ? cc.path[0].key : '';
    if (key === 'apiVersion') {
      const out = new Map<string, CompletionItem>();
      for (const c of crds) {
        if (head.kind && head.kind !== c.kind) continue;
        // In kubectl's order of preference, the storage and deprecated versions marked.
        const served = byVersionPriority(crdVersions(c.crd).filter((v) => v.served));
        served.forEach((v, i) => {
          const av = `${c.group}/${v.name}`;
          const marks = [i === 0 ? 'preferred' : '', v.storage ? 'storage version' : '', v.deprecated ? 'deprecated' : ''].filter(Boolean);
          out.set(av, {
            label: av,
            kind: CompletionItemKind.Module,
            detail: `${c.kind}${marks.length ? ` (${marks.join(', ')})` : ''}`,
            sortText: String(i).padStart(3, '0'),
            ...(v.deprecated ? { tags: [CompletionItemTag.Deprecated], documentation: v.deprecationWarning ?? defaultDeprecationWarning(v.name, isJSONObject(c.crd.spec) ? c.crd.spec : {}) } : {}),
            textEdit: { range: replace, newText: av },
          });
        });
      }
      if (!head.kind || head.kind === 'CustomResourceDefinition')
        out.set('apiextensions.k8s.io/v1', { label: 'apiextensions.k8s.io/v1', kind: CompletionItemKind.Module, detail: 'CustomResourceDefinition', textEdit: { range: replace, newText: 'apiextensions.k8s.io/v1' } });
      return [...out.values()];
    }
    if (key === 'kind') {
      const group = head.apiVersion?.includes('/') ? head.apiVersion.slice(0, head.apiVersion.indexOf('/')) : undefined;
      const out = new Map<string, CompletionItem>();
      for (const c of crds) {
        if (group && c.group !== group) continue;
        out.set(c.kind, { label: c.kind, kind: CompletionItemKind.Class, detail: c.name, textEdit: { range: replace, newText: c.kind } });
      }
      if (!group || group === 'apiextensions.k8s.io')
        out.set('CustomResourceDefinition', { label: 'CustomResourceDefinition', kind: CompletionItemKind.Class, textEdit: { range: replace, newText: 'CustomResourceDefinition' } });
      return [...out.values()];
    }
    return undefined;
  }
  if (!head.apiVersion || !head.kind) {
    return ['apiVersion', 'kind'].filter((k) => !cc.siblings.includes(k)).map((k, i) => ({ label: k, kind: CompletionItemKind.Property, sortText: String(i), textEdit: { range: replace, newText: `${k}: ` } }));
  }
  return undefined;
}

function propertyItems(schema: JSONSchemaProps, cc: CursorContext, replace: Range, extra?: Record<string, JSONSchemaProps>): CompletionItem[] {
  const props: Record<string, JSONSchemaProps> = { ...(extra ?? {}), ...(isJSONObject(schema.properties) ? (schema.properties as Record<string, JSONSchemaProps>) : {}) };
  if (extra) for (const k of Object.keys(extra)) props[k] = extra[k];
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  if (extra) for (const k of ['apiVersion', 'kind', 'metadata']) required.add(k);
  const out: CompletionItem[] = [];
  for (const [name, s] of Object.entries(props)) {
    if (cc.siblings.includes(name) || !isJSONObject(s)) continue;
    out.push({
      label: name,
      kind: CompletionItemKind.Property,
      detail: `${s.type ?? (s['x-kubernetes-int-or-string'] ? 'int-or-string' : 'any')}${required.has(name) ? ' (required)' : ''}`,
      documentation: s.description ? { kind: MarkupKind.Markdown, value: s.description } : undefined,
      sortText: `${required.has(name) ? '0' : '1'}${name}`,
      insertTextFormat: InsertTextFormat.Snippet,
      textEdit: { range: replace, newText: propertySnippet(name, s) },
    });
  }
  return out;
}

/** The snippet inserted for a property: its default, enum choices or the start of its block. */
export function propertySnippet(name: string, s: JSONSchemaProps): string {
  const key = snippetEscape(yamlKey(name));
  if (s.default !== undefined && (typeof s.default !== 'object' || s.default === null)) return `${key}: \${1:${snippetEscape(yamlScalar(s.default))}}`;
  if (Array.isArray(s.enum) && s.enum.length) return `${key}: \${1|${s.enum.map((v) => choiceEscape(yamlScalar(v))).join(',')}|}`;
  if (s.type === 'boolean') return `${key}: \${1|true,false|}`;
  if (s.type === 'object' || isJSONObject(s.properties)) return `${key}:\n  $0`;
  if (s.type === 'array') return `${key}:\n  - $0`;
  return `${key}: $0`;
}

function valueItems(s: JSONSchemaProps, replace: Range): CompletionItem[] {
  const out: CompletionItem[] = [];
  const add = (v: unknown, detail: string) => {
    const text = yamlScalar(v);
    if (!out.some((i) => i.label === text)) out.push({ label: text, kind: CompletionItemKind.Value, detail, textEdit: { range: replace, newText: text } });
  };
  if (Array.isArray(s.enum)) for (const v of s.enum) add(v, 'enum');
  if (s.type === 'boolean') {
    add(true, 'boolean');
    add(false, 'boolean');
  }
  if (s.default !== undefined && (typeof s.default !== 'object' || s.default === null)) add(s.default, 'default');
  return out;
}

function keywordItems(table: Record<string, KeywordDoc>, names: string[], cc: CursorContext, replace: Range, kind: CompletionItemKind): CompletionItem[] {
  return names
    .filter((n) => table[n] && !cc.siblings.includes(n))
    .map((n) => {
      const k = table[n];
      let snippet = `${n}: $0`;
      if (k.values) snippet = `${n}: \${1|${k.values.join(',')}|}`;
      else if (k.shape === 'object') snippet = `${n}:\n  $0`;
      else if (k.shape === 'array') snippet = `${n}:\n  - $0`;
      return {
        label: n,
        kind,
        documentation: { kind: MarkupKind.Markdown, value: k.doc },
        sortText: (n.startsWith('x-kubernetes-') ? '1' : '0') + n,
        insertTextFormat: InsertTextFormat.Snippet,
        textEdit: { range: replace, newText: snippet },
      };
    });
}

const CRD_PLACES: Array<{ path: string; fields: string[] }> = [
  { path: '', fields: ['apiVersion', 'kind', 'metadata', 'spec'] },
  { path: 'spec', fields: ['group', 'names', 'scope', 'versions', 'conversion', 'preserveUnknownFields'] },
  { path: 'spec.names', fields: ['plural', 'singular', 'kind', 'listKind', 'shortNames', 'categories'] },
  { path: 'spec.versions.#', fields: ['name', 'served', 'storage', 'deprecated', 'deprecationWarning', 'schema', 'subresources', 'additionalPrinterColumns', 'selectableFields'] },
  { path: 'spec.versions.#.schema', fields: ['openAPIV3Schema'] },
];

function crdCompletion(ctx: ServiceContext, doc: YamlDocument, cc: CursorContext, segs: PathSegment[], replace: Range, pos: Position): CompletionItem[] {
  const names = cc.path.map((s) => ('key' in s ? s.key : '#'));
  const oi = openAPISchemaIndex(names);
  if (oi >= 0) {
    const below = names.slice(oi + 1);
    if (cc.inKey) {
      const place = schemaPlace(below);
      if (place === 'schema') return keywordItems(SCHEMA_KEYWORDS, keywordsFor(valueAt(doc.value, segs)), cc, replace, CompletionItemKind.Keyword);
      if (place === 'rule') return keywordItems(VALIDATION_RULE_FIELDS, Object.keys(VALIDATION_RULE_FIELDS), cc, replace, CompletionItemKind.Property);
      return [];
    }
    const key = below[below.length - 1];
    const place = schemaPlace(below.slice(0, -1));
    if (place === 'schema' && SCHEMA_KEYWORDS[key]?.values) return valueList(SCHEMA_KEYWORDS[key].values!, replace);
    if (place === 'rule' && (key === 'rule' || key === 'messageExpression')) return unparsedRuleCompletion(ctx, doc, segs, cc.valueText ?? '', pos);
    if (place === 'rule' && VALIDATION_RULE_FIELDS[key]?.values) return valueList(VALIDATION_RULE_FIELDS[key].values!, replace);
    return [];
  }
  const joined = names.join('.');
  if (cc.inKey) {
    const place = CRD_PLACES.find((p) => p.path === joined);
    return place
      ? keywordItems(
          {
            ...CRD_FIELDS,
            apiVersion: { doc: 'apiextensions.k8s.io/v1' },
            kind: { doc: 'CustomResourceDefinition' },
            metadata: { doc: 'metadata.name must be `<plural>.<group>`.', shape: 'object' },
            spec: { doc: 'The CRD specification.', shape: 'object' },
          },
          place.fields,
          cc,
          replace,
          CompletionItemKind.Property,
        )
      : [];
  }
  const key = names[names.length - 1];
  if (CRD_FIELDS[key]?.values) return valueList(CRD_FIELDS[key].values!, replace);
  return [];
}

/** Keywords forbidden in CRDs, or allowed only with a value that is the default: never offered. */
const NEVER_OFFERED = new Set(['$ref', 'patternProperties', 'definitions', 'uniqueItems', 'additionalItems', 'id', '$schema']);
const OBJECT_ONLY = ['properties', 'additionalProperties', 'maxProperties', 'minProperties', 'required', 'x-kubernetes-map-type', 'x-kubernetes-embedded-resource', 'dependencies'];
const ARRAY_ONLY = ['items', 'maxItems', 'minItems', 'x-kubernetes-list-type', 'x-kubernetes-list-map-keys'];
const STRING_ONLY = ['pattern', 'maxLength', 'minLength'];
const NUMBER_ONLY = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];

/** The schema keywords that make sense on a node, given the `type` it already has. */
export function keywordsFor(node: unknown): string[] {
  const type = isJSONObject(node) && typeof node.type === 'string' ? node.type : undefined;
  const listType = isJSONObject(node) ? node['x-kubernetes-list-type'] : undefined;
  const exclude = new Set<string>(NEVER_OFFERED);
  const drop = (names: string[]) => names.forEach((n) => exclude.add(n));
  if (type && type !== 'object') drop(OBJECT_ONLY);
  if (type && type !== 'array') drop(ARRAY_ONLY);
  if (type && type !== 'string') drop(STRING_ONLY);
  if (type && type !== 'integer' && type !== 'number') drop(NUMBER_ONLY);
  if (type && type !== 'string' && type !== 'integer' && type !== 'number') exclude.add('format');
  if (type) exclude.add('x-kubernetes-int-or-string');
  if (listType !== undefined && listType !== 'map') exclude.add('x-kubernetes-list-map-keys');
  return Object.keys(SCHEMA_KEYWORDS).filter((k) => !exclude.has(k));
}

function valueList(values: string[], replace: Range): CompletionItem[] {
  return values.map((v) => ({ label: v, kind: CompletionItemKind.Value, textEdit: { range: replace, newText: v } }));
}

/**
 * A rule whose text is not a string value yet (an unterminated quote): the text typed on the cursor's
 * line, up to the cursor, is the expression so far.
 */
function unparsedRuleCompletion(ctx: ServiceContext, doc: YamlDocument, segs: PathSegment[], valueText: string, pos: Position): CompletionItem[] {
  const at = ruleSiteOf(ctx, doc.value, segs);
  if (!at) return [];
  const text = valueText.replace(/^["']/, '');
  return celCompletion(at.site, text, text.length, pos);
}

function yamlKey(k: string): string {
  return /^[A-Za-z_$][\w.$/-]*$/.test(k) ? k : JSON.stringify(k);
}
