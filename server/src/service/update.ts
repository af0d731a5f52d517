/**
 * The update path in the service: documents compared with their baseline, i.e. the same object (group,
 * kind, namespace, name) at a git revision or in a cluster. The callers (lsp/, cli/) read baselines and
 * hand them over with `LanguageService.setBaseline`; the service does no IO.
 *
 * - A custom resource with a baseline is checked as an update of it (transition rules, ratcheting,
 *   metadata update rules): what applies only on update says so (`on update from HEAD: ...`), and an
 *   unchanged invalid value is not reported (the API server lets it through).
 * - A CRD with a baseline is checked as an update of it (a stored version removed, immutable fields), its
 *   compatibility with the baseline is reported by category (crdYaml.compatibility sets severities), and
 *   the workspace's own objects of its kind are checked against both: "this change makes N objects invalid".
 */
import { errorMessage, type PathSegment } from '../engine';
import { compareCustomResourceDefinitions } from '../engine';
import { COMPAT_CATEGORIES, type CompatSeverity } from '../engine';
import { checkObjectAgainst } from './engineCalls';
import { baselineKey, sameKey } from '../baseline/key';
import type { ServiceContext } from './context';
import type { Finding, RelatedFinding } from './finding';
import { roleOf } from './kube';
import { goDeepEqual } from '../engine';
import { parseYamlFile, type YamlDocument } from '../yaml/file';
import { LineIndex } from '../yaml';

/** The objects of one file at its baseline (all of them: documents are matched by key on each pass). */
export interface FileBaseline {
  /** For people: `HEAD`, `origin/main`, `the cluster (context kind-dev)`. */
  label: string;
  objects: unknown[];
  /** Why there is no baseline for the file (a bad revision, the cluster not answering), said once. */
  problem?: string;
}

/** The workspace's files that may hold objects of a kind, with their current text (open or on disk). */
export type WorkspaceObjects = (group: string, kind: string) => Array<{ uri: string; text: string }>;

/** The most objects of a kind checked against a changed CRD (each is validated twice). */
export const MAX_WORKSPACE_OBJECTS = 200;

const validAgainstBaseline = new WeakMap<object, Map<string, boolean>>();

/** The baseline of a document's object, when its file has one with the same key. */
export function baselineFor(ctx: ServiceContext, uri: string, value: unknown): { object: Record<string, unknown>; label: string } | undefined {
  const fb = ctx.baselines.get(uri);
  if (!fb || fb.objects.length === 0) return undefined;
  const k = baselineKey(value);
  if (!k) return undefined;
  const hit = fb.objects.find((o) => {
    const ok = baselineKey(o);
    return ok !== undefined && sameKey(ok, k);
  });
  if (!hit) return undefined;
  // An object this change leaves as it is is not being updated: it is checked as what it is, a manifest
  // (as a create), so a committed invalid object keeps its errors. (A CRD from git carries a stand-in status.)
  if (sameManifest(value, hit)) return undefined;
  return { object: hit as Record<string, unknown>, label: fb.label };
}

function sameManifest(a: unknown, b: unknown): boolean {
  const strip = (v: unknown) => (roleOf(v).role === 'crd' && v && typeof v === 'object' ? { ...(v as Record<string, unknown>), status: undefined } : v);
  return goDeepEqual(strip(a), strip(b));
}

/** Marks a finding as one that applies on update from the baseline. */
export function onUpdate(f: Finding, label: string): Finding {
  f.message = `on update from ${label}: ${f.message}`;
  f.params = { ...f.params, update: { from: label } };
  return f;
}

const LSP_SEVERITY: Record<Exclude<CompatSeverity, 'off'>, Finding['severity']> = { error: 'error', warning: 'warning', information: 'information' };

/** The compatibility findings of a CRD document against its baseline, at the places they are about. */
export function compatFindings(ctx: ServiceContext, doc: YamlDocument, oldCrd: unknown, label: string, rangeOf: (segs: PathSegment[]) => Finding['range']): Finding[] {
  const out: Finding[] = [];
  for (const c of compareCustomResourceDefinitions(oldCrd, doc.value)) {
    const cat = COMPAT_CATEGORIES.get(c.category);
    const sev = ctx.settings.compatibility[c.category] ?? cat?.defaultSeverity ?? 'warning';
    if (sev === 'off') continue;
    const f: Finding = {
      range: rangeOf(c.segments),
      severity: LSP_SEVERITY[sev],
      code: 'Incompatible',
      message: `incompatible with ${label} (${c.category}): ${c.message}`,
      document: 'crd',
      path: c.path,
      segments: c.segments,
      params: { compat: { category: c.category, kind: cat?.kind ?? 'breaking' }, update: { from: label } },
      ...(c.version ? { provenance: { version: c.version } } : {}),
    };
    out.push(f);
  }
  return out;
}

