/**
 * CRD validation on a v1 create, as the API server does it: decode, v1 defaulting, PrepareForCreate,
 * v1 -> internal conversion (which decides the error paths), then ValidateCustomResourceDefinition
 * (apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go), plus the create warnings of
 * pkg/registry/customresourcedefinition/strategy.go.
 */
import { FieldPath, duplicate, forbidden, invalid, notSupported, required, tooMany, type FieldError } from '../field';
import { newStructural } from '../schema/structural';
import type { JSONSchemaProps } from '../schema/types';
import { isDNS1035Label, isDNS1123Subdomain } from './content';
import { convertToInternal } from './conversion';
import { decodeCustomResourceDefinition } from './decode';
import { validFieldPath } from '../schema/cel/fieldpath';
import { goURLParseRequestURI } from '../json/gourl';
import { validateObjectMeta } from '../objectmeta/objectmeta';
import { nameIsDNSSubdomain } from './objectmeta';
import { schemaHasDefaults, validateCustomResourceDefinitionValidation } from './schema';
import type { CRDNames, CRDSpec, CRDVersion, ColumnDefinition, CustomResourceConversion, CustomResourceDefinition, SelectableField, Subresources } from './types';
import { createWarnings } from './warnings';
import { featureGates, type KubernetesTarget } from '../version';
import { CREATE_OPTIONS, type CRDValidationOptions } from './options';
import { internalVersionStruct } from './gostruct';
import { validateWebhookService, validateWebhookURL } from './webhook';
import { isJSONObject } from '../json/values';

const PRINTER_COLUMN_DATATYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];
const MAX_SELECTABLE_FIELDS = 8;
const API_APPROVAL_ANNOTATION = 'api-approved.kubernetes.io';

/**
 * CRD validation on a v1 create (apiextensions-apiserver pkg/apis/apiextensions/validation
 * ValidateCustomResourceDefinition), after the v1 defaulting and conversion the REST handler does.
 * Warnings (e.g. deprecated versions) come back with severity `warning`. Never throws: malformed input
 * (not an object, wrongly typed fields) is reported as FieldValueTypeInvalid errors.
 */
export function validateCustomResourceDefinition(crd: unknown, target: KubernetesTarget = {}): FieldError[] {
  const decoded = decodeCustomResourceDefinition(crd);
  if (!isJSONObject(crd)) return decoded.errors;
  const internal = convertToInternal(decoded.crd);
  dropDisabledFields(internal, undefined, target.kubernetesMinor);
  const opts = createOptions(target);
  const all = [...decoded.errors, ...validateInternal(internal, undefined, opts), ...createWarnings(internal.spec)];
  const name = internal.metadata.name;
  // New objects: errors of memoized subtrees are shared between checks (engine/field/memo.ts).
  return name ? all.map((e) => ({ ...e, provenance: { ...e.provenance, crd: name } })) : all;
}

/**
 * ValidateCustomResourceDefinition on the internal object; with an old object and update options, the
 * checks validateCustomResourceDefinitionUpdate shares with it (engine/crd/update.ts adds the rest).
 */
export function validateInternal(obj: CustomResourceDefinition, update?: { old: CustomResourceDefinition; opts: CRDValidationOptions }, createOpts: CRDValidationOptions = CREATE_OPTIONS): FieldError[] {
  const opts = update?.opts ?? createOpts;
  const spec = obj.spec;
  const nameFn = (name: string, prefix: boolean): string[] => {
    const ret = nameIsDNSSubdomain(name, prefix);
    if (name !== `${spec.names.plural}.${spec.group}`) ret.push('must be spec.names.plural+"."+spec.group');
    return ret;
  };
  const errs: FieldError[] = [];
  if (update) {
    errs.push(...validateSpec(spec, FieldPath.root('spec'), opts));
    errs.push(...validateStoredVersions(obj.status.storedVersions, spec.versions, FieldPath.root('status', 'storedVersions')));
    errs.push(...validateAPIApproval(obj, update.old));
    if (spec.preserveUnknownFields === true && update.old.spec.preserveUnknownFields !== true) errs.push(preserveUnknownFieldsError());
    return errs;
  }
  // BeforeCreate generates a name from generateName (up to 58 characters plus 5 random ones) before
  // validation; a fixed suffix stands in for the random one.
  const metadata: Record<string, unknown> = { ...obj.metadata.decoded };
  if (obj.metadata.name.length === 0 && obj.metadata.generateName.length > 0) {
    metadata.name = obj.metadata.generateName.slice(0, 58) + 'xxxxx';
  }
  errs.push(...validateObjectMeta(metadata, false, nameFn, FieldPath.root('metadata')));
  errs.push(...validateSpec(spec, FieldPath.root('spec'), opts));
  // status.acceptedNames is empty on create: nothing to validate.
  errs.push(...validateStoredVersions(obj.status.storedVersions, spec.versions, FieldPath.root('status', 'storedVersions')));
  errs.push(...validateAPIApproval(obj));
  if (spec.preserveUnknownFields === true) errs.push(preserveUnknownFieldsError());
  return errs;
}

