/**
 * Finding and reading the YAML files the CLI was pointed at. Problems with the input (a missing
 * path, a binary file, a directory without YAML) are reported as one-line input errors.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { API_FILE, declaresApiTypes } from '../workspace/goPackages';

import type { CrdOrigin } from '../workspace/crdIndex';

/** A readable text file to check. */
export interface InputFile {
  /** The path as shown to the user (relative paths stay relative). */
  path: string;
  /**
   * The text. The files read first are kept, up to KEPT_TEXT_CHARS; beyond that a file is read again
   * each time its text is asked for (a check of tens of megabytes of CRDs keeps only the texts in use),
   * and were it changed meanwhile, that is the new text.
   */
  readonly text: string;
  /** Set for a file on disk: its text again (the index may drop a CRD's text and ask for it again). */
  reread?: () => string;
  /** CRDs from outside the inputs' repository (a `--crd` URL, a cluster): ranked after the inputs' own. */
  external?: boolean;
  /** A CRD fetched from the catalog (workspace/catalog.ts): where from, said with the findings it gives. */
  catalog?: CrdOrigin;
  /** Its size in bytes, when read from disk (shares of a check are balanced by it). */
  bytes?: number;
}

/**
 * A worker's share of the inputs (cli/jobs.ts): the `index`th of `count` runs of consecutive inputs of
 * about equal bytes. Consecutive, not every `count`th input: a chart's or a project's files sit together
 * and use the same CRDs, which each worker then reads and compiles once, not every worker all of them.
 */
export function shareOf(files: readonly InputFile[], shard: { index: number; count: number }): { from: number; to: number } {
  const sizes = files.map((f) => f.bytes ?? f.text.length);
  const total = sizes.reduce((a, b) => a + b, 0);
  // Input i goes to the share its middle byte falls in.
  const bounds: number[] = [];
  let at = 0;
  for (const [i, n] of sizes.entries()) {
    const share = total === 0 ? Math.floor((i * shard.count) / Math.max(1, files.length)) : Math.min(shard.count - 1, Math.floor(((at + n / 2) * shard.count) / total));
    bounds.push(share);
    at += n;
  }
  const from = bounds.findIndex((s) => s >= shard.index);
  const after = bounds.findIndex((s) => s > shard.index);
  return { from: from < 0 ? files.length : from, to: after < 0 ? files.length : after };
}

/** Characters of file text a search keeps in memory; the files beyond are read again when used. */
export const KEPT_TEXT_CHARS = 1_000_000;

export interface CollectResult {
  files: InputFile[];
  /** One line each, e.g. `examples/x.yaml: no such file or directory`. */
  inputErrors: string[];
  /** Symbolic links met in directories and not followed (`--follow-symlinks` follows them), as shown. */
  skippedLinks: string[];
  /** With `goPackages`: the folders (real paths) of Go API packages met in the search, and the named folders that hold them. */
  goPackages: string[];
  goRoots: string[];
}

export interface CollectOptions {
  /**
   * Follow symbolic links met while searching directories (links the user names are always followed).
   * Each real directory is then searched once and each real file read once, wherever links lead.
   */
  followSymlinks?: boolean;
  /** Also note the Go API packages met (workspace/goPackages.ts), in the same walk. */
  goPackages?: boolean;
}

const YAML_EXT = /\.ya?ml$/i;
/** Directories never worth searching. */
const SKIP_DIRS = new Set(['node_modules', '.git', '.hg', '.svn']);
const MAX_DEPTH = 64;

/**
 * Collect YAML files: a named file is read whatever its extension; a directory is searched
 * recursively for *.yaml and *.yml (hidden directories and node_modules skipped), in sorted order;
 * `-` is the standard input.
 *
 * Bounded against hostile trees: every file is read at most once (by real path, however many names
 * lead to it); without `followSymlinks` a search never leaves the directories named (links to
 * directories are not entered, links to files outside the named directories are not read); with it,
 * each real directory is searched once, so link cycles (`a -> .`) end.
 */
