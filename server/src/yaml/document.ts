/**
 * YAML documents with positions: the unit the rest of the server works on.
 *
 * A text is split at `---` markers (split.ts) and each chunk is parsed on its own by the `yaml`
 * package (scalars typed as Kubernetes' go-yaml v2 types them, see ParseYamlOptions.yamlVersion). The parsed chunk keeps chunk-relative ranges, so a
 * chunk whose text did not change can be reused as is after an edit elsewhere (only its absolute
 * offset moves): pass the previous result as `previous` to parseYamlDocuments.
 *
 * Parsing never fails: syntax errors come back as data with ranges, and whatever parsed is still
 * available as a JSON value and as an AST.
 */
import { Composer, Parser, YAMLWarning, isMap, isPair, isSeq, isScalar, type CST, type Document, type Node, type ParsedNode, type Scalar, type ScalarTag, type Tags } from 'yaml';
import type { FieldError, PathSegment } from '../engine';
import { v1PathsOfInternalCrdPath } from './crd-paths';
import { identifyObject, type ObjectIdentity } from './kind';
import { LineIndex, endOfLine } from './lines';
import { findPair, formatFieldPath, parseFieldPath, pathAtOffset, resolvePath, type PathAtOffset, type PathTarget } from './path';
import { scalarSourceOffsets } from './scalar';
import { splitYamlChunks, type YamlChunk } from './split';
import { diffTexts, type TextEdit } from './diff';
import { spliceDocument } from './splice';
import { decodeDocument, type DecodeWork } from './decode';
import { streamProblems } from './stream';
import { decodeDoubleQuoted, decodeSingleQuoted, quotedScalarEnd } from './quoted';
import { MAX_YAML_DEPTH, MAX_YAML_DOCUMENTS, RETAINED_SHARE, PARSE_BYTES_PER_CHAR, PARSE_FIXED_BYTES, UNPARSED_DOCUMENT_BYTES, estimateParseBytes, parseBytesBound, parseBytesOfTokens } from './budget';
import { BlockLocator, newKeyTable, readBlockYamlCounted } from './block';
import type { MaskedTemplate, TemplateRegions } from './template';

/** Which YAML flavour decides scalar types. */
export type YamlVersion = '1.2' | '1.1';

export interface ParseYamlOptions {
  /**
   * A previous parse of an earlier version of the same file: chunks whose text is unchanged are
   * reused (AST, JSON value and identity are not recomputed).
   */
  previous?: YamlFile;
  /**
   * `1.1` (default): plain scalars read as Kubernetes reads them. kubectl and the API server decode
   * YAML with sigs.k8s.io/yaml, i.e. go-yaml v2, which follows YAML 1.1: `yes`/`no`/`on`/`off`/`y`/`n`
   * are booleans, `0755` is octal (493), `<<` merges; timestamps stay strings (go-yaml v2 keeps
   * them as strings when decoding into interface{}). `1.2`: the YAML 1.2 core schema (`yes` is a
   * string, `0755` is 755), for tools that read the files as plain YAML 1.2.
   */
  yamlVersion?: YamlVersion;
  /**
   * The caller drops `previous` after this call (the language service keeps only the latest parse):
   * a one-line edit inside a large document may then update the previous AST in place and re-parse
   * only the enclosing block (see splice.ts), instead of re-parsing the whole document.
   */
  consumePrevious?: boolean;
  /** @internal smallest document spliced instead of re-parsed (tests use small documents). */
  spliceMinChars?: number;
}

/** A YAML syntax error or warning, with absolute offsets into the file text (see problem.ts). */
export type { YamlSyntaxError } from './problem';
import type { YamlSyntaxError } from './problem';

/** An absolute range in the file text, the answer to "where is this field path". */
export interface PathRange {
  start: number;
  end: number;
  /** True when the whole path exists in the YAML; false when a fallback (an ancestor) was used. */
  exact: boolean;
  /** What the range covers: a mapping key, a value, or (fallback) a line of the document. */
  on: 'key' | 'value' | 'document';
  /** The segments of the path that exist (all of them when `exact`). */
  found: PathSegment[];
}

/** How to choose a range for a path: `key` for missing/unknown/forbidden fields, `value` for bad values. */
export type RangeTarget = PathTarget;

/** The parse of one document of a chunk; chunk-relative and shared between parses (immutable). */
interface ParsedDocument {
  readonly chunkText: string;
  readonly doc: Document.Parsed;
  /** Chunk-relative span of this document. */
  readonly start: number;
  readonly end: number;
  readonly version: YamlVersion;
  value?: DocumentValue;
  identity?: ObjectIdentity;
  errors?: YamlSyntaxError[];
  /** Known free of anchors, aliases and merge keys (splice.ts). */
  plain?: boolean;
  /** Its AST was updated in place for a later text (consumed by a splice): never reused. */
  consumed?: boolean;
  /** Estimated memory of parsing its chunk (budget.ts), charged to the file's budget while kept. */
  cost?: number;
  /** Not parsed because the file's memory budget was spent: never reused. */
  cut?: boolean;
}

/** A document's JSON value and what decoding it found (problems: chunk-relative offsets). */
interface DocumentValue {
  v: unknown;
  /** Set when no value could be made at all (the document is nested too deeply). */
  error?: string;
  problems?: YamlSyntaxError[];
  work?: DecodeWork;
}

/** A chunk of a parsed file and its documents (positions let the next parse reuse chunks without hashing). */
interface ParsedChunk extends YamlChunk {
  parsed: ParsedDocument[];
  /** Known to hold no `%` directive line (its cuts can be kept when an edit stays inside a line). */
  directiveFree?: boolean;
}

/**
 * A document read by the fast reader (block.ts) instead of parsed: its value is known, its parse
 * (the `yaml` AST) is made on first need, for the whole file at once (parseDeferred).
 */
