/**
 * The findings of a file: YAML syntax, the API server's findings on CRD documents, and on CR documents
 * checked against their CRD (from the index), each at the exact YAML range of the field it is about,
 * with a short message for people and the API server's exact text (finding.ts).
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Range } from 'vscode-languageserver-types';
import { errorMessage, strictDecodingPath, type FieldError, type PathSegment } from '../engine';
import { BLOCKING_ERROR_TYPES, CEL_SKIPPED_MESSAGE } from '../engine';
import { formatFieldPath, readAsYaml12 } from '../yaml';
import { crdKey, type IndexedCrd } from '../workspace/crdIndex';
import { identityBranches, identityToCheck, literalFindings } from './templates';
import { definitionsOf, duplicateFindings } from './duplicates';
import { crdLocation, type ServiceContext } from './context';
import { checkCr, checkCrd, checkCrdUpdate, checkCrUpdate, textKey } from './engineCalls';
import type { CrCheck, CrUpdateCheck, UpdateError } from './caches';
import { baselineFor, brokenObjectsFinding, compatFindings, onUpdate } from './update';
import { shiftFinding, type DocumentRole, type Finding, type FindingSeverity, type RelatedFinding } from './finding';
import { crdVersions, lookupIdentity, resolveCr, roleOf, schemaAtPath, schemaStepsToCrdPath, valueAt, type CrdVersion } from './kube';
import { formatCost, leafName, shortMessage } from './messages';
import { closestNames } from '../engine';
import { documentCoverage, type DocumentCoverage } from './coverage';
import { versionLossFindings } from './versionLoss';
import { celLintFindings } from './celLints';
import { upgradeVerdicts } from './migrate';
import { contentStart, isScalar, nodeRange, parseFieldPath, type YamlDocument, type YamlFile } from '../yaml/file';
import { isJSONObject } from '../engine';
import { partialRole } from './fileRole';

/** More syntax errors than this in a file without any Kubernetes object: the file is not YAML. */
const MAX_SYNTAX_ERRORS_OF_NON_YAML = 20;

/**
 * Every finding of a file. An edit re-checks only the documents whose text or CRD changed, and in a CRD
 * only the schema path to the edit (the engine's subtree memo, owned by the service's caches).
 */
export function fileFindings(ctx: ServiceContext, td: TextDocument, file: YamlFile): Finding[] {
  const out: Finding[] = [];
  for (const doc of file.documents) {
    // `crdYaml.templates: ignore`: Go template documents are not checked at all.
    if (doc.template && !doc.template.substitutionOnly && ctx.settings.templates === 'ignore') continue;
    try {
      // A one-shot check (the CLI) finds each document's findings once: nothing to key or keep.
      if (ctx.caches.oneShot) {
        out.push(...documentFindings(ctx, td, doc));
        continue;
      }
      const key = dependencyKey(ctx, doc, td.uri);
      const startLine = td.positionAt(doc.start).line;
      const hit = ctx.caches.docFindings.get(doc);
      if (hit && hit.key === key && hit.text === doc.text && (hit.startLine === startLine || !hit.sameFileRelated)) {
        // Same text, same CRD: the findings are the same, only moved by the lines inserted above.
        out.push(...(hit.startLine === startLine ? hit.findings : hit.findings.map((f) => shiftFinding(f, startLine - hit.startLine))));
        continue;
      }
      const findings = documentFindings(ctx, td, doc);
      // Related locations in this same file (a CRD beside its CRs) may move independently: not shifted.
      const sameFileRelated = findings.some((f) => f.related?.some((r) => r.location.uri === td.uri));
      ctx.caches.docFindings.set(doc, { key, text: doc.text, startLine, findings, sameFileRelated });
      out.push(...findings);
    } catch (e) {
      // A bug of ours on one document must not hide the others' findings.
      out.push(finding(headRange(td, doc), 'warning', 'InternalError', `crd-yaml internal error: ${(e as Error).message}`, 'other'));
    }
  }
  if (ctx.settings.unknownKinds === 'file') {
    const f = firstUnknownKindFinding(ctx, td, file);
    if (f) out.push(f);
  }
  const problem = ctx.baselines.get(td.uri)?.problem;
  const first = file.documents.find((d) => roleOf(d.value).role !== 'other');
  if (problem && first) {
    // Said once per file: its objects were checked as new ones.
    const f = finding(headRange(td, first), 'information', 'BaselineUnavailable', `checked as new objects, not as updates: ${problem}`, roleOf(first.value).role);
    out.push(f);
  }
  const findings = notYaml(td.languageId, file, out);
  // Beside another YAML server that reports them (crdYaml.syntaxDiagnostics), syntax errors are its job.
  return ctx.settings.syntaxDiagnostics ? findings : findings.filter((f) => !SYNTAX_CODES.has(f.code));
}

/** The codes of YAML syntax findings (crdYaml.syntaxDiagnostics). */
const SYNTAX_CODES = new Set(['YAMLSyntax', 'YAMLWarning', 'NotYaml']);

