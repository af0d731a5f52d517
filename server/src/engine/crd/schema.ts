/**
 * Validation of a CRD's openAPIV3Schema as part of CRD validation (apiextensions-apiserver
 * pkg/apis/apiextensions/validation validateCustomResourceDefinitionValidation and
 * ValidateCustomResourceDefinitionOpenAPISchema): status-root restrictions, root nullable, structural
 * schema, defaults, the OpenAPI restrictions ($ref, uniqueItems, list/map types, ...), rule metadata,
 * and CEL compilation where the API server would attempt it.
 */
import { FieldPath, forbidden, internalError, invalid, notSupported, required, withParams, type FieldError } from '../field';
import { validateCrdCelRules } from '../cel/crd';
import { newStructural, validateStructuralSchema } from '../schema/structural';
import { isObject, type JSONSchemaProps, type ValidationRule } from '../schema/types';
import { isNotImplemented, validateSchemaDefaults } from './defaults';
import { validFieldPath } from './fieldpath';
import type { CustomResourceValidation } from './types';
import { CREATE_OPTIONS, type CRDValidationOptions } from './options';

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

/**
 * specStandardValidatorV3 with its context (defaults allowed, inside resource meta). Go's oldSelf
 * correlation context is tracked by the CEL seam, which reports the uncorrelatable-oldSelf errors.
 */
interface StandardValidator {
  allowDefaults: boolean;
  disallowDefaultsReason: string;
  insideResourceMeta: boolean;
  requireValidPropertyType: boolean;
}

function withForbiddenDefaults(v: StandardValidator, reason: string): StandardValidator {
  return { ...v, allowDefaults: false, disallowDefaultsReason: reason };
}

