/**
 * "Upgrade to apiextensions.k8s.io/v1" for the documents of a file: the engine's migration (the API
 * server's v1beta1 -> v1 conversion plus what v1 requires, engine/crd/migrate.ts) written back into the
 * YAML through the Document API, so comments stay with what they describe. The rewritten text is read
 * back and compared with the engine's result; when it differs, or the document cannot be rewritten in
 * place (anchors, aliases), the v1 CRD is printed from its value instead and the result says so.
 * Used by the code action and by `crd-yaml migrate`.
 *
 * Before it is applied, the upgrade says whose verdict it changes (upgradeVerdicts): the workspace's
 * objects of the CRD's kind checked against the CRD the API server made of the v1beta1 one (kept unknown
 * fields: v1beta1 defaulted preserveUnknownFields to true) and against the v1 result (which prunes them).
 * Where objects lose fields, a second upgrade keeps them: x-kubernetes-preserve-unknown-fields on the
 * schema nodes those fields are in.
 */
import { migrateToV1, type MigrationNote } from '../engine';
import { convertV1beta1ToV1, keysOf } from '../engine';
import { applyEdits, type DocumentEdit } from '../engine';
import { checkObjectAgainst } from './engineCalls';
import { errorMessage, type PathSegment } from '../engine';
import { deepEqualJSON, isJSONObject } from '../engine';
import type { JSONSchemaProps } from '../engine';
import { formatFieldPath, parseYamlDocuments, yamlText, type YamlDocument, type YamlFile } from '../yaml';
import { rewriteYamlDocument } from '../yaml/edit';
import type { ServiceContext } from './context';
import type { RelatedFinding } from './finding';
import { crdVersions, schemaAtPath, schemaStepsToCrdPath } from './kube';
import { objectsOfKind } from './update';

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

/**
 * The migration of one document, or undefined when it is not a v1beta1 CRD or does not parse. `more`:
 * edits of the v1 result made with it (upgradeKeepingFields).
 */
