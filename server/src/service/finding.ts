/**
 * The findings model: what the service reports about a file, in editor terms but for no editor in
 * particular. `lsp/render.ts` turns findings into LSP diagnostics; `cli/format.ts` turns the same findings
 * into text, JSON and SARIF. Quick fixes (`fixes/`) are keyed by a finding's structured data (`code`,
 * `params`, `document`), never by its wording.
 */
import type { Location, Range } from 'vscode-languageserver-types';
import type { ErrorType, FieldErrorParams, PathSegment } from '../engine';

/** How serious a finding is, as real clients treat it (`error`: `kubectl apply` fails). */
export type FindingSeverity = 'error' | 'warning' | 'information' | 'hint';

/**
 * Our own codes, beside the Kubernetes field error types (`FieldValueInvalid`, ...) that engine findings
 * carry. The text is the code's description (SARIF rules, docs).
 */
export const FINDING_CODES = {
  YAMLSyntax: 'YAML syntax error: the document cannot be decoded as kubectl and the API server decode it',
  YAMLWarning: 'A YAML problem kubectl only warns about (e.g. a duplicate key)',
  NotYaml: 'The file is not YAML (many syntax errors and no Kubernetes object)',
  UnknownField: 'A field the schema does not declare: rejected under strict field validation (kubectl apply, the default since 1.27), silently pruned by non-strict clients',
  NoKindMatch: 'No served version of a known CRD matches apiVersion/kind (kubectl: no matches for kind)',
  UnknownKind: 'No known CRD defines this kind: the object is not checked (crdYaml.unknownKinds: once per file by default, on every object with hint; CLI: --unknown-kinds hint)',
  TemplateKind: 'A template decides what this document is (its apiVersion or kind): it is not checked (listed when crdYaml.unknownKinds is hint)',
  CRDUnreadable: 'The CRD of this object has YAML syntax errors: the object is not checked',
  DeprecatedVersion: 'The CRD marks this version deprecated: the API server answers with a warning',
  VersionFieldLoss: 'Conversion strategy None with versions of different schemas: an object loses the fields the storage version lacks when stored, and those a served version lacks when read in it',
  EngineUnavailable: 'A check could not run on this document (see the message)',
  Incompatible: 'A CRD change that can break stored objects or their clients, against the baseline (params.compat.category: storedVersionRemoval, enum, required, type, ...)',
  BreaksObjects: 'A CRD change that makes objects of the workspace invalid (they were valid against the baseline CRD)',
  TestFile: 'A CRD rule test file (*.crdtest.yaml) that cannot be read as one (no crd, no tests, a malformed case)',
  TestFailed: 'A case of a CRD rule test file failed in its last run (the differences in the notes)',
  BaselineUnavailable: 'The baseline (crdYaml.baseline, --base) could not be read: update checks did not run',
  InternalError: 'crd-yaml failed on this document (a bug): other documents are still checked',
  CELNoSuchKey: 'A CEL rule reads an optional field (not required, no default) without has() or ?.: when the field is absent the rule fails with "no such key" and the object is rejected (crdYaml.cel.noSuchKey)',
  CELConstantRule: 'A CEL rule reads neither self nor oldSelf: it is always true (checks nothing), always false (rejects every object) or always fails (crdYaml.cel.constantRule)',
  CELEmptyMessage: 'A messageExpression can evaluate to an empty, blank or multi-line string: the API server then reports the failure as if messageExpression were not set (crdYaml.cel.emptyMessage)',
  DuplicateCRD: 'Another document defines the same group and kind: one of them is used to check objects (the README says which)',
  UnknownMarker: 'A kubebuilder marker controller-gen does not apply (unknown, misspelled, on the wrong target, or with an unknown argument): the schema does not get what it asks for',
  GoGenerate: 'controller-gen cannot generate the CRD of these Go types (the message says why)',
  GeneratedDrift: 'A checked-in CRD differs from what its Go types generate (make manifests was not run after a change)',
} as const;

export type FindingCode = keyof typeof FINDING_CODES;

/** What a document is, for the fixes that apply to it. */
export type DocumentRole = 'crd' | 'cr' | 'other';

/** A location with a message: where a finding comes from, what else contributed, the API server's text. */
export interface RelatedFinding {
  location: Location;
  message: string;
}

/** Where an engine finding comes from. */
export interface FindingProvenance {
  /** The CRD's metadata.name. */
  crd?: string;
  /** The CRD version the object was checked against. */
  version?: string;
  /** The CEL rule, for findings of x-kubernetes-validations. */
  rule?: string;
  /** The CRD came from the catalog (workspace/catalog.ts): its URL and tag. */
  crdSource?: { url: string; tag: string };
}

/** One finding on a file. */
export interface Finding {
  /** Where, in the file (0-based lines, UTF-16 characters, as LSP counts). */
  range: Range;
  severity: FindingSeverity;
  /** The Kubernetes field error type (`FieldValueInvalid`, ...) or one of FINDING_CODES. */
  code: ErrorType | FindingCode;
  /** For people: the first words say what is wrong, in the file's own terms (the range says where). */
  message: string;
  /**
   * The API server's exact text (what `kubectl` prints, e.g. Go's field.Error.Error()), when it has one:
   * searchable, and what the CLI prints by default.
   */
  apiMessage?: string;
  /** The field path as the API server prints it (`spec.validation.openAPIV3Schema...` for CRDs). */
  field?: string;
  /** The field path as written in this file (v1 `spec.versions[0].schema...`), when it exists there. */
  path?: string;
  /** The path's segments (as written when found, else as the API server prints them), for fixes. */
  segments?: PathSegment[];
  /** The role of the document the finding is in. */
  document: DocumentRole;
  provenance?: FindingProvenance;
  /** Other places that explain the finding (the schema node, the CRD, contributing rules, ...). */
  related?: RelatedFinding[];
  /** Structured data from the engine (and the service), for messages and fixes. */
  params?: FieldErrorParams;
  /** More the API server says with this finding (e.g. that CEL rules were not checked because of it). */
  notes?: string[];
}

/** A quick fix: edits of the finding's file. */
export interface Fix {
  title: string;
  /** Text edits of the file (non-overlapping, in the file's coordinates). */
  edits: Array<{ range: Range; newText: string }>;
  /** The finding(s) it fixes. */
  findings: Finding[];
  /** The obvious fix (an editor may apply it on its own). */
  preferred?: boolean;
  /** What the fix changed, beyond its title, for the editor to show once it is applied (a migration's notes). */
  notes?: string[];
  /** The same edits as snippets (`${1:value}`: each inserted value a tab stop), for editors that apply them so. */
  snippets?: Array<{ range: Range; newText: string }>;
  /**
   * An editor command the action runs instead of edits (`edits` empty): a way forward that is not a change
   * of the file, such as supplying CRDs. The CLI does not print these.
   */
  command?: { command: string; arguments?: unknown[] };
}

/** The finding moved by `lines` lines (its document moved in the file). */
export function shiftFinding(f: Finding, lines: number): Finding {
  if (lines === 0) return f;
  const r = f.range;
  const move = (p: { line: number; character: number }) => ({ line: p.line + lines, character: p.character });
  return { ...f, range: { start: move(r.start), end: move(r.end) } };
}
