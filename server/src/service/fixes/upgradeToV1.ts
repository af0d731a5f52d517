/**
 * "Upgrade to apiextensions.k8s.io/v1" on a v1beta1 CRD (which the API server stopped serving in 1.22):
 * the whole document rewritten by the migration (service/migrate.ts: the API server's conversion plus
 * what v1 requires, comments kept), with what changed as notes the editor shows after applying it.
 */
import { migrateDocument } from '../migrate';
import { edit, fix } from './edits';
import type { FixProvider } from './types';

export const upgradeToV1: FixProvider = {
  id: 'upgradeToV1',
  matches: (f) => f.document === 'crd' && f.code === 'NoKindMatch' && f.params?.origin === 'v1beta1CRD',
  fixes(ctx, f) {
    const m = migrateDocument(ctx.file.layer, ctx.doc.layer);
    if (!m) return [];
    const manual = m.notes.filter((n) => n.kind === 'manual').length;
    const title = `Upgrade to apiextensions.k8s.io/v1${manual ? ` (${manual} thing${manual === 1 ? '' : 's'} left to fix by hand)` : ''}`;
    const notes = m.notes.map((n) => `${n.kind === 'manual' ? 'to fix by hand: ' : ''}${n.path}: ${n.message}`);
    if (m.commentsLost) notes.unshift(`comments not kept: ${m.commentsLost}`);
    return [{ ...fix(title, f, [edit(ctx.td, m.start, m.end, m.text)]), notes }];
  },
};
