/**
 * apiextensions-apiserver pkg/registry/customresource/validator.go: TypeMeta, root ObjectMeta and
 * scale-subresource checks of a custom resource.
 */
import { invalid, FieldPath, type FieldError, type PathSegment } from '../field';
import { asInt64, formatGoValue, goKind, goTypeName } from '../json/go';
import { decodeObjectMeta, validateObjectMeta, validateUpdatedObjectMeta } from '../objectmeta/objectmeta';
import { isQualifiedName, nameIsDNSSubdomain } from '../objectmeta/names';
import { isJSONObject } from '../json/values';

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** ValidateTypeMeta: kind and apiVersion must be the CRD's ("must be <Kind>", "must be <group>/<version>"). */
export function validateTypeMeta(obj: Record<string, unknown>, gvk: GroupVersionKind): FieldError[] {
  const errs: FieldError[] = [];
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  if (kind !== gvk.kind) errs.push(invalid(FieldPath.root('kind'), kind, `must be ${gvk.kind}`));
  const want = `${gvk.group}/${gvk.version}`;
  if (apiVersion !== want) errs.push(invalid(FieldPath.root('apiVersion'), apiVersion, `must be ${want}`));
  return errs;
}

/**
 * ValidateObjectMeta at the resource root (create): name as a DNS subdomain (a generateName stands in
 * for the name the server would generate), namespace, labels, annotations, owner references, finalizers.
 */
export function validateRootObjectMeta(obj: Record<string, unknown>, namespaceScoped: boolean): FieldError[] {
  const d = decodeObjectMeta(obj.metadata);
  if (d.error !== undefined) return [invalid(FieldPath.root('metadata'), obj.metadata, d.error)];
  const meta = { ...d.meta! };
  // BeforeCreate: a generated name, the request's namespace (kubectl's "default"), none when cluster-scoped.
  if ((typeof meta.name !== 'string' || meta.name === '') && typeof meta.generateName === 'string' && meta.generateName !== '') {
    meta.name = meta.generateName.slice(0, 58) + 'abcde';
  }
  if (namespaceScoped && (typeof meta.namespace !== 'string' || meta.namespace === '')) meta.namespace = 'default';
  if (!namespaceScoped) delete meta.namespace;
  return validateObjectMeta(meta, namespaceScoped, nameIsDNSSubdomain, FieldPath.root('metadata'));
}

/** The ObjectMeta checks of a custom resource update (objectmeta validateUpdatedObjectMeta at the root). */
export function validateRootObjectMetaUpdate(obj: Record<string, unknown>, old: Record<string, unknown>, namespaceScoped: boolean): FieldError[] {
  return validateUpdatedObjectMeta(obj.metadata, old.metadata, namespaceScoped, FieldPath.root('metadata'));
}

export interface ScaleSubresource {
  specReplicasPath?: string;
  statusReplicasPath?: string;
  labelSelectorPath?: string;
}

const jsonPath = (fields: string[]) => fields.map((f) => '.' + f).join('');

/** unstructured.NestedFieldNoCopy: the value, whether found, or Go's accessor error. */
function nested(obj: Record<string, unknown>, path: string): { found: boolean; value?: unknown; error?: string } {
  const fields = path.replace(/^\./, '').split('.');
  let cur: unknown = obj;
  for (let i = 0; i < fields.length; i++) {
    if (cur === null || cur === undefined) return { found: false };
    if (!isJSONObject(cur)) {
      return { found: false, error: `${jsonPath(fields.slice(0, i + 1))} accessor error: ${formatGoValue(cur)} is of the type ${goTypeName(cur)}, expected map[string]interface{}` };
    }
    if (!Object.hasOwn(cur, fields[i])) return { found: false };
    cur = cur[fields[i]];
  }
  return { found: true, value: cur };
}

/**
 * Go prints a scale path as written (`.spec.replicas`, one field name); the error's segments are the
 * fields it leads to, for the range in the file.
 */
function atScalePath(e: FieldError, path: string): FieldError {
  e.segments = path
    .replace(/^\./, '')
    .split('.')
    .map((name): PathSegment => ({ kind: 'field', name }));
  return e;
}

function replicasErrors(obj: Record<string, unknown>, path: string): FieldError[] {
  const r = nested(obj, path);
  const p = FieldPath.root(path);
  if (r.error) return [atScalePath(invalid(p, 0, r.error), path)];
  if (!r.found) return [];
  if (goKind(r.value) !== 'int') {
    const fields = path.replace(/^\./, '').split('.');
    return [atScalePath(invalid(p, 0, `${jsonPath(fields)} accessor error: ${formatGoValue(r.value)} is of the type ${goTypeName(r.value)}, expected int64`), path)];
  }
  const n = asInt64(r.value);
  if (n < 0n) return [atScalePath(invalid(p, n, 'should be a non-negative integer'), path)];
  if (n > 2147483647n) return [atScalePath(invalid(p, n, 'should be less than or equal to 2147483647'), path)];
  return [];
}

/** ValidateScaleSpec and ValidateScaleStatus. */
export function validateScale(obj: Record<string, unknown>, scale: ScaleSubresource | undefined): FieldError[] {
  if (!scale) return [];
  const errs: FieldError[] = [];
  if (scale.specReplicasPath) errs.push(...replicasErrors(obj, scale.specReplicasPath));
  if (scale.statusReplicasPath) errs.push(...replicasErrors(obj, scale.statusReplicasPath));
  if (scale.labelSelectorPath) {
    const r = nested(obj, scale.labelSelectorPath);
    const fields = scale.labelSelectorPath.replace(/^\./, '').split('.');
    if (r.error) errs.push(atScalePath(invalid(FieldPath.root(scale.labelSelectorPath), '', r.error), scale.labelSelectorPath));
    else if (r.found && typeof r.value !== 'string') {
      errs.push(
        atScalePath(invalid(FieldPath.root(scale.labelSelectorPath), '', `${jsonPath(fields)} accessor error: ${formatGoValue(r.value)} is of the type ${goTypeName(r.value)}, expected string`), scale.labelSelectorPath),
      );
    }
  }
  return errs;
}

const STANDARD_FINALIZERS = new Set(['orphan', 'foregroundDeletion', 'kubernetes']);

/**
 * WarningsOnCreate / WarningsOnUpdate: finalizers added by this request that are not qualified names,
 * or not domain-qualified (validateKubeFinalizerName). Go sends `metadata.finalizers: "<f>": <message>`.
 */
export function finalizerWarnings(obj: Record<string, unknown>, old: Record<string, unknown> | undefined): FieldError[] {
  const list = (o: Record<string, unknown> | undefined): string[] => {
    const m = o && isJSONObject(o.metadata) ? o.metadata : undefined;
    return m && Array.isArray(m.finalizers) ? m.finalizers.filter((f): f is string => typeof f === 'string') : [];
  };
  const before = new Set(list(old));
  const added = [...new Set(list(obj))].filter((f) => !before.has(f)).sort();
  const path = FieldPath.root('metadata', 'finalizers');
  const out: FieldError[] = [];
  for (const f of added) {
    for (const msg of isQualifiedName(f)) out.push({ ...invalid(path, f, msg), severity: 'warning' });
    if (!f.includes('/') && !STANDARD_FINALIZERS.has(f)) {
      const msg = f.includes('.')
        ? 'prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers'
        : 'prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers';
      out.push({ ...invalid(path, f, msg), severity: 'warning' });
    }
  }
  return out;
}
