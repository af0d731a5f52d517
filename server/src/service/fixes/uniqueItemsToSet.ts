/** `uniqueItems: true` is forbidden (quadratic): `x-kubernetes-list-type: set` says the same, linearly. */
import { findWrittenPath, keyRange, nodeRange, type Node } from '../../yaml/file';
import { edit, fix, placed } from './edits';
import { hasKey, removePair } from '../../yaml/sourceEdits';
import type { FixProvider } from './types';

export const uniqueItemsToSet: FixProvider = {
  id: 'uniqueItemsToSet',
  matches: (f) => f.document === 'crd' && f.params?.origin === 'uniqueItems',
  fixes(ctx, f) {
    const segs = f.segments ?? [];
    const m = findWrittenPath(ctx.doc, segs);
    if (!m.pair) return [];
    if (hasKey(findWrittenPath(ctx.doc, segs.slice(0, -1)).node, 'x-kubernetes-list-type')) {
      const e = placed(ctx.td, removePair(ctx.td.getText(), ctx.doc, m.pair));
      return e ? [fix('Remove "uniqueItems: true"', f, [e])] : [];
    }
    const k = keyRange(ctx.doc, m.pair)!;
    const v = nodeRange(ctx.doc, m.pair.value as Node) ?? k;
    return [fix('Replace "uniqueItems: true" with "x-kubernetes-list-type: set"', f, [edit(ctx.td, k[0], v[1], 'x-kubernetes-list-type: set')])];
  },
};
