/**
 * The preview of a CR as the API server would store it: status dropped (status subresource), pruned and
 * defaulted, with what was removed and defaulted (with values) and the errors it would return; as one
 * document or as a whole-file view (each CR replaced by its stored object, everything else as written, so
 * that a diff with the source lines up document by document). The editor and the CLI both print this.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeLens, Position } from 'vscode-languageserver-types';
import { stringifyJSONLossless } from '../engine';
import type { ServiceContext } from './context';
import type { Finding } from './finding';
import { documentFindings, headRange } from './findings';
import { checkCr, guard, textKey } from './engineCalls';
import { readBack, storedObject } from '../engine';
import { crdVersions, resolveCr, roleOf } from './kube';
import { BUILTIN_API_GROUPS, yamlText } from '../yaml';
import { contentStart, type YamlDocument, type YamlFile } from '../yaml/file';

/** The stored object of one CR document, and how it came about. */
export interface StoredObjectPreview {
  /** The document's index in the file. */
  docIndex: number;
  /** 0-based line of the document's first content line. */
  line: number;
  apiVersion: string;
  kind: string;
  name?: string;
  /** The CRD (metadata.name) and version used; no CRD when none is known (see `note`). */
  crd?: string;
  version?: string;
  /** The object the API server would store; absent when it would not get that far (see `note`). */
  object?: unknown;
  /** Fields pruning removed, with why. */
  pruned: Array<{ path: string; reason: string }>;
  /** Fields defaulting set (with the value) or nulls it removed; none under a dropped status. */
  defaulted: Array<{ path: string; action: string; value?: unknown }>;
  /** The request's status was dropped: the status subresource owns it. */
  statusDropped: boolean;
  /** The findings of the document (what the API server would answer). */
  findings: Finding[];
  /** Why there is no object. */
  note?: string;
  /**
   * When the CRD stores another version than the one written: the object as etcd keeps it (conversion
   * None: storage apiVersion, pruned by the storage schema, defaulted by it on every read), or a note when
   * a conversion webhook converts it. `object` is then what the preview shows.
   */
  storage?: StorageView;
  /** On request: the stored object as a client reading each served version gets it. */
  readBack?: ReadBackView[];
}

/** The object in the storage version. */
export interface StorageView {
  version: string;
  object?: unknown;
  /** Fields dropped on the way to storage (not in the storage version's schema). */
  lost: Array<{ path: string }>;
  /** Defaults of the storage version, applied whenever the object is read from storage. */
  defaulted: Array<{ path: string; action: string; value?: unknown }>;
  note?: string;
}

/** The stored object read back at one served version. */
export interface ReadBackView {
  version: string;
  object?: unknown;
  /** Fields dropped on reading (not in that version's schema). */
  lost: Array<{ path: string }>;
  note?: string;
}

/** What a preview may add on request. */
export interface PreviewOptions {
  /** Also a CR of a kind no known CRD defines (not a built-in kind), with a note. */
  unknownKinds?: boolean;
  /** The stored object as read back at each served version. */
  readBack?: boolean;
}

/** The preview of the CR document at a position, or null when it is not a CR of a known CRD. */
export function preview(ctx: ServiceContext, td: TextDocument, file: YamlFile, pos: Position, opts: PreviewOptions = {}): StoredObjectPreview | null {
  const doc = file.documentAt(td.offsetAt(pos));
  return doc ? previewDocument(ctx, td, doc, opts) : null;
}

/**
 * The preview of one document, or null when it is not a CR of a known CRD; with `unknownKinds`, a CR of a
 * kind no known CRD defines (not a built-in kind) gets a preview with a note instead.
 */