/** A file that is not YAML at all (a script, Markdown, ...): one finding, not a screenful. */
function notYaml(languageId: string, file: YamlFile, findings: Finding[]): Finding[] {
  const syntax = findings.filter((f) => f.code === 'YAMLSyntax');
  if (syntax.length === 0 || file.documents.some((d) => roleOf(d.value).role !== 'other')) return findings;
  // A document the client does not take for YAML (the CLI: a named file without a .yaml/.yml name) is not
  // YAML at the first error; one the client calls YAML only when the errors pile up.
  if (syntax.length <= MAX_SYNTAX_ERRORS_OF_NON_YAML && languageId === 'yaml') return findings;
  const first = syntax[0];
  const n = syntax.length;
  return [{ ...first, code: 'NotYaml', message: `not a YAML file: ${n} syntax error${n === 1 ? '' : 's'}, the first: ${first.message}` }];
}

/** What a document's findings depend on besides its text: the CRD it resolves to and the settings. */
function dependencyKey(ctx: ServiceContext, doc: YamlDocument, uri: string): string {
  const role = roleOf(doc.value);
  const fc = ctx.files.get(uri);
  const patch = partialRole(fc, doc.value, uri) ?? '';
  // Baselines (and, for a CRD, the workspace's objects of its kind) decide update findings.
  const update = `${ctx.baselineGeneration}:${ctx.workspaceGeneration}:${JSON.stringify(ctx.settings.compatibility)}`;
  if (role.role === 'crd')
    return `crd:${JSON.stringify(ctx.settings.celLints ?? {})}:${ctx.settings.celLintScope ?? ''}:${fc?.vendored ?? ''}:${patch}:${definitionsOf(ctx, role.crd)
      .map((c) => `${c.id}@${c.uri}`)
      .join(',')}:${update}`;
  // A template document's listing depends on the unknownKinds setting.
  if (role.role !== 'cr') return `${role.role}:${patch}:${ctx.settings.unknownKinds}`;
  const branches = identityBranches(doc);
  if (branches) {
    // The branch checked is the first one a known CRD serves: every branch's CRD decides.
    const crds = branches.map((b) => {
      const r = roleOf(b);
      return r.role === 'cr' ? (resolveCr(ctx.index, r)?.crd.id ?? '-') : '-';
    });
    return `cr-branches:${crds.join(',')}:${ctx.settings.fieldValidation}:${patch}:${ctx.baselineGeneration}:${ctx.settings.unknownKinds}`;
  }
  const crd = resolveCr(ctx.index, role)?.crd ?? ctx.index.lookup(role.group, role.kind);
  if (crd) return `cr:${crd.id}:${ctx.settings.fieldValidation}:${patch}:${ctx.baselineGeneration}:${ctx.settings.unknownKinds}`;
  // Unknown kind: the message depends on the group's other CRDs, the catalog's answer and the unknownKinds setting.
  return `cr-unknown:${ctx.settings.unknownKinds}:${JSON.stringify(ctx.catalog.get(crdKey(role.group, role.kind)) ?? '')}:${ctx.index
    .all()
    .filter((c) => c.group === role.group)
    .map((c) => c.id)
    .join(',')}`;
}

function syntaxFindings(td: TextDocument, doc: YamlDocument): Finding[] {
  return doc.errors.map((s) => ({
    ...finding({ start: td.positionAt(s.start), end: td.positionAt(Math.min(s.end, doc.end)) }, s.severity, s.severity === 'error' ? 'YAMLSyntax' : 'YAMLWarning', s.message, roleOf(doc.value).role),
    // For YAML findings the origin is the YAML layer's code; kubectl's text when kubectl refuses the file.
    params: { origin: s.code },
    ...(s.kubectl ? { apiMessage: s.kubectl } : {}),
  }));
}

