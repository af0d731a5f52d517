import type { FieldError } from '../field';
import type { PrunedField } from '../pruning/algorithm';
import type { DefaultedField } from '../defaulting/algorithm';

export interface CustomResourceOptions {
  /** The CRD version to use; by default the one named by the object's apiVersion. */
  version?: string;
  /** Present for an update. */
  oldObject?: unknown;
}

export interface CustomResourceResult {
  /** The object the API server would store (status dropped, pruned, defaulted). */
  object: unknown;
  pruned: PrunedField[];
  defaulted: DefaultedField[];
  /** Errors the API server would return. */
  errors: FieldError[];
  /** Warnings it would send (deprecated version, ...). */
  warnings: FieldError[];
}

/**
 * The API server's create (or update, with oldObject) path for a custom resource against its CRD:
 * pick the version, drop status when the status subresource is on, prune, default, validate, then CEL.
 */
export function validateCustomResource(crd: unknown, obj: unknown, opts: CustomResourceOptions = {}): CustomResourceResult {
  void crd;
  void obj;
  void opts;
  throw new Error('not implemented: custom resource create pipeline');
}
