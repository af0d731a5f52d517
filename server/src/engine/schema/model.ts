/**
 * The structural schema model (apiextensions-apiserver pkg/apiserver/schema/structural.go), as plain data.
 *
 * A Structural is what the API server builds from an openAPIV3Schema (see newStructural in convert.ts):
 * the structure (type, properties, items, additionalProperties) plus the generic fields and vendor
 * extensions, with everything that only validates values kept apart in `valueValidation`. Junctors
 * (allOf/anyOf/oneOf/not) hold NestedValueValidations, which record the structural fields they carry
 * as `forbiddenGenerics`/`forbiddenExtensions`, so that the structural check can reject them.
 *
 * Go embeds Generic, Extensions and ValidationExtensions in Structural; here their fields are flattened
 * into the node the same way (`s.type`, `s.xPreserveUnknownFields`). Values are shared with the raw schema
 * (defaults, enums, examples): treat the model as read-only.
 *
 * "Unset" follows Go's zero values: empty strings, `false`, absent optionals. Slices that Go keeps as
 * non-nil empty slices after decoding (`required: []`, `x-kubernetes-list-map-keys: []`,
 * `x-kubernetes-validations: []`) are kept as empty arrays, because Go's reflect.DeepEqual tells them
 * apart from nil in the metadata and int-or-string shape checks.
 */
import type { ValidationRule } from './types';

/** Go's schema.Generic: fields allowed on structural nodes but forbidden under junctors. */
export interface Generic {
  description: string;
  /** `object`, `array`, `number`, `integer`, `boolean`, `string`, or `''` when unset. */
  type: string;
  title: string;
  /** The default value; `undefined` when there is none (a JSON `default: null` is no default in Go). */
  default?: unknown;
  nullable: boolean;
  externalDocs?: { description: string; url: string };
  /** The example value; `undefined` when there is none. */
  example?: unknown;
}

/** Go's schema.Extensions: the Kubernetes vendor extensions that shape the structure. */
export interface Extensions {
  xPreserveUnknownFields: boolean;
  xEmbeddedResource: boolean;
  xIntOrString: boolean;
  xListMapKeys?: string[];
  xListType?: string;
  xMapType?: string;
}

/** Go's schema.ValidationExtensions. */
export interface ValidationExtensions {
  xValidations?: ValidationRule[];
}

/** Go's schema.ValueValidation: the fields that only validate values. */
export interface ValueValidation {
  format: string;
  maximum?: number;
  exclusiveMaximum: boolean;
  minimum?: number;
  exclusiveMinimum: boolean;
  maxLength?: number;
  minLength?: number;
  pattern: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems: boolean;
  multipleOf?: number;
  enum?: unknown[];
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  allOf?: NestedValueValidation[];
  oneOf?: NestedValueValidation[];
  anyOf?: NestedValueValidation[];
  not?: NestedValueValidation;
}

/** Go's schema.NestedValueValidation: a junctor branch. */
export interface NestedValueValidation extends ValidationExtensions {
  valueValidation: ValueValidation;
  items?: NestedValueValidation;
  /** Present (possibly empty) when the raw branch has a `properties` object. */
  properties?: Record<string, NestedValueValidation>;
  /** Set for `additionalProperties: true` (an empty branch) or a schema; `false` is dropped as in Go. */
  additionalProperties?: NestedValueValidation;
  forbiddenGenerics: Generic;
  forbiddenExtensions: Extensions;
}

/** Go's schema.StructuralOrBool. */
export interface StructuralOrBool {
  structural?: Structural;
  /** `true` when a schema or `true` was given, `false` for `additionalProperties: false`. */
  bool: boolean;
}

/** Go's schema.Structural. */
export interface Structural extends Generic, Extensions, ValidationExtensions {
  items?: Structural;
  /** Only present when non-empty (Go's NewStructural drops an empty `properties`). */
  properties?: Record<string, Structural>;
  additionalProperties?: StructuralOrBool;
  valueValidation?: ValueValidation;
}

/** Own-property lookup of a property schema (guards against keys like `__proto__` or `constructor`). */
export function propertyOf<T>(props: Record<string, T> | undefined, key: string): T | undefined {
  if (!props || !Object.hasOwn(props, key)) return undefined;
  return props[key];
}
