/**
 * A value a schema node accepts, for "add required field": its default, its first enum value, or a small
 * value of its type and format within its bounds (recursively for required properties), checked with the
 * engine's OpenAPI validation. Undefined when nothing simple validates (e.g. an unusual pattern).
 */
import type { JSONSchemaProps } from '../../engine/schema/types';
import { validateAgainstSchema } from '../../engine/validation/schema';
import { isJSONObject } from '../../engine/json/values';

/** Sample strings per format, each valid for it. */
const FORMAT_SAMPLES: Record<string, string> = {
  'date-time': '1970-01-01T00:00:00Z',
  datetime: '1970-01-01T00:00:00Z',
  date: '1970-01-01',
  duration: '0s',
  uuid: '00000000-0000-0000-0000-000000000000',
  uuid3: '00000000-0000-3000-8000-000000000000',
  uuid4: '00000000-0000-4000-8000-000000000000',
  uuid5: '00000000-0000-5000-8000-000000000000',
  email: 'user@example.com',
  hostname: 'example.com',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  cidr: '10.0.0.0/8',
  uri: 'https://example.com',
  byte: '',
  mac: '00:00:00:00:00:00',
};

/** Strings tried, in order, when the node has a pattern or length bounds. */
const STRING_SAMPLES = ['', 'example', 'a', '0', 'example-1', 'Example', 'a.example.com', 'x'];

/** How deep required properties are filled in. */
const MAX_DEPTH = 4;

export function minimalValidValue(s: JSONSchemaProps): { value: unknown } | undefined {
  for (const v of candidates(s, 0)) {
    if (validates(s, v)) return { value: v };
  }
  return undefined;
}

function validates(s: JSONSchemaProps, v: unknown): boolean {
  try {
    return validateAgainstSchema(s, v).errors.length === 0;
  } catch {
    return false;
  }
}

function* candidates(s: JSONSchemaProps, depth: number): Generator<unknown> {
  if (s.default !== undefined && s.default !== null) yield s.default;
  if (Array.isArray(s.enum)) for (const e of s.enum.slice(0, 10)) if (e !== null) yield e;
  if (depth > MAX_DEPTH) return;
  const type = s['x-kubernetes-int-or-string'] ? 'int-or-string' : s.type;
  switch (type) {
    case 'string': {
      const f = typeof s.format === 'string' ? FORMAT_SAMPLES[s.format] : undefined;
      if (f !== undefined) yield f;
      const min = typeof s.minLength === 'number' ? s.minLength : 0;
      for (const c of STRING_SAMPLES) if (c.length >= min) yield c;
      for (const c of STRING_SAMPLES) if (c.length < min) yield c + 'a'.repeat(min - c.length);
      return;
    }
    case 'integer':
    case 'number': {
      yield numberWithin(s, type === 'integer');
      return;
    }
    case 'int-or-string':
      yield 0;
      yield '';
      return;
    case 'boolean':
      yield false;
      return;
    case 'array': {
      const n = typeof s.minItems === 'number' ? s.minItems : 0;
      if (n === 0) {
        yield [];
        return;
      }
      const items = isJSONObject(s.items) && !Array.isArray(s.items) ? (s.items as JSONSchemaProps) : undefined;
      const item = items ? minimalAt(items, depth + 1) : undefined;
      // Set and map lists cannot hold the same item twice.
      if (item && (n === 1 || s['x-kubernetes-list-type'] === undefined || s['x-kubernetes-list-type'] === 'atomic')) yield Array.from({ length: n }, () => structuredClone(item.value));
      return;
    }
    case 'object':
    case undefined: {
      const o: Record<string, unknown> = {};
      const props = isJSONObject(s.properties) ? (s.properties as Record<string, JSONSchemaProps>) : {};
      for (const r of Array.isArray(s.required) ? s.required : []) {
        const p = props[r];
        const v = p ? minimalAt(p, depth + 1) : undefined;
        if (!v) return;
        o[r] = v.value;
      }
      if (type === 'object' || Object.keys(o).length) yield o;
      return;
    }
  }
}

function minimalAt(s: JSONSchemaProps, depth: number): { value: unknown } | undefined {
  for (const v of candidates(s, depth)) if (validates(s, v)) return { value: v };
  return undefined;
}

function numberWithin(s: JSONSchemaProps, integer: boolean): number {
  let v = typeof s.minimum === 'number' ? s.minimum : typeof s.maximum === 'number' && s.maximum < 0 ? s.maximum : 0;
  if (typeof s.minimum === 'number' && s.exclusiveMinimum === true) v = integer ? Math.floor(v) + 1 : v + 1;
  if (typeof s.multipleOf === 'number' && s.multipleOf > 0) v = Math.ceil(v / s.multipleOf) * s.multipleOf;
  if (integer) v = Math.ceil(v);
  return v;
}
