/**
 * NewStructural (apiextensions-apiserver pkg/apiserver/schema/convert.go): openAPIV3Schema JSON to the
 * structural model.
 *
 * Go fails the conversion for constructs that CRD validation rejects anyway ($ref, `items` as an array,
 * `x-kubernetes-preserve-unknown-fields: false`, ...). Editors need an answer for half-written schemas, so
 * newStructural always builds a model, leniently: it skips what Go cannot convert, reads wrongly typed
 * keywords as unset, and reports Go's first conversion error (in Go's order) in `error`. CRD validation
 * reports that error as `field.Invalid(<path>.openAPIV3Schema, "", error)`.
 */
import type { Extensions, Generic, NestedValueValidation, Structural, ValueValidation } from './model';
import type { ValidationRule } from './types';
import { isJSONObject, isTooDeep, jsonNumber, setOwn } from '../json/values';

export interface NewStructuralResult {
  /** The structural model (built leniently even when `error` is set). */
  structural: Structural;
  /** Go's NewStructural error message, when Go's conversion fails (the first one, in Go's order). */
  error?: string;
  /** The schema is nested too deeply to convert; `structural` is then an empty schema, not the model. */
  tooDeep?: true;
}

interface ConvertContext {
  error?: string;
}

const cache = new WeakMap<object, NewStructuralResult>();

/**
 * NewStructural: convert an openAPIV3Schema into the structural model, never throwing. Results are
 * cached per schema object (the raw schema must not be mutated afterwards).
 */
export function newStructural(schema: unknown): NewStructuralResult {
  const key = typeof schema === 'object' && schema !== null ? schema : undefined;
  if (key) {
    const hit = cache.get(key);
    if (hit) return hit;
  }
  const ctx: ConvertContext = {};
  let result: NewStructuralResult;
  try {
    const structural = convertStructural(isJSONObject(schema) ? schema : {}, ctx);
    result = ctx.error === undefined ? { structural } : { structural, error: ctx.error };
  } catch (e) {
    if (!isTooDeep(e)) throw e;
    result = { structural: convertStructural({}, {}), error: 'OpenAPIV3Schema is nested too deeply', tooDeep: true };
  }
  if (key) cache.set(key, result);
  return result;
}

/** A structural model of the schema, ignoring conversion errors (see newStructural). */
export function toStructural(schema: unknown): Structural {
  return newStructural(schema).structural;
}

function fail(ctx: ConvertContext, msg: string): void {
  if (ctx.error === undefined) ctx.error = msg;
}

type Raw = Record<string, unknown>;

/** A nested schema as Go decodes it: an object, or (for null in a list or map) the zero schema. */
function asSchema(v: unknown): Raw {
  return isJSONObject(v) ? v : {};
}

/**
 * A nested schema through the per-object cache: the unchanged subtrees of an edited schema (the same
 * objects) are not converted again. Its first conversion error is Go's error at this point of the walk.
 */
function convertChild(s: Raw, ctx: ConvertContext): Structural {
  const r = newStructural(s);
  if (r.tooDeep) throw new RangeError('OpenAPIV3Schema is nested too deeply');
  if (r.error !== undefined) fail(ctx, r.error);
  return r.structural;
}

function convertStructural(s: Raw, ctx: ConvertContext): Structural {
  validateUnsupportedFields(s, ctx);
  const vv = newValueValidation(s, ctx);
  const g = newGenerics(s);
  const x = newExtensions(s, ctx);
  const out: Structural = { ...g, ...x, valueValidation: vv };
  const xv = newValidationExtensions(s);
  if (xv) out.xValidations = xv;
  const items = s.items;
  if (Array.isArray(items)) {
    if (items.length > 0) fail(ctx, "OpenAPIV3Schema 'items' must be a schema, but is an array");
  } else if (isJSONObject(items)) {
    out.items = convertChild(items, ctx);
  }
  const props = s.properties;
  if (isJSONObject(props) && Object.keys(props).length > 0) {
    const rec: Record<string, Structural> = {};
    for (const k of Object.keys(props)) setOwn(rec, k, convertChild(asSchema(props[k]), ctx));
    out.properties = rec;
  }
  const ap = s.additionalProperties;
  if (isJSONObject(ap)) out.additionalProperties = { structural: convertChild(ap, ctx), bool: true };
  else if (typeof ap === 'boolean') out.additionalProperties = { bool: ap };
  return out;
}

function newNestedValueValidation(s: Raw, ctx: ConvertContext): NestedValueValidation {
  validateUnsupportedFields(s, ctx);
  const vv = newValueValidation(s, ctx);
  const g = newGenerics(s);
  const x = newExtensions(s, ctx);
  const out: NestedValueValidation = { valueValidation: vv, forbiddenGenerics: g, forbiddenExtensions: x };
  const xv = newValidationExtensions(s);
  if (xv) out.xValidations = xv;
  const items = s.items;
  if (Array.isArray(items)) {
    if (items.length > 0) fail(ctx, "OpenAPIV3Schema 'items' must be a schema, but is an array");
  } else if (isJSONObject(items)) {
    out.items = newNestedValueValidation(items, ctx);
  }
  const props = s.properties;
  if (isJSONObject(props)) {
    // Go keeps a non-nil (possibly empty) map here
    const rec: Record<string, NestedValueValidation> = {};
    for (const k of Object.keys(props)) setOwn(rec, k, newNestedValueValidation(asSchema(props[k]), ctx));
    out.properties = rec;
  }
  const ap = s.additionalProperties;
  if (isJSONObject(ap)) out.additionalProperties = newNestedValueValidation(ap, ctx);
  else if (ap === true) out.additionalProperties = emptyNested();
  return out;
}

