/**
 * The one CRD fixture of the tests: a valid apiextensions.k8s.io/v1 CRD (widgets.example.com, kind
 * Widget, namespaced, one served storage version v1 whose schema is an object with a `spec` object),
 * each part overridable, so a test states only what it is about.
 */

/** A version of the fixture: its name, and what differs from a served, non-storage version. */
export interface CrdVersion {
  name: string;
  served?: boolean;
  storage?: boolean;
  /** Its openAPIV3Schema (default: the fixture's schema). */
  schema?: Record<string, unknown>;
  [more: string]: unknown;
}

export interface CrdOptions {
  group?: string;
  kind?: string;
  /** Default: the kind in lower case, with an s. */
  plural?: string;
  /** More of spec.names (singular, listKind, shortNames, ...). */
  names?: Record<string, unknown>;
  scope?: 'Namespaced' | 'Cluster';
  /** The openAPIV3Schema of every version without its own (default: `spec` with specProperties). */
  schema?: Record<string, unknown>;
  /** The properties of spec, when no schema is given. */
  specProperties?: Record<string, unknown>;
  /** Default: v1, served and storage. */
  versions?: CrdVersion[];
  /** More fields of spec (conversion, preserveUnknownFields, ...). */
  spec?: Record<string, unknown>;
  /** More top-level fields (status, ...). */
  more?: Record<string, unknown>;
}

/** The fixture CRD as a decoded object (a fresh copy each call: tests may mutate it). */
export function crdObject(o: CrdOptions = {}): any {
  const group = o.group ?? 'example.com';
  const kind = o.kind ?? 'Widget';
  const plural = o.plural ?? `${kind.toLowerCase()}s`;
  const schema = o.schema ?? { type: 'object', properties: { spec: { type: 'object', properties: o.specProperties ?? {} } } };
  const versions = (o.versions ?? [{ name: 'v1', storage: true }]).map(({ schema: own, ...v }) => ({
    served: true,
    storage: false,
    ...v,
    schema: { openAPIV3Schema: structuredClone(own ?? schema) },
  }));
  return structuredClone({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: { group, scope: o.scope ?? 'Namespaced', names: { plural, kind, ...o.names }, versions, ...o.spec },
    ...o.more,
  });
}

/**
 * The fixture CRD as YAML text with `schemaYaml` as the openAPIV3Schema of its one version (`version`,
 * default v1; served, storage) and `annotations` (if any) in its metadata: for tests about the text
 * (positions, edits, fuzzing) rather than the decoded object.
 */
export function crdYaml(schemaYaml: string, o: { kind?: string; group?: string; annotations?: Record<string, string>; version?: string } = {}): string {
  const kind = o.kind ?? 'Widget';
  const group = o.group ?? 'example.com';
  const plural = `${kind.toLowerCase()}s`;
  const annotations = Object.entries(o.annotations ?? {}).map(([k, v]) => `\n    ${k}: ${v}`);
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ${plural}.${group}${annotations.length ? `\n  annotations:${annotations.join('')}` : ''}
spec:
  group: ${group}
  scope: Namespaced
  names:
    plural: ${plural}
    singular: ${kind.toLowerCase()}
    kind: ${kind}
    listKind: ${kind}List
  versions:
  - name: ${o.version ?? 'v1'}
    served: true
    storage: true
    schema:
      openAPIV3Schema:
${schemaYaml.replace(/^/gm, '        ')}
`;
}

/**
 * An openAPIV3Schema (YAML, for crdYaml) whose `spec` object has `properties` (YAML written at column 0) and,
 * if given, `rules` (its x-kubernetes-validations items, at column 0) and `required`.
 */
export function specSchemaYaml(properties: string, o: { rules?: string; required?: string[] } = {}): string {
  const indent = (text: string, n: number) => text.replace(/^(?=.)/gm, ' '.repeat(n));
  const rules = o.rules ? `    x-kubernetes-validations:\n${indent(o.rules, 4)}\n` : '';
  const required = o.required ? `    required: [${o.required.join(', ')}]\n` : '';
  return `type: object
properties:
  spec:
    type: object
${rules}${required}    properties:
${indent(properties, 6)}`;
}

/**
 * The CEL tests' CRD (kind Pool) with `rules` (x-kubernetes-validations items of spec, at column 0): a spec
 * with a required `name`, strings with and without minLength (`nick`, `title`), an optional `port`, a
 * defaulted `mode`, a quantity string `cpu`, an object `tls`, a map `labels` and a bounded list `workers` of
 * objects (a required `image` with a description, a defaulted `replicas`, a dashed `node-selector`, an
 * optional `size`): what rules, their completion and their lints read.
 */
export function celCrdYaml(rules: string): string {
  return crdYaml(
    specSchemaYaml(
      `name:
  type: string
  maxLength: 63
nick:
  type: string
  maxLength: 63
title:
  type: string
  minLength: 1
  maxLength: 63
port:
  type: integer
mode:
  type: string
  maxLength: 10
  default: fast
cpu:
  type: string
  maxLength: 10
tls:
  type: object
  properties:
    secret:
      type: string
      maxLength: 63
labels:
  type: object
  maxProperties: 10
  additionalProperties:
    type: string
    maxLength: 63
workers:
  type: array
  maxItems: 10
  items:
    type: object
    required: [image]
    properties:
      image:
        type: string
        maxLength: 100
        description: The container image.
      replicas:
        type: integer
        default: 1
      node-selector:
        type: string
        maxLength: 63
      size:
        type: integer`,
      { rules, required: ['name'] },
    ),
    { kind: 'Pool' },
  );
}
