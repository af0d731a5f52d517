/**
 * The OpenAPI schemas of Kubernetes' built-in kinds by Kubernetes minor version (schemas.json, generated
 * by scripts/builtin-schemas.ts from the api/openapi-spec/v3 documents of each release), as the structural
 * schemas the custom resource checks read, and the API lifecycle of their pre-release versions
 * (lifecycle.json: deprecated in, removed in, replacement, from k8s.io/api's generated lifecycle methods).
 * The table is given by the caller (the engine reads no files); each definition is resolved once and shared
 * by every kind and version that has it.
 */
import type { JSONSchemaProps } from '../schema/types';
import { kindKey } from './validation/kindKey';
import lifecycleTable from './lifecycle.json';

/** schemas.json as generated. */
export interface BuiltinSchemaTable {
  minors: string[];
  /** apiVersion/kind -> runs of [first minor, root definition id ('' : absent from that minor on)]. */
  kinds: Record<string, [string, string][]>;
  /** Definition id -> schema whose `$ref`s name other definition ids. */
  definitions: Record<string, JSONSchemaProps>;
}

/** A built-in kind's version at a Kubernetes minor version. */
export interface BuiltinVersionSchema {
  /** `apps/v1`, `v1`. */
  apiVersion: string;
  version: string;
  schema: JSONSchemaProps;
}

const minorOf = (m: string) => Number(m.split('.')[1]);

/** The schemas of a table, resolved on demand. */
export class BuiltinSchemas {
  private readonly resolved = new Map<string, JSONSchemaProps>();
  private readonly byGroupKind = new Map<string, string[]>();

  constructor(private readonly table: BuiltinSchemaTable) {
    for (const gvk of Object.keys(table.kinds)) {
      const kind = gvk.slice(gvk.lastIndexOf('/') + 1);
      const apiVersion = gvk.slice(0, gvk.lastIndexOf('/'));
      const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
      const key = `${group}/${kind}`;
      this.byGroupKind.set(key, [...(this.byGroupKind.get(key) ?? []), apiVersion]);
    }
  }

  /** The Kubernetes minor versions the table covers (`1.30`, ...). */
  get minors(): string[] {
    return this.table.minors;
  }

  /** The schema of apiVersion/kind at a minor version (undefined: not a built-in kind of that release). */
  schema(apiVersion: string, kind: string, kubernetesMinor: number): JSONSchemaProps | undefined {
    const runs = this.table.kinds[kindKey(apiVersion, kind)];
    if (!runs) return undefined;
    let id = '';
    for (const [minor, rid] of runs) if (minorOf(minor) <= kubernetesMinor) id = rid;
    // A minor older than the table's first is read as the first (`--kubernetes-version` knows no older).
    if (kubernetesMinor < minorOf(runs[0][0])) id = runs[0][1];
    return id ? this.definition(id) : undefined;
  }

  /** Every version of a built-in group/kind that has a schema at a minor version. */
  versions(group: string, kind: string, kubernetesMinor: number): BuiltinVersionSchema[] {
    const out: BuiltinVersionSchema[] = [];
    for (const apiVersion of this.byGroupKind.get(`${group}/${kind}`) ?? []) {
      const schema = this.schema(apiVersion, kind, kubernetesMinor);
      if (schema) out.push({ apiVersion, version: apiVersion.slice(apiVersion.indexOf('/') + 1), schema });
    }
    return out;
  }

  /** A definition with its references replaced by the definitions they name (shared, never changed). */
  private definition(id: string): JSONSchemaProps {
    const hit = this.resolved.get(id);
    if (hit) return hit;
    const raw = this.table.definitions[id];
    // The generator keeps no recursive type: resolution ends. An unknown id is an empty schema.
    const out = raw ? this.node(raw) : {};
    this.resolved.set(id, out);
    return out;
  }

  private node(s: JSONSchemaProps): JSONSchemaProps {
    if (typeof s.$ref === 'string') {
      // A reference site keeps its own description and list extensions over the definition's.
      const { $ref, ...site } = s;
      return { ...this.definition($ref), ...site };
    }
    const out: JSONSchemaProps = { ...s };
    if (s.properties) {
      const props: Record<string, JSONSchemaProps> = {};
      for (const [k, v] of Object.entries(s.properties)) props[k] = this.node(v);
      out.properties = props;
    }
    if (s.items && !Array.isArray(s.items)) out.items = this.node(s.items);
    if (s.additionalProperties && typeof s.additionalProperties === 'object') out.additionalProperties = this.node(s.additionalProperties);
    return out;
  }
}

/** The API lifecycle of a pre-release built-in version (k8s.io/api's prerelease-lifecycle-gen tags). */
export interface ApiLifecycle {
  introduced?: string;
  deprecated?: string;
  removed?: string;
  /** `networking.k8s.io/v1 Ingress`. */
  replacement?: string;
}

const LIFECYCLES = lifecycleTable.kinds as Record<string, ApiLifecycle>;

/** The lifecycle of apiVersion/kind (undefined: a GA version, or not Kubernetes'). */
export function apiLifecycle(apiVersion: string, kind: string): ApiLifecycle | undefined {
  return LIFECYCLES[kindKey(apiVersion, kind)];
}

/**
 * The API server's deprecation warning for an object of apiVersion/kind at a minor version
 * (apiserver/pkg/endpoints/deprecation: IsDeprecated and WarningMessage), or undefined.
 */
export function deprecationWarning(apiVersion: string, kind: string, kubernetesMinor: number): string | undefined {
  const l = apiLifecycle(apiVersion, kind);
  if (!l?.deprecated || minorOf(l.deprecated) > kubernetesMinor) return undefined;
  let msg = `${apiVersion} ${kind} is deprecated in v${l.deprecated}+`;
  if (l.removed) msg += `, unavailable in v${l.removed}+`;
  if (l.replacement) msg += `; use ${l.replacement}`;
  return msg;
}

/** Whether apiVersion/kind was removed from Kubernetes at or before a minor version (with its replacement). */
export function removedIn(apiVersion: string, kind: string, kubernetesMinor: number): ApiLifecycle | undefined {
  const l = apiLifecycle(apiVersion, kind);
  return l?.removed && minorOf(l.removed) <= kubernetesMinor ? l : undefined;
}
