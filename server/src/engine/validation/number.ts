/**
 * kube-openapi's numberValidator (validate/validator.go): the range of the type and format,
 * multipleOf, maximum, minimum.
 */
import type { JSONSchemaProps } from '../schema/types';
import { asFloat64, asInt64, floatToInt64, formatFloatF, formatGoFloat, isFloat64AJSONInteger, type GoKind } from '../json/go';
import { plainError, type OpenAPIError } from './kube-openapi-errors';
import { IntegralFloat } from '../json/lossless';
import { pathName, pathSegments, type Result } from './result';
import { num } from './schema';

/** IsValueValidAgainstRange: can the value be converted to the type/format without loss? */
function fitsRange(val: unknown, kind: GoKind, typeName: string, format: string): boolean {
  // Fast paths: only integer types and the float format can fail; in-range ints need no text.
  if (typeName !== 'integer' && format !== 'float') return true;
  if (typeName === 'integer' && kind === 'int' && (format !== 'int32' || (typeof val === 'number' && val >= -2147483648 && val <= 2147483647))) {
    return true;
  }
  const rep = kind === 'int' ? asInt64(val).toString() : formatFloatF(asFloat64(val));
  if (typeName === 'integer') {
    if (!/^[+-]?[0-9]+$/.test(rep)) return false;
    const n = BigInt(rep);
    if (format === 'int32') return !(n < -(2n ** 31n) || n > 2n ** 31n - 1n);
    return !(n < -(2n ** 63n) || n > 2n ** 63n - 1n);
  }
  return Number.isFinite(Math.fround(Number(rep)));
}

/** The path-less error of a value (or bound) out of the type/format's range. */
function rangeError(typeName: string, format: string, prefix: string, pathName: string): OpenAPIError {
  return plainError(format !== '' ? `${prefix} value must be of type ${typeName} with format ${format} in ${pathName}` : `${prefix} value must be of type ${typeName} (default format) in ${pathName}`);
}

/** numberValidator: range of the type/format, multipleOf, maximum, minimum. */
export function compileNumber(s: JSONSchemaProps, types: string[], format: string): (data: unknown, kind: GoKind, out: Result) => void {
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
  const boundFits = (b: number | undefined) => b === undefined || fitsRange(b, 'float', typeName, fmt);
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
    return (bound: number, val: unknown, kind: GoKind, data: number, out: OpenAPIError[]): void => {
      if (!fits) out.push(rangeError(typeName, fmt, `${which} boundary`, pathName()));
      let fail: boolean;
      let shown: string;
      let value: unknown = val;
      if (fits && kind === 'int') {
        const m = floatToInt64(bound);
        fail = beyond(asInt64(val), m);
        shown = m.toString();
      } else {
        fail = beyond(data, bound);
        shown = formatGoFloat(bound);
        value = asGoFloat(data);
      }
      if (fail) {
        const name = pathName();
        out.push({ code: min ? 'Min' : 'Max', name, segments: pathSegments(), value, message: `${name} in body should be ${min ? 'greater' : 'less'} than ${exclusive ? '' : 'or equal to '}${shown}` });
      }
    };
  };
  const checkMinimum = boundCheck('Minimum', minimumFits, exclMin);
  const checkMaximum = boundCheck('Maximum', maximumFits, exclMax);
  const noBounds = multipleOf === undefined && maximum === undefined && minimum === undefined;
  // The path's name is spelled only for an error: every number of every object passes here.
  return (val, kind, out) => {
    out.matchCount++;
    if (noBounds && typeName !== 'integer' && fmt !== 'float') return;
    if (!fitsRange(val, kind, typeName, fmt)) out.errors.push(rangeError(typeName, fmt, 'Checked', pathName()));
    if (noBounds) return;
    const data = asFloat64(val);
    if (multipleOf !== undefined) {
      if (!multipleOfFits) out.errors.push(rangeError(typeName, fmt, 'MultipleOf', pathName()));
      const e = multipleOfFits && kind === 'int' ? multipleOfInt(asInt64(val), floatToInt64(multipleOf)) : multipleOfFloat(data, multipleOf);
      if (e) out.errors.push(e);
    }
    if (minimum !== undefined) checkMinimum(minimum, val, kind, data, out.errors);
    if (maximum !== undefined) checkMaximum(maximum, val, kind, data, out.errors);
  };
}

/** A float64 as a decoded value: integral ones boxed so they keep printing as Go floats (1e+20). */
function asGoFloat(f: number): unknown {
  return Number.isInteger(f) ? new IntegralFloat(f) : f;
}

function multipleOfInt(v: bigint, factor: bigint): OpenAPIError | undefined {
  if (factor <= 0n) {
    const name = pathName();
    return { code: 'MultipleOfMustBePositive', name, segments: pathSegments(), value: factor, message: `factor MultipleOf declared for ${name} must be positive: ${factor}` };
  }
  if ((v / factor) * factor !== v) {
    const name = pathName();
    return { code: 'MultipleOf', name, segments: pathSegments(), value: v, message: `${name} in body should be a multiple of ${factor}` };
  }
  return undefined;
}

function multipleOfFloat(data: number, factor: number): OpenAPIError | undefined {
  if (factor <= 0) {
    const name = pathName();
    return { code: 'MultipleOfMustBePositive', name, segments: pathSegments(), value: factor, message: `factor MultipleOf declared for ${name} must be positive: ${formatGoFloat(factor)}` };
  }
  const mult = factor < 1 ? (1 / factor) * data : data / factor;
  if (!isFloat64AJSONInteger(mult)) {
    const name = pathName();
    return { code: 'MultipleOf', name, segments: pathSegments(), value: asGoFloat(data), message: `${name} in body should be a multiple of ${formatGoFloat(factor)}` };
  }
  return undefined;
}
