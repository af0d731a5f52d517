/**
 * Which object a manifest is (pure, no IO): the key a baseline is found by, and what stands in for the
 * status of a CRD read from git.
 */
import { identifyObject } from '../yaml';

/** The same object: group, kind, namespace (missing and `default` alike) and name. */
export interface BaselineKey {
  group: string;
  kind: string;
  namespace: string;
  name: string;
}

/** The key of a manifest object, when it has apiVersion, kind and a name. */
export function baselineKey(obj: unknown): BaselineKey | undefined {
  const id = identifyObject(obj);
  if ((id.kind !== 'crd' && id.kind !== 'cr') || !id.name || id.objectKind === undefined) return undefined;
  return { group: id.group ?? '', kind: id.objectKind, namespace: !id.namespace || id.namespace === 'default' ? '' : id.namespace, name: id.name };
}

/** Whether two keys name the same object. */
export const sameKey = (a: BaselineKey, b: BaselineKey) => a.group === b.group && a.kind === b.kind && a.namespace === b.namespace && a.name === b.name;

/**
 * The status a CRD read from git stands in with (a CRD applied from that revision): status.storedVersions
 * as the file has them plus the storage version, and Established.
 */
export function storedStatusStandIn(crd: Record<string, unknown>): Record<string, unknown> {
  const spec = (crd.spec ?? {}) as Record<string, unknown>;
  const status = crd.status && typeof crd.status === 'object' ? (crd.status as Record<string, unknown>) : {};
  const stored = new Set(Array.isArray(status.storedVersions) ? status.storedVersions.filter((v): v is string => typeof v === 'string') : []);
  const versions = Array.isArray(spec.versions) ? (spec.versions as Record<string, unknown>[]) : [];
  for (const v of versions) if (v && v.storage === true && typeof v.name === 'string') stored.add(v.name);
  if (versions.length === 0 && typeof spec.version === 'string') stored.add(spec.version);
  return { ...crd, status: { ...status, storedVersions: [...stored], conditions: [{ type: 'Established', status: 'True' }] } };
}
