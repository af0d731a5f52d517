/**
 * Schema -> CEL types, mirroring k8s.io/apiserver/pkg/cel/common/schemas.go (SchemaDeclType) and
 * apiextensions' schema/cel/model (WithTypeAndObjectMeta). The types themselves are the language's
 * (engine/cel/common/types.ts).
 */
import { memoOf } from '../../field/memo';
import type { JSONSchemaProps } from '../types';
import { MAX_REQUEST_SIZE_BYTES, T, escapeName, register, type CelType, type DeclField, type DeclType } from '../../cel/common/types';

const MAX_DURATION_SIZE_JSON = 32;
const MAX_DATETIME_SIZE_JSON = 32;
const MIN_DURATION_SIZE_JSON = 3;
const JSON_DATE_SIZE = 12;
const MIN_DATETIME_SIZE_JSON = 21;
const MIN_STRING_SIZE = 2;
const MIN_BOOL_SIZE = 4;
const MIN_NUMBER_SIZE = 1;

function simple(cel: CelType, name: string, minSize: number, maxElements = 0, schema?: JSONSchemaProps): DeclType {
  return { cel, name, minSerializedSize: minSize, maxElements, schema };
}

function zeroIfNegative(v: number): number {
  return Math.max(v, 0);
}

function typeOf(s: JSONSchemaProps): string | undefined {
  return typeof s.type === 'string' ? s.type : undefined;
}

function props(s: JSONSchemaProps): Record<string, JSONSchemaProps> | undefined {
  return s.properties && typeof s.properties === 'object' ? (s.properties as Record<string, JSONSchemaProps>) : undefined;
}

/** The additionalProperties schema, when it is a schema (not a bool). */
export function additionalPropertiesSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  const ap = s.additionalProperties;
  return ap && typeof ap === 'object' ? (ap as JSONSchemaProps) : undefined;
}

/** The items schema, when it is a single schema. */
export function itemsSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  const it = s.items;
  return it && typeof it === 'object' && !Array.isArray(it) ? (it as JSONSchemaProps) : undefined;
}

function isIntOrString(s: JSONSchemaProps): boolean {
  return s['x-kubernetes-int-or-string'] === true;
}

/**
 * WithTypeAndObjectMeta: at a resource root, apiVersion, kind, metadata.name and metadata.generateName
 * are always accessible; unless all four are declared as strings, metadata is replaced by just those two.
 */
export function withTypeAndObjectMeta(s: JSONSchemaProps): JSONSchemaProps {
  const p = props(s);
  const isStr = (x: JSONSchemaProps | undefined) => !!x && typeOf(x) === 'string';
  const meta = p?.metadata;
  const metaProps = meta ? props(meta) : undefined;
  if (p && isStr(p.kind) && isStr(p.apiVersion) && meta && typeOf(meta) === 'object' && metaProps && isStr(metaProps.name) && isStr(metaProps.generateName)) {
    return s;
  }
  const str: JSONSchemaProps = { type: 'string' };
  // apiextensions' model.WithTypeAndObjectMeta caps name/generateName at the DNS-1123 subdomain length.
  const capped = (existing: JSONSchemaProps | undefined, max: number): JSONSchemaProps => {
    const ml = existing ? numOf(existing.maxLength) : undefined;
    return { type: 'string', maxLength: ml !== undefined && ml < max ? ml : max };
  };
  return {
    ...s,
    properties: {
      ...(p ?? {}),
      kind: str,
      apiVersion: str,
      metadata: { type: 'object', properties: { name: capped(metaProps?.name, 253), generateName: capped(metaProps?.generateName, 252) } },
    },
  };
}

function maxLengthOf(s: JSONSchemaProps): number | undefined {
  return typeof s.maxLength === 'number' ? s.maxLength : typeof s.maxLength === 'bigint' ? Number(s.maxLength) : undefined;
}
function numOf(v: unknown): number | undefined {
  return typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : undefined;
}

function maxStringLengthPerRequest(s: JSONSchemaProps): number {
  if (isIntOrString(s)) return MAX_REQUEST_SIZE_BYTES - 2;
  switch (s.format) {
    case 'duration':
      return MAX_DURATION_SIZE_JSON;
    case 'date':
      return JSON_DATE_SIZE;
    case 'date-time':
      return MAX_DATETIME_SIZE_JSON;
    default:
      return MAX_REQUEST_SIZE_BYTES - 2;
  }
}

/**
 * SchemaDeclType: the CEL type of a schema node, or undefined when the node is not exposed to CEL
 * (no type, or a list/map whose items are not exposed).
 */
export function schemaDeclType(s: JSONSchemaProps | undefined, isResourceRoot: boolean): DeclType | undefined {
  if (!s || typeof s !== 'object') return undefined;
  if (declCache) {
    const key = isResourceRoot ? 1 : 0;
    let e = declCache.get(s);
    if (!e) declCache.set(s, (e = [undefined, undefined]));
    if (e[key] === undefined) e[key] = computeDeclType(s, isResourceRoot) ?? null;
    return e[key] ?? undefined;
  }
  // Per schema object in the active memo (engine/field/memo.ts): an edited schema converts only its path.
  return memoOf('cel.schemaDeclType', s, isResourceRoot ? 'r' : '', () => computeDeclType(s, isResourceRoot));
}

