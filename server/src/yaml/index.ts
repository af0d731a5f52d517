/**
 * The YAML layer: YAML documents with positions for the language service and the CLI.
 *
 * - parseYamlDocuments(text, { previous?, yamlVersion? }) -> YamlFile: the documents of a text,
 *   split at `---` and parsed one by one (an edit re-parses only its document when `previous` is given).
 * - YamlDocument: `value` (JSON, bigint for big ints), `identity`/`kind` (crd | cr | other | empty),
 *   `errors` (syntax errors with absolute ranges), `rangeOfPath(path, 'key'|'value')`,
 *   `rangeOfFieldError(err)`, `pathAt(offset)`, `nodeAtPath(path)`, `ast` (chunk-relative ranges).
 * - parseFieldPath / formatFieldPath: printed Kubernetes field paths <-> PathSegment[].
 * - LineIndex: offset <-> 0-based line/character.
 */
export { parseYamlDocuments, YamlDocument, YamlFile } from './document';
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
export { scalarSourceOffsets } from './scalar';