/** One object of the workspace: its document, file, name and a way to place offsets of its file. */
export interface WorkspaceObject {
  uri: string;
  doc: YamlDocument;
  name: string;
  position: (offset: number) => { line: number; character: number };
}

/**
 * The workspace's objects of a kind (ctx.workspaceObjects: open files and files on disk), parsed, at most
 * MAX_WORKSPACE_OBJECTS (`cut` when there were more); documents with syntax errors are left out.
 */
export function objectsOfKind(ctx: ServiceContext, group: string, kind: string): { objects: WorkspaceObject[]; cut: boolean } {
  const objects: WorkspaceObject[] = [];
  for (const { uri, text } of ctx.workspaceObjects?.(group, kind) ?? []) {
    const file = parseYamlFile(text, undefined, { yamlVersion: ctx.settings.yamlVersion });
    const lines = new LineIndex(text);
    const position = (offset: number) => lines.positionAt(offset);
    for (const d of file.documents) {
      const r = roleOf(d.value);
      if (r.role !== 'cr' || r.group !== group || r.kind !== kind || d.errors.some((s) => s.severity === 'error')) continue;
      if (objects.length >= MAX_WORKSPACE_OBJECTS) return { objects, cut: true };
      const name = (d.value as { metadata?: { name?: unknown } }).metadata?.name;
      objects.push({ uri, doc: d, name: typeof name === 'string' ? name : '(no name)', position });
    }
  }
  return { objects, cut: false };
}

/**
 * The workspace's objects of the CRD's kind that the change makes invalid: valid (as a create) against the
 * baseline CRD, invalid against the new one. One finding listing them, each a related location.
 */
export function brokenObjectsFinding(ctx: ServiceContext, doc: YamlDocument, oldCrd: unknown, label: string, range: Finding['range']): Finding | undefined {
  const provider = ctx.workspaceObjects;
  const role = roleOf(doc.value);
  if (!provider || role.role !== 'crd') return undefined;
  const spec = (doc.value as { spec?: { group?: unknown; names?: { kind?: unknown } } }).spec;
  const group = typeof spec?.group === 'string' ? spec.group : '';
  const kind = typeof spec?.names?.kind === 'string' ? spec.names.kind : '';
  if (!group || !kind) return undefined;
  const broken: RelatedFinding[] = [];
  const { objects, cut } = objectsOfKind(ctx, group, kind);
  for (const o of objects) {
    const { doc: d } = o;
    const errs = (crd: unknown) => {
      const r = checkObjectAgainst(ctx, crd, structuredClone(d.value));
      // An engine failure is no verdict: the object counts as valid against both (nothing claimed).
      return r.ok ? r.value.errors.filter((e) => (e.severity ?? 'error') === 'error') : [];
    };
    // The baseline CRD does not change while the CRD is edited: its verdict on each object is kept.
    let seen = validAgainstBaseline.get(oldCrd as object);
    if (!seen) validAgainstBaseline.set(oldCrd as object, (seen = new Map()));
    let valid = seen.get(d.text);
    if (valid === undefined) seen.set(d.text, (valid = errs(oldCrd).length === 0));
    if (!valid) continue;
    const after = errs(doc.value);
    if (after.length === 0) continue;
    const first = after[0];
    const at = d.rangeOfFieldError(first);
    broken.push({
      location: { uri: o.uri, range: { start: o.position(at.start), end: o.position(at.end) } },
      message: `${kind} ${o.name}: ${errorMessage(first)}${after.length > 1 ? ` (and ${after.length - 1} more)` : ''}`,
    });
  }
  if (broken.length === 0) return undefined;
  const n = broken.length;
  const f: Finding = {
    range,
    severity: 'warning',
    code: 'BreaksObjects',
    message: `this change makes ${n} ${kind} object${n === 1 ? '' : 's'} of the workspace invalid (valid against ${label}): ${broken
      .slice(0, 3)
      .map((b) => b.message.split(':')[0])
      .join(', ')}${n > 3 ? ', ...' : ''}${cut ? ` (only the first ${MAX_WORKSPACE_OBJECTS} objects were checked)` : ''}`,
    document: 'crd',
    related: broken,
    params: { update: { from: label } },
  };
  return f;
}