/** The findings of one document of a file. */
export function documentFindings(ctx: ServiceContext, td: TextDocument, doc: YamlDocument): Finding[] {
  // A Go template is not YAML until rendered: no syntax findings, and only what its literal YAML decides.
  const out = doc.template && !doc.template.substitutionOnly ? [] : syntaxFindings(td, doc);
  // Findings on half-parsed documents would be noise on top of the syntax error.
  if (doc.errors.some((s) => s.severity === 'error')) return out;
  // What the template decides, a JSON 6902 patch (operations, not objects), a patch of a CRD (not a CRD):
  // nothing to check (coverage.ts says why; `crdYaml.unknownKinds: hint` lists the template documents).
  const coverage = documentCoverage(ctx, td.uri, doc, td.getText());
  if ('notChecked' in coverage && coverage.notChecked === 'template') {
    if (ctx.settings.unknownKinds === 'hint') out.push(finding(headRange(td, doc), 'information', 'TemplateKind', 'not checked: the template decides what this document is (its apiVersion or kind)', 'other'));
    return out;
  }
  if ('notChecked' in coverage && coverage.notChecked === 'patch') return out;
  // A patch, a scaffold's CRD patch or a test assertion is a partial object (fileRole.ts).
  const patch = partialRole(ctx.files.get(td.uri), doc.value, td.uri);
  let role = roleOf(doc.value);
  let value = doc.value;
  if (doc.template && role.role === 'cr') {
    // if/else branches may set the identity: checked as one a known CRD serves, or not at all.
    const id = identityToCheck(doc, (apiVersion, kind) => lookupIdentity(ctx.index, apiVersion, kind));
    if (!id) return out;
    if (id.apiVersion !== role.apiVersion || id.kind !== role.kind) {
      value = { ...(doc.value as Record<string, unknown>), apiVersion: id.apiVersion, kind: id.kind };
      role = roleOf(value);
    }
  }
  if (role.role === 'crd') out.push(...duplicateFindings(ctx, td, doc, role.crd));
  if (role.role === 'crd') {
    const apiVersion = role.crd.apiVersion;
    if (apiVersion !== 'apiextensions.k8s.io/v1') {
      // apiextensions.k8s.io/v1beta1 has not been served since Kubernetes 1.22: kubectl's REST mapping fails.
      const msg = `no matches for kind "CustomResourceDefinition" in version "${String(apiVersion)}"`;
      const v1beta1 = apiVersion === 'apiextensions.k8s.io/v1beta1';
      const why = v1beta1 ? ': apiextensions.k8s.io/v1beta1 is not served since Kubernetes 1.22 (quick fix: upgrade to apiextensions.k8s.io/v1)' : ' (served: apiextensions.k8s.io/v1)';
      const f = finding(rangeOfPath(td, doc, [{ kind: 'field', name: 'apiVersion' }], 'value'), 'error', 'NoKindMatch', `${msg}${why}`, 'crd');
      f.apiMessage = msg;
      if (v1beta1) {
        f.params = { origin: 'v1beta1CRD' };
        // Before the upgrade is applied: the workspace objects whose verdict it changes, each a link.
        const v = upgradeVerdicts(ctx, doc.value);
        if (v.changes.length) {
          const n = v.changes.length;
          f.message += `; the upgrade changes what ${n}${v.cut ? '+' : ''} ${v.changes[0].kind} object${n === 1 ? '' : 's'} of the workspace get${n === 1 ? 's' : ''}: ${v.changes
            .slice(0, 3)
            .map((c) => c.name)
            .join(', ')}${n > 3 ? ', ...' : ''}`;
          f.related = v.changes.map((c) => c.related);
        }
      }
      out.push(f);
      return out;
    }
    const base = baselineFor(ctx, td.uri, doc.value);
    const text = textKey(doc.text, ctx.settings.yamlVersion);
    const r = base ? checkCrdUpdate(ctx, text, role.crd, base.object) : checkCrd(ctx, text, role.crd);
    out.push(...literalFindings(doc, crdEngineFindings(ctx, td, doc, r.errors, base?.label)));
    for (const f of r.failures) out.push(engineUnavailable(td, doc, f));
    out.push(...versionLossFindings(td, doc, role.crd));
    out.push(...celLintFindings(ctx, td, doc, role.crd, base?.object));
    if (base) {
      out.push(...compatFindings(ctx, doc, base.object, base.label, (segs) => rangeOfPath(td, doc, segs, 'key')));
      const broken = brokenObjectsFinding(
        ctx,
        doc,
        base.object,
        base.label,
        rangeOfPath(
          td,
          doc,
          [
            { kind: 'field', name: 'spec' },
            { kind: 'field', name: 'names' },
            { kind: 'field', name: 'kind' },
          ],
          'value',
        ),
      );
      if (broken) out.push(broken);
    }
  } else if (role.role === 'cr') {
    out.push(...crFindings(ctx, td, doc, role, patch === 'partial', coverage, value));
  }
  return out;
}

/**
 * The API server's findings on a CRD. Cost findings are grouped: each over-budget rule is one finding, the
 * CRD's total is one finding with the rules that contributed to it as related locations.
 */
function crdEngineFindings(ctx: ServiceContext, td: TextDocument, doc: YamlDocument, errors: UpdateError[], baseline?: string): Finding[] {
  const out: Finding[] = [];
  const contributions: RelatedFinding[] = [];
  for (const e of errors) {
    if (e.params?.origin === 'unknownField') {
      // Strict decoding of the CRD itself: as for custom resources.
      const segs = e.segments?.length ? e.segments : parseFieldPath(e.field);
      const last = segs[segs.length - 1];
      const name = last?.kind === 'field' ? last.name : last?.kind === 'key' ? last.key : '';
      const present = presentKeys(doc, segs.slice(0, -1));
      const suggestions = closestNames(
        name,
        (e.params.knownNames ?? []).filter((k) => !present.has(k)),
      );
      const f = unknownFieldFinding(ctx, td, doc, { path: e.field, segments: segs, kind: 'CustomResourceDefinition', version: 'v1', suggestions, document: 'crd' });
      if (f) out.push(f);
      continue;
    }
    const f = fieldFinding(ctx, td, doc, e, {}, 'crd');
    if (baseline && e.onlyOnUpdate) onUpdate(f, baseline);
    if (e.params?.cost?.scope === 'contribution') contributions.push({ location: { uri: td.uri, range: f.range }, message: `this rule contributed an estimated cost of ${formatCost(e.params.cost.estimated)}` });
    else out.push(f);
  }
  if (contributions.length) {
    const total = out.find((f) => f.params?.cost?.scope === 'total');
    if (total) total.related = [...(total.related ?? []), ...contributions];
  }
  return out;
}

type CrRole = Extract<ReturnType<typeof roleOf>, { role: 'cr' }>;

/**
 * `coverage`: what coverage.ts says of the document (a built-in group's refusal, why it is not checked);
 * `value`: the object checked (a template's value with the identity of the branch checked).
 */