export type { KubernetesTarget } from '../version';

/**
 * The CRD strategy's dropDisabledFields (PrepareForCreate / PrepareForUpdate): with
 * CustomResourceFieldSelectors off (1.30), selectableFields are dropped unless the stored CRD uses them.
 * (optionalOldSelf would be dropped with CRDValidationRatcheting off: on in every modelled version.)
 */
export function dropDisabledFields(obj: CustomResourceDefinition, old: CustomResourceDefinition | undefined, kubernetesMinor: number | undefined): void {
  if (featureGates(kubernetesMinor).CustomResourceFieldSelectors) return;
  if (old && (old.spec.selectableFields.length > 0 || old.spec.versions.some((v) => v.selectableFields.length > 0))) return;
  obj.spec.selectableFields = [];
  for (const v of obj.spec.versions) v.selectableFields = [];
}

/** validatePreserveUnknownFields: true may not be set (unless the stored CRD has it). */
function preserveUnknownFieldsError(): FieldError {
  return invalid(FieldPath.root('spec', 'preserveUnknownFields'), true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead');
}

/** suppressExpressionCostForUnchangedSchema */
function suppressFor(opts: CRDValidationOptions, version: string): CRDValidationOptions & { suppressPerExpressionCost?: boolean } {
  return opts.versionsWithUnchangedSchemas.has(version) ? { ...opts, suppressPerExpressionCost: true } : opts;
}

function hasStatusEnabled(s: Subresources | undefined): boolean {
  return !!s && s.status !== undefined;
}

function getSubresourcesForVersion(spec: CRDSpec, name: string): Subresources | undefined {
  if (!spec.versions.some((v) => v.subresources)) return spec.subresources;
  return spec.versions.find((v) => v.name === name)?.subresources;
}

function specSchemas(spec: CRDSpec): JSONSchemaProps[] {
  const out: JSONSchemaProps[] = [];
  if (spec.validation?.openAPIV3Schema) out.push(spec.validation.openAPIV3Schema);
  for (const v of spec.versions) if (v.schema?.openAPIV3Schema) out.push(v.schema.openAPIV3Schema);
  return out;
}

/** validateCustomResourceDefinitionSpec */
function validateSpec(spec: CRDSpec, fldPath: FieldPath, opts: CRDValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const group = fldPath.child('group');
  if (spec.group.length === 0) errs.push(required(group, ''));
  else {
    const e = isDNS1123Subdomain(spec.group);
    if (e.length > 0) errs.push(invalid(group, spec.group, e.join(',')));
    else if (spec.group.split('.').length < 2) errs.push(invalid(group, spec.group, 'should be a domain with at least one dot'));
  }

  errs.push(...validateEnumStrings(fldPath.child('scope'), spec.scope, ['Cluster', 'Namespaced'], true));

  // requireOpenAPISchema: every version needs a schema unless there is a top-level one; else (an update
  // of a CRD that had versions without one) every served version, when fields are pruned.
  if (!spec.validation?.openAPIV3Schema) {
    spec.versions.forEach((v, i) => {
      if (v.schema?.openAPIV3Schema) return;
      const p = fldPath.child('versions').index(i).child('schema').child('openAPIV3Schema');
      if (opts.requireOpenAPISchema) errs.push(required(p, ''));
      else if (spec.preserveUnknownFields !== true && v.served) errs.push(required(p, 'because otherwise all fields are pruned'));
    });
  }
  const hasDefaults = specSchemas(spec).some(schemaHasDefaults);
  if (hasDefaults && spec.preserveUnknownFields !== false) {
    errs.push(invalid(fldPath.child('preserveUnknownFields'), true, 'must be false in order to use defaults in the schema'));
  }

  let storageFlagCount = 0;
  const seen = new Set<string>();
  let uniqueNames = true;
  spec.versions.forEach((version, i) => {
    if (version.storage) storageFlagCount++;
    if (seen.has(version.name)) uniqueNames = false;
    else seen.add(version.name);
    const vp = fldPath.child('versions').index(i);
    const e = isDNS1035Label(version.name);
    if (e.length > 0) errs.push(invalid(vp.child('name'), version.name, e.join(',')));
    errs.push(...validateVersion(version, vp, hasStatusEnabled(getSubresourcesForVersion(spec, version.name)), suppressFor(opts, version.name)));
  });
  // The v1 conversion hoists identical per-version fields and clears the copies, so the "mutually
  // exclusive" and "may not all be set to identical values" checks cannot fire on a v1 create.
  if (!uniqueNames) errs.push(invalid(fldPath.child('versions'), spec.versions.map(internalVersionStruct), 'must contain unique version names'));
  if (storageFlagCount !== 1) errs.push(invalid(fldPath.child('versions'), spec.versions.map(internalVersionStruct), 'must have exactly one version marked as storage version'));
  if (spec.version.length !== 0) {
    const e = isDNS1035Label(spec.version);
    if (e.length > 0) errs.push(invalid(fldPath.child('version'), spec.version, e.join(',')));
    if (spec.versions.length >= 1 && spec.versions[0].name !== spec.version) {
      errs.push(invalid(fldPath.child('version'), spec.version, 'must match the first version in spec.versions'));
    }
  }

  const names = fldPath.child('names');
  if (spec.names.plural.length === 0) errs.push(required(names.child('plural'), ''));
  if (spec.names.singular.length === 0) errs.push(required(names.child('singular'), ''));
  if (spec.names.kind.length === 0) errs.push(required(names.child('kind'), ''));
  if (spec.names.listKind.length === 0) errs.push(required(names.child('listKind'), ''));
  errs.push(...validateNames(spec.names, names));

  const anyStatus = hasStatusEnabled(spec.subresources) || spec.versions.some((v) => hasStatusEnabled(v.subresources));
  errs.push(...validateCustomResourceDefinitionValidation(spec.validation, anyStatus, fldPath.child('validation'), suppressFor(opts, spec.version)));
  errs.push(...validateSubresources(spec.subresources, fldPath.child('subresources')));
  spec.additionalPrinterColumns.forEach((c, i) => errs.push(...validateColumn(c, fldPath.child('additionalPrinterColumns').index(i))));

  if (spec.selectableFields.length > 0) {
    if (!spec.validation) errs.push(invalid(fldPath.child('selectableFields'), '', 'may only be set when validations.schema is included'));
    else {
      const schema = spec.validation.openAPIV3Schema;
      const err = schema ? newStructural(schema).error : undefined;
      if (err !== undefined) errs.push(invalid(fldPath.child('schema.openAPIV3Schema'), '', err));
      errs.push(...validateSelectableFields(spec.selectableFields, schema, fldPath.child('selectableFields'), opts.allowTooManySelectableFields.has('')));
    }
  }

  if (spec.conversion && spec.conversion.strategy !== 'None' && spec.preserveUnknownFields === true) {
    errs.push(invalid(fldPath.child('conversion').child('strategy'), spec.conversion.strategy, 'must be None if spec.preserveUnknownFields is true'));
  }
  errs.push(...validateConversion(spec.conversion, fldPath.child('conversion'), opts));
  return errs;
}

function validateEnumStrings(p: FieldPath, value: string, accepted: string[], isRequired: boolean): FieldError[] {
  if (value === '') return isRequired ? [required(p, '')] : [];
  if (accepted.includes(value)) return [];
  return [notSupported(p, value, accepted)];
}

/** validateCustomResourceDefinitionVersion */
function validateVersion(version: CRDVersion, fldPath: FieldPath, statusEnabled: boolean, opts: CRDValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  for (const e of validateDeprecationWarning(version.deprecated, version.deprecationWarning)) {
    errs.push(invalid(fldPath.child('deprecationWarning'), version.deprecationWarning ?? null, e));
  }
  errs.push(...validateCustomResourceDefinitionValidation(version.schema, statusEnabled, fldPath.child('schema'), opts));
  errs.push(...validateSubresources(version.subresources, fldPath.child('subresources')));
  version.additionalPrinterColumns.forEach((c, i) => errs.push(...validateColumn(c, fldPath.child('additionalPrinterColumns').index(i))));
  if (version.selectableFields.length > 0) {
    const schema = version.schema?.openAPIV3Schema;
    if (!schema) {
      errs.push(invalid(fldPath.child('selectableFields'), '', 'may only be set when `version.schema.openAPIV3Schema` is not included'));
    } else {
      const err = newStructural(schema).error;
      if (err !== undefined) errs.push(invalid(fldPath.child('schema.openAPIV3Schema'), '', err));
      errs.push(...validateSelectableFields(version.selectableFields, schema, fldPath.child('selectableFields'), opts.allowTooManySelectableFields.has(version.name)));
    }
  }
  return errs;
}

// Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** validateDeprecationWarning */
export function validateDeprecationWarning(deprecated: boolean, warning: string | undefined): string[] {
  if (!deprecated && warning !== undefined) return ['can only be set for deprecated versions'];
  if (warning === undefined) return [];
  // Go's JSON decoder turns lone surrogates into U+FFFD, which is printable.
  warning = warning.replace(/\p{Cs}/gu, '\uFFFD');
  const errs: string[] = [];
  const bytes = Buffer.byteLength(warning, 'utf8');
  if (bytes > 256) errs.push('must be <= 256 characters long');
  if (bytes === 0) errs.push('must not be an empty string');
  let index = 0;
  for (const r of warning) {
    if (!printable.test(r)) {
      errs.push(`must only contain printable UTF-8 characters; non-printable character found at index ${index}`);
      break;
    }
    index += Buffer.byteLength(r, 'utf8');
  }
  return errs;
}

/** ValidateCustomResourceDefinitionNames */
export function validateNames(names: CRDNames, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const label = (v: string) => isDNS1035Label(v);
  if (names.plural.length > 0 && label(names.plural).length > 0) errs.push(invalid(fldPath.child('plural'), names.plural, label(names.plural).join(',')));
  if (names.singular.length > 0 && label(names.singular).length > 0) errs.push(invalid(fldPath.child('singular'), names.singular, label(names.singular).join(',')));
  const mixed = 'may have mixed case, but should otherwise match: ';
  if (names.kind.length > 0 && label(names.kind.toLowerCase()).length > 0) {
    errs.push(invalid(fldPath.child('kind'), names.kind, mixed + label(names.kind.toLowerCase()).join(',')));
  }
  if (names.listKind.length > 0 && label(names.listKind.toLowerCase()).length > 0) {
    errs.push(invalid(fldPath.child('listKind'), names.listKind, mixed + label(names.listKind.toLowerCase()).join(',')));
  }
  names.shortNames.forEach((s, i) => {
    const e = label(s);
    if (e.length > 0) errs.push(invalid(fldPath.child('shortNames').index(i), s, e.join(',')));
  });
  if (names.kind.length > 0 && names.kind === names.listKind) errs.push(invalid(fldPath.child('listKind'), names.listKind, 'kind and listKind may not be the same'));
  names.categories.forEach((c, i) => {
    const e = label(c);
    if (e.length > 0) errs.push(invalid(fldPath.child('categories').index(i), c, e.join(',')));
  });
  return errs;
}

/** ValidateCustomResourceColumnDefinition */
export function validateColumn(col: ColumnDefinition, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (col.name.length === 0) errs.push(required(fldPath.child('name'), ''));
  const types = `must be one of ${PRINTER_COLUMN_DATATYPES.join(',')}`;
  if (col.type.length === 0) errs.push(required(fldPath.child('type'), types));
  else if (!PRINTER_COLUMN_DATATYPES.includes(col.type)) errs.push(invalid(fldPath.child('type'), col.type, types));
  if (col.format.length > 0 && !COLUMN_FORMATS.includes(col.format)) {
    errs.push(invalid(fldPath.child('format'), col.format, `must be one of ${COLUMN_FORMATS.join(',')}`));
  }
  if (col.JSONPath.length === 0) errs.push(required(fldPath.child('JSONPath'), ''));
  else errs.push(...validateSimpleJSONPath(col.JSONPath, fldPath.child('JSONPath')));
  return errs;
}

function validateSimpleJSONPath(s: string, fldPath: FieldPath): FieldError[] {
  if (s.length === 0) return [invalid(fldPath, s, 'must not be empty')];
  if (s[0] !== '.') return [invalid(fldPath, s, 'must be a simple json path starting with .')];
  return [];
}

/** ValidateCustomResourceDefinitionSubresources */
export function validateSubresources(sub: Subresources | undefined, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const scale = sub?.scale;
  if (!scale) return errs;
  const spec = fldPath.child('scale.specReplicasPath');
  if (scale.specReplicasPath.length === 0) errs.push(required(spec, ''));
  else {
    const e = validateSimpleJSONPath(scale.specReplicasPath, spec);
    if (e.length > 0) errs.push(...e);
    else if (!scale.specReplicasPath.startsWith('.spec.')) errs.push(invalid(spec, scale.specReplicasPath, 'should be a json path under .spec'));
  }
  const status = fldPath.child('scale.statusReplicasPath');
  if (scale.statusReplicasPath.length === 0) errs.push(required(status, ''));
  else {
    const e = validateSimpleJSONPath(scale.statusReplicasPath, status);
    if (e.length > 0) errs.push(...e);
    else if (!scale.statusReplicasPath.startsWith('.status.')) errs.push(invalid(status, scale.statusReplicasPath, 'should be a json path under .status'));
  }
  const ls = scale.labelSelectorPath;
  if (ls !== undefined && ls.length > 0) {
    const lp = fldPath.child('scale.labelSelectorPath');
    const e = validateSimpleJSONPath(ls, lp);
    if (e.length > 0) errs.push(...e);
    else if (!ls.startsWith('.spec.') && !ls.startsWith('.status.')) errs.push(invalid(lp, ls, 'should be a json path under either .spec or .status'));
  }
  return errs;
}

/** ValidateCustomResourceSelectableFields; allowTooMany: an update that leaves too many unchanged. */
export function validateSelectableFields(fields: SelectableField[], schema: JSONSchemaProps | undefined, fldPath: FieldPath, allowTooMany = false): FieldError[] {
  const errs: FieldError[] = [];
  const unique = new Set<string>();
  fields.forEach((f, i) => {
    const jp = fldPath.index(i).child('jsonPath');
    if (f.jsonPath.length === 0) {
      errs.push(required(jp, ''));
      return;
    }
    const r = validFieldPath(f.jsonPath, schema, false);
    if (r.error !== undefined) {
      errs.push(invalid(jp, f.jsonPath, `is an invalid path: ${r.error}`));
      return;
    }
    const segs = r.path?.segments() ?? [];
    const root = segs[0];
    if (root && root.kind === 'field' && root.name === 'metadata') errs.push(invalid(jp, f.jsonPath, 'must not point to fields in metadata'));
    const t = r.schema && typeof r.schema.type === 'string' ? r.schema.type : '';
    if (!['string', 'boolean', 'integer'].includes(t)) {
      errs.push(invalid(jp, f.jsonPath, 'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.'));
    }
    const key = r.path?.toString() ?? '';
    if (unique.has(key)) errs.push(duplicate(jp, f.jsonPath));
    else unique.add(key);
  });
  if (unique.size > MAX_SELECTABLE_FIELDS && !allowTooMany) errs.push(tooMany(fldPath, unique.size, MAX_SELECTABLE_FIELDS));
  return errs;
}

/** validateCustomResourceConversion */
function validateConversion(conversion: CustomResourceConversion | undefined, fldPath: FieldPath, opts: CRDValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  if (!conversion) return errs;
  errs.push(...validateEnumStrings(fldPath.child('strategy'), conversion.strategy, ['None', 'Webhook'], true));
  if (conversion.strategy === 'Webhook') {
    const cc = conversion.webhookClientConfig;
    const ccPath = fldPath.child('webhookClientConfig');
    if (!cc) errs.push(required(ccPath, 'required when strategy is set to Webhook'));
    else if ((cc.url === undefined) === (cc.service === undefined)) errs.push(required(ccPath, 'exactly one of url or service is required'));
    else if (cc.url !== undefined) errs.push(...validateWebhookURL(ccPath.child('url'), cc.url, true));
    // validation.go passes (Name, Namespace) to ValidateWebhookService(path, namespace, name, ...): a missing name
    // is reported as service.namespace Required and vice versa. The API server does so, so we do too.
    else if (cc.service) errs.push(...validateWebhookService(ccPath.child('service'), cc.service.name, cc.service.namespace, cc.service.path, cc.service.port));
    // caBundle is not checked on create (allowInvalidCABundle: the CRD is not established yet).
    errs.push(...validateConversionReviewVersions(conversion.conversionReviewVersions, fldPath.child('conversionReviewVersions'), opts.requireRecognizedConversionReviewVersion));
  } else {
    if (conversion.webhookClientConfig) errs.push(forbidden(fldPath.child('webhookClientConfig'), 'should not be set when strategy is not set to Webhook'));
    if (conversion.conversionReviewVersions.length > 0) {
      errs.push(forbidden(fldPath.child('conversionReviewVersions'), 'should not be set when strategy is not set to Webhook'));
    }
  }
  return errs;
}

const ACCEPTED_REVIEW_VERSIONS = ['v1', 'v1beta1'];

/** validateConversionReviewVersions */
function validateConversionReviewVersions(versions: string[], fldPath: FieldPath, requireRecognizedVersion: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (versions.length < 1) return [required(fldPath, '')];
  const seen = new Set<string>();
  let hasAccepted = false;
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(invalid(fldPath.index(i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const e of isDNS1035Label(v)) errs.push(invalid(fldPath.index(i), v, e));
    if (ACCEPTED_REVIEW_VERSIONS.includes(v)) hasAccepted = true;
  });
  if (requireRecognizedVersion && !hasAccepted) errs.push(invalid(fldPath, versions, `must include at least one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`));
  return errs;
}

/** ValidateCustomResourceDefinitionStoredVersions */
export function validateStoredVersions(stored: string[], versions: CRDVersion[], fldPath: FieldPath): FieldError[] {
  if (stored.length === 0) return [invalid(fldPath, stored, 'must have at least one stored version')];
  const errs: FieldError[] = [];
  const remaining = new Map<string, number>();
  stored.forEach((v, i) => remaining.set(v, i));
  for (const v of versions) {
    const ok = remaining.has(v.name);
    if (v.storage && !ok) errs.push(invalid(fldPath, stored, 'must have the storage version ' + v.name));
    if (ok) remaining.delete(v.name);
  }
  for (const [v, i] of remaining) {
    errs.push(
      invalid(
        fldPath.index(i),
        v,
        `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`,
      ),
    );
  }
  return errs;
}

/** apihelpers.IsProtectedCommunityGroup */
export function isProtectedCommunityGroup(group: string): boolean {
  return group === 'k8s.io' || group.endsWith('.k8s.io') || group === 'kubernetes.io' || group.endsWith('.kubernetes.io');
}

/** apihelpers.GetAPIApprovalState, without the reason. */
function apiApprovalState(annotations: Record<string, string>): 'missing' | 'bypassed' | 'approved' | 'invalid' {
  const annotation = annotations[API_APPROVAL_ANNOTATION] ?? '';
  if (annotation.length === 0) return 'missing';
  if (annotation.startsWith('unapproved')) return 'bypassed';
  const u = goURLParseRequestURI(annotation);
  return u.url && u.url.host.length > 0 && u.url.scheme.length > 0 ? 'approved' : 'invalid';
}

/** validateAPIApproval: on an update an unchanged approval state is never an error. */
function validateAPIApproval(crd: CustomResourceDefinition, old?: CustomResourceDefinition): FieldError[] {
  if (!isProtectedCommunityGroup(crd.spec.group)) return [];
  if (old && apiApprovalState(old.metadata.annotations) === apiApprovalState(crd.metadata.annotations)) return [];
  const p = FieldPath.root('metadata', 'annotations').key(API_APPROVAL_ANNOTATION);
  const annotation = crd.metadata.annotations[API_APPROVAL_ANNOTATION] ?? '';
  if (annotation.length === 0) {
    return [required(p, `protected groups must have approval annotation "${API_APPROVAL_ANNOTATION}", see https://github.com/kubernetes/enhancements/pull/1111`)];
  }
  if (annotation.startsWith('unapproved')) return [];
  const u = goURLParseRequestURI(annotation);
  if (u.url && u.url.host.length > 0 && u.url.scheme.length > 0) return [];
  return [
    invalid(
      p,
      annotation,
      `protected groups must have approval annotation "${API_APPROVAL_ANNOTATION}" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`,
    ),
  ];
}

const createOptionsByTarget = new Map<string, CRDValidationOptions>();

/** CREATE_OPTIONS for a target version: one object per target (memoized walks key on its identity). */
function createOptions(target: KubernetesTarget): CRDValidationOptions {
  if (target.kubernetesMinor === undefined && target.compatibilityMinor === undefined) return CREATE_OPTIONS;
  const key = `${target.kubernetesMinor ?? ''}/${target.compatibilityMinor ?? ''}`;
  let o = createOptionsByTarget.get(key);
  if (!o) createOptionsByTarget.set(key, (o = Object.freeze({ ...CREATE_OPTIONS, kubernetesMinor: target.kubernetesMinor, compatibilityMinor: target.compatibilityMinor })));
  return o;
}
