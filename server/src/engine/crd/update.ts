/**
 * CRD validation on an update, as the API server does it (apiextensions-apiserver
 * pkg/registry/customresourcedefinition strategy.go PrepareForUpdate, and validation.go
 * ValidateCustomResourceDefinitionUpdate): the new CRD against the stored one.
 *
 * The stored CRD is taken as given, status included: `status.storedVersions` (the versions objects may
 * still be stored in) and the Established condition come from it. A stored CRD without stored versions
 * stands for one created from that object, whose storage version is then the one stored version.
 * (Where the old object comes from a git ref rather than a cluster, the caller decides what its status
 * stands for; see the baseline layer.)
 */
import { FieldPath, invalid, type FieldError } from '../field';
import type { JSONSchemaProps } from '../schema/types';
import { newStructural, validateStructural } from '../schema/structural';
import { schemaHasUnprunedDefaults } from '../defaulting/prune';
import { validateUpdatedObjectMeta } from '../objectmeta/objectmeta';
import { convertToInternal } from './conversion';
import { decodeCustomResourceDefinition } from './decode';
import { semanticDeepEqual } from './json';
import { dropDisabledFields, validateCustomResourceDefinition, validateInternal, type KubernetesTarget } from './validation';
import { schemaHas } from './schema';
import type { CRDValidationOptions } from './options';
import type { CRDSpec, CustomResourceDefinition } from './types';
import { createWarnings } from './warnings';
import { isJSONObject } from '../json/values';

const OPENAPI_V3_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const ACCEPTED_REVIEW_VERSIONS = ['v1', 'v1beta1'];
const MAX_SELECTABLE_FIELDS = 8;

/** What a stored CRD's status says, as far as validation cares. */
export interface StoredCRDStatus {
  storedVersions: string[];
  established: boolean;
}

/** status.storedVersions and the Established condition of a CRD object, as stored. */
export function storedStatusOf(crd: unknown): StoredCRDStatus {
  const status = isJSONObject(crd) && isJSONObject(crd.status) ? crd.status : {};
  const storedVersions = Array.isArray(status.storedVersions) ? status.storedVersions.filter((v): v is string => typeof v === 'string') : [];
  const conditions = Array.isArray(status.conditions) ? status.conditions : [];
  const established = conditions.some((c) => isJSONObject(c) && c.type === 'Established' && c.status === 'True');
  return { storedVersions, established };
}

/**
 * ValidateCustomResourceDefinitionUpdate after PrepareForUpdate: the update options derived from the
 * stored CRD, immutable group and plural (scope and kind too once Established), the stored versions
 * that must stay in spec.versions, ObjectMeta update rules, API approval and preserveUnknownFields
 * against the stored values. Warnings (severity `warning`) are the create warnings the new CRD
 * introduces. Never throws.
 */
export function validateCustomResourceDefinitionUpdate(crd: unknown, oldCrd: unknown, target: KubernetesTarget = {}): FieldError[] {
  const decoded = decodeCustomResourceDefinition(crd);
  if (!isJSONObject(crd)) return decoded.errors;
  const obj = convertToInternal(decoded.crd);
  const old = convertToInternal(decodeCustomResourceDefinition(oldCrd).crd);

  // PrepareForUpdate: the status is the stored one, plus the new storage version.
  const stored = storedStatusOf(oldCrd);
  const storedVersions = stored.storedVersions.length > 0 ? [...stored.storedVersions] : [...old.status.storedVersions];
  old.status = { storedVersions: [...storedVersions] };
  const storage = obj.spec.versions.find((v) => v.storage);
  if (storage && !storedVersions.includes(storage.name)) storedVersions.push(storage.name);
  obj.status = { storedVersions };

  dropDisabledFields(obj, old, target.kubernetesMinor);
  const opts = updateOptions(obj, old, stored.established);
  opts.kubernetesMinor = target.kubernetesMinor;
  opts.compatibilityMinor = target.compatibilityMinor;
  const errs: FieldError[] = [];
  const meta = isJSONObject(crd) ? crd.metadata : undefined;
  const oldMeta = isJSONObject(oldCrd) ? oldCrd.metadata : undefined;
  errs.push(...validateUpdatedObjectMeta(meta, oldMeta, false, FieldPath.root('metadata')));
  errs.push(...decoded.errors, ...validateInternal(obj, { old, opts }));
  errs.push(...validateSpecUpdate(obj.spec, old.spec, opts, FieldPath.root('spec')));
  errs.push(...newWarnings(obj, old));
  const name = obj.metadata.name;
  if (name) for (const e of errs) e.provenance = { ...e.provenance, crd: name };
  return errs;
}

