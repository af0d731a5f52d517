/**
 * JSON values written as YAML text, in one style wherever the service writes YAML (previews, converted
 * objects, migrated CRDs, new objects, the fields a fix adds): block collections, no line folding (a
 * long string stays on one line), no anchors for a value held twice (each place written whole, as the
 * API server returns it), empty collections as `{}` and `[]`. Also what plain YAML 1.2 makes of a scalar.
 */
import { parse, stringify } from 'yaml';

/** A JSON value (plain objects, arrays, scalars) as YAML text, ending with a line break. */
export function yamlText(value: unknown): string {
  return stringify(value, { lineWidth: 0, aliasDuplicateObjects: false, flowCollectionPadding: false });
}

/**
 * How plain YAML 1.2 (the core schema most YAML tools other than kubectl use) reads a scalar's source,
 * e.g. `off` as a string where kubectl's YAML 1.1 reads false. Undefined when the source does not parse.
 */
export function readAsYaml12(source: string): { value: unknown } | undefined {
  try {
    return { value: parse(source, { schema: 'core', logLevel: 'error' }) };
  } catch {
    return undefined;
  }
}
