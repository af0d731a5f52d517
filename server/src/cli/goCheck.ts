/**
 * `crd-yaml check` on Go API packages: the folders given (or `--go PATTERN`s) that hold kubebuilder types
 * are generated with the project's controller-tools (workspace/goGenerator.ts), and the same service that
 * checks CRD files reports the findings at the Go lines that made them (service/goTypes.ts). Without Go,
 * or when the module does not build, one line says so and the rest of the check goes on.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LanguageService } from '../service';
import { generationProblem } from '../service';
import { defaultCacheDir, GoGenerator } from '../workspace/goGenerator';
import { moduleRootOf, packagePattern } from '../workspace/goPackages';
import type { CheckOptions, FileFinding } from './check';

export interface GoCheck {
  findings: FileFinding[];
  /** Go files with findings (for the summary's file count). */
  files: number;
  /** CRDs generated and checked. */
  crds: number;
  /** The folders (as given) that held API packages: not "no YAML files found" errors. */
  dirs: string[];
  /** Lines for stderr (Go missing, a module that does not build, the controller-tools version used when not the pinned one). */
  notes: string[];
}

/** Groups package folders by module: module folder -> go/packages patterns. */
function byModule(pkgDirs: string[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const d of pkgDirs) {
    const root = moduleRootOf(d);
    if (!root) continue;
    let s = out.get(root);
    if (!s) out.set(root, (s = new Set()));
    s.add(packagePattern(root, d));
  }
  return out;
}

/** The packages of `--go` patterns (`./api/...`, relative to the working directory) by module. */
function patternsByModule(patterns: string[], cwd: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const p of patterns) {
    const recursive = p.endsWith('/...');
    const dir = path.resolve(cwd, recursive ? p.slice(0, -4) || '.' : p);
    const root = moduleRootOf(dir);
    if (!root) continue;
    let s = out.get(root);
    if (!s) out.set(root, (s = new Set()));
    const rel = packagePattern(root, dir);
    s.add(recursive ? (rel === '.' ? './...' : `${rel}/...`) : rel);
  }
  return out;
}

/**
 * The Go findings of the API packages `pkgDirs` (folders, as cli/files.ts found them) and of the `--go` patterns. `generator`:
 * a session's generator (tests pass theirs; the CLI makes one and ends its processes after).
 */
export async function checkGoPackages(pkgDirs: string[], goPatterns: string[], opts: CheckOptions & { generator?: GoGenerator; service?: LanguageService } = {}): Promise<GoCheck> {
  const cwd = opts.cwd ?? process.cwd();
  const dirs: string[] = [];
  const modules = byModule(pkgDirs);
  for (const [m, pats] of patternsByModule(goPatterns, cwd)) {
    const s = modules.get(m) ?? new Set<string>();
    for (const x of pats) s.add(x);
    modules.set(m, s);
  }
  const result: GoCheck = { findings: [], files: 0, crds: 0, dirs, notes: [] };
  if (modules.size === 0) {
    if (goPatterns.length) result.notes.push(`--go ${goPatterns.join(' ')}: no Go module (go.mod) holds these packages`);
    return result;
  }
  const generator = opts.generator ?? new GoGenerator({ cacheDir: process.env.CRD_YAML_CACHE ?? defaultCacheDir(), bin: process.env.CRD_YAML_CRDGEN || undefined });
  const service =
    opts.service ??
    new LanguageService({
      yamlVersion: '1.1',
      fieldValidation: opts.fieldValidation ?? 'Strict',
      unknownKinds: 'ignore',
      kubernetesMinor: opts.kubernetesMinor,
      celLintScope: opts.celLintScope,
    });
  service.setWorkspaceFolders([pathToFileURL(cwd).href]);
  try {
    for (const [moduleDir, patterns] of modules) {
      const a = await generator.generate(moduleDir, { packages: [...patterns].sort() });
      const rel = path.relative(cwd, moduleDir) || '.';
      if (!a.ok) {
        result.notes.push(`Go packages in ${rel} not checked: ${a.problem.message}`);
        continue;
      }
      const g = a.generation;
      const problem = generationProblem(g);
      if (problem) result.notes.push(`${rel}: ${problem}`);
      if (a.pinned && g.controllerTools && a.pinned !== g.controllerTools) result.notes.push(`${rel}: generated with controller-tools ${g.controllerTools} (the project pins ${a.pinned}, which crd-yaml does not build)`);
      const texts = new Map<string, string | undefined>();
      const text = (f: string) => {
        if (!texts.has(f)) {
          let t: string | undefined;
          try {
            t = fs.readFileSync(f, 'utf8');
          } catch {
            t = undefined;
          }
          texts.set(f, t);
        }
        return texts.get(f);
      };
      result.crds += g.crds.length;
      service.setGoGeneration(moduleDir, g, text);
      for (const file of service.goFindingFiles(moduleDir).sort()) {
        const uri = pathToFileURL(file).href;
        const td = TextDocument.create(uri, 'go', 1, text(file) ?? '');
        const shown = path.relative(cwd, file) || file;
        result.files++;
        for (const f of service.goFindings(uri)) result.findings.push({ ...f, file: shown, fixes: service.fixesOf(td, f).filter((x) => x.edits.length > 0) });
      }
      service.setGoGeneration(moduleDir, undefined);
    }
  } finally {
    if (!opts.generator) generator.dispose();
  }
  result.findings.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character));
  return result;
}
