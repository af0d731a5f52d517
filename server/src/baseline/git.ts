/**
 * Reading files of a git repository at a revision, without running git: refs (loose, packed-refs,
 * worktrees' common dir), loose objects and packfiles (index v2, offset and ref deltas), commits,
 * annotated tags and trees. Nothing in the repository is executed (hooks and config programs never
 * run), so it is safe in an untrusted workspace.
 *
 * Why not isomorphic-git: it reads a whole packfile into memory to take one object from it (a large
 * repository's pack is gigabytes) and does not follow a worktree's `commondir`. Here every read is
 * positioned and bounded: pack indexes are binary-searched on disk, objects larger than a limit and
 * delta chains deeper than a limit are refused, and a revision is only what `git rev-parse` would take
 * from a ref name or an object id plus `~N` / `^N`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as Zlib from 'node:zlib';

/** The largest object read (a manifest is far smaller; a bigger blob is not a baseline). */
export const MAX_OBJECT_BYTES = 64 * 1024 * 1024;
/** The deepest delta chain followed (git's default pack depth is 50). */
const MAX_DELTA_DEPTH = 4096;
/** How many ancestors `~N` may walk. */
const MAX_ANCESTRY = 100_000;

export type GitObjectType = 'commit' | 'tree' | 'blob' | 'tag';

interface GitObject {
  type: GitObjectType;
  data: Buffer;
}

const TYPES: Record<number, GitObjectType> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' };
const HEX40 = /^[0-9a-f]{40}$/;
/** zlib, loaded when a baseline is read (a check without --base does not load it). */
const zlib = (): typeof Zlib => require('node:zlib');

/** A git error said for people (`revision "x" not found`), never an exception from deep inside. */
export class GitError extends Error {}

function readIf(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

function readText(file: string): string | undefined {
  return readIf(file)?.toString('utf8');
}

/** Positioned reads of one file, opened lazily and closed with close(). */
class FileReader {
  private fd: number | undefined;
  constructor(readonly file: string) {}
  read(offset: number, length: number): Buffer {
    if (this.fd === undefined) this.fd = fs.openSync(this.file, 'r');
    const buf = Buffer.alloc(length);
    const n = fs.readSync(this.fd, buf, 0, length, offset);
    return n === length ? buf : buf.subarray(0, n);
  }
  size(): number {
    if (this.fd === undefined) this.fd = fs.openSync(this.file, 'r');
    return fs.fstatSync(this.fd).size;
  }
  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }
}

/** A packfile and its version 2 index, searched on disk. */
class Pack {
  private readonly idx: FileReader;
  private readonly pack: FileReader;
  private fanout: Buffer | undefined;
  constructor(idxFile: string) {
    this.idx = new FileReader(idxFile);
    this.pack = new FileReader(idxFile.replace(/\.idx$/, '.pack'));
  }

  private count(): number {
    this.loadFanout();
    return this.fanout!.readUInt32BE(255 * 4);
  }

  private loadFanout(): void {
    if (this.fanout) return;
    const head = this.idx.read(0, 8 + 256 * 4);
    if (head.length < 8 + 1024 || head.readUInt32BE(0) !== 0xff744f63 || head.readUInt32BE(4) !== 2) throw new GitError(`${this.idx.file}: not a version 2 pack index`);
    this.fanout = head.subarray(8);
  }

  /** The offset of an object in the pack, or undefined. */
  offsetOf(oid: string): number | undefined {
    this.loadFanout();
    const bin = Buffer.from(oid, 'hex');
    const first = bin[0];
    let lo = first === 0 ? 0 : this.fanout!.readUInt32BE((first - 1) * 4);
    let hi = this.fanout!.readUInt32BE(first * 4);
    const n = this.count();
    const names = 8 + 1024;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = this.idx.read(names + mid * 20, 20).compare(bin);
      if (c === 0) {
        const offTable = names + n * 20 + n * 4;
        const off = this.idx.read(offTable + mid * 4, 4).readUInt32BE(0);
        if ((off & 0x80000000) === 0) return off;
        const big = this.idx.read(offTable + n * 4 + (off & 0x7fffffff) * 8, 8);
        return Number(big.readBigUInt64BE(0));
      }
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    return undefined;
  }

