/**
 * A start in an empty file: completion offers "New <Kind>" for each known CRD, a skeleton with apiVersion,
 * kind, metadata.name and the required fields (at the root and in spec), each with a value that validates
 * against the schema (fixes/minimalValue.ts). Every inserted value is a tab stop, in the order written
 * (the name first); where the schema names the allowed values (an enum, a boolean) the stop offers them.
 */
import { CompletionItemKind, InsertTextFormat, MarkupKind, type CompletionItem, type Range } from 'vscode-languageserver-types';
import type { JSONSchemaProps } from '../engine';
import type { IndexedCrd } from '../workspace/crdIndex';
import type { ServiceContext } from './context';
import { minimalValidValue } from './fixes/minimalValue';
import { crdVersions } from './kube';
import { yamlText } from '../yaml';
import type { YamlDocument } from '../yaml/file';
import { isJSONObject } from '../engine';

/** Whether the cursor's document has nothing in it yet (blanks and comments only). */
export function isEmptyDocument(doc: YamlDocument | undefined): boolean {
  if (!doc) return true;
  return doc.value === null || doc.value === undefined ? !/^(?!\s*(#|---|\.\.\.|$)).+/m.test(doc.text) : false;
}

/** The version a new object is written in: the storage version when served, else the first served, non-deprecated first. */
function versionFor(crd: IndexedCrd) {
  const served = crdVersions(crd.crd).filter((v) => v.served);
  return served.find((v) => v.storage) ?? served.find((v) => !v.deprecated) ?? served[0];
}

/** The skeleton object of a CRD's kind (values escaped for a snippet), or undefined when its version has no schema. */
export function newObjectSkeleton(crd: IndexedCrd): { apiVersion: string; object: Record<string, unknown> } | undefined {
  const v = versionFor(crd);
  if (!v) return undefined;
  const apiVersion = `${crd.group}/${v.name}`;
  const object: Record<string, unknown> = { apiVersion, kind: crd.kind, metadata: { name: NAME } };
  const root = v.schema;
  const props = root && isJSONObject(root.properties) ? (root.properties as Record<string, JSONSchemaProps>) : {};
  const required = new Set(root && Array.isArray(root.required) ? root.required.filter((r): r is string => typeof r === 'string') : []);
  // spec always (where the schema has one), other root fields when required.
  for (const [name, s] of Object.entries(props)) {
    if (['apiVersion', 'kind', 'metadata', 'status'].includes(name)) continue;
    if (!required.has(name) && name !== 'spec') continue;
    const value = minimalValidValue(s);
    if (value) object[name] = value.value;
  }
  return { apiVersion, object };
}

/** Stands for the name in the YAML text until it becomes the snippet's first tab stop. */
const NAME = 'crd-yaml-new-object-name';

/** One tab stop: the value written, and the values the schema allows (choices), if it names them. */
export interface Stop {
  text: string;
  choices?: string[];
}

/** The most choices a tab stop offers (a long enum is better typed than scrolled). */
const MAX_CHOICES = 30;

/** Stands for tab stop `i` in the YAML text (a plain scalar the YAML printer writes as it is). */
const stopMark = (i: number) => `crdyamlstop${i}x`;

/**
 * The value with each leaf (scalar, empty list, empty object) replaced by a tab stop's mark, in the order
 * the YAML printer writes them; `schema` gives each leaf its choices.
 */
export function markStops(value: unknown, schema: JSONSchemaProps | undefined, stops: Stop[]): unknown {
  if (Array.isArray(value) && value.length) {
    const items = schema && isJSONObject(schema.items) ? (schema.items as JSONSchemaProps) : undefined;
    return value.map((v) => markStops(v, items, stops));
  }
  if (isJSONObject(value) && Object.keys(value).length) {
    const props = schema && isJSONObject(schema.properties) ? (schema.properties as Record<string, JSONSchemaProps>) : {};
    const extra = schema && isJSONObject(schema.additionalProperties) ? (schema.additionalProperties as JSONSchemaProps) : undefined;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, markStops(v, props[k] ?? extra, stops)]));
  }
  const text = Array.isArray(value) ? '[]' : isJSONObject(value) ? '{}' : yamlScalar(value);
  const allowed = schema && Array.isArray(schema.enum) ? schema.enum.filter((e) => e !== null && typeof e !== 'object') : schema?.type === 'boolean' ? [true, false] : [];
  const choices = allowed.length > 1 && allowed.length <= MAX_CHOICES ? [text, ...allowed.map(yamlScalar).filter((c) => c !== text)] : undefined;
  stops.push(choices ? { text, choices } : { text });
  return stopMark(stops.length);
}