function crFindings(ctx: ServiceContext, td: TextDocument, doc: YamlDocument, role: CrRole, partial: boolean, coverage: DocumentCoverage, value: unknown = doc.value): Finding[] {
  const out: Finding[] = [];
  const res = resolveCr(ctx.index, role);
  if (!res) {
    const range = rangeOfPath(td, doc, [{ kind: 'field', name: 'kind' }], 'value');
    if ('checked' in coverage && coverage.checked === 'unservedKind') {
      // A kind or version a built-in group does not have: kubectl's REST mapping fails.
      const f = finding(range, 'error', 'NoKindMatch', coverage.refusal.message, 'cr');
      f.apiMessage = coverage.refusal.apiMessage;
      if (coverage.refusal.suggestions.length) f.params = { suggestions: coverage.refusal.suggestions };
      out.push(f);
    } else if ('notChecked' in coverage && coverage.catalog && 'refused' in coverage.catalog) {
      // The catalog's CRD for the kind is not the one crd-yaml.lock pins: an error whatever unknownKinds
      // says (the CLI refuses the run), on each object it leaves unchecked.
      const f = finding(range, 'error', 'CatalogLockMismatch', `${coverage.group}/${coverage.kind} not checked: ${coverage.catalog.refused}`, 'cr');
      if (coverage.catalog.lock) f.related = [{ location: coverage.catalog.lock, message: coverage.catalog.detail }];
      out.push(f);
    } else if (ctx.settings.unknownKinds === 'hint' && 'notChecked' in coverage) {
      // No known CRD defines the kind. Its group may be a known CRD's all the same: an API group is shared
      // by several projects' CRDs (argoproj.io: Argo CD's, Argo Workflows', extensions'), and the cluster
      // may have the CRD: not checked, not an error. A close kind of the group's is likely a typo: said.
      const f = unknownKindFinding(range, coverage);
      if (f) out.push(withNearKinds(ctx, f, role.group, role.kind));
    }
    return out;
  }
  const { crd, version } = res;
  if (crd.broken) {
    const f = finding(rangeOfPath(td, doc, [{ kind: 'field', name: 'kind' }], 'value'), 'information', 'CRDUnreadable', `not checked: the CustomResourceDefinition ${crd.name} has YAML syntax errors`, 'cr');
    f.related = [{ location: crdLocation(ctx, crd, []), message: `${crd.name} has YAML syntax errors` }];
    return [f];
  }
  if (!version?.served) {
    const served = crdVersions(crd.crd).filter((v) => v.served);
    const msg = noMatches(role.kind, role.apiVersion);
    const why = version ? `${crd.name} does not serve ${role.version}` : `${crd.name} has no version ${role.version}`;
    const f = finding(rangeOfPath(td, doc, [{ kind: 'field', name: 'apiVersion' }], 'value'), 'error', 'NoKindMatch', `${msg}: ${why} (served: ${served.map((v) => v.name).join(', ') || 'none'})`, 'cr');
    f.apiMessage = msg;
    f.params = { supportedValues: served.map((v) => `${crd.group}/${v.name}`) };
    f.provenance = { crd: crd.name, ...crdSourceOf(crd) };
    f.related = [
      {
        location: crdLocation(
          ctx,
          crd,
          version
            ? [
                { kind: 'field', name: 'spec' },
                { kind: 'field', name: 'versions' },
                { kind: 'index', index: version.index },
                { kind: 'field', name: 'served' },
              ]
            : [
                { kind: 'field', name: 'spec' },
                { kind: 'field', name: 'versions' },
              ],
        ),
        message: `${crd.name} serves ${served.map((v) => `${crd.group}/${v.name}`).join(', ') || 'no version'}`,
      },
    ];
    out.push(f);
    return out;
  }
  // A patch (a partial object) updates nothing by itself.
  const base = partial || crd.builtin ? undefined : baselineFor(ctx, td.uri, value);
  // `name: no` in metadata: ObjectMeta does not decode and the API server reports only that. It gets the
  // YAML 1.1 finding and "Quote it" as a spec value does, and the rest of the object is checked as quoted.
  const surprises = metadataSurprises(doc);
  const checked = surprises.length ? withScalarsAsWritten(value, surprises) : value;
  const key = textKey(doc.text, ctx.settings.yamlVersion) + (surprises.length ? '\u0000metadata as written' : '');
  // A built-in object kustomize builds: its transformers and patches may add what is missing.
  const kustomized = !!crd.builtin && !!ctx.files.get(td.uri)?.kustomize;
  if (surprises.length) out.push(...metadataSurpriseFindings(td, doc, surprises, checkCr(ctx, crd, version.name, textKey(doc.text, ctx.settings.yamlVersion), value, { partial, kustomized })));
  const r: CrCheck | CrUpdateCheck = base ? checkCrUpdate(ctx, crd, version.name, key, checked, base.object) : checkCr(ctx, crd, version.name, key, checked, { partial, kustomized });
  const deprecation = (text: string) => {
    const f = finding(rangeOfPath(td, doc, [{ kind: 'field', name: 'apiVersion' }], 'value'), 'warning', 'DeprecatedVersion', text, 'cr');
    f.apiMessage = text;
    f.params = { origin: 'deprecatedVersion' };
    f.provenance = { crd: crd.name, version: version.name, ...crdSourceOf(crd) };
    f.related = provenanceInfo(ctx, crd, version, [
      { kind: 'field', name: 'spec' },
      { kind: 'field', name: 'versions' },
      { kind: 'index', index: version.index },
      { kind: 'field', name: 'deprecated' },
    ]);
    return f;
  };
  if (!r.ok) {
    if (version.deprecated) out.push(deprecation(version.deprecationWarning ?? `${crd.group}/${version.name} ${crd.kind} is deprecated`));
    out.push(engineUnavailable(td, doc, r.error));
    return out;
  }
  const result = r.value;
  const skipped = result.errors.some((e) => e.params?.origin === 'celSkipped');
  for (const e of result.errors) {
    if (e.params?.origin === 'celSkipped') continue; // rides on the blocking errors (notes)
    const f = fieldFinding(ctx, td, doc, e, { crd, version }, 'cr');
    if (base && (e as UpdateError).onlyOnUpdate) onUpdate(f, base.label);
    if (skipped && BLOCKING_ERROR_TYPES.has(e.type)) f.notes = [CEL_SKIPPED_MESSAGE];
    out.push(f);
  }
  if (skipped && !out.some((f) => f.notes)) {
    // No blocking error of its own to ride on (cannot happen with the API server's rules): keep it visible.
    const e = result.errors.find((x) => x.params?.origin === 'celSkipped')!;
    out.push(fieldFinding(ctx, td, doc, e, { crd, version }, 'cr'));
  }
  for (const e of result.warnings) {
    // The API server sends warnings as plain text (`Warning: example.com/v1beta1 Widget is deprecated; ...`).
    if (e.params?.origin === 'deprecatedVersion') out.push(deprecation(e.params.reason ?? e.detail));
    else out.push(fieldFinding(ctx, td, doc, { ...e, severity: 'warning' }, { crd, version }, 'cr'));
  }
  out.push(...unknownFieldFindings(ctx, td, doc, role, crd, version, result.pruned));
  if (!doc.template) return out;
  // What of this template object needs the whole object: the findings the partial check does not have.
  const p = partial ? r : checkCr(ctx, crd, version.name, key, checked, { partial: true });
  const partialMessages = new Set(p.ok ? p.value.errors.map(errorMessage) : []);
  return literalFindings(doc, out, partialMessages, crd.builtin ? [] : undefined);
}

