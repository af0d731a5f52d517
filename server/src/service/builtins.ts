/**
 * Kubernetes' built-in kinds checked as custom resources are (`crdYaml.builtins`, `--builtins`): each
 * group/kind is a CRD made from the OpenAPI schemas of its versions at the target Kubernetes version
 * (engine/builtin/schemas.ts), so findings, quick fixes, hover, completion and preview read it as they
 * read any CRD; engineCalls.ts checks its objects with the built-in create path (engine/builtin/object.ts).
 */
import { builtinVersions, kindKey } from '../engine';
import { NEWEST_KUBERNETES_MINOR } from '../engine';
import type { IndexedCrd } from '../workspace/crdIndex';
import type { ServiceContext } from './context';
import { builtinSchemas } from '../workspace/builtinSchemas';
import { builtinSchemaFile } from '../workspace/builtinSchemaFiles';
import { stringify } from 'yaml';
import { pathToFileURL } from 'node:url';

/** By Kubernetes minor, then `group/kind` (kindKey: one key per pair, not one concatenated for each object). */
const made = new Map<number, Map<string, IndexedCrd | null>>();
let nextId = 0;

/** The built-in group/kind as a CRD at a Kubernetes minor (undefined: no built-in schema for it then). */
export function builtinCrd(group: string, kind: string, kubernetesMinor: number = NEWEST_KUBERNETES_MINOR): IndexedCrd | undefined {
  let atMinor = made.get(kubernetesMinor);
  if (!atMinor) made.set(kubernetesMinor, (atMinor = new Map()));
  const key = kindKey(group, kind);
  const hit = atMinor.get(key);
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
  atMinor.set(key, out);
  return out ?? undefined;
}

const asFiles = new WeakMap<IndexedCrd, IndexedCrd | null>();

/**
 * A built-in group/kind's CRD as a read-only file in `dir` (workspace/builtinSchemaFiles.ts), for go to
 * definition: the same CRD with that file's URI and text (undefined: the file cannot be written).
 */
export function builtinCrdFile(crd: IndexedCrd, dir: string): IndexedCrd | undefined {
  if (!crd.builtin) return undefined;
  let out = asFiles.get(crd);
  if (out === undefined) {
    const header = `# ${crd.name}: the OpenAPI schemas of its versions, as crd-yaml checks its objects (generated, read-only).\n`;
    // Definitions shared by several fields (ObjectMeta) are written out at each, never as YAML aliases.
    const text = header + stringify(crd.crd, { lineWidth: 0, aliasDuplicateObjects: false });
    const file = builtinSchemaFile(dir, crd.builtin.kubernetesMinor, crd.group, crd.kind, text);
    out = file ? { ...crd, uri: pathToFileURL(file).href, text, startLine: 0, blockYaml: undefined } : null;
    asFiles.set(crd, out);
  }
  return out ?? undefined;
}

/** Whether a URI is one of the built-in schemas builtinCrdFile writes (generated: neither indexed nor checked). */
export function isBuiltinSchemaFile(ctx: ServiceContext, uri: string): boolean {
  return !!ctx.builtinSchemaDir && uri.startsWith(pathToFileURL(ctx.builtinSchemaDir).href + '/');
}
