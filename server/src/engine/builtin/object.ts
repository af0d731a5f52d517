/**
 * The API server's create path for a built-in object, offline: decoding (strict: unknown fields are
 * reported, as `kubectl apply` asks with fieldValidation=Strict; ObjectMeta decoded as for every object),
 * the status a create ignores, then the checks of the OpenAPI schema of its kind at the target Kubernetes
 * version through the engine's custom resource steps (kube-openapi value validation: types, enums,
 * formats, required; list types; CEL rules where the schema has them), then the API server's handwritten
 * validation of the kind (./validation). The same result shape as a custom resource's
 * (customresource/strategy.ts), so the service reports both alike.
 */
import { internalError, invalid, FieldPath, type FieldError } from '../field';
import { pruneUnknownFields } from '../pruning/algorithm';
import { coerceObjectMeta } from '../pruning/objectmeta';
import type { JSONSchemaProps } from '../schema/types';
import { deepCopyJSON, isJSONObject, withoutNullFields } from '../json/values';
import { validateOpenAPI } from '../validation/validation';
import { validateSchemaRules } from '../customresource/value';
import { partialObjectSchema, withoutPatchDirectives } from '../customresource/partial';
import type { CustomResourceResult } from '../customresource/strategy';
import type { KubernetesTarget } from '../version';
import { deprecationWarning } from './schemas';
import { handwrittenErrors, hasHandwrittenChecks } from './validation';
import { validateBuiltinObjectMeta } from './validation/objectmeta';

export interface BuiltinObjectOptions extends KubernetesTarget {
  /** The object's apiVersion (`apps/v1`) and kind, which name `schema`. */
  apiVersion: string;
  kind: string;
  /**
   * A kustomize patch or an object a template fills in: only what the missing parts cannot change
   * (customresource/partial.ts); strategic merge patch directives are ignored.
   */
  partial?: boolean;
  /**
   * A resource kustomize builds: its transformers and patches may supply what is missing (commonLabels
   * adds the selector), so nothing is reported as missing (Required).
   */
  kustomized?: boolean;
  /** The kind is namespaced (its metadata.namespace is required, defaulted to the request's). */
  namespaced?: boolean;
}

/**
 * Checks a built-in object against the schema of its kind. Never throws; the input is not changed.
 * `errors` are what the API server refuses, `pruned` the unknown fields strict decoding refuses,
 * `warnings` the deprecation warning of a pre-release version.
 */
export function validateBuiltinObject(schema: JSONSchemaProps, obj: unknown, opts: BuiltinObjectOptions): CustomResourceResult {
  const res: CustomResourceResult = { object: obj, pruned: [], defaulted: [], errors: [], warnings: [] };
  try {
    run(schema, obj, opts, res);
  } catch (e) {
    res.errors.push(internalError(null, e instanceof Error ? e.message : String(e)));
  }
  return res;
}

