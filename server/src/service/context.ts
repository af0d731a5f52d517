/**
 * What every service feature shares: the CRD index, settings, and text <-> position helpers for the CRD
 * documents the index holds (which may not be open in the editor).
 */
import { readOnlyTextDocument } from './textDocument';
import type { Location, Range } from 'vscode-languageserver-types';
import type { PathSegment } from '../engine';
import type { CrdIndex, IndexedCrd } from '../workspace/crdIndex';
import { blockLocator, parseYamlFile } from '../yaml/file';
import type { CrdText, ServiceCaches } from './caches';
import type { CompatSeverity } from '../engine';
import type { FileBaseline, WorkspaceObjects } from './update';
import type { TestRun } from './crdTests';
import { readBlockYaml } from '../yaml/block';
import type { CelLintCode, CelLintSeverity } from './celLints';
import type { CelLintScope } from './lintScope';

/** What is said of objects no known CRD defines (`crdYaml.unknownKinds`, `--unknown-kinds`). */
export type UnknownKinds = 'ignore' | 'file' | 'hint';

/** How unknown fields are treated, as the API server's `fieldValidation` parameter. */
export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

export interface ServiceSettings {
  /**
   * Objects not checked for want of a CRD (coverage.ts): `ignore` says nothing; `file` one information per
   * file, on the first such object; `hint` an information on each, and on each document a template decides.
   */
  unknownKinds: UnknownKinds;
  /**
   * `Strict` (kubectl apply's default since 1.27): an unknown field is an error; `Warn`: a warning (the API
   * server answers with a warning and prunes it); `Ignore`: not reported (pruned silently).
   */
  fieldValidation: FieldValidation;
  /** How plain scalars are read: `1.1` as kubectl reads them (yes/no/on/off are booleans), `1.2` YAML 1.2 core. */
  yamlVersion: '1.1' | '1.2';
  /** Whether YAML syntax errors are reported (off beside another YAML server that reports them). */
  syntaxDiagnostics: boolean;
  /** Go templates (Helm chart templates): `check` what their literal YAML decides, or `ignore` them. */
  templates: 'check' | 'ignore';
  /** Severities of CRD compatibility findings by category (engine/compat/categories.ts); `off` hides one. */
  compatibility: Record<string, CompatSeverity>;
  /**
   * The Kubernetes minor the API server checks are made as (1.30 .. 1.37 as 30 .. 37; engine/version.ts):
   * its CEL libraries and compatibility version, its feature gates. Undefined: the newest.
   */
  kubernetesMinor?: number;
  /** Severities of the CEL lints (celLints.ts: CELNoSuchKey, CELConstantRule, CELEmptyMessage); `off` hides one. Unset: their defaults. */
  celLints?: Partial<Record<CelLintCode, CelLintSeverity>>;
  /**
   * The CRDs the CEL lints run on (lintScope.ts): `authored` (unset) the CRDs written here, and only the
   * rules changed against the baseline of vendored or generated ones; `all` every CRD; `off` none.
   */
  celLintScope?: CelLintScope;
  /**
   * Kubernetes' built-in kinds (Deployment, Service, ...) checked against their schemas at the target
   * version and the API server's handwritten checks (builtins.ts); false: not checked (`crdYaml.builtins`).
   */
  builtins: boolean;
}

export const DEFAULT_SERVICE_SETTINGS: ServiceSettings = { unknownKinds: 'ignore', fieldValidation: 'Strict', yamlVersion: '1.1', syntaxDiagnostics: true, templates: 'check', compatibility: {}, builtins: true };

/**
 * What the caller knows of a file from its place in the repository (the service does no IO): set with
 * LanguageService.setFileContext.
 */
export interface FileContext {
  /** A Helm chart template (under the `templates/` folder of a chart): every `{{ }}` is a template action. */
  helmTemplate?: boolean;
  /** A kustomize patch: `partial` (strategic merge: a partial object), `json6902` (operations, not an object). */
  patch?: 'partial' | 'json6902';
  /**
   * A file of a kustomize tree (a kustomization in its folder or a folder above): its `$(VAR)` references
   * are kustomize vars, unknown until kustomize build replaces them. `scaffoldPatch`: also named as
   * kubebuilder names its CRD patches (`webhook_in_<plural>.yaml`, `cainjection_in_<plural>.yaml`, left
   * unreferenced by its scaffold): a CustomResourceDefinition there without spec.group and spec.versions
   * is a patch, not a CRD.
   */
  kustomize?: 'tree' | 'scaffoldPatch';
  /**
   * A file of a test tool's folder (Kyverno Chainsaw, kuttl): an `assertion` (assert/error files) is a
   * partial object whose values may be expressions; a `resource` is applied by the tool, with its
   * expressions and bindings (`($namespace)`) unknown until the test runs.
   */
  testTool?: { tool: 'chainsaw' | 'kuttl'; role: 'assertion' | 'resource' };
  /**
   * Why the file's CRDs are another project's copy, not written here (`it is under vendor/`, `it is in the
   * dependency chart charts/x/`, outside the workspace): the CEL authoring lints skip them (lintScope.ts).
   */
  vendored?: string;
  /**
   * A CRD from the catalog (workspace/catalog.ts), as the API server serves it: `{{.BaseOS}}` in a default
   * is text (2 of the public catalog's 8,295 CRDs were taken for templates and not indexed).
   */
  plainYaml?: boolean;
}

