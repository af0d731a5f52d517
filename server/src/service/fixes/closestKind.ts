/**
 * A kind the group does not have (a built-in group's `no matches for kind`, or a kind no known CRD of a
 * known group defines, with "did you mean") is replaced with the kind meant.
 */
import { findWrittenPath, isScalar, nodeRange } from '../../yaml/file';
import { edit, fix } from './edits';
import type { FixProvider } from './types';

export const closestKind: FixProvider = {
  id: 'closestKind',
  matches: (f) => f.document === 'cr' && (f.code === 'NoKindMatch' || f.code === 'UnknownKind') && (f.params?.suggestions?.length ?? 0) > 0,
  fixes(ctx, f) {
    const m = findWrittenPath(ctx.doc, [{ kind: 'field', name: 'kind' }]);
    if (!m.node || !isScalar(m.node)) return [];
    const r = nodeRange(ctx.doc, m.node)!;
    return f.params!.suggestions!.map((k, i) => fix(`Change kind to ${k}`, f, [edit(ctx.td, r[0], r[1], k)], i === 0));
  },
};
