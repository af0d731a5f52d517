/**
 * The YAML layer: YAML documents with positions for the language service and the CLI.
 * All offsets are absolute offsets into the file text (UTF-16 code units, as LSP counts) unless a
 * name says otherwise; lines/characters are 0-based.
 *
 * - parseYamlDocuments(text, { previous?, yamlVersion? }) -> YamlFile. Never throws. The text is
 *   split at `---` lines (splitYamlChunks) and each chunk parsed alone; with `previous` (the last
 *   parse of the same file) unchanged chunks are reused, so an edit re-parses only its document.
 *   Scalars are typed as Kubernetes (go-yaml v2, YAML 1.1) types them unless yamlVersion is '1.2'.
 * - YamlFile: `documents`, `errors`, `lines` (LineIndex), `positionAt`, `offsetAt`, `documentAt`;
 *   for a masked Go template (service/templates.ts), `source` (the text as written) and `template`.
 * - YamlDocument: `start`/`end`, `text` (its own text), `value` (JSON; bigint beyond ±2^53; for a Go
 *   template document the service sets it without what actions print), `template`, `identity` and `kind`
 *   (crd | cr | other | empty, with apiVersion/group/version/kind/name), `errors` and
 *   `hasSyntaxErrors`, `rangeOfPath(path, 'key' | 'value')`, `rangeOfFieldError(err)` (also maps
 *   the internal CRD paths the API server prints, and CEL `ruleRange`s inside rule strings),
 *   `rangeInString(path, start, end)`, `pathAt(offset)`, `nodeAtPath(path)`, `writtenPath(path)`,
 *   `ast`/`contents` (the `yaml` package's AST; its ranges are relative to `chunkOffset`).
 * - parseBlockYamlDocuments: a file of plain block YAML read by the fast reader (block.ts), the same
 *   YamlFile with each document's parse deferred to its first use (ranges of paths by indentation).
 * - parseFieldPath / formatFieldPath: printed Kubernetes field paths <-> PathSegment[].
 * - identifyObject, parseApiVersion, BUILTIN_API_GROUPS: what a JSON value is, in Kubernetes terms.
 * - v1PathsOfInternalCrdPath: `spec.validation...` (internal) -> `spec.versions[i].schema...` (v1).
 * - scalarSourceOffsets: offsets inside a string value -> offsets in its YAML source; scalarSourceValue: the
 *   string of a scalar's source.
 * - ItemScalarScan: the scalars of some keys in the items of a named block sequence, found line by line
 *   without a parse (the CEL of `x-kubernetes-validations` in a large document, for highlighting).
 * - LineIndex, endOfLine: offset <-> line/character.
 * - yamlText (write.ts): a JSON value as YAML in the one style the service writes; readAsYaml12: a
 *   scalar's source as plain YAML 1.2 reads it.
 * - parseYamlFile (file.ts): how the service and the CLI parse a file (reusing the previous parse, or
 *   with parseBlockYamlDocuments for a one-shot check); findPath / findWrittenPath / pathAtOffset /
 *   nodeRange / keyRange / contentStart over a YamlDocument's AST in file offsets; blockLocator.
 * - sourceEdits.ts: minimal edits of YAML source (remove a pair, add lines to a block mapping, `{}` for
 *   a lone pair) as file offsets, beside edit.ts's structural rewrite; the service's fixes use them.
 *
 * Values are what kubectl sends (decode.ts, resolve.ts: sigs.k8s.io/yaml over go-yaml v2, then the
 * JSON round trip); what kubectl refuses (`.inf`, `\/`, a `%` directive, ...) is an error with
 * kubectl's text in `kubectl`. Bounds (budget.ts, decode.ts): memory per file (PARSE_BYTES_PER_CHAR x
 * size + PARSE_FIXED_BYTES, estimated before parsing), MAX_YAML_DOCUMENTS, MAX_YAML_DEPTH, go-yaml's
 * alias ratio (aliases are counted, never expanded), one hash lookup per key for duplicates;
 * `YamlDocument.decodeWork` holds the counters.
 */
export { parseBlockYamlDocuments, parseYamlDocuments, YamlDocument, YamlFile } from './document';
export type { ParseYamlOptions, PathRange, RangeTarget, YamlSyntaxError, YamlVersion } from './document';
export { BUILTIN_API_GROUPS, identifyObject, parseApiVersion } from './kind';
export type { DocumentKind, ObjectIdentity } from './kind';
export { LineIndex, endOfLine } from './lines';
export type { LinePosition } from './lines';
export { formatFieldPath, parseFieldPath } from './path';
export type { PathAtOffset, PathTarget } from './path';
export { splitYamlChunks } from './split';
export type { YamlChunk } from './split';
export { v1PathsOfInternalCrdPath } from './crd-paths';
export { scalarSourceOffsets, scalarSourceValue } from './scalar';
export { ItemScalarScan, itemScalarWork } from './itemScalars';
export type { ItemScalar } from './itemScalars';
export { readAsYaml12, yamlText } from './write';
export { MAX_YAML_DEPTH, MAX_YAML_DOCUMENTS, PARSE_BYTES_PER_CHAR, PARSE_FIXED_BYTES, RETAINED_SHARE, SPLICE_MAX_INSERT_CHARS, estimateParseBytes, parseBytesBound } from './budget';
export { ALIAS_RATIO_RANGE_HIGH, ALIAS_RATIO_RANGE_LOW, allowedAliasRatio, excessiveAliasing } from './decode';
export type { DecodeWork } from './decode';
export { appendToMapping, hasKey, prependToMapping, removePair, replaceWithEmpty, yamlKeyText } from './sourceEdits';
export type { SourceEdit } from './sourceEdits';
export { blockLocator, contentStart, findPath, findWrittenPath, keyRange, nodeRange, parseYamlFile, pathAtOffset } from './file';
export type { NodeMatch, PathAt, PathLocator } from './file';
