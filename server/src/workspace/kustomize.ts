/**
 * kustomize: which files a kustomization names as patches. Files under `patches` (entries with a `path`)
 * and `patchesStrategicMerge` are partial objects (checked as such); files under `patchesJson6902` are
 * JSON patch operations, not objects (left alone). `resources` are whole objects, checked as usual.
 */
import * as path from 'node:path';
import { parse } from 'yaml';

/** The file names kustomize reads as a kustomization, in its order. */
export const KUSTOMIZATION_FILE_NAMES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

/** What a kustomization says about the files it names (absolute paths). */
export interface KustomizationPatches {
  /** Strategic merge patches: partial objects. */
  partial: string[];
  /** JSON 6902 patches: operations, not objects. */
  json6902: string[];
}

/**
 * Whether a file is named as kubebuilder's scaffold names its CRD patches (`config/crd/patches/
 * webhook_in_<plural>.yaml`, `cainjection_in_<plural>.yaml`): the scaffold writes them with their
 * kustomization entries commented out, so no kustomization names them, and they are patches all the same.
 */
export function isScaffoldCrdPatchName(file: string): boolean {
  return /^(?:webhook|cainjection)_in_.+\.ya?ml$/.test(path.basename(file));
}

/** Whether a file name is a kustomization. */
export function isKustomizationFile(file: string): boolean {
  return KUSTOMIZATION_FILE_NAMES.includes(path.basename(file));
}

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const rec = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** The patch files a kustomization text names, resolved against its folder. Unparsable text names none. */
export function kustomizationPatches(text: string, kustomizationFile: string): KustomizationPatches {
  const out: KustomizationPatches = { partial: [], json6902: [] };
  let doc: unknown;
  try {
    doc = parse(text, { maxAliasCount: 100, logLevel: 'error' });
  } catch {
    return out;
  }
  const k = rec(doc);
  const dir = path.dirname(kustomizationFile);
  const file = (p: unknown): string | undefined =>
    // Inline patches (YAML text in the entry) and remote URLs are not files of the workspace.
    typeof p === 'string' && p !== '' && !p.includes('\n') && !/^[a-z]+:\/\//i.test(p) ? path.resolve(dir, p) : undefined;
  for (const e of list(k.patches)) {
    const f = file(rec(e).path);
    if (f) out.partial.push(f);
  }
  for (const e of list(k.patchesStrategicMerge)) {
    const f = file(e);
    if (f) out.partial.push(f);
  }
  for (const e of list(k.patchesJson6902)) {
    const f = file(rec(e).path);
    if (f) out.json6902.push(f);
  }
  return out;
}

/** The patch roles of many kustomizations together: a file that any of them names as a patch is one. */
export class PatchFiles {
  private readonly byKustomization = new Map<string, KustomizationPatches>();

  /** Records (or, with undefined text, forgets) a kustomization; true when the roles changed. */
  set(kustomizationFile: string, text: string | undefined): boolean {
    const before = JSON.stringify(this.byKustomization.get(kustomizationFile) ?? null);
    if (text === undefined) this.byKustomization.delete(kustomizationFile);
    else this.byKustomization.set(kustomizationFile, kustomizationPatches(text, kustomizationFile));
    return before !== JSON.stringify(this.byKustomization.get(kustomizationFile) ?? null);
  }

  /** `partial` for a strategic merge patch, `json6902` for a JSON patch, undefined for any other file. */
  roleOf(file: string): 'partial' | 'json6902' | undefined {
    const f = path.resolve(file);
    let role: 'partial' | 'json6902' | undefined;
    for (const k of this.byKustomization.values()) {
      if (k.json6902.includes(f)) return 'json6902';
      if (k.partial.includes(f)) role = 'partial';
    }
    return role;
  }

  /**
   * Whether a file is in a kustomize tree: a recorded kustomization is in its folder or a folder above
   * (kustomize build reads it, and replaces its `$(VAR)` references where `vars:` say).
   */
  inTree(file: string): boolean {
    const f = path.resolve(file);
    for (const k of this.byKustomization.keys()) {
      const rel = path.relative(path.dirname(k), f);
      if (rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel)) return true;
    }
    return false;
  }

  /** The kustomizations recorded. */
  kustomizations(): string[] {
    return [...this.byKustomization.keys()];
  }
}
