/**
 * apiextensions-apiserver pkg/registry/customresource/validator.go: TypeMeta, root ObjectMeta and
 * scale-subresource checks of a custom resource.
 */
import { invalid, FieldPath, type FieldError } from '../field';
import { isGoMap, goKind, asInt64 } from '../validation/go-values';
import { decodeObjectMeta, validateObjectMeta } from '../objectmeta/objectmeta';
import { nameIsDNSSubdomain } from '../objectmeta/names';

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

export interface ScaleSubresource {
  specReplicasPath?: string;
  statusReplicasPath?: string;
  labelSelectorPath?: string;
}

function nested(obj: Record<string, unknown>, path: string): { found: boolean; value?: unknown; error?: string } {
  const fields = path.replace(/^\./, '').split('.');
  let cur: unknown = obj;
  for (let i = 0; i < fields.length; i++) {
    if (!isGoMap(cur)) return { found: false };
    if (!Object.prototype.hasOwnProperty.call(cur, fields[i])) return { found: false };
    cur = cur[fields[i]];
  }
  return { found: true, value: cur };
}

const goTypeName = (v: unknown): string => {
  switch (goKind(v)) {
    case 'int':
      return 'int64';
    case 'float':
      return 'float64';
    case 'string':
      return 'string';
    case 'bool':
      return 'bool';
    case 'slice':
      return '[]interface {}';
    case 'map':
      return 'map[string]interface {}';
    default:
      return '<nil>';
  }
};

function replicasErrors(obj: Record<string, unknown>, path: string): FieldError[] {
  const r = nested(obj, path);
  const p = FieldPath.root(path);
  if (!r.found) return [];
  if (goKind(r.value) !== 'int') {
    const jsonPath = '.' + path.replace(/^\./, '');
    return [invalid(p, 0, `${jsonPath} accessor error: ${String(r.value)} is of the type ${goTypeName(r.value)}, expected int64`)];
  }
  const n = asInt64(r.value);
  if (n < 0n) return [invalid(p, n, 'should be a non-negative integer')];
  if (n > 2147483647n) return [invalid(p, n, 'should be less than or equal to 2147483647')];
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
    if (r.found && typeof r.value !== 'string') {
      const jsonPath = '.' + scale.labelSelectorPath.replace(/^\./, '');
      errs.push(invalid(FieldPath.root(scale.labelSelectorPath), '', `${jsonPath} accessor error: ${String(r.value)} is of the type ${goTypeName(r.value)}, expected string`));
    }
  }
  return errs;
}
