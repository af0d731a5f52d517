/**
 * The API server's create (and update) path for one custom resource (apiextensions-apiserver
 * customresource_handler.go serving info, the CR codec's coercion, and pkg/registry/customresource
 * strategy.go / validator.go), on plain JSON values.
 */
import type { KubernetesTarget } from '../version';
import { internalError, invalid, FieldPath, type FieldError } from '../field';
import type { PrunedField } from '../pruning/algorithm';
import { pruneUnknownFields } from '../pruning/algorithm';
import { coerceObjectMeta } from '../pruning/objectmeta';
import type { DefaultedField } from '../defaulting/algorithm';
import { defaultCustomResource } from '../defaulting/algorithm';
import type { JSONSchemaProps } from '../schema/types';
import { deepCopyJSON, isJSONObject } from '../json/values';
import { validateOpenAPI } from '../validation/validation';
import { CEL_SKIPPED_MESSAGE, validateSchemaRules } from './value';
import { parseGroupVersion } from '../objectmeta/names';
import { finalizerWarnings, validateRootObjectMeta, validateRootObjectMetaUpdate, validateScale, validateTypeMeta, type ScaleSubresource } from './validator';
import { compareKubeAwareVersionStrings } from '../crd/versions';
import { partialObjectSchema, withoutPatchDirectives } from './partial';
import { dedupOwnerReferences } from './handlers';

export interface CustomResourceOptions extends KubernetesTarget {
  /** The CRD version to use; by default the one named by the object's apiVersion. */
  version?: string;
  /** Present for an update. */
  oldObject?: unknown;
  /**
   * The object is partial (a kustomize patch, an object a template fills in): only the checks whose
   * answer cannot change when the rest is added (partial.ts). Strategic merge patch directives are ignored.
   */
  partial?: boolean;
}

export interface CustomResourceResult {
  /** The object the API server would store (status dropped, pruned, defaulted). */
  object: unknown;
  pruned: PrunedField[];
  defaulted: DefaultedField[];
  /** Errors the API server would return. */
  errors: FieldError[];
  /** Warnings it would send (deprecated version, ...). */
  warnings: FieldError[];
  /** The request's status (as decoded: pruned, defaulted) was dropped: the status subresource owns it. */
  statusDropped?: boolean;
}

export { CEL_SKIPPED_MESSAGE };

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** The default deprecation warning of customresource_handler.go. */
export function defaultDeprecationWarning(deprecatedVersion: string, spec: Record<string, unknown>): string {
  const group = str(spec.group);
  const kind = isJSONObject(spec.names) ? str(spec.names.kind) : '';
  let msg = `${group}/${deprecatedVersion} ${kind} is deprecated`;
  const versions = Array.isArray(spec.versions) ? spec.versions.filter(isJSONObject) : [];
  const newer = versions
    .filter((v) => v.served === true && v.deprecated !== true && compareKubeAwareVersionStrings(deprecatedVersion, str(v.name)) < 0)
    .map((v) => str(v.name))
    .sort((a, b) => compareKubeAwareVersionStrings(b, a));
  if (newer.length > 0) msg += `; use ${group}/${newer[0]} ${kind}`;
  return msg;
}

/** GetSchemaForVersion: the version's schema, or the v1beta1 top-level `validation`. */
function schemaForVersion(spec: Record<string, unknown>, version: Record<string, unknown>): JSONSchemaProps | undefined {
  const top = isJSONObject(spec.validation) ? spec.validation.openAPIV3Schema : undefined;
  if (isJSONObject(top)) return top as JSONSchemaProps;
  const v = isJSONObject(version.schema) ? version.schema.openAPIV3Schema : undefined;
  return isJSONObject(v) ? (v as JSONSchemaProps) : undefined;
}

function subresourcesForVersion(spec: Record<string, unknown>, version: Record<string, unknown>): Record<string, unknown> | undefined {
  if (isJSONObject(spec.subresources)) return spec.subresources;
  return isJSONObject(version.subresources) ? version.subresources : undefined;
}

/**
 * The API server's create (or update, with oldObject) path for a custom resource against its CRD:
 * pick the version, drop status when the status subresource is on, prune, default, validate, then CEL.
 * Never throws: malformed input is reported as an error. Neither `obj` nor `opts.oldObject` is changed:
 * the decoding works on copies (callers pass cached parses as they are).
 */
export function validateCustomResource(crd: unknown, obj: unknown, opts: CustomResourceOptions = {}): CustomResourceResult {
  const res: CustomResourceResult = { object: obj, pruned: [], defaulted: [], errors: [], warnings: [] };
  try {
    run(crd, obj, opts, res);
  } catch (e) {
    res.errors.push(internalError(null, e instanceof Error ? e.message : String(e)));
  }
  return res;
}

interface Decoded {
  object: Record<string, unknown>;
  pruned: PrunedField[];
  defaulted: DefaultedField[];
  error?: FieldError;
}

/** The CR codec's decoding (unstructuredSchemaCoercer + defaulting): prune, drop non-nullable nulls, default, coerce ObjectMeta. */
function decodeCustomResource(obj: unknown, schema: JSONSchemaProps | undefined, prune: boolean): Decoded {
  const out: Decoded = { object: obj as Record<string, unknown>, pruned: [], defaulted: [] };
  if (schema && prune) {
    const p = pruneUnknownFields(obj, schema, { isResourceRoot: true });
    out.object = p.object as Record<string, unknown>;
    out.pruned.push(...p.pruned);
  }
  // Pruning builds new objects and arrays (sharing only scalars); defaulting and coercion below change
  // what they are given, so the object is copied where pruning did not copy it.
  if (out.object === obj) out.object = deepCopyJSON(obj) as Record<string, unknown>;
  if (schema) {
    const d = defaultCustomResource(out.object, schema, { isResourceRoot: true });
    out.object = d.object as Record<string, unknown>;
    out.defaulted.push(...d.defaulted);
  }
  const c = coerceObjectMeta(out.object, schema ?? {}, { isResourceRoot: true });
  if (c.error) return { ...out, error: c.error };
  out.object = c.object as Record<string, unknown>;
  out.pruned.push(...c.pruned);
  return out;
}

