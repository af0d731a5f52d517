import type { PathSegment } from '../field';
import type { JSONSchemaProps } from '../schema/types';

export interface DefaultOptions {
  isResourceRoot: boolean;
}

export interface DefaultedField {
  path: string;
  segments: PathSegment[];
  /** `default` when a default was applied, `null removed` when a non-nullable null without default was dropped. */
  action: 'default' | 'null removed';
  value?: unknown;
}

export interface DefaultResult {
  /** A defaulted copy; the input is not changed. */
  object: unknown;
  defaulted: DefaultedField[];
}

/**
 * The API server's defaulting step: PruneNonNullableNullsWithoutDefaults, then Default
 * (apiextensions-apiserver pkg/apiserver/schema/defaulting). Unknown fields are not pruned here.
 */
export function defaultCustomResource(obj: unknown, schema: JSONSchemaProps, opts: DefaultOptions): DefaultResult {
  void obj;
  void schema;
  void opts;
  throw new Error('not implemented: defaulting');
}