/**
 * The information that an object is not checked for want of its CRD (`params.origin: noCrd`: the editor
 * offers ways to supply CRDs), or what the built-in table says of a built-in kind it cannot vouch for.
 * `others`: more objects of the file not checked for the same reason (said once per file).
 */
function unknownKindFinding(range: Range, coverage: Extract<DocumentCoverage, { notChecked: unknown }>, others = 0): Finding | undefined {
  if (coverage.notChecked === 'builtinKind' && coverage.hint) return finding(range, 'information', 'UnknownKind', coverage.hint, 'cr');
  if (coverage.notChecked !== 'noCrd') return undefined;
  const more = others > 0 ? ` (nor for ${others} more object${others === 1 ? '' : 's'} of this file)` : '';
  // The catalog was asked and answered 404 (as the CLI's summary says it).
  const catalog = coverage.catalog && 'notFound' in coverage.catalog ? ' (not in the catalog either)' : '';
  const f = finding(range, 'information', 'UnknownKind', `${coverage.group}/${coverage.kind} not checked: no CRD known for it${catalog}${more}`, 'cr');
  f.params = { origin: 'noCrd' };
  return f;
}

/**
 * crd-yaml.lock open in the editor: an error on each entry whose CRD the catalog no longer serves with the
 * locked hash (the objects of its kind have theirs, crFindings), in the catalog's own words.
 */
export function lockFileFindings(ctx: ServiceContext, uri: string): Finding[] {
  const out: Finding[] = [];
  for (const [key, a] of ctx.catalog) if ('refused' in a && a.lock?.uri === uri) out.push(finding(a.lock.range, 'error', 'CatalogLockMismatch', `${key}: ${a.detail}`, 'other'));
  return out;
}

/**
 * `crdYaml.unknownKinds: file`: one information on the first object of the file no known CRD defines. Not
 * in patches nor in Go templates (a chart's objects are checked as rendered: `hint` lists them).
 */
function firstUnknownKindFinding(ctx: ServiceContext, td: TextDocument, file: YamlFile): Finding | undefined {
  if (ctx.files.get(td.uri)?.patch) return undefined;
  let first: { doc: YamlDocument; coverage: Extract<DocumentCoverage, { notChecked: unknown }> } | undefined;
  let others = 0;
  for (const doc of file.documents) {
    if (doc.template && !doc.template.substitutionOnly) continue;
    const c = documentCoverage(ctx, td.uri, doc, td.getText());
    // One the lock refused has its own error (crFindings).
    if (!('notChecked' in c) || c.notChecked !== 'noCrd' || (c.catalog && 'refused' in c.catalog)) continue;
    if (first) others++;
    else first = { doc, coverage: c };
  }
  const f = first && unknownKindFinding(rangeOfPath(td, first.doc, [{ kind: 'field', name: 'kind' }], 'value'), first.coverage, others);
  return f && first ? withNearKinds(ctx, f, first.coverage.group ?? '', first.coverage.kind ?? '') : f;
}

/**
 * An object no known CRD defines, of a group a known CRD has: the group may be shared by several projects'
 * CRDs (argoproj.io: Argo CD's, Argo Workflows', extensions'), so it is not checked, not an error; but a
 * close kind of the group's is likely a typo: said, with the kinds meant (closestKind fixes it).
 */
