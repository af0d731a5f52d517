/**
 * npm run bench: keystroke-to-diagnostics of crd-yaml's server (dist/server.js) beside
 * yaml-language-server 1.25.0 (the newest that supports Node 20; its fixed 200 ms validation debounce patched to 0 in a private copy),
 * in one run, on the scenarios of issue 6, plus the plain-YAML-parse floor and the CEL rule benchmark.
 *
 *   npm run bench [-- --edits N] [-- --only a,b,c,open,d,e,cli,repo,catalog,catalog-fetch,cel,editor] [-- --sites c3,c5,c6]
 *
 * `open`: the 2.9 MB argo CRD opened to its first diagnostics and the first hover after, beside
 * `crd-yaml check` of the same file (the editor row's open over stdio).
 *
 * `cli`: `crd-yaml check` beside kubectl-validate (built from its Go module into .work/bench when missing;
 * skipped, with a message, without go): wall time and peak RSS of one run each, side by side.
 *
 * `editor`: the packaged extension in code-server (bench/editor.mjs): opening the 2.9 MB argo CRD to its
 * first diagnostics (beside `crd-yaml check` of it), keystrokes to updated diagnostics, hovers.
 * `builtins`: `crd-yaml check` over 5,000 objects of built-in kinds beside kubectl-validate and kubeconform
 * (builtins.ts), one run each, wall time and peak RSS.
 *
 * `repo`: `crd-yaml check` of a repository-like tree (repository.ts: charts made of the real CRDs and
 * samples) as a whole, beside the sum of its charts checked one by one, and with --jobs 1 and 2: wall and
 * CPU time (user + system) of one run each. CPU time is what to compare on a shared machine.
 *
 * `catalog`: `crd-yaml check` of thousands of real CRDs: the folder CRD_YAML_CATALOG_DIR names (a snapshot
 * of the public CRD catalog's definitions/, about 490 MB; skipped with a line when unset) beside every
 * tenth file of it (about 50 MB): wall, CPU, peak RSS and MB/s of one run each; the cost per MB should
 * not grow with the input, nor memory with it.
 *
 * `catalog-fetch` (catalog.ts): one custom resource checked with its CRD local, from a loopback CRD catalog
 * the first time, and from the catalog cache.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import { parseAllDocuments } from 'yaml';
import { LspClient } from './lsp-client';
import { CRONTAB_CRD, cronTabs, yamlFiles } from './fixtures';
import { writeRepositoryTree } from './repository';
import { goTool, kubeconformModule, writeBuiltinObjects, writeKubeconformSchemas } from './builtins';

const ROOT = path.resolve(__dirname, '..');
const SHARED = path.resolve(ROOT, '..', 'shared');
const REALWORLD_CRDS = path.join(SHARED, 'realworld', 'crds');
const REALWORLD_SAMPLES = path.join(SHARED, 'realworld', 'samples');
/** kubectl-validate, the CLI crd-yaml check is compared with, pinned. */
const KUBECTL_VALIDATE = 'sigs.k8s.io/kubectl-validate@v0.0.4';

const args = process.argv.slice(2);
const argVal = (name: string, dflt: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const EDITS = Number(argVal('--edits', '40'));
const ONLY = new Set(argVal('--only', 'a,b,c,open,d,e,cli,builtins,repo,catalog,catalog-fetch,go,cel,editor').split(','));
/** `--server crd-yaml` runs only one of the two servers (profiling); the comparison needs both. */
const SERVER = argVal('--server', '');
/** `--sites c3,c5` runs only those edit sites of scenario c. */
const SITES = argVal('--sites', '');
const ONLY_SITE = (name: string) => !SITES || SITES.split(',').some((s) => name.startsWith(`(${s})`));
/** A snapshot of the public CRD catalog's definitions/ folder (catalog row; never in the repository). */
const CATALOG = process.env.CRD_YAML_CATALOG_DIR;

interface ServerSpec {
  name: string;
  command: string;
  args: string[];
  settings: (ws: string) => Record<string, unknown>;
}

/** A private copy of yaml-language-server with validationDelayMs = 0 (its debounce), made once. */
function yamlLanguageServerCopy(): string {
  const src = path.join(ROOT, 'node_modules', 'yaml-language-server');
  const dst = path.join(ROOT, '.work', 'bench', 'yaml-language-server');
  // Its compiled settings: out/server/src in 1.25.0's package (out/src in older layouts).
  const layout = fs.existsSync(path.join(src, 'out', 'server', 'src')) ? ['out', 'server', 'src'] : ['out', 'src'];
  const settingsFile = path.join(dst, ...layout, 'yamlSettings.js');
  if (!fs.existsSync(settingsFile)) {
    fs.mkdirSync(path.dirname(dst), { recursive: true });
    fs.cpSync(src, dst, { recursive: true });
    const text = fs.readFileSync(settingsFile, 'utf8');
    if (!text.includes('this.validationDelayMs = 200;')) throw new Error('yaml-language-server: validationDelayMs not found; pin 1.25.0');
    fs.writeFileSync(settingsFile, text.replace('this.validationDelayMs = 200;', 'this.validationDelayMs = 0;'));
    // Resolve its dependencies from the project's node_modules.
    const nm = path.join(dst, 'node_modules');
    if (!fs.existsSync(nm)) fs.symlinkSync(path.join(ROOT, 'node_modules'), nm);
  }
  return path.join(dst, 'bin', 'yaml-language-server');
}

const servers = (schemaMap: Record<string, string[]>): ServerSpec[] => allServers(schemaMap).filter((s) => !SERVER || s.name === SERVER);

const allServers = (schemaMap: Record<string, string[]>): ServerSpec[] => [
  {
    name: 'crd-yaml',
    command: process.execPath,
    // BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" profiles the server under the bench.
    args: [...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean), path.join(ROOT, 'dist', 'server.js'), '--stdio'],
    settings: () => ({ crdYaml: { diagnosticsDelayMs: 0, unknownKinds: 'off' } }),
  },
  {
    name: 'yaml-language-server',
    command: process.execPath,
    args: [yamlLanguageServerCopy(), '--stdio'],
    settings: () => ({
      yaml: { validate: true, hover: true, completion: true, schemaStore: { enable: false }, schemas: schemaMap, maxItemsComputed: 5000 },
    }),
  },
];

