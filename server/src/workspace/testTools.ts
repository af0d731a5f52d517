/**
 * Test tools' folders: which files a Kyverno Chainsaw test or a kuttl test suite sends to the API server
 * whole (`resource`: applied or created) and which it only compares with what the cluster holds
 * (`assertion`: a partial object). Pure: the callers read the test definitions (repository.ts).
 *
 * - Chainsaw: a folder with a `chainsaw-test.yaml` (a `Test` of chainsaw.kyverno.io). Its steps name
 *   files (`file:`, a path or a glob relative to the test's folder) under operations: `apply`, `create`,
 *   `update` send resources, `patch` sends a partial one, `assert` and `error` compare, `delete` names
 *   what to delete (a partial object). A step may `use` a `StepTemplate` file whose operations name files
 *   relative to the template's folder.
 * - kuttl: a `kuttl-test.yaml` (a `TestSuite` of kuttl.dev) lists `testDirs`; each folder in one is a
 *   test case whose step files are named `<index>-<name>.yaml` (or sit in a `<index>-<name>/` folder).
 *   Files whose name (after the index) starts with `assert` or `errors` are compared, others applied
 *   (kuttl's step.go: `^(?:\d+-)?([^-\.]+)(-[^\.]+)?(?:\.yaml)?$`).
 */
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { globToRegExp, type Glob } from './scan';

/** What a test tool does with a file. */
export interface TestToolRole {
  tool: 'chainsaw' | 'kuttl';
  role: 'assertion' | 'resource';
  /** Chainsaw's `patch` operation: a resource that only updates the fields it has. */
  patch?: boolean;
}

/** The file names of a Chainsaw test, in chainsaw's default discovery. */
export const CHAINSAW_TEST_FILE_NAMES = ['chainsaw-test.yaml', 'chainsaw-test.yml'];
/** The file name of a kuttl test suite (its default `--config`). */
export const KUTTL_SUITE_FILE_NAME = 'kuttl-test.yaml';

/** Whether a file name is a test tool's own definition (a change re-classifies the files around it). */
export function isTestToolFile(file: string): boolean {
  const b = path.basename(file);
  return CHAINSAW_TEST_FILE_NAMES.includes(b) || b === KUTTL_SUITE_FILE_NAME;
}

/** Operations of a Chainsaw step and what they do with their file. */
const CHAINSAW_OPERATIONS: Record<string, Omit<TestToolRole, 'tool'>> = {
  apply: { role: 'resource' },
  create: { role: 'resource' },
  update: { role: 'resource' },
  patch: { role: 'resource', patch: true },
  assert: { role: 'assertion' },
  error: { role: 'assertion' },
  delete: { role: 'assertion' },
};
/** The blocks of a Chainsaw step that hold operations. */
const STEP_BLOCKS = ['try', 'catch', 'finally', 'cleanup'];
/** Bounds on what one test definition may name (a test is a few dozen operations). */
const MAX_OPERATIONS = 10_000;
const MAX_DOCUMENTS = 100;

const rec = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The documents of a test definition as values; unparsable text has none. */
function documents(text: string): unknown[] {
  try {
    const docs = parseAllDocuments(text, { logLevel: 'error' });
    return Array.isArray(docs) ? docs.slice(0, MAX_DOCUMENTS).map((d) => d.toJS({ maxAliasCount: 100 })) : [];
  } catch {
    return [];
  }
}

/** A file pattern a test names, with the role it gives. */
interface Named {
  /** Absolute, `/`-separated. */
  glob: Glob;
  exact?: string;
  role: TestToolRole;
}

/** A step file of a kuttl test case: its role from its name (undefined: not a step file kuttl reads). */
export function kuttlStepRole(caseRelative: string): TestToolRole | undefined {
  const parts = caseRelative.split('/');
  const step = /^\d+-[^.]+(?:\.yaml)?$/;
  let name: string;
  if (parts.length === 1) {
    if (!step.test(parts[0]) || !parts[0].endsWith('.yaml')) return undefined;
    name = parts[0];
  } else if (parts.length === 2 && step.test(parts[0]) && !parts[0].endsWith('.yaml') && parts[1].endsWith('.yaml')) {
    // A step folder: every file in it belongs to the step, named with or without the index.
    name = parts[1];
  } else return undefined;
  const m = /^(?:\d+-)?([^-.]+)(-[^.]+)?(?:\.yaml)?$/.exec(name);
  if (!m) return undefined;
  const kind = m[1].toLowerCase();
  return { tool: 'kuttl', role: kind === 'assert' || kind === 'errors' ? 'assertion' : 'resource' };
}

