/**
 * What to say about an object whose kind no known CRD defines (`crdYaml.unknownKinds: hint`): nothing
 * for Kubernetes' built-in kinds; for a built-in group, the version or kind that does not exist there;
 * otherwise that no CRD is known for it.
 */
import { builtinKind, builtinKindsNamed, builtinVersions, isBuiltinGroup } from '../engine/discovery/builtin';

/**
 * Files of client tools that look like objects but are never sent to a server: kustomizations and
 * components, kpt and KRM function configs, kubeconfig files (`v1 Config`), Kyverno Chainsaw's tests and
 * configuration, kuttl's test suites, steps and asserts.
 */
const CLIENT_SIDE_GROUPS = new Set(['kustomize.config.k8s.io', 'config.kubernetes.io', 'kpt.dev', 'fn.kpt.dev', 'chainsaw.kyverno.io', 'kuttl.dev']);

/** The hint for an object with this apiVersion/kind and no CRD, or undefined for a built-in kind. */
export function unknownKindHint(group: string, version: string, kind: string, apiVersion: string): string | undefined {
  if (builtinKind(group, version, kind) || CLIENT_SIDE_GROUPS.has(group) || (apiVersion === 'v1' && kind === 'Config')) return undefined;
  const gv = (k: { group: string; version: string }) => (k.group ? `${k.group}/${k.version}` : k.version);
  if (isBuiltinGroup(group)) {
    const served = builtinVersions(group, kind);
    if (served.length) return `${kind} is not served in ${apiVersion} by Kubernetes ${served[0].served.at(-1)}: use ${served.map(gv).join(' or ')}`;
    const moved = builtinKindsNamed(kind);
    if (moved.length) return `${apiVersion} has no kind ${kind}: it is served as ${[...new Set(moved.map(gv))].join(' or ')}`;
    return `${apiVersion} has no kind "${kind}" (Kubernetes built-in group ${group || 'core'})`;
  }
  return `no CustomResourceDefinition known for kind "${kind}" in version "${apiVersion}"`;
}