async function start(spec: ServerSpec, workspace: string, setup?: (c: LspClient) => void): Promise<LspClient> {
  const c = new LspClient(spec.command, spec.args, { cwd: workspace });
  setup?.(c);
  const settings = spec.settings(workspace);
  c.handlers.set('workspace/configuration', (p: { items: { section?: string }[] }) =>
    p.items.map((it) => (it.section ? (it.section.split('.').reduce<any>((o, k) => (o ? o[k] : undefined), settings) ?? null) : settings)),
  );
  c.handlers.set('client/registerCapability', () => null);
  c.handlers.set('window/workDoneProgress/create', () => null);
  const uri = pathToFileURL(workspace).href;
  await c.request('initialize', {
    processId: process.pid,
    rootUri: uri,
    workspaceFolders: [{ uri, name: path.basename(workspace) }],
    capabilities: {
      workspace: { configuration: true, workspaceFolders: true, didChangeConfiguration: { dynamicRegistration: false } },
      textDocument: { synchronization: { dynamicRegistration: false }, publishDiagnostics: { versionSupport: true } },
    },
    initializationOptions: settings,
  });
  c.notify('initialized', {});
  c.notify('workspace/didChangeConfiguration', { settings });
  return c;
}

function stats(xs: number[]): { median: number; p95: number } {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * (s.length - 1) + 0.5))];
  return { median: q(0.5), p95: q(0.95) };
}

const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');

/** Position (line, character) of an offset. */
function positionAt(text: string, offset: number): { line: number; character: number } {
  let line = 0;
  let last = 0;
  for (let i = 0; i < offset; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      last = i + 1;
    }
  }
  return { line, character: offset - last };
}

/**
 * Opens `file` (and the `alsoOpen` files), then makes `EDITS` one-character edits at `offset`
 * alternating between two replacements, waiting each time for the file's diagnostics.
 */
async function editLoop(c: LspClient, file: string, text: string, offset: number, a: string, b: string, alsoOpen: string[] = []) {
  for (const f of alsoOpen) {
    c.notify('textDocument/didOpen', { textDocument: { uri: pathToFileURL(f).href, languageId: 'yaml', version: 1, text: fs.readFileSync(f, 'utf8') } });
  }
  const uri = pathToFileURL(file).href;
  const first = c.nextDiagnostics(uri, performance.now(), 120000);
  c.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
  const firstDiags = await first;
  const times: number[] = [];
  const toB: number[] = [];
  const toA: number[] = [];
  const pos = positionAt(text, offset);
  let version = 1;
  let lastDiags = firstDiags;
  const warmup = 5;
  for (let i = 0; i < EDITS + warmup; i++) {
    const replacement = i % 2 === 0 ? b : a;
    const old = i % 2 === 0 ? a : b;
    version++;
    const t0 = performance.now();
    const wait = c.nextDiagnostics(uri, t0, 60000);
    // The replaced text may be whole lines (a structural edit): its end is on a later line.
    const oldLines = old.split('\n');
    const end = oldLines.length > 1 ? { line: pos.line + oldLines.length - 1, character: oldLines[oldLines.length - 1].length } : { line: pos.line, character: pos.character + old.length };
    c.notify('textDocument/didChange', {
      textDocument: { uri, version },
      contentChanges: [{ range: { start: pos, end }, text: replacement }],
    });
    lastDiags = await wait;
    if (i >= warmup) (i % 2 === 0 ? toB : toA).push(lastDiags.at - t0);
    if (i >= warmup) times.push(lastDiags.at - t0);
  }
  // Also apart: a -> b (e.g. a line deleted) and b -> a (put back).
  return { ...stats(times), toB: stats(toB), toA: stats(toA), firstCount: firstDiags.diagnostics.length, lastCount: lastDiags.diagnostics.length, rss: c.peakRssMB() };
}

function parseFloor(text: string): number {
  const ts: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    parseAllDocuments(text);
    ts.push(performance.now() - t0);
  }
  return stats(ts).median;
}

function tmpWorkspace(name: string): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), `crd-yaml-bench-${name}-`));
  return d;
}

/** JSON Schema for yaml-language-server from a CRD's openAPIV3Schema (what its users must hand-convert). */
function crdToJsonSchema(crdText: string, version: string): unknown {
  const crd = parseAllDocuments(crdText)
    .map((d) => d.toJS())
    .find((o: any) => o?.kind === 'CustomResourceDefinition') as any;
  const v = crd.spec.versions.find((x: any) => x.name === version) ?? crd.spec.versions[0];
  return v.schema.openAPIV3Schema;
}

type Row = { scenario: string; server: string; median: number; p95: number; extra: string };
const rows: Row[] = [];
const report = (r: Row) => {
  rows.push(r);
  console.log(`${r.scenario.padEnd(34)} ${r.server.padEnd(22)} median ${fmt(r.median).padStart(7)} ms  p95 ${fmt(r.p95).padStart(7)} ms  ${r.extra}`);
};