interface DeferredDocument {
  readonly chunkText: string;
  readonly value: unknown;
  /** This document's parse (the first call parses the whole file). */
  readonly parse: () => ParsedDocument;
}

/**
 * One YAML document of a file, with absolute positions. Node ranges in `ast` are relative to
 * `chunkOffset`; every method of this class takes and returns absolute offsets.
 *
 * A document of plain block YAML read by the fast reader (parseDeferred: the CLI's one-shot check of
 * many large files) has its value, text and offsets at once, and its `yaml` AST only when something
 * asks for it (`ast`, `contents`, paths): the private `parsed` getter parses then. Ranges of paths it
 * holds are told by indentation (block.ts BlockLocator) without that parse.
 */
export class YamlDocument {
  private full?: ParsedDocument;
  private readonly deferred?: DeferredDocument;
  private locator?: BlockLocator;
  private ownText?: string;
  private absErrors?: YamlSyntaxError[];
  private known?: { v: unknown };
  private deferredIdentity?: ObjectIdentity;
  /**
   * For a Go template document (service/templates.ts): what the template decides in it. Set by the
   * service after the parse, with the value it may leave out (`value`).
   */
  template?: TemplateRegions;

  /** @internal use parseYamlDocuments */
  constructor(
    parsed: ParsedDocument | DeferredDocument,
    /** Absolute offset of the chunk the AST ranges are relative to. */
    readonly chunkOffset: number,
    /** Index of this document in its file (0-based). */
    readonly index: number,
  ) {
    if ('parse' in parsed) this.deferred = parsed;
    else this.full = parsed;
  }

  /** @internal the parse when made (fileOf reuses the document of an unchanged one). */
  get parsedIfMade(): ParsedDocument | undefined {
    return this.full;
  }

  /** The parse; a deferred document's is made here, on first use. */
  private get parsed(): ParsedDocument {
    return (this.full ??= this.deferred!.parse());
  }

  /** Absolute offset where the document starts (its `---` line, or the file start for the first). */
  get start(): number {
    return this.chunkOffset + (this.deferred ? 0 : this.parsed.start);
  }

  /** Absolute offset where the document ends (exclusive: the next document's `---` or the end of file). */
  get end(): number {
    return this.chunkOffset + (this.deferred ? this.deferred.chunkText.length : this.parsed.end);
  }

  /** The text of the document's chunk (AST ranges index into this string). */
  get chunkText(): string {
    return this.deferred ? this.deferred.chunkText : this.parsed.chunkText;
  }

  /** The document's own text, [start, end) of the file (what the service keys its results by). */
  get text(): string {
    if (this.ownText === undefined) {
      const c = this.chunkText;
      const s = this.start - this.chunkOffset;
      const e = this.end - this.chunkOffset;
      this.ownText = s === 0 && e === c.length ? c : c.slice(s, e);
    }
    return this.ownText;
  }

  /** The `yaml` package's AST. Ranges are relative to `chunkOffset`; use the methods below for absolute ones. */
  get ast(): Document.Parsed {
    return this.parsed.doc;
  }

  /** The root node (null for an empty document). */
  get contents(): ParsedNode | null {
    return this.parsed.doc.contents;
  }

  /**
   * The JSON value as Kubernetes would decode it: mappings become objects with string keys, integers
   * beyond ±2^53 become bigint (others numbers), aliases and merge keys resolved. Computed once.
   * For broken text, whatever parsed; null when nothing did. For a Go template document, the service
   * sets it to the value without what the template's actions print (service/templates.ts knownValue).
   */
  get value(): unknown {
    return this.known ? this.known.v : this.decoded;
  }

  set value(v: unknown) {
    this.known = { v };
  }

  /** The first error that keeps kubectl from reading the document (e.g. excessive aliasing), if any; also in `errors`. */
  get valueError(): string | undefined {
    const v = this.valueResult();
    return v.error ?? v.problems?.find((p) => p.severity === 'error')?.message;
  }

  /** The work decoding the value took (go-yaml's decode operations, nodes walked, key lookups). */
  get decodeWork(): DecodeWork {
    const p = this.parsed;
    return (p.value ??= kubectlValue(p)).work ?? { decodeCount: 0, aliasCount: 0, nodesVisited: 0, keyLookups: 0 };
  }

  /** What the document is (CRD, custom resource, other, empty) and its apiVersion/kind/name, as decoded. */
  get identity(): ObjectIdentity {
    if (this.deferred) return (this.deferredIdentity ??= identifyObject(this.deferred.value));
    return (this.parsed.identity ??= identifyObject(this.decoded));
  }

  /** Shorthand for `identity.kind`. */
  get kind(): ObjectIdentity['kind'] {
    return this.identity.kind;
  }

  /**
   * Syntax errors and warnings with absolute offsets (errors first, then in text order). None for a
   * deferred document: the fast reader reads only text the parse finds nothing in.
   */
  get errors(): YamlSyntaxError[] {
    if (this.absErrors) return this.absErrors;
    if (this.deferred) return (this.absErrors = []);
    const rel = (this.parsed.errors ??= collectErrors(this.parsed, this.valueResult()));
    return (this.absErrors = rel.map((e) => ({ ...e, start: e.start + this.chunkOffset, end: e.end + this.chunkOffset })));
  }

  /** True when the document has at least one syntax error (not counting warnings such as duplicate keys). */
  get hasSyntaxErrors(): boolean {
    return this.errors.some((e) => e.severity === 'error');
  }

  /** True when `offset` (absolute) lies in this document. */
  contains(offset: number): boolean {
    return offset >= this.start && offset <= this.end;
  }

  /** The AST node at a field path (aliases followed), or undefined when the path does not exist. */
  nodeAtPath(path: readonly PathSegment[] | string): Node | null | undefined {
    const segs = typeof path === 'string' ? parseFieldPath(path) : path;
    const r = resolvePath(this.contents, segs, this.parsed.doc);
    if (!r.complete) return undefined;
    return r.steps.length ? r.steps[r.steps.length - 1].node : this.contents;
  }

