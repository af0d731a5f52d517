/**
 * `crd-yaml preview`: each custom resource as the API server would store it (status dropped when
 * the status subresource is on, pruned, defaulted), with what was pruned and defaulted and the
 * errors it would return.
 */
import { stringify } from 'yaml';
import { stringifyJSONLossless } from '../engine/json/lossless';
import { errorMessage } from '../engine/field';
import { validateCustomResource, type CustomResourceResult } from '../engine/customresource/strategy';
import { BUILTIN_API_GROUPS } from '../yaml';
import { addCrdSources, buildCrdIndex, findCrd, oneLine, parseInputs, toLocations, type Location } from './check';
import type { InputFile } from './files';

/** The preview of one custom resource. */
export interface PreviewEntry {
  file: string;
  start: Location;
  apiVersion?: string;
  kind?: string;
  name?: string;
  /** metadata.name of the CRD used; absent when none was found. */
  crd?: string;
  /** The object after the pipeline; absent when it could not run. */
  object?: unknown;
  pruned: { path: string; reason: string }[];
  defaulted: { path: string; action: string; value?: unknown }[];
  errors: string[];
  warnings: string[];
  /** Why there is no object (no CRD, YAML syntax errors, engine failure). */
  note?: string;
}

/** Run the create pipeline on every custom resource of `files` (CRDs from `files` and `crdFiles`). */
export function previewFiles(files: InputFile[], opts: { crdFiles?: InputFile[]; yamlVersion?: '1.1' | '1.2' } = {}): PreviewEntry[] {
  const inputs = parseInputs(files, opts.yamlVersion);
  const index = buildCrdIndex(inputs);
  addCrdSources(index, opts.crdFiles ?? [], inputs, opts.yamlVersion);
  const out: PreviewEntry[] = [];
  for (const input of inputs) {
    for (const doc of input.yaml.documents) {
      if (doc.kind !== 'cr') continue;
      const id = doc.identity;
      if (id.group !== undefined && BUILTIN_API_GROUPS.has(id.group)) continue;
      const root = doc.contents ? doc.nodeRange(doc.contents) : undefined;
      const start = toLocations(input.yaml, root ?? { start: doc.start, end: doc.start }).start;
      const entry: PreviewEntry = {
        file: input.file.path,
        start,
        apiVersion: id.apiVersion,
        kind: id.objectKind,
        name: id.name,
        pruned: [],
        defaulted: [],
        errors: [],
        warnings: [],
      };
      out.push(entry);
      if (doc.hasSyntaxErrors) {
        entry.note = 'YAML syntax errors; run crd-yaml check for details';
        continue;
      }
      const crd = findCrd(index, doc);
      if (!crd) {
        entry.note = `no CustomResourceDefinition for kind ${id.objectKind} in group ${id.group} among the given paths`;
        continue;
      }
      if (crd.broken) {
        entry.note = `the CustomResourceDefinition ${crd.name} (${crd.file}) has YAML syntax errors`;
        continue;
      }
      entry.crd = crd.name;
      let res: CustomResourceResult;
      try {
        res = validateCustomResource(crd.value, doc.value);
      } catch (e) {
        entry.note = `internal error: ${oneLine(e instanceof Error ? e.message : String(e))}`;
        continue;
      }
      entry.object = res.object;
      entry.pruned = (res.pruned ?? []).map((p) => ({ path: p.path, reason: p.reason }));
      entry.defaulted = (res.defaulted ?? []).map((d) => ({ path: d.path, action: d.action, ...(d.value !== undefined ? { value: d.value } : {}) }));
      entry.errors = (res.errors ?? []).map(errorMessage);
      entry.warnings = (res.warnings ?? []).map(errorMessage);
    }
  }
  return out;
}

/** The preview as a YAML stream; everything but the objects is in comments, so the output stays valid YAML. */
export function formatPreviewYaml(entries: PreviewEntry[]): string {
  const parts = entries.map((e) => {
    const lines: string[] = [];
    const what = [e.kind, e.name].filter(Boolean).join(' ');
    lines.push(`# ${e.file}:${e.start.line}: ${what}${e.crd ? ` (CRD ${e.crd})` : ''}`);
    if (e.note) lines.push(`# ${e.note}`);
    for (const p of e.pruned) lines.push(`# pruned: ${p.path} (${p.reason})`);
    for (const d of e.defaulted) {
      lines.push(d.action === 'default' ? `# defaulted: ${d.path} = ${inlineValue(d.value)}` : `# ${d.action}: ${d.path}`);
    }
    for (const w of e.warnings) lines.push(`# warning: ${oneLine(w)}`);
    for (const x of e.errors) lines.push(`# error: ${oneLine(x)}`);
    if (e.object !== undefined) lines.push(stringify(toPlain(e.object), { lineWidth: 0 }).trimEnd());
    return lines.join('\n') + '\n';
  });
  return parts.join('---\n');
}

/** The preview as JSON (big integers printed exactly). */
export function formatPreviewJson(entries: PreviewEntry[]): string {
  return stringifyJson(entries.map((e) => ({ ...e, object: e.object === undefined ? undefined : toPlain(e.object) }))) + '\n';
}

/** JSON.stringify that prints bigints as JSON numbers. */
export function stringifyJson(v: unknown): string {
  return stringifyJSONLossless(v, 2);
}

function inlineValue(v: unknown): string {
  if (typeof v === 'bigint') return v.toString();
  try {
    return stringifyJson(toPlain(v)).replace(/\s*\n\s*/g, ' ');
  } catch {
    return String(v);
  }
}

/** Plain data for the YAML/JSON printers: values with toJSON (e.g. IntegralFloat) unwrapped. */
function toPlain(v: unknown): unknown {
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
