/**
 * Upgrading an apiextensions.k8s.io/v1beta1 CustomResourceDefinition to v1: the API server's own
 * conversion (v1beta1.ts), then the edits v1 requires that the server cannot make by itself, each with
 * a note: `preserveUnknownFields: true` (v1beta1's default) becomes `x-kubernetes-preserve-unknown-fields`
 * at each schema's root, a version without a schema gets one that accepts anything, and schema nodes
 * without `type` get the type their other keywords imply (inferType, as the NonStructural quick fix
 * does). What v1 still rejects afterwards is listed with the API server's message.
 */
import { errorBody, FieldPath } from '../field';
import { inferType } from '../schema/infer';
import { validateStructuralSchema } from '../schema/structural';
import { applyEdits, valueAt, type DocumentEdit } from './edits';
import { convertV1beta1ToV1, isV1beta1CustomResourceDefinition, keysOf, type MigrationNote } from './v1beta1';
import { validateCustomResourceDefinition } from './validation';
import { isJSONObject } from '../json/values';

export type { MigrationNote } from './v1beta1';
export { isV1beta1CustomResourceDefinition } from './v1beta1';

/** The v1 CRD and how it was reached. */
export interface V1Migration {
  /** Edits of the v1beta1 document, in order (conversion first, then the v1 requirements). */
  edits: DocumentEdit[];
  /** The v1 CustomResourceDefinition (the document with the edits applied). */
  crd: Record<string, unknown>;
  notes: MigrationNote[];
}

const PRESERVE = 'x-kubernetes-preserve-unknown-fields';
/** Rounds of type inference: a round can only reveal nodes below ones it typed (bounded, like every check). */
const MAX_INFERENCE_ROUNDS = 8;

