/**
 * Validation of a CRD's openAPIV3Schema as part of CRD validation (apiextensions-apiserver
 * pkg/apis/apiextensions/validation validateCustomResourceDefinitionValidation and
 * ValidateCustomResourceDefinitionOpenAPISchema): status-root restrictions, root nullable, structural
 * schema, defaults, the OpenAPI restrictions ($ref, uniqueItems, list/map types, ...), rule metadata,
 * and CEL compilation where the API server would attempt it.
 */
import { type FieldPath, forbidden, internalError, invalid, notSupported, required, withParams, type FieldError } from '../field';
import { activeSubtreeMemo, markPathInDetail, memoAt, memoOf, rebaseErrors, rebaseField } from '../field/memo';
import { compileRules, internalValidationRule, withUndefinedField } from '../schema/cel/compile';
import { adviseCosts, costSites } from './costadvice';
import { schemaDeclType } from '../schema/cel/model';
import { newStructural, validateStructuralSchema } from '../schema/structural';
import type { JSONSchemaProps, ValidationRule } from '../schema/types';
import { isNotImplemented, validateSchemaDefaults } from './defaults';
import { validFieldPath } from '../schema/cel/fieldpath';
import type { CustomResourceValidation } from './types';
import { CREATE_OPTIONS, type CRDValidationOptions } from './options';
import {
  STATIC_ESTIMATED_COST_LIMIT,
  STATIC_ESTIMATED_CRD_COST_LIMIT,
  celContextKey,
  childAdditionalPropertiesContext,
  childItemsContext,
  childPropertyContext,
  costErrorMessage,
  multiplyWithOverflowGuard,
  rootCELContext,
  totalCostErrors,
  typeInfo,
  type CELSchemaContext,
  type ExpressionCost,
  type TypeInfo,
} from './celcontext';
import { isJSONObject } from '../json/values';

const OPENAPI_V3_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const SUPPORTED_REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];
const META_FIELDS = ['metadata', 'kind', 'apiVersion'];

/** Go struct field order of apiextensions.JSONSchemaProps with the JSON key of each. */
const SCHEMA_FIELDS: [string, string][] = [
  ['ID', 'id'],
  ['Schema', '$schema'],
  ['Ref', '$ref'],
  ['Description', 'description'],
  ['Type', 'type'],
  ['Format', 'format'],
  ['Title', 'title'],
  ['Default', 'default'],
  ['Maximum', 'maximum'],
  ['ExclusiveMaximum', 'exclusiveMaximum'],
  ['Minimum', 'minimum'],
  ['ExclusiveMinimum', 'exclusiveMinimum'],
  ['MaxLength', 'maxLength'],
  ['MinLength', 'minLength'],
  ['Pattern', 'pattern'],
  ['MaxItems', 'maxItems'],
  ['MinItems', 'minItems'],
  ['UniqueItems', 'uniqueItems'],
  ['MultipleOf', 'multipleOf'],
  ['Enum', 'enum'],
  ['MaxProperties', 'maxProperties'],
  ['MinProperties', 'minProperties'],
  ['Required', 'required'],
  ['Items', 'items'],
  ['AllOf', 'allOf'],
  ['OneOf', 'oneOf'],
  ['AnyOf', 'anyOf'],
  ['Not', 'not'],
  ['Properties', 'properties'],
  ['AdditionalProperties', 'additionalProperties'],
  ['PatternProperties', 'patternProperties'],
  ['Dependencies', 'dependencies'],
  ['AdditionalItems', 'additionalItems'],
  ['Definitions', 'definitions'],
  ['ExternalDocs', 'externalDocs'],
  ['Example', 'example'],
  ['Nullable', 'nullable'],
  ['XPreserveUnknownFields', 'x-kubernetes-preserve-unknown-fields'],
  ['XEmbeddedResource', 'x-kubernetes-embedded-resource'],
  ['XIntOrString', 'x-kubernetes-int-or-string'],
  ['XListMapKeys', 'x-kubernetes-list-map-keys'],
  ['XListType', 'x-kubernetes-list-type'],
  ['XMapType', 'x-kubernetes-map-type'],
  ['XValidations', 'x-kubernetes-validations'],
];

const ALLOWED_AT_ROOT_WITH_STATUS = [
  'Description',
  'Type',
  'Format',
  'Title',
  'Maximum',
  'ExclusiveMaximum',
  'Minimum',
  'ExclusiveMinimum',
  'MaxLength',
  'MinLength',
  'Pattern',
  'MaxItems',
  'MinItems',
  'UniqueItems',
  'MultipleOf',
  'Required',
  'Items',
  'Properties',
  'ExternalDocs',
  'Example',
  'XPreserveUnknownFields',
  'XValidations',
];