function emptyNested(): NestedValueValidation {
  return { valueValidation: emptyValueValidation(), forbiddenGenerics: newGenerics({}), forbiddenExtensions: newExtensions({}, {}) };
}

/** A ValueValidation with every field unset. */
export function emptyValueValidation(): ValueValidation {
  return { format: '', exclusiveMaximum: false, exclusiveMinimum: false, pattern: '', uniqueItems: false };
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function newGenerics(s: Raw): Generic {
  const g: Generic = { description: str(s.description), type: str(s.type), title: str(s.title), nullable: s.nullable === true };
  // Go turns `default: null` / `example: null` into "no value"
  if (s.default !== undefined && s.default !== null) g.default = s.default;
  if (isJSONObject(s.externalDocs)) g.externalDocs = { description: str(s.externalDocs.description), url: str(s.externalDocs.url) };
  if (s.example !== undefined && s.example !== null) g.example = s.example;
  return g;
}

function newValueValidation(s: Raw, ctx: ConvertContext): ValueValidation {
  const v = emptyValueValidation();
  // Go converts `not` first, then allOf, anyOf, oneOf
  if (isJSONObject(s.not)) v.not = newNestedValueValidation(s.not, ctx);
  v.format = str(s.format);
  const num = (k: keyof ValueValidation, raw: unknown) => {
    const n = jsonNumber(raw);
    if (n !== undefined) (v as unknown as Record<string, unknown>)[k] = n;
  };
  num('maximum', s.maximum);
  num('minimum', s.minimum);
  num('maxLength', s.maxLength);
  num('minLength', s.minLength);
  num('maxItems', s.maxItems);
  num('minItems', s.minItems);
  num('multipleOf', s.multipleOf);
  num('maxProperties', s.maxProperties);
  num('minProperties', s.minProperties);
  v.exclusiveMaximum = s.exclusiveMaximum === true;
  v.exclusiveMinimum = s.exclusiveMinimum === true;
  v.pattern = str(s.pattern);
  v.uniqueItems = s.uniqueItems === true;
  if (Array.isArray(s.enum) && s.enum.length > 0) v.enum = s.enum.slice();
  if (Array.isArray(s.required)) v.required = s.required.filter((x): x is string => typeof x === 'string');
  for (const j of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = s[j];
    if (Array.isArray(list) && list.length > 0) v[j] = list.map((x) => newNestedValueValidation(asSchema(x), ctx));
  }
  return v;
}

function newExtensions(s: Raw, ctx: ConvertContext): Extensions {
  const x: Extensions = {
    xPreserveUnknownFields: false,
    xEmbeddedResource: s['x-kubernetes-embedded-resource'] === true,
    xIntOrString: s['x-kubernetes-int-or-string'] === true,
  };
  const keys = s['x-kubernetes-list-map-keys'];
  if (Array.isArray(keys)) x.xListMapKeys = keys.filter((k): k is string => typeof k === 'string');
  if (typeof s['x-kubernetes-list-type'] === 'string') x.xListType = s['x-kubernetes-list-type'];
  if (typeof s['x-kubernetes-map-type'] === 'string') x.xMapType = s['x-kubernetes-map-type'];
  const p = s['x-kubernetes-preserve-unknown-fields'];
  if (p === true) x.xPreserveUnknownFields = true;
  else if (p === false) fail(ctx, "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined");
  return x;
}

function newValidationExtensions(s: Raw): ValidationRule[] | undefined {
  const rules = s['x-kubernetes-validations'];
  if (!Array.isArray(rules)) return undefined;
  return rules.filter((r) => isJSONObject(r)) as unknown as ValidationRule[];
}

/** validateUnsupportedFields: the keywords Go's conversion refuses (CRD validation forbids them). */
function validateUnsupportedFields(s: Raw, ctx: ConvertContext): void {
  const nonEmptyMap = (v: unknown) => isJSONObject(v) && Object.keys(v).length > 0;
  if (str(s.id).length > 0) fail(ctx, "OpenAPIV3Schema 'id' is not supported");
  else if (str(s.$schema).length > 0) fail(ctx, "OpenAPIV3Schema 'schema' is not supported");
  else if (str(s.$ref).length > 0) fail(ctx, "OpenAPIV3Schema '$ref' is not supported");
  else if (nonEmptyMap(s.patternProperties)) fail(ctx, "OpenAPIV3Schema 'patternProperties' is not supported");
  else if (nonEmptyMap(s.dependencies)) fail(ctx, "OpenAPIV3Schema 'dependencies' is not supported");
  else if (s.additionalItems !== undefined && s.additionalItems !== null) fail(ctx, "OpenAPIV3Schema 'additionalItems' is not supported");
  else if (nonEmptyMap(s.definitions)) fail(ctx, "OpenAPIV3Schema 'definitions' is not supported");
}
