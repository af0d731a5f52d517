/**
 * ValidateStructural (apiextensions-apiserver pkg/apiserver/schema/validation.go): the invariants of a
 * structural schema, on the structural model.
 */
import { errorMessage, FieldPath, forbidden, invalid, required, withParams, type FieldError } from '../field';
import { memoAt, rebaseErrors } from '../field/memo';
import { compilePattern } from '../regex/re2';
import { validateStructuralCompleteness } from './complete';
import type { Extensions, Generic, NestedValueValidation, Structural, ValueValidation } from './model';
import { propertyOf } from './model';

type Level = 'root' | 'item' | 'field';

/**
 * ValidateStructural(fldPath, s): the NonStructural violations of s (invariants plus completeness),
 * sorted by their message as Go sorts them. fldPath defaults to the schema root.
 */
export function validateStructural(s: Structural, fldPath: FieldPath = FieldPath.root()): FieldError[] {
  const errs = [...validateStructuralInvariants(s, 'root', fldPath), ...validateStructuralCompleteness(s, fldPath)];
  const keyed = errs.map((e) => ({ e, k: errorMessage(e) }));
  keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  return keyed.map((x) => x.e);
}

function validateStructuralInvariants(s: Structural | undefined, lvl: Level, fldPath: FieldPath): FieldError[] {
  if (!s) return [];
  return memoAt('schema.structuralInvariants', s, lvl, fldPath, () => nodeInvariants(s, lvl, fldPath), rebaseErrors);
}