const NON_POINTER_BOOLS = ['ExclusiveMaximum', 'ExclusiveMinimum', 'UniqueItems', 'Nullable', 'XEmbeddedResource', 'XIntOrString'];
const PLAIN_STRINGS = ['ID', 'Schema', 'Description', 'Type', 'Format', 'Title', 'Pattern'];

/** Go's zero-value test of one decoded field (nil pointers/slices, false plain bools, empty plain strings). */
function isZeroField(goName: string, v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (v === false && NON_POINTER_BOOLS.includes(goName)) return true;
  if (v === '' && PLAIN_STRINGS.includes(goName)) return true;
  return false;
}

/** specStandardValidatorV3 with its context (defaults allowed, inside resource meta, the uncorrelatable ancestor). */
interface StandardValidator {
  allowDefaults: boolean;
  disallowDefaultsReason: string;
  insideResourceMeta: boolean;
  requireValidPropertyType: boolean;
  /** The outermost ancestor whose old and new values do not correlate (rules below may not use oldSelf). */
  uncorrelatablePath?: FieldPath;
}

function withForbiddenDefaults(v: StandardValidator, reason: string): StandardValidator {
  return { ...v, allowDefaults: false, disallowDefaultsReason: reason };
}

/** withForbidOldSelfValidations: the first uncorrelatable ancestor is kept. */
function withForbidOldSelfValidations(v: StandardValidator, p: FieldPath): StandardValidator {
  return v.uncorrelatablePath ? v : { ...v, uncorrelatablePath: p };
}

/** cel.MapIsCorrelatable */
function mapIsCorrelatable(mapType: unknown): boolean {
  return mapType === undefined || mapType === 'granular' || mapType === 'atomic';
}

