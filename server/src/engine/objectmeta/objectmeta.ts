/**
 * metav1.ObjectMeta as the API server decodes and validates it: decoding the `metadata` JSON into the
 * Go struct (type errors, unknown fields dropped), and ValidateObjectMetaAccessor's checks.
 */
import { forbidden, invalid, required, tooLong, type FieldPath, type FieldError } from '../field';
import { asInt64, goDeepEqual, goKind, plainValue, utf8Length, GoStruct } from '../json/go';
import { isPathSegmentName, isQualifiedName, isValidLabelValue, parseGroupVersion, validateNamespaceName } from './names';
import { isJSONObject } from '../json/values';

type FieldKind = 'string' | 'int64' | 'time' | 'stringMap' | 'stringList' | 'ownerRefs' | 'managedFields';

const OBJECT_META_FIELDS: Record<string, FieldKind> = {
  name: 'string',
  generateName: 'string',
  namespace: 'string',
  selfLink: 'string',
  uid: 'string',
  resourceVersion: 'string',
  generation: 'int64',
  creationTimestamp: 'time',
  deletionTimestamp: 'time',
  deletionGracePeriodSeconds: 'int64',
  labels: 'stringMap',
  annotations: 'stringMap',
  ownerReferences: 'ownerRefs',
  finalizers: 'stringList',
  managedFields: 'managedFields',
};

const OWNER_REF_FIELDS: Record<string, 'string' | 'bool'> = {
  apiVersion: 'string',
  kind: 'string',
  name: 'string',
  uid: 'string',
  controller: 'bool',
  blockOwnerDeletion: 'bool',
};

/** The JSON type name encoding/json puts in "cannot unmarshal X into ...". */
function jsonTypeName(v: unknown): string {
  switch (goKind(v)) {
    case 'bool':
      return 'bool';
    case 'string':
      return 'string';
    case 'int':
    case 'float':
      return 'number';
    case 'slice':
      return 'array';
    default:
      return 'object';
  }
}

const typeError = (v: unknown, field: string, goType: string) => `json: cannot unmarshal ${jsonTypeName(v)} into Go struct field ObjectMeta.${field} of type ${goType}`;

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function checkField(kind: FieldKind, v: unknown, field: string): string | undefined {
  if (v === null || v === undefined) return undefined;
  const k = goKind(v);
  switch (kind) {
    case 'string':
      return k === 'string' ? undefined : typeError(v, field, 'string');
    case 'int64':
      if (k === 'int') return undefined;
      if (k === 'float') return `json: cannot unmarshal number ${String(plainValue(v))} into Go struct field ObjectMeta.${field} of type int64`;
      return typeError(v, field, 'int64');
    case 'time':
      if (k !== 'string') return 'json: cannot unmarshal ' + jsonTypeName(v) + ' into Go value of type string';
      return RFC3339.test(v as string) ? undefined : `parsing time ${JSON.stringify(v)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(v)} as "2006"`;
    case 'stringMap':
      if (k !== 'map') return typeError(v, field, 'map[string]string');
      for (const x of Object.values(v as Record<string, unknown>)) {
        if (x !== null && goKind(x) !== 'string') return typeError(x, field, 'string');
      }
      return undefined;
    case 'stringList':
      if (k !== 'slice') return typeError(v, field, '[]string');
      for (const x of v as unknown[]) if (x !== null && goKind(x) !== 'string') return typeError(x, field, 'string');
      return undefined;
    case 'ownerRefs':
      if (k !== 'slice') return typeError(v, field, '[]v1.OwnerReference');
      for (const ref of v as unknown[]) {
        if (ref === null) continue;
        if (!isJSONObject(ref)) return typeError(ref, field, 'v1.OwnerReference');
        for (const [rk, rt] of Object.entries(OWNER_REF_FIELDS)) {
          const rv = ref[rk];
          if (rv === null || rv === undefined) continue;
          if (goKind(rv) !== rt) return typeError(rv, `${field}.${rk}`, rt);
        }
      }
      return undefined;
    case 'managedFields':
      if (k !== 'slice') return typeError(v, field, '[]v1.ManagedFieldsEntry');
      for (const e of v as unknown[]) if (e !== null && !isJSONObject(e)) return typeError(e, field, 'v1.ManagedFieldsEntry');
      return undefined;
  }
}

