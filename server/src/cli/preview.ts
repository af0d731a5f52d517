/**
 * `crd-yaml preview`: each custom resource as the API server would store it, rendered by the service's
 * preview (the editor's "Preview Pruned/Defaulted Object"), as a YAML stream or as JSON.
 */
import type { StoredObjectPreview } from '../service';
import { stringifyJSONLossless } from '../engine';
import { renderPreview, toPlain } from '../service';
import { openInputs, type CheckOptions } from './check';
import { oneLine } from './format';
import type { InputFile } from './files';

/** The preview of one custom resource of an input file. */
export interface PreviewEntry extends StoredObjectPreview {
  file: string;
}

/** The previews of every custom resource of `files` (CRDs from `files` and `crdFiles`), built-in kinds left out. */
export function previewFiles(files: InputFile[], opts: CheckOptions & { readBack?: boolean } = {}): PreviewEntry[] {
  const { service, docs } = openInputs(files, opts);
  return docs.flatMap(({ file, td }) => service.previews(td, { unknownKinds: true, readBack: opts.readBack }).map((p) => ({ ...p, file: file.path })));
}

/** Whether the API server would refuse the object. */
export function hasErrors(e: PreviewEntry): boolean {
  return e.findings.some((f) => f.severity === 'error');
}

/** The preview as a YAML stream; everything but the objects is in comments, so the output stays valid YAML. */
export function formatPreviewYaml(entries: PreviewEntry[]): string {
  return entries.map((e) => renderPreview(e, { title: `${e.file}:${e.line + 1}: ${[e.kind, e.name].filter(Boolean).join(' ')}` })).join('---\n');
}

/** The preview as JSON (big integers printed exactly); errors and warnings as the API server's messages. */
export function formatPreviewJson(entries: PreviewEntry[]): string {
  const out = entries.map((e) => ({
    file: e.file,
    line: e.line + 1,
    apiVersion: e.apiVersion,
    kind: e.kind,
    ...(e.name !== undefined ? { name: e.name } : {}),
    ...(e.crd !== undefined ? { crd: e.crd } : {}),
    ...(e.version !== undefined ? { version: e.version } : {}),
    ...(e.object !== undefined ? { object: toPlain(e.object) } : {}),
    pruned: e.pruned,
    defaulted: e.defaulted.map((d) => ({ ...d, ...(d.value !== undefined ? { value: toPlain(d.value) } : {}) })),
    statusDropped: e.statusDropped,
    errors: e.findings.filter((f) => f.severity === 'error').map((f) => oneLine(f.apiMessage ?? f.message)),
    warnings: e.findings.filter((f) => f.severity === 'warning').map((f) => oneLine(f.apiMessage ?? f.message)),
    ...(e.note ? { note: e.note } : {}),
    ...(e.storage ? { storage: { ...e.storage, ...(e.storage.object !== undefined ? { object: toPlain(e.storage.object) } : {}) } } : {}),
    ...(e.readBack ? { readBack: e.readBack.map((r) => ({ ...r, ...(r.object !== undefined ? { object: toPlain(r.object) } : {}) })) } : {}),
  }));
  return stringifyJSONLossless(out, 2) + '\n';
}
