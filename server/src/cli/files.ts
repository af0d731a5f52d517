/**
 * Finding and reading the YAML files the CLI was pointed at. Problems with the input (a missing
 * path, a binary file, a directory without YAML) are reported as one-line input errors.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** A readable text file to check. */
export interface InputFile {
  /** The path as shown to the user (relative paths stay relative). */
  path: string;
  text: string;
}

export interface CollectResult {
  files: InputFile[];
  /** One line each, e.g. `examples/x.yaml: no such file or directory`. */
  inputErrors: string[];
}

const YAML_EXT = /\.ya?ml$/i;
/** Directories never worth searching. */
const SKIP_DIRS = new Set(['node_modules', '.git', '.hg', '.svn']);

/**
 * Collect YAML files: a named file is read whatever its extension; a directory is searched
 * recursively for *.yaml and *.yml (hidden directories and node_modules skipped), in sorted order;
 * `-` is the standard input.
 */
export function collectYamlFiles(paths: string[], cwd: string = process.cwd()): CollectResult {
  const files: InputFile[] = [];
  const inputErrors: string[] = [];
  const seen = new Set<string>();
  for (const p of paths) {
    if (p === '-') {
      readStdin(files, inputErrors);
      continue;
    }
    const real = path.resolve(cwd, p);
    let st: fs.Stats;
    try {
      st = fs.statSync(real);
    } catch (e) {
      inputErrors.push(`${p}: ${describeFsError(e)}`);
      continue;
    }
    if (st.isDirectory()) {
      const found: string[] = [];
      walk(real, p, found, inputErrors, 0);
      if (found.length === 0) inputErrors.push(`${p}: no .yaml or .yml files found in this directory`);
      for (const f of found) readInto(path.resolve(cwd, f), f, files, inputErrors, seen);
    } else {
      readInto(real, p, files, inputErrors, seen);
    }
  }
  return { files, inputErrors };
}

/** Walk `dir` (a real path); `shown` is how the user named it, used for the paths collected. */
function walk(dir: string, shown: string, out: string[], errors: string[], depth: number): void {
  if (depth > 64) return;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    errors.push(`${shown}: ${describeFsError(e)}`);
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const ent of entries) {
    const full = path.join(dir, ent.name);
    let isDir = ent.isDirectory();
    let isFile = ent.isFile();
    if (ent.isSymbolicLink()) {
      try {
        const st = fs.statSync(full);
        isDir = st.isDirectory();
        isFile = st.isFile();
      } catch {
        continue; // a dangling link is not an input the user named
      }
    }
    if (isDir) {
      if (!SKIP_DIRS.has(ent.name) && !ent.name.startsWith('.')) walk(full, path.join(shown, ent.name), out, errors, depth + 1);
    } else if (isFile && YAML_EXT.test(ent.name)) out.push(path.join(shown, ent.name));
  }
}

function readInto(real: string, file: string, files: InputFile[], errors: string[], seen: Set<string>): void {
  if (seen.has(real)) return;
  seen.add(real);
  let buf: Buffer;
  try {
    buf = fs.readFileSync(real);
  } catch (e) {
    errors.push(`${file}: ${describeFsError(e)}`);
    return;
  }
  if (isBinary(buf)) {
    errors.push(`${file}: binary file, not YAML`);
    return;
  }
  let text = buf.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // a BOM is not content
  files.push({ path: file, text });
}

/** `-`: the standard input, shown as `<stdin>` (e.g. `helm template . | crd-yaml check - --crd crds/`). */
function readStdin(files: InputFile[], errors: string[]): void {
  if (files.some((f) => f.path === STDIN)) return;
  let buf: Buffer;
  try {
    buf = fs.readFileSync(0);
  } catch (e) {
    errors.push(`${STDIN}: ${describeFsError(e)}`);
    return;
  }
  if (isBinary(buf)) {
    errors.push(`${STDIN}: binary input, not YAML`);
    return;
  }
  let text = buf.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  files.push({ path: STDIN, text });
}

/** How the standard input is named in findings. */
export const STDIN = '<stdin>';

/** A NUL byte in the first 8 KiB, as git and grep decide (YAML text cannot hold a raw NUL). */
function isBinary(buf: Buffer): boolean {
  return buf.subarray(0, 8192).includes(0);
}

/** A filesystem error as one short line (`no such file or directory`), never a stack. */
export function describeFsError(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    case 'ENOTDIR':
      return 'not a directory';
    case 'ELOOP':
      return 'too many levels of symbolic links';
    default:
      return e instanceof Error ? e.message.split('\n')[0] : String(e);
  }
}
