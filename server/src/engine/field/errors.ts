/**
 * Kubernetes field errors (k8s.io/apimachinery/pkg/util/validation/field), as data.
 *
 * Every finding of the engine is a FieldError: the Kubernetes error type, the field path as the
 * API server prints it, the bad value, the detail, plus what the editor needs (severity, provenance).
 */

export type ErrorType =
  | 'FieldValueRequired'
  | 'FieldValueInvalid'
  | 'FieldValueForbidden'
  | 'FieldValueNotSupported'
  | 'FieldValueDuplicate'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueTypeInvalid'
  | 'FieldValueNotFound'
  | 'InternalError'
  /** crd-yaml's own, never the API server's: a bound (work, size) stopped a check; see notChecked. */
  | 'NotChecked';

/** Marker for "no bad value printed" (Go's field.OmitValueType). */
export const OMIT_VALUE: unique symbol = Symbol('omitValue');

export interface Provenance {
  /** CRD metadata.name, e.g. `crontabs.stable.example.com`. */
  crd?: string;
  /** CRD version name. */
  version?: string;
  /** The CEL rule text, for findings that come from x-kubernetes-validations. */
  rule?: string;
  /** Schema path of the rule, e.g. `openAPIV3Schema.properties[spec].x-kubernetes-validations[0]`. */
  rulePath?: string;
}

export interface FieldError {
  type: ErrorType;
  /** The field path as Kubernetes prints it; `""` for the root or a nil path (`<nil>` in Go). */
  field: string;
  /** The offending value (printed in the message for most types), or OMIT_VALUE. */
  badValue?: unknown;
  /** The detail text after the type and value. */
  detail: string;
  /** Editor severity; API server errors are `error`, API server warnings are `warning`. */
  severity?: 'error' | 'warning' | 'information';
  /** Which CRD, version and rule produced it. */
  provenance?: Provenance;
  /**
   * Where in a CEL rule string the problem is (0-based offsets inside the rule text), for compile errors.
   */
  ruleRange?: { start: number; end: number };
  /** Field path segments that led here, kept for YAML range mapping (see yaml/ layer). */
  segments?: PathSegment[];
  /**
   * Structured facts set where the error is created (as ajv's `params` and apimachinery's
   * `field.Error.Origin`): what short messages and quick fixes read, so nothing parses `detail` back.
   */
  params?: FieldErrorParams;
}

/**
 * The parameters of a field error. Every member is optional: producers set what they know, consumers
 * (service/messages.ts, service/fixes/) use what is there and fall back to the API server's text.
 */
export interface FieldErrorParams {
  /**
   * The check that failed, like apimachinery's `Origin`: an OpenAPI keyword of value validation
   * (`type`, `required`, `enum`, `pattern`, `maxLength`, `minimum`, ...), or one of
   * `structural` (a NonStructural rule), `completeness` (a field only specified under a junctor),
   * `cel` (a rule evaluated to false or failed), `celCompile`, `celCost`, `celSkipped` (rules not run
   * because of blocking errors), `deprecatedVersion`, `unknownField` (strict decoding); set by the service:
   * `v1beta1CRD` (a CRD written as apiextensions.k8s.io/v1beta1), `versionFieldLoss` (fields lost between versions).
   */
  origin?: string;
  /** The detail in the field's own terms, without the path prefix the API server repeats (`should be less than or equal to 10`). */
  reason?: string;
  /** NotSupported / enum: the allowed values as JSON values (not as printed). */
  supportedValues?: unknown[];
  /** The type the schema expects (`type` errors: `integer`, `string`, ...). */
  expectedType?: string;
  /** The schema keyword a CRD finding is about (`type`, `uniqueItems`, `description`, ...). */
  keyword?: string;
  /** The keyword sits inside a junctor (`allOf`/`anyOf`/`oneOf`/`not`) where it is not allowed. */
  inJunctor?: boolean;
  /** Completeness: the junctor path the field is specified under (`because it is defined in ...`). */
  definedIn?: string;
  /** A keyword that conflicts with the one at the path (`x-kubernetes-int-or-string`). */
  conflictsWith?: string;
  /** The names allowed where an unknown one was found (the fields of the object it is in). */
  knownNames?: string[];
  /** Close names for an unknown one, best first ("did you mean"; e.g. an undefined CEL field). */
  suggestions?: string[];
  /** CEL cost findings: the estimate, the limit and what dominates it. */
  cost?: CostParams;
  /**
   * Set by the service, not the engine: the bad value was written as a plain YAML scalar that kubectl
   * reads as a non-string (`off`, `0755`) where a string is expected. `source` is the text as written.
   */
  plainScalar?: { source: string; readAs: string };
  /** Set by the service: the finding applies on update from a baseline (`HEAD`, `the cluster (...)`), not to a new object. */
  update?: { from: string };
  /** Set by the service: a CRD compatibility finding and its category (engine/compat). */
  compat?: { category: string; kind: 'breaking' | 'client' };
}

