/**
 * The layer order of ARCHITECTURE.md, checked on every import of server/src and client/src: each layer
 * imports only the layers below it, the engine nothing outside itself, engine/ and service/ only through their
 * faces (index.ts), and the layers without IO (engine, yaml, service) no Node module that does IO nor the LSP
 * library. A planted violation is found.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { REPO_ROOT } from '../shared';

/** The layers each layer (a folder of server/src, or an entry file) may import besides itself. */
const ALLOWED: Record<string, readonly string[]> = {
  engine: [],
  yaml: ['engine'],
  net: [],
  cluster: ['net'],
  baseline: ['cluster', 'yaml', 'engine'],
  crdtest: ['engine', 'yaml'],
  workspace: ['engine', 'net', 'yaml'],
  service: ['engine', 'yaml', 'workspace', 'baseline', 'crdtest', 'net'],
  lsp: ['service', 'workspace', 'engine', 'yaml', 'baseline', 'cluster', 'net', 'crdtest'],
  cli: ['service', 'workspace', 'engine', 'yaml', 'baseline', 'cluster', 'net', 'crdtest', 'cli.ts'],
  'cli.ts': ['cli'],
  'server.ts': ['lsp'],
  'worker.ts': ['lsp'],
  // The extension knows only the custom requests' declarations.
  client: ['lsp/protocol.ts'],
};

/** Packages a layer without IO must not import (it gets its inputs as values). */
const NO_IO = new Set(['engine', 'yaml', 'service']);
const IO_MODULES = /^(node:)?(fs|fs\/promises|child_process|net|http|https|tls|dgram|worker_threads|cluster)$|^vscode-languageserver(\/node)?$|^vscode$/;

/** The layer of a source file (relative to the repository root), or undefined outside the layered code. */
function layerOf(rel: string): string | undefined {
  const parts = rel.split('/');
  if (parts[0] === 'client') return 'client';
  if (parts[0] !== 'server' || parts[1] !== 'src') return undefined;
  return parts[2]; // a folder (engine, service, ...) or an entry file (cli.ts, server.ts, worker.ts)
}

/** Layers other layers reach only through their face, `<layer>/index.ts`. */
const FACED = new Set(['engine', 'service']);

/** Whether `to` (a path relative to the root) is inside an allowed layer of `from`, through its face if it has one. */
function allowed(from: string, to: string): boolean {
  const target = to.startsWith('server/src/') ? to.slice('server/src/'.length) : to;
  const toLayer = layerOf(to);
  if (toLayer === from) return true;
  if (toLayer && FACED.has(toLayer) && target !== `${toLayer}/index.ts`) return false;
  return (ALLOWED[from] ?? []).some((a) => a === toLayer || target === a || target.startsWith(`${a}/`));
}