  /** Object ids of this pack starting with a hex prefix (for abbreviated ids), at most `limit`. */
  idsWithPrefix(prefix: string, limit: number): string[] {
    this.loadFanout();
    const first = parseInt(prefix.slice(0, 2), 16);
    let i = first === 0 ? 0 : this.fanout!.readUInt32BE((first - 1) * 4);
    const hi = this.fanout!.readUInt32BE(first * 4);
    const out: string[] = [];
    for (; i < hi && out.length < limit; i++) {
      const id = this.idx.read(8 + 1024 + i * 20, 20).toString('hex');
      if (id.startsWith(prefix)) out.push(id);
    }
    return out;
  }

  /** The raw entry at an offset: its type number, inflated data, and the delta base reference. */
  entryAt(offset: number): { type: number; data: Buffer; baseOffset?: number; baseOid?: string } {
    const head = this.pack.read(offset, 32);
    let i = 0;
    let c = head[i++];
    const type = (c >> 4) & 7;
    let size = c & 15;
    let shift = 4;
    while (c & 0x80) {
      c = head[i++];
      size += (c & 0x7f) * 2 ** shift;
      shift += 7;
    }
    if (size > MAX_OBJECT_BYTES) throw new GitError(`object at ${offset} is larger than ${MAX_OBJECT_BYTES} bytes`);
    let baseOffset: number | undefined;
    let baseOid: string | undefined;
    if (type === 6) {
      c = head[i++];
      let off = c & 0x7f;
      while (c & 0x80) {
        c = head[i++];
        off = (off + 1) * 128 + (c & 0x7f);
      }
      baseOffset = offset - off;
    } else if (type === 7) {
      baseOid = this.pack.read(offset + i, 20).toString('hex');
      i += 20;
    }
    return { type, data: this.inflate(offset + i, size), baseOffset, baseOid };
  }

  /** Inflates the zlib stream at an offset whose result is `size` bytes (reading more when needed). */
  private inflate(at: number, size: number): Buffer {
    const total = this.pack.size();
    let len = Math.min(total - at, size + 1024);
    for (;;) {
      const chunk = this.pack.read(at, len);
      try {
        const out = zlib().inflateSync(chunk, { maxOutputLength: Math.max(size, 1) });
        if (out.length !== size) throw new GitError(`object at ${at}: ${out.length} bytes, expected ${size}`);
        return out;
      } catch (e) {
        if (e instanceof GitError) throw e;
        if (len >= total - at) throw new GitError(`object at ${at}: ${e instanceof Error ? e.message : String(e)}`);
        len = Math.min(total - at, len * 2);
      }
    }
  }

  close(): void {
    this.idx.close();
    this.pack.close();
  }
}

/** Applies a git delta to a base object. */
function applyDelta(base: Buffer, delta: Buffer): Buffer {
  let i = 0;
  const varint = () => {
    let v = 0;
    let shift = 0;
    let c: number;
    do {
      c = delta[i++];
      v += (c & 0x7f) * 2 ** shift;
      shift += 7;
    } while (c & 0x80);
    return v;
  };
  const srcSize = varint();
  const dstSize = varint();
  if (srcSize !== base.length) throw new GitError('delta base size mismatch');
  if (dstSize > MAX_OBJECT_BYTES) throw new GitError(`object larger than ${MAX_OBJECT_BYTES} bytes`);
  const out = Buffer.alloc(dstSize);
  let o = 0;
  while (i < delta.length) {
    const op = delta[i++];
    if (op & 0x80) {
      let off = 0;
      let len = 0;
      for (let b = 0; b < 4; b++) if (op & (1 << b)) off += delta[i++] * 2 ** (8 * b);
      for (let b = 0; b < 3; b++) if (op & (1 << (4 + b))) len += delta[i++] * 2 ** (8 * b);
      if (len === 0) len = 0x10000;
      if (off + len > base.length || o + len > dstSize) throw new GitError('delta copy out of range');
      base.copy(out, o, off, off + len);
      o += len;
    } else if (op > 0) {
      if (o + op > dstSize || i + op > delta.length) throw new GitError('delta insert out of range');
      delta.copy(out, o, i, i + op);
      i += op;
      o += op;
    } else throw new GitError('delta opcode 0');
  }
  if (o !== dstSize) throw new GitError('delta result size mismatch');
  return out;
}

