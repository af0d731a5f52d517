/** An embedded resource (`x-kubernetes-embedded-resource: true`) must be `type: object`. */
import { findWrittenPath, isScalar, nodeRange } from '../../yaml/file';
import { edit, fix, placed } from './edits';
import { prependToMapping } from '../../yaml/sourceEdits';
import type { FixProvider } from './types';

export const setType: FixProvider = {
  id: 'setType',
  matches: (f) => f.params?.origin === 'structural' && f.params.keyword === 'type' && typeof f.params.expectedType === 'string',
  fixes(ctx, f) {
    const type = f.params!.expectedType!;
    const segs = f.segments ?? [];
    const m = findWrittenPath(ctx.doc, segs);
    if (m.node && isScalar(m.node)) {
      const r = nodeRange(ctx.doc, m.node)!;
      return [fix(`Set "type: ${type}"`, f, [edit(ctx.td, r[0], r[1], type)])];
    }
    const owner = findWrittenPath(ctx.doc, segs.slice(0, -1)).node;
    const e = owner ? placed(ctx.td, prependToMapping(ctx.td.getText(), ctx.doc, owner, [`type: ${type}`])) : undefined;
    return e ? [fix(`Add "type: ${type}"`, f, [e])] : [];
  },
};