/** The reads a test's files need (the caller's read rules apply); none by default. */
export interface TestToolReads {
  /** A file's text (undefined: not readable). */
  read(file: string): string | undefined;
  /** The files in a folder (names). */
  files(dir: string): string[];
}

const NO_READS: TestToolReads = { read: () => undefined, files: () => [] };

/**
 * The objects a file holds, as `apiVersion kind namespace/name` (those without a literal name, or named by
 * an expression, are none).
 */
function identities(text: string | undefined): string[] {
  if (text === undefined) return [];
  const out: string[] = [];
  for (const doc of documents(text)) {
    const d = rec(doc);
    const m = rec(d.metadata);
    if (typeof m.name !== 'string' || m.name === '' || m.name.startsWith('(')) continue;
    out.push(`${String(d.apiVersion)} ${String(d.kind)} ${typeof m.namespace === 'string' ? m.namespace : ''}/${m.name}`);
  }
  return out;
}

/**
 * The roles test definitions give files: recorded per definition file, asked per file. Both tools create
 * an object that does not exist and merge-patch one that does (kuttl's CreateOrUpdate, chainsaw's apply):
 * a file that sends an object an earlier step sent is a patch.
 */
export class TestToolFiles {
  private readonly named = new Map<string, Named[]>();
  /** The folders of the Chainsaw tests recorded. */
  private readonly chainsawDirs = new Set<string>();
  private readonly kuttlDirs = new Map<string, string[]>();
  /** The step files of a kuttl test case that update objects of its earlier steps, by case folder. */
  private readonly kuttlUpdates = new Map<string, Set<string>>();

  constructor(private readonly reads: TestToolReads = NO_READS) {}