/** Where a repository's files are: the work tree, its git dir, and the common dir (objects, refs). */
export interface GitLayout {
  workTree: string;
  gitDir: string;
  commonDir: string;
}

/**
 * The repository containing `start` (a file or folder): the nearest `.git` folder, or `.git` file
 * (`gitdir: ...`, a worktree or submodule) with its `commondir`, walking up no further than `stopAt`.
 */
export function findRepository(start: string, stopAt?: string): GitLayout | undefined {
  let dir = path.resolve(start);
  try {
    if (!fs.statSync(dir).isDirectory()) dir = path.dirname(dir);
  } catch {
    dir = path.dirname(dir);
  }
  const stop = stopAt ? path.resolve(stopAt) : undefined;
  for (let depth = 0; depth < 256; depth++) {
    const dotGit = path.join(dir, '.git');
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(dotGit);
    } catch {
      st = undefined;
    }
    if (st?.isDirectory()) return { workTree: dir, gitDir: dotGit, commonDir: commonDirOf(dotGit) };
    if (st?.isFile()) {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(readText(dotGit) ?? '');
      if (m) {
        const gitDir = path.resolve(dir, m[1]);
        return { workTree: dir, gitDir, commonDir: commonDirOf(gitDir) };
      }
    }
    if (stop && dir === stop) return undefined;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}

function commonDirOf(gitDir: string): string {
  const c = readText(path.join(gitDir, 'commondir'))?.trim();
  return c ? path.resolve(gitDir, c) : gitDir;
}

/** A repository opened for reading objects. Call close() when done (pack files stay open until then). */
export class GitRepository {
  private packs: Pack[] | undefined;
  private readonly objectDirs: string[];
  private readonly cache = new Map<string, GitObject>();
  private static readonly CACHE_ENTRIES = 256;

  constructor(readonly layout: GitLayout) {
    this.objectDirs = [path.join(layout.commonDir, 'objects')];
    const alternates = readText(path.join(layout.commonDir, 'objects', 'info', 'alternates'));
    for (const line of alternates?.split('\n') ?? []) {
      const l = line.trim();
      if (l && !l.startsWith('#')) this.objectDirs.push(path.resolve(layout.commonDir, 'objects', l));
    }
    const config = readText(path.join(layout.commonDir, 'config')) ?? '';
    if (/^\s*objectformat\s*=\s*sha256/im.test(config)) throw new GitError('SHA-256 repositories are not supported');
  }

  /** Opens the repository containing `start`, or undefined when there is none. */
  static open(start: string, stopAt?: string): GitRepository | undefined {
    const layout = findRepository(start, stopAt);
    return layout ? new GitRepository(layout) : undefined;
  }

  close(): void {
    for (const p of this.packs ?? []) p.close();
    this.packs = undefined;
  }

  private allPacks(): Pack[] {
    if (!this.packs) {
      this.packs = [];
      for (const dir of this.objectDirs) {
        let names: string[] = [];
        try {
          names = fs.readdirSync(path.join(dir, 'pack'));
        } catch {
          names = [];
        }
        for (const n of names.filter((x) => x.endsWith('.idx')).sort()) this.packs.push(new Pack(path.join(dir, 'pack', n)));
      }
    }
    return this.packs;
  }