export function migrateDocument(file: YamlFile, doc: YamlDocument, more: DocumentEdit[] = []): DocumentMigration | undefined {
  if (doc.hasSyntaxErrors) return undefined;
  const v1 = migrateToV1(doc.value);
  if (!v1) return undefined;
  const m = more.length ? { ...v1, edits: [...v1.edits, ...more], crd: applyEdits(v1.crd, more) as Record<string, unknown> } : v1;
  const original = file.text.slice(doc.start, doc.end);
  const base = { index: doc.index, start: doc.start, end: doc.end, crd: m.crd, notes: m.notes };
  const r = rewriteYamlDocument(original, m.edits, { yamlVersion: file.yamlVersion });
  if ('text' in r) {
    const back = parseYamlDocuments(r.text, { yamlVersion: file.yamlVersion }).documents;
    if (back.length === 1 && !back[0].hasSyntaxErrors && deepEqualJSON(back[0].value, m.crd)) return { ...base, text: r.text };
  }
  const why = 'refused' in r ? `the document uses ${r.refused}` : 'the rewritten YAML did not read back as the migrated CRD';
  const marker = /^---/.test(original) ? '---\n' : '';
  return { ...base, text: marker + yamlText(m.crd), commentsLost: why };
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

/** The most objects whose changed verdict is listed (the rest are counted). */
const MAX_LISTED = 20;

/** An object of the workspace whose verdict the upgrade changes. */
export interface VerdictChange {
  related: RelatedFinding;
  kind: string;
  name: string;
  /** What the API server says about the object now (the v1beta1 CRD as it converted it) and after the upgrade. */
  before: string[];
  after: string[];
  /** Fields the object keeps now and loses after the upgrade (pruned), as paths of the object. */
  dropped: PathSegment[][];
}

/** What the API server says about an object: its errors and the fields it drops (unknown fields). */
function verdict(ctx: ServiceContext, crd: unknown, obj: unknown): { problems: string[]; dropped: PathSegment[][] } {
  const g = checkObjectAgainst(ctx, crd, structuredClone(obj));
  // An engine failure is no verdict: nothing is claimed about the object.
  if (!g.ok) return { problems: [], dropped: [] };
  const r = g.value;
  const dropped = r.pruned.map((p) => p.segments ?? []).filter((x) => x.length > 0);
  return { problems: [...r.errors.filter((e) => (e.severity ?? 'error') === 'error').map(errorMessage), ...dropped.map((d) => `unknown field "${formatFieldPath(d)}"`)], dropped };
}

/**
 * The workspace's objects of a v1beta1 CRD's kind whose verdict the upgrade to v1 changes (none when it is
 * not a v1beta1 CRD or no object changes), with `cut` when more objects were there than were checked.
 */
export function upgradeVerdicts(ctx: ServiceContext, crd: unknown): { changes: VerdictChange[]; cut: boolean } {
  const v1 = migrateToV1(crd);
  const spec = isJSONObject(crd) && isJSONObject(crd.spec) ? crd.spec : undefined;
  const names = spec && isJSONObject(spec.names) ? spec.names : undefined;
  if (!v1 || typeof spec?.group !== 'string' || typeof names?.kind !== 'string') return { changes: [], cut: false };
  const kind = names.kind;
  // What the API server made of the v1beta1 CRD when it was served (its own conversion, nothing added).
  const served = applyEdits(crd, convertV1beta1ToV1(crd as Record<string, unknown>).edits);
  const { objects, cut } = objectsOfKind(ctx, spec.group, kind);
  const changes: VerdictChange[] = [];
  for (const o of objects) {
    const before = verdict(ctx, served, o.doc.value);
    const after = verdict(ctx, v1.crd, o.doc.value);
    if (deepEqualJSON(before.problems, after.problems)) continue;
    const lost = after.dropped.filter((d) => !before.dropped.some((b) => formatFieldPath(b) === formatFieldPath(d)));
    const where = lost[0] ? o.doc.rangeOfPath(lost[0], 'key') : o.doc.rangeOfPath([{ kind: 'field', name: 'kind' }], 'value');
    const added = after.problems.filter((p) => !before.problems.includes(p));
    const gone = before.problems.filter((p) => !after.problems.includes(p));
    const said = added.length ? `${added[0]}${added.length > 1 ? ` (and ${added.length - 1} more)` : ''}` : `no longer: ${gone[0]}`;
    changes.push({
      related: { location: { uri: o.uri, range: { start: o.position(where.start), end: o.position(where.end) } }, message: `after the upgrade, ${kind} ${o.name}: ${said}` },
      kind,
      name: o.name,
      before: before.problems,
      after: after.problems,
      dropped: lost,
    });
  }
  return { changes, cut };
}

/** The notes that name the objects whose verdict the upgrade changes (for the fix's preview). */
export function verdictNotes(v: { changes: VerdictChange[]; cut: boolean }): string[] {
  const out = v.changes.slice(0, MAX_LISTED).map((c) => `${c.related.message.replace(/^after the upgrade, /, 'changes verdict: ')} (now: ${c.before[0] ?? 'valid'})`);
  if (v.changes.length > MAX_LISTED) out.push(`changes verdict: ${v.changes.length - MAX_LISTED} more objects`);
  if (v.cut) out.push('only the first objects of the workspace were checked');
  return out;
}

/**
 * The edits that keep what the objects would lose: x-kubernetes-preserve-unknown-fields: true on the
 * schema node (of the v1 result) holding each dropped field, once per node.
 */
export function keepDroppedFields(v1crd: Record<string, unknown>, changes: VerdictChange[]): { edits: DocumentEdit[]; nodes: string[] } {
  const edits: DocumentEdit[] = [];
  const nodes: string[] = [];
  const seen = new Set<string>();
  const versions = crdVersions(v1crd);
  for (const c of changes) {
    for (const d of c.dropped) {
      for (const v of versions) {
        if (!v.schema) continue;
        const parent = schemaAtPath(v.schema as JSONSchemaProps, d.slice(0, -1));
        if (!parent || parent.builtin) continue;
        const at = keysOf(schemaStepsToCrdPath(v, parent.steps));
        const key = JSON.stringify(at);
        if (seen.has(key)) continue;
        seen.add(key);
        edits.push({ op: 'set', path: [...at, 'x-kubernetes-preserve-unknown-fields'], value: true });
        if (!nodes.includes(formatFieldPath(d.slice(0, -1)))) nodes.push(formatFieldPath(d.slice(0, -1)));
      }
    }
  }
  return { edits, nodes };
}
