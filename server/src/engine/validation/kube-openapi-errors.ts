/**
 * The error values of kube-openapi's validator (pkg/validation/errors), with their messages, and
 * the translation into Kubernetes field errors that apiextensions-apiserver's
 * kubeOpenAPIResultToFieldErrors does (error types, paths without the leading '.', `<nil>` paths).
 */
import { invalid, notSupported, required, tooLong, tooMany, typeInvalid, type FieldError, type PathSegment } from '../field';
import { goJSON, goQuote } from '../json/go';

export type ValidationCode =
  | 'InvalidType'
  | 'Required'
  | 'TooLong'
  | 'TooShort'
  | 'Pattern'
  | 'Enum'
  | 'MultipleOf'
  | 'Max'
  | 'Min'
  | 'Unique'
  | 'MaxItems'
  | 'MinItems'
  | 'TooFewProperties'
  | 'TooManyProperties'
  | 'UnallowedProperty'
  | 'MultipleOfMustBePositive';

/** One error of a kube-openapi Result: an *errors.Validation (with a code) or a plain error (code undefined). */
export interface OpenAPIError {
  code?: ValidationCode;
  /** err.Name: the kube-openapi path string (`spec.foo`, `.key`, `[0]`, `""` for the root). */
  name: string;
  segments?: PathSegment[];
  value?: unknown;
  /** err.Valid: the limit for TooLong / MaxItems / TooManyProperties. */
  valid?: number;
  values?: unknown[];
  message: string;
  /** InvalidType: the type (or format) the schema wants. */
  typeName?: string;
  /** The keyword, when the code alone does not say it (InvalidType for a `format`). */
  origin?: string;
}

/** The OpenAPI keyword behind each kube-openapi code (FieldErrorParams.origin). */
const ORIGIN: Record<ValidationCode, string> = {
  InvalidType: 'type',
  Required: 'required',
  TooLong: 'maxLength',
  TooShort: 'minLength',
  Pattern: 'pattern',
  Enum: 'enum',
  MultipleOf: 'multipleOf',
  Max: 'maximum',
  Min: 'minimum',
  Unique: 'uniqueItems',
  MaxItems: 'maxItems',
  MinItems: 'minItems',
  TooFewProperties: 'minProperties',
  TooManyProperties: 'maxProperties',
  UnallowedProperty: 'additionalProperties',
  MultipleOfMustBePositive: 'multipleOf',
};

const IN = 'body';

// The type names typeValidator reports a value as, quoted once (a failing anyOf/oneOf branch reports one).
const QUOTED_TYPES = new Map(['null', 'boolean', 'string', 'integer', 'int64', 'number', 'float64', 'array', 'object', ''].map((t) => [t, goQuote(t)]));

/** errors.InvalidType: the message depends on whether the value is a string. */
export function invalidTypeError(name: string, segments: PathSegment[] | undefined, typeName: string, value: unknown, origin?: 'format'): OpenAPIError {
  const message = typeof value === 'string' ? `${name} in ${IN} must be of type ${typeName}: ${QUOTED_TYPES.get(value) ?? goQuote(value)}` : `${name} in ${IN} must be of type ${typeName}`;
  return { code: 'InvalidType', name, segments, value, message, typeName, origin };
}

/** A path-less plain error (composite messages, range checks). */
export function plainError(message: string): OpenAPIError {
  return { name: '', message };
}

/**
 * kubeOpenAPIResultToFieldErrors(nil, result): one field error per kube-openapi error, after the
 * Result's own de-duplication by message.
 */
export function openAPIErrorsToFieldErrors(errors: OpenAPIError[]): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const err of errors) {
    if (seen.has(err.message)) continue;
    seen.add(err.message);
    if (err.code === undefined) {
      out.push(invalid(null, '', err.message));
      continue;
    }
    const path = err.name.length > 0 && err.name !== '.' ? (err.name.startsWith('.') ? err.name.slice(1) : err.name) : null;
    const value = err.value === undefined || err.value === null ? '' : err.value;
    let fe: FieldError;
    switch (err.code) {
      case 'Required':
        fe = required(path, '');
        break;
      case 'Enum':
        fe = notSupported(
          path,
          err.value === undefined ? null : err.value,
          (err.values ?? []).map((v) => (typeof v === 'string' ? v : goJSON(v))),
        );
        break;
      case 'TooLong':
        fe = tooLong(path, '', err.valid ?? -1);
        break;
      case 'MaxItems':
      case 'TooManyProperties':
        fe = tooMany(path, typeof err.value === 'number' ? err.value : -1, err.valid ?? -1);
        break;
      case 'InvalidType':
        fe = typeInvalid(path, value, err.message);
        break;
      default:
        fe = invalid(path, value, err.message);
    }
    if (path !== null && err.segments) fe.segments = err.segments;
    // Parameters: the keyword, the detail without the `<path> in body ` the message starts with, the values.
    const prefix = `${err.name} in ${IN} `;
    fe.params = { ...fe.params, origin: err.origin ?? ORIGIN[err.code] };
    // (Required, Enum, TooLong, MaxItems and TooManyProperties get the field package's own detail.)
    const ownDetail = fe.type === 'FieldValueInvalid' || fe.type === 'FieldValueTypeInvalid';
    if (err.code === 'InvalidType' && err.typeName) fe.params.reason = `must be of type ${err.typeName}`;
    else if (ownDetail && err.message.startsWith(prefix)) fe.params.reason = err.message.slice(prefix.length);
    if (err.code === 'Enum') fe.params.supportedValues = [...(err.values ?? [])];
    if (err.code === 'InvalidType' && err.typeName && err.origin === undefined) fe.params.expectedType = err.typeName;
    out.push(fe);
  }
  return out;
}