async function scenarioA() {
  const ws = tmpWorkspace('a');
  const crdFile = path.join(ws, 'crontab-crd.yaml');
  const crsFile = path.join(ws, 'crs.yaml');
  fs.writeFileSync(crdFile, CRONTAB_CRD);
  const text = cronTabs(300);
  fs.writeFileSync(crsFile, text);
  const schemaFile = path.join(ws, 'crontab.schema.json');
  fs.writeFileSync(schemaFile, JSON.stringify(crdToJsonSchema(CRONTAB_CRD, 'v1')));
  const offset = text.indexOf('replicas: 1', Math.floor(text.length / 2)) + 'replicas: '.length;
  const floor = parseFloor(text);
  for (const spec of servers({ [pathToFileURL(schemaFile).href]: ['crs.yaml', '*/crs.yaml'] })) {
    const c = await start(spec, ws);
    try {
      const r = await editLoop(c, crsFile, text, offset, '1', '7', spec.name === 'crd-yaml' ? [crdFile] : []);
      report({
        scenario: '(a) 300 CronTab CRs, one file',
        server: spec.name,
        median: r.median,
        p95: r.p95,
        extra: `diags ${r.firstCount}->${r.lastCount}; peak RSS ${fmt(r.rss)} MB; yaml parse floor ${fmt(floor)} ms; ${(text.length / 1024).toFixed(0)} KB`,
      });
    } finally {
      await c.shutdown();
    }
  }
}

async function scenarioB() {
  const ws = tmpWorkspace('b');
  const src = path.join(REALWORLD_CRDS, 'prometheus-operator', 'monitoring.coreos.com_alertmanagerconfigs.yaml');
  const crdText = fs.readFileSync(src, 'utf8');
  const crdFile = path.join(ws, 'crd.yaml');
  fs.writeFileSync(crdFile, crdText);
  const text = [
    'apiVersion: monitoring.coreos.com/v1alpha1',
    'kind: AlertmanagerConfig',
    'metadata:',
    '  name: example',
    'spec:',
    '  route:',
    '    groupBy: ["job"]',
    '    groupWait: 30s',
    '    receiver: webhook',
    '  receivers:',
    '  - name: webhook',
    '    webhookConfigs:',
    '    - url: http://example.com/hook',
    '      sendResolved: true',
    '',
  ].join('\n');
  const crFile = path.join(ws, 'cr.yaml');
  fs.writeFileSync(crFile, text);
  const schemaFile = path.join(ws, 'amc.schema.json');
  fs.writeFileSync(schemaFile, JSON.stringify(crdToJsonSchema(crdText, 'v1alpha1')));
  const offset = text.indexOf('30s');
  for (const spec of servers({ [pathToFileURL(schemaFile).href]: ['cr.yaml', '*/cr.yaml'] })) {
    const c = await start(spec, ws);
    try {
      const r = await editLoop(c, crFile, text, offset, '3', '4', spec.name === 'crd-yaml' ? [crdFile] : []);
      report({ scenario: '(b) CR vs largest prometheus CRD', server: spec.name, median: r.median, p95: r.p95, extra: `diags ${r.firstCount}->${r.lastCount}; peak RSS ${fmt(r.rss)} MB` });
    } finally {
      await c.shutdown();
    }
  }
}

/**
 * Keystrokes in the 2.9 MB argo-workflows CronWorkflow CRD, each awaited to its final diagnostics (no
 * pause in typing: the next keystroke follows the publication): in a description, a property name, a
 * `type` and a CEL rule, each alternating between two characters in the middle of the file.
 */
async function scenarioC() {
  const ws = tmpWorkspace('c');
  const src = path.join(REALWORLD_CRDS, 'argo-workflows', 'argoproj.io_cronworkflows.yaml');
  const text = fs.readFileSync(src, 'utf8');
  const file = path.join(ws, 'argoproj.io_cronworkflows.yaml');
  fs.writeFileSync(file, text);
  const floor = parseFloor(text);
  const mid = Math.floor(text.length / 2);
  const after = (needle: string, from: number) => {
    const i = text.indexOf(needle, from);
    return i >= 0 ? i : text.indexOf(needle);
  };
  const key = after('properties:\n', mid);
  const keyLine = text.indexOf('\n', key + 'properties:\n'.length - 1) + 1;
  const rule = after("rule: '", mid);
  const sites: { name: string; at: number }[] = [
    { name: '(c) argo CRD, typing in a description', at: after('description: ', mid) + 'description: '.length },
    { name: '(c2) argo CRD, typing in a key', at: keyLine + (/^ */.exec(text.slice(keyLine))?.[0].length ?? 0) + 1 },
    { name: '(c3) argo CRD, typing in a type', at: after('type: string', mid) + 'type: strin'.length },
    { name: '(c4) argo CRD, typing in a CEL rule', at: text.indexOf('(self.', rule) + '(self.'.length },
  ];
  // Structural edits (issue 29): a `type:` line of a nested property deleted and put back (the CRD turns
  // NonStructural and back), and a property line added and removed, beside the value edit of (c3).
  const typeAt = after('type: string', mid);
  const typeLineStart = text.lastIndexOf('\n', typeAt) + 1;
  const typeLine = text.slice(typeLineStart, text.indexOf('\n', typeAt) + 1);
  const propAt = text.indexOf('\n', key) + 1;
  const propLine = `${/^ */.exec(text.slice(propAt))?.[0] ?? ''}zzBench: {type: string}\n`;
  const structural: { name: string; at: number; a: string; b: string; names: [string, string] }[] = [
    { name: '(c5) argo CRD, a type: line', at: typeLineStart, a: typeLine, b: '', names: ['deleted', 'put back'] },
    { name: '(c6) argo CRD, a property line', at: propAt, a: '', b: propLine, names: ['added', 'removed'] },
  ];
  for (const site of structural) {
    if (!ONLY_SITE(site.name)) continue;
    for (const spec of servers({})) {
      const c = await start(spec, ws);
      try {
        const r = await editLoop(c, file, text, site.at, site.a, site.b);
        const extra = `diags ${r.firstCount}->${r.lastCount}; peak RSS ${fmt(r.rss)} MB`;
        report({ scenario: `${site.name} ${site.names[0]}`, server: spec.name, median: r.toB.median, p95: r.toB.p95, extra });
        report({ scenario: `${site.name} ${site.names[1]}`, server: spec.name, median: r.toA.median, p95: r.toA.p95, extra });
      } finally {
        await c.shutdown();
      }
    }
  }
  for (const site of sites) {
    if (!ONLY_SITE(site.name)) continue;
    for (const spec of servers({})) {
      const c = await start(spec, ws);
      try {
        const ch = text[site.at];
        const r = await editLoop(c, file, text, site.at, ch, ch === 'x' ? 'y' : 'x');
        report({ scenario: site.name, server: spec.name, median: r.median, p95: r.p95, extra: `diags ${r.firstCount}->${r.lastCount}; peak RSS ${fmt(r.rss)} MB; yaml parse floor ${fmt(floor)} ms` });
      } finally {
        await c.shutdown();
      }
    }
  }
}

