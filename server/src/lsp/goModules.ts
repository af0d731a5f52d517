/**
 * The check worker's Go side (issue 26): open .go files of API packages (+groupName /
 * +kubebuilder:object:root=true) have their module's CRDs generated (workspace/goGenerator.ts, one
 * long-lived process per module, the open buffers as overlays) after an edit pauses and on save; the
 * service then checks those CRDs and each open Go file of the module gets its findings. A generation runs
 * in the generator's process, so the worker keeps serving meanwhile; an edit made while one runs starts
 * the next when it ends (never two at once per module). Go missing, a build failure or a module that does
 * not build is said once per module and cause.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { LanguageService } from '../service';
import { generationProblem } from '../service';
import { defaultCacheDir, GoGenerator } from '../workspace/goGenerator';
import { declaresApiTypes, moduleRootOf } from '../workspace/goPackages';

/** An edit's generation waits this long for the next keystroke (a save generates at once). */
export const GO_EDIT_DELAY_MS = 100;

interface ModuleState {
  running: boolean;
  /** An edit or save arrived while a generation ran: run again when it ends. */
  again: boolean;
  timer?: NodeJS.Timeout;
  /** Causes already said (said once). */
  said: Set<string>;
}

export interface GoModulesHost {
  service: LanguageService;
  /** The open documents. */
  documents: () => Iterable<TextDocument>;
  /** May this path be read (inside the workspace folders)? */
  readable: (file: string) => boolean;
  /** Go runs only in a trusted workspace (go list and build read the module's go.mod directives). */
  trusted: () => boolean;
  /** Publish a Go document's findings (the worker renders them). */
  publish: (doc: TextDocument) => void;
  /** Open YAML documents to check again (drift). */
  recheckYaml: () => void;
  /** A problem for people, once. */
  say: (message: string) => void;
  log: (message: string) => void;
}

export class GoModules {
  private generator: GoGenerator;
  private readonly modules = new Map<string, ModuleState>();
  /** Whether a package folder is an API package, by folder (a file's own text decides when it says so). */
  private readonly apiDirs = new Map<string, boolean>();
  /** Generations finished (tests count them; never time). */
  readonly stats = { generations: 0 };

  constructor(private readonly host: GoModulesHost) {
    this.generator = new GoGenerator({ cacheDir: defaultCacheDir(), bin: process.env.CRD_YAML_CRDGEN || undefined, log: (m) => host.log(m) });
  }

  /** The client's cache folder (initialization options): built generators go there. */
  setCacheDir(dir: string): void {
    this.generator.dispose();
    this.generator = new GoGenerator({ cacheDir: dir, bin: process.env.CRD_YAML_CRDGEN || undefined, log: (m) => this.host.log(m) });
  }

  /** The module of an open Go document of an API package, or undefined (not ours: no diagnostics at all). */
  moduleOf(doc: TextDocument): string | undefined {
    const file = pathOf(doc.uri);
    if (!file || !this.host.trusted() || !this.host.readable(file)) return undefined;
    const dir = path.dirname(file);
    let api = declaresApiTypes(doc.getText()) || this.apiDirs.get(dir);
    if (api === undefined) {
      api = false;
      try {
        for (const n of fs.readdirSync(dir))
          if (n.endsWith('.go') && !n.endsWith('_test.go') && declaresApiTypes(fs.readFileSync(path.join(dir, n), 'utf8'))) {
            api = true;
            break;
          }
      } catch {
        // An unreadable folder: not an API package.
      }
      this.apiDirs.set(dir, api);
    }
    return api ? moduleRootOf(dir) : undefined;
  }

  /** An open Go document changed (`urgent`: a keystroke, generated after a pause) or was saved/opened. */
  changed(doc: TextDocument, urgent: boolean): void {
    const m = this.moduleOf(doc);
    if (!m) return;
    let s = this.modules.get(m);
    if (!s) this.modules.set(m, (s = { running: false, again: false, said: new Set() }));
    clearTimeout(s.timer);
    if (s.running) {
      s.again = true;
      return;
    }
    const state = s;
    if (urgent) {
      state.timer = setTimeout(() => void this.generate(m, state), GO_EDIT_DELAY_MS);
      state.timer.unref?.();
    } else void this.generate(m, state);
  }

  private openIn(moduleDir: string): TextDocument[] {
    const out: TextDocument[] = [];
    for (const d of this.host.documents()) {
      const f = pathOf(d.uri);
      if (f?.endsWith('.go') && f.startsWith(moduleDir + path.sep)) out.push(d);
    }
    return out;
  }

  private async generate(moduleDir: string, s: ModuleState): Promise<void> {
    s.running = true;
    s.again = false;
    try {
      const open = this.openIn(moduleDir);
      const overlays: Record<string, string> = {};
      const versions = new Map<string, number>();
      for (const d of open) {
        overlays[pathOf(d.uri)!] = d.getText();
        versions.set(d.uri, d.version);
      }
      const a = await this.generator.generate(moduleDir, { overlays });
      this.stats.generations++;
      if (!a.ok) {
        this.sayOnce(s, a.problem.kind, `crd-yaml: the Go types in ${moduleDir} are not checked: ${a.problem.message}`);
        return;
      }
      const problem = generationProblem(a.generation);
      if (problem) this.sayOnce(s, `module:${problem}`, `crd-yaml: ${problem}`);
      if (a.pinned && a.generation.controllerTools && a.pinned !== a.generation.controllerTools)
        this.sayOnce(s, 'version', `crd-yaml: ${moduleDir} pins controller-tools ${a.pinned}; its CRDs are generated with ${a.generation.controllerTools}`);
      // A newer text came in meanwhile: this generation is not the one to show.
      if (s.again) return;
      const texts = new Map(open.map((d) => [pathOf(d.uri)!, d.getText()]));
      this.host.service.setGoGeneration(moduleDir, a.generation, (f) => texts.get(f) ?? readIfReadable(f, this.host.readable));
      for (const d of this.openIn(moduleDir)) if (versions.get(d.uri) === d.version) this.host.publish(d);
      this.host.recheckYaml();
    } catch (e) {
      this.host.log(`generating the CRDs of ${moduleDir} failed: ${(e as Error).stack ?? e}`);
    } finally {
      s.running = false;
      if (s.again) void this.generate(moduleDir, s);
    }
  }

  private sayOnce(s: ModuleState, cause: string, message: string): void {
    this.host.log(message);
    if (s.said.has(cause)) return;
    s.said.add(cause);
    this.host.say(message);
  }

  /** Ends the generators (the worker ends). */
  dispose(): void {
    for (const s of this.modules.values()) clearTimeout(s.timer);
    this.generator.dispose();
  }
}

function pathOf(uri: string): string | undefined {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : undefined;
  } catch {
    return undefined;
  }
}

function readIfReadable(file: string, readable: (f: string) => boolean): string | undefined {
  if (!readable(file)) return undefined;
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