  /**
   * The best range for a field path (segments, or printed as `spec.foo[0].bar` / `spec.m[key]`):
   * - the path exists: with `value`, the value (for a block mapping/sequence under a key, the key,
   *   so that a diagnostic does not cover a whole block; for a sequence item, its first line; for an
   *   empty value, the key); with `key`, the key (for a sequence item, its first line);
   * - the path does not exist: the key of the deepest existing ancestor (`exact: false`), or, when
   *   nothing of it exists, the document's `kind` key (else its first key, else its first line).
   */
  rangeOfPath(path: readonly PathSegment[] | string, target: RangeTarget = 'value'): PathRange {
    const segs = typeof path === 'string' ? parseFieldPath(path) : path;
    if (this.deferred) {
      const r = (this.locator ??= new BlockLocator(this.deferred.chunkText)).pathRange(segs, target === 'key' ? 'key' : 'value');
      if (r) return { start: this.chunkOffset + r.start, end: this.chunkOffset + r.end, on: r.on, exact: true, found: [...segs] };
    }
    const res = resolvePath(this.contents, segs, this.parsed.doc);
    const found = res.steps.map((s) => s.segment);
    const text = this.parsed.chunkText;
    const abs = (start: number, end: number, on: PathRange['on'], exact: boolean): PathRange => ({
      start: start + this.chunkOffset,
      end: end + this.chunkOffset,
      exact,
      on,
      found,
    });
    const firstLine = (n: Node): [number, number] => {
      const [s, e] = n.range!;
      return [s, Math.max(s, Math.min(e, endOfLine(text, s)))];
    };
    for (let i = res.steps.length - 1; i >= 0; i--) {
      const step = res.steps[i];
      const exact = res.complete && i === res.steps.length - 1;
      const key = step.pair?.key as Node | null | undefined;
      const keyRange = key?.range;
      const node = step.node;
      if (exact && target === 'value' && node?.range) {
        const [s, e] = node.range;
        const emptyValue = e <= s;
        const block = (isMap(node) || isSeq(node)) && !(node as { flow?: boolean }).flow && text.slice(s, e).includes('\n');
        if (!emptyValue && !(block && keyRange)) {
          const [fs, fe] = block ? firstLine(node) : [s, e];
          return abs(fs, fe, 'value', true);
        }
      }
      if (keyRange) return abs(keyRange[0], keyRange[1], 'key', exact);
      if (node?.range && node.range[1] > node.range[0]) {
        const [fs, fe] = firstLine(node);
        return abs(fs, fe, exact ? 'value' : 'document', exact);
      }
    }
    // Nothing of the path exists (or it is the root): point at the object's kind, or its start.
    const root = this.contents;
    const exactRoot = segs.length === 0;
    if (root && isMap(root)) {
      const kindPair = findPair(root, 'kind', this.parsed.doc) ?? root.items[0];
      const kr = (kindPair?.key as Node | undefined)?.range;
      if (kr) return abs(kr[0], kr[1], 'key', exactRoot);
    }
    if (root?.range && root.range[1] > root.range[0]) {
      const [fs, fe] = firstLine(root);
      return abs(fs, fe, 'document', exactRoot);
    }
    const s = this.parsed.start;
    return abs(s, endOfLine(text, s), 'document', exactRoot);
  }

  /**
   * The best range for an engine finding: Required and Forbidden point at the key (the parent's key
   * when the field is missing), every other type at the bad value. Uses `err.segments` when they
   * agree with `err.field`, else parses `err.field`. In a CRD document, internal paths the API
   * server prints (`spec.validation.openAPIV3Schema...`, `spec.subresources`, ...) are mapped to the
   * v1 fields they were hoisted from (`spec.versions[i].schema.openAPIV3Schema...`). With a
   * `ruleRange` (a CEL compile error), the range is the spot inside the rule string.
   */
  rangeOfFieldError(err: Pick<FieldError, 'type' | 'field' | 'segments' | 'ruleRange'>): PathRange {
    const segs = err.segments && formatFieldPath(err.segments) === err.field ? err.segments : parseFieldPath(err.field);
    const target: RangeTarget = err.type === 'FieldValueRequired' || err.type === 'FieldValueForbidden' ? 'key' : 'value';
    let best = this.rangeOfPath(segs, target);
    if (!best.exact && this.kind === 'crd') {
      // A CRD finding may use an internal path (spec.validation... for spec.versions[i].schema...).
      for (const alt of this.v1Alternatives(segs)) {
        const r = this.rangeOfPath(alt, target);
        // Depth is compared without the extra `versions[i]` step the v1 path has.
        if (r.exact || r.found.length - 1 > best.found.length) best = r;
        if (r.exact) break;
      }
    }
    if (err.ruleRange && best.exact) {
      const inner = this.rangeInString(best.found, err.ruleRange.start, err.ruleRange.end);
      if (inner) return { ...best, ...inner };
    }
    return best;
  }

  /**
   * The source range of characters [start, end) of the string value at `path` (e.g. the spot a
   * CEL compile error points at inside a rule), for any scalar style (quoted with escapes, block,
   * multi-line). Undefined when the path is not a string scalar or the offsets do not fit.
   */
  rangeInString(path: readonly PathSegment[] | string, start: number, end: number): { start: number; end: number } | undefined {
    const node = this.nodeAtPath(path);
    if (!node || !isScalar(node) || typeof node.value !== 'string' || !node.range) return undefined;
    const value = node.value;
    if (start < 0 || start > value.length || end < start) return undefined;
    const raw = this.parsed.chunkText.slice(node.range[0], node.range[1]);
    const map = scalarSourceOffsets(raw, node.type, value);
    if (!map) return undefined;
    const e = Math.min(end, value.length);
    const s = map[start];
    const last = e > start ? map[e - 1] + 1 : s;
    return { start: this.chunkOffset + node.range[0] + s, end: this.chunkOffset + node.range[0] + Math.max(s, last) };
  }