function run(fullSchema: JSONSchemaProps, obj: unknown, opts: BuiltinObjectOptions, res: CustomResourceResult): void {
  if (!isJSONObject(obj)) {
    res.errors.push(invalid(null, typeof obj === 'string' ? obj : '', `the ${opts.kind} is not an object`));
    return;
  }
  if (opts.partial) {
    if (obj.$patch === 'delete') return;
    obj = withoutPatchDirectives(obj);
    if (!isJSONObject(obj)) return;
  }
  const warning = opts.kubernetesMinor === undefined ? undefined : deprecationWarning(opts.apiVersion, opts.kind, opts.kubernetesMinor);
  if (warning) res.warnings.push({ ...invalid(FieldPath.root('apiVersion'), opts.apiVersion, warning), severity: 'warning', params: { origin: 'deprecatedVersion', reason: warning } });
  const schema = opts.partial ? partialObjectSchema(fullSchema) : fullSchema;

  // Decoding into the Go type: a field the type does not have is what strict field validation refuses
  // (reported as pruned, as for custom resources); ObjectMeta decodes as for every object. Go's defaulting
  // is not applied: the schema's `required` stands for the handwritten "Required value" checks, which run
  // on what was sent.
  // Null fields are dropped as pruning copies the object (one walk, not two).
  // The checks below change nothing but the root (status, metadata): pruning shares what it keeps.
  const p = pruneUnknownFields(obj, schema, { isResourceRoot: true, dropNulls: true, share: true });
  const work = (p.tooDeep ? deepCopyJSON(withoutNullFields(obj)) : p.object === obj ? { ...obj } : p.object) as Record<string, unknown>;
  res.pruned.push(...p.pruned);
  // Built-in schemas have no embedded resources: only the root's metadata is ObjectMeta's to coerce (not
  // the whole object copied again).
  const head: Record<string, unknown> = {};
  for (const k of HEAD_FIELDS) if (Object.hasOwn(work, k)) head[k] = work[k];
  const c = coerceObjectMeta(head, NO_SCHEMA, { isResourceRoot: true, share: true });
  if (c.error) {
    res.errors.push(c.error);
    return;
  }
  const coerced = c.object as Record<string, unknown>;
  if (Object.hasOwn(coerced, 'metadata')) work.metadata = coerced.metadata;
  res.pruned.push(...c.pruned);
  // PrepareForCreate of every kind with a status: a create does not set it.
  if ('status' in work && isJSONObject(schema.properties?.status)) {
    res.statusDropped = true;
    delete work.status;
  }
  res.object = work;

  const errs: FieldError[] = [];
  const root = rootSchema(schema);
  errs.push(...validateOpenAPI(work, root));
  validateSchemaRules(errs, work, root, { isResourceRoot: true, kubernetesMinor: opts.kubernetesMinor, partial: opts.partial });
  if (!opts.partial) {
    // A kind without handwritten checks ported still has ObjectMeta's (name or generateName, labels,
    // annotations); its name rule is not known here: not checked.
    if (hasHandwrittenChecks(opts.apiVersion, opts.kind)) errs.push(...handwrittenErrors(opts.apiVersion, opts.kind, work, opts.kubernetesMinor));
    else errs.push(...validateBuiltinObjectMeta(work, opts.namespaced ?? true, () => []));
  }
  // Most objects have no errors: nothing to filter.
  if (errs.length === 0) return;
  const selectorByKustomize = opts.kustomized && !(isJSONObject(work.spec) && work.spec.selector !== undefined);
  res.errors.push(...dedupErrors(errs.filter((e) => !((opts.partial || opts.kustomized) && e.type === 'FieldValueRequired') && !emptyEnumValue(e) && !(selectorByKustomize && selectorError(e)))));
}

/** The root fields ObjectMeta coercion reads. */
const HEAD_FIELDS = ['apiVersion', 'kind', 'metadata'];

/**
 * An error on a controller's selector or on its match with the template's labels: kustomize's
 * commonLabels (and `labels` with includeSelectors) write the selector a resource leaves out, with the
 * same labels as the template's.
 */
function selectorError(e: FieldError): boolean {
  return e.field.startsWith('spec.selector') || e.field === 'spec.template.metadata.labels';
}

/**
 * An enum field sent empty: Go's defaulting fills most before validation (`protocol: ""` is TCP), and the
 * handwritten checks take "" as unset for the rest (a Toleration's effect): the API server accepts it.
 */
function emptyEnumValue(e: FieldError): boolean {
  return e.type === 'FieldValueNotSupported' && e.badValue === '';
}

/** The schema ObjectMeta coercion runs under: one object, so that its structural form is converted once. */
const NO_SCHEMA: JSONSchemaProps = {};

const roots = new WeakMap<JSONSchemaProps, JSONSchemaProps>();

/**
 * The schema the value checks run on: the root's metadata is ObjectMeta's own decoding and checks (the
 * handwritten ones), not the schema's. One per schema object, so that its compiled validators are reused.
 */
function rootSchema(schema: JSONSchemaProps): JSONSchemaProps {
  let root = roots.get(schema);
  if (!root) {
    root = { ...schema, properties: { ...schema.properties, metadata: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } };
    roots.set(schema, root);
  }
  return root;
}

/** The schema's checks and the handwritten ones may say the same (a required name): once. */
function dedupErrors(errs: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errs.filter((e) => {
    const key = `${e.type}\u0000${e.field}\u0000${e.detail}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