export function collectYamlFiles(paths: string[], cwd: string = process.cwd(), opts: CollectOptions = {}): CollectResult {
  const files: InputFile[] = [];
  const inputErrors: string[] = [];
  const skippedLinks: string[] = [];
  const read = new Set<string>();
  const kept = { chars: 0 };
  const searched = new Set<string>();
  const goPackages: string[] = [];
  const goRoots: string[] = [];
  // The named directories, by real path: without followSymlinks, a linked file is read only inside them.
  const roots: string[] = [];
  const named: { p: string; real: string; dir: boolean }[] = [];
  for (const p of paths) {
    if (p === '-') {
      named.push({ p, real: '', dir: false });
      continue;
    }
    try {
      const real = fs.realpathSync(path.resolve(cwd, p));
      const dir = fs.statSync(real).isDirectory();
      if (dir) roots.push(real);
      named.push({ p, real, dir });
    } catch (e) {
      inputErrors.push(`${p}: ${describeFsError(e)}`);
    }
  }
  const inRoots = (real: string) => roots.some((r) => real === r || real.startsWith(r.endsWith(path.sep) ? r : r + path.sep));

  for (const { p, real, dir } of named) {
    if (p === '-') {
      readStdin(files, inputErrors);
      continue;
    }
    if (!dir) {
      readInto(real, p, files, inputErrors, read, kept);
      continue;
    }
    // Named twice, or inside a directory already searched: its files are in already.
    if (searched.has(real)) continue;
    const found: { real: string; shown: string }[] = [];
    const goBefore = goPackages.length;
    walk(real, p, 0);
    if (goPackages.length > goBefore) goRoots.push(p);
    // A folder of Go API packages is checked through its Go types (cli/goCheck.ts).
    else if (found.length === 0) inputErrors.push(`${p}: no .yaml or .yml files found in this directory`);
    for (const f of found) readInto(f.real, f.shown, files, inputErrors, read, kept);

    /** Walk `dirReal` (a real path); `shown` is how the user reaches it, used for the paths collected. */
    function walk(dirReal: string, shown: string, depth: number): void {
      if (depth > MAX_DEPTH || searched.has(dirReal)) return;
      searched.add(dirReal);
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(dirReal, { withFileTypes: true });
      } catch (e) {
        inputErrors.push(`${shown}: ${describeFsError(e)}`);
        return;
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      if (opts.goPackages && isApiPackage(dirReal, entries)) goPackages.push(dirReal);
      for (const ent of entries) {
        const full = path.join(dirReal, ent.name);
        const shownChild = path.join(shown, ent.name);
        if (ent.isSymbolicLink()) {
          let target: string;
          let isDir: boolean;
          try {
            target = fs.realpathSync(full);
            isDir = fs.statSync(target).isDirectory();
          } catch {
            continue; // a dangling link (or a loop) is not an input the user named
          }
          if (isDir) {
            if (SKIP_DIRS.has(ent.name) || ent.name.startsWith('.')) continue;
            if (opts.followSymlinks) walk(target, shownChild, depth + 1);
            else skippedLinks.push(shownChild);
          } else if (YAML_EXT.test(ent.name)) {
            if (opts.followSymlinks || inRoots(target)) found.push({ real: target, shown: shownChild });
            else skippedLinks.push(shownChild);
          }
        } else if (ent.isDirectory()) {
          if (!SKIP_DIRS.has(ent.name) && !ent.name.startsWith('.')) walk(full, shownChild, depth + 1);
        } else if (ent.isFile() && YAML_EXT.test(ent.name)) found.push({ real: full, shown: shownChild });
      }
    }
  }
  return { files, inputErrors, skippedLinks, goPackages, goRoots };
}

/** A folder of a Go API package (not under vendor/ or testdata/, which go ignores). */
function isApiPackage(dir: string, entries: fs.Dirent[]): boolean {
  if (dir.split(path.sep).some((p) => p === 'vendor' || p === 'testdata')) return false;
  for (const e of entries) {
    if (!e.isFile() || !API_FILE.test(e.name)) continue;
    try {
      if (declaresApiTypes(fs.readFileSync(path.join(dir, e.name), 'utf8'))) return true;
    } catch {
      // Unreadable: not counted.
    }
  }
  return false;
}

/** Reads a file once: a real path already read (through another name or link) is skipped. */
function readInto(real: string, file: string, files: InputFile[], errors: string[], read: Set<string>, kept: { chars: number }): void {
  if (read.has(real)) return;
  read.add(real);
  let buf: Buffer;
  try {
    buf = readBytes(real);
  } catch (e) {
    errors.push(`${file}: ${describeFsError(e)}`);
    return;
  }
  if (isBinary(buf)) {
    errors.push(`${file}: binary file, not YAML`);
    return;
  }
  const text = textOf(buf);
  if (kept.chars + text.length <= KEPT_TEXT_CHARS) {
    kept.chars += text.length;
    files.push({ path: file, text, reread: () => text, bytes: buf.length });
  } else files.push(readAgain(real, file, buf.length));
}

/** A file whose text is read each time it is asked for. (Out of readInto: a closure there would keep the text.) */
function readAgain(real: string, file: string, bytes: number): InputFile {
  const reread = () => textOf(readBytes(real));
  const f = { path: file, reread, bytes } as InputFile;
  // One getter for all files: a getter of its own gives each file a hidden class, and V8 then keeps it as a hash table.
  Object.defineProperty(f, 'text', { enumerable: true, get: textReadAgain });
  return f;
}

function textReadAgain(this: InputFile): string {
  return this.reread!();
}

/** The buffer every input file is read into (readBytes). */
let readBuffer = Buffer.allocUnsafeSlow(0);

/**
 * A file's bytes, read into one buffer kept for all files (valid until the next read), which grows to the
 * largest file read: a new buffer for each read (readFileSync) left glibc's heap fragmented by the
 * megabytes freed, 29 MB of the peak of the catalog's check, whose files are each read 3 or 4 times.
 */
function readBytes(real: string): Buffer {
  const fd = fs.openSync(real, 'r');
  try {
    // One byte more than its size: the end is seen without a larger buffer.
    const want = fs.fstatSync(fd).size + 1;
    if (readBuffer.length < want) readBuffer = Buffer.allocUnsafeSlow(2 ** Math.ceil(Math.log2(Math.max(want, 65536))));
    let n = 0;
    for (;;) {
      if (n === readBuffer.length) {
        // Larger than it said (it grows, or a special file): twice the room.
        const bigger = Buffer.allocUnsafeSlow(readBuffer.length * 2);
        readBuffer.copy(bigger, 0, 0, n);
        readBuffer = bigger;
      }
      const r = fs.readSync(fd, readBuffer, n, readBuffer.length - n, null);
      if (r === 0) return readBuffer.subarray(0, n);
      n += r;
    }
  } finally {
    fs.closeSync(fd);
  }
}

function textOf(buf: Buffer): string {
  const text = buf.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text; // a BOM is not content
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
