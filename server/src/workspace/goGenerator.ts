/**
 * The CRD generator as a process (IO): go/crdgen is built with the user's Go toolchain on first use, cached
 * by the hash of its sources and the controller-tools version in the cache folder, and run as one
 * long-lived process per Go module (it keeps the packages loaded: a re-check after an edit does not reload
 * the world). Requests are JSON lines; the editor's unsaved .go buffers travel as overlays. Every request
 * has a deadline, and a process that misses it is ended (the next request starts another one): the caller
 * never waits on Go for longer than that. Go missing or a module that does not build is said once
 * (`problem`), plainly.
 */
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs, existsSync, readdirSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { GoGeneration } from './crdgenProtocol';

/** The default cache folder (`$XDG_CACHE_HOME/crd-yaml`, else ~/.cache/crd-yaml). */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'crd-yaml');
}

export interface GeneratorOptions {
  /** Where built generators are kept (`<cacheDir>/crdgen/<key>/crdgen`). */
  cacheDir: string;
  /** go/crdgen's sources (default: beside dist/, then the checkout's). */
  sourceDir?: string;
  /** A generator already built (go/crdgen/build.sh; `CRD_YAML_CRDGEN`): no build, whatever the version. */
  bin?: string;
  /** The go command (default `go` on PATH). */
  goBin?: string;
  /** A generate request's deadline (default 120 s: the first load of a large module's packages). */
  timeoutMs?: number;
  /** The build's deadline (default 15 minutes: the first build downloads controller-tools). */
  buildTimeoutMs?: number;
  log?: (message: string) => void;
}

/** Why Go findings are not there: said once per cause. */
export interface GeneratorProblem {
  kind: 'noGo' | 'build' | 'module' | 'timeout';
  message: string;
}

export type GenerateAnswer = { ok: true; generation: GoGeneration; pinned?: string } | { ok: false; problem: GeneratorProblem };