const obj = (v: unknown): JSONSchemaProps | undefined => (isJSONObject(v) ? (v as JSONSchemaProps) : undefined);
const map = (v: unknown): Record<string, JSONSchemaProps> => (isJSONObject(v) ? (v as Record<string, JSONSchemaProps>) : {});
const list = (v: unknown): JSONSchemaProps[] => (Array.isArray(v) ? (v as JSONSchemaProps[]) : []);
const hasEntries = (v: unknown) => isJSONObject(v) && Object.keys(v).length > 0;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** specStandardValidatorV3.validate */
function validateStandard(v: StandardValidator, s: JSONSchemaProps, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(s.type);
  if (v.requireValidPropertyType && type.length > 0 && !OPENAPI_V3_TYPES.includes(type)) errs.push(notSupported(p.child('type'), type, OPENAPI_V3_TYPES));
  if (s.default !== undefined && !v.allowDefaults) {
    let detail = 'must not be set';
    if (v.disallowDefaultsReason.length > 0) detail += ' ' + v.disallowDefaultsReason;
    errs.push(forbidden(p.child('default'), detail));
  }
  if (str(s.id) !== '') errs.push(forbidden(p.child('id'), 'id is not supported'));
  if (s.additionalItems !== undefined) errs.push(forbidden(p.child('additionalItems'), 'additionalItems is not supported'));
  if (hasEntries(s.patternProperties)) errs.push(forbidden(p.child('patternProperties'), 'patternProperties is not supported'));
  if (hasEntries(s.definitions)) errs.push(forbidden(p.child('definitions'), 'definitions is not supported'));
  if (s.dependencies !== undefined) errs.push(forbidden(p.child('dependencies'), 'dependencies is not supported'));
  if (s.$ref !== undefined) errs.push(forbidden(p.child('$ref'), '$ref is not supported'));
  if (type === 'null') errs.push(forbidden(p.child('type'), 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(s.items) && s.items.length !== 0) errs.push(forbidden(p.child('items'), 'items must be a schema object and not an array'));
  if (v.insideResourceMeta && s['x-kubernetes-embedded-resource'] === true) {
    errs.push(forbidden(p.child('x-kubernetes-embedded-resource'), 'must not be used inside of resource meta'));
  }
  return errs;
}

/** validateMapListKeysMapSet */
function validateMapListKeysMapSet(s: JSONSchemaProps, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const items = obj(s.items);
  if (!items || Array.isArray(s.items)) return errs;
  const lt = s['x-kubernetes-list-type'];
  if (lt !== 'set' && lt !== 'map') return errs;
  if (items.nullable === true) errs.push(forbidden(p.child('items').child('nullable'), 'cannot be nullable when x-kubernetes-list-type is ' + lt));
  if (lt === 'map') {
    const req = new Set(Array.isArray(items.required) ? items.required : []);
    const props = map(items.properties);
    for (const k of list(s['x-kubernetes-list-map-keys']) as unknown as string[]) {
      if (!Object.hasOwn(props, k)) continue;
      const ks = props[k];
      if (!req.has(k) && ks.default === undefined) {
        errs.push(required(p.child('items').child('properties').key(k).child('default'), 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
      }
      if (ks.nullable === true) {
        errs.push(forbidden(p.child('items').child('properties').key(k).child('nullable'), 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
      }
    }
  }
  return errs;
}

const newlines = /[\n\r]+/;

/** pathValid: a rule's fieldPath must resolve against the schema (when that converts). */
function rulePathValid(s: JSONSchemaProps, path: string): boolean {
  if (newStructural(s).error !== undefined) return true;
  return validFieldPath(path, s).error === undefined;
}

function validateRules(s: JSONSchemaProps, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const rules = (Array.isArray(s['x-kubernetes-validations']) ? s['x-kubernetes-validations'] : []) as ValidationRule[];
  rules.forEach((rule, i) => {
    const rp = p.child('x-kubernetes-validations').index(i);
    const ruleText = str(rule.rule);
    const message = str(rule.message);
    const messageExpression = str(rule.messageExpression);
    const trimmedRule = ruleText.trim();
    const trimmedMsg = message.trim();
    if (trimmedRule.length === 0) errs.push(required(rp.child('rule'), 'rule is not specified'));
    else if (message.length > 0 && trimmedMsg.length === 0) errs.push(invalid(rp.child('message'), message, 'must be non-empty if specified'));
    else if (newlines.test(trimmedMsg)) errs.push(invalid(rp.child('message'), message, 'must not contain line breaks'));
    else if (newlines.test(trimmedRule) && trimmedMsg.length === 0) {
      errs.push(required(rp.child('message'), 'message must be specified if rule contains line breaks'));
    }
    if (messageExpression.length > 0 && messageExpression.trim().length === 0) {
      errs.push(required(rp.child('messageExpression'), 'messageExpression must be non-empty if specified'));
    }
    if (typeof rule.reason === 'string' && !SUPPORTED_REASONS.includes(rule.reason)) {
      errs.push(notSupported(rp.child('reason'), rule.reason, SUPPORTED_REASONS));
    }
    const fieldPath = str(rule.fieldPath);
    if (fieldPath.length > 0 && fieldPath.trim().length === 0) errs.push(invalid(rp.child('fieldPath'), fieldPath, 'must be non-empty if specified'));
    if (newlines.test(fieldPath)) errs.push(invalid(rp.child('fieldPath'), fieldPath, 'must not contain line breaks'));
    if (fieldPath.length > 0 && !rulePathValid(s, fieldPath)) errs.push(invalid(rp.child('fieldPath'), fieldPath, 'must be a valid path'));
  });
  return errs;
}

/**
 * ValidateCustomResourceDefinitionOpenAPISchema's answer for one node and its subtree: schema errors and
 * CEL errors apart (OpenAPISchemaErrorList), and the cost of every expression compiled below, for the
 * schema's TotalCost.
 */
interface OpenAPISchemaErrors {
  schema: FieldError[];
  cel: FieldError[];
  costs: ExpressionCost[];
}

const NO_ERRORS: OpenAPISchemaErrors = { schema: [], cel: [], costs: [] };

/** The walk's context besides the node: the standard validator's flags and the node's CEL context (none: CEL not attempted). */
interface WalkContext {
  ssv: StandardValidator;
  isRoot: boolean;
  cel: CELSchemaContext | undefined;
  opts: CRDValidationOptions & { suppressPerExpressionCost?: boolean };
}

/**
 * ValidateCustomResourceDefinitionOpenAPISchema: the schema errors of one node and its subtree, then, when
 * the subtree has none and CEL is attempted, the node's rules compiled and costed, as the API server does
 * in one walk. Memoized per node (engine/field/memo.ts): an edit re-walks only the path to it.
 */
function validateOpenAPISchema(s: JSONSchemaProps | undefined, p: FieldPath, w: WalkContext): OpenAPISchemaErrors {
  if (!s) return NO_ERRORS;
  return memoAt(
    'crd.openAPISchema',
    s,
    () => walkKey(s, w),
    p,
    () => openAPISchemaNode(s, p, w),
    rebaseOpenAPISchemaErrors,
  );
}

/** Subtree facts that decide which parts of the walk context can change a node's answer. */
const HAS_DEFAULT = 1;
const HAS_RULES = 2;
const HAS_EMBEDDED = 4;

function subtreeFeatures(s: unknown): number {
  if (!isJSONObject(s)) return 0;
  return memoOf('crd.schemaFeatures', s, '', () => {
    const n = s as JSONSchemaProps;
    let f = 0;
    if (n.default !== undefined) f |= HAS_DEFAULT;
    if (Array.isArray(n['x-kubernetes-validations']) && n['x-kubernetes-validations'].length > 0) f |= HAS_RULES;
    if (n['x-kubernetes-embedded-resource'] === true) f |= HAS_EMBEDDED;
    // SchemaHas's traversal.
    const sub = (x: unknown) => (f |= subtreeFeatures(x));
    if (Array.isArray(n.items)) n.items.forEach(sub);
    else sub(n.items);
    for (const k of ['allOf', 'anyOf', 'oneOf'] as const) list(n[k]).forEach(sub);
    sub(n.not);
    for (const k of ['properties', 'patternProperties', 'definitions'] as const) Object.values(map(n[k])).forEach(sub);
    sub(n.additionalProperties);
    sub(n.additionalItems);
    if (isJSONObject(n.dependencies)) for (const d of Object.values(n.dependencies)) if (!Array.isArray(d)) sub(d);
    return f;
  });
}

/** specHasDefaults for one schema: some node has a default (memoized per node). */
export function schemaHasDefaults(s: JSONSchemaProps | undefined): boolean {
  // Without a memo the walk that stops at the first default is cheaper.
  if (!activeSubtreeMemo()) return schemaHas(s, (x) => x.default !== undefined);
  return (subtreeFeatures(s) & HAS_DEFAULT) !== 0;
}

const optionIds = new WeakMap<object, number>();
let nextOptionId = 1;

/** The parts of the context that can change the answer for this subtree (coarser keys: more reuse). */
function walkKey(s: JSONSchemaProps, w: WalkContext): string {
  const f = subtreeFeatures(s);
  let id = optionIds.get(w.opts);
  if (id === undefined) optionIds.set(w.opts, (id = nextOptionId++));
  let k = `${id}${w.isRoot ? 'R' : ''}${w.ssv.requireValidPropertyType ? 'T' : ''}`;
  if (f & HAS_DEFAULT) k += `|d${w.ssv.allowDefaults ? 1 : 0}${w.ssv.disallowDefaultsReason}`;
  if (f & (HAS_DEFAULT | HAS_EMBEDDED)) k += w.ssv.insideResourceMeta ? '|m' : '';
  if (f & HAS_RULES) k += `|c${celContextKey(w.cel)}|o${w.ssv.uncorrelatablePath?.toString() ?? ''}`;
  return k;
}

function rebaseOpenAPISchemaErrors(r: OpenAPISchemaErrors, from: { path: string; length: number }, to: FieldPath): OpenAPISchemaErrors | undefined {
  const schema = rebaseErrors(r.schema, from, to);
  const cel = schema && rebaseErrors(r.cel, from, to);
  if (!cel) return undefined;
  const target = to.toString();
  const toSegs = r.costs.length ? to.segments() : [];
  const costs: ExpressionCost[] = [];
  for (const c of r.costs) {
    const field = rebaseField(c.field, from.path, target);
    if (field === undefined) return undefined;
    costs.push({ field, segments: [...toSegs, ...c.segments.slice(from.length)], cost: c.cost });
  }
  return { schema: schema!, cel, costs };
}

function openAPISchemaNode(s: JSONSchemaProps, p: FieldPath, w: WalkContext): OpenAPISchemaErrors {
  const { ssv, isRoot, opts } = w;
  const errors: FieldError[] = [];
  // Children's schema errors where Go appends them; their CEL errors and costs in the order of the CEL
  // walk (additionalProperties, properties by name, items).
  const celChildren: OpenAPISchemaErrors[] = [];
  const ti = w.cel ? typeInfo(s, w.cel) : undefined;
  const child = (x: JSONSchemaProps | undefined, cp: FieldPath, cw: WalkContext): OpenAPISchemaErrors => {
    const r = validateOpenAPISchema(x, cp, cw);
    for (const e of r.schema) errors.push(e);
    return r;
  };
  const noCel = (sub: StandardValidator): WalkContext => ({ ssv: sub, isRoot: false, cel: undefined, opts });
  errors.push(...validateStandard(ssv, s, p));

  if (s.uniqueItems === true)
    errors.push(withParams(forbidden(p.child('uniqueItems'), 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'), { origin: 'uniqueItems', keyword: 'uniqueItems' }));

  const type = str(s.type);
  const ap = s.additionalProperties;
  if (ap !== undefined) {
    if (hasEntries(s.properties)) {
      if (ap === false || isJSONObject(ap)) errors.push(forbidden(p.child('additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
    }
    let sub = ssv;
    if (ssv.insideResourceMeta) sub = withForbiddenDefaults(ssv, 'inside additionalProperties applying to object metadata');
    celChildren.push(child(obj(ap), p.child('additionalProperties'), { ssv: sub, isRoot: false, cel: w.cel && obj(ap) && childAdditionalPropertiesContext(s, w.cel, ti!), opts }));
  }

  if (hasEntries(s.properties)) {
    const byName: [string, OpenAPISchemaErrors][] = [];
    for (const [name, prop] of Object.entries(map(s.properties))) {
      let sub = ssv;
      if (!mapIsCorrelatable(s['x-kubernetes-map-type'])) sub = withForbidOldSelfValidations(sub, p);
      if ((isRoot || s['x-kubernetes-embedded-resource'] === true) && META_FIELDS.includes(name)) {
        sub = { ...sub, insideResourceMeta: true };
        if (isRoot) sub = withForbiddenDefaults(sub, `in top-level ${name}`);
      }
      const ps = obj(prop) ?? {};
      byName.push([name, child(ps, p.child('properties').key(name), { ssv: sub, isRoot: false, cel: w.cel && childPropertyContext(s, w.cel, ti!), opts })]);
    }
    byName.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    for (const [, r] of byName) celChildren.push(r);
  }

  child(obj(s.not), p.child('not'), noCel(ssv));
  list(s.allOf).forEach((x, i) => child(obj(x) ?? {}, p.child('allOf').index(i), noCel(ssv)));
  list(s.oneOf).forEach((x, i) => child(obj(x) ?? {}, p.child('oneOf').index(i), noCel(ssv)));
  list(s.anyOf).forEach((x, i) => child(obj(x) ?? {}, p.child('anyOf').index(i), noCel(ssv)));
  for (const [name, d] of Object.entries(map(s.definitions))) {
    child(obj(d) ?? {}, p.child('definitions').key(name), noCel(ssv));
  }

  const items = s.items;
  if (items !== undefined) {
    // Old and new items correlate only in list-type map lists.
    const sub = s['x-kubernetes-list-type'] !== 'map' ? withForbidOldSelfValidations(ssv, p) : ssv;
    if (Array.isArray(items)) {
      items.forEach((x, i) => child(obj(x) ?? {}, p.child('items').index(i), noCel(sub)));
    } else {
      celChildren.push(child(obj(items), p.child('items'), { ssv: sub, isRoot: false, cel: w.cel && obj(items) && childItemsContext(s, w.cel, ti!), opts }));
    }
  }

  if (isJSONObject(s.dependencies)) {
    for (const [name, d] of Object.entries(s.dependencies)) {
      if (isJSONObject(d)) child(d as JSONSchemaProps, p.child('dependencies').key(name), noCel(ssv));
    }
  }

  if (s['x-kubernetes-preserve-unknown-fields'] === false) {
    errors.push(invalid(p.child('x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'));
  }

  const mapType = s['x-kubernetes-map-type'];
  if (mapType !== undefined && type !== 'object') {
    if (type.length === 0) errors.push(required(p.child('type'), 'must be object if x-kubernetes-map-type is specified'));
    else errors.push(invalid(p.child('type'), type, 'must be object if x-kubernetes-map-type is specified'));
  }
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular') {
    errors.push(notSupported(p.child('x-kubernetes-map-type'), mapType, ['atomic', 'granular']));
  }

  const listType = s['x-kubernetes-list-type'];
  const itemSchema = Array.isArray(items) ? undefined : obj(items);
  if (listType !== undefined && type !== 'array') {
    if (type.length === 0) errors.push(required(p.child('type'), 'must be array if x-kubernetes-list-type is specified'));
    else errors.push(invalid(p.child('type'), type, 'must be array if x-kubernetes-list-type is specified'));
  } else if (opts.requireAtomicSetType && listType === 'set' && itemSchema) {
    const it = str(itemSchema.type);
    if (it === 'array') {
      const ilt = itemSchema['x-kubernetes-list-type'];
      if (ilt !== undefined && ilt !== 'atomic') {
        errors.push(invalid(p.child('items').child('x-kubernetes-list-type'), ilt, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
      }
    } else if (it === 'object') {
      if (itemSchema['x-kubernetes-map-type'] !== 'atomic') {
        // Go prints the items' list type here (a quirk kept for message parity).
        errors.push(invalid(p.child('items').child('x-kubernetes-map-type'), itemSchema['x-kubernetes-list-type'] ?? null, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
      }
    }
  }
  if (listType !== undefined && listType !== 'atomic' && listType !== 'set' && listType !== 'map') {
    errors.push(notSupported(p.child('x-kubernetes-list-type'), listType, ['atomic', 'set', 'map']));
  }

  const mapKeys = (Array.isArray(s['x-kubernetes-list-map-keys']) ? s['x-kubernetes-list-map-keys'] : []) as string[];
  if (mapKeys.length > 0) {
    if (listType === undefined) errors.push(required(p.child('x-kubernetes-list-type'), 'must be map if x-kubernetes-list-map-keys is non-empty'));
    else if (listType !== 'map') errors.push(invalid(p.child('x-kubernetes-list-type'), listType, 'must be map if x-kubernetes-list-map-keys is non-empty'));
  }
  if (listType === 'map') {
    if (mapKeys.length === 0) errors.push(required(p.child('x-kubernetes-list-map-keys'), 'must not be empty if x-kubernetes-list-type is map'));
    if (items === undefined) errors.push(required(p.child('items'), 'must have a schema if x-kubernetes-list-type is map'));
    if (Array.isArray(items)) errors.push(invalid(p.child('items'), items, 'must only have a single schema if x-kubernetes-list-type is map'));
    if (itemSchema && str(itemSchema.type) !== 'object') {
      errors.push(invalid(p.child('items').child('type'), str(itemSchema.type), "must be object if parent array's x-kubernetes-list-type is map"));
    }
    if (itemSchema && str(itemSchema.type) === 'object') {
      const seen = new Set<string>();
      const props = map(itemSchema.properties);
      for (const k of mapKeys) {
        if (Object.hasOwn(props, k)) {
          const kt = str(props[k].type);
          if (kt === 'array' || kt === 'object') {
            errors.push(invalid(p.child('items').child('properties').key(k).child('type'), str(itemSchema.type), "must be a scalar type if parent array's x-kubernetes-list-type is map"));
          }
        } else {
          errors.push(invalid(p.child('x-kubernetes-list-map-keys'), mapKeys, 'entries must all be names of item properties'));
        }
        if (seen.has(k)) errors.push(invalid(p.child('x-kubernetes-list-map-keys'), mapKeys, 'must not contain duplicate entries'));
        seen.add(k);
      }
    }
  }

  if (opts.requireMapListKeysMapSetValidation) errors.push(...validateMapListKeysMapSet(s, p));
  errors.push(...validateRules(s, p));

  const schema = errors;
  const cel: FieldError[] = [];
  const costs: ExpressionCost[] = [];
  for (const c of celChildren) {
    for (const e of c.cel) cel.push(e);
    for (const x of c.costs) costs.push(x);
  }
  // Rules of a subtree with schema errors are not compiled: their errors would not be actionable.
  if (schema.length === 0 && w.cel && ti) compileNodeRules(s, p, ssv, w.cel, ti, opts, cel, costs);
  return schema.length === 0 && cel.length === 0 && costs.length === 0 ? NO_ERRORS : { schema, cel, costs };
}

/** The CEL block of ValidateCustomResourceDefinitionOpenAPISchema for a node whose subtree has no schema errors. */
function compileNodeRules(
  s: JSONSchemaProps,
  p: FieldPath,
  ssv: StandardValidator,
  ctx: CELSchemaContext,
  ti: TypeInfo,
  opts: CRDValidationOptions & { suppressPerExpressionCost?: boolean },
  errs: FieldError[],
  costs: ExpressionCost[],
): void {
  const rules = (Array.isArray(s['x-kubernetes-validations']) ? s['x-kubernetes-validations'] : []) as ValidationRule[];
  if (rules.length === 0) return;
  const vpath = p.child('x-kubernetes-validations');
  try {
    if (ctx.noElemType && !ti.failed) {
      errs.push(internalError(vpath, 'failed to convert to declType for CEL validation rules'));
      return;
    }
    const decl = schemaDeclType(s, ctx.isRoot || s['x-kubernetes-embedded-resource'] === true);
    if (ti.failed || !decl) {
      // An untyped x-kubernetes-preserve-unknown-fields node has no CEL type: one error for the node's rules.
      errs.push(internalError(vpath, 'internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations'));
      return;
    }
    const results = compileRules(s, decl, {
      kubernetesMinor: opts.kubernetesMinor,
      compatibilityMinor: opts.compatibilityMinor,
      storedRule: (r) => opts.preexistingRules?.has(r) === true,
      storedMessageExpression: (m) => opts.preexistingMessageExpressions?.has(m) === true,
    });
    results.forEach((cr, i) => {
      const r = vpath.index(i);
      const rule = rules[i];
      const cost = ctx.cardinality !== undefined ? multiplyWithOverflowGuard(cr.maxCost, ctx.cardinality) : multiplyWithOverflowGuard(cr.maxCost, cr.maxCardinality);
      if (!opts.suppressPerExpressionCost && cost > STATIC_ESTIMATED_COST_LIMIT) {
        const e = forbidden(r.child('rule'), costErrorMessage('estimated rule cost', cost, STATIC_ESTIMATED_COST_LIMIT));
        errs.push(withParams(e, { origin: 'celCost', cost: { scope: 'rule', estimated: cost, limit: STATIC_ESTIMATED_COST_LIMIT } }));
      }
      costs.push(expressionCost(r.child('rule'), cost));
      if (cr.error) {
        const e = cr.error.type === 'Required' ? required(r.child('rule'), cr.error.detail) : invalid(r.child('rule'), internalValidationRule(rule), cr.error.detail);
        if (cr.error.range) e.ruleRange = cr.error.range;
        e.provenance = { rule: rule.rule };
        errs.push(withUndefinedField(e, cr.error.undefinedField));
      }
      if (cr.messageExpressionError) {
        const e = invalid(r.child('messageExpression'), internalValidationRule(rule), cr.messageExpressionError.detail);
        if (cr.messageExpressionError.range) e.ruleRange = cr.messageExpressionError.range;
        errs.push(e);
      } else if (cr.messageExpression) {
        const mcost = cr.messageExpressionMaxCost;
        if (!opts.suppressPerExpressionCost && mcost > STATIC_ESTIMATED_COST_LIMIT) {
          errs.push(forbidden(r.child('messageExpression'), costErrorMessage('estimated messageExpression cost', mcost, STATIC_ESTIMATED_COST_LIMIT)));
        }
        costs.push(expressionCost(r.child('messageExpression'), mcost));
      }
      if (cr.usesOldSelf) {
        const unc = ssv.uncorrelatablePath;
        // The message prints the path of an ancestor: recomputed, not rebased, when the node moves.
        if (unc) errs.push(markPathInDetail(invalid(r.child('rule'), rule.rule, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${unc.toString()}`)));
      } else if (rule.optionalOldSelf !== undefined && rule.optionalOldSelf !== null) {
        errs.push(invalid(r.child('optionalOldSelf'), rule.optionalOldSelf, 'may not be set if oldSelf is not used in rule'));
      }
    });
  } catch (e) {
    errs.push(invalid(vpath, undefined, `internal error validating x-kubernetes-validations: ${e instanceof Error ? e.message : String(e)}`));
  }
}

function expressionCost(p: FieldPath, cost: number): ExpressionCost {
  return { field: p.toString(), segments: p.segments(), cost };
}

/**
 * Runs a check owned by another engine module. A stub ('not implemented') is skipped; any other
 * exception becomes an InternalError finding so that the rest of the CRD is still validated.
 */
function guarded<T>(p: FieldPath, run: () => T): T | FieldError[] | undefined {
  try {
    return run();
  } catch (e) {
    if (isNotImplemented(e)) return undefined;
    return [internalError(p, e instanceof Error ? e.message : String(e))];
  }
}

/** Status-subresource root restrictions: the root may only use keywords that survive extracting status. */
function validateStatusRoot(schema: JSONSchemaProps, fldPath: FieldPath): FieldError[] {
  for (const [goName, key] of SCHEMA_FIELDS) {
    const v = schema[key];
    if (isZeroField(goName, v)) continue;
    if (goName === 'Type') {
      if (v !== 'object') {
        return [invalid(fldPath.child('openAPIV3Schema.type'), v, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled')];
      }
      continue;
    }
    if (!ALLOWED_AT_ROOT_WITH_STATUS.includes(goName)) {
      return [invalid(fldPath.child('openAPIV3Schema'), schema, `only [${ALLOWED_AT_ROOT_WITH_STATUS.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`)];
    }
  }
  return [];
}

function dedupe(errs: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errs.filter((e) => {
    const k = `${e.type}\u0000${e.field}\u0000${e.detail}\u0000${e.severity ?? 'error'}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * validateCustomResourceDefinitionValidation on create: `fldPath` is `spec.validation` or
 * `spec.versions[i].schema`.
 */
export function validateCustomResourceDefinitionValidation(
  validation: CustomResourceValidation | undefined,
  statusSubresourceEnabled: boolean,
  fldPath: FieldPath,
  opts: CRDValidationOptions & { suppressPerExpressionCost?: boolean } = CREATE_OPTIONS,
): FieldError[] {
  const allErrs: FieldError[] = [];
  const schema = validation?.openAPIV3Schema;
  if (!schema) return allErrs;
  const schemaPath = fldPath.child('openAPIV3Schema');

  if (statusSubresourceEnabled) allErrs.push(...validateStatusRoot(schema, fldPath));
  if (schema.nullable === true) allErrs.push(forbidden(fldPath.child('openAPIV3Schema.nullable'), 'nullable cannot be true at the root'));

  // requireStructuralSchema is always true on a v1 create.
  let celAllowed = false;
  const structuralInitErrs: FieldError[] = [];
  const init = guarded(schemaPath, () => newStructural(schema).error);
  if (Array.isArray(init)) allErrs.push(...init);
  else if (init !== undefined) {
    structuralInitErrs.push(invalid(schemaPath, '', init));
  } else {
    const structuralErrs = guarded(schemaPath, () => validateStructuralSchema(schema, schemaPath)) ?? [];
    if (structuralErrs.length > 0) allErrs.push(...structuralErrs);
    else {
      const defaultErrs = guarded(schemaPath, () => validateSchemaDefaults(schema, schemaPath, opts.requirePrunedDefaults, opts.kubernetesMinor)) ?? [];
      if (defaultErrs.length > 0) allErrs.push(...defaultErrs);
      else celAllowed = true;
    }
  }

  const rootSsv: StandardValidator = { allowDefaults: true, disallowDefaultsReason: '', insideResourceMeta: false, requireValidPropertyType: opts.requireValidPropertyType };
  // Only a structural schema with valid defaults gets a CEL context (RootCELContext).
  const r = validateOpenAPISchema(schema, schemaPath, { ssv: rootSsv, isRoot: true, cel: celAllowed ? rootCELContext() : undefined, opts });
  const total = celAllowed ? totalCostErrors(r.costs, { field: schemaPath.toString(), segments: schemaPath.segments() }) : [];
  let celErrs = [...r.cel, ...total];
  // Over budget: what to bound, and by how much (crd-yaml's advice, engine/crd/costadvice.ts).
  if (celErrs.some((e) => e.params?.origin === 'celCost')) {
    const limits = { rule: STATIC_ESTIMATED_COST_LIMIT, total: STATIC_ESTIMATED_CRD_COST_LIMIT, noRuleLimit: opts.suppressPerExpressionCost };
    const compile = {
      kubernetesMinor: opts.kubernetesMinor,
      compatibilityMinor: opts.compatibilityMinor,
      storedRule: (x: string) => opts.preexistingRules?.has(x) === true,
      storedMessageExpression: (m: string) => opts.preexistingMessageExpressions?.has(m) === true,
    };
    const sites = costSites(r.costs, schemaPath.segments().length);
    const sum = r.costs.reduce((a, c) => a + c.cost, 0);
    celErrs = adviseCosts({ root: schema, sites, total: sum, limits, compile }, celErrs);
  }
  allErrs.push(...r.schema, ...celErrs);

  if (allErrs.length === 0 && structuralInitErrs.length > 0) allErrs.push(...structuralInitErrs);
  return dedupe(allErrs);
}

/** specHasDefaults / schemaHasKubernetesExtensions style walk (SchemaHas). */
export function schemaHas(s: JSONSchemaProps | undefined, pred: (s: JSONSchemaProps) => boolean): boolean {
  if (!s || !isJSONObject(s)) return false;
  if (pred(s)) return true;
  const items = s.items;
  if (Array.isArray(items)) {
    if (items.some((x) => schemaHas(obj(x), pred))) return true;
  } else if (schemaHas(obj(items), pred)) return true;
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const) if (list(s[k]).some((x) => schemaHas(obj(x), pred))) return true;
  if (schemaHas(obj(s.not), pred)) return true;
  for (const k of ['properties', 'patternProperties', 'definitions'] as const) {
    if (Object.values(map(s[k])).some((x) => schemaHas(obj(x), pred))) return true;
  }
  if (schemaHas(obj(s.additionalProperties), pred)) return true;
  if (schemaHas(obj(s.additionalItems), pred)) return true;
  if (isJSONObject(s.dependencies)) {
    for (const d of Object.values(s.dependencies)) if (!Array.isArray(d) && schemaHas(obj(d), pred)) return true;
  }
  return false;
}