  /**
   * Records a Chainsaw test (`chainsaw-test.yaml`): the files its steps name, and those of the step
   * templates it uses. Unparsable text names nothing.
   */
  addChainsawTest(testFile: string, text: string): void {
    const out: Named[] = [];
    const dir = path.dirname(path.resolve(testFile));
    const budget = { left: MAX_OPERATIONS };
    // The objects sent so far, in step order: an `apply` of one of them patches it.
    const sent = new Set<string>();
    const operations = (blocks: Record<string, unknown>, base: string) => {
      for (const b of STEP_BLOCKS)
        for (const op of list(blocks[b])) {
          if (budget.left-- <= 0) return;
          for (const [name, what] of Object.entries(CHAINSAW_OPERATIONS)) {
            const file = rec(rec(op)[name]).file;
            if (typeof file !== 'string' || file === '' || /^[a-z]+:\/\//i.test(file) || file.includes('\n')) continue;
            // Paths and globs are relative to the folder of the file that names them.
            const abs = path.resolve(base, file).split(path.sep).join('/');
            const exact = /[*?{[]/.test(file) ? undefined : abs;
            let role: TestToolRole = { tool: 'chainsaw', ...what };
            if (exact && role.role === 'resource' && !role.patch) {
              const ids = identities(this.reads.read(path.resolve(base, file)));
              if (name === 'apply' && ids.some((id) => sent.has(id))) role = { ...role, patch: true };
              for (const id of ids) sent.add(id);
            }
            out.push({ glob: globToRegExp(abs), exact, role });
          }
        }
    };
    let isTest = false;
    for (const doc of documents(text)) {
      const d = rec(doc);
      if (typeof d.apiVersion !== 'string' || !d.apiVersion.startsWith('chainsaw.kyverno.io/') || d.kind !== 'Test') continue;
      isTest = true;
      for (const step of list(rec(d.spec).steps)) {
        const s = rec(step);
        operations(s, dir);
        const template = rec(s.use).template;
        if (typeof template !== 'string' || template === '') continue;
        const tfile = path.resolve(dir, template);
        const ttext = this.reads.read(tfile);
        if (ttext === undefined) continue;
        for (const tdoc of documents(ttext)) {
          const t = rec(tdoc);
          if (t.kind === 'StepTemplate') operations(rec(t.spec), path.dirname(tfile));
        }
      }
    }
    this.named.set(path.resolve(testFile), out);
    if (isTest) this.chainsawDirs.add(dir);
  }

  /** Records a kuttl test suite (`kuttl-test.yaml`): its `testDirs`, relative to its folder. */
  addKuttlSuite(suiteFile: string, text: string): void {
    const dir = path.dirname(path.resolve(suiteFile));
    const dirs: string[] = [];
    for (const doc of documents(text)) {
      const d = rec(doc);
      if (typeof d.apiVersion !== 'string' || !/^(kuttl\.dev|kudo\.dev)\//.test(d.apiVersion) || d.kind !== 'TestSuite') continue;
      for (const t of list(d.testDirs)) if (typeof t === 'string' && t !== '') dirs.push(path.resolve(dir, t));
    }
    this.kuttlDirs.set(path.resolve(suiteFile), dirs);
  }

  /**
   * What the recorded tests do with a file; undefined when none names it. A file a test both sends and
   * compares is a resource: the API server sees it whole. Only tests in the file's folder, a folder above
   * it, or a folder beside one of those count (what repository.ts testToolsAround finds from the file).
   */
  roleOf(file: string): TestToolRole | undefined {
    const abs = path.resolve(file);
    const slashed = abs.split(path.sep).join('/');
    const dir = path.dirname(abs);
    const above = (d: string) => {
      const rel = path.relative(d, dir);
      return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
    };
    let found: TestToolRole | undefined;
    const take = (r: TestToolRole) => {
      if (!found || (found.role === 'assertion' && r.role === 'resource') || (found.patch && r.role === 'resource' && !r.patch)) found = r;
    };
    for (const [testFile, names] of this.named) {
      const testDir = path.dirname(testFile);
      if (!above(testDir) && !above(path.dirname(testDir))) continue;
      for (const n of names) if (n.exact === slashed || (n.exact === undefined && n.glob.test(slashed))) take(n.role);
    }
    // A file of a Chainsaw test's folder that its steps do not name, named as a kuttl step (tests
    // migrated from kuttl keep `NN-assert-*.yaml`): what its name says, with chainsaw's expressions.
    if (!found && this.chainsawDirs.has(path.dirname(abs))) {
      const r = kuttlStepRole(path.basename(abs));
      if (r) found = { ...r, tool: 'chainsaw' };
    }
    for (const [suite, dirs] of this.kuttlDirs) {
      if (!above(path.dirname(suite))) continue;
      for (const d of dirs) {
        const rel = path.relative(d, abs);
        if (rel.startsWith('..') || path.isAbsolute(rel)) continue;
        // <testDir>/<case>/<step file> or <testDir>/<case>/<step folder>/<file>
        const parts = rel.split(path.sep);
        if (parts.length < 2) continue;
        const r = kuttlStepRole(parts.slice(1).join('/'));
        if (r?.role === 'resource' && this.kuttlUpdatesOf(path.join(d, parts[0])).has(abs)) take({ ...r, patch: true });
        else if (r) take(r);
      }
    }
    return found;
  }

  /**
   * The step files of a kuttl test case that send an object an earlier step file sent (kuttl applies a
   * step's files in name order, steps by index): merge patches. Read once per case.
   */
  private kuttlUpdatesOf(caseDir: string): Set<string> {
    let out = this.kuttlUpdates.get(caseDir);
    if (out) return out;
    out = new Set();
    this.kuttlUpdates.set(caseDir, out);
    const steps = this.reads
      .files(caseDir)
      .filter((n) => kuttlStepRole(n)?.role === 'resource')
      .map((n) => ({ n, index: Number(/^\d+/.exec(n)?.[0]) }))
      .sort((a, b) => a.index - b.index || (a.n < b.n ? -1 : a.n > b.n ? 1 : 0))
      .slice(0, MAX_OPERATIONS);
    const sent = new Set<string>();
    for (const { n } of steps) {
      const file = path.join(caseDir, n);
      const ids = identities(this.reads.read(file));
      if (ids.some((id) => sent.has(id))) out.add(file);
      for (const id of ids) sent.add(id);
    }
    return out;
  }

  /** The definitions recorded. */
  definitions(): string[] {
    return [...this.named.keys(), ...this.kuttlDirs.keys()];
  }
}