/** The folder of go/crdgen's sources: dist/../go/crdgen (the packaged extension, the checkout). */
export function crdgenSourceDir(): string | undefined {
  for (const base of [path.join(__dirname, '..'), path.join(__dirname, '..', '..', '..')]) {
    const dir = path.join(base, 'go', 'crdgen');
    if (existsSync(path.join(dir, 'go.mod'))) return dir;
  }
  return undefined;
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

const VERSION = String.raw`(v\d+\.\d+\.\d+)`;

/**
 * The controller-tools version a module pins (PROTOCOL.md "Which version"): a require in its go.mod or a
 * tools module's, else CONTROLLER_TOOLS_VERSION / CONTROLLER_GEN_VERSION or `controller-gen@v...` in its
 * Makefile and *.mk files.
 */
export function pinnedControllerTools(moduleDir: string): string | undefined {
  const req = new RegExp(String.raw`^\s*(?:require\s+)?sigs\.k8s\.io/controller-tools\s+` + VERSION, 'm');
  for (const f of ['go.mod', 'hack/tools/go.mod', 'hack/internal/tools/go.mod', 'tools/go.mod']) {
    const m = req.exec(readText(path.join(moduleDir, f)) ?? '');
    if (m) return m[1];
  }
  let makefiles = ['Makefile'];
  try {
    makefiles = makefiles.concat(
      readdirSync(moduleDir)
        .filter((n) => n.endsWith('.mk'))
        .sort(),
    );
  } catch {
    // No folder listing: the Makefile alone.
  }
  const mk = new RegExp(String.raw`^\s*CONTROLLER_(?:TOOLS|GEN)_VERSION\s*[?:]?=\s*` + VERSION, 'm');
  const at = new RegExp('controller-gen@' + VERSION);
  for (const f of makefiles) {
    const t = readText(path.join(moduleDir, f)) ?? '';
    const m = mk.exec(t) ?? at.exec(t);
    if (m) return m[1];
  }
  return undefined;
}

function semver(v: string): number[] {
  return v
    .replace(/^v/, '')
    .split('.')
    .map((x) => Number.parseInt(x, 10) || 0);
}

function compareVersions(a: string, b: string): number {
  const x = semver(a);
  const y = semver(b);
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

/** The version run for a pin: the pin when supported, else the oldest supported not older than it, else the newest. */
export function chooseVersion(supported: string[], pinned: string | undefined): string | undefined {
  const sorted = [...supported].sort(compareVersions);
  if (!sorted.length) return undefined;
  if (!pinned) return sorted.at(-1);
  return sorted.find((v) => compareVersions(v, pinned) >= 0) ?? sorted.at(-1);
}

/** The controller-tools versions go/crdgen builds with: the folders of go/crdgen/versions. */
export function supportedVersions(sourceDir: string): string[] {
  try {
    return readdirSync(path.join(sourceDir, 'versions')).filter((v) => /^v\d+\.\d+\.\d+$/.test(v) && existsSync(path.join(sourceDir, 'versions', v, 'go.mod')));
  } catch {
    return [];
  }
}

/**
 * The build's cache key (PROTOCOL.md): `go version`, the version, then go/crdgen's *.go files,
 * the applyconfig folders' files and that version's go.mod and go.sum, sorted by path.
 */
export async function buildKey(sourceDir: string, version: string, goVersion: string): Promise<string> {
  const h = createHash('sha256');
  h.update(goVersion).update('\0').update(version).update('\0');
  const files: string[] = (await fs.readdir(sourceDir)).filter((n) => n.endsWith('.go') && !n.endsWith('_test.go'));
  // The applyconfig modules a version's go.mod replaces in are part of its build too.
  const versions = path.join(sourceDir, 'versions');
  for (const d of (await fs.readdir(versions).catch(() => [] as string[])).filter((n) => n.startsWith('applyconfig'))) {
    const names = await fs.readdir(path.join(versions, d)).catch(() => [] as string[]);
    for (const n of names) files.push(`versions/${d}/${n}`);
  }
  files.push(`versions/${version}/go.mod`, `versions/${version}/go.sum`);
  files.sort();
  for (const f of files)
    h.update(f)
      .update('\0')
      .update(await fs.readFile(path.join(sourceDir, f)).catch(() => Buffer.alloc(0)))
      .update('\0');
  return h.digest('hex').slice(0, 16);
}

interface Pending {
  resolve: (a: GenerateAnswer) => void;
  timer: NodeJS.Timeout;
}

/** One running generator of one module. */
class GeneratorProcess {
  private buffer = '';
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private stderr = '';
  exited = false;

  constructor(
    private readonly child: ChildProcess,
    private readonly timeoutMs: number,
    private readonly onExit: () => void,
  ) {
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (d: string) => this.read(d));
    child.stderr!.setEncoding('utf8');
    // Kept short: the last words are what a failure says.
    child.stderr!.on('data', (d: string) => void (this.stderr = (this.stderr + d).slice(-4000)));
    child.on('exit', () => this.end(`the generator stopped${this.stderr.trim() ? `: ${this.stderr.trim().split('\n').slice(-3).join(' ')}` : ''}`));
    child.on('error', (e) => this.end(`the generator did not start: ${e.message}`));
  }

  private end(message: string): void {
    if (this.exited) return;
    this.exited = true;
    for (const [, p] of this.pending) {
      clearTimeout(p.timer);
      p.resolve({ ok: false, problem: { kind: 'module', message } });
    }
    this.pending.clear();
    this.onExit();
  }

  private read(d: string): void {
    this.buffer += d;
    for (let nl = this.buffer.indexOf('\n'); nl >= 0; nl = this.buffer.indexOf('\n')) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      if (!line.trim()) continue;
      let msg: { id?: number; error?: { message?: string }; result?: Partial<GoGeneration> };
      try {
        msg = JSON.parse(line);
      } catch {
        continue;
      }
      const p = msg.id === undefined ? undefined : this.pending.get(msg.id);
      if (!p) continue;
      this.pending.delete(msg.id!);
      clearTimeout(p.timer);
      const r = msg.result;
      if (msg.error || !r) p.resolve({ ok: false, problem: { kind: 'module', message: msg.error?.message ?? 'the generator gave no result' } });
      else p.resolve({ ok: true, generation: { ...r, crds: r.crds ?? [], markerProblems: r.markerProblems ?? [], errors: r.errors ?? [] } });
    }
  }

  request(method: string, params: Record<string, unknown>): Promise<GenerateAnswer> {
    if (this.exited) return Promise.resolve({ ok: false, problem: { kind: 'module', message: 'the generator stopped' } });
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve({ ok: false, problem: { kind: 'timeout', message: `the generator did not answer within ${Math.round(this.timeoutMs / 1000)} s` } });
        // A generator that missed its deadline is ended: the next request starts a fresh one.
        this.kill();
      }, this.timeoutMs);
      timer.unref?.();
      this.pending.set(id, { resolve, timer });
      this.child.stdin!.write(JSON.stringify({ id, method, params }) + '\n');
    });
  }

  kill(): void {
    // EOF on stdin ends it; a generator stuck in a load is ended by a signal.
    if (!this.exited) {
      this.child.stdin!.end();
      this.child.kill();
    }
    this.end('the generator was stopped');
  }
}

