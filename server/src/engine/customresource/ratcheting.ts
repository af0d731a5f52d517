/**
 * A simplified CRDValidationRatcheting (apiextensions-apiserver pkg/apiserver/validation/ratcheting.go):
 * on an update, an OpenAPI error is dropped when the value it is about is unchanged from the old object.
 *
 * Simplification: values are correlated by field and map-key path only (list items are not correlated),
 * and errors without a path (composite anyOf/oneOf/allOf/not messages) are dropped when the whole object
 * is unchanged.
 */
import type { FieldError, PathSegment } from '../field';
import { goDeepEqual, isGoMap } from '../validation/go-values';

function lookup(obj: unknown, segs: PathSegment[]): { found: boolean; value?: unknown } {
  let cur = obj;
  for (const s of segs) {
    if (s.kind === 'index') return { found: false };
    const k = s.kind === 'field' ? s.name : s.key;
    if (!isGoMap(cur) || !Object.prototype.hasOwnProperty.call(cur, k)) return { found: false };
    cur = cur[k];
  }
  return { found: true, value: cur };
}

/** The errors that remain after ratcheting unchanged values. */
export function ratchetOpenAPIErrors(errs: FieldError[], obj: unknown, old: unknown): FieldError[] {
  return errs.filter((e) => {
    const segs = e.segments ?? (e.field === '' ? [] : undefined);
    if (!segs) return true;
    const n = lookup(obj, segs);
    const o = lookup(old, segs);
    if (e.type === 'FieldValueRequired' && segs.length > 0) {
      // A missing required field ratchets when its parent is unchanged.
      const pn = lookup(obj, segs.slice(0, -1));
      const po = lookup(old, segs.slice(0, -1));
      return !(pn.found && po.found && goDeepEqual(pn.value, po.value));
    }
    return !(n.found && o.found && goDeepEqual(n.value, o.value));
  });
}