/** The skeleton as a snippet (every value a tab stop, the name the first) and as plain YAML (documentation). */
export function newObjectSnippet(crd: IndexedCrd): { apiVersion: string; snippet: string; yaml: string } | undefined {
  const sk = newObjectSkeleton(crd);
  if (!sk) return undefined;
  const schema = versionFor(crd)?.schema as JSONSchemaProps | undefined;
  const stops: Stop[] = [{ text: `my-${crd.kind.toLowerCase()}` }];
  const { apiVersion, kind, metadata: _metadata, ...rest } = sk.object;
  const body = markStops(rest, schema, stops) as Record<string, unknown>;
  const yaml = yamlText({ apiVersion, kind, metadata: { name: stopMark(1) }, ...body });
  const r = renderStops(yaml, stops);
  return { apiVersion: sk.apiVersion, snippet: r.snippet, yaml: r.plain };
}

/** A text with tab stop marks (markStops) as a snippet, and as plain text (each stop its value). */
export function renderStops(text: string, stops: readonly Stop[]): { snippet: string; plain: string } {
  const mark = /crdyamlstop(\d+)x/g;
  const snippet = text.replace(/[$}\\]/g, '\\$&').replace(mark, (_m, n: string) => {
    const st = stops[Number(n) - 1];
    return st.choices ? `\${${n}|${st.choices.map(choiceEscape).join(',')}|}` : `\${${n}:${snippetEscape(st.text)}}`;
  });
  return { snippet, plain: text.replace(mark, (_m, n: string) => stops[Number(n) - 1].text) };
}

/** "New <Kind>" items for every known CRD. */
export function newObjectItems(ctx: ServiceContext, replace: Range): CompletionItem[] {
  const out: CompletionItem[] = [];
  for (const crd of ctx.index.all()) {
    if (crd.broken) continue;
    const sn = newObjectSnippet(crd);
    if (!sn) continue;
    out.push({
      label: `New ${crd.kind}`,
      kind: CompletionItemKind.Snippet,
      detail: `${sn.apiVersion} (${crd.name})`,
      documentation: { kind: MarkupKind.Markdown, value: '```yaml\n' + sn.yaml + '```' },
      insertTextFormat: InsertTextFormat.Snippet,
      filterText: `New ${crd.kind} ${crd.kind}`,
      sortText: `0-${crd.kind}`,
      textEdit: { range: replace, newText: sn.snippet },
    });
  }
  return out;
}

/** A scalar as YAML text: plain when that reads back as the same string, JSON-quoted otherwise. */
export function yamlScalar(v: unknown): string {
  if (typeof v !== 'string') return v === undefined ? '' : JSON.stringify(v);
  if (/^[A-Za-z_/][\w./-]*$/.test(v) && !/^(true|false|null|yes|no|on|off|y|n|~)$/i.test(v)) return v;
  return JSON.stringify(v);
}

/** Text inside a snippet placeholder (`${1:text}`). */
export function snippetEscape(s: string): string {
  return s.replace(/[$}\\]/g, '\\$&');
}

/** One choice of a snippet choice list (`${1|a,b|}`). */
export function choiceEscape(s: string): string {
  return s.replace(/[$}\\|,]/g, '\\$&');
}
