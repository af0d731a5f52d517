/**
 * How a document is checked from what its file is (FileContext): as a whole object, as a partial one (a
 * kustomize patch, a kubebuilder scaffold's CRD patch, a test tool's assertion), or not as an object at
 * all (a JSON 6902 patch: operations).
 */
import type { FileContext } from './context';
import { isJSONObject } from '../engine';

/**
 * `partial` when a document is a partial object, `json6902` when its file holds patch operations,
 * undefined when it is a whole object.
 */
export function partialRole(fc: FileContext | undefined, value: unknown, uri?: string): 'partial' | 'json6902' | undefined {
  if (!fc) return undefined;
  if (fc.patch) return fc.patch;
  // kubebuilder's `manager_*_patch.yaml` beside a kustomization, listed or commented out: a patch.
  // (Not a CRD: kubebuilder's CRD patches are told by their content, below.)
  if (fc.kustomize && uri !== undefined && isPatchByName(uri) && !(isJSONObject(value) && value.kind === 'CustomResourceDefinition')) return 'partial';
  // A test tool compares an assertion with the object the cluster holds: any subset of it.
  if (fc.testTool?.role === 'assertion') return 'partial';
  if (fc.kustomize === 'scaffoldPatch' && isCrdPatch(value)) return 'partial';
  return undefined;
}

/** A patch by its file name (`manager_webhook_patch.yaml`, `patches/...`): kustomize's, not sent as written. */
export function isPatchByName(uri: string): boolean {
  return /(^|\/)patch(es)?\/|[_.-]patch(es)?\.ya?ml$/i.test(uri.split(/[?#]/)[0]);
}

/**
 * A CustomResourceDefinition that cannot be one on its own: no spec.group and no spec.versions (nor
 * v1beta1's spec.version). kubebuilder's webhook and CA injection patches hold only metadata and
 * spec.conversion.
 */
function isCrdPatch(value: unknown): boolean {
  if (!isJSONObject(value) || value.kind !== 'CustomResourceDefinition') return false;
  const spec = isJSONObject(value.spec) ? value.spec : {};
  return spec.group === undefined && spec.versions === undefined && spec.version === undefined;
}
