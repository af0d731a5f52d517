/** An unknown field (rejected under strict field validation, pruned otherwise) is removed. */
import { leafName } from '../messages';
import { findWrittenPath } from '../../yaml/file';
import { fix, placed } from './edits';
import { removePair } from '../../yaml/sourceEdits';
import type { FixProvider } from './types';

export const removeUnknownField: FixProvider = {
  id: 'removeUnknownField',
  matches: (f) => f.code === 'UnknownField',
  fixes(ctx, f) {
    const m = findWrittenPath(ctx.doc, f.segments ?? []);
    const e = m.pair ? placed(ctx.td, removePair(ctx.td.getText(), ctx.doc, m.pair)) : undefined;
    // Preferred only when no rename is offered (a misspelling is more likely than a stray field).
    // In a CRD the path is a long schema path: the key's own name says enough.
    const name = f.document === 'crd' ? leafName(f.segments ?? []) : f.field;
    return e ? [fix(`Remove unknown field "${name}"`, f, [e], !f.params?.suggestions?.length)] : [];
  },
};