let declCache: WeakMap<JSONSchemaProps, [DeclType | null | undefined, DeclType | null | undefined]> | undefined;

/**
 * Runs fn with schemaDeclType memoized per schema object: a walk that asks for the type of every node
 * of a rule scope is then linear, not quadratic. Scoped, because callers may change schemas between calls.
 */
export function withDeclTypeCache<R>(fn: () => R): R {
  if (declCache) return fn();
  declCache = new WeakMap();
  try {
    return fn();
  } finally {
    declCache = undefined;
  }
}

function computeDeclType(s: JSONSchemaProps, isResourceRoot: boolean): DeclType | undefined {
  if (isIntOrString(s)) {
    const ml = maxLengthOf(s);
    // Its own dyn object, so editors can tell an int-or-string from other dyn values (declOf).
    return register(simple({ kind: 'dyn' }, 'dyn', 1, ml !== undefined ? zeroIfNegative(ml) * 4 : maxStringLengthPerRequest(s), s));
  }
  const orig = s;
  if (isResourceRoot) s = withTypeAndObjectMeta(s);
  switch (typeOf(s)) {
    case 'array': {
      const items = itemsSchema(s);
      if (!items) return undefined;
      const itemsType = schemaDeclType(items, items['x-kubernetes-embedded-resource'] === true);
      if (!itemsType) return undefined;
      const mi = numOf(s.maxItems);
      const maxItems = mi !== undefined ? zeroIfNegative(mi) : Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (itemsType.minSerializedSize + 1));
      const lt = s['x-kubernetes-list-type'];
      const cel: CelType =
        lt === 'set' || lt === 'map' ? { kind: 'list', elem: itemsType.cel, listType: lt, mapKeys: Array.isArray(s['x-kubernetes-list-map-keys']) ? s['x-kubernetes-list-map-keys'] : undefined } : T.list(itemsType.cel);
      return { cel, name: 'list', elemType: itemsType, maxElements: maxItems, minSerializedSize: 2, schema: orig };
    }
    case 'object': {
      const ap = additionalPropertiesSchema(s);
      if (ap) {
        const propsType = schemaDeclType(ap, ap['x-kubernetes-embedded-resource'] === true);
        if (!propsType) return undefined;
        const mp = numOf(s.maxProperties);
        const maxProps = mp !== undefined ? zeroIfNegative(mp) : Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (propsType.minSerializedSize + 6));
        // NewMapType uses the plain StringType for keys, whose MaxElements is 0.
        const keyType = simple(T.string, 'string', MIN_STRING_SIZE, 0);
        return { cel: T.map(T.string, propsType.cel), name: 'map', keyType, elemType: propsType, maxElements: maxProps, minSerializedSize: 2, schema: orig };
      }
      const fields = new Map<string, DeclField>();
      const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
      let minSize = 2;
      for (const [name, prop] of Object.entries(props(s) ?? {})) {
        const ft = schemaDeclType(prop, prop?.['x-kubernetes-embedded-resource'] === true);
        if (!ft) continue;
        const esc = escapeName(name);
        if (esc !== undefined) fields.set(esc, { name: esc, jsonName: name, type: ft, required: required.has(name) });
        if (required.has(name) && prop.default === undefined) minSize += name.length + ft.minSerializedSize + 4;
      }
      const decl: DeclType = { cel: T.dyn, name: 'object', fields, maxElements: 0, minSerializedSize: minSize, schema: orig };
      decl.cel = { kind: 'object', name: 'object', decl };
      return decl;
    }
    case 'string': {
      switch (s.format) {
        case 'byte': {
          const ml = maxLengthOf(s);
          return simple(T.bytes, 'bytes', MIN_STRING_SIZE, ml !== undefined ? zeroIfNegative(ml) : maxStringLengthPerRequest(s), orig);
        }
        case 'duration':
          return simple(T.duration, 'duration', MIN_DURATION_SIZE_JSON, maxStringLengthPerRequest(s), orig);
        case 'date':
          return simple(T.timestamp, 'timestamp', JSON_DATE_SIZE, maxStringLengthPerRequest(s), orig);
        case 'date-time':
          return simple(T.timestamp, 'timestamp', MIN_DATETIME_SIZE_JSON, maxStringLengthPerRequest(s), orig);
      }
      const ml = maxLengthOf(s);
      let max: number;
      if (ml !== undefined) max = zeroIfNegative(ml) * 4;
      else if (Array.isArray(s.enum) && s.enum.length > 0) max = Math.max(0, ...s.enum.map((e) => (typeof e === 'string' ? Buffer.byteLength(e) : 0)));
      else max = maxStringLengthPerRequest(s);
      return simple(T.string, 'string', MIN_STRING_SIZE, max, orig);
    }
    case 'boolean':
      return simple(T.bool, 'bool', MIN_BOOL_SIZE, 0, orig);
    case 'number':
      return simple(T.double, 'double', MIN_NUMBER_SIZE, 0, orig);
    case 'integer':
      return simple(T.int, 'int', MIN_NUMBER_SIZE, 0, orig);
  }
  return undefined;
}