const obj = (v: unknown): JSONSchemaProps | undefined => (isObject(v) ? (v as JSONSchemaProps) : undefined);
const map = (v: unknown): Record<string, JSONSchemaProps> => (isObject(v) ? (v as Record<string, JSONSchemaProps>) : {});
const list = (v: unknown): JSONSchemaProps[] => (Array.isArray(v) ? (v as JSONSchemaProps[]) : []);
const hasEntries = (v: unknown) => isObject(v) && Object.keys(v).length > 0;
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
      if (!Object.prototype.hasOwnProperty.call(props, k)) continue;
      const ks = props[k];
      if (!req.has(k) && ks.default === undefined) {
        errs.push(
          required(
            p.child('items').child('properties').key(k).child('default'),
            'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
          ),
        );
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

/** Where CEL must not be compiled: by printed path and by schema node. */
interface Gate {
  paths: Set<string>;
  nodes: Set<object>;
}

interface WalkResult {
  errors: FieldError[];
}

/**
 * ValidateCustomResourceDefinitionOpenAPISchema: the schema errors of one node and its subtree.
 * `gated` collects the printed paths of nodes whose subtree has schema errors; the API server does not
 * compile the CEL rules of such nodes.
 */
function validateOpenAPISchema(
  s: JSONSchemaProps | undefined,
  p: FieldPath,
  ssv: StandardValidator,
  isRoot: boolean,
  celReachable: boolean,
  gated: Gate,
  opts: CRDValidationOptions = CREATE_OPTIONS,
): WalkResult {
  const errors: FieldError[] = [];
  if (!s) return { errors };
  errors.push(...validateStandard(ssv, s, p));

  if (s.uniqueItems === true) errors.push(withParams(forbidden(p.child('uniqueItems'), 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'), { origin: 'uniqueItems', keyword: 'uniqueItems' }));

  const type = str(s.type);
  const ap = s.additionalProperties;
  if (ap !== undefined) {
    if (hasEntries(s.properties)) {
      if (ap === false || isObject(ap)) errors.push(forbidden(p.child('additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
    }
    let sub = ssv;
    if (ssv.insideResourceMeta) sub = withForbiddenDefaults(ssv, 'inside additionalProperties applying to object metadata');
    errors.push(...validateOpenAPISchema(obj(ap), p.child('additionalProperties'), sub, false, celReachable, gated, opts).errors);
  }

  if (hasEntries(s.properties)) {
    for (const [name, prop] of Object.entries(map(s.properties))) {
      let sub = ssv;
      if ((isRoot || s['x-kubernetes-embedded-resource'] === true) && META_FIELDS.includes(name)) {
        sub = { ...sub, insideResourceMeta: true };
        if (isRoot) sub = withForbiddenDefaults(sub, `in top-level ${name}`);
      }
      errors.push(...validateOpenAPISchema(obj(prop) ?? {}, p.child('properties').key(name), sub, false, celReachable, gated, opts).errors);
    }
  }

  errors.push(...validateOpenAPISchema(obj(s.not), p.child('not'), ssv, false, false, gated, opts).errors);
  list(s.allOf).forEach((x, i) => errors.push(...validateOpenAPISchema(obj(x) ?? {}, p.child('allOf').index(i), ssv, false, false, gated, opts).errors));
  list(s.oneOf).forEach((x, i) => errors.push(...validateOpenAPISchema(obj(x) ?? {}, p.child('oneOf').index(i), ssv, false, false, gated, opts).errors));
  list(s.anyOf).forEach((x, i) => errors.push(...validateOpenAPISchema(obj(x) ?? {}, p.child('anyOf').index(i), ssv, false, false, gated, opts).errors));
  for (const [name, d] of Object.entries(map(s.definitions))) {
    errors.push(...validateOpenAPISchema(obj(d) ?? {}, p.child('definitions').key(name), ssv, false, false, gated, opts).errors);
  }

  const items = s.items;
  if (items !== undefined) {
    const sub = ssv;
    if (Array.isArray(items)) {
      items.forEach((x, i) => errors.push(...validateOpenAPISchema(obj(x) ?? {}, p.child('items').index(i), sub, false, celReachable, gated, opts).errors));
    } else {
      errors.push(...validateOpenAPISchema(obj(items), p.child('items'), sub, false, celReachable, gated, opts).errors);
    }
  }

  if (isObject(s.dependencies)) {
    for (const [name, d] of Object.entries(s.dependencies)) {
      if (isObject(d)) errors.push(...validateOpenAPISchema(d as JSONSchemaProps, p.child('dependencies').key(name), ssv, false, false, gated, opts).errors);
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
        if (Object.prototype.hasOwnProperty.call(props, k)) {
          const kt = str(props[k].type);
          if (kt === 'array' || kt === 'object') {
            errors.push(
              invalid(p.child('items').child('properties').key(k).child('type'), str(itemSchema.type), "must be a scalar type if parent array's x-kubernetes-list-type is map"),
            );
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

  // CEL rules of this node are compiled only when the subtree has no schema errors.
  if (errors.length > 0 || !celReachable) {
    gated.paths.add(p.toString());
    gated.nodes.add(s);
  }
  return { errors };
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

/** The node path of a CEL finding (`<node>.x-kubernetes-validations[i]...`), or undefined. */
function celNodeOf(field: string): string | undefined {
  const i = field.indexOf('.x-kubernetes-validations[');
  if (i >= 0) return field.slice(0, i);
  if (field.startsWith('x-kubernetes-validations[')) return '';
  return undefined;
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
      return [
        invalid(
          fldPath.child('openAPIV3Schema'),
          schema,
          `only [${ALLOWED_AT_ROOT_WITH_STATUS.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`,
        ),
      ];
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
      const defaultErrs = guarded(schemaPath, () => validateSchemaDefaults(schema, schemaPath, opts.requirePrunedDefaults)) ?? [];
      if (defaultErrs.length > 0) allErrs.push(...defaultErrs);
      else celAllowed = true;
    }
  }

  const gated: Gate = { paths: new Set(), nodes: new Set() };
  const rootSsv: StandardValidator = { allowDefaults: true, disallowDefaultsReason: '', insideResourceMeta: false, requireValidPropertyType: opts.requireValidPropertyType };
  const { errors } = validateOpenAPISchema(schema, schemaPath, rootSsv, true, true, gated, opts);
  allErrs.push(...errors);

  if (celAllowed) {
    const celErrs =
      guarded(schemaPath, () =>
        validateCrdCelRules(schema, schemaPath, {
          hasSchemaErrors: (n) => gated.nodes.has(n),
          suppressPerExpressionCost: opts.suppressPerExpressionCost,
          preexistingRules: opts.preexistingRules,
          preexistingMessageExpressions: opts.preexistingMessageExpressions,
        }),
      ) ?? [];
    for (const e of celErrs) {
      const node = celNodeOf(e.field);
      if (node !== undefined && gated.paths.has(node)) continue;
      allErrs.push(e);
    }
  }

  if (allErrs.length === 0 && structuralInitErrs.length > 0) allErrs.push(...structuralInitErrs);
  return dedupe(allErrs);
}

/** specHasDefaults / schemaHasKubernetesExtensions style walk (SchemaHas). */
export function schemaHas(s: JSONSchemaProps | undefined, pred: (s: JSONSchemaProps) => boolean): boolean {
  if (!s || !isObject(s)) return false;
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
  if (isObject(s.dependencies)) {
    for (const d of Object.values(s.dependencies)) if (!Array.isArray(d) && schemaHas(obj(d), pred)) return true;
  }
  return false;
}