/** The layer violations among sources given as root-relative path -> text. */
export function violations(sources: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  for (const [rel, text] of sources) {
    const from = layerOf(rel);
    if (!from || rel.endsWith('.test.ts')) continue;
    for (const m of text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'|^\s*import\s+'([^']+)'|require\('([^']+)'\)|import\('([^']+)'\)/gm)) {
      const spec = m[1] ?? m[2] ?? m[3] ?? m[4];
      if (spec.startsWith('.')) {
        const to = relative(REPO_ROOT, resolve(REPO_ROOT, dirname(rel), spec))
          .split('\\')
          .join('/');
        if (to.endsWith('.json')) continue; // data (package.json's version), not code
        const file = /\.[cm]?[jt]s$/.test(to) ? to : isFolder(to) ? `${to}/index.ts` : `${to}.ts`;
        if (!allowed(from, file)) out.push(`${rel}: ${from} imports ${file}`);
      } else if (NO_IO.has(from) && IO_MODULES.test(spec)) out.push(`${rel}: ${from} imports ${spec} (IO or the LSP library)`);
    }
  }
  return out;
}

/**
 * The cycles among the engine's folders, each folder a package as in Go, which refuses import cycles
 * between packages (crd, cel/runtime, schema/cel, ...; a file at the engine's root counts alone), as
 * sorted lists of folders. Type-only imports are left out: they vanish at load and cannot order it.
 */
export function engineFolderCycles(sources: ReadonlyMap<string, string>): string[][] {
  const ENGINE = 'server/src/engine/';
  const folderOf = (rel: string) => {
    const inEngine = rel.slice(ENGINE.length);
    return inEngine.includes('/') ? inEngine.slice(0, inEngine.lastIndexOf('/')) : inEngine;
  };
  const edges = new Map<string, Set<string>>();
  for (const [rel, text] of sources) {
    if (!rel.startsWith(ENGINE) || rel.endsWith('.test.ts')) continue;
    for (const m of text.matchAll(/^\s*(?:import|export)\s(?!type\s)[^'"]*?from\s+'(\.[^']+)'|require\('(\.[^']+)'\)|import\('(\.[^']+)'\)/gm)) {
      const to = relative(REPO_ROOT, resolve(REPO_ROOT, dirname(rel), m[1] ?? m[2] ?? m[3]))
        .split('\\')
        .join('/');
      if (!to.startsWith(ENGINE) || folderOf(to) === folderOf(rel)) continue;
      const from = folderOf(rel);
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)?.add(folderOf(to));
    }
  }
  // Tarjan's strongly connected components; a component of more than one folder is a cycle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v) ?? 0);
    stack.push(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = w === v ? undefined : stack.pop()) component.push(w);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

function isFolder(rel: string): boolean {
  try {
    return statSync(join(REPO_ROOT, rel)).isDirectory();
  } catch {
    return false;
  }
}

function sources(): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.ts')) out.set(relative(REPO_ROOT, p).split('\\').join('/'), readFileSync(p, 'utf8'));
    }
  };
  walk(join(REPO_ROOT, 'server', 'src'));
  walk(join(REPO_ROOT, 'client', 'src'));
  return out;
}

test('every import follows the layer order of ARCHITECTURE.md', () => {
  assert.deepEqual(violations(sources()), []);
});

test('a planted import against the layer order is found', () => {
  const planted = new Map([
    ['server/src/engine/crd/x.ts', "import { LanguageService } from '../../service/languageService';\n"],
    ['server/src/service/y.ts', "import { readFileSync } from 'node:fs';\nimport { checkCrd } from './engineCalls';\n"],
    ['server/src/yaml/z.ts', "import { isJSONObject } from '../engine/json/values';\n"],
    ['client/src/w.ts', "import { parseYamlFile } from '../../server/src/yaml/file';\n"],
    ['server/src/lsp/v.ts', "import { LanguageService } from '../service/languageService';\nimport { Finding } from '../service';\n"],
  ]);
  assert.deepEqual(violations(planted), [
    'server/src/engine/crd/x.ts: engine imports server/src/service/languageService.ts',
    'server/src/service/y.ts: service imports node:fs (IO or the LSP library)',
    'server/src/yaml/z.ts: yaml imports server/src/engine/json/values.ts',
    'client/src/w.ts: client imports server/src/yaml/file.ts',
    'server/src/lsp/v.ts: lsp imports server/src/service/languageService.ts',
  ]);
});

test("the engine's folders import each other without cycles", () => {
  assert.deepEqual(engineFolderCycles(sources()), []);
});

test('a planted cycle between engine folders is found; a type-only import makes none', () => {
  const planted = new Map([
    ['server/src/engine/crd/x.ts', "import { y } from '../cel/y';\n"],
    ['server/src/engine/cel/y.ts', "import { z } from '../schema/z';\n"],
    ['server/src/engine/schema/z.ts', "import { x } from '../crd/x';\n"],
    ['server/src/engine/json/w.ts', "import type { X } from '../crd/x';\n"],
    ['server/src/engine/crd/v.ts', "import { w } from '../json/w';\n"],
    ['server/src/engine/cel/syntax/a.ts', "import { b } from '../runtime/b';\n"],
    ['server/src/engine/cel/runtime/b.ts', "import { a } from '../syntax/a';\n"],
  ]);
  assert.deepEqual(engineFolderCycles(planted), [
    ['cel', 'crd', 'schema'],
    ['cel/runtime', 'cel/syntax'],
  ]);
});