export interface DecodedObjectMeta {
  /** The metadata as the API server keeps it: known fields only, empty ones omitted. */
  meta: Record<string, unknown>;
}

/**
 * utiljson.Unmarshal of `metadata` into metav1.ObjectMeta: the first type error (Go's message), or the
 * decoded metadata re-encoded as the API server does (ToUnstructured: unknown fields gone, omitempty).
 */
export function decodeObjectMeta(metadata: unknown): { meta?: Record<string, unknown>; error?: string } {
  if (metadata === null || metadata === undefined) return { meta: {} };
  if (!isJSONObject(metadata)) return { error: `json: cannot unmarshal ${jsonTypeName(metadata)} into Go value of type v1.ObjectMeta` };
  const meta: Record<string, unknown> = {};
  for (const k of Object.keys(metadata)) {
    const v = metadata[k];
    // Own fields only: `constructor` or `__proto__` is an unknown field, as any other (Go drops it).
    const kind = Object.hasOwn(OBJECT_META_FIELDS, k) ? OBJECT_META_FIELDS[k] : undefined;
    if (!kind) continue;
    const err = checkField(kind, v, k);
    if (err) return { error: err };
    if (isEmptyValue(v)) continue;
    meta[k] = v;
  }
  return { meta };
}

function isEmptyValue(v: unknown): boolean {
  if (v === null || v === undefined || v === '' || v === 0) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (isJSONObject(v) && goKind(v) === 'map') return Object.keys(v).length === 0;
  return false;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

export type NameValidator = (name: string, prefix: boolean) => string[];

const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * (1 << 10);

/**
 * ValidateObjectMeta (create) on decoded metadata: generateName, name, namespace, generation, labels,
 * annotations, ownerReferences and finalizers.
 */
export function validateObjectMeta(meta: Record<string, unknown>, requiresNamespace: boolean, nameFn: NameValidator, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const generateName = str(meta.generateName);
  const name = str(meta.name);
  if (generateName.length !== 0) for (const msg of nameFn(generateName, true)) errs.push(invalid(fldPath.child('generateName'), generateName, msg));
  if (name.length === 0) errs.push(required(fldPath.child('name'), 'name or generateName is required'));
  else for (const msg of nameFn(name, false)) errs.push(invalid(fldPath.child('name'), name, msg));

  const namespace = str(meta.namespace);
  if (requiresNamespace) {
    if (namespace.length === 0) errs.push(required(fldPath.child('namespace'), ''));
    else for (const msg of validateNamespaceName(namespace, false)) errs.push(invalid(fldPath.child('namespace'), namespace, msg));
  } else if (namespace.length !== 0) {
    errs.push(forbidden(fldPath.child('namespace'), 'not allowed on this type'));
  }
  errs.push(...validateObjectMetaCommon(meta, fldPath));
  return errs;
}

/**
 * ValidateObjectMetaAccessorUpdate: no finalizers added while the old object is being deleted, a
 * resourceVersion, generation not decremented, name, namespace, uid and the deletion and creation
 * fields immutable, then labels, annotations and owner references (finalizer names are checked by the
 * create-style ValidateObjectMetaAccessor that rest.ValidateUpdate also runs).
 */
export function validateObjectMetaUpdate(meta: Record<string, unknown>, oldMeta: Record<string, unknown>, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (oldMeta.deletionTimestamp !== undefined && oldMeta.deletionTimestamp !== null) {
    const before = new Set(stringList(oldMeta.finalizers));
    const extra = [...new Set(stringList(meta.finalizers))].filter((f) => !before.has(f)).sort();
    if (extra.length > 0) {
      errs.push(forbidden(fldPath.child('finalizers'), `no new finalizers can be added if the object is being deleted, found new finalizers []string{${extra.map((f) => JSON.stringify(f)).join(', ')}}`));
    }
  }
  if (str(meta.resourceVersion).length === 0) errs.push(invalid(fldPath.child('resourceVersion'), '', 'must be specified for an update'));
  const newGen = int64(meta.generation);
  const oldGen = int64(oldMeta.generation);
  if (newGen < oldGen) errs.push(invalid(fldPath.child('generation'), newGen, 'must not be decremented'));
  for (const f of ['name', 'namespace', 'uid', 'creationTimestamp', 'deletionTimestamp'] as const) {
    if (str(meta[f]) !== str(oldMeta[f])) errs.push(invalid(fldPath.child(f), meta[f] ?? '', 'field is immutable'));
  }
  if (!goDeepEqual(meta.deletionGracePeriodSeconds ?? null, oldMeta.deletionGracePeriodSeconds ?? null)) {
    errs.push(invalid(fldPath.child('deletionGracePeriodSeconds'), meta.deletionGracePeriodSeconds ?? null, 'field is immutable'));
  }
  errs.push(...validateObjectMetaCommon(meta, fldPath, false));
  return errs;
}

/** metav1validation.ValidateLabels: qualified-name keys, label values. */
export function validateLabels(labels: Record<string, unknown>, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const k of Object.keys(labels)) {
    const v = str(labels[k]);
    for (const msg of isQualifiedName(k)) errs.push(invalid(fldPath, k, msg));
    for (const msg of isValidLabelValue(v)) errs.push(invalid(fldPath, v, msg));
  }
  return errs;
}