/** The numbers of a CEL cost finding (apiextensions-apiserver's static cost checks). */
export interface CostParams {
  /** `rule`: one rule over its limit; `total`: the CRD's total; `contribution`: a rule listed under the total. */
  scope: 'rule' | 'total' | 'contribution';
  /** The estimated cost (for `rule` and `contribution`, multiplied by the cardinality of the rule's node). */
  estimated: number;
  /** The limit exceeded (StaticEstimatedCostLimit or StaticEstimatedCRDCostLimit). */
  limit: number;
  /**
   * The unbounded list, map or string that dominates the estimate, as a schema path relative to
   * `openAPIV3Schema` (e.g. `properties[spec].properties[items]`), when known.
   */
  dominant?: { path: string; kind: 'list' | 'map' | 'string' };
  /** Every unbounded list, map or string the estimate depends on (same form), most dominant first. */
  unbounded?: Array<{ path: string; kind: 'list' | 'map' | 'string' }>;
  /**
   * The largest bound on `dominant` that brings the rule under its limit and the CRD's total under its
   * own, computed with the estimator (engine/crd/costadvice.ts); absent when no bound on it alone does.
   */
  maxBound?: { keyword: 'maxItems' | 'maxProperties' | 'maxLength'; value: number };
}

export type PathSegment = { kind: 'field'; name: string } | { kind: 'index'; index: number } | { kind: 'key'; key: string };

const TYPE_STRING: Record<ErrorType, string> = {
  FieldValueRequired: 'Required value',
  FieldValueInvalid: 'Invalid value',
  FieldValueForbidden: 'Forbidden',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueTypeInvalid: 'Invalid value',
  FieldValueNotFound: 'Not found',
  InternalError: 'Internal error',
  NotChecked: 'Not checked',
};

/** The error type as Go's ErrorType.String() prints it. */
export function errorTypeString(t: ErrorType): string {
  return TYPE_STRING[t];
}

/**
 * A bad value as field.Error.ErrorBody prints it (apimachinery v0.37): int64/float64/bool with %v,
 * strings with %q, anything else as JSON (json.Marshal: sorted keys, HTML-escaped), nil as `null`.
 */
export function formatBadValue(v: unknown): string {
  if (v === undefined || v === null) return 'null';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : formatGoFloat(v);
  if (v instanceof IntegralFloat) return formatGoFloat(v.value);
  return goJSON(v);
}

/** Go's field.Error.ErrorBody(): the message without the field path. */
export function errorBody(e: FieldError): string {
  let s: string;
  switch (e.type) {
    case 'FieldValueRequired':
    case 'FieldValueForbidden':
    case 'FieldValueTooLong':
    case 'InternalError':
    case 'NotChecked':
      s = TYPE_STRING[e.type];
      break;
    default:
      if (e.badValue === OMIT_VALUE) s = TYPE_STRING[e.type];
      else s = `${TYPE_STRING[e.type]}: ${formatBadValue(e.badValue)}`;
  }
  if (e.detail) s += `: ${e.detail}`;
  return s;
}