  /**
   * A path as this document writes it: the path itself when it exists, else, in a CRD, the v1 fields an
   * internal path the API server prints was hoisted from (`spec.validation...` -> `spec.versions[i].schema...`)
   * when one exists; else the path as given.
   */
  writtenPath(segs: readonly PathSegment[]): readonly PathSegment[] {
    if (resolvePath(this.contents, segs, this.parsed.doc).complete || this.kind !== 'crd') return segs;
    return this.v1Alternatives(segs).find((alt) => resolvePath(this.contents, alt, this.parsed.doc).complete) ?? segs;
  }

  private v1Alternatives(segs: readonly PathSegment[]): PathSegment[][] {
    const versions = (this.decoded as { spec?: { versions?: unknown } } | null)?.spec?.versions;
    return v1PathsOfInternalCrdPath(segs, Array.isArray(versions) ? versions.length : 0);
  }

  /**
   * The Kubernetes field path under an absolute offset, and whether the offset is on a key or a value
   * (for hover and completion). Offsets outside the root node give the empty path.
   */
  pathAt(offset: number): PathAtOffset {
    return pathAtOffset(this.contents, offset - this.chunkOffset, this.parsed.doc);
  }

  /** The value as decoded, whatever the service set as `value`. */
  private get decoded(): unknown {
    return this.deferred ? this.deferred.value : this.valueResult().v;
  }

  private valueResult(): DocumentValue {
    return (this.parsed.value ??= kubectlValue(this.parsed));
  }
}

/** A parsed YAML file: its documents in order, plus line/column helpers. */
export class YamlFile {
  private lineIndex?: LineIndex;
  /**
   * For a Go template or a text with substitution references (service/templates.ts): the file's own
   * text (`text` is then the masked text parsed: same length, same lines) and the masking.
   */
  source?: string;
  template?: MaskedTemplate;
  /** Read by the fast reader (parseBlockYamlDocuments): the documents' syntax trees are built on first use. */
  readByFastReader = false;

  /** @internal use parseYamlDocuments */
  constructor(
    readonly text: string,
    readonly documents: YamlDocument[],
    /** @internal chunk text -> parsed documents, for reuse by the next parse */
    readonly chunkCache: Map<string, ParsedDocument[]>,
    readonly yamlVersion: YamlVersion,
    /** @internal the chunks in text order */
    readonly chunks: ParsedChunk[] = [],
  ) {}

  /** Line starts of the text (built on first use). */
  get lines(): LineIndex {
    return (this.lineIndex ??= new LineIndex(this.text));
  }

  /** All syntax errors and warnings of all documents, absolute offsets. */
  get errors(): YamlSyntaxError[] {
    return this.documents.flatMap((d) => d.errors);
  }

  /** The document containing an absolute offset (the last one whose start is at or before it; outside the documents, the last one). */
  documentAt(offset: number): YamlDocument | undefined {
    let found: YamlDocument | undefined;
    for (const d of this.documents) {
      if (d.start <= offset) found = d;
      else break;
    }
    return found;
  }

  /** 0-based line/character of an absolute offset. */
  positionAt(offset: number): { line: number; character: number } {
    return this.lines.positionAt(offset);
  }

  /** Absolute offset of a 0-based line/character. */
  offsetAt(pos: { line: number; character: number }): number {
    return this.lines.offsetAt(pos);
  }
}

/**
 * Split a text into YAML documents with positions. Never throws. Chunks are separated at `---`
 * lines; a chunk normally holds one document (several when `...` markers are used). A chunk with
 * nothing but comments gives no document; `---` alone gives an `empty` document.
 */
export function parseYamlDocuments(text: string, opts: ParseYamlOptions = {}): YamlFile {
  const version = opts.yamlVersion ?? '1.1';
  const previous = opts.previous && opts.previous.yamlVersion === version ? opts.previous : undefined;
  if (previous?.chunks.length) {
    const inc = parseIncrementally(text, previous, version, opts.consumePrevious ? (opts.spliceMinChars ?? SPLICE_MIN_CHARS) : Infinity);
    if (inc) return inc;
  }
  const reuse = previous?.chunkCache;
  const chunks: PendingChunk[] = [];
  for (const chunk of splitYamlChunks(text, MAX_YAML_DOCUMENTS)) {
    chunks.push({ ...chunk, parsed: chunk.tail ? undefined : reusable(reuse?.get(chunk.text)), directiveFree: chunk.text.charCodeAt(0) !== 37 && !chunk.text.includes('\n%') && !chunk.text.includes('\r%') });
  }
  return fileOf(text, chunks, version, previous);
}

/** A chunk whose parse may still be missing (parsed in file order by fileOf, within the memory budget). */
type PendingChunk = Omit<ParsedChunk, 'parsed'> & { parsed?: ParsedDocument[] };

/**
 * The file of the given chunks, parsed (or their parse kept) in file order while the estimated memory
 * stays within the file's budget (budget.ts): each parse must fit in what is left, and then keeps
 * RETAINED_SHARE of its estimate. A chunk that does not fit gets a
 * document saying so instead; once even those do not fit, the last one says how many chunks follow
 * unparsed, and they get no documents. Identical chunk texts share one parse.
 */
