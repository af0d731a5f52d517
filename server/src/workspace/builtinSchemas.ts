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

/** The table from its file's bytes: definitions given as JSON text are parsed when first read. */
export function readTable(bytes: Buffer): BuiltinSchemaTable {
  const table = JSON.parse(isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8')) as BuiltinSchemaTable;
  const texts = table.definitions as Record<string, JSONSchemaProps | string>;
  const parsed = new Map<string, JSONSchemaProps>();
  const definition = (id: string): JSONSchemaProps | undefined => {
    const d = Object.hasOwn(texts, id) ? texts[id] : undefined;
    if (typeof d !== 'string') return d;
    let out = parsed.get(id);
    if (!out) parsed.set(id, (out = JSON.parse(d) as JSONSchemaProps));
    return out;
  };
  // Read only by id (BuiltinSchemas resolves each definition once).
  table.definitions = new Proxy(texts as Record<string, JSONSchemaProps>, { get: (_, id) => (typeof id === 'string' ? definition(id) : undefined) });
  return table;
}