/** Go's field.Error.Error(): `<path>: <body>`, with `<nil>` for the root. */
export function errorMessage(e: FieldError): string {
  return `${e.field === '' ? '<nil>' : e.field}: ${errorBody(e)}`;
}

function make(type: ErrorType, path: FieldPath | string | null, badValue: unknown, detail: string): FieldError {
  const p = typeof path === 'string' || path === null ? null : path;
  const e: FieldError = { type, field: path === null ? '' : typeof path === 'string' ? path : path.toString(), badValue, detail };
  if (p) e.segments = p.segments();
  return e;
}

/** field.Required */
export const required = (p: FieldPath | string | null, detail = '') => make('FieldValueRequired', p, OMIT_VALUE, detail);
/** field.Invalid */
export const invalid = (p: FieldPath | string | null, v: unknown, detail = '') => make('FieldValueInvalid', p, v, detail);
/** field.Forbidden */
export const forbidden = (p: FieldPath | string | null, detail = '') => make('FieldValueForbidden', p, OMIT_VALUE, detail);
/** field.NotSupported: detail lists the supported values as Go prints them. */
export function notSupported(p: FieldPath | string | null, v: unknown, valid: unknown[]): FieldError {
  const quoted = valid.map((x) => (typeof x === 'string' ? JSON.stringify(x) : JSON.stringify(x)));
  const detail = quoted.length ? `supported values: ${quoted.join(', ')}` : '';
  return { ...make('FieldValueNotSupported', p, v, detail), params: { supportedValues: [...valid] } };
}

/** The error with parameters added (those already set are kept unless given again). */
export function withParams(e: FieldError, params: FieldErrorParams): FieldError {
  e.params = { ...e.params, ...params };
  return e;
}
/** field.Duplicate */
export const duplicate = (p: FieldPath | string | null, v: unknown) => make('FieldValueDuplicate', p, v, '');
/** field.NotFound */
export const notFound = (p: FieldPath | string | null, v: unknown) => make('FieldValueNotFound', p, v, '');
/** field.TooLong: `may not be more than N bytes` (`1 byte`; maxLength < 0 means unknown), apimachinery v0.37. */
export function tooLong(p: FieldPath | string | null, v: unknown, maxLength: number): FieldError {
  return make('FieldValueTooLong', p, v, maxLength >= 0 ? `may not be more than ${maxLength} ${maxLength === 1 ? 'byte' : 'bytes'}` : 'value is too long');
}
/** field.TooMany: `must have at most N items` (`1 item`), apimachinery v0.37. */
export function tooMany(p: FieldPath | string | null, actual: number, max: number): FieldError {
  return make('FieldValueTooMany', p, actual, max >= 0 ? `must have at most ${max} ${max === 1 ? 'item' : 'items'}` : 'has too many items');
}
/** field.TypeInvalid */
export const typeInvalid = (p: FieldPath | string | null, v: unknown, detail = '') => make('FieldValueTypeInvalid', p, v, detail);
/** field.InternalError */
export const internalError = (p: FieldPath | string | null, detail: string) => make('InternalError', p, OMIT_VALUE, detail);

/**
 * A check that a bound cut short (`spec.x: Not checked: pattern too expensive for a value of N
 * characters`): an information, never an error, so that the user knows the value was not checked and why.
 */
export function notChecked(p: FieldPath | string | null, detail: string): FieldError {
  return { ...make('NotChecked', p, OMIT_VALUE, detail), severity: 'information' };
}

import type { FieldPath } from './path';
import { IntegralFloat } from '../json/lossless';
import { formatGoFloat, goJSON, goQuote } from '../json/go';
