/**
 * ObjectMeta validation on create for a cluster-scoped object (apimachinery pkg/api/validation
 * ValidateObjectMetaAccessor), with the CRD's name function.
 */
import { FieldPath, forbidden, invalid, required, tooLong, type FieldError } from '../field';
import { isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from './content';
import type { ObjectMeta } from './types';

/** ValidateNameFunc: the messages for a bad name; prefix is true for generateName. */
export type NameFunc = (name: string, prefix: boolean) => string[];

/** genericvalidation.NameIsDNSSubdomain */
export function nameIsDNSSubdomain(name: string, prefix: boolean): string[] {
  // maskTrailingDash: a generateName may end in '-' since a suffix follows.
  if (prefix && name.length > 1 && name.endsWith('-')) name = name.slice(0, -2) + 'a';
  return isDNS1123Subdomain(name);
}

const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

/** ValidateObjectMeta (create) for a cluster-scoped resource. */
export function validateObjectMeta(meta: ObjectMeta, nameFn: NameFunc, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (meta.generateName.length !== 0) {
    for (const msg of nameFn(meta.generateName, true)) errs.push(invalid(fldPath.child('generateName'), meta.generateName, msg));
  }
  if (meta.name.length === 0) errs.push(required(fldPath.child('name'), 'name or generateName is required'));
  else for (const msg of nameFn(meta.name, false)) errs.push(invalid(fldPath.child('name'), meta.name, msg));

  if (meta.namespace.length !== 0) errs.push(forbidden(fldPath.child('namespace'), 'not allowed on this type'));

  const labels = fldPath.child('labels');
  for (const [k, v] of Object.entries(meta.labels)) {
    for (const msg of isQualifiedName(k)) errs.push(invalid(labels, k, msg));
    for (const msg of isValidLabelValue(v)) errs.push(invalid(labels, v, msg));
  }
  const annotations = fldPath.child('annotations');
  let size = 0;
  for (const [k, v] of Object.entries(meta.annotations)) {
    for (const msg of isQualifiedName(k.toLowerCase())) errs.push(invalid(annotations, k, msg));
    size += Buffer.byteLength(k) + Buffer.byteLength(v);
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) errs.push(tooLong(annotations, '', TOTAL_ANNOTATION_SIZE_LIMIT));

  const finalizers = fldPath.child('finalizers');
  for (const f of meta.finalizers) for (const msg of isQualifiedName(f)) errs.push(invalid(finalizers, f, msg));
  if (meta.finalizers.includes('orphan') && meta.finalizers.includes('foregroundDeletion')) {
    errs.push(invalid(finalizers, meta.finalizers, 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return errs;
}