/**
 * (open) The 2.9 MB argo-workflows CronWorkflow CRD with one misspelt keyword opened to the first
 * diagnostics that hold it (the editor row's open, without the editor), after a small CRD opened first so
 * that the server is up; then the first hover in it. Opened OPENS times (closed in between, after the
 * server's work on it is done: a hover and a preview answered); beside `crd-yaml check` of the same file
 * (process start included) and yaml-language-server opening it (its parse and syntax check: it has no
 * schema for a CRD file).
 */
async function scenarioOpen() {
  const OPENS = 5;
  const ws = tmpWorkspace('open');
  const src = path.join(REALWORLD_CRDS, 'argo-workflows', 'argoproj.io_cronworkflows.yaml');
  const planted = fs.readFileSync(src, 'utf8').replace('              lastScheduledTime:\n                format: date-time', '              lastScheduledTime:\n                formatx: date-time');
  if (!planted.includes('formatx')) throw new Error("bench (open): the planted keyword's place is not in the argo CronWorkflow CRD");
  const file = path.join(ws, 'argoproj.io_cronworkflows.yaml');
  fs.writeFileSync(file, planted);
  const warm = path.join(ws, 'nonstructural-crd.yaml');
  fs.copyFileSync(path.join(ROOT, 'examples', 'nonstructural-crd.yaml'), warm);
  const cli: number[] = [];
  for (let i = 0; i < 3; i++) cli.push(measure(process.execPath, [path.join(ROOT, 'dist', 'cli.js'), 'check', file], ws).ms);
  const cliMs = stats(cli).median;
  const uri = pathToFileURL(file).href;
  const hoverAt = positionAt(planted, planted.indexOf('type: object', Math.floor(planted.length / 2)));
  for (const spec of servers({})) {
    const c = await start(spec, ws);
    try {
      const wuri = pathToFileURL(warm).href;
      const w = c.nextDiagnostics(wuri, 0, 120000);
      c.notify('textDocument/didOpen', { textDocument: { uri: wuri, languageId: 'yaml', version: 1, text: fs.readFileSync(warm, 'utf8') } });
      await w;
      const opens: number[] = [];
      const hovers: number[] = [];
      // crd-yaml: the check worker's own CPU time until the first diagnostics (crdYaml/stats; a shared machine's load does not count).
      const checkCpu: number[] = [];
      for (let i = 0; i < OPENS; i++) {
        const t0 = performance.now();
        const got = new Promise<number>((resolve, reject) => {
          const next = (): void => {
            c.nextDiagnostics(uri, t0, 120000).then((d) => (spec.name !== 'crd-yaml' || d.diagnostics.some((x) => String(x.message).includes('formatx')) ? resolve(d.at - t0) : next()), reject);
          };
          next();
        });
        c.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text: planted } });
        opens.push(await got);
        if (spec.name === 'crd-yaml') checkCpu.push((await c.request('crdYaml/stats', {})).check.cpuByDocument[uri]);
        const h0 = performance.now();
        await c.request('textDocument/hover', { textDocument: { uri }, position: hoverAt }, 120000);
        hovers.push(performance.now() - h0);
        // The server's work on the file is done before it is closed (the check worker answers previews);
        // crd-yaml clears a closed file's diagnostics.
        if (spec.name === 'crd-yaml') await c.request('crdYaml/preview', { textDocument: { uri }, position: hoverAt }, 120000);
        const closed = spec.name === 'crd-yaml' ? c.nextDiagnostics(uri, performance.now(), 120000) : undefined;
        c.notify('textDocument/didClose', { textDocument: { uri } });
        await closed;
      }
      const o = stats(opens);
      const ratio = spec.name === 'crd-yaml' ? `; open / CLI = ${(o.median / cliMs).toFixed(2)}; check worker CPU to them ${fmt(stats(checkCpu).median)} ms` : '';
      report({ scenario: '(open) argo CRD, first diagnostics', server: spec.name, median: o.median, p95: o.p95, extra: `${OPENS} opens; crd-yaml check of the file ${fmt(cliMs)} ms (process start included)${ratio}` });
      const h = stats(hovers);
      report({ scenario: '(open) argo CRD, first hover', server: spec.name, median: h.median, p95: h.p95, extra: `peak RSS ${fmt(c.peakRssMB())} MB` });
    } finally {
      await c.shutdown();
    }
  }
}

