/**
 * A start in an empty file: completion offers "New <Kind>" for each known CRD, a skeleton with apiVersion,
 * kind, metadata.name and the required fields (at the root and in spec), each with a value that validates
 * against the schema (fixes/minimalValue.ts).
 */
import { CompletionItemKind, InsertTextFormat, MarkupKind, type CompletionItem, type Range } from 'vscode-languageserver-types';
import { stringify } from 'yaml';
import type { JSONSchemaProps } from '../engine/schema/types';
import type { IndexedCrd } from '../workspace/crdIndex';
import type { ServiceContext } from './context';
import { minimalValidValue } from './fixes/minimalValue';
import { crdVersions } from './kube';
import type { YamlDoc } from './yamlDocument';
import { isJSONObject } from '../engine/json/values';

/** Whether the cursor's document has nothing in it yet (blanks and comments only). */
export function isEmptyDocument(doc: YamlDoc | undefined): boolean {
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

/** "New <Kind>" items for every known CRD. */
export function newObjectItems(ctx: ServiceContext, replace: Range): CompletionItem[] {
  const out: CompletionItem[] = [];
  for (const crd of ctx.index.all()) {
    if (crd.broken) continue;
    const sk = newObjectSkeleton(crd);
    if (!sk) continue;
    const yaml = stringify(sk.object, { lineWidth: 0 });
    const snippet = yaml.replace(/[$}\\]/g, '\\$&').replace(NAME, '${1:' + `my-${crd.kind.toLowerCase()}` + '}');
    out.push({
      label: `New ${crd.kind}`,
      kind: CompletionItemKind.Snippet,
      detail: `${sk.apiVersion} (${crd.name})`,
      documentation: { kind: MarkupKind.Markdown, value: '```yaml\n' + yaml.replace(NAME, `my-${crd.kind.toLowerCase()}`) + '```' },
      insertTextFormat: InsertTextFormat.Snippet,
      filterText: `New ${crd.kind} ${crd.kind}`,
      sortText: `0-${crd.kind}`,
      textEdit: { range: replace, newText: snippet },
    });
  }
  return out;
}