/** validateCustomResourceDefinitionSpecUpdate's own checks: what affects storage cannot change. */
function validateSpecUpdate(spec: CRDSpec, oldSpec: CRDSpec, opts: CRDValidationOptions, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const immutable = (p: FieldPath, v: string, o: string) => {
    if (v !== o) errs.push(invalid(p, v, 'field is immutable'));
  };
  if (opts.requireImmutableNames) {
    immutable(fldPath.child('scope'), spec.scope, oldSpec.scope);
    immutable(fldPath.child('names', 'kind'), spec.names.kind, oldSpec.names.kind);
  }
  immutable(fldPath.child('group'), spec.group, oldSpec.group);
  immutable(fldPath.child('names', 'plural'), spec.names.plural, oldSpec.names.plural);
  return errs;
}

/** Every schema of a spec: the top-level one and each version's. */
function specSchemas(spec: CRDSpec): JSONSchemaProps[] {
  const out: JSONSchemaProps[] = [];
  if (spec.validation?.openAPIV3Schema) out.push(spec.validation.openAPIV3Schema);
  for (const v of spec.versions) if (v.schema?.openAPIV3Schema) out.push(v.schema.openAPIV3Schema);
  return out;
}

const specHas = (spec: CRDSpec, pred: (s: JSONSchemaProps) => boolean) => specSchemas(spec).some((s) => schemaHas(s, pred));

/** schemaIsNonStructural */
function isNonStructural(s: JSONSchemaProps): boolean {
  const r = newStructural(s);
  return r.error !== undefined || !r.structural || validateStructural(r.structural).length > 0;
}

/** hasNonAtomicSetType's predicate */
function nonAtomicSetType(s: JSONSchemaProps): boolean {
  if (s['x-kubernetes-list-type'] !== 'set' || !isJSONObject(s.items) || Array.isArray(s.items)) return false;
  const is = s.items as JSONSchemaProps;
  if (is.type === 'array') return is['x-kubernetes-list-type'] !== undefined && is['x-kubernetes-list-type'] !== 'atomic';
  if (is.type === 'object') return is['x-kubernetes-map-type'] !== 'atomic';
  return false;
}

/** hasInvalidMapListKeysMapSet's predicate (validateMapListKeysMapSet reports something). */
function invalidMapListKeysMapSet(s: JSONSchemaProps): boolean {
  const lt = s['x-kubernetes-list-type'];
  if ((lt !== 'set' && lt !== 'map') || !isJSONObject(s.items) || Array.isArray(s.items)) return false;
  const items = s.items as JSONSchemaProps;
  if (items.nullable === true) return true;
  if (lt !== 'map') return false;
  const req = new Set(Array.isArray(items.required) ? items.required : []);
  const props = isJSONObject(items.properties) ? (items.properties as Record<string, JSONSchemaProps>) : {};
  const keys = Array.isArray(s['x-kubernetes-list-map-keys']) ? s['x-kubernetes-list-map-keys'] : [];
  return keys.some((k) => {
    if (typeof k !== 'string' || !Object.hasOwn(props, k)) return false;
    const ks = props[k];
    return (!req.has(k) && ks.default === undefined) || ks.nullable === true;
  });
}

/** The rule and messageExpression texts of every schema of a spec (findPreexistingExpressions). */
function preexistingExpressions(spec: CRDSpec): { rules: Set<string>; messageExpressions: Set<string> } {
  const rules = new Set<string>();
  const messageExpressions = new Set<string>();
  for (const s of specSchemas(spec)) {
    schemaHas(s, (x) => {
      const list = Array.isArray(x['x-kubernetes-validations']) ? x['x-kubernetes-validations'] : [];
      for (const r of list) {
        if (!isJSONObject(r)) continue;
        rules.add(typeof r.rule === 'string' ? r.rule : '');
        if (typeof r.messageExpression === 'string' && r.messageExpression.length > 0) messageExpressions.add(r.messageExpression);
      }
      return false;
    });
  }
  return { rules, messageExpressions };
}

/** GetSchemaForVersion on the internal object: the top-level schema, else the version's. */
function schemaForVersion(crd: CustomResourceDefinition, version: string): unknown {
  if (crd.spec.validation) return crd.spec.validation;
  return crd.spec.versions.find((v) => v.name === version)?.schema;
}

