/**
 * Objects whose kind no known CRD defines: Kubernetes' built-in kinds (not checked yet), a kind or version
 * a built-in group does not have (the API server refuses it: `no matches for kind`), files of client-side
 * tools (never sent to a server), and the rest, which only a CRD the user supplies can check.
 */
import { BUILTIN_MINORS, builtinKind, builtinKindsNamed, builtinKindsOfGroup, builtinVersions, isBuiltinGroup } from '../engine';
import { closestNames } from '../engine';
import { removedIn } from '../engine';
import { NEWEST_KUBERNETES_MINOR } from '../engine';

/**
 * API groups of client tools whose files look like objects but are never sent to a server: kustomizations
 * and components, kpt and KRM function configs, test tools' suites (Chainsaw, kuttl, the Kyverno CLI),
 * local cluster and node configuration (kind, k3d, ctlptl, kubeadm, the kubelet's and other components'
 * configuration files, audit policies), a controller's own configuration file (controller-runtime), the
 * Operator SDK's scorecard, Backstage's catalog-info.yaml.
 */
const CLIENT_SIDE_GROUPS = new Set([
  'kustomize.config.k8s.io',
  'config.kubernetes.io',
  'kpt.dev',
  'fn.kpt.dev',
  'chainsaw.kyverno.io',
  'kuttl.dev',
  'cli.kyverno.io',
  'kind.x-k8s.io',
  'k3d.io',
  'ctlptl.dev',
  'kubeadm.k8s.io',
  'kubelet.config.k8s.io',
  'kubeproxy.config.k8s.io',
  'kubescheduler.config.k8s.io',
  'apiserver.config.k8s.io',
  'audit.k8s.io',
  'clusterctl.cluster.x-k8s.io',
  'controller-runtime.sigs.k8s.io',
  'scorecard.operatorframework.io',
  'backstage.io',
]);

/**
 * Whether an apiVersion/kind is a client-side tool's file: a group above, a kubeconfig (`v1 Config`), or a
 * group without a dot that Kubernetes does not have (`skaffold/v4beta11`): no CRD can define such a
 * group (the API server requires a domain), so no server serves it.
 */
export function isClientSideKind(group: string, apiVersion: string, kind: string): boolean {
  if (CLIENT_SIDE_GROUPS.has(group) || (apiVersion === 'v1' && kind === 'Config')) return true;
  return group !== '' && !group.includes('.') && !isBuiltinGroup(group);
}

/** What an object of a built-in group is to the API server of the checked Kubernetes version. */
export type BuiltinKindAnswer =
  /** A kind the API server serves (not validated by crd-yaml yet). */
  | { served: true }
  /** The API server answers `no matches for kind` (`apiMessage`); `message` says why, `suggestions` the kinds meant. */
  | { served: false; message: string; apiMessage: string; suggestions: string[] }
  /** A version the built-in table cannot answer for (a Kubernetes older than the table's). */
  | { served: undefined; hint: string };

/**
 * The API server's answer for an object of a built-in group (undefined: not a built-in group).
 * `kubernetesMinor`: the version checked as (undefined: the newest). The table (engine/discovery) lists every
 * version and kind served by Kubernetes 1.34 and later with every API enabled, so "not served" is sure only
 * for those versions; for an older one it is said as a hint.
 */
export function builtinKindAnswer(group: string, version: string, kind: string, apiVersion: string, kubernetesMinor?: number): BuiltinKindAnswer | undefined {
  if (!isBuiltinGroup(group)) return undefined;
  if (builtinKind(group, version, kind)) return { served: true };
  const gv = (k: { group: string; version: string }) => (k.group ? `${k.group}/${k.version}` : k.version);
  const kinds = builtinKindsOfGroup(group);
  // kubectl's discovery mapper also maps each kind spelled in lower case (restmapper's AddSpecific); the
  // API server then refuses that spelling when decoding.
  const cased = kinds.find((k) => k.toLowerCase() === kind && builtinKind(group, version, k));
  if (cased) {
    const decoding = `${kind} in version "${version}" cannot be handled as a ${cased}: no kind "${kind}" is registered for version "${apiVersion}" in scheme "pkg/runtime/scheme.go:111"`;
    return sure(kubernetesMinor, `no kind "${kind}" is registered for version "${apiVersion}"`, {
      served: false,
      message: `no kind "${kind}" is registered for version "${apiVersion}" (did you mean "${cased}"?)`,
      apiMessage: decoding,
      suggestions: [cased],
    });
  }
  const apiMessage = `no matches for kind "${kind}" in version "${apiVersion}"`;
  // A pre-release version Kubernetes removed (k8s.io/api's lifecycle): sure at any target version.
  const removed = removedIn(apiVersion, kind, kubernetesMinor ?? NEWEST_KUBERNETES_MINOR);
  if (removed?.replacement) {
    return { served: false, message: `${apiMessage} (removed in Kubernetes ${removed.removed}: use ${removed.replacement})`, apiMessage, suggestions: [] };
  }
  let why: string;
  let suggestions: string[] = [];
  const served = builtinVersions(group, kind);
  const moved = served.length ? [] : builtinKindsNamed(kind);
  if (served.length) why = `${apiVersion} is not served: use ${served.map(gv).join(' or ')}`;
  else if (moved.length) why = `${kind} is served as ${[...new Set(moved.map(gv))].join(' or ')}`;
  else if (kinds.length === 0) why = `Kubernetes no longer serves the ${group} group`;
  else {
    suggestions = closestNames(kind, kinds);
    why = suggestions.length ? `did you mean ${suggestions.map((k) => `"${k}"`).join(', ')}?` : `Kubernetes' ${group || 'core'} group has no such kind`;
  }
  return sure(kubernetesMinor, `${apiMessage} in Kubernetes ${BUILTIN_MINORS[0]} and later (${why})`, { served: false, message: `${apiMessage} (${why})`, apiMessage, suggestions });
}

/** The refusal, or for a Kubernetes older than the built-in table only `hint` (the table cannot vouch for it). */
function sure(kubernetesMinor: number | undefined, hint: string, refusal: Extract<BuiltinKindAnswer, { served: false }>): BuiltinKindAnswer {
  const oldest = Number(BUILTIN_MINORS[0].split('.')[1]);
  return kubernetesMinor !== undefined && kubernetesMinor < oldest ? { served: undefined, hint } : refusal;
}
