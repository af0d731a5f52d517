/**
 * "Upgrade to apiextensions.k8s.io/v1" on a v1beta1 CRD (which the API server stopped serving in 1.22):
 * the whole document rewritten by the migration (service/migrate.ts: the API server's conversion plus
 * what v1 requires, comments kept), with what changed as notes, the workspace objects whose verdict it
 * changes first among them (the editor shows the edit and the notes before it is applied). Where objects
 * lose fields the v1beta1 CRD kept, a second fix upgrades and keeps them (x-kubernetes-preserve-unknown-fields
 * on the schema nodes they are in).
 */
import type { Fix } from '../finding';
import { keepDroppedFields, migrateDocument, upgradeVerdicts, verdictNotes, type DocumentMigration } from '../migrate';
import { edit, fix } from './edits';
import type { FixContext, FixProvider } from './types';
import type { Finding } from '../finding';

function upgradeFix(ctx: FixContext, f: Finding, m: DocumentMigration, title: string, first: string[]): Fix {
  const manual = m.notes.filter((n) => n.kind === 'manual').length;
  const notes = [...first, ...m.notes.map((n) => `${n.kind === 'manual' ? 'to fix by hand: ' : ''}${n.path}: ${n.message}`)];
  if (m.commentsLost) notes.unshift(`comments not kept: ${m.commentsLost}`);
  return { ...fix(`${title}${manual ? ` (${manual} thing${manual === 1 ? '' : 's'} left to fix by hand)` : ''}`, f, [edit(ctx.td, m.start, m.end, m.text)]), notes };
}

export const upgradeToV1: FixProvider = {
  id: 'upgradeToV1',
  matches: (f) => f.document === 'crd' && f.code === 'NoKindMatch' && f.params?.origin === 'v1beta1CRD',
  fixes(ctx, f) {
    const m = migrateDocument(ctx.file, ctx.doc);
    if (!m) return [];
    const verdicts = upgradeVerdicts(ctx.service, ctx.doc.value);
    const out = [upgradeFix(ctx, f, m, 'Upgrade to apiextensions.k8s.io/v1', verdictNotes(verdicts))];
    const keep = keepDroppedFields(m.crd, verdicts.changes);
    if (keep.edits.length) {
      const kept = migrateDocument(ctx.file, ctx.doc, keep.edits);
      const where = keep.nodes.map((n) => n || 'the root').join(', ');
      if (kept)
        out.push(
          upgradeFix(ctx, f, kept, `Upgrade to apiextensions.k8s.io/v1, keeping unknown fields in ${where}`, [
            `x-kubernetes-preserve-unknown-fields: true added in ${where}: the objects of the workspace keep the fields v1beta1 kept`,
          ]),
        );
    }
    return out;
  },
};