function withNearKinds(ctx: ServiceContext, f: Finding, group: string, kind: string): Finding {
  const sameGroup = group === '' ? [] : ctx.index.all().filter((c) => c.group === group);
  // Kinds are short and often alike (Gadget, Widget): a typo is a fifth of the name at most.
  const near = closestNames(
    kind,
    sameGroup.map((c) => c.kind),
    3,
    5,
  );
  if (!near.length) return f;
  f.message += ` (did you mean ${near.map((k) => `"${k}"`).join(', ')}?)`;
  f.params = { ...f.params, suggestions: near };
  f.related = sameGroup
    .filter((c) => near.includes(c.kind))
    .map((c) => ({
      location: crdLocation(ctx, c, [
        { kind: 'field', name: 'spec' },
        { kind: 'field', name: 'names' },
        { kind: 'field', name: 'kind' },
      ]),
      message: `${c.group} defines kind ${c.kind} (${c.name})`,
    }));
  return f;
}

/**
 * Fields the schema does not declare. The API server prunes them; with strict field validation (kubectl
 * apply's default since 1.27) it rejects the object instead, in these words.
 */
function unknownFieldFindings(ctx: ServiceContext, td: TextDocument, doc: YamlDocument, role: CrRole, crd: IndexedCrd, version: CrdVersion, pruned: Array<{ path: string; segments?: PathSegment[] }>): Finding[] {
  const out: Finding[] = [];
  for (const p of pruned) {
    const segs = p.segments?.length ? p.segments : parseFieldPath(p.path);
    const f = unknownFieldFinding(ctx, td, doc, { path: p.path, segments: segs, kind: role.kind, version: version.name, suggestions: siblingSuggestions(version, segs, doc), document: 'cr' });
    if (!f) continue;
    f.provenance = { crd: crd.name, version: version.name, ...crdSourceOf(crd) };
    f.related = provenanceInfo(ctx, crd, version, parentSchemaSegments(version, segs));
    out.push(f);
  }
  return out;
}

/**
 * One unknown field, as `crdYaml.fieldValidation` says to report it: Strict (kubectl apply's default) an
 * error in the API server's strict-decoding words, Warn a warning in its warning's words, Ignore nothing.
 */
function unknownFieldFinding(
  ctx: ServiceContext,
  td: TextDocument,
  doc: YamlDocument,
  u: { path: string; segments: PathSegment[]; kind: string; version: string; suggestions: string[]; document: DocumentRole },
): Finding | undefined {
  const mode = ctx.settings.fieldValidation;
  if (mode === 'Ignore') return undefined;
  const unknown = `unknown field "${strictDecodingPath(u.segments)}"`;
  // In a CRD the path is a long schema path: the squiggle is on the key, its name says enough.
  const named = u.document === 'crd' ? `unknown field "${leafName(u.segments)}"` : unknown;
  const near = u.suggestions.length ? ` (did you mean ${u.suggestions.map((x) => `"${x}"`).join(', ')}?)` : '';
  const strict = mode === 'Strict';
  const message = strict ? `${named}${near}: rejected by strict field validation (kubectl apply); other clients drop it (pruning)` : `${named}${near}: dropped when stored (pruning)`;
  const f = finding(rangeOfPath(td, doc, u.segments, 'key'), strict ? 'error' : 'warning', 'UnknownField', message, u.document);
  // The API server's answer to a create/apply with fieldValidation=Strict (error) or Warn (warning header).
  f.apiMessage = strict ? `${u.kind} in version "${u.version}" cannot be handled as a ${u.kind}: strict decoding error: ${unknown}` : unknown;
  f.field = u.path;
  f.path = u.path;
  f.segments = u.segments;
  f.params = { origin: 'unknownField', ...(u.suggestions.length ? { suggestions: u.suggestions } : {}) };
  return f;
}

/** The properties declared beside an unknown field that are close to its name and not already used. */
function siblingSuggestions(version: CrdVersion, segs: PathSegment[], doc: YamlDocument): string[] {
  const last = segs[segs.length - 1];
  if (!version.schema || !last || last.kind === 'index') return [];
  const name = last.kind === 'field' ? last.name : last.key;
  const parent = segs.length === 1 ? version.schema : schemaAtPath(version.schema, segs.slice(0, -1))?.schema;
  if (!parent || !isJSONObject(parent.properties)) return [];
  const used = presentKeys(doc, segs.slice(0, -1));
  return closestNames(
    name,
    Object.keys(parent.properties).filter((k) => !used.has(k)),
  );
}

/**
 * The keys of the mapping at a path (as decoded: merge keys looked through); none when it is not a mapping.
 * Read from the value, not the syntax tree: a document the fast reader read (yaml/document.ts parseBlockYamlDocuments) is
 * not parsed again for a suggestion.
 */
function presentKeys(doc: YamlDocument, segs: PathSegment[]): { has(key: string): boolean } {
  const v = valueAt(doc.value, segs);
  return isJSONObject(v) ? new Set(Object.keys(v)) : NO_KEYS;
}

const NO_KEYS: ReadonlySet<string> = new Set();

/** The REST mapper's message for an apiVersion/kind no served CRD version matches. */
function noMatches(kind: string, apiVersion: string): string {
  return `no matches for kind "${kind}" in version "${apiVersion}"`;
}