function fileOf(text: string, pending: PendingChunk[], version: YamlVersion, previous: YamlFile | undefined): YamlFile {
  const cache = new Map<string, ParsedDocument[]>();
  const chunks: ParsedChunk[] = [];
  let left = parseBytesBound(text.length);
  let exhausted = false;
  for (let i = 0; i < pending.length; i++) {
    const c = pending[i];
    let parsed: ParsedDocument[] | undefined = c.parsed ?? cache.get(c.text);
    if (exhausted) parsed = NO_DOCUMENTS;
    else if (c.tail) {
      parsed = [unparsedDocument(c.text, version, `not checked: this file has more than ${MAX_YAML_DOCUMENTS.toLocaleString('en-US')} documents; the rest of the file from here on is not parsed`)];
      exhausted = true;
    } else if (parsed && cache.get(c.text) === parsed) {
      // The same text earlier in this file: the parse is shared, and so is its memory.
    } else {
      const cost = parsed?.[0]?.cost ?? estimateParseBytes(c.text, left).bytes;
      if (cost <= left - UNPARSED_DOCUMENT_BYTES) {
        parsed ??= parseChunk(c.text, version, cost);
        // The syntax tree is freed once composed: the document keeps its AST and value.
        left -= Math.ceil(cost * RETAINED_SHARE);
      } else if (left >= 2 * UNPARSED_DOCUMENT_BYTES) {
        parsed = [
          unparsedDocument(
            c.text,
            version,
            `not checked: parsing this document would take more memory than is left of this file's bound (${PARSE_BYTES_PER_CHAR} times its size plus ${mb(PARSE_FIXED_BYTES)}: ${mb(parseBytesBound(text.length))})`,
          ),
        ];
        left -= UNPARSED_DOCUMENT_BYTES;
      } else {
        const rest = pending.length - i;
        parsed = [unparsedDocument(c.text, version, `not checked: this file's memory bound (${mb(parseBytesBound(text.length))}) is spent; this document and the ${rest - 1} after it are not parsed`)];
        exhausted = true;
      }
      if (!parsed.some((p) => p.cut)) cache.set(c.text, parsed);
    }
    chunks.push({ ...c, parsed });
  }
  // A document whose parse, place and index did not change is the previous one (the service keys results by it).
  const before = new Map<ParsedDocument, YamlDocument>();
  for (const d of previous?.documents ?? []) {
    const p = d.parsedIfMade;
    if (p) before.set(p, d);
  }
  const documents: YamlDocument[] = [];
  for (const c of chunks) {
    for (const p of c.parsed) {
      const old = before.get(p);
      documents.push(old && old.chunkOffset === c.start && old.index === documents.length ? old : new YamlDocument(p, c.start, documents.length));
    }
  }
  return new YamlFile(text, documents, cache, version, chunks);
}

/**
 * A file of generated block YAML read by the fast reader (block.ts): the documents' values now,
 * their parse (`yaml` AST) on first use, all at once (YamlDocument's deferred documents). The same file
 * as parseYamlDocuments gives, for a one-shot check of many large files (the CLI): most documents never
 * need a position. Undefined when a document is not plain block YAML, or the parse would find a problem
 * or refuse it (bounds); always YAML 1.1.
 */
export function parseBlockYamlDocuments(text: string): YamlFile | undefined {
  const chunks = splitYamlChunks(text, MAX_YAML_DOCUMENTS);
  let left = parseBytesBound(text.length);
  const values: unknown[] = [];
  const keys = newKeyTable();
  for (const c of chunks) {
    if (c.tail || streamProblems(c.text, [0]).length > 0) return undefined;
    const read = readBlockYamlCounted(c.text, keys);
    if (read === undefined) return undefined;
    // The memory bound the parse applies (fileOf): a document it would not parse. The reader's token
    // counts bound its estimate from above (without lexing again); the exact one near the bound.
    let cost = parseBytesOfTokens(read.counts);
    if (cost > left - UNPARSED_DOCUMENT_BYTES) cost = estimateParseBytes(c.text, left).bytes;
    if (cost > left - UNPARSED_DOCUMENT_BYTES) return undefined;
    left -= Math.ceil(cost * RETAINED_SHARE);
    values.push(read.value);
  }
  let full: YamlFile | undefined;
  const documents = chunks.map((c, index) => {
    const parse = () => (full ??= parseYamlDocuments(text)).documents[index].parsedIfMade!;
    return new YamlDocument({ chunkText: c.text, value: values[index], parse }, c.start, index);
  });
  const file = new YamlFile(text, documents, new Map(), '1.1');
  file.readByFastReader = true;
  return file;
}

function mb(n: number): string {
  return `${Math.ceil(n / 1048576)} MB`;
}

/** The chunks after the budget is spent: no documents, never reused. */
const NO_DOCUMENTS: ParsedDocument[] = [];

/** A document standing for a chunk that is not parsed (its first line carries the warning). */
function unparsedDocument(text: string, version: YamlVersion, message: string): ParsedDocument {
  const [doc] = Array.from(new Composer(composeOptions(version)).compose([], true, text.length));
  const nl = text.indexOf('\n');
  doc.warnings.push(new YAMLWarning([0, nl < 0 ? text.length : nl], 'RESOURCE_EXHAUSTION', message));
  return { chunkText: text, doc, start: 0, end: text.length, version, cut: true };
}

/**
 * The parse of `text` from the parse of an earlier version: the chunks before and after the edited
 * region are reused by position (no re-split, no hashing), the region is re-split, and a one-line edit
 * inside a document is spliced into its AST when the caller consumes `previous`. Undefined when the
 * region holds `%` directives (their chunk merging is left to the full split).
 */