function run(crd: unknown, obj: unknown, opts: CustomResourceOptions, res: CustomResourceResult): void {
  if (!isJSONObject(crd)) {
    res.errors.push(invalid(null, '', 'the CustomResourceDefinition is not an object'));
    return;
  }
  const spec = isJSONObject(crd.spec) ? crd.spec : {};
  const crdName = isJSONObject(crd.metadata) ? str(crd.metadata.name) : '';
  const group = str(spec.group);
  const kind = isJSONObject(spec.names) ? str(spec.names.kind) : '';
  if (!isJSONObject(obj)) {
    // The body does not decode into an object: the request fails before any field is looked at.
    res.errors.push(invalid(null, typeof obj === 'string' ? obj : '', 'the custom resource is not an object'));
    return;
  }
  if (opts.partial) {
    // `$patch: delete` removes the object: nothing of it is stored.
    if (obj.$patch === 'delete') return;
    obj = withoutPatchDirectives(obj);
    if (!isJSONObject(obj)) return;
  }
  const apiVersion = str(obj.apiVersion);
  const versionName = opts.version ?? parseGroupVersion(apiVersion).version;
  let versions = Array.isArray(spec.versions) ? spec.versions.filter(isJSONObject) : [];
  // apiextensions.k8s.io/v1beta1: a single `version` stands for one served, stored version.
  if (versions.length === 0 && typeof spec.version === 'string') versions = [{ name: spec.version, served: true, storage: true }];
  const version = versions.find((v) => v.name === versionName);
  const apiVersionPath = FieldPath.root('apiVersion');
  if (!version) {
    const known = versions.map((v) => str(v.name)).filter((n) => n !== '');
    res.errors.push(invalid(apiVersionPath, apiVersion, `version "${versionName}" is not defined in CustomResourceDefinition ${crdName || `${kind}.${group}`}${known.length ? ` (versions: ${known.join(', ')})` : ''}`));
    return;
  }
  if (version.served !== true) {
    res.errors.push(invalid(apiVersionPath, apiVersion, `version "${versionName}" of CustomResourceDefinition ${crdName || `${kind}.${group}`} is not served`));
    return;
  }
  if (version.deprecated === true) {
    const text = typeof version.deprecationWarning === 'string' ? version.deprecationWarning : defaultDeprecationWarning(versionName, spec);
    res.warnings.push({ ...invalid(apiVersionPath, apiVersion, text), severity: 'warning', params: { origin: 'deprecatedVersion', reason: text } });
  }

  const fullSchema = schemaForVersion(spec, version);
  const schema = fullSchema && opts.partial ? partialObjectSchema(fullSchema) : fullSchema;
  const subresources = subresourcesForVersion(spec, version);
  const statusEnabled = isJSONObject(subresources?.status);
  const scale = isJSONObject(subresources?.scale) ? (subresources!.scale as ScaleSubresource) : undefined;
  const namespaceScoped = spec.scope !== 'Cluster';
  const isUpdate = opts.oldObject !== undefined;

  // Decoding: the CR codec prunes, removes non-nullable nulls, applies defaults and coerces ObjectMeta.
  const decoded = decodeCustomResource(obj, schema, spec.preserveUnknownFields !== true);
  if (decoded.error) {
    res.errors.push(decoded.error);
    return;
  }
  const work = decoded.object;
  // The handler drops exact duplicate owner references (with a warning) before the strategy runs.
  const dedup = dedupOwnerReferences(work);
  if (dedup) res.warnings.push(dedup);
  res.pruned.push(...decoded.pruned);
  res.defaulted.push(...decoded.defaulted);

  // The stored object went through the same codec when it was read from etcd: ratcheting compares
  // against the pruned, defaulted old object (unchanged defaulted or pruned values are let through).
  let old: Record<string, unknown> | undefined;
  if (isUpdate && isJSONObject(opts.oldObject)) {
    const o = decodeCustomResource(opts.oldObject, schema, spec.preserveUnknownFields !== true);
    old = o.error ? opts.oldObject : o.object;
    // It was written through the same handler, so it holds no duplicate owner references.
    if (!o.error) dedupOwnerReferences(old);
  }

  // PrepareForCreate / PrepareForUpdate: status belongs to the /status subresource.
  if (statusEnabled) {
    if (old && 'status' in old) work.status = deepCopyJSON(old.status);
    else {
      if ('status' in work) res.statusDropped = true;
      delete work.status;
    }
  }
  res.object = work;

  const errs: FieldError[] = [];
  const typeMetaErrs = validateTypeMeta(work, { group, version: versionName, kind });
  if (typeMetaErrs.length > 0) errs.push(...typeMetaErrs);
  else {
    if (!old) errs.push(...validateRootObjectMeta(work, namespaceScoped));
    else errs.push(...validateRootObjectMetaUpdate(work, old, namespaceScoped));
    if (schema) errs.push(...validateOpenAPI(work, schema, old));
    errs.push(...validateScale(work, scale));
  }
  if (schema) validateSchemaRules(errs, work, schema, { isResourceRoot: true, oldObject: old, kubernetesMinor: opts.kubernetesMinor, partial: opts.partial });
  res.errors.push(...(opts.partial ? errs.filter((e) => e.type !== 'FieldValueRequired') : errs));
  res.warnings.push(...finalizerWarnings(work, old));
}
