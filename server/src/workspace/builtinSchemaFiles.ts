/**
 * The built-in kinds' schemas as files, for go to definition: a built-in group/kind at a Kubernetes
 * version written once into the cache folder as the CRD crd-yaml checks it with (service/builtins.ts),
 * read-only (as the catalog's cached CRDs, catalog.ts), so that a field of a Deployment leads to its
 * schema node with its description, as a custom resource's field leads to its CRD.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultSourceCache } from './sources';

/** The folder of the written schemas: beside the fetched sources' cache, or in `cacheDir` (the client's). */
export function builtinSchemaDir(cacheDir?: string): string {
  return cacheDir ? path.join(cacheDir, 'builtin-schemas') : path.join(path.dirname(defaultSourceCache()), 'builtin-schemas');
}

const written = new Map<string, boolean>();

/**
 * `<dir>/kubernetes-1.<minor>/<group or core>/<kind>.yaml` holding `text`, written when missing or
 * different (under a temporary name, renamed: a half-written file is never read); undefined when it
 * cannot be written.
 */
export function builtinSchemaFile(dir: string, kubernetesMinor: number, group: string, kind: string, text: string): string | undefined {
  const file = path.join(dir, `kubernetes-1.${kubernetesMinor}`, group || 'core', `${kind.toLowerCase()}.yaml`);
  if (written.get(file)) return file;
  try {
    if (!(fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text)) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, text, { mode: 0o444 });
      fs.renameSync(tmp, file);
    }
    written.set(file, true);
    return file;
  } catch {
    return undefined;
  }
}
