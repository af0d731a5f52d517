/**
 * A built-in object's fields read as the API server's Go structs hold them after decoding: a missing or
 * mistyped field is the zero value (schema validation reports the type; these checks must not throw on it).
 */
import { FieldPath } from '../../field';
import { goKind, asInt64 } from '../../json/go';
import { isJSONObject } from '../../json/values';

export type JSONObject = Record<string, unknown>;

/** A struct field: the object, or an empty one (Go's zero struct). */
export const obj = (v: unknown): JSONObject => (isJSONObject(v) ? v : {});
/** A pointer to a struct: the object, or undefined (nil). */
export const ptr = (v: unknown): JSONObject | undefined => (isJSONObject(v) ? v : undefined);
/** A slice: its items, or none. */
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** A string field: the string, or "". */
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
/** An integer field: its value, or 0 (undefined when it is set but not an integer, so no check runs on it). */
export function int(v: unknown): number | undefined {
  if (v === undefined || v === null) return 0;
  return intValue(v);
}
/** A *int32 / *int64 field: undefined when nil or not an integer. */
export function intPtr(v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  return intValue(v);
}
/** An int64 as a number, undefined when v is no integer; a safe integer is its own value (-0 reads 0), without the bigint round trip. */
function intValue(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v === 0 ? 0 : v;
  return goKind(v) === 'int' ? Number(asInt64(v)) : undefined;
}
/**
 * A map[string]string: string values only (others are decoding errors, reported elsewhere). The map
 * itself when it holds only strings (callers only read it; copy it to keep it in an error), else a copy.
 */
export function stringMap(v: unknown): Record<string, string> {
  if (!isJSONObject(v)) return {};
  for (const k in v) if (typeof v[k] !== 'string' || k === '__proto__') return stringsOf(v);
  return v as Record<string, string>;
}
/** The string entries of a map ("__proto__" is no key a copy can hold). */
function stringsOf(v: JSONObject): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x;
  return out;
}
/** The paths of an object's spec and metadata, made once (paths are immutable). */
export const SPEC_PATH = FieldPath.root('spec');
export const METADATA_PATH = FieldPath.root('metadata');
/** A field that is set (not absent, not null): Go's non-nil pointer. */
export const isSet = (v: unknown): boolean => v !== undefined && v !== null;