function nodeInvariants(s: Structural, lvl: Level, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (s.type === 'array' && !s.items) errs.push(required(fldPath.child('items'), 'must be specified'));
  errs.push(...validateStructuralInvariants(s.items, 'item', fldPath.child('items')));
  for (const [k, v] of Object.entries(s.properties ?? {})) {
    errs.push(...validateStructuralInvariants(v, 'field', fldPath.child('properties').key(k)));
  }
  if (s.additionalProperties) {
    if (lvl === 'root') errs.push(forbidden(fldPath.child('additionalProperties'), 'must not be used at the root'));
    if (s.additionalProperties.structural) {
      errs.push(...validateStructuralInvariants(s.additionalProperties.structural, 'field', fldPath.child('additionalProperties')));
    }
  }
  errs.push(...validateExtensions(s, fldPath));

  const skipAnyOf = isIntOrStringAnyOfPattern(s);
  const skipFirstAllOfAnyOf = isIntOrStringAllOfPattern(s);
  errs.push(...validateValueValidation(s.valueValidation, skipAnyOf, skipFirstAllOfAnyOf, lvl, fldPath));

  const checkMetadata = lvl === 'root' || s.xEmbeddedResource;
  if (s.xEmbeddedResource && s.type !== 'object') {
    const params = { origin: 'structural', keyword: 'type', expectedType: 'object', conflictsWith: 'x-kubernetes-embedded-resource' };
    if (s.type.length === 0) errs.push(withParams(required(fldPath.child('type'), 'must be object if x-kubernetes-embedded-resource is true'), params));
    else errs.push(withParams(invalid(fldPath.child('type'), s.type, 'must be object if x-kubernetes-embedded-resource is true'), params));
  } else if (s.type.length === 0 && !s.xIntOrString && !s.xPreserveUnknownFields) {
    const detail = lvl === 'root' ? 'must not be empty at the root' : lvl === 'item' ? 'must not be empty for specified array items' : 'must not be empty for specified object fields';
    errs.push(withParams(required(fldPath.child('type'), detail), { origin: 'structural', keyword: 'type' }));
  }
  if (s.xEmbeddedResource && s.additionalProperties) {
    errs.push(forbidden(fldPath.child('additionalProperties'), 'must not be used if x-kubernetes-embedded-resource is set'));
  }
  if (lvl === 'root' && s.type.length > 0 && s.type !== 'object') {
    errs.push(invalid(fldPath.child('type'), s.type, 'must be object at the root'));
  }
  const kind = propertyOf(s.properties, 'kind');
  if (kind && checkMetadata && kind.type !== 'string') {
    errs.push(invalid(fldPath.child('properties').key('kind').child('type'), kind.type, 'must be string'));
  }
  const apiVersion = propertyOf(s.properties, 'apiVersion');
  if (apiVersion && checkMetadata && apiVersion.type !== 'string') {
    errs.push(invalid(fldPath.child('properties').key('apiVersion').child('type'), apiVersion.type, 'must be string'));
  }
  const metadata = propertyOf(s.properties, 'metadata');
  if (metadata) errs.push(...validateStructuralMetadataInvariants(metadata, checkMetadata, lvl, fldPath.child('properties').key('metadata')));
  if (s.xEmbeddedResource && !s.xPreserveUnknownFields && Object.keys(s.properties ?? {}).length === 0) {
    errs.push(required(fldPath.child('properties'), 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
  return errs;
}

/**
 * At the root, metadata may only restrict name and generateName (anything else is Forbidden); at the
 * root and in embedded resources it must be of type object.
 */
function validateStructuralMetadataInvariants(s: Structural, checkMetadata: boolean, lvl: Level, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (checkMetadata && s.type !== 'object') errs.push(invalid(fldPath.child('type'), s.type, 'must be object'));
  if (lvl === 'root') {
    // Go compares a copy with type, default and a name/generateName-only properties cleared against the zero schema
    const names = Object.keys(s.properties ?? {});
    const onlyNames = names.length > 0 && names.every((n) => n === 'name' || n === 'generateName');
    const rest =
      s.items !== undefined ||
      (names.length > 0 && !onlyNames) ||
      s.additionalProperties !== undefined ||
      s.description !== '' ||
      s.title !== '' ||
      s.nullable ||
      s.externalDocs !== undefined ||
      s.example !== undefined ||
      !isZeroExtensions(s) ||
      s.xValidations !== undefined ||
      (s.valueValidation !== undefined && !isZeroValueValidation(s.valueValidation));
    if (rest) errs.push(withParams(forbidden(fldPath, 'must not specify anything other than name and generateName, but metadata is implicitly specified'), { origin: 'structural', keyword: 'metadata' }));
  }
  return errs;
}

function validateExtensions(x: Extensions, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (x.xIntOrString && x.xPreserveUnknownFields) {
    errs.push(
      withParams(invalid(fldPath.child('x-kubernetes-preserve-unknown-fields'), x.xPreserveUnknownFields, 'must be false if x-kubernetes-int-or-string is true'), {
        origin: 'structural',
        keyword: 'x-kubernetes-preserve-unknown-fields',
        conflictsWith: 'x-kubernetes-int-or-string',
      }),
    );
  }
  if (x.xIntOrString && x.xEmbeddedResource) {
    errs.push(
      withParams(invalid(fldPath.child('x-kubernetes-embedded-resource'), x.xEmbeddedResource, 'must be false if x-kubernetes-int-or-string is true'), {
        origin: 'structural',
        keyword: 'x-kubernetes-embedded-resource',
        conflictsWith: 'x-kubernetes-int-or-string',
      }),
    );
  }
  return errs;
}

function validateValueValidation(v: ValueValidation | undefined, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, lvl: Level, fldPath: FieldPath): FieldError[] {
  if (!v) return [];
  const errs: FieldError[] = [];
  if (!skipAnyOf) {
    (v.anyOf ?? []).forEach((n, i) => errs.push(...validateNestedValueValidation(n, false, lvl, fldPath.child('anyOf').index(i))));
  }
  (v.allOf ?? []).forEach((n, i) => errs.push(...validateNestedValueValidation(n, skipFirstAllOfAnyOf && i === 0, lvl, fldPath.child('allOf').index(i))));
  (v.oneOf ?? []).forEach((n, i) => errs.push(...validateNestedValueValidation(n, false, lvl, fldPath.child('oneOf').index(i))));
  errs.push(...validateNestedValueValidation(v.not, false, lvl, fldPath.child('not')));
  if (v.pattern.length > 0) {
    // A pattern too large to compile here is not judged (values are then not matched, and say so).
    const re = compilePattern(v.pattern);
    if (re.kind === 'invalid') errs.push(invalid(fldPath.child('pattern'), v.pattern, `must be a valid regular expression, but isn't: ${re.error}`));
  }
  return errs;
}

function validateNestedValueValidation(v: NestedValueValidation | undefined, skipAnyOf: boolean, lvl: Level, fldPath: FieldPath): FieldError[] {
  if (!v) return [];
  const errs: FieldError[] = [];
  errs.push(...validateValueValidation(v.valueValidation, skipAnyOf, false, lvl, fldPath));
  errs.push(...validateNestedValueValidation(v.items, false, lvl, fldPath.child('items')));
  for (const [k, fld] of Object.entries(v.properties ?? {})) {
    errs.push(...validateNestedValueValidation(fld, false, 'field', fldPath.child('properties').key(k)));
  }
  const g = v.forbiddenGenerics;
  const x = v.forbiddenExtensions;
  if (g.type.length > 0) errs.push(inJunctor(forbidden(fldPath.child('type'), 'must be empty to be structural'), 'type'));
  // CRDs never enable AllowNestedAdditionalProperties, so the nested schema is not descended into
  if (v.additionalProperties) errs.push(inJunctor(forbidden(fldPath.child('additionalProperties'), 'must be undefined to be structural'), 'additionalProperties'));
  if (g.default !== undefined) errs.push(inJunctor(forbidden(fldPath.child('default'), 'must be undefined to be structural'), 'default'));
  if (g.title.length > 0) errs.push(inJunctor(forbidden(fldPath.child('title'), 'must be empty to be structural'), 'title'));
  if (g.description.length > 0) errs.push(inJunctor(forbidden(fldPath.child('description'), 'must be empty to be structural'), 'description'));
  if (g.nullable) errs.push(inJunctor(forbidden(fldPath.child('nullable'), 'must be false to be structural'), 'nullable'));
  if (x.xPreserveUnknownFields) errs.push(inJunctor(forbidden(fldPath.child('x-kubernetes-preserve-unknown-fields'), 'must be false to be structural'), 'x-kubernetes-preserve-unknown-fields'));
  if (x.xEmbeddedResource) errs.push(inJunctor(forbidden(fldPath.child('x-kubernetes-embedded-resource'), 'must be false to be structural'), 'x-kubernetes-embedded-resource'));
  if (x.xIntOrString) errs.push(inJunctor(forbidden(fldPath.child('x-kubernetes-int-or-string'), 'must be false to be structural'), 'x-kubernetes-int-or-string'));
  if ((x.xListMapKeys?.length ?? 0) > 0) errs.push(inJunctor(forbidden(fldPath.child('x-kubernetes-list-map-keys'), 'must be empty to be structural'), 'x-kubernetes-list-map-keys'));
  if (x.xListType !== undefined) errs.push(inJunctor(forbidden(fldPath.child('x-kubernetes-list-type'), 'must be undefined to be structural'), 'x-kubernetes-list-type'));
  if (x.xMapType !== undefined) errs.push(inJunctor(forbidden(fldPath.child('x-kubernetes-map-type'), 'must be undefined to be structural'), 'x-kubernetes-map-type'));
  if ((v.xValidations?.length ?? 0) > 0) errs.push(inJunctor(forbidden(fldPath.child('x-kubernetes-validations'), 'must be empty to be structural'), 'x-kubernetes-validations'));
  // forbid reasoning about metadata because it can lead to metadata restriction we don't want
  if (propertyOf(v.properties, 'metadata')) {
    errs.push(inJunctor(forbidden(fldPath.child('properties').key('metadata'), 'must not be specified in a nested context'), 'metadata'));
  }
  return errs;
}

/** A keyword not allowed inside a junctor (allOf/anyOf/oneOf/not): the parameters its fixes read. */
function inJunctor(e: FieldError, keyword: string): FieldError {
  return withParams(e, { origin: 'structural', keyword, inJunctor: true });
}

/** anyOf is exactly [{type: integer}, {type: string}] (Go's reflect.DeepEqual with intOrStringAnyOf). */
export function isIntOrStringAnyOfPattern(s: Structural | undefined): boolean {
  return isIntOrStringAnyOf(s?.valueValidation?.anyOf);
}

/** allOf[0].anyOf is exactly [{type: integer}, {type: string}]. */
export function isIntOrStringAllOfPattern(s: Structural | undefined): boolean {
  const allOf = s?.valueValidation?.allOf;
  return !!allOf && allOf.length >= 1 && isIntOrStringAnyOf(allOf[0].valueValidation.anyOf);
}

function isIntOrStringAnyOf(anyOf: NestedValueValidation[] | undefined): boolean {
  return !!anyOf && anyOf.length === 2 && isBareTypeBranch(anyOf[0], 'integer') && isBareTypeBranch(anyOf[1], 'string');
}

/** A junctor branch holding nothing but `type: <t>`. */
function isBareTypeBranch(n: NestedValueValidation, t: string): boolean {
  return (
    n.forbiddenGenerics.type === t &&
    isZeroGeneric({ ...n.forbiddenGenerics, type: '' }) &&
    isZeroExtensions(n.forbiddenExtensions) &&
    isZeroValueValidation(n.valueValidation) &&
    n.xValidations === undefined &&
    n.items === undefined &&
    n.properties === undefined &&
    n.additionalProperties === undefined
  );
}

function isZeroGeneric(g: Generic): boolean {
  return g.description === '' && g.type === '' && g.title === '' && g.default === undefined && !g.nullable && g.externalDocs === undefined && g.example === undefined;
}

function isZeroExtensions(x: Extensions): boolean {
  return !x.xPreserveUnknownFields && !x.xEmbeddedResource && !x.xIntOrString && x.xListMapKeys === undefined && x.xListType === undefined && x.xMapType === undefined;
}

/** Every field of the value validation is unset (Go's zero ValueValidation). */
export function isZeroValueValidation(v: ValueValidation): boolean {
  return (
    v.format === '' &&
    v.maximum === undefined &&
    !v.exclusiveMaximum &&
    v.minimum === undefined &&
    !v.exclusiveMinimum &&
    v.maxLength === undefined &&
    v.minLength === undefined &&
    v.pattern === '' &&
    v.maxItems === undefined &&
    v.minItems === undefined &&
    !v.uniqueItems &&
    v.multipleOf === undefined &&
    v.enum === undefined &&
    v.maxProperties === undefined &&
    v.minProperties === undefined &&
    v.required === undefined &&
    v.allOf === undefined &&
    v.oneOf === undefined &&
    v.anyOf === undefined &&
    v.not === undefined
  );
}