/** apivalidation.ValidateAnnotations: qualified-name keys (lower-cased), 256 KiB in total. */
export function validateAnnotations(annotations: Record<string, unknown>, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  for (const k of Object.keys(annotations)) {
    for (const msg of isQualifiedName(k.toLowerCase())) errs.push(invalid(fldPath, k, msg));
    total += utf8Length(k) + utf8Length(str(annotations[k]));
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT) errs.push(tooLong(fldPath, '', TOTAL_ANNOTATION_SIZE_LIMIT));
  return errs;
}

const stringList = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const int64 = (v: unknown): bigint => (goKind(v) === 'int' ? asInt64(v) : 0n);

/** A metav1.OwnerReference as json.Marshal prints it: fields in declaration order, the bools omitted when unset. */
function ownerReferenceStruct(ref: Record<string, unknown>): GoStruct {
  const fields: [string, unknown][] = [
    ['apiVersion', str(ref.apiVersion)],
    ['kind', str(ref.kind)],
    ['name', str(ref.name)],
    ['uid', str(ref.uid)],
  ];
  for (const b of ['controller', 'blockOwnerDeletion']) if (typeof ref[b] === 'boolean') fields.push([b, ref[b]]);
  return new GoStruct(fields);
}

/** The checks shared by create and update: generation, labels, annotations, owner references, finalizers. */
function validateObjectMetaCommon(meta: Record<string, unknown>, fldPath: FieldPath, withFinalizers = true): FieldError[] {
  const errs: FieldError[] = [];
  const generation = meta.generation;
  if (typeof generation === 'number' && generation < 0) errs.push(invalid(fldPath.child('generation'), generation, 'must be greater than or equal to 0'));
  if (typeof generation === 'bigint' && generation < 0n) errs.push(invalid(fldPath.child('generation'), generation, 'must be greater than or equal to 0'));

  // Unset labels, annotations, owner references and finalizers have nothing to check (nor a path to make).
  if (isJSONObject(meta.labels)) errs.push(...validateLabels(meta.labels, fldPath.child('labels')));
  if (isJSONObject(meta.annotations)) errs.push(...validateAnnotations(meta.annotations, fldPath.child('annotations')));

  const refs = Array.isArray(meta.ownerReferences) ? meta.ownerReferences : [];
  let firstController = '';
  if (refs.length > 0)
    refs.forEach((r, i) => {
      const ref = isJSONObject(r) ? r : {};
      const p = fldPath.child('ownerReferences').index(i);
      const apiVersion = str(ref.apiVersion);
      const gv = parseGroupVersion(apiVersion);
      if (apiVersion.length === 0) errs.push(required(p.child('apiVersion'), 'must not be empty'));
      else if (gv.error || gv.version.length === 0) errs.push(invalid(p.child('apiVersion'), apiVersion, 'must be <group>/<version> or <version>'));
      if (str(ref.kind).length === 0) errs.push(required(p.child('kind'), 'must not be empty'));
      if (str(ref.name).length === 0) errs.push(required(p.child('name'), 'must not be empty'));
      if (str(ref.uid).length === 0) errs.push(required(p.child('uid'), 'must not be empty'));
      if (gv.group === '' && gv.version === 'v1' && ref.kind === 'Event') {
        errs.push(invalid(p, ownerReferenceStruct(ref), `/v1, Kind=Event is disallowed from being an owner`));
      }
      if (ref.controller === true) {
        const cur = `${str(ref.kind)}/${str(ref.name)}`;
        if (firstController !== '') {
          errs.push(
            invalid(
              fldPath.child('ownerReferences'),
              refs.map((x) => ownerReferenceStruct(isJSONObject(x) ? x : {})),
              `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${cur}`,
            ),
          );
        } else firstController = cur;
      }
    });

  if (!withFinalizers || !Array.isArray(meta.finalizers) || meta.finalizers.length === 0) return errs;
  const finalizers = meta.finalizers.map(str);
  for (const f of finalizers) for (const msg of isQualifiedName(f)) errs.push(invalid(fldPath.child('finalizers'), f, msg));
  if (finalizers.includes('orphan') && finalizers.includes('foregroundDeletion')) {
    errs.push(invalid(fldPath.child('finalizers'), finalizers, 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return errs;
}

/**
 * The ObjectMeta checks of an update (a custom resource or a CRD): rest.ValidateUpdate's common fields (the create
 * checks with path-segment names, then ValidateObjectMetaAccessorUpdate) and the strategy's
 * ValidateObjectMetaUpdate, duplicates dropped. The update is applied as a patch of the stored object
 * (as kubectl apply does), so what the body leaves out comes from it: name, namespace, uid,
 * resourceVersion; and rest.BeforeUpdate keeps generation, creationTimestamp, deletionTimestamp and
 * deletionGracePeriodSeconds of the stored object.
 */
export function validateUpdatedObjectMeta(metadata: unknown, oldMetadata: unknown, namespaceScoped: boolean, path: FieldPath): FieldError[] {
  const d = decodeObjectMeta(metadata);
  if (d.error !== undefined) return [invalid(path, metadata, d.error)];
  const o = decodeObjectMeta(oldMetadata);
  if (o.error !== undefined) return [];
  const meta = { ...d.meta! };
  const oldMeta = { ...o.meta! };
  for (const f of ['name', 'namespace', 'uid', 'resourceVersion']) if (meta[f] === undefined && oldMeta[f] !== undefined) meta[f] = oldMeta[f];
  // The stored object has a resourceVersion; a request without one gets it from the stored object.
  oldMeta.resourceVersion ??= '1';
  meta.resourceVersion ??= oldMeta.resourceVersion;
  if (oldMeta.generation !== undefined) meta.generation = oldMeta.generation;
  else delete meta.generation;
  if (oldMeta.creationTimestamp !== undefined) meta.creationTimestamp = oldMeta.creationTimestamp;
  if (oldMeta.deletionTimestamp !== undefined) meta.deletionTimestamp = oldMeta.deletionTimestamp;
  if (oldMeta.deletionGracePeriodSeconds !== undefined && meta.deletionGracePeriodSeconds === undefined) meta.deletionGracePeriodSeconds = oldMeta.deletionGracePeriodSeconds;
  if (namespaceScoped) {
    if (meta.namespace === undefined) meta.namespace = 'default';
    if (oldMeta.namespace === undefined) oldMeta.namespace = 'default';
  } else {
    delete meta.namespace;
    delete oldMeta.namespace;
  }
  return dedupeErrors([...validateObjectMeta(meta, namespaceScoped, isPathSegmentName, path), ...validateObjectMetaUpdate(meta, oldMeta, path)]);
}

/** The same error reported by two of the API server's passes once. */
function dedupeErrors(errs: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errs.filter((e) => {
    const k = `${e.type}\u0000${e.field}\u0000${e.detail}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
