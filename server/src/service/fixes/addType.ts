/** NonStructural: a schema node without `type` gets the type its other keywords imply. */
import { inferType } from '../../engine';
import type { JSONSchemaProps } from '../../engine';
import { findWrittenPath, isMap } from '../../yaml/file';
import { fix, placed } from './edits';
import { prependToMapping } from '../../yaml/sourceEdits';
import type { FixProvider } from './types';

export const addType: FixProvider = {
  id: 'addType',
  matches: (f) => f.code === 'FieldValueRequired' && f.params?.origin === 'structural' && f.params.keyword === 'type' && f.params.expectedType === undefined,
  fixes(ctx, f) {
    const segs = (f.segments ?? []).slice(0, -1);
    const m = findWrittenPath(ctx.doc, segs);
    if (!isMap(m.node) || m.node.flow || m.node.items.length === 0) return [];
    const t = inferType(m.node.toJSON() as JSONSchemaProps);
    const e = placed(ctx.td, prependToMapping(ctx.td.getText(), ctx.doc, m.node, [`type: ${t.type}`]));
    return e ? [fix(`Add "type: ${t.type}"${t.inferred ? '' : ' (not inferred)'}`, f, [e], t.inferred)] : [];
  },
};
