/**
 * "Upgrade to apiextensions.k8s.io/v1" for the documents of a file: the engine's migration (the API
 * server's v1beta1 -> v1 conversion plus what v1 requires, engine/crd/migrate.ts) written back into the
 * YAML through the Document API, so comments stay with what they describe. The rewritten text is read
 * back and compared with the engine's result; when it differs, or the document cannot be rewritten in
 * place (anchors, aliases), the v1 CRD is printed from its value instead and the result says so.
 * Used by the code action and by `crd-yaml migrate`.
 */
import { stringify } from 'yaml';
import { migrateToV1, type MigrationNote } from '../engine/crd/migrate';
import { deepEqualJSON } from '../engine/json/values';
import { parseYamlDocuments, type YamlDocument, type YamlFile } from '../yaml';
import { rewriteYamlDocument } from '../yaml/edit';

/** The migration of one document of a file. */
export interface DocumentMigration {
  /** Index of the document in its file. */
  index: number;
  /** The file offsets of the document text that `text` replaces. */
  start: number;
  end: number;
  /** The v1 CRD as YAML, in place of the document's text. */
  text: string;
  /** The v1 CRD. */
  crd: Record<string, unknown>;
  notes: MigrationNote[];
  /** Why the comments could not be kept (the document was printed from its value), when so. */
  commentsLost?: string;
}

/** The migration of every apiextensions.k8s.io/v1beta1 CRD of a file (documents with syntax errors are left alone). */
export function migrateFile(file: YamlFile): DocumentMigration[] {
  const out: DocumentMigration[] = [];
  for (const doc of file.documents) {
    const m = migrateDocument(file, doc);
    if (m) out.push(m);
  }
  return out;
}

/** The migration of one document, or undefined when it is not a v1beta1 CRD or does not parse. */
export function migrateDocument(file: YamlFile, doc: YamlDocument): DocumentMigration | undefined {
  if (doc.hasSyntaxErrors) return undefined;
  const m = migrateToV1(doc.value);
  if (!m) return undefined;
  const original = file.text.slice(doc.start, doc.end);
  const base = { index: doc.index, start: doc.start, end: doc.end, crd: m.crd, notes: m.notes };
  const r = rewriteYamlDocument(original, m.edits, { yamlVersion: file.yamlVersion });
  if ('text' in r) {
    const back = parseYamlDocuments(r.text, { yamlVersion: file.yamlVersion }).documents;
    if (back.length === 1 && !back[0].hasSyntaxErrors && deepEqualJSON(back[0].value, m.crd)) return { ...base, text: r.text };
  }
  const why = 'refused' in r ? `the document uses ${r.refused}` : 'the rewritten YAML did not read back as the migrated CRD';
  const marker = /^---/.test(original) ? '---\n' : '';
  return { ...base, text: marker + stringify(m.crd, { lineWidth: 0, flowCollectionPadding: false }), commentsLost: why };
}

/** The file's text with each migrated document replaced. */
export function applyMigrations(text: string, migrations: readonly DocumentMigration[]): string {
  let out = '';
  let at = 0;
  for (const m of [...migrations].sort((a, b) => a.start - b.start)) {
    out += text.slice(at, m.start) + m.text;
    at = m.end;
  }
  return out + text.slice(at);
}
