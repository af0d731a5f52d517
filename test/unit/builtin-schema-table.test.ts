/**
 * workspace/builtinSchemas.ts reads the built-in schema table as scripts/build.mjs ships it in dist/
 * (each definition as JSON text, parsed on first use; ASCII) and as the sources hold it (plain JSON,
 * UTF-8): the same schemas either way.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isAscii } from 'node:buffer';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { BuiltinSchemas } from '../../server/src/engine';
import { readTable } from '../../server/src/workspace/builtinSchemas';

const ROOT = path.resolve(__dirname, '../..');
const SOURCE = path.join(ROOT, 'server/src/engine/builtin/schemas.json');
const SHIPPED = path.join(ROOT, 'dist/builtin-schemas.json');

test('the shipped table gives the schemas of the sources, kind by kind and minor by minor', { skip: !existsSync(SHIPPED) && 'dist/ not built (npm run build)' }, () => {
  const bytes = readFileSync(SHIPPED);
  assert.ok(isAscii(bytes), 'ASCII');
  const source = JSON.parse(readFileSync(SOURCE, 'utf8'));
  const want = new BuiltinSchemas(source);
  const got = new BuiltinSchemas(readTable(bytes));
  const gvks = Object.keys(source.kinds);
  assert.ok(gvks.length > 100);
  for (const gvk of gvks) {
    const kind = gvk.slice(gvk.lastIndexOf('/') + 1);
    const apiVersion = gvk.slice(0, gvk.lastIndexOf('/'));
    for (let minor = 30; minor <= 37; minor++) assert.deepEqual(got.schema(apiVersion, kind, minor), want.schema(apiVersion, kind, minor), `${gvk} at 1.${minor}`);
  }
});

test('definitions as JSON text are parsed when read, non-ASCII text kept in both forms', () => {
  const def = { type: 'object', description: 'a name — unique ≤ 63', properties: { a: { $ref: 'io.k8s.Leaf' } } };
  const leaf = { type: 'string', description: 'it’s a leaf' };
  const plain = { minors: ['1.37'], kinds: { 'v1/Thing': [['1.37', 'io.k8s.Thing']] }, definitions: { 'io.k8s.Thing': def, 'io.k8s.Leaf': leaf } };
  const asText = { ...plain, definitions: { 'io.k8s.Thing': JSON.stringify(def), 'io.k8s.Leaf': JSON.stringify(leaf) } };
  const escaped = JSON.stringify(asText).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const want = { type: 'object', description: def.description, properties: { a: leaf } };
  for (const bytes of [Buffer.from(JSON.stringify(plain), 'utf8'), Buffer.from(escaped, 'latin1'), Buffer.from(JSON.stringify(asText), 'utf8')]) {
    const table = readTable(bytes);
    assert.deepEqual(new BuiltinSchemas(table).schema('v1', 'Thing', 37), want);
    assert.equal(table.definitions['io.k8s.Missing'], undefined);
  }
});
