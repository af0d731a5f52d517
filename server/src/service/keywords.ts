/**
 * What the keywords of a CRD mean, with the Kubernetes-specific restrictions the API server enforces:
 * the text behind hovers and completions in CRD documents.
 */
import { SUPPORTED_STRING_FORMAT_NAMES } from '../engine';

export interface KeywordDoc {
  doc: string;
  /** Allowed values, for value completion. */
  values?: string[];
  /** The YAML shape of the value, for snippets. */
  shape?: 'scalar' | 'object' | 'array' | 'boolean';
}

/** openAPIV3Schema keywords (JSONSchemaProps) and the x-kubernetes-* extensions. */
export const SCHEMA_KEYWORDS: Record<string, KeywordDoc> = {
  type: {
    doc: 'The type of the value. Required on every schema node of a structural schema (except inside allOf/anyOf/oneOf/not, and where x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields stands in).',
    values: ['object', 'array', 'string', 'integer', 'number', 'boolean'],
  },
  format: {
    doc: 'A format the API server checks for strings (and int32/int64/float/double for numbers). Unknown formats are ignored. CEL sees date-time as timestamp, duration as duration, byte as bytes.',
    // Number formats, then the string formats the API server keeps (others are stripped with a warning).
    values: ['int32', 'int64', 'float', 'double', ...SUPPORTED_STRING_FORMAT_NAMES],
  },
  description: { doc: 'Documentation of the field. Shown by `kubectl explain`. Must not be inside allOf/anyOf/oneOf/not in a structural schema.' },
  title: { doc: 'A short title; informational only.' },
  properties: { doc: 'The fields of an object, each with its schema. Fields not listed are pruned unless x-kubernetes-preserve-unknown-fields is true. Mutually exclusive with additionalProperties.', shape: 'object' },
  additionalProperties: { doc: 'The schema of the values of a map (an object whose keys are not known in advance). Mutually exclusive with properties. `false` is not allowed in a structural schema.', shape: 'object' },
  items: { doc: 'The schema of the elements of an array. Required for arrays in a structural schema; must be a single schema (not a list).', shape: 'object' },
  required: { doc: 'The names of properties that must be present. Checked after defaulting.', shape: 'array' },
  enum: { doc: 'The allowed values. Values must be of the node type.', shape: 'array' },
  default: {
    doc: 'A default applied on read, create and update when the field is absent (or null and not nullable). Must be pruned-clean and validate against the schema. Not allowed in v1beta1 CRDs or under metadata except name/generateName.',
  },
  nullable: { doc: 'Whether null is allowed. Without it, a null value is dropped (or defaulted) before validation.', values: ['true', 'false'], shape: 'boolean' },
  minimum: { doc: 'The smallest allowed number (inclusive unless exclusiveMinimum).' },
  maximum: { doc: 'The largest allowed number (inclusive unless exclusiveMaximum).' },
  exclusiveMinimum: { doc: 'Makes minimum exclusive.', values: ['true', 'false'], shape: 'boolean' },
  exclusiveMaximum: { doc: 'Makes maximum exclusive.', values: ['true', 'false'], shape: 'boolean' },
  multipleOf: { doc: 'The number must be a multiple of this (greater than 0).' },
  minLength: { doc: 'The shortest allowed string, in characters. Also bounds CEL cost estimation.' },
  maxLength: { doc: 'The longest allowed string, in characters. Also bounds CEL cost estimation: set it on strings used by CEL rules.' },
  pattern: { doc: 'A regular expression (RE2 syntax, as Go) the string must match. Unanchored unless it uses ^ and $.' },
  minItems: { doc: 'The fewest allowed items.' },
  maxItems: { doc: 'The most allowed items. Also bounds CEL cost estimation: set it on lists used by CEL rules.' },
  uniqueItems: { doc: 'Forbidden to be true in CRDs: uniqueItems cannot be set to true since the runtime complexity becomes quadratic. Use x-kubernetes-list-type: set instead.', values: ['false'], shape: 'boolean' },
  minProperties: { doc: 'The fewest allowed properties.' },
  maxProperties: { doc: 'The most allowed properties. Also bounds CEL cost estimation for maps.' },
  allOf: {
    doc: 'All of these schemas must validate. In a structural schema, junctors may only restrict: no type, description, default, nullable or additionalProperties inside, and every field they mention must also be declared outside.',
    shape: 'array',
  },
  anyOf: { doc: 'At least one of these schemas must validate. Same structural restrictions as allOf.', shape: 'array' },
  oneOf: { doc: 'Exactly one of these schemas must validate. Same structural restrictions as allOf.', shape: 'array' },
  not: { doc: 'This schema must not validate. Same structural restrictions as allOf.', shape: 'object' },
  example: { doc: 'An example value; informational only.' },
  externalDocs: { doc: 'A link to more documentation.', shape: 'object' },
  $ref: { doc: 'Forbidden in CRDs: references are not supported.' },
  patternProperties: { doc: 'Forbidden in CRDs.' },
  dependencies: { doc: 'Fields required (or schemas applied) when a property is present.', shape: 'object' },
  definitions: { doc: 'Forbidden in CRDs.' },
  'x-kubernetes-preserve-unknown-fields': {
    doc: 'Keep fields not described by the schema instead of pruning them (this node and below, until a nested properties/additionalProperties). Allowed without type only at places where the value can be anything.',
    values: ['true'],
    shape: 'boolean',
  },
  'x-kubernetes-embedded-resource': {
    doc: 'The value is a whole Kubernetes object (apiVersion, kind, metadata are validated and metadata is pruned as ObjectMeta). Requires type: object and either properties or x-kubernetes-preserve-unknown-fields.',
    values: ['true'],
    shape: 'boolean',
  },
  'x-kubernetes-int-or-string': {
    doc: 'The value is an integer or a string. Must be used without type, or with anyOf: [{type: integer}, {type: string}] (optionally inside allOf).',
    values: ['true'],
    shape: 'boolean',
  },
  'x-kubernetes-list-type': {
    doc: 'How a list merges and what uniqueness it has: `atomic` (one unit, default), `set` (unique scalar items), `map` (items are objects keyed by x-kubernetes-list-map-keys, unique per key).',
    values: ['atomic', 'set', 'map'],
  },
  'x-kubernetes-list-map-keys': {
    doc: 'For x-kubernetes-list-type: map, the fields identifying an item. They must be scalar, and required or defaulted.',
    shape: 'array',
  },
  'x-kubernetes-map-type': { doc: 'How an object merges: `granular` (per field, default) or `atomic` (one unit).', values: ['granular', 'atomic'] },
  'x-kubernetes-validations': {
    doc: 'CEL rules checked on create and update, with `self` bound to this value (and `oldSelf` on updates for transition rules). Each rule has a cost limit; set maxLength/maxItems/maxProperties to keep estimated costs low.',
    shape: 'array',
  },
};

