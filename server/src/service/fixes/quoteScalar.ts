/**
 * YAML 1.1 surprises: a plain scalar kubectl reads as a boolean or a number (`off`, `y`, `0755`, `1.10`) where
 * the schema wants a string. Quoting it keeps the text as written.
 */
import { findWrittenPath, nodeRange } from '../../yaml/file';
import { edit, fix } from './edits';
import type { FixProvider } from './types';

export const quoteScalar: FixProvider = {
  id: 'quoteScalar',
  matches: (f) => f.params?.plainScalar !== undefined,
  fixes(ctx, f) {
    const m = findWrittenPath(ctx.doc, f.segments ?? []);
    const r = m.node ? nodeRange(ctx.doc, m.node) : undefined;
    if (!r) return [];
    const source = ctx.td.getText().slice(r[0], r[1]);
    if (source !== f.params!.plainScalar!.source) return [];
    return [fix(`Quote it: "${source}"`, f, [edit(ctx.td, r[0], r[1], JSON.stringify(source))])];
  },
};