export interface ServiceContext {
  index: CrdIndex;
  settings: ServiceSettings;
  /** File contexts by URI (absent: an ordinary file). */
  files: Map<string, FileContext>;
  /** The service's caches (caches.ts). */
  caches: ServiceCaches;
  /** Baselines of files by URI, as the caller read them (service/update.ts). */
  baselines: Map<string, FileBaseline>;
  /** Bumped when a baseline changes: findings computed against the old ones are stale. */
  baselineGeneration: number;
  /** The workspace's objects of a kind (for the objects a CRD change breaks); none without a provider. */
  workspaceObjects?: WorkspaceObjects;
  /** Bumped when workspace files change: what a CRD change breaks may have changed. */
  workspaceGeneration: number;
  /** The last run of each CRD rule test file (crdTests.ts). */
  testRuns: Map<string, TestRun>;
  /** URIs of the workspace folders (the CLI: its working directory): files are named by their paths from these. */
  folders?: string[];
  /** Where built-in kinds' schemas are written for go to definition (builtins.ts); none: not written. */
  builtinSchemaDir?: string;
  /** What the CRD catalog answered for group/kinds no local CRD defines, by `group/kind` (set by the caller, which asks it). */
  catalog: Map<string, CatalogAnswer>;
}

/**
 * The CRD catalog's answer for a group/kind it was asked for and did not give (workspace/catalog.ts):
 * not in the catalog, or refused by crd-yaml.lock (`refused`: why, in the file's terms; `detail`: the
 * catalog's own words with the URL and hashes; `lock`: the lock file's entry).
 */
export type CatalogAnswer = { notFound: true } | { refused: string; detail: string; lock?: Location };

/**
 * The parsed text of an indexed CRD: the editor's own parse when the CRD is in an open document (a
 * 3 MB CRD being edited is not parsed again to place a link); a CRD read from disk as plain block YAML
 * is located by indentation (no parse); others are parsed once, cached by text.
 */
export function crdText(ctx: ServiceContext, crd: IndexedCrd): CrdText {
  const open = ctx.caches.openFiles.get(crd.uri);
  const doc = open?.file.documents[crd.docIndex];
  if (open && doc && doc.text === crd.text) return { locator: doc, byIndentation: false, lines: open.td, lineShift: 0 };
  let t = ctx.caches.crdTexts.get(crd.text);
  if (!t) {
    // A CRD indexed by names only (lightIndex.ts) learns whether it is plain block YAML when its value is read;
    // one parsed with its file (a multi-document or template file) is read by the fast reader to tell
    // (a parse for a location took 4.4 s of kubeflow/manifests' check: its duplicated CRDs point at each other).
    void crd.crd;
    const block = crd.blockYaml ?? (ctx.settings.yamlVersion !== '1.2' && readBlockYaml(crd.text) !== undefined);
    const lines = readOnlyTextDocument('crd:' + crd.id, 'yaml', 0, crd.text);
    const locator = block ? blockLocator(crd.text) : parseYamlFile(crd.text).documents[0];
    t = { locator, byIndentation: block, lines, lineShift: crd.startLine };
    ctx.caches.crdTexts.set(crd.text, t);
  }
  return t;
}

/** The location of a path inside an indexed CRD: its key (a list item: its first line), or that of the deepest part of it that exists. */
export function crdLocation(ctx: ServiceContext, crd: IndexedCrd, segs: PathSegment[]): Location {
  const t = crdText(ctx, crd);
  const r = t.locator.rangeOfPath(segs, 'key');
  const range: Range = {
    start: shift(t.lines.positionAt(r.start), t.lineShift),
    end: shift(t.lines.positionAt(r.end), t.lineShift),
  };
  return { uri: crd.uri, range };
}

function shift(p: { line: number; character: number }, lines: number) {
  return { line: p.line + lines, character: p.character };
}