export function previewDocument(ctx: ServiceContext, td: TextDocument, doc: YamlDocument, opts: PreviewOptions = {}): StoredObjectPreview | null {
  const role = roleOf(doc.value);
  if (role.role !== 'cr') return null;
  const res = resolveCr(ctx.index, role);
  // A built-in object is stored after Go's defaulting, which crd-yaml does not run: no preview.
  if (res?.crd.builtin) return null;
  if (!res && !(opts.unknownKinds && !BUILTIN_API_GROUPS.has(role.group))) return null;
  const meta = (doc.value as { metadata?: { name?: unknown } }).metadata;
  const p: StoredObjectPreview = {
    docIndex: doc.index,
    line: headRange(td, doc).start.line,
    apiVersion: role.apiVersion,
    kind: role.kind,
    ...(typeof meta?.name === 'string' ? { name: meta.name } : {}),
    ...(res ? { crd: res.crd.name } : {}),
    pruned: [],
    defaulted: [],
    statusDropped: false,
    findings: res ? documentFindings(ctx, td, doc) : [],
  };
  if (!res) return { ...p, note: `no CustomResourceDefinition known for kind ${role.kind} in group ${role.group}` };
  if (res.crd.broken) return { ...p, note: `the CustomResourceDefinition ${res.crd.name} has YAML syntax errors` };
  if (doc.errors.some((s) => s.severity === 'error')) return { ...p, note: 'YAML syntax errors: not decoded' };
  if (!res.version?.served) return { ...p, note: `${res.crd.name} does not serve ${role.apiVersion}` };
  p.version = res.version.name;
  const r = checkCr(ctx, res.crd, res.version.name, textKey(doc.text, ctx.settings.yamlVersion), doc.value);
  if (!r.ok) return { ...p, note: `preview unavailable: ${r.error}` };
  const v = r.value;
  const statusDropped = v.statusDropped === true;
  const underStatus = (path: string) => path === 'status' || path.startsWith('status.') || path.startsWith('status[');
  const out: StoredObjectPreview = {
    ...p,
    object: v.object,
    pruned: v.pruned.map((x) => ({ path: x.path, reason: x.reason })),
    defaulted: v.defaulted.filter((d) => !(statusDropped && underStatus(d.path))).map(defaultedEntry),
    statusDropped,
  };
  addStorageViews(out, res.crd.crd, res.version.name, v.object, opts);
  return out;
}

const defaultedEntry = (d: { path: string; action: string; value?: unknown }) => ({ path: d.path, action: d.action, ...(d.value !== undefined ? { value: d.value } : {}) });

/** The storage view (another storage version) and, on request, the read-back views of a previewed object. */
function addStorageViews(p: StoredObjectPreview, crd: Record<string, unknown>, written: string, created: unknown, opts: PreviewOptions): void {
  const g = guard(() => {
    const storage = crdVersions(crd).find((v) => v.storage);
    if (!storage) return;
    const stored = storedObject(crd, created);
    if (storage.name !== written) {
      p.storage = stored
        ? { version: storage.name, object: stored.object, lost: stored.pruned.map((x) => ({ path: x.path })), defaulted: stored.defaulted.map(defaultedEntry) }
        : { version: storage.name, lost: [], defaulted: [], note: 'converted to the storage version by the conversion webhook: not computed here (crd-yaml convert --webhook checks a webhook)' };
    }
    if (!opts.readBack) return;
    p.readBack = crdVersions(crd)
      .filter((v) => v.served)
      .map((v): ReadBackView => {
        if (!stored) return { version: v.name, lost: [], note: v.name === written ? 'as written' : 'converted by the conversion webhook: not computed here' };
        const r = readBack(crd, stored.object, v.name);
        return r ? { version: v.name, object: r.object, lost: r.pruned.map((x) => ({ path: x.path })) } : { version: v.name, lost: [], note: 'not served' };
      });
  });
  if (!g.ok) p.note = `storage view unavailable: ${g.error}`;
}

/**
 * A preview as YAML: what happened in comments (so the text stays valid YAML), then the stored object.
 * `title` adds a first line naming the object (the CLI's stream of many objects).
 */
