/** An unknown field close to a declared one (`dnsName` for `dnsNames`) is renamed to it: one fix per candidate. */
import { findWrittenPath, keyRange } from '../../yaml/file';
import { edit, fix } from './edits';
import { yamlKeyText } from '../../yaml/sourceEdits';
import type { FixProvider } from './types';

export const renameUnknownField: FixProvider = {
  id: 'renameUnknownField',
  matches: (f) => f.code === 'UnknownField' && (f.params?.suggestions?.length ?? 0) > 0,
  fixes(ctx, f) {
    const m = findWrittenPath(ctx.doc, f.segments ?? []);
    const k = m.pair ? keyRange(ctx.doc, m.pair) : undefined;
    if (!k) return [];
    return f.params!.suggestions!.map((name, i) => fix(`Rename to "${name}"`, f, [edit(ctx.td, k[0], k[1], yamlKeyText(name))], i === 0));
  },
};