function parseIncrementally(text: string, previous: YamlFile, version: YamlVersion, spliceMin: number): YamlFile | undefined {
  const old = previous.chunks;
  // A file cut at MAX_YAML_DOCUMENTS is split again in full (the cut moves with the documents).
  if (old.length && old[old.length - 1].tail) return undefined;
  const edit = diffTexts(previous.text, text) ?? { start: previous.text.length, oldEnd: previous.text.length, newEnd: text.length };
  const delta = edit.newEnd - edit.oldEnd;
  // First chunk the edit may touch: the one holding the character before it (an edit at a `---` line
  // start may merge that chunk into the previous one).
  let i0 = 0;
  while (i0 + 1 < old.length && old[i0 + 1].start <= edit.start - 1) i0++;
  // An edit inside the `---` line that opens that chunk may unmake the marker: then it merges too.
  if (i0 > 0 && !hasBreak(previous.text, old[i0].start, edit.start)) i0--;
  // First chunk after the edit: its `---` line and everything after it are unchanged.
  let i1 = i0 + 1;
  while (i1 < old.length && old[i1].start <= edit.oldEnd) i1++;
  const regionStart = old[i0].start;
  const regionEnd = i1 < old.length ? old[i1].start + delta : text.length;
  const region = text.slice(regionStart, regionEnd);
  let sub: YamlChunk[];
  if (i1 - i0 === 1 && old[i0].directiveFree && sameChunkLines(previous.text, text, edit)) {
    // Within one line that neither is nor becomes a `---` or `%` line: the cuts only move.
    sub = [{ start: 0, end: region.length, text: region }];
  } else {
    if (region.charCodeAt(0) === 37 || region.includes('\n%') || region.includes('\r%')) return undefined;
    if (region === '' && old.length > 1) return undefined;
    sub = splitYamlChunks(region);
  }
  const chunks: PendingChunk[] = [];
  const keep = (c: ParsedChunk, shift: number) => {
    const moved = shift === 0 ? c : { ...c, start: c.start + shift, end: c.end + shift };
    chunks.push({ ...moved, parsed: reusable(c.parsed) });
  };
  for (let i = 0; i < i0; i++) keep(old[i], 0);
  for (const s of sub) {
    const chunk = { start: s.start + regionStart, end: s.end + regionStart, text: s.text };
    let parsed: ParsedDocument[] | undefined;
    if (sub.length === 1 && old[i0].text.length >= spliceMin && i1 - i0 === 1 && old[i0].parsed.length === 1 && !old[i0].parsed[0].consumed) {
      const at = old[i0].start;
      const rel: TextEdit = { start: edit.start - at, oldEnd: edit.oldEnd - at, newEnd: edit.newEnd - at };
      parsed = spliceChunk(old[i0].parsed[0], chunk.text, rel, version, previous);
    }
    parsed ??= reusable(previous.chunkCache.get(chunk.text));
    // Region chunks hold no directives (checked above, or the chunk had none and the edited line has none).
    chunks.push({ ...chunk, parsed, directiveFree: true });
  }
  for (let i = i1; i < old.length; i++) keep(old[i], delta);
  if (chunks.length > MAX_YAML_DOCUMENTS) return undefined;
  return fileOf(text, chunks, version, previous);
}

/** True when the edit stays inside one line, and that line neither was nor is a marker or directive line. */
function sameChunkLines(before: string, after: string, edit: TextEdit): boolean {
  if (hasBreak(before, edit.start, edit.oldEnd) || hasBreak(after, edit.start, edit.newEnd)) return false;
  let ls = edit.start;
  while (ls > 0 && before.charCodeAt(ls - 1) !== 10 && before.charCodeAt(ls - 1) !== 13) ls--;
  // The line start is the same in both texts (the edit begins at or after it).
  const lineHead = (t: string) => t.charCodeAt(ls) === 37 || (t.charCodeAt(ls) === 45 && t.charCodeAt(ls + 1) === 45 && t.charCodeAt(ls + 2) === 45);
  return !lineHead(before) && !lineHead(after);
}

function hasBreak(t: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = t.charCodeAt(i);
    if (c === 10 || c === 13) return true;
  }
  return false;
}

function reusable(p: ParsedDocument[] | undefined): ParsedDocument[] | undefined {
  return p && p !== NO_DOCUMENTS && !p.some((d) => d.consumed || d.cut) ? p : undefined;
}

/** Splices a one-line edit into a document parsed alone in its chunk (see splice.ts). */
function spliceChunk(prev: ParsedDocument, text: string, edit: TextEdit, version: YamlVersion, previous: YamlFile): ParsedDocument[] | undefined {
  // Never for a parse shared by several identical chunks.
  if (prev.start !== 0 || prev.end !== prev.chunkText.length) return undefined;
  if (previous.chunks.filter((c) => c.parsed.includes(prev)).length !== 1) return undefined;
  const r = spliceDocument(prev, text, edit, (piece) => composeIsolated(piece, version), MAX_YAML_DEPTH);
  if (!r) return undefined;
  prev.consumed = true;
  // The new text's cost: the old one, plus the inserted tokens' estimate, less the removed ones'.
  const delta = estimateParseBytes(text.slice(edit.start, edit.newEnd)).bytes - estimateParseBytes(prev.chunkText.slice(edit.start, edit.oldEnd)).bytes;
  const cost = prev.cost === undefined ? undefined : Math.max(0, prev.cost + delta);
  return [{ chunkText: text, doc: r.doc, start: 0, end: text.length, version, value: r.value, plain: true, cost }];
}

/** Documents shorter than this are simply re-parsed (that is already fast). */
export const SPLICE_MIN_CHARS = 20_000;

export { MAX_YAML_DEPTH } from './budget';

/** The deepest collection nesting in parsed CST tokens (iterative: the input may be very deep). */
function maxCollectionDepth(tokens: CST.Token[]): number {
  let max = 0;
  const stack: Array<[CST.Token | null | undefined, number]> = tokens.map((t) => [t, 0]);
  while (stack.length) {
    const [t, d] = stack.pop()!;
    if (!t) continue;
    if (t.type === 'document') stack.push([t.value, d]);
    else if (t.type === 'block-map' || t.type === 'block-seq' || t.type === 'flow-collection') {
      if (d + 1 > max) max = d + 1;
      if (max > MAX_YAML_DEPTH) return max;
      for (const it of t.items as Array<{ key?: CST.Token | null; value?: CST.Token }>) {
        stack.push([it.key, d + 1]);
        stack.push([it.value, d + 1]);
      }
    }
  }
  return max;
}

