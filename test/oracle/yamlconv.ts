/**
 * The Go side of the YAML table: builds test/oracle/yamlconv (sigs.k8s.io/yaml as kubectl uses it) and
 * asks it how kubectl reads texts; and the same question asked of the YAML layer, in the same shape.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { IntegralFloat } from '../../server/src/engine/json/lossless';
import { parseYamlDocuments } from '../../server/src/yaml';
import { ORACLE_DIR } from './oracle';

export const YAMLCONV_BIN = path.join(ORACLE_DIR, 'bin', process.platform === 'win32' ? 'yamlconv.exe' : 'yamlconv');

/** A value with its Go type kept: ints as decimal text, floats as numbers. */
export type Typed = null | boolean | string | { int: string } | { float: number } | Typed[] | { map: Record<string, Typed> };

/** How kubectl reads a text: the documents it sends (typed), and the error that stopped it, if any. */
export interface Reading {
  docs: Typed[];
  error?: string;
}

/** Builds bin/yamlconv when missing or older than its sources. */
export function ensureYamlconv(): string {
  const sources = [path.join(ORACLE_DIR, 'yamlconv', 'main.go'), path.join(ORACLE_DIR, 'go.mod'), path.join(ORACLE_DIR, 'go.sum')];
  const newest = Math.max(...sources.map((f) => fs.statSync(f).mtimeMs));
  if (fs.existsSync(YAMLCONV_BIN) && fs.statSync(YAMLCONV_BIN).mtimeMs >= newest) return YAMLCONV_BIN;
  const env = { ...process.env, GOFLAGS: process.env.GOFLAGS ?? '-mod=mod' };
  const r = spawnSync('go', ['build', '-o', YAMLCONV_BIN, './yamlconv'], { cwd: ORACLE_DIR, env, encoding: 'utf8' });
  if (r.error) throw new Error(`go build failed to start: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`go build failed:\n${r.stdout}${r.stderr}`);
  return YAMLCONV_BIN;
}

/** kubectl's readings of the texts, from the Go program. */
export function goReadings(rows: { yaml: string; stream?: boolean }[], bin = YAMLCONV_BIN): Reading[] {
  const input = rows.map((r, i) => JSON.stringify({ id: String(i), yaml: r.yaml, stream: r.stream === true })).join('\n') + '\n';
  const r = spawnSync(bin, [], { input, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`yamlconv exited with ${r.status}: ${r.stderr}`);
  const lines = r.stdout.split('\n').filter((l) => l.trim());
  return lines.map((l) => {
    const a = JSON.parse(l) as { docs: unknown[]; error?: string };
    return { docs: a.docs.map(fromGo), error: a.error };
  });
}

function fromGo(v: unknown): Typed {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(fromGo);
  const o = v as Record<string, unknown>;
  if ('int' in o) return { int: String(o.int) };
  if ('float' in o) return { float: Number(o.float) };
  if ('map' in o) {
    const m: Record<string, Typed> = {};
    for (const k of Object.keys(o.map as object).sort()) m[k] = fromGo((o.map as Record<string, unknown>)[k]);
    return { map: m };
  }
  throw new Error(`yamlconv: unexpected value ${JSON.stringify(v)}`);
}

/** A JSON value of the YAML layer, typed as the API server would type it. */
export function typed(v: unknown): Typed {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'bigint') return { int: v.toString() };
  if (typeof v === 'number') return Number.isInteger(v) ? { int: String(v) } : { float: v };
  if (v instanceof IntegralFloat) return { float: v.value };
  if (Array.isArray(v)) return v.map(typed);
  const m: Record<string, Typed> = {};
  for (const k of Object.keys(v as object).sort()) m[k] = typed((v as Record<string, unknown>)[k]);
  return { map: m };
}

/** The YAML layer's reading, as kubectl's StreamVisitor would go (empty documents skipped, stop at the first error). */
export function layerReading(row: { yaml: string; stream?: boolean }): Reading & { errors: string[][] } {
  const f = parseYamlDocuments(row.yaml);
  const docs: Typed[] = [];
  let lastPushed = -1;
  for (const [i, d] of f.documents.entries()) {
    const errors = d.errors.filter((e) => e.severity === 'error');
    // kubectl's reader fails on a bad `---` line while reading the document before it, which is lost.
    if (errors[0]?.code === 'DOCUMENT_SEPARATOR' && errors[0].start === d.start && lastPushed === i - 1 && lastPushed >= 0) docs.pop();
    if (errors.length) return { docs, error: errors[0].kubectl ?? errors[0].message, errors: [errors.map((e) => e.kubectl ?? `(${e.code}) ${e.message}`)] };
    if (row.stream && (d.value === null || d.value === undefined)) continue;
    // go-yaml reads only the first document of what kubectl's reader gives it.
    if (d.errors.some((e) => e.code === 'IGNORED_DOCUMENT')) continue;
    docs.push(typed(d.value));
    lastPushed = i;
  }
  if (!row.stream && docs.length === 0) docs.push(null);
  return { docs, errors: [] };
}