/**
 * A CRD edit with its custom resources open: keystrokes in a property name of the argo CronWorkflow CRD
 * that the open CronWorkflows use (the name alternates, so their unknown-field errors come and go), each
 * timed until every open custom resource has its diagnostics again. crd-yaml only: yaml-language-server
 * reads hand-converted JSON schemas, not the CRD being edited.
 */
async function scenarioE() {
  const ws = tmpWorkspace('e');
  const src = path.join(REALWORLD_CRDS, 'argo-workflows', 'argoproj.io_cronworkflows.yaml');
  const text = fs.readFileSync(src, 'utf8');
  const file = path.join(ws, 'argoproj.io_cronworkflows.yaml');
  fs.writeFileSync(file, text);
  const sample = fs.readFileSync(path.join(SHARED, 'realworld', 'samples', 'argo-workflows', 'cron-workflow.yaml'), 'utf8');
  const crs = Array.from({ length: 5 }, (_, i) => {
    const f = path.join(ws, `cron-workflow-${i}.yaml`);
    fs.writeFileSync(f, sample.replace('name: hello-world', `name: hello-world-${i}`));
    return f;
  });
  // The CronWorkflow spec's `timezone` (every sample sets it): typing in its name.
  const at = text.indexOf('\n              timezone:\n') + '\n              timez'.length;
  if (at < 100) throw new Error('bench (e): timezone property not found in the argo CronWorkflow CRD');
  const spec = servers({}).find((s) => s.name === 'crd-yaml');
  if (!spec) return;
  const c = await start(spec, ws);
  try {
    const uri = pathToFileURL(file).href;
    const crUris = crs.map((f) => pathToFileURL(f).href);
    const opened = Promise.all([uri, ...crUris].map((u) => c.nextDiagnostics(u, 0, 120000)));
    c.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
    for (const [i, f] of crs.entries()) c.notify('textDocument/didOpen', { textDocument: { uri: crUris[i], languageId: 'yaml', version: 1, text: fs.readFileSync(f, 'utf8') } });
    await opened;
    const pos = positionAt(text, at);
    const times: number[] = [];
    const counts = new Set<number>();
    let version = 1;
    for (let i = 0; i < EDITS + 5; i++) {
      const [old, next] = i % 2 === 0 ? ['o', 'x'] : ['x', 'o'];
      const t0 = performance.now();
      const waits = crUris.map((u) => c.nextDiagnostics(u, t0, 60000));
      c.notify('textDocument/didChange', {
        textDocument: { uri, version: ++version },
        contentChanges: [{ range: { start: pos, end: { line: pos.line, character: pos.character + old.length } }, text: next }],
      });
      const ds = await Promise.all(waits);
      if (i >= 5) times.push(Math.max(...ds.map((d) => d.at)) - t0);
      counts.add(ds[0].diagnostics.length);
    }
    const r = stats(times);
    report({ scenario: '(e) argo CRD edit, 5 CRs re-checked', server: spec.name, median: r.median, p95: r.p95, extra: `CR diags ${[...counts].join('/')}; peak RSS ${fmt(c.peakRssMB())} MB` });
  } finally {
    await c.shutdown();
  }
}

async function scenarioD() {
  const ws = tmpWorkspace('d');
  fs.cpSync(REALWORLD_CRDS, path.join(ws, 'crds'), { recursive: true });
  const text = [
    'apiVersion: cert-manager.io/v1',
    'kind: Certificate',
    'metadata:',
    '  name: example',
    'spec:',
    '  secretName: example-tls',
    '  dnsNames: [example.com]',
    '  issuerRef:',
    '    name: ca-issuer',
    '  unknownField: 1',
    '',
  ].join('\n');
  const crFile = path.join(ws, 'certificate.yaml');
  fs.writeFileSync(crFile, text);
  for (const spec of servers({})) {
    const t0 = performance.now();
    // crd-yaml reports the end of its workspace scan (crdYaml/status): peak RSS is also read after it.
    let indexedAt = 0;
    let onIndexed = () => {};
    const indexed = new Promise<void>((r) => (onIndexed = r));
    const c = await start(spec, ws, (cl) =>
      cl.notificationHandlers.set('crdYaml/status', (p: { indexing?: boolean; crdCount?: number }) => {
        if (!p.indexing && (p.crdCount ?? 0) > 0 && !indexedAt) {
          indexedAt = performance.now();
          onIndexed();
        }
      }),
    );
    try {
      const uri = pathToFileURL(crFile).href;
      // crd-yaml: wait until the CR's diagnostics include the finding that needs its CRD from the index.
      const deadline = t0 + 60000;
      c.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
      let d = await c.nextDiagnostics(uri, 0, 60000);
      while (spec.name === 'crd-yaml' && d.diagnostics.length === 0 && performance.now() < deadline) {
        d = await c.nextDiagnostics(uri, d.at + 0.001, deadline - performance.now());
      }
      const ms = d.at - t0;
      let extra = `diags ${d.diagnostics.length}; peak RSS ${fmt(c.peakRssMB())} MB`;
      if (spec.name === 'crd-yaml') {
        await Promise.race([indexed, new Promise((r) => setTimeout(r, 60000))]);
        extra += `; whole workspace indexed at ${indexedAt ? fmt(indexedAt - t0) : 'n/a'} ms, peak RSS then ${fmt(c.peakRssMB())} MB`;
      }
      report({ scenario: '(d) cold start, all realworld CRDs', server: spec.name, median: ms, p95: ms, extra });
    } finally {
      await c.shutdown();
    }
  }
}