type Built = { ok: true; bin: string } | { ok: false; problem: GeneratorProblem };

/**
 * The generators of a session: one build per controller-tools version, one process per module.
 * `generate` never throws; a problem is an answer.
 */
export class GoGenerator {
  private readonly builds = new Map<string, Promise<Built>>();
  private readonly processes = new Map<string, GeneratorProcess>();
  /** Builds run, processes started, requests sent (tests assert on counts, never on time). */
  readonly stats = { builds: 0, starts: 0, requests: 0 };

  constructor(private readonly opts: GeneratorOptions) {}

  private log(m: string): void {
    this.opts.log?.(m);
  }

  private get sourceDir(): string | undefined {
    return this.opts.sourceDir ?? crdgenSourceDir();
  }

  /** The version a module's CRDs are generated with, and the one it pins (when it pins one). */
  versionFor(moduleDir: string): { version?: string; pinned?: string } {
    const src = this.sourceDir;
    const pinned = pinnedControllerTools(moduleDir);
    return { version: src ? chooseVersion(supportedVersions(src), pinned) : undefined, pinned };
  }

  /** The generator binary for a controller-tools version: built once per session (and once per key on disk). */
  build(version: string): Promise<Built> {
    let b = this.builds.get(version);
    if (!b) {
      // A failed build is tried again by a later session, not by every request of this one.
      b = this.buildOnce(version);
      this.builds.set(version, b);
    }
    return b;
  }

  private async buildOnce(version: string): Promise<Built> {
    const src = this.sourceDir;
    if (!src) return { ok: false, problem: { kind: 'build', message: 'the CRD generator (go/crdgen) is not installed with crd-yaml' } };
    const go = this.opts.goBin ?? 'go';
    const goVersion = await run(go, ['version'], { cwd: src, timeoutMs: 30_000 });
    if (goVersion.code !== 0) return { ok: false, problem: { kind: 'noGo', message: `Go is not installed ('${go}' did not run): Go types are not checked (their CRDs are generated with your Go toolchain)` } };
    const key = await buildKey(src, version, goVersion.out.trim());
    const dir = path.join(this.opts.cacheDir, 'crdgen', key);
    const bin = path.join(dir, process.platform === 'win32' ? 'crdgen.exe' : 'crdgen');
    if (existsSync(bin)) return { ok: true, bin };
    this.stats.builds++;
    await fs.mkdir(dir, { recursive: true });
    this.log(`building the CRD generator (controller-tools ${version}) with ${goVersion.out.trim()}`);
    const tmp = `${bin}.${process.pid}.tmp`;
    const built = await run(go, ['build', '-trimpath', `-modfile=versions/${version}/go.mod`, '-o', tmp, '.'], {
      cwd: src,
      timeoutMs: this.opts.buildTimeoutMs ?? 900_000,
      env: { ...process.env, GOWORK: 'off', GOFLAGS: '-mod=readonly' },
    });
    if (built.code !== 0) {
      await fs.rm(tmp, { force: true }).catch(() => undefined);
      return { ok: false, problem: { kind: 'build', message: `the CRD generator (controller-tools ${version}) did not build: ${lastLines(built.err)}` } };
    }
    // Renamed into place: two editors racing never run a half-written binary.
    await fs.rename(tmp, bin);
    return { ok: true, bin };
  }

