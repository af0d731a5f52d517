/**
 * kube-openapi's numberValidator (validate/validator.go): the range of the type and format,
 * multipleOf, maximum, minimum.
 */
import type { PathSegment } from '../field';
import type { JSONSchemaProps } from '../schema/types';
import { asFloat64, asInt64, floatToInt64, formatFloatF, formatGoFloat, isFloat64AJSONInteger, type GoKind } from '../json/go';
import { plainError, type OpenAPIError } from './kube-openapi-errors';
import { IntegralFloat } from '../json/lossless';
import { nameOf, segsOf, type ValuePath, type Result } from './result';
import { num } from './schema';

/** IsValueValidAgainstRange: can the value be converted to the type/format without loss? */
function rangeError(val: unknown, kind: GoKind, typeName: string, format: string, prefix: string, pathName: string): OpenAPIError | undefined {
  // Fast paths: only integer types and the float format can fail; in-range ints need no text.
  if (typeName !== 'integer' && format !== 'float') return undefined;
  if (typeName === 'integer' && kind === 'int' && (format !== 'int32' || (typeof val === 'number' && val >= -2147483648 && val <= 2147483647))) {
    return undefined;
  }
  const rep = kind === 'int' ? asInt64(val).toString() : formatFloatF(asFloat64(val));
  let bad = false;
  if (typeName === 'integer') {
    if (!/^[+-]?[0-9]+$/.test(rep)) bad = true;
    else {
      const n = BigInt(rep);
      if (format === 'int32') bad = n < -(2n ** 31n) || n > 2n ** 31n - 1n;
      else bad = n < -(2n ** 63n) || n > 2n ** 63n - 1n;
    }
  } else if (format === 'float') {
    bad = !Number.isFinite(Math.fround(Number(rep)));
  }
  if (!bad) return undefined;
  return plainError(format !== '' ? `${prefix} value must be of type ${typeName} with format ${format} in ${pathName}` : `${prefix} value must be of type ${typeName} (default format) in ${pathName}`);
}

/** numberValidator: range of the type/format, multipleOf, maximum, minimum. */
export function compileNumber(s: JSONSchemaProps, types: string[], format: string): (data: unknown, kind: GoKind, path: ValuePath | null) => Result {
  let typeName = '';
  let fmt = '';
  if (types.length === 1) {
    if (types[0] === 'integer') {
      typeName = 'integer';
      if (format === 'int32' || format === 'int64') fmt = format;
    } else if (types[0] === 'number') {
      typeName = 'number';
      if (format === 'float' || format === 'double') fmt = format;
    }
  }
  const multipleOf = num(s.multipleOf);
  const maximum = num(s.maximum);
  const minimum = num(s.minimum);
  const exclMax = s.exclusiveMaximum === true;
  const exclMin = s.exclusiveMinimum === true;
  // Whether each bound itself fits the type/format is a property of the schema: decide it once.
  const boundFits = (b: number | undefined) => b === undefined || rangeError(b, 'float', typeName, fmt, '', '') === undefined;
  const multipleOfFits = boundFits(multipleOf);
  const minimumFits = boundFits(minimum);
  const maximumFits = boundFits(maximum);
  /**
   * minimum or maximum: the bound's own range error, else the value against it, as int64s when both are
   * integers and as float64s otherwise (the float64 comparison reports the value as a float64 too).
   */
  const boundCheck = (which: 'Minimum' | 'Maximum', fits: boolean, exclusive: boolean) => {
    const min = which === 'Minimum';
    const beyond = <T extends number | bigint>(v: T, m: T) => (min ? (exclusive ? v <= m : v < m) : exclusive ? v >= m : v > m);
    return (bound: number, val: unknown, kind: GoKind, data: number, name: string, seg: PathSegment[] | undefined): OpenAPIError[] => {
      const out: OpenAPIError[] = [];
      const boundErr = fits ? undefined : rangeError(bound, 'float', typeName, fmt, `${which} boundary`, name);
      if (boundErr) out.push(boundErr);
      let fail: boolean;
      let shown: string;
      let value: unknown = val;
      if (!boundErr && kind === 'int') {
        const m = floatToInt64(bound);
        fail = beyond(asInt64(val), m);
        shown = m.toString();
      } else {
        fail = beyond(data, bound);
        shown = formatGoFloat(bound);
        value = asGoFloat(data);
      }
      if (fail) out.push({ code: min ? 'Min' : 'Max', name, segments: seg, value, message: `${name} in body should be ${min ? 'greater' : 'less'} than ${exclusive ? '' : 'or equal to '}${shown}` });
      return out;
    };
  };
  const minimumErrors = boundCheck('Minimum', minimumFits, exclMin);
  const maximumErrors = boundCheck('Maximum', maximumFits, exclMax);
  const noBounds = multipleOf === undefined && maximum === undefined && minimum === undefined;
  return (val, kind, path) => {
    if (noBounds && typeName !== 'integer' && fmt !== 'float') return { errors: [], matchCount: 1 };
    const name = nameOf(path);
    const res: Result = { errors: [], matchCount: 1 };
    const r = rangeError(val, kind, typeName, fmt, 'Checked', name);
    if (r) res.errors.push(r);
    const data = asFloat64(val);
    const more: OpenAPIError[] = [];
    const seg = segsOf(path);
    if (multipleOf !== undefined) {
      const boundErr = multipleOfFits ? undefined : rangeError(multipleOf, 'float', typeName, fmt, 'MultipleOf', name);
      if (boundErr) more.push(boundErr);
      const e = !boundErr && kind === 'int' ? multipleOfInt(name, seg, asInt64(val), floatToInt64(multipleOf)) : multipleOfFloat(name, seg, data, multipleOf, asGoFloat(data));
      if (e) more.push(e);
    }
    const minMore = minimum === undefined ? [] : minimumErrors(minimum, val, kind, data, name, seg);
    const maxMore = maximum === undefined ? [] : maximumErrors(maximum, val, kind, data, name, seg);
    res.errors.push(...more, ...minMore, ...maxMore);
    return res;
  };
}

/** A float64 as a decoded value: integral ones boxed so they keep printing as Go floats (1e+20). */
function asGoFloat(f: number): unknown {
  return Number.isInteger(f) ? new IntegralFloat(f) : f;
}

function multipleOfInt(name: string, segments: PathSegment[] | undefined, v: bigint, factor: bigint): OpenAPIError | undefined {
  if (factor <= 0n) return { code: 'MultipleOfMustBePositive', name, segments, value: factor, message: `factor MultipleOf declared for ${name} must be positive: ${factor}` };
  if ((v / factor) * factor !== v) return { code: 'MultipleOf', name, segments, value: v, message: `${name} in body should be a multiple of ${factor}` };
  return undefined;
}

function multipleOfFloat(name: string, segments: PathSegment[] | undefined, data: number, factor: number, raw: unknown): OpenAPIError | undefined {
  if (factor <= 0) return { code: 'MultipleOfMustBePositive', name, segments, value: factor, message: `factor MultipleOf declared for ${name} must be positive: ${formatGoFloat(factor)}` };
  const mult = factor < 1 ? (1 / factor) * data : data / factor;
  if (!isFloat64AJSONInteger(mult)) return { code: 'MultipleOf', name, segments, value: raw, message: `${name} in body should be a multiple of ${formatGoFloat(factor)}` };
  return undefined;
}