/** The options ValidateCustomResourceDefinitionUpdate derives from the stored CRD. */
export function updateOptions(obj: CustomResourceDefinition, old: CustomResourceDefinition, established: boolean): CRDValidationOptions {
  const oldSpec = old.spec;
  const conv = oldSpec.conversion;
  const pre = preexistingExpressions(oldSpec);
  const unchanged = new Set<string>();
  for (const v of obj.spec.versions) {
    // Versions missing from the stored CRD have no schema there (GetSchemaForVersion fails): not unchanged.
    if (!oldSpec.versions.some((o) => o.name === v.name) && !oldSpec.validation) continue;
    if (semanticDeepEqual(schemaForVersion(obj, v.name), schemaForVersion(old, v.name))) unchanged.add(v.name);
  }
  const tooMany = new Set<string>();
  if (oldSpec.selectableFields.length > MAX_SELECTABLE_FIELDS && semanticDeepEqual(obj.spec.selectableFields, oldSpec.selectableFields)) tooMany.add('');
  for (const v of obj.spec.versions) {
    const o = oldSpec.versions.find((x) => x.name === v.name);
    if (o && o.selectableFields.length > MAX_SELECTABLE_FIELDS && semanticDeepEqual(v.selectableFields, o.selectableFields)) tooMany.add(v.name);
  }
  const allVersionsHaveSchemas = !!oldSpec.validation?.openAPIV3Schema || oldSpec.versions.every((v) => v.schema?.openAPIV3Schema);
  return {
    requireRecognizedConversionReviewVersion: !conv || conv.conversionReviewVersions.length === 0 || conv.conversionReviewVersions.some((v) => ACCEPTED_REVIEW_VERSIONS.includes(v)),
    requireImmutableNames: established,
    requireOpenAPISchema: allVersionsHaveSchemas,
    requireValidPropertyType: !specHas(oldSpec, (s) => typeof s.type === 'string' && s.type.length > 0 && !OPENAPI_V3_TYPES.includes(s.type)),
    requirePrunedDefaults: !specSchemas(oldSpec).some((s) => {
      try {
        return !isNonStructural(s) && schemaHasUnprunedDefaults(s);
      } catch {
        return false;
      }
    }),
    requireAtomicSetType: !specHas(oldSpec, nonAtomicSetType),
    requireMapListKeysMapSetValidation: !specHas(oldSpec, invalidMapListKeysMapSet),
    preexistingRules: pre.rules,
    preexistingMessageExpressions: pre.messageExpressions,
    versionsWithUnchangedSchemas: unchanged,
    // The caBundle is not checked by this engine at all (the create path never checks it).
    allowInvalidCABundle: true,
    allowTooManySelectableFields: tooMany,
  };
}

/** WarningsOnUpdate: warnings the new CRD has that the stored one did not. */
function newWarnings(obj: CustomResourceDefinition, old: CustomResourceDefinition): FieldError[] {
  const key = (e: FieldError) => e.detail;
  const before = new Set(createWarnings(old.spec).map(key));
  return createWarnings(obj.spec).filter((w) => !before.has(key(w)));
}

/** An update's errors set against the same object's create. */
export interface UpdateCheck {
  /** The update's errors and warnings; `onlyOnUpdate`: the object as a create would not have it. */
  errors: (FieldError & { onlyOnUpdate?: boolean })[];
  /** Errors a create of the object would have that the update does not (unchanged since the stored object). */
  relaxed: FieldError[];
}

const errorKey = (e: FieldError) => `${e.type}\u0000${e.field}\u0000${e.detail}\u0000${e.severity ?? 'error'}`;

/** Compares an update's errors with a create's: which apply only on update, which the update relaxes. */
export function compareWithCreate(update: FieldError[], create: FieldError[]): UpdateCheck {
  const created = new Set(create.map(errorKey));
  const updated = new Set(update.map(errorKey));
  return {
    errors: update.map((e) => (created.has(errorKey(e)) ? e : { ...e, onlyOnUpdate: true })),
    relaxed: create.filter((e) => (e.severity ?? 'error') === 'error' && !updated.has(errorKey(e))),
  };
}

/**
 * A CRD update checked against the stored CRD, set against a create of the same CRD: the errors only
 * an update has (a stored version removed, an immutable field) and the create errors the stored CRD
 * exempts it from (rules it already broke).
 */
export function checkCustomResourceDefinitionUpdate(crd: unknown, oldCrd: unknown, target: KubernetesTarget = {}): UpdateCheck {
  return compareWithCreate(validateCustomResourceDefinitionUpdate(crd, oldCrd, target), validateCustomResourceDefinition(crd, target));
}
