import type { PathSegment } from '../field';
import type { JSONSchemaProps } from '../schema/types';

export interface PruneOptions {
  /** The value is a whole resource: apiVersion, kind and metadata at its root are skipped. */
  isResourceRoot: boolean;
}

export type PruneReason = 'unknown field' | 'unknown field in embedded resource' | 'no schema below additionalProperties or items';

export interface PrunedField {
  /** The field path as the API server prints it (`spec.foo[0].bar`). */
  path: string;
  segments: PathSegment[];
  reason: PruneReason;
}

export interface PruneResult {
  /** A pruned copy; the input is not changed. */
  object: unknown;
  pruned: PrunedField[];
}

/** apiextensions-apiserver pkg/apiserver/schema/pruning.Prune, reporting what it removed. */
export function pruneUnknownFields(obj: unknown, schema: JSONSchemaProps, opts: PruneOptions): PruneResult {
  void obj;
  void schema;
  void opts;
  throw new Error('not implemented: pruning');
}
