/**
 * What of a file was checked, and why the rest was not: one answer per document, the one place the CLI's
 * summary and the editor's "not checked" information read it from. A document is checked when crd-yaml
 * gave the API server's answer for it (a CRD, a custom resource against its CRD, an object of a kind the
 * API server does not serve); otherwise the reason says what would let it be checked.
 */
import type { CatalogAnswer, ServiceContext } from './context';
import { crdKey } from '../workspace/crdIndex';
import { isPatchByName, partialRole } from './fileRole';
import { lookupIdentity, resolveCr, roleOf } from './kube';
import { identityToCheck, notCheckedByTemplate } from './templates';
import { builtinKindAnswer, isClientSideKind } from './unknownKind';
import type { YamlDocument, YamlFile } from '../yaml/file';

/** What a checked document was checked as. */
export type CheckedAs = 'crd' | 'customResource' | 'builtinObject' | 'partialObject' | 'unservedKind';

/** Why a document was not checked. */
export type NotCheckedReason =
  /** A built-in kind (Pod, Deployment) with `crdYaml.builtins` off, or without a schema at the target version. */
  | 'builtinKind'
  /** No CRD known for the object's group/kind. */
  | 'noCrd'
  /** The CRD of the object has YAML syntax errors. */
  | 'crdUnreadable'
  /** A template decides the document's apiVersion or kind, or `crdYaml.templates` is `ignore`. */
  | 'template'
  /** A kustomize patch that is not an object (JSON 6902 operations, a patch of a CRD). */
  | 'patch'
  /** A client-side tool's file (kustomization, Chart.yaml, a kind cluster config, a kubeconfig). */
  | 'clientSide'
  /** The document has YAML syntax errors. */
  | 'yamlError'
  /** Not a Kubernetes object (no apiVersion and kind: Helm values, lists, empty documents). */
  | 'notObject';

export type DocumentCoverage =
  | { checked: Exclude<CheckedAs, 'unservedKind'> }
  /** The API server answers `no matches for kind`: why, in people's words and in its own. */
  | { checked: 'unservedKind'; refusal: { message: string; apiMessage: string; suggestions: string[] } }
  /**
   * `hint`: what can be said without checking (a built-in kind of a Kubernetes older than the built-in table);
   * `catalog`: what the CRD catalog answered for a kind without a CRD (not in it, refused by crd-yaml.lock).
   */
  | { notChecked: NotCheckedReason; group?: string; kind?: string; apiVersion?: string; hint?: string; catalog?: CatalogAnswer };

/** Files of client-side tools by name, whatever they hold (a kustomization need not say its kind). */
const CLIENT_SIDE_FILES = /(^|\/)(kustomization\.ya?ml|Kustomization|Chart\.ya?ml|Chart\.lock|requirements\.ya?ml|values([.-][^/]*)?\.ya?ml|helmfile\.ya?ml)$/;

let lastUri: string | undefined;
let lastClientSide = false;

