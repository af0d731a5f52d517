/** A metadata schema that restricts more than name and generateName (or sits in a junctor) goes. */
import { findWrittenPath } from '../../yaml/file';
import { fix, placed } from './edits';
import { removePair } from '../../yaml/sourceEdits';
import type { FixProvider } from './types';

export const removeMetadataSchema: FixProvider = {
  id: 'removeMetadataSchema',
  matches: (f) => f.document === 'crd' && f.params?.origin === 'structural' && f.params.keyword === 'metadata',
  fixes(ctx, f) {
    const m = findWrittenPath(ctx.doc, f.segments ?? []);
    const e = m.pair ? placed(ctx.td, removePair(ctx.td.getText(), ctx.doc, m.pair)) : undefined;
    return e ? [fix('Remove the metadata schema (the API server defines metadata)', f, [e])] : [];
  },
};