/** A piece of YAML parsed as one document, with its collection nesting depth (splice.ts). */
function composeIsolated(text: string, version: YamlVersion): { doc: Document.Parsed; depth: number } | undefined {
  const tokens = Array.from(new Parser().parse(text));
  const depth = maxCollectionDepth(tokens);
  if (depth > MAX_YAML_DEPTH) return undefined;
  const docs = composeAsGoYaml(text, tokens, composeOptions(version));
  return docs.length === 1 ? { doc: docs[0], depth } : undefined;
}

/**
 * The documents of a text's tokens, with go-yaml's reading of quoted scalars: go-yaml (libyaml's
 * scanner) reads a quoted scalar's continuation lines at any indentation, the `yaml` package ends the
 * scalar at a line indented no deeper than its block and reports a missing quote (quoted.ts). Only
 * after such a report, each of those scalars is given to the `yaml` package as one line (its line breaks
 * as spaces: same offsets) and its value decoded again from the text as libyaml decodes it. A scalar
 * kubectl refuses too (a key over several lines, a document marker or the end inside) stays an error.
 */
function composeAsGoYaml(text: string, tokens: CST.Token[], options: ReturnType<typeof composeOptions>): Document.Parsed[] {
  const docs = Array.from(new Composer(options).compose(tokens));
  if (!docs.some((d) => d.errors.some((e) => e.code === 'MISSING_CHAR'))) return docs;
  let relaxed = text;
  let toks = tokens;
  const scalars = new Map<number, number>();
  for (let n = 0; n < MAX_RELAXING_PARSES; n++) {
    // Every quoted scalar the `yaml` package ended early. The first is one (the text before it was read
    // as go-yaml reads it); the others, read after it, are confirmed by the next parse.
    const spans: [number, number][] = [];
    for (const t of quotedScalarTokens(toks)) {
      if (quotedScalarEnd(relaxed, t.offset) === t.offset + t.length || t.offset < (spans.at(-1)?.[1] ?? 0)) continue;
      const end = quotedScalarEnd(text, t.offset);
      // A quoted key must be on one line (go-yaml: "could not find expected ':'").
      if (end < 0 || /^[ \t]*:(?:[ \t\r\n]|$)/.test(text.slice(end, end + 200))) break;
      spans.push([t.offset, end]);
    }
    if (spans.length === 0) break;
    const oneLine = (batch: [number, number][]) => {
      let out = relaxed;
      for (const [start, end] of batch) out = out.slice(0, start) + text.slice(start, end).replace(/[\r\n]/g, ' ') + out.slice(end);
      return out;
    };
    let next = oneLine(spans);
    let nextToks = Array.from(new Parser().parse(next));
    if (spans.length > 1) {
      const read = new Map(quotedScalarTokens(nextToks).map((t) => [t.offset, t.length]));
      if (!spans.every(([start, end]) => read.get(start) === end - start)) {
        // One was not a scalar after all (text the early end misread): the certain one alone.
        spans.length = 1;
        next = oneLine(spans);
        nextToks = Array.from(new Parser().parse(next));
      }
    }
    relaxed = next;
    toks = nextToks;
    for (const [start, end] of spans) scalars.set(start, end);
  }
  if (scalars.size === 0) return docs;
  const out = Array.from(new Composer(options).compose(toks));
  for (const d of out) {
    visitScalars(d.contents, (node) => {
      const end = node.range ? scalars.get(node.range[0]) : undefined;
      if (end === undefined) return;
      const raw = text.slice(node.range![0], end);
      const value = raw[0] === "'" ? decodeSingleQuoted(raw) : decodeDoubleQuoted(raw);
      const v = value === undefined ? undefined : typeof value === 'string' ? value : 'value' in value ? value.value : undefined;
      if (v === undefined) return;
      node.source = v;
      if (typeof node.value === 'string') node.value = v;
    });
  }
  return out;
}

/** More parses than this to read a chunk's quoted scalars as go-yaml does: the rest stay errors. */
const MAX_RELAXING_PARSES = 50;

