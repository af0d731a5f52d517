/**
 * apiserver pkg/endpoints/handlers: what the REST handlers do to a create or update body before the
 * strategy sees it.
 */
import { invalid, FieldPath, OMIT_VALUE, type FieldError } from '../field';
import { isJSONObject } from '../json/values';

/**
 * endpoints/handlers dedupOwnerReferencesAndAddWarning, run on create and update bodies before the
 * strategy: owner references equal in every field to an earlier one (same uid) are removed, with a
 * warning naming their uids. Mutates obj; returns the warning, if any.
 */
export function dedupOwnerReferences(obj: Record<string, unknown>): FieldError | undefined {
  const meta = isJSONObject(obj.metadata) ? obj.metadata : undefined;
  const refs = meta?.ownerReferences;
  if (!Array.isArray(refs) || !refs.every(isJSONObject)) return undefined;
  // unstructured extractOwnerReference: the typed fields only; absent and false differ for the bools.
  const typed = (r: Record<string, unknown>) => ({
    apiVersion: typeof r.apiVersion === 'string' ? r.apiVersion : '',
    kind: typeof r.kind === 'string' ? r.kind : '',
    name: typeof r.name === 'string' ? r.name : '',
    uid: typeof r.uid === 'string' ? r.uid : '',
    ...(typeof r.controller === 'boolean' ? { controller: r.controller } : {}),
    ...(typeof r.blockOwnerDeletion === 'boolean' ? { blockOwnerDeletion: r.blockOwnerDeletion } : {}),
  });
  const same = (a: ReturnType<typeof typed>, b: ReturnType<typeof typed>) =>
    a.apiVersion === b.apiVersion && a.kind === b.kind && a.name === b.name && a.uid === b.uid && a.controller === b.controller && a.blockOwnerDeletion === b.blockOwnerDeletion;
  const result: ReturnType<typeof typed>[] = [];
  const duplicates: string[] = [];
  for (const r of refs as Record<string, unknown>[]) {
    const t = typed(r);
    if (result.some((x) => same(x, t))) duplicates.push(t.uid);
    else result.push(t);
  }
  if (duplicates.length === 0) return undefined;
  meta!.ownerReferences = result;
  const text = `.metadata.ownerReferences contains duplicate entries; API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: ${duplicates.join(', ')}`;
  return { ...invalid(FieldPath.root('metadata', 'ownerReferences'), OMIT_VALUE, text), severity: 'warning' };
}
