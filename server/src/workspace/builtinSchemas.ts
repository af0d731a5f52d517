/**
 * The built-in kinds' schema table shipped with crd-yaml (engine/builtin/schemas.json, copied to
 * dist/builtin-schemas.json by scripts/build.mjs), read once on first use: 3 MB that a run without
 * built-in objects never parses.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BuiltinSchemas, type BuiltinSchemaTable } from '../engine';

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
      if (file) loaded = new BuiltinSchemas(JSON.parse(readFileSync(file, 'utf8')) as BuiltinSchemaTable);
    } catch {}
  }
  return loaded ?? undefined;
}
