/**
 * kube-openapi's basicCommonValidator (validate/validator.go): enum.
 */
import { asFloat64, asInt64, floatToInt64, formatGoValue, goDeepEqual, goKind } from '../json/go';
import type { OpenAPIError } from './kube-openapi-errors';
import { pathName, pathSegments } from './result';

/** basicCommonValidator: reflect's convertible-and-DeepEqual comparison against each enum value. */
export function enumMatches(data: unknown, values: unknown[]): boolean {
  // A string converts from no other kind of enum value (an int converts to a string, not from one): it
  // matches an equal string.
  if (typeof data === 'string') return values.includes(data);
  const dk = goKind(data);
  for (const ev of values) {
    const ek = goKind(ev);
    if (ek === 'nil' || dk === 'nil') continue;
    if (dk === ek) {
      if (goDeepEqual(data, ev)) return true;
      continue;
    }
    // reflect.Value.Convert between numeric kinds, and int -> string (a rune).
    if ((dk === 'int' || dk === 'float') && (ek === 'int' || ek === 'float')) {
      if (ek === 'int') {
        const d = dk === 'int' ? asInt64(data) : floatToInt64(asFloat64(data));
        if (d === asInt64(ev)) return true;
      } else if (asFloat64(data) === asFloat64(ev)) return true;
    } else if (dk === 'int' && ek === 'string') {
      const n = asInt64(data);
      const s = n >= 0n && n <= 0x10ffffn && !(n >= 0xd800n && n <= 0xdfffn) ? String.fromCodePoint(Number(n)) : '\ufffd';
      if (s === ev) return true;
    }
  }
  return false;
}

export function enumError(data: unknown, values: unknown[]): OpenAPIError {
  const name = pathName();
  return { code: 'Enum', name, segments: pathSegments(), value: data, values, message: `${name} in body should be one of ${formatGoValue(values)}` };
}