/** The v1 migration of a v1beta1 CRD document; undefined for anything else. Never throws. */
export function migrateToV1(doc: unknown): V1Migration | undefined {
  if (!isV1beta1CustomResourceDefinition(doc)) return undefined;
  const conv = convertV1beta1ToV1(doc);
  const edits = [...conv.edits];
  const notes = [...conv.notes];
  let crd = applyEdits(doc, edits) as Record<string, unknown>;
  const step = (more: DocumentEdit[]) => {
    edits.push(...more);
    crd = applyEdits(crd, more) as Record<string, unknown>;
  };
  const spec = isJSONObject(crd.spec) ? crd.spec : undefined;
  const versions = spec && Array.isArray(spec.versions) ? spec.versions : [];
  const schemaPath = (i: number) => FieldPath.root('spec', 'versions').index(i).child('schema', 'openAPIV3Schema');

  // v1 requires a schema per version; without one, v1beta1 accepted any content.
  versions.forEach((v, i) => {
    if (!isJSONObject(v) || isJSONObject(valueAt(v, ['schema', 'openAPIV3Schema']))) return;
    if (v.schema !== undefined && v.schema !== null && !isJSONObject(v.schema)) return;
    step([{ op: 'set', path: [...keysOf(schemaPath(i))], value: { type: 'object', [PRESERVE]: true } }]);
    notes.push({ path: schemaPath(i).toString(), kind: 'required', message: `added: v1 requires a schema; this one accepts any content, as the CRD without a schema did` });
  });

  // Structural schemas: every node needs a type.
  const typed: MigrationNote[] = [];
  for (let round = 0; round < MAX_INFERENCE_ROUNDS; round++) {
    const more: DocumentEdit[] = [];
    versions.forEach((_, i) => {
      const root = valueAt(crd, keysOf(schemaPath(i)));
      if (!isJSONObject(root)) return;
      for (const e of validateStructuralSchema(root, schemaPath(i))) {
        if (e.type !== 'FieldValueRequired' || !e.field.endsWith('.type') || !e.detail.startsWith('must not be empty')) continue;
        const at = keysOf(e.segments ?? []).slice(0, -1);
        const node = valueAt(crd, at);
        if (!isJSONObject(node)) continue;
        const shown = e.field.slice(0, -'.type'.length);
        if (isIntOrStringAnyOf(node.anyOf)) {
          more.push({ op: 'set', path: [...at, 'x-kubernetes-int-or-string'], value: true, first: true });
          typed.push({ path: shown, kind: 'required', message: 'x-kubernetes-int-or-string: true added (anyOf integer or string); v1 schemas must be structural' });
          continue;
        }
        const t = inferType(node);
        const atRoot = e.detail === 'must not be empty at the root';
        if (t.inferred || atRoot) {
          more.push({ op: 'set', path: [...at, 'type'], value: t.type, first: true });
          const why = t.inferred ? `inferred from ${t.from}` : 'the root of a schema is always an object';
          typed.push({ path: shown, kind: 'required', message: `type: ${t.type} added (${why}); v1 schemas must be structural` });
        } else {
          more.push({ op: 'set', path: [...at, PRESERVE], value: true, first: true });
          typed.push({
            path: shown,
            kind: 'required',
            message: `${PRESERVE}: true added: nothing in the schema says what type it has, so it keeps accepting any value; v1 schemas must be structural`,
          });
        }
      }
    });
    if (more.length === 0) break;
    step(more);
  }
  // Outer nodes first.
  notes.push(...typed.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0)));

  // preserveUnknownFields: v1 rejects true; the schema extension at the root keeps unknown top-level fields.
  const preserve = spec?.preserveUnknownFields === true;
  if (preserve) {
    step([{ op: 'remove', path: ['spec', 'preserveUnknownFields'] }]);
    const written = isJSONObject(doc.spec) && doc.spec.preserveUnknownFields === true;
    const pruned = new Set<string>();
    versions.forEach((_v, i) => {
      const root = valueAt(crd, keysOf(schemaPath(i)));
      if (!isJSONObject(root)) return;
      if (root[PRESERVE] !== true) step([{ op: 'set', path: [...keysOf(schemaPath(i)), PRESERVE], value: true, before: 'properties' }]);
      // Below the root, objects with their own properties now prune what they do not declare.
      if (isJSONObject(root.properties)) {
        for (const [name, p] of Object.entries(root.properties)) if (isJSONObject(p) && isJSONObject(p.properties) && p[PRESERVE] !== true) pruned.add(name);
      }
    });
    const inner = [...pruned].sort();
    notes.push({
      path: 'spec.preserveUnknownFields',
      kind: 'required',
      message:
        `${written ? 'true' : 'unset (v1beta1 defaults it to true)'}: v1 does not allow it; ${PRESERVE}: true added at the root of the schema instead` +
        (inner.length ? `. Unknown fields inside ${inner.join(', ')} are now pruned: add ${PRESERVE}: true there to keep them` : ''),
    });
  }

  // What v1 still rejects.
  for (const e of validateCustomResourceDefinition(crd)) {
    if (e.severity === 'warning' || e.severity === 'information') continue;
    notes.push({ path: e.field, kind: 'manual', message: errorBody(e) });
  }
  return { edits, crd, notes: mergeVersionNotes(notes, versions.length) };
}

/** anyOf is exactly [{type: integer}, {type: string}] (the pattern x-kubernetes-int-or-string allows). */
function isIntOrStringAnyOf(anyOf: unknown): boolean {
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return false;
  const only = (s: unknown, t: string) => isJSONObject(s) && Object.keys(s).length === 1 && s.type === t;
  return only(anyOf[0], 'integer') && only(anyOf[1], 'string');
}

/** The same note for every version (identical schemas) is shown once, at `spec.versions[*]`. */
function mergeVersionNotes(notes: MigrationNote[], versionCount: number): MigrationNote[] {
  if (versionCount < 2) return notes;
  const re = /^spec\.versions\[(\d+)\](.*)$/;
  const groups = new Map<string, Set<number>>();
  for (const n of notes) {
    const m = re.exec(n.path);
    if (!m) continue;
    const k = `${n.kind}\u0000${m[2]}\u0000${n.message}`;
    (groups.get(k) ?? groups.set(k, new Set()).get(k)!).add(Number(m[1]));
  }
  const out: MigrationNote[] = [];
  const done = new Set<string>();
  for (const n of notes) {
    const m = re.exec(n.path);
    const k = m ? `${n.kind}\u0000${m[2]}\u0000${n.message}` : '';
    if (!m || (groups.get(k)?.size ?? 0) < versionCount) {
      out.push(n);
      continue;
    }
    if (done.has(k)) continue;
    done.add(k);
    out.push({ ...n, path: `spec.versions[*]${m[2]}` });
  }
  return out;
}
