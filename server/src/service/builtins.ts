/**
 * Kubernetes' built-in kinds checked as custom resources are (`crdYaml.builtins`, `--builtins`): each
 * group/kind is a CRD made from the OpenAPI schemas of its versions at the target Kubernetes version
 * (engine/builtin/schemas.ts), so findings, quick fixes, hover, completion and preview read it as they
 * read any CRD; engineCalls.ts checks its objects with the built-in create path (engine/builtin/object.ts).
 */
import { builtinVersions } from '../engine';
import { NEWEST_KUBERNETES_MINOR } from '../engine';
import type { IndexedCrd } from '../workspace/crdIndex';
import { builtinSchemas } from '../workspace/builtinSchemas';

const made = new Map<string, IndexedCrd | null>();
let nextId = 0;

/** The built-in group/kind as a CRD at a Kubernetes minor (undefined: no built-in schema for it then). */
export function builtinCrd(group: string, kind: string, kubernetesMinor: number = NEWEST_KUBERNETES_MINOR): IndexedCrd | undefined {
  const key = `${group}/${kind}/${kubernetesMinor}`;
  const hit = made.get(key);
  if (hit !== undefined) return hit ?? undefined;
  const versions = builtinSchemas()?.versions(group, kind, kubernetesMinor) ?? [];
  let out: IndexedCrd | null = null;
  if (versions.length) {
    const served = builtinVersions(group, kind);
    const namespaced = served.length ? served[0].namespaced : true;
    const plural = served[0]?.plural ?? `${kind.toLowerCase()}s`;
    const name = `${plural}${group ? `.${group}` : ''}`;
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name },
      spec: {
        group,
        names: { kind, plural },
        scope: namespaced ? 'Namespaced' : 'Cluster',
        versions: versions.map((v, i) => ({ name: v.version, served: true, storage: i === 0, schema: { openAPIV3Schema: v.schema } })),
      },
    };
    // Named for people: "Kubernetes 1.37 Deployment" (hover, messages), never a file.
    out = { uri: '', docIndex: 0, startLine: 0, text: '', crd, name: `Kubernetes 1.${kubernetesMinor} ${kind}`, group, kind, plural, id: -++nextId, builtin: { namespaced, kubernetesMinor } };
  }
  made.set(key, out);
  return out ?? undefined;
}