  /**
   * The CRDs of `packages` (relative to `moduleDir`, `./api/...`; absent: the project's own controller-gen
   * paths) with `overlays` (absolute path -> unsaved text) in place of the files on disk.
   */
  async generate(moduleDir: string, opts: { packages?: string[]; overlays?: Record<string, string>; sourceMap?: boolean } = {}): Promise<GenerateAnswer> {
    const { version, pinned } = this.versionFor(moduleDir);
    if (!version && !this.opts.bin) return { ok: false, problem: { kind: 'build', message: 'the CRD generator (go/crdgen) is not installed with crd-yaml' } };
    let p = this.processes.get(moduleDir);
    if (!p || p.exited) {
      const b: Built = this.opts.bin ? { ok: true, bin: this.opts.bin } : await this.build(version!);
      if (!b.ok) return b;
      p = this.start(b.bin, moduleDir);
    }
    this.stats.requests++;
    const params: Record<string, unknown> = { moduleDir, overlays: opts.overlays ?? {} };
    if (opts.packages) params.packages = opts.packages;
    if (opts.sourceMap === false) params.sourceMap = false;
    const a = await p.request('generate', params);
    return a.ok ? { ...a, pinned } : a;
  }

  private start(bin: string, moduleDir: string): GeneratorProcess {
    this.stats.starts++;
    const child = spawnChild(bin, [], { cwd: moduleDir, stdio: ['pipe', 'pipe', 'pipe'] });
    const p = new GeneratorProcess(child, this.opts.timeoutMs ?? 120_000, () => {
      if (this.processes.get(moduleDir) === p) this.processes.delete(moduleDir);
    });
    this.processes.set(moduleDir, p);
    return p;
  }

  /** Ends every generator process. */
  dispose(): void {
    for (const p of this.processes.values()) p.kill();
    this.processes.clear();
  }
}

/** child_process loaded on first use (a check without Go types never loads it: start-up counts, ARCHITECTURE.md). */
function spawnChild(...args: Parameters<typeof import('node:child_process').spawn>): ChildProcess {
  return (require('node:child_process') as typeof import('node:child_process')).spawn(...args);
}

function lastLines(s: string, n = 3): string {
  return s.trim().split('\n').slice(-n).join(' ').trim() || '(no output)';
}

/** Runs a command to its end (or its deadline), collecting its output. */
function run(cmd: string, args: string[], opts: { cwd: string; timeoutMs: number; env?: NodeJS.ProcessEnv }): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    let out = '';
    let err = '';
    let child: ChildProcess;
    try {
      child = spawnChild(cmd, args, { cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'], env: opts.env ?? process.env });
    } catch (e) {
      resolve({ code: -1, out, err: (e as Error).message });
      return;
    }
    const timer = setTimeout(() => child.kill(), opts.timeoutMs);
    child.stdout!.on('data', (d) => void (out = (out + d).slice(-20000)));
    child.stderr!.on('data', (d) => void (err = (err + d).slice(-20000)));
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ code: -1, out, err: e.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, out, err });
    });
  });
}