function parentSchemaSegments(version: CrdVersion, segs: PathSegment[]): PathSegment[] | undefined {
  if (!version.schema) return undefined;
  for (let n = segs.length - 1; n >= 0; n--) {
    const at = schemaAtPath(version.schema, segs.slice(0, n));
    if (at && !at.builtin) return schemaStepsToCrdPath(version, at.steps);
  }
  return undefined;
}

/** Where in the CRD a finding comes from (none for a built-in kind: its schema is no file). */
function provenanceInfo(ctx: ServiceContext, crd: IndexedCrd, version: CrdVersion, segs: PathSegment[] | undefined, rule?: string): RelatedFinding[] {
  if (crd.builtin) return [];
  const where = segs ?? [
    { kind: 'field', name: 'spec' },
    { kind: 'field', name: 'versions' },
    { kind: 'index', index: version.index },
  ];
  return [
    {
      location: crdLocation(ctx, crd, where),
      message: `CRD ${crd.name}, version ${version.name}${rule ? `, rule: ${rule}` : ''}${crd.catalog ? ` (from the catalog: ${crd.catalog.url}, tag ${crd.catalog.tag})` : ''}`,
    },
  ];
}

/** A catalog CRD's origin, for a finding's provenance (workspace/catalog.ts). */
function crdSourceOf(crd: IndexedCrd): { crdSource?: { url: string; tag: string } } {
  return crd.catalog ? { crdSource: { url: crd.catalog.url, tag: crd.catalog.tag } } : {};
}

const SEVERITY: Record<NonNullable<FieldError['severity']>, FindingSeverity> = { error: 'error', warning: 'warning', information: 'information' };

/** Turns one engine finding into a finding at its YAML range. */
export function fieldFinding(ctx: ServiceContext, td: TextDocument, doc: YamlDocument, e: FieldError, from: { crd?: IndexedCrd; version?: CrdVersion }, role: DocumentRole): Finding {
  // The YAML layer maps the internal CRD paths the API server prints to the v1 fields written, and
  // CEL compile errors to the spot inside the rule string.
  const r = doc.rangeOfFieldError(e);
  const range = { start: td.positionAt(r.start), end: td.positionAt(r.end) };
  const printed = e.segments?.length && formatFieldPath(e.segments) === e.field ? e.segments : parseFieldPath(e.field);
  const written = r.exact ? r.found : printed;
  const f = finding(range, SEVERITY[e.severity ?? 'error'], e.type, shortMessage(e, { exact: r.exact, segments: written }), role);
  f.apiMessage = errorMessage(e);
  if (e.field !== '') f.field = e.field;
  if (r.exact) f.path = formatFieldPath(r.found);
  f.segments = written;
  if (e.params) f.params = e.params;
  if (e.type === 'FieldValueTypeInvalid' && e.params?.expectedType === 'string' && r.exact) {
    const surprise = plainScalarSurprise(doc, r.found);
    if (surprise) {
      f.params = { ...f.params, plainScalar: surprise };
      f.message = surpriseMessage(doc, r.found, surprise);
    }
  }
  const rule = e.provenance?.rule;
  if (from.crd && from.version) {
    f.provenance = { crd: from.crd.name, version: from.version.name, ...(rule ? { rule } : {}), ...crdSourceOf(from.crd) };
    const p = e.provenance;
    let where: PathSegment[] | undefined;
    if (p?.rulePath) where = [{ kind: 'field', name: 'spec' }, { kind: 'field', name: 'versions' }, { kind: 'index', index: from.version.index }, { kind: 'field', name: 'schema' }, ...parseFieldPath(p.rulePath)];
    else where = parentSchemaSegments(from.version, [...printed, { kind: 'field', name: '' }]);
    f.related = provenanceInfo(ctx, from.crd, from.version, where, rule);
  } else if (rule) {
    f.provenance = { rule };
  }
  return f;
}

function node(doc: YamlDocument, segs: PathSegment[]): unknown {
  const n = doc.nodeAtPath(segs);
  return n && isScalar(n) ? n.value : undefined;
}

/** A scalar's reading, comparable across parsers (integers may be bigints). */
function scalarReading(v: unknown): string {
  return typeof v === 'bigint' || typeof v === 'number' ? `number:${Number(v)}` : `${typeof v}:${String(v)}`;
}

/** How plain YAML 1.2 (core schema) reads a scalar's source. */
function yaml12Reading(source: string): string {
  const r = readAsYaml12(source);
  return r ? scalarReading(r.value) : '';
}

function surpriseMessage(doc: YamlDocument, segs: PathSegment[], surprise: { source: string; readAs: string }): string {
  // Name YAML 1.1 where it is the reason (plain YAML 1.2 would have read a string, or another number).
  const yaml11 = yaml12Reading(surprise.source) !== scalarReading(node(doc, segs));
  return `${surprise.source} is read as ${surprise.readAs}${yaml11 ? ' (YAML 1.1, as kubectl reads it)' : ''}, but this field is a string: quote it`;
}

/** ObjectMeta's string fields a person writes (decoded before the schema is consulted). */
const META_STRINGS = ['name', 'generateName', 'namespace', 'uid', 'resourceVersion'];

interface Surprise {
  segments: PathSegment[];
  source: string;
  readAs: string;
}

