/**
 * The preview of a CR as the API server would store it: pruned and defaulted, with the paths removed and
 * defaulted and the errors it would return; plus the code lenses that offer it above each CR document.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeLens, Diagnostic, Position } from 'vscode-languageserver-types';
import { stringify } from 'yaml';
import type { ServiceContext } from './context';
import { documentDiagnostics, headRange } from './diagnostics';
import { checkCr } from './engineCalls';
import { resolveCr, roleOf } from './kube';
import { docAt, type YamlFile } from './yamlDocument';

/** The answer to `crdYaml/preview`. */
export interface PreviewResult {
  /** The stored object as YAML (or a comment saying why there is none). */
  yaml: string;
  object: unknown;
  /** Field paths pruning removed. */
  pruned: string[];
  /** Field paths defaulting set (or dropped nulls). */
  defaulted: string[];
  /** The diagnostics of the CR document (what the API server would return). */
  diagnostics: Diagnostic[];
}

/** The preview of the CR document at a position, or null when it is not a CR of a known CRD. */
export function preview(ctx: ServiceContext, td: TextDocument, file: YamlFile, pos: Position): PreviewResult | null {
  const doc = docAt(file, td.offsetAt(pos));
  if (!doc) return null;
  const role = roleOf(doc.value);
  if (role.role !== 'cr') return null;
  const res = resolveCr(ctx.index, role);
  if (!res) return null;
  const diagnostics = documentDiagnostics(ctx, td, file, doc);
  if (!res.version || !res.version.served) {
    return { yaml: `# ${res.crd.name} does not serve ${role.apiVersion}\n`, object: null, pruned: [], defaulted: [], diagnostics };
  }
  const r = checkCr(res.crd, res.version.name, doc.text, doc.value);
  if (!r.ok) return { yaml: `# preview unavailable: ${r.error}\n`, object: null, pruned: [], defaulted: [], diagnostics };
  const v = r.value;
  const header = `# ${role.kind} as stored by the API server (${res.crd.name}, version ${res.version.name})\n`;
  return {
    yaml: header + stringify(v.object, { lineWidth: 0, aliasDuplicateObjects: false }),
    object: v.object,
    pruned: v.pruned.map((p) => p.path),
    defaulted: v.defaulted.map((p) => p.path),
    diagnostics,
  };
}

/** A "Preview stored object" lens above each CR document of a known CRD. */
export function previewLenses(ctx: ServiceContext, td: TextDocument, file: YamlFile): CodeLens[] {
  const out: CodeLens[] = [];
  for (const doc of file.docs) {
    const role = roleOf(doc.value);
    if (role.role !== 'cr' || !resolveCr(ctx.index, role)) continue;
    const range = headRange(td, doc);
    out.push({
      range,
      command: { title: 'Preview pruned/defaulted object', command: 'crdYaml.preview', arguments: [td.uri, range.start] },
    });
  }
  return out;
}