  /** A ref's object id: loose in the git dir or common dir, then packed-refs; symbolic refs followed. */
  private refValue(name: string, depth = 0): string | undefined {
    if (depth > 10) return undefined;
    // HEAD and other per-worktree refs live in the git dir; branches and tags in the common dir.
    for (const dir of name === 'HEAD' || !name.startsWith('refs/') ? [this.layout.gitDir] : [this.layout.gitDir, this.layout.commonDir]) {
      const text = readText(path.join(dir, ...name.split('/')))?.trim();
      if (text === undefined) continue;
      if (text.startsWith('ref:')) return this.refValue(text.slice(4).trim(), depth + 1);
      if (HEX40.test(text)) return text;
    }
    const packed = readText(path.join(this.layout.commonDir, 'packed-refs')) ?? '';
    for (const line of packed.split('\n')) {
      if (line.startsWith('#') || line.startsWith('^')) continue;
      const sp = line.indexOf(' ');
      if (sp === 40 && line.slice(41).trim() === name) return line.slice(0, 40);
    }
    return undefined;
  }

  /** An abbreviated object id (4 to 39 hex digits), when exactly one object has it. */
  private expandAbbreviated(prefix: string): string | undefined {
    const found = new Set<string>();
    for (const dir of this.objectDirs) {
      try {
        for (const f of fs.readdirSync(path.join(dir, prefix.slice(0, 2)))) {
          const id = prefix.slice(0, 2) + f;
          if (id.startsWith(prefix)) found.add(id);
        }
      } catch {
        // no loose objects there
      }
    }
    for (const p of this.allPacks()) for (const id of p.idsWithPrefix(prefix, 2)) found.add(id);
    return found.size === 1 ? [...found][0] : undefined;
  }

  /** The object id a name stands for, as `git rev-parse` looks it up (without `~`/`^`). */
  private resolveName(name: string): string | undefined {
    if (HEX40.test(name)) return name;
    const candidates = name === 'HEAD' || name.startsWith('refs/') ? [name] : [name, `refs/${name}`, `refs/tags/${name}`, `refs/heads/${name}`, `refs/remotes/${name}`, `refs/remotes/${name}/HEAD`];
    for (const c of candidates) {
      // A ref name never escapes the git dir.
      if (c.split('/').some((s) => s === '..' || s === '')) continue;
      const v = this.refValue(c);
      if (v) return v;
    }
    if (/^[0-9a-f]{4,39}$/.test(name)) return this.expandAbbreviated(name);
    return undefined;
  }

  /**
   * The commit a revision names: a ref name or object id, followed by `~N`, `^` and `^N` steps
   * (`HEAD`, `main`, `v1.2.0`, `origin/main`, `HEAD~1`, `abc1234^2`). Throws a GitError saying why not.
   */
  resolveCommit(rev: string): string {
    const m = /^(.*?)((?:[~^][0-9]*)*)$/.exec(rev.trim());
    const base = m?.[1] ?? '';
    if (base === '') throw new GitError(`revision "${rev}" not understood`);
    let oid = this.resolveName(base);
    if (!oid) throw new GitError(`revision "${base}" not found in ${this.layout.workTree}`);
    oid = this.peelToCommit(oid);
    for (const step of (m?.[2] ?? '').match(/[~^][0-9]*/g) ?? []) {
      const n = step.length > 1 ? Number(step.slice(1)) : 1;
      if (step[0] === '~') {
        if (n > MAX_ANCESTRY) throw new GitError(`revision "${rev}": too many ancestors`);
        for (let k = 0; k < n; k++) oid = this.parents(oid)[0] ?? this.noParent(rev);
      } else if (n > 0) oid = this.parents(oid)[n - 1] ?? this.noParent(rev);
    }
    return oid;
  }

  private noParent(rev: string): never {
    throw new GitError(`revision "${rev}": no such parent`);
  }

  private parents(commit: string): string[] {
    const text = this.readObject(commit, 'commit').data.toString('utf8');
    const head = text.slice(0, text.indexOf('\n\n') >= 0 ? text.indexOf('\n\n') : text.length);
    return [...head.matchAll(/^parent ([0-9a-f]{40})$/gm)].map((x) => x[1]);
  }

