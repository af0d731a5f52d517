/**
 * The built-in kinds' schema table shipped with crd-yaml (engine/builtin/schemas.json, copied to
 * dist/builtin-schemas.json by scripts/build.mjs), read once on first use: 3 MB that a run without
 * built-in objects never parses. The copy in dist/ holds each definition as its JSON text, parsed when
 * first used (the kinds a check meets use a small part of the table), in ASCII (read without UTF-8 decoding).
 */
import { isAscii } from 'node:buffer';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BuiltinSchemas, type BuiltinSchemaTable, type JSONSchemaProps } from '../engine';

let loaded: BuiltinSchemas | null | undefined;

/** The table's file: beside the bundle in dist/, or in engine/builtin/ when run from the sources (tests). */
export function builtinSchemaFile(): string | undefined {
  return [join(__dirname, 'builtin-schemas.json'), join(__dirname, '..', 'engine', 'builtin', 'schemas.json')].find((f) => existsSync(f));
}

/** The table (undefined when the file is missing: a broken install; built-in objects are then not checked). */
export function builtinSchemas(): BuiltinSchemas | undefined {
  if (loaded === undefined) {
    loaded = null;
    const file = builtinSchemaFile();
    try {
      if (file) loaded = new BuiltinSchemas(readTable(readFileSync(file)));
    } catch {}
  }
  return loaded ?? undefined;
}

/**
 * The table from its file's bytes: as dist/ ships it (scripts/build.mjs: a first line holding the header
 * and each definition's byte offsets after it; a definition is parsed from its bytes when first read), or
 * plain JSON (the sources; definitions given as JSON text are parsed when first read).
 */
export function readTable(bytes: Buffer): BuiltinSchemaTable {
  const offsets = shippedLayout(bytes);
  if (offsets) {
    const { definitionsAt, ...table } = offsets.header;
    return { ...table, definitions: lazyDefinitions((id) => (Object.hasOwn(definitionsAt, id) ? bytes.toString('latin1', offsets.body + definitionsAt[id][0], offsets.body + definitionsAt[id][1]) : undefined)) };
  }
  const table = JSON.parse(isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8')) as BuiltinSchemaTable;
  const texts = table.definitions as Record<string, JSONSchemaProps | string>;
  table.definitions = lazyDefinitions((id) => (Object.hasOwn(texts, id) ? texts[id] : undefined));
  return table;
}

const SHIPPED_START = '{"header":';

/** The header of the shipped layout and where the definitions' offsets start (undefined: another layout). */
function shippedLayout(bytes: Buffer): { header: Omit<BuiltinSchemaTable, 'definitions'> & { definitionsAt: Record<string, [number, number]> }; body: number } | undefined {
  if (bytes.toString('latin1', 0, SHIPPED_START.length) !== SHIPPED_START) return undefined;
  const nl = bytes.indexOf(10);
  // The first line is `{"header":{...},`: the header is between the prefix and the final comma.
  if (nl < 0 || bytes[nl - 1] !== 44) return undefined;
  return { header: JSON.parse(bytes.toString('latin1', SHIPPED_START.length, nl - 1)), body: nl + 1 };
}

/** Definitions by id, each parsed once when first read (from JSON text) or taken as it is (an object). */
function lazyDefinitions(source: (id: string) => JSONSchemaProps | string | undefined): Record<string, JSONSchemaProps> {
  const parsed = new Map<string, JSONSchemaProps>();
  const definition = (id: string): JSONSchemaProps | undefined => {
    const d = source(id);
    if (typeof d !== 'string') return d;
    let out = parsed.get(id);
    if (!out) parsed.set(id, (out = JSON.parse(d) as JSONSchemaProps));
    return out;
  };
  // Read only by id (BuiltinSchemas resolves each definition once).
  return new Proxy({} as Record<string, JSONSchemaProps>, { get: (_, id) => (typeof id === 'string' ? definition(id) : undefined) });
}
