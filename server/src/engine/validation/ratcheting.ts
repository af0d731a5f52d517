/**
 * Ratcheting (kube-openapi validate/ratcheting.go, apiserver pkg/cel/common CorrelatedObject): the old
 * value correlated with the value validated, and whether a value is unchanged from it.
 */
import type { JSONSchemaProps } from '../schema/types';
import { goDeepEqual, goKind } from '../json/go';
import { makeMapList, type MapList } from '../listtype/maplist';
import { isSchema } from './schema';

/**
 * The old value correlated with the value being validated (ratcheting, apiserver pkg/cel/common
 * CorrelatedObject), with the schema node that correlates its children.
 */
export interface Correlation {
  old: unknown;
  schema: JSONSchemaProps;
}

/**
 * CorrelatedObject.Key: the old value of a field, when both have it and the schema knows the field.
 * `root`: data is the root of the value validated, where apiVersion and kind never correlate.
 */
export function corrKey(corr: Correlation | undefined, data: unknown, field: string, root: boolean): Correlation | undefined {
  if (!corr) return undefined;
  if (root && (field === 'kind' || field === 'apiVersion')) return undefined;
  const old = corr.old;
  if (!isGoMapValue(old) || !isGoMapValue(data)) return undefined;
  if (!Object.hasOwn(old, field) || !Object.hasOwn(data, field)) return undefined;
  const props = isSchema(corr.schema.properties) ? (corr.schema.properties as Record<string, unknown>) : undefined;
  let sub: unknown = props && Object.hasOwn(props, field) ? props[field] : undefined;
  if (!isSchema(sub)) sub = isSchema(corr.schema.additionalProperties) ? corr.schema.additionalProperties : undefined;
  if (!isSchema(sub)) return undefined;
  return { old: old[field], schema: sub };
}

/** CorrelatedObject.Index: only list-type map items correlate, by their keys (MakeMapList). */
export function corrIndex(corr: Correlation | undefined, data: unknown, i: number): Correlation | undefined {
  if (corr?.schema['x-kubernetes-list-type'] !== 'map' || !isSchema(corr.schema.items)) return undefined;
  if (!Array.isArray(corr.old) || !Array.isArray(data) || i >= data.length) return undefined;
  const match = oldMapList(corr.schema, corr.old).get(data[i]);
  return match === undefined ? undefined : { old: match, schema: corr.schema.items as JSONSchemaProps };
}

const mapLists = new WeakMap<unknown[], WeakMap<JSONSchemaProps, MapList>>();

/** The old list's MapList, built once per (old list, schema) as the correlated object caches it. */
function oldMapList(schema: JSONSchemaProps, old: unknown[]): MapList {
  let bySchema = mapLists.get(old);
  if (!bySchema) mapLists.set(old, (bySchema = new WeakMap()));
  let m = bySchema.get(schema);
  if (!m) bySchema.set(schema, (m = makeMapList(schema, old)));
  return m;
}

/**
 * CorrelatedObject.CachedDeepEqual for other ratcheting users (the CEL validator shares the correlated object):
 * keys the schema does not declare (apiVersion, kind, metadata at a root that does not list them, unknown
 * fields kept by x-kubernetes-preserve-unknown-fields) never correlate, so such a node is never "unchanged".
 */
export function correlatedDeepEqual(oldValue: unknown, newValue: unknown, schema: JSONSchemaProps): boolean {
  return correlatedEqual(newValue, { old: oldValue, schema });
}

/** CorrelatedObject.CachedDeepEqual: is the value unchanged, correlating children through the schema? */
export function correlatedEqual(data: unknown, corr: Correlation): boolean {
  const old = corr.old;
  const nk = goKind(data);
  const ok = goKind(old);
  if (nk === 'nil' && ok === 'nil') return true;
  if (nk === 'nil' || ok === 'nil') return false;
  if ((nk === 'slice') !== (ok === 'slice') || (nk === 'map') !== (ok === 'map')) return false;
  if (nk === 'slice') {
    const n = data as unknown[];
    const o = old as unknown[];
    if (n.length !== o.length) return false;
    const isMapList = corr.schema['x-kubernetes-list-type'] === 'map' && isSchema(corr.schema.items);
    for (let i = 0; i < n.length; i++) {
      const child = corrIndex(corr, n, i);
      if (!child) return isMapList ? false : goDeepEqual(o, n);
      if (!correlatedEqual(n[i], child)) return false;
    }
    return true;
  }
  if (nk === 'map') {
    const n = data as Record<string, unknown>;
    const o = old as Record<string, unknown>;
    const keys = Object.keys(n);
    if (keys.length !== Object.keys(o).length) return false;
    for (const k of keys) {
      const child = corrKey(corr, n, k, false);
      if (!child || !correlatedEqual(n[k], child)) return false;
    }
    return true;
  }
  return goDeepEqual(old, data);
}

function isGoMapValue(v: unknown): v is Record<string, unknown> {
  return goKind(v) === 'map';
}