/** The plain scalars of the object's metadata read as booleans or numbers where ObjectMeta has strings. */
function metadataSurprises(doc: YamlDocument): Surprise[] {
  const meta = isJSONObject(doc.value) ? doc.value.metadata : undefined;
  if (!isJSONObject(meta)) return NO_SURPRISES;
  // Looked for without allocating (every object of a check comes here; almost none has one).
  let out: Surprise[] | undefined;
  const at = (segments: PathSegment[]) => {
    const s = plainScalarSurprise(doc, segments);
    if (s) (out ??= []).push({ segments, ...s });
  };
  const m: PathSegment = { kind: 'field', name: 'metadata' };
  for (let i = 0; i < META_STRINGS.length; i++) {
    const k = META_STRINGS[i];
    if (meta[k] !== undefined && typeof meta[k] !== 'string') at([m, { kind: 'field', name: k }]);
  }
  for (let i = 0; i < STRING_MAPS.length; i++) {
    const k = STRING_MAPS[i];
    const map = meta[k];
    if (!isJSONObject(map)) continue;
    for (const key in map) if (Object.hasOwn(map, key) && typeof map[key] !== 'string' && map[key] !== null) at([m, { kind: 'field', name: k }, { kind: 'key', key }]);
  }
  const finalizers = meta.finalizers;
  if (Array.isArray(finalizers)) {
    for (let index = 0; index < finalizers.length; index++) {
      const v = finalizers[index];
      if (typeof v !== 'string' && v !== null) at([m, { kind: 'field', name: 'finalizers' }, { kind: 'index', index }]);
    }
  }
  return out ?? NO_SURPRISES;
}

const STRING_MAPS = ['labels', 'annotations'];
const NO_SURPRISES: Surprise[] = [];

/** A copy of the object with each surprise set to its text as written (what quoting it gives). */
function withScalarsAsWritten(value: unknown, surprises: Surprise[]): unknown {
  const copy = structuredClone(value) as Record<string, unknown>;
  for (const s of surprises) {
    let cur: unknown = copy;
    for (const seg of s.segments.slice(0, -1)) cur = (cur as Record<string, unknown>)[seg.kind === 'field' ? seg.name : seg.kind === 'key' ? seg.key : seg.index];
    const last = s.segments[s.segments.length - 1];
    (cur as Record<string | number, unknown>)[last.kind === 'field' ? last.name : last.kind === 'key' ? last.key : last.index] = s.source;
  }
  return copy;
}

/**
 * The findings of metadata surprises: each at its value with "Quote it" (params.plainScalar), the API
 * server's text (ObjectMeta's decoding error, the only one it reports for the object) one click away.
 */
function metadataSurpriseFindings(td: TextDocument, doc: YamlDocument, surprises: Surprise[], asWritten: CrCheck): Finding[] {
  const decode = asWritten.ok ? asWritten.value.errors.find((e) => e.field === 'metadata') : undefined;
  return surprises.map((s) => {
    const f = finding(rangeOfPath(td, doc, s.segments, 'value'), 'error', 'FieldValueTypeInvalid', surpriseMessage(doc, s.segments, s), 'cr');
    if (decode) f.apiMessage = errorMessage(decode);
    f.field = formatFieldPath(s.segments);
    f.path = f.field;
    f.segments = s.segments;
    f.params = { origin: 'objectMeta', expectedType: 'string', plainScalar: { source: s.source, readAs: s.readAs } };
    return f;
  });
}

/** A plain scalar read as a boolean or number where a string was meant (`off`, `y`, `0755`, `1.10`). */
function plainScalarSurprise(doc: YamlDocument, segs: PathSegment[]): { source: string; readAs: string } | undefined {
  const node = doc.nodeAtPath(segs);
  const r = nodeRange(doc, node);
  if (!node || !isScalar(node) || node.type !== 'PLAIN' || !r || typeof node.value === 'string' || node.value === null) return undefined;
  const source = doc.text.slice(r[0] - doc.start, r[1] - doc.start);
  const v = node.value;
  let readAs: string;
  if (typeof v === 'boolean') readAs = `the boolean ${v}`;
  else if (typeof v === 'number' || typeof v === 'bigint') readAs = `the number ${String(v)}${/^[-+]?0[0-7]/.test(source) ? ' (octal)' : ''}`;
  else return undefined;
  return { source, readAs };
}

/** The range of a field path in a document: its value, or its key; for a missing field, its parent's key. */
export function rangeOfPath(td: TextDocument, doc: YamlDocument, segs: PathSegment[], prefer: 'key' | 'value'): Range {
  const r = doc.rangeOfPath(segs, prefer);
  return { start: td.positionAt(r.start), end: td.positionAt(r.end) };
}

/** The first content line of a document (for findings about the whole document). */
export function headRange(td: TextDocument, doc: YamlDocument): Range {
  const start = contentStart(doc);
  const text = td.getText();
  let end = text.indexOf('\n', start);
  if (end < 0 || end > doc.end) end = doc.end;
  return { start: td.positionAt(start), end: td.positionAt(Math.max(end, start)) };
}

function engineUnavailable(td: TextDocument, doc: YamlDocument, error: string): Finding {
  return finding(headRange(td, doc), 'information', 'EngineUnavailable', `crd-yaml could not run a check: ${error}`, roleOf(doc.value).role);
}

function finding(range: Range, severity: FindingSeverity, code: Finding['code'], message: string, document: DocumentRole): Finding {
  return { range, severity, code, message, document };
}