export function renderPreview(p: StoredObjectPreview, opts: { title?: string } = {}): string {
  const lines: string[] = [];
  if (opts.title) lines.push(`# ${opts.title}`);
  if (p.crd) lines.push(`# ${p.kind}${p.name ? ` ${p.name}` : ''} as stored by the API server (CRD ${p.crd}${p.version ? `, version ${p.version}` : ''})`);
  if (p.note) lines.push(`# ${p.note}`);
  if (p.statusDropped) lines.push('# status dropped: the status subresource is enabled (status is written through /status)');
  for (const x of p.pruned) lines.push(`# pruned: ${x.path} (${x.reason})`);
  for (const d of p.defaulted) lines.push(d.action === 'default' ? `# defaulted: ${d.path} = ${inlineValue(d.value)}` : `# ${d.action}: ${d.path}`);
  for (const f of p.findings) {
    if (f.severity !== 'error' && f.severity !== 'warning') continue;
    lines.push(`# ${f.severity}: ${oneLine(f.apiMessage ?? f.message)}`);
    for (const n of f.notes ?? []) lines.push(`#   ${oneLine(n)}`);
  }
  let shown = p.object;
  const s = p.storage;
  if (s) {
    const group = p.apiVersion.includes('/') ? p.apiVersion.slice(0, p.apiVersion.indexOf('/') + 1) : '';
    lines.push(`# stored as ${group}${s.version}, the storage version${s.note ? `: ${s.note}` : ' (conversion None: only apiVersion changes)'}`);
    for (const x of s.lost) lines.push(`# lost when stored: ${x.path} (not in ${s.version}'s schema)`);
    for (const d of s.defaulted) lines.push(d.action === 'default' ? `# defaulted when read from storage: ${d.path} = ${inlineValue(d.value)}` : `# ${d.action} when read from storage: ${d.path}`);
    if (s.object !== undefined) shown = s.object;
  }
  if (shown !== undefined) lines.push(yamlOf(shown));
  for (const r of p.readBack ?? []) {
    lines.push('---', `# read back as ${r.version}${r.note ? `: ${r.note}` : ''}`);
    for (const x of r.lost) lines.push(`# lost when read: ${x.path} (not in ${r.version}'s schema)`);
    if (r.object !== undefined) lines.push(yamlOf(r.object));
  }
  return lines.join('\n') + '\n';
}

function yamlOf(v: unknown): string {
  return yamlText(toPlain(v)).trimEnd();
}

/** The previews of every CR document of a file (see previewDocument for `unknownKinds`). */
export function previewDocuments(ctx: ServiceContext, td: TextDocument, file: YamlFile, opts: PreviewOptions = {}): StoredObjectPreview[] {
  const out: StoredObjectPreview[] = [];
  for (const doc of file.documents) {
    const p = previewDocument(ctx, td, doc, opts);
    if (p) out.push(p);
  }
  return out;
}

/** The whole file with each CR of a known CRD replaced by its rendered preview; other documents as written. */
export function previewFileText(ctx: ServiceContext, td: TextDocument, file: YamlFile): string {
  let out = '';
  for (const doc of file.documents) {
    const p = previewDocument(ctx, td, doc);
    if (!p) {
      out += doc.text;
      continue;
    }
    // Keep what precedes the content (`---`, comments) so the documents line up with the source.
    out += file.text.slice(doc.start, Math.max(doc.start, contentStart(doc))) + renderPreview(p);
  }
  return out;
}

/** A "Preview stored object" lens above each CR document of a known CRD. */
export function previewLenses(ctx: ServiceContext, td: TextDocument, file: YamlFile): CodeLens[] {
  const out: CodeLens[] = [];
  for (const doc of file.documents) {
    const role = roleOf(doc.value);
    const res = role.role === 'cr' ? resolveCr(ctx.index, role) : undefined;
    if (!res || res.crd.builtin) continue;
    const range = headRange(td, doc);
    out.push({
      range,
      command: { title: 'Preview pruned/defaulted object', command: 'crdYaml.preview', arguments: [td.uri, range.start] },
    });
  }
  return out;
}

function oneLine(s: string): string {
  return s.replace(/\s*\r?\n\s*/g, ' ').trim();
}

/** A value on one line (JSON, big integers exact). */
function inlineValue(v: unknown): string {
  if (typeof v === 'bigint') return v.toString();
  try {
    return stringifyJSONLossless(toPlain(v));
  } catch {
    return String(v);
  }
}

/** Plain data for the YAML/JSON printers: values with toJSON (e.g. IntegralFloat) unwrapped. */
export function toPlain(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(toPlain);
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null && typeof (v as { toJSON?: unknown }).toJSON === 'function') {
    return toPlain((v as { toJSON: () => unknown }).toJSON());
  }
  const o: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (k === '__proto__') Object.defineProperty(o, k, { value: toPlain(x), enumerable: true, writable: true, configurable: true });
    else o[k] = toPlain(x);
  }
  return o;
}
