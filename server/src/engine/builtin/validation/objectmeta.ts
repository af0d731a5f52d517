/**
 * The metadata of a built-in object on create: each kind's ValidateXName (DNS subdomain, DNS label or
 * path segment) through the ObjectMeta checks custom resources already use (engine/objectmeta).
 */
import { invalid, type FieldError } from '../../field';
import { decodeObjectMeta, validateObjectMeta, type NameValidator } from '../../objectmeta/objectmeta';
import { isPathSegmentName, nameIsDNS1035Label, nameIsDNSSubdomain, validateNamespaceName } from '../../objectmeta/names';
import { featureGates } from './gates';
import { METADATA_PATH, type JSONObject } from './values';

/** apimachinery NameIsDNSSubdomain: most kinds' ValidateXName. */
export const dnsSubdomainName: NameValidator = nameIsDNSSubdomain;
/** apimachinery NameIsDNSLabel: Namespace, StatefulSet. */
export const dnsLabelName: NameValidator = validateNamespaceName;
/**
 * ValidateServiceCreate's name check: NameIsDNSLabel with RelaxedServiceNameValidation (on since 1.36),
 * else core/validation.ValidateServiceName (NameIsDNS1035Label).
 */
export const serviceName: NameValidator = (name, prefix) => (featureGates().relaxedServiceNameValidation ? validateNamespaceName(name, prefix) : nameIsDNS1035Label(name, prefix));
/** rbac/validation.ValidateRBACName = content.IsPathSegmentName (the prefix flag is ignored). */
export const pathSegmentName: NameValidator = (name) => isPathSegmentName(name, false);

/**
 * rest.BeforeCreate then ValidateObjectMeta: a cluster-scoped object's namespace is cleared, a namespaced
 * one is created in the request's namespace (`default` when the file names none), a generateName gets
 * its random suffix (five characters of [bcdfghjklmnpqrstvwxz2456789]) before the name is checked.
 */
export function validateBuiltinObjectMeta(object: JSONObject, namespaced: boolean, nameFn: NameValidator): FieldError[] {
  const path = METADATA_PATH;
  const d = decodeObjectMeta(object.metadata);
  if (d.error !== undefined) return [invalid(path, object.metadata, d.error)];
  // decodeObjectMeta makes a new object (the fields kept): ours to change, not the file's metadata.
  const meta = d.meta === object.metadata ? { ...d.meta } : d.meta!;
  if (!namespaced) delete meta.namespace;
  else if (typeof meta.namespace !== 'string' || meta.namespace === '') meta.namespace = 'default';
  if ((typeof meta.name !== 'string' || meta.name === '') && typeof meta.generateName === 'string' && meta.generateName !== '') {
    meta.name = meta.generateName + 'bcdfg';
  }
  return validateObjectMeta(meta, namespaced, nameFn, path);
}