/** The quoted scalar tokens of a CST, in text order, with their lengths. */
function quotedScalarTokens(tokens: CST.Token[]): { offset: number; length: number }[] {
  const out: { offset: number; length: number }[] = [];
  const stack: unknown[] = [...tokens].reverse();
  while (stack.length) {
    const t = stack.pop() as Record<string, unknown> | undefined;
    if (!t || typeof t !== 'object') continue;
    if (t.type === 'single-quoted-scalar' || t.type === 'double-quoted-scalar') {
      out.push({ offset: t.offset as number, length: (t.source as string).length });
      continue;
    }
    const kids: unknown[] = [];
    if (Array.isArray(t.items)) for (const it of t.items as Record<string, unknown>[]) kids.push(it.key, it.value);
    if (t.type === 'document') kids.push(t.value);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
  return out;
}

/** Every scalar of a document's contents (iterative: the input may be deep). */
function visitScalars(root: unknown, f: (s: Scalar) => void): void {
  const stack: unknown[] = [root];
  while (stack.length) {
    const n = stack.pop();
    if (isScalar(n)) f(n);
    else if (isMap(n) || isSeq(n)) for (const it of n.items as unknown[]) stack.push(isPair(it) ? it.value : it, isPair(it) ? it.key : undefined);
  }
}

/** The `yaml` package options that read scalars as Kubernetes does (see ParseYamlOptions.yamlVersion). */
export function composeOptions(version: YamlVersion) {
  return {
    intAsBigInt: true,
    version,
    // go-yaml v2 has no sexagesimal numbers and gives timestamps to interface{} as strings.
    ...(version === '1.1' ? { customTags: kubernetesTags } : {}),
    merge: true,
    // Duplicate keys are found by decode.ts with one hash lookup per key: the `yaml` package's check
    // compares each key with every earlier one (quadratic in the width of a mapping).
    uniqueKeys: false,
    // The AST's own toJS/toJSON (used on nodes by code actions) would print warnings such as "Keys with
    // collection values will be stringified" to stderr through process.emitWarning: what kubectl makes
    // of a document is reported by decode.ts as findings instead.
    logLevel: 'error' as const,
  };
}

function parseChunk(text: string, version: YamlVersion, cost: number): ParsedDocument[] {
  const options = composeOptions(version);
  // parseAllDocuments, in two steps so that the nesting depth is known before composing.
  const tokens = Array.from(new Parser().parse(text));
  if (maxCollectionDepth(tokens) > MAX_YAML_DEPTH) {
    const [doc] = Array.from(new Composer(options).compose([], true, text.length));
    // kubectl reads up to 10,000 levels (go-yaml's max depth): not an error in the file, a bound of ours.
    const nl = text.indexOf('\n');
    doc.warnings.push(new YAMLWarning([0, nl < 0 ? text.length : nl], 'RESOURCE_EXHAUSTION', `not checked: the document is nested more than ${MAX_YAML_DEPTH} levels deep`));
    return [{ chunkText: text, doc, start: 0, end: text.length, version, cost }];
  }
  const docs = composeAsGoYaml(text, tokens, options);
  if (docs.length === 0) return [];
  return docs.map((doc, i) => {
    const start = i === 0 ? 0 : docs[i - 1].range[2];
    const end = i === docs.length - 1 ? text.length : doc.range[2];
    return { chunkText: text, doc, start, end, version, cost };
  });
}

/**
 * The YAML 1.1 tags as go-yaml v2 resolves plain scalars: no timestamps or sexagesimal numbers, and
 * the integer prefixes Go's strconv.ParseInt(s, 0, 64) also accepts (`0o17`, `0X1F`, `0B11`).
 */
function kubernetesTags(tags: Tags): Tags {
  const kept = tags.filter((t) => {
    const tag = t as { tag?: string; format?: string };
    return tag.tag !== 'tag:yaml.org,2002:timestamp' && tag.format !== 'TIME';
  });
  return [GO_PREFIXED_INT, ...kept];
}

const GO_PREFIXED_INT: ScalarTag = {
  identify: () => false, // only for reading
  default: true,
  tag: 'tag:yaml.org,2002:int',
  test: /^[-+]?0(?:[oO][0-7_]+|[X][0-9a-fA-F_]+|[B][01_]+)$/,
  resolve(str: string, _onError: unknown, opt: { intAsBigInt?: boolean }) {
    const neg = str[0] === '-';
    const body = str.replace(/^[-+]/, '').replace(/_/g, '').toLowerCase();
    const n = (neg ? -1n : 1n) * BigInt(body);
    return opt.intAsBigInt ? n : Number(n);
  },
};

/**
 * `yaml` package errors that do not apply to what kubectl reads: `\'` is an escape to go-yaml (its
 * double-quoted scalars are checked by decode.ts), and tags are resolved by resolve.ts.
 */
const SUPERSEDED = new Set(['BAD_DQ_ESCAPE', 'TAG_RESOLVE_FAILED']);

function collectErrors(p: ParsedDocument, value: DocumentValue): NonNullable<ParsedDocument['errors']> {
  // An error at the very end (an unclosed `[` or quote) would show on the next document's `---`
  // line: keep it on the last character of this document's own text.
  let len = p.chunkText.length;
  while (len > 0 && /\s/.test(p.chunkText[len - 1])) len--;
  const widen = (s: number, e: number): [number, number] => {
    const start = Math.max(0, Math.min(s, len - 1));
    let end = Math.max(start, Math.min(e, len));
    if (end === start && start < len && p.chunkText[start] !== '\n') end = start + 1;
    return [start, end];
  };
  const out: NonNullable<ParsedDocument['errors']> = [];
  for (const e of p.doc.errors) {
    if (SUPERSEDED.has(e.code)) continue;
    const [s, en] = widen(e.pos[0], e.pos[1]);
    out.push({ severity: 'error', code: e.code, message: firstLine(e.message), start: s, end: en });
  }
  // What kubectl's reader refuses comes before anything it decodes.
  const stream = p.version === '1.2' ? [] : p.start === 0 ? streamProblems(p.chunkText.slice(0, p.end), [0]) : streamProblems(p.chunkText.slice(0, p.end), [0, p.start]).filter((x) => x.start >= p.start);
  const unreadable = out.length > 0 || stream.some((x) => x.severity === 'error');
  for (const x of stream) out.push(x);
  if (value.error) {
    const r = p.doc.contents?.range ?? [p.start, p.start];
    out.push({ severity: 'error', code: 'RESOURCE_EXHAUSTION', message: value.error, start: r[0], end: r[1] });
  }
  for (const x of value.problems ?? []) {
    // kubectl never gets to decode a document its reader or parser refused.
    if (unreadable && x.severity === 'error') continue;
    const [s, en] = widen(x.start, x.end);
    out.push({ ...x, start: s, end: en });
  }
  for (const w of p.doc.warnings) {
    if (SUPERSEDED.has(w.code)) continue;
    const [s, en] = widen(w.pos[0], w.pos[1]);
    out.push({ severity: 'warning', code: w.code, message: firstLine(w.message), start: s, end: en });
  }
  out.sort((a, b) => (a.severity === b.severity ? a.start - b.start : a.severity === 'error' ? -1 : 1));
  return out;
}

function firstLine(s: string): string {
  const i = s.indexOf('\n');
  return (i < 0 ? s : s.slice(0, i)).trim();
}

/** AST -> JSON value as kubectl decodes the document (decode.ts). */
function kubectlValue(p: ParsedDocument): DocumentValue {
  const r = decodeDocument(p.doc, p.chunkText, { yaml12: p.version === '1.2' });
  return { v: r.value, problems: r.problems, work: r.work };
}