/** Fields of an x-kubernetes-validations entry. */
export const VALIDATION_RULE_FIELDS: Record<string, KeywordDoc> = {
  rule: { doc: 'A CEL expression that must evaluate to true. `self` is the value at this schema node; `oldSelf` the previous value on updates (a transition rule).' },
  message: { doc: 'The message returned when the rule fails (no line breaks).' },
  messageExpression: { doc: 'A CEL expression evaluating to the message (a string); takes precedence over message.' },
  reason: { doc: 'The failure reason reported to clients.', values: ['FieldValueInvalid', 'FieldValueForbidden', 'FieldValueRequired', 'FieldValueDuplicate'] },
  fieldPath: { doc: "The field the failure is reported at, relative to this node (e.g. `.spec.replicas`, `.items['key']`). It must exist in the schema." },
  optionalOldSelf: { doc: 'Evaluate the transition rule even on create (oldSelf is then an optional, none).', values: ['true', 'false'], shape: 'boolean' },
};

/** Top-level CRD fields and the fields of spec, names and versions. */
export const CRD_FIELDS: Record<string, KeywordDoc> = {
  group: { doc: 'The API group of the resources (`<plural>.<group>` must be metadata.name). Must be a DNS subdomain with at least one dot.' },
  names: { doc: 'The names of the resource: plural (used in the URL and metadata.name), singular, kind, listKind, shortNames, categories.', shape: 'object' },
  scope: { doc: 'Whether the resources are Namespaced or Cluster scoped. Immutable.', values: ['Namespaced', 'Cluster'] },
  versions: { doc: 'The served versions. Exactly one must have storage: true.', shape: 'array' },
  conversion: { doc: 'How objects convert between versions: None (only apiVersion changes) or Webhook.', shape: 'object' },
  preserveUnknownFields: { doc: 'Must be false (or absent) in apiextensions.k8s.io/v1: unknown fields are pruned.', values: ['false'], shape: 'boolean' },
  plural: { doc: 'The plural name, lowercase; used in the URL and metadata.name.' },
  singular: { doc: 'The singular name, lowercase.' },
  kind: { doc: 'The kind of the resources, CamelCase.' },
  listKind: { doc: 'The kind of lists; defaults to `<kind>List`.' },
  shortNames: { doc: 'Short names for kubectl.', shape: 'array' },
  categories: { doc: 'Groups of resources for kubectl (e.g. `all`).', shape: 'array' },
  name: { doc: 'The version name (e.g. v1, v1beta1), or a field name.' },
  served: { doc: 'Whether this version is served by the REST API.', values: ['true', 'false'], shape: 'boolean' },
  storage: { doc: 'Whether objects are stored at this version. Exactly one version has storage: true.', values: ['true', 'false'], shape: 'boolean' },
  deprecated: { doc: 'Whether this version is deprecated: clients get a warning.', values: ['true', 'false'], shape: 'boolean' },
  deprecationWarning: { doc: 'The warning returned to clients instead of the default `<group>/<version> <kind> is deprecated`.' },
  schema: { doc: 'The validation schema of this version (openAPIV3Schema), structural in v1.', shape: 'object' },
  openAPIV3Schema: { doc: 'The OpenAPI v3 schema of this version: structural, used for pruning, defaulting, validation and CEL.', shape: 'object' },
  subresources: { doc: 'The status and scale subresources of this version.', shape: 'object' },
  additionalPrinterColumns: { doc: 'Extra columns for kubectl get (name, type, jsonPath, ...).', shape: 'array' },
  selectableFields: { doc: 'Fields usable in field selectors (jsonPath to a string, integer or boolean field).', shape: 'array' },
};