/** kubectl-validate from .work/bench (built with go when missing; $KUBECTL_VALIDATE names another), or why there is none. */
function kubectlValidate(): { bin: string } | { skipped: string } {
  if (process.env.KUBECTL_VALIDATE) return { bin: process.env.KUBECTL_VALIDATE };
  const dir = path.join(ROOT, '.work', 'bench', 'go');
  const bin = path.join(dir, 'bin', 'kubectl-validate');
  if (fs.existsSync(bin)) return { bin };
  const go = spawnSync('go', ['version'], { encoding: 'utf8' });
  if (go.status !== 0) return { skipped: 'go is not installed (kubectl-validate is built from its Go module)' };
  console.log(`building ${KUBECTL_VALIDATE} into ${path.relative(ROOT, dir)} (a minute or two, once) ...`);
  const r = spawnSync('go', ['install', KUBECTL_VALIDATE], { stdio: 'inherit', env: { ...process.env, GOBIN: path.dirname(bin) } });
  return r.status === 0 && fs.existsSync(bin) ? { bin } : { skipped: `go install ${KUBECTL_VALIDATE} failed` };
}

/** One run of a command: wall time and peak RSS (GNU time's maximum resident set size). */
function measure(command: string, argv: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): { ms: number; rssMB: number; status: number | null; out: string } {
  const timeFile = path.join(os.tmpdir(), `crd-yaml-bench-time-${process.pid}`);
  const haveTime = fs.existsSync('/usr/bin/time');
  const t0 = performance.now();
  const r = haveTime
    ? spawnSync('/usr/bin/time', ['-f', '%M', '-o', timeFile, command, ...argv], { cwd, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })
    : spawnSync(command, argv, { cwd, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const ms = performance.now() - t0;
  const rssMB = haveTime ? Number(fs.readFileSync(timeFile, 'utf8').trim().split('\n').pop()) / 1024 : NaN;
  return { ms, rssMB, status: r.status, out: `${r.stdout}${r.stderr}` };
}

/** `crd-yaml check` and kubectl-validate on the same inputs, one run each, side by side. */
async function scenarioCli() {
  const kv = kubectlValidate();
  const ws = tmpWorkspace('cli');
  const crdFile = path.join(ws, 'crds', 'crontab-crd.yaml');
  fs.mkdirSync(path.dirname(crdFile), { recursive: true });
  fs.writeFileSync(crdFile, CRONTAB_CRD);
  const crsFile = path.join(ws, 'crontabs.yaml');
  fs.writeFileSync(crsFile, cronTabs(300));
  // kubectl-validate's --local-crds reads the files of one folder, not its subfolders (given the realworld
  // tree it finds no CRD and only says "failed to locate OpenAPI spec"): it gets a flat folder of links.
  const flatCrds = path.join(ws, 'flat-crds');
  fs.mkdirSync(flatCrds);
  for (const f of yamlFiles(REALWORLD_CRDS)) fs.symlinkSync(f, path.join(flatCrds, path.relative(REALWORLD_CRDS, f).replaceAll(path.sep, '_')));
  // crd-yaml as users run the installed command: bin/crd-yaml (what npm links), with this machine's
  // environment. Where NODE_EXTRA_CA_CERTS is set (machines that reach npm through a proxy), the launcher
  // keeps it from Node's start-up, where Node 20 would parse the whole CA bundle (about 50 ms) for a check
  // that opens no TLS connection; the direct entry `node dist/cli.js` pays that, and is measured too there.
  const bin = path.join(ROOT, 'bin', 'crd-yaml');
  const cli = path.join(ROOT, 'dist', 'cli.js');
  const inputs: { name: string; crdYaml: string[]; kubectlValidate: string[] }[] = [
    { name: 'real samples, all real CRDs', crdYaml: ['check', '--crd', REALWORLD_CRDS, REALWORLD_SAMPLES], kubectlValidate: ['--local-crds', flatCrds, REALWORLD_SAMPLES] },
    { name: '300 CRs of one kind', crdYaml: ['check', '--crd', crdFile, crsFile], kubectlValidate: ['--local-crds', path.dirname(crdFile), crsFile] },
    { name: 'the real CRDs themselves', crdYaml: ['check', REALWORLD_CRDS], kubectlValidate: [REALWORLD_CRDS] },
  ];
  for (const input of inputs) {
    const a = measure(bin, input.crdYaml, ws);
    report({ scenario: `(cli) ${input.name}`, server: 'crd-yaml check', median: a.ms, p95: a.ms, extra: `peak RSS ${fmt(a.rssMB)} MB; exit ${a.status}` });
    if (process.env.NODE_EXTRA_CA_CERTS) {
      const c = measure(process.execPath, [cli, ...input.crdYaml], ws);
      report({ scenario: `(cli) ${input.name}`, server: 'node dist/cli.js check', median: c.ms, p95: c.ms, extra: `peak RSS ${fmt(c.rssMB)} MB; exit ${c.status}; NODE_EXTRA_CA_CERTS read at start-up` });
    }
    if ('skipped' in kv) {
      report({ scenario: `(cli) ${input.name}`, server: 'kubectl-validate', median: NaN, p95: NaN, extra: `skipped: ${kv.skipped}` });
      continue;
    }
    const b = measure(kv.bin, input.kubectlValidate, ws);
    report({ scenario: `(cli) ${input.name}`, server: 'kubectl-validate', median: b.ms, p95: b.ms, extra: `peak RSS ${fmt(b.rssMB)} MB; exit ${b.status}` });
  }
}

/** 5,000 objects of built-in kinds: crd-yaml check, kubectl-validate, kubeconform, one run each. */
async function scenarioBuiltins() {
  const ws = tmpWorkspace('builtins');
  const dir = path.join(ws, 'objects');
  const n = writeBuiltinObjects(dir);
  const scenario = `(builtins) ${n} objects, 50 files`;
  const a = measure(path.join(ROOT, 'bin', 'crd-yaml'), ['check', dir], ws);
  report({ scenario, server: 'crd-yaml check', median: a.ms, p95: a.ms, extra: `peak RSS ${fmt(a.rssMB)} MB; exit ${a.status}; ${a.out.trim().split('\n').pop()}` });
  const kv = kubectlValidate();
  if ('skipped' in kv) report({ scenario, server: 'kubectl-validate', median: NaN, p95: NaN, extra: `skipped: ${kv.skipped}` });
  else {
    const b = measure(kv.bin, [dir], ws);
    report({ scenario, server: 'kubectl-validate', median: b.ms, p95: b.ms, extra: `peak RSS ${fmt(b.rssMB)} MB; exit ${b.status}` });
  }
  const kc = goTool(ROOT, 'kubeconform', kubeconformModule);
  if ('skipped' in kc) report({ scenario, server: 'kubeconform', median: NaN, p95: NaN, extra: `skipped: ${kc.skipped}` });
  else {
    // Offline, kubeconform cannot download its schemas: it gets crd-yaml's (1.37), as standalone JSON
    // schemas in their -strict form (unknown fields refused, as crd-yaml and kubectl apply do).
    const location = writeKubeconformSchemas(path.join(ws, 'kubeconform-schemas'));
    const c = measure(kc.bin, ['-strict', '-summary', '-schema-location', location, dir], ws);
    report({ scenario, server: 'kubeconform', median: c.ms, p95: c.ms, extra: `peak RSS ${fmt(c.rssMB)} MB; exit ${c.status}; ${c.out.trim().split('\n').pop()}` });
  }
}

/** One run of a command: wall and CPU time (user + system, of the process and its threads) by GNU time. */
function measureCpu(command: string, argv: string[], cwd: string): { ms: number; cpuMs: number; rssMB: number; status: number | null } {
  if (!fs.existsSync('/usr/bin/time')) {
    const t0 = performance.now();
    const r = spawnSync(command, argv, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    return { ms: performance.now() - t0, cpuMs: NaN, rssMB: NaN, status: r.status };
  }
  const timeFile = path.join(os.tmpdir(), `crd-yaml-bench-time-${process.pid}`);
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', '-o', timeFile, command, ...argv], { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const [wall, user, sys, rss] = fs.readFileSync(timeFile, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
  return { ms: wall * 1000, cpuMs: (user + sys) * 1000, rssMB: rss / 1024, status: r.status };
}

/** Issue 22: a repository checked as a whole against the sum of its parts, and with one worker against two. */
async function scenarioRepository() {
  const tree = writeRepositoryTree(path.join(tmpWorkspace('repo'), 'repo'), path.join(SHARED, 'realworld'));
  const cli = path.join(ROOT, 'dist', 'cli.js');
  const run = (argv: string[]) => measureCpu(process.execPath, [cli, 'check', ...argv], tree.root);
  const row = (server: string, m: { ms: number; cpuMs: number; rssMB: number }, extra = '') =>
    report({ scenario: `(repo) ${tree.charts.length} charts, ${fmt(tree.bytes / 1048576)} MB`, server, median: m.ms, p95: m.ms, extra: `CPU ${fmt(m.cpuMs)} ms; peak RSS ${fmt(m.rssMB)} MB${extra}` });
  const whole = run(['.']);
  row('check . (whole)', whole, `; exit ${whole.status}`);
  const parts = tree.charts.map((c) => run([c]));
  const sum = parts.reduce((a, m) => ({ ms: a.ms + m.ms, cpuMs: a.cpuMs + m.cpuMs, rssMB: Math.max(a.rssMB, m.rssMB) }), { ms: 0, cpuMs: 0, rssMB: 0 });
  row('sum of check <chart>', sum, `; whole/sum CPU ${(whole.cpuMs / sum.cpuMs).toFixed(2)}`);
  const one = run(['--jobs', '1', '.']);
  row('check --jobs 1 .', one);
  const two = run(['--jobs', '2', '.']);
  row('check --jobs 2 .', two, `; wall -j2/-j1 ${(two.ms / one.ms).toFixed(2)}, CPU -j2/-j1 ${(two.cpuMs / one.cpuMs).toFixed(2)}`);
  fs.rmSync(path.dirname(tree.root), { recursive: true, force: true });
}

/** Issue 29: the CRD catalog checked whole, beside a tenth of it: cost per MB and peak memory. */
async function scenarioCatalog() {
  if (!CATALOG || !fs.existsSync(CATALOG)) {
    report({ scenario: '(catalog) CRD catalog', server: 'crd-yaml check', median: NaN, p95: NaN, extra: 'skipped: set CRD_YAML_CATALOG_DIR to a folder of real CRDs (the catalog definitions/, ~490 MB)' });
    return;
  }
  const files = [...yamlFiles(CATALOG)].sort();
  const tenth = files.filter((_, i) => i % 10 === 9).map((f) => path.relative(CATALOG, f));
  const mb = (names: string[]) => names.reduce((n, f) => n + statSize(path.resolve(CATALOG, f)), 0) / 1048576;
  const cli = path.join(ROOT, 'dist', 'cli.js');
  const row = (name: string, megabytes: number, count: number, m: { ms: number; cpuMs: number; rssMB: number; status: number | null }) =>
    report({
      scenario: `(catalog) ${name}, ${count} files, ${fmt(megabytes)} MB`,
      server: 'crd-yaml check',
      median: m.ms,
      p95: m.ms,
      extra: `CPU ${fmt(m.cpuMs)} ms; peak RSS ${fmt(m.rssMB)} MB; ${(megabytes / (m.cpuMs / 1000)).toFixed(2)} MB per CPU s, ${(megabytes / (m.ms / 1000)).toFixed(2)} MB/s; exit ${m.status}`,
    });
  const part = measureCpu(process.execPath, [cli, 'check', '--format', 'json', ...tenth], CATALOG);
  row('every tenth file', mb(tenth), tenth.length, part);
  const whole = measureCpu(process.execPath, [cli, 'check', '--format', 'json', '.'], CATALOG);
  row('whole', mb(files.map((f) => path.relative(CATALOG, f))), files.length, whole);
}

function statSize(f: string): number {
  try {
    return fs.statSync(f).size;
  } catch {
    return 0;
  }
}

/**
 * (go) Go types (issue 26): gateway-api v1.6.0 from the module proxy; the first check of an open
 * apis/v1 file (generator build when cold, package load, generation, checks) and the re-check after an
 * edit in it (warm generator: overlays, incremental reload), keystroke to diagnostics.
 */
async function scenarioGo() {
  if (spawnSync('go', ['version']).status !== 0) {
    report({ scenario: '(go) gateway-api apis/v1 edit', server: 'crd-yaml', median: NaN, p95: NaN, extra: 'skipped: go is not on PATH' });
    return;
  }
  const { moduleCopy } = await import('../test/go/mutations');
  const ws = tmpWorkspace('go');
  const dir = moduleCopy('sigs.k8s.io/gateway-api', 'v1.6.0', ws);
  const spec = servers({}).find((s) => s.name === 'crd-yaml')!;
  const c = await start(spec, dir);
  const file = path.join(dir, 'apis', 'v1', 'httproute_types.go');
  const uri = pathToFileURL(file).href;
  let text = fs.readFileSync(file, 'utf8');
  const t0 = performance.now();
  const first = c.nextDiagnostics(uri, t0, 900_000);
  c.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'go', version: 1, text } });
  const d0 = await first;
  report({
    scenario: '(go) first check, gateway-api apis/v1',
    server: 'crd-yaml',
    median: d0.at - t0,
    p95: d0.at - t0,
    extra: `diags ${d0.diagnostics.length}; generator ${process.env.CRD_YAML_CRDGEN ? 'given (CRD_YAML_CRDGEN)' : 'built or cached'}`,
  });
  const times: number[] = [];
  const edits = Math.min(EDITS, 12);
  for (let i = 0; i < edits + 2; i++) {
    // An edit of a doc comment (a description of the generated CRDs changes).
    text = text.replace(i % 2 === 0 ? 'Rules are a list of HTTP matchers' : 'Rules are a list of HTTP matcherz', i % 2 === 0 ? 'Rules are a list of HTTP matcherz' : 'Rules are a list of HTTP matchers');
    const t = performance.now();
    const wait = c.nextDiagnostics(uri, t, 120_000);
    c.notify('textDocument/didChange', { textDocument: { uri, version: i + 2 }, contentChanges: [{ text }] });
    const d = await wait;
    if (i >= 2) times.push(d.at - t);
  }
  const r = stats(times);
  report({ scenario: '(go) re-check after an edit, apis/v1', server: 'crd-yaml', median: r.median, p95: r.p95, extra: `goal <= 1000 ms (warm generator); peak RSS ${fmt(c.peakRssMB())} MB (server)` });
  await c.shutdown();
  fs.rmSync(ws, { recursive: true, force: true });
}

