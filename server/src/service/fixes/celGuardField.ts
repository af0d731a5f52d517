/**
 * A CEL rule reading an optional field without a guard (CELNoSuchKey, celLints.ts) gets the guard: the
 * innermost condition around the read becomes `(!has(x.f) || condition)`, so the rule holds when the
 * field is absent instead of failing with "no such key". The read is found again from the rule's text
 * (the finding's range is the field name).
 */
import { compileAt } from '../../engine';
import { ruleSiteOf } from '../celEditor';
import { scalarStyle, unguardedReads } from '../celLints';
import { valueAt } from '../kube';
import { edit, fix } from './edits';
import type { FixProvider } from './types';

/** Text inserted into a YAML string of a given style, escaped as that style needs. */
function escapeFor(style: string | undefined, text: string): string | undefined {
  switch (style) {
    case 'QUOTE_DOUBLE':
      return text.replace(/[\\"]/g, '\\$&');
    case 'QUOTE_SINGLE':
      return text.replace(/'/g, "''");
    case 'BLOCK_LITERAL':
    case 'BLOCK_FOLDED':
      return text.includes('\n') ? undefined : text;
    default:
      // A plain scalar cannot take these without changing meaning.
      return /: | #|\n/.test(text) ? undefined : text;
  }
}

export const celGuardField: FixProvider = {
  id: 'celGuardField',
  matches: (f) => f.code === 'CELNoSuchKey' && f.document === 'crd' && !!f.segments,
  fixes(ctx, f) {
    const path = f.segments!;
    const src = valueAt(ctx.doc.value, path);
    const at = ruleSiteOf(ctx.service, ctx.doc.value, path);
    if (typeof src !== 'string' || !at) return [];
    const checked = compileAt(src, at.site)?.checked;
    if (!checked) return [];
    const start = ctx.td.offsetAt(f.range.start);
    const read = unguardedReads(checked).find((u) => ctx.doc.rangeInString(path, u.range.start, u.range.end)?.start === start);
    if (!read?.guard) return [];
    const open = ctx.doc.rangeInString(path, read.guard.start, read.guard.start);
    const close = ctx.doc.rangeInString(path, read.guard.end, read.guard.end);
    const style = scalarStyle(ctx.doc, path);
    const head = escapeFor(style, `(!has(${read.text}) || `);
    if (!open || !close || head === undefined) return [];
    return [fix(`Guard with has(${read.text})`, f, [edit(ctx.td, open.start, open.start, head), edit(ctx.td, close.start, close.start, ')')])];
  },
};
