/**
 * The warnings the API server returns on a CRD create (customresourcedefinition strategy
 * WarningsOnCreate): unrecognized formats, and list-type=set over non-scalar items. Go returns them as
 * bare strings; here they carry the schema path where they were found, with severity `warning`.
 */
import { FieldPath, type FieldError } from '../field';
import { memoAt, rebaseErrors } from '../field/memo';
import type { JSONSchemaProps } from '../schema/types';
import type { CRDSpec } from './types';
import { isJSONObject } from '../json/values';
import { isSupportedStringFormat } from '../validation/formats';

/** apiservervalidation.GetUnrecognizedFormats for one node. */
export function isUnrecognizedFormat(format: string, type: string): boolean {
  if (format.length === 0) return false;
  switch (type) {
    case '':
    case 'string':
      return !isSupportedStringFormat(format);
    case 'integer':
      return format !== 'int32' && format !== 'int64';
    case 'number':
      return format !== 'float' && format !== 'double';
    default:
      return true;
  }
}

function warning(p: FieldPath, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field: p.toString(), detail, severity: 'warning', segments: p.segments() };
}

export type Visit = (s: JSONSchemaProps, p: FieldPath) => void;

/** SchemaHas's traversal, with paths: every schema node below (and including) `s`. */
export function visitSchema(s: unknown, p: FieldPath, visit: Visit): void {
  if (!isJSONObject(s)) return;
  const node = s as JSONSchemaProps;
  visit(node, p);
  if (Array.isArray(node.items)) node.items.forEach((x, i) => visitSchema(x, p.child('items').index(i), visit));
  else visitSchema(node.items, p.child('items'), visit);
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const) if (Array.isArray(node[k])) node[k]!.forEach((x, i) => visitSchema(x, p.child(k).index(i), visit));
  visitSchema(node.not, p.child('not'), visit);
  for (const k of ['properties', 'patternProperties', 'definitions'] as const) {
    const m = node[k];
    if (isJSONObject(m)) for (const [name, x] of Object.entries(m)) visitSchema(x, p.child(k).key(name), visit);
  }
  visitSchema(node.additionalProperties, p.child('additionalProperties'), visit);
  visitSchema(node.additionalItems, p.child('additionalItems'), visit);
  if (isJSONObject(node.dependencies)) for (const [name, x] of Object.entries(node.dependencies)) visitSchema(x, p.child('dependencies').key(name), visit);
}

const LIST_TYPE_SET_WARNING = 'x-kubernetes-list-type: set';

/** WarningsOnCreate for the internal spec. */
export function createWarnings(spec: CRDSpec): FieldError[] {
  const out: FieldError[] = [];
  const schemas: [JSONSchemaProps, FieldPath][] = [];
  if (spec.validation?.openAPIV3Schema) schemas.push([spec.validation.openAPIV3Schema, FieldPath.root('spec', 'validation', 'openAPIV3Schema')]);
  spec.versions.forEach((v, i) => {
    if (v.schema?.openAPIV3Schema) schemas.push([v.schema.openAPIV3Schema, FieldPath.root('spec', 'versions').index(i).child('schema', 'openAPIV3Schema')]);
  });
  // Go returns each list-type=set warning text once.
  const setWarnings = new Set<string>();
  for (const [schema, root] of schemas) {
    for (const w of schemaWarnings(schema, root)) {
      if (w.detail.startsWith(LIST_TYPE_SET_WARNING)) {
        if (setWarnings.has(w.detail)) continue;
        setWarnings.add(w.detail);
      }
      out.push(w);
    }
  }
  return out;
}

/** The warnings of every node of a schema subtree, in SchemaHas's order (memoized per node: engine/field/memo.ts). */
function schemaWarnings(s: unknown, p: FieldPath): FieldError[] {
  if (!isJSONObject(s)) return [];
  return memoAt('crd.createWarnings', s, '', p, () => nodeWarnings(s as JSONSchemaProps, p), rebaseErrors);
}

function nodeWarnings(node: JSONSchemaProps, p: FieldPath): FieldError[] {
  const out: FieldError[] = [];
  const format = typeof node.format === 'string' ? node.format : '';
  const type = typeof node.type === 'string' ? node.type : '';
  if (isUnrecognizedFormat(format, type)) out.push(warning(p.child('format'), `unrecognized format "${format}"`));
  if (node['x-kubernetes-list-type'] === 'set' && isJSONObject(node.items) && !Array.isArray(node.items)) {
    const it = (node.items as JSONSchemaProps).type;
    if (it === 'object' || it === 'array') {
      out.push(warning(p.child('x-kubernetes-list-type'), `${LIST_TYPE_SET_WARNING} for items of type "${it}" is not supported by server-side apply or CEL validation rules`));
    }
  }
  const sub = (x: unknown, cp: FieldPath) => {
    for (const w of schemaWarnings(x, cp)) out.push(w);
  };
  if (Array.isArray(node.items)) node.items.forEach((x, i) => sub(x, p.child('items').index(i)));
  else sub(node.items, p.child('items'));
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const) if (Array.isArray(node[k])) node[k]!.forEach((x, i) => sub(x, p.child(k).index(i)));
  sub(node.not, p.child('not'));
  for (const k of ['properties', 'patternProperties', 'definitions'] as const) {
    const m = node[k];
    if (isJSONObject(m)) for (const [name, x] of Object.entries(m)) sub(x, p.child(k).key(name));
  }
  sub(node.additionalProperties, p.child('additionalProperties'));
  sub(node.additionalItems, p.child('additionalItems'));
  if (isJSONObject(node.dependencies)) for (const [name, x] of Object.entries(node.dependencies)) sub(x, p.child('dependencies').key(name));
  return out;
}