async function main() {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'server.js'))) throw new Error('run npm run build first');
  console.log(`crd-yaml bench: ${EDITS} edits per scenario after 5 warm-up edits; node ${process.version}; ${os.cpus().length} cores`);
  if (ONLY.has('a')) await scenarioA();
  if (ONLY.has('b')) await scenarioB();
  if (ONLY.has('c')) await scenarioC();
  if (ONLY.has('open')) await scenarioOpen();
  if (ONLY.has('d')) await scenarioD();
  if (ONLY.has('e')) await scenarioE();
  if (ONLY.has('cli')) await scenarioCli();
  if (ONLY.has('builtins')) await scenarioBuiltins();
  if (ONLY.has('repo')) await scenarioRepository();
  if (ONLY.has('catalog')) await scenarioCatalog();
  if (ONLY.has('catalog-fetch')) {
    // catalog.ts: a CR's check with its CRD from a loopback catalog (first, cached) beside a local CRD.
    const { catalogBenchmark } = await import('./catalog');
    await catalogBenchmark(report);
  }
  if (ONLY.has('go')) await scenarioGo();
  if (ONLY.has('cel')) {
    const { celBenchmark } = await import('./cel');
    celBenchmark(REALWORLD_CRDS);
  }
  if (ONLY.has('editor')) {
    // code-server with the packaged extension (bench/editor.mjs): an ES module, loaded as one.
    const { editorBench } = await import(pathToFileURL(path.join(__dirname, 'editor.mjs')).href);
    await editorBench();
  }
  const out = path.join(ROOT, 'reports');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'bench.json'), JSON.stringify(rows, null, 1));
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
