/** A keyword that conflicts with another on the same node (e.g. with `x-kubernetes-int-or-string`) goes. */
import { findWrittenPath } from '../../yaml/file';
import { fix, placed } from './edits';
import { removePair } from '../../yaml/sourceEdits';
import type { FixProvider } from './types';

export const removeConflictingKeyword: FixProvider = {
  id: 'removeConflictingKeyword',
  matches: (f) => f.params?.origin === 'structural' && typeof f.params.conflictsWith === 'string' && f.params.keyword !== 'type',
  fixes(ctx, f) {
    const m = findWrittenPath(ctx.doc, f.segments ?? []);
    const e = m.pair ? placed(ctx.td, removePair(ctx.td.getText(), ctx.doc, m.pair)) : undefined;
    return e ? [fix(`Remove "${f.params!.keyword}" (${f.params!.conflictsWith} is set)`, f, [e])] : [];
  },
};
