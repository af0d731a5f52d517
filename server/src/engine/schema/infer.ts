/**
 * What a schema node without `type` most likely holds, from its other keywords. A structural schema
 * (required by apiextensions.k8s.io/v1) needs a `type` on every node the API server walks; schemas
 * written for v1beta1 often leave it out. Used by the NonStructural quick fix and by the v1 migration,
 * so both infer the same type.
 */
import type { JSONSchemaProps } from './types';
import { isJSONObject } from '../json/values';

/** The inferred type; `inferred: false` means nothing in the node says, and `object` is a guess. */
export interface InferredType {
  type: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  inferred: boolean;
  /** The keyword the type was read from (`properties`, `enum`, `default`, ...), when inferred. */
  from?: string;
}

/** The type a schema node without `type` most likely has. */
export function inferType(s: JSONSchemaProps): InferredType {
  if (isJSONObject(s.properties)) return { type: 'object', inferred: true, from: 'properties' };
  if (isJSONObject(s.additionalProperties) || s.additionalProperties === true) return { type: 'object', inferred: true, from: 'additionalProperties' };
  if (s.items !== undefined) return { type: 'array', inferred: true, from: 'items' };
  const fromEnum = Array.isArray(s.enum) && s.enum.length > 0;
  const sample = fromEnum ? s.enum![0] : s.default;
  if (sample !== undefined && sample !== null) {
    const from = fromEnum ? 'enum' : 'default';
    if (typeof sample === 'string') return { type: 'string', inferred: true, from };
    if (typeof sample === 'boolean') return { type: 'boolean', inferred: true, from };
    if (typeof sample === 'bigint') return { type: 'integer', inferred: true, from };
    if (typeof sample === 'number') return { type: Number.isInteger(sample) ? 'integer' : 'number', inferred: true, from };
    if (Array.isArray(sample)) return { type: 'array', inferred: true, from };
    return { type: 'object', inferred: true, from };
  }
  for (const k of ['pattern', 'maxLength', 'minLength'] as const) if (s[k] !== undefined) return { type: 'string', inferred: true, from: k };
  if (s.format === 'date-time') return { type: 'string', inferred: true, from: 'format' };
  for (const k of ['minimum', 'maximum', 'multipleOf'] as const) if (s[k] !== undefined) return { type: 'integer', inferred: true, from: k };
  for (const k of ['maxItems', 'minItems'] as const) if (s[k] !== undefined) return { type: 'array', inferred: true, from: k };
  for (const k of ['maxProperties', 'required'] as const) if (s[k] !== undefined) return { type: 'object', inferred: true, from: k };
  return { type: 'object', inferred: false };
}
