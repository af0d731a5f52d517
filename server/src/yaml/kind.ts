/**
 * What a document is, in Kubernetes terms, from its `apiVersion` and `kind`.
 */
import { builtinGroups } from '../engine';

/**
 * `crd`: a CustomResourceDefinition; `cr`: any other object with a string apiVersion and kind (a custom
 * resource, or a built-in object: check `BUILTIN_API_GROUPS`); `other`: anything else (a list, a
 * scalar, a mapping without apiVersion/kind); `empty`: no content (`---` alone, comments only).
 */
export type DocumentKind = 'crd' | 'cr' | 'other' | 'empty';

/** The Kubernetes identity of a document. */
export interface ObjectIdentity {
  kind: DocumentKind;
  /** `apiVersion` as written (when a string). */
  apiVersion?: string;
  /** API group (`""` for the core group). */
  group?: string;
  /** API version (`v1`). */
  version?: string;
  /** `kind` as written (when a string). */
  objectKind?: string;
  /** `metadata.name` (when a string). */
  name?: string;
  /** `metadata.namespace` (when a string). */
  namespace?: string;
}

/** The API groups that are built into the API server (objects of these groups are not custom resources). */
export const BUILTIN_API_GROUPS: ReadonlySet<string> = builtinGroups();

/** Split `group/version` (`v1` alone is the core group), as schema.ParseGroupVersion does. */
export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.indexOf('/');
  if (i < 0) return { group: '', version: apiVersion };
  return { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

/** Classify a document's JSON value. A CRD is `apiextensions.k8s.io/<any version>` + `CustomResourceDefinition`. */
export function identifyObject(value: unknown): ObjectIdentity {
  if (value === null || value === undefined) return { kind: 'empty' };
  if (typeof value !== 'object' || Array.isArray(value)) return { kind: 'other' };
  const o = value as Record<string, unknown>;
  const apiVersion = typeof o.apiVersion === 'string' ? o.apiVersion : undefined;
  const objectKind = typeof o.kind === 'string' ? o.kind : undefined;
  const meta = o.metadata && typeof o.metadata === 'object' ? (o.metadata as Record<string, unknown>) : undefined;
  const id: ObjectIdentity = { kind: 'other', apiVersion, objectKind };
  if (typeof meta?.name === 'string') id.name = meta.name;
  if (typeof meta?.namespace === 'string') id.namespace = meta.namespace;
  if (apiVersion === undefined || objectKind === undefined) return id;
  const gv = parseApiVersion(apiVersion);
  id.group = gv.group;
  id.version = gv.version;
  id.kind = gv.group === 'apiextensions.k8s.io' && objectKind === 'CustomResourceDefinition' ? 'crd' : 'cr';
  return id;
}