/** Whether a file is a client-side tool's by its name (the last file's answer kept: asked for each of its documents). */
function clientSideFile(uri: string): boolean {
  if (uri !== lastUri) {
    lastClientSide = CLIENT_SIDE_FILES.test(uri.split(/[?#]/)[0]);
    lastUri = uri;
  }
  return lastClientSide;
}

/** The identities a known CRD serves, for a template's if/else branches (templates.ts identityToCheck). */
const lookupIn = (ctx: ServiceContext) => (apiVersion: string, kind: string) => lookupIdentity(ctx.index, apiVersion, kind);

/** Whether the document is skipped for its template (templates.ts notCheckedByTemplate, or every template when templates are ignored). */
function skippedForTemplate(ctx: ServiceContext, doc: YamlDocument): boolean {
  if (!doc.template || doc.template.substitutionOnly) return false;
  return ctx.settings.templates === 'ignore' || notCheckedByTemplate(doc, lookupIn(ctx)) !== undefined;
}

/**
 * Whether a Go template document chooses its apiVersion by the cluster it is rendered for (`.Capabilities`,
 * `.KubeVersion`, `semverCompare`) or by an if/else before its kind: the version written is not the one
 * sent to a current API server.
 */
function adaptsToCluster(doc: YamlDocument, source: string): boolean {
  if (!doc.template || doc.template.substitutionOnly) return false;
  const text = source.slice(doc.start, doc.end);
  if (/\.Capabilities\b|\.KubeVersion\b|\bsemverCompare\b/.test(text)) return true;
  const kindAt = text.search(/^kind\s*:/m);
  return /\{\{-?\s*else\b/.test(kindAt < 0 ? text : text.slice(0, kindAt));
}

/** The coverage of one document of the file `uri` (`source`: the file's text, as written). */
export function documentCoverage(ctx: ServiceContext, uri: string, doc: YamlDocument, source: string): DocumentCoverage {
  if (skippedForTemplate(ctx, doc)) return { notChecked: 'template' };
  if (doc.errors.some((s) => s.severity === 'error')) return { notChecked: doc.template && !doc.template.substitutionOnly ? 'template' : 'yamlError' };
  const fc = ctx.files.get(uri);
  // A kustomize patch, a kubebuilder scaffold's CRD patch (fileRole.ts).
  const partial = partialRole(fc, doc.value, uri);
  if (partial === 'json6902') return { notChecked: 'patch' };
  let role = roleOf(doc.value);
  if (doc.template && role.role === 'cr') {
    // if/else branches may set the identity: the one checked is the first a known CRD serves.
    const id = identityToCheck(doc, lookupIn(ctx));
    if (id && (id.apiVersion !== role.apiVersion || id.kind !== role.kind)) role = roleOf({ ...(doc.value as Record<string, unknown>), apiVersion: id.apiVersion, kind: id.kind });
  }
  if (role.role === 'other') return { notChecked: clientSideFile(uri) ? 'clientSide' : 'notObject' };
  if (role.role === 'crd') return partial === 'partial' ? { notChecked: 'patch' } : { checked: 'crd' };
  const { group, kind, apiVersion } = role;
  const crd = ctx.index.lookup(group, kind);
  // A kustomize patch or a test tool's assertion is checked as a partial object: what its missing parts
  // cannot change (engine/customresource/partial.ts; a test's expressions are unknown values).
  if (crd) return crd.broken ? { notChecked: 'crdUnreadable', group, kind, apiVersion } : { checked: partial === 'partial' ? 'partialObject' : 'customResource' };
  if (isClientSideKind(group, apiVersion, kind) || clientSideFile(uri)) return { notChecked: 'clientSide', group, kind, apiVersion };
  // A built-in kind's version with a schema at the target version (builtins.ts), as a custom resource is.
  if (resolveCr(ctx.index, role)?.crd.builtin) return { checked: partial === 'partial' ? 'partialObject' : 'builtinObject' };
  const builtin = builtinKindAnswer(group, role.version, kind, apiVersion, ctx.settings.kubernetesMinor);
  if (builtin?.served === false) {
    // Refused as written; but a chart that picks the version from the cluster renders another, and a
    // patch (kubebuilder's `*_patch.yaml`, often left out of its kustomization) is never sent as written.
    if (adaptsToCluster(doc, source)) return { notChecked: 'template', group, kind, apiVersion };
    if (isPatchByName(uri)) return { notChecked: 'patch', group, kind, apiVersion };
    return { checked: 'unservedKind', refusal: builtin };
  }
  if (builtin) return { notChecked: 'builtinKind', group, kind, apiVersion, ...(builtin.served === undefined ? { hint: builtin.hint } : {}) };
  const catalog = ctx.catalog.get(crdKey(group, kind));
  return { notChecked: 'noCrd', group, kind, apiVersion, ...(catalog ? { catalog } : {}) };
}

/** The coverage of every document of a file, in order. */
export function fileCoverage(ctx: ServiceContext, uri: string, file: YamlFile): DocumentCoverage[] {
  const source = file.source ?? file.text;
  return file.documents.map((d) => documentCoverage(ctx, uri, d, source));
}

/** Counts of documents by what they were checked as and why they were not. */
export interface CoverageCounts {
  checked: Record<CheckedAs, number>;
  notChecked: Record<NotCheckedReason, number>;
}

export function emptyCoverage(): CoverageCounts {
  return {
    checked: { crd: 0, customResource: 0, builtinObject: 0, partialObject: 0, unservedKind: 0 },
    notChecked: { builtinKind: 0, noCrd: 0, crdUnreadable: 0, template: 0, patch: 0, clientSide: 0, yamlError: 0, notObject: 0 },
  };
}

/** Adds documents' coverage to `into`. */
export function addCoverage(into: CoverageCounts, from: Iterable<DocumentCoverage>): CoverageCounts {
  for (const c of from) {
    if ('checked' in c) into.checked[c.checked]++;
    else into.notChecked[c.notChecked]++;
  }
  return into;
}

/** Adds counts (another input's, another share's) to `into`. */
export function addCoverageCounts(into: CoverageCounts, from: CoverageCounts): CoverageCounts {
  for (const k of Object.keys(from.checked) as CheckedAs[]) into.checked[k] += from.checked[k];
  for (const k of Object.keys(from.notChecked) as NotCheckedReason[]) into.notChecked[k] += from.notChecked[k];
  return into;
}

/** The number of documents checked. */
export function checkedCount(c: CoverageCounts): number {
  return c.checked.crd + c.checked.customResource + c.checked.builtinObject + c.checked.partialObject + c.checked.unservedKind;
}
