/**
 * A custom resource update set against a create of the same object: which errors apply only on update
 * (transition rules, immutable metadata) and which the update lets through (ratcheting: values unchanged
 * since the stored object keep their errors to themselves, as the API server's warnings).
 */
import { compareWithCreate, type UpdateCheck } from '../crd/update';
import { validateCustomResource, type CustomResourceOptions } from './strategy';

export type { UpdateCheck };

/** validateCustomResource as an update of oldObject, compared with the same object as a create. */
export function checkCustomResourceUpdate(crd: unknown, obj: unknown, oldObject: unknown, opts: Pick<CustomResourceOptions, 'version' | 'kubernetesMinor'> = {}): UpdateCheck {
  const update = validateCustomResource(crd, obj, { ...opts, oldObject }).errors;
  const create = validateCustomResource(crd, obj, opts).errors;
  return compareWithCreate(update, create);
}
