/**
 * The cluster layer (IO): kubeconfig files as kubectl reads them, and a read-only API client.
 *
 * - `openCluster({ kubeconfig?, context?, allowExec })`: the client of a context (the current one by default).
 * - `ClusterClient.listCustomResourceDefinitions()`, `.getObject({ apiVersion, kind, namespace?, name })`, `.get(path)`.
 * - `storedCrdManifest(crd)`: a CRD as fetched, reduced to what a manifest holds (no status, no server fields).
 *
 * Callers decide trust: in an untrusted workspace no client is made at all (nothing contacted, nothing run).
 */
import { ClusterClient, type ClusterClientOptions } from './client';
import { connectionFor, kubeconfigPaths, loadKubeconfig } from './kubeconfig';

export { ClusterClient, ClusterError, type ClusterClientOptions, type ClusterCrds, type ObjectReference } from './client';
export { KubeconfigError, connectionFor, contextNames, kubeconfigPaths, loadKubeconfig, type ClusterConnection, type Kubeconfig } from './kubeconfig';

/** The client of a kubeconfig context (`kubeconfig`: an explicit file, as `--kubeconfig`). */
export async function openCluster(opts: { kubeconfig?: string; context?: string } & ClusterClientOptions): Promise<ClusterClient> {
  const files = kubeconfigPaths(opts.kubeconfig);
  const cfg = await loadKubeconfig(files, { explicit: !!opts.kubeconfig });
  return new ClusterClient(await connectionFor(cfg, opts.context), opts);
}

const SERVER_SET_METADATA = ['uid', 'resourceVersion', 'generation', 'creationTimestamp', 'managedFields', 'selfLink', 'deletionTimestamp', 'deletionGracePeriodSeconds'];

/** A CRD from the API reduced to its manifest: no status, no server-set metadata, no last-applied copy. */
export function storedCrdManifest(crd: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' };
  const meta = { ...((crd.metadata ?? {}) as Record<string, unknown>) };
  for (const k of SERVER_SET_METADATA) delete meta[k];
  if (meta.annotations && typeof meta.annotations === 'object') {
    const a = { ...(meta.annotations as Record<string, unknown>) };
    delete a['kubectl.kubernetes.io/last-applied-configuration'];
    if (Object.keys(a).length) meta.annotations = a;
    else delete meta.annotations;
  }
  out.metadata = meta;
  out.spec = crd.spec;
  return out;
}
