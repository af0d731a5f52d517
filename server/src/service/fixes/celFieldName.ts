/**
 * A CEL rule reading a field its receiver does not have (`undefined field 'replica'`) gets the closest
 * declared field name ("did you mean"): the name in the rule string is replaced, one fix per candidate.
 * The finding's range is the name inside the rule (the engine's ruleRange of the undefined field).
 */
import { edit, fix } from './edits';
import type { FixProvider } from './types';

export const celFieldName: FixProvider = {
  id: 'celFieldName',
  matches: (f) => f.params?.origin === 'celCompile' && (f.params.suggestions?.length ?? 0) > 0,
  fixes(ctx, f) {
    const start = ctx.td.offsetAt(f.range.start);
    const end = ctx.td.offsetAt(f.range.end);
    const written = ctx.td.getText().slice(start, end);
    // Only when the range is exactly an identifier as written (not an escaped or folded spelling).
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(written)) return [];
    return f.params!.suggestions!.map((name, i) => fix(`Change to "${name}"`, f, [edit(ctx.td, start, end, name)], i === 0));
  },
};