  private peelToCommit(oid: string): string {
    for (let i = 0; i < 10; i++) {
      const o = this.readObject(oid);
      if (o.type === 'commit') return oid;
      if (o.type !== 'tag') throw new GitError(`${oid} is a ${o.type}, not a commit`);
      const m = /^object ([0-9a-f]{40})$/m.exec(o.data.toString('utf8'));
      if (!m) throw new GitError(`tag ${oid} names no object`);
      oid = m[1];
    }
    throw new GitError(`tag ${oid}: too many levels`);
  }

  /** An object by id (loose, then packs); the expected type is checked when given. */
  readObject(oid: string, expect?: GitObjectType): GitObject {
    const o = this.cache.get(oid) ?? this.load(oid, 0);
    if (!this.cache.has(oid) && o.type !== 'blob') {
      if (this.cache.size >= GitRepository.CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(oid, o);
    }
    if (expect && o.type !== expect) throw new GitError(`${oid} is a ${o.type}, not a ${expect}`);
    return o;
  }

  private load(oid: string, depth: number): GitObject {
    if (depth > MAX_DELTA_DEPTH) throw new GitError(`${oid}: delta chain too deep`);
    for (const dir of this.objectDirs) {
      const raw = readIf(path.join(dir, oid.slice(0, 2), oid.slice(2)));
      if (!raw) continue;
      const data = zlib().inflateSync(raw, { maxOutputLength: MAX_OBJECT_BYTES + 64 });
      const nul = data.indexOf(0);
      const [type, size] = data.subarray(0, nul).toString('latin1').split(' ');
      if (!['commit', 'tree', 'blob', 'tag'].includes(type)) throw new GitError(`${oid}: unknown object type ${type}`);
      const body = data.subarray(nul + 1);
      if (Number(size) !== body.length) throw new GitError(`${oid}: corrupt loose object`);
      return { type: type as GitObjectType, data: body };
    }
    for (const p of this.allPacks()) {
      const off = p.offsetOf(oid);
      if (off !== undefined) return this.fromPack(p, off, depth);
    }
    throw new GitError(`object ${oid} is not in the repository (a shallow or partial clone?)`);
  }

  private fromPack(p: Pack, offset: number, depth: number): GitObject {
    if (depth > MAX_DELTA_DEPTH) throw new GitError('delta chain too deep');
    const e = p.entryAt(offset);
    if (e.type in TYPES) return { type: TYPES[e.type], data: e.data };
    const base = e.baseOffset !== undefined ? this.fromPack(p, e.baseOffset, depth + 1) : this.load(e.baseOid!, depth + 1);
    return { type: base.type, data: applyDelta(base.data, e.data) };
  }

  /**
   * A file's content at a commit, by its path relative to the work tree (`/`-separated), or undefined
   * when the commit has no such file (or it is not a regular file).
   */
  readFile(commit: string, relPath: string): Buffer | undefined {
    const text = this.readObject(commit, 'commit').data.toString('utf8');
    const m = /^tree ([0-9a-f]{40})$/m.exec(text);
    if (!m) throw new GitError(`commit ${commit} has no tree`);
    let oid = m[1];
    const parts = relPath.split('/').filter((s) => s !== '' && s !== '.');
    for (let i = 0; i < parts.length; i++) {
      const entry = this.treeEntry(oid, parts[i]);
      if (!entry) return undefined;
      const last = i === parts.length - 1;
      if (last ? !entry.mode.startsWith('100') : entry.mode !== '40000') return undefined;
      oid = entry.oid;
    }
    return this.readObject(oid, 'blob').data;
  }

  private treeEntry(tree: string, name: string): { mode: string; oid: string } | undefined {
    const data = this.readObject(tree, 'tree').data;
    let i = 0;
    while (i < data.length) {
      const sp = data.indexOf(0x20, i);
      const nul = data.indexOf(0, sp);
      if (sp < 0 || nul < 0) break;
      const mode = data.subarray(i, sp).toString('latin1');
      const n = data.subarray(sp + 1, nul).toString('utf8');
      const oid = data.subarray(nul + 1, nul + 21).toString('hex');
      if (n === name) return { mode, oid };
      i = nul + 21;
    }
    return undefined;
  }
}
