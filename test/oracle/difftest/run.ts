/**
 * npm run difftest -- [--cases N] [--seed S] [--no-realworld] [--shared DIR] [--report FILE] [--found FILE]
 *
 * Differential tests of the engine against the Go oracle:
 * 1. every real CRD under shared/realworld/crds (op crd) and every sample under shared/realworld/samples
 *    (op validate against its CRD);
 * 2. N random cases (default 2000) from the generators, seeded (default: the current time, printed).
 * Each disagreement is minimised and written as a conformance case whose expectation is the oracle's
 * answer to --found (default reports/difftest-found.jsonl; copy the ones to keep into
 * test/conformance/found/); the report (default reports/difftest.jsonl) has the unminimised details.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { defaultSharedDir } from '../../conformance/runner';
import { ensureOracleBinary, goAvailable } from '../oracle';
import { OracleProcess } from '../client';
import { jsonReplacer } from '../report';
import { Random } from './random';
import { genCase, wrapCRD } from './cases';
import type { JSONSchemaProps } from '../../../server/src/engine/schema/types';
import { stringifyCase } from './generate';
import { compareCase, oracleExpectation, type EngineAnswer } from './compare';
import { shrink } from './shrink';

interface Args {
  cases: number;
  seed: number;
  realworld: boolean;
  shared: string;
  report: string;
  found: string;
}

function parseArgs(argv: string[]): Args {
  const a: Args = {
    cases: 2000,
    seed: Date.now() % 2 ** 31,
    realworld: true,
    shared: defaultSharedDir(),
    report: 'reports/difftest.jsonl',
    found: 'reports/difftest-found.jsonl',
  };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    if (k === '--cases') a.cases = Number(argv[++i]);
    else if (k === '--seed') a.seed = Number(argv[++i]);
    else if (k === '--no-realworld') a.realworld = false;
    else if (k === '--shared') a.shared = path.resolve(argv[++i]);
    else if (k === '--report') a.report = argv[++i];
    else if (k === '--found') a.found = argv[++i];
    else throw new Error(`unknown argument ${k}`);
  }
  return a;
}

function yamlDocs(file: string): unknown[] {
  return parseAllDocuments(fs.readFileSync(file, 'utf8'))
    .map((d) => {
      try {
        return d.toJS({ maxAliasCount: -1 });
      } catch {
        return undefined;
      }
    })
    .filter((o) => o && typeof o === 'object');
}

function walkFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walkFiles(path.join(dir, e.name)) : /\.ya?ml$/.test(e.name) ? [path.join(dir, e.name)] : []))
    .sort();
}

/** Cases for the real-world CRDs and samples. */
function realworldCases(shared: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  type CRD = { metadata?: { name?: string }; spec?: { group?: string; names?: { kind?: string }; versions?: { name: string }[] } };
  const crds: { file: string; crd: CRD }[] = [];
  for (const f of walkFiles(path.join(shared, 'realworld', 'crds'))) {
    for (const d of yamlDocs(f) as (CRD & { kind?: string })[]) {
      if (d.kind !== 'CustomResourceDefinition') continue;
      crds.push({ file: f, crd: d });
      out.push({ id: `realworld-crd/${path.relative(shared, f)}#${d.metadata?.name}`, op: 'crd', crd: d });
    }
  }
  for (const f of walkFiles(path.join(shared, 'realworld', 'samples'))) {
    yamlDocs(f).forEach((o, i) => {
      const obj = o as { apiVersion?: string; kind?: string };
      if (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') return;
      const [group, version] = obj.apiVersion.includes('/') ? obj.apiVersion.split('/') : ['', obj.apiVersion];
      // Prefer the standard channel when a CRD is published in several.
      const matches = crds.filter((c) => c.crd.spec?.group === group && c.crd.spec?.names?.kind === obj.kind && c.crd.spec?.versions?.some((v) => v.name === version));
      const m = matches.find((c) => !c.file.includes('experimental')) ?? matches[0];
      if (!m) return;
      out.push({ id: `realworld-sample/${path.relative(shared, f)}#${i}`, op: 'validate', crd: m.crd, version, object: obj });
    });
  }
  return out;
}

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  if (!goAvailable()) {
    console.error('difftest: `go` is not on PATH; the oracle tier did not run');
    return 2;
  }
  const bin = ensureOracleBinary({ log: (m) => console.error(m) });
  const oracle = new OracleProcess(bin, args.shared);
  const report: string[] = [];
  const found: string[] = [];
  const tally = new Map<string, { run: number; compared: number; disagreed: number }>();
  const count = (group: string, k: 'run' | 'compared' | 'disagreed') => {
    const t = tally.get(group) ?? { run: 0, compared: 0, disagreed: 0 };
    t[k]++;
    tally.set(group, t);
  };

  const check = async (c: Record<string, unknown>, group: string, minimise: boolean) => {
    const text = stringifyCase(c);
    const [ans] = await oracle.ask([text]);
    count(group, 'run');
    const v = compareCase(text, ans, args.shared);
    if (!v.comparable) return;
    count(group, 'compared');
    if (v.agree) return;
    count(group, 'disagreed');
    report.push(JSON.stringify({ id: c.id, group, case: JSON.parse(text), engine: v.engine, oracle: ans }, jsonReplacer));
    if (!minimise) return;
    const threw = v.engine.exception !== undefined;
    // A candidate must not make the schema worse as a CRD than the original was: otherwise the
    // minimum drifts to degenerate schemas the API server would never serve.
    const crdErrors = async (cands: Record<string, unknown>[]) => {
      const wrapped = cands.map((k) => stringifyCase({ id: 'crd-check', op: 'crd', crd: k.crd ?? wrapCRD(k.schema as JSONSchemaProps) }));
      return (await oracle.ask(wrapped)).map((a) => a.errors?.length ?? Infinity);
    };
    const checkCRD = c.op !== 'structural' && c.op !== 'crd';
    const base = checkCRD ? (await crdErrors([c]))[0] : 0;
    const small = await shrink(c, async (cands) => {
      const texts = cands.map(stringifyCase);
      const answers = await oracle.ask(texts);
      const sizes = checkCRD ? await crdErrors(cands) : [];
      for (let i = 0; i < texts.length; i++) {
        if (checkCRD && sizes[i] > base) continue;
        const w = compareCase(texts[i], answers[i], args.shared);
        if (w.comparable && !w.agree && (w.engine.exception !== undefined) === threw) return i;
      }
      return -1;
    });
    const smallText = stringifyCase(small);
    const [smallAns] = await oracle.ask([smallText]);
    const caseOut = {
      ...JSON.parse(smallText),
      id: `found/${String(c.id).replace(/^difftest\//, '')}-s${args.seed}`,
      source: `difftest seed ${args.seed}, ${c.id}, minimised; expectation = the oracle (k8s.io/apiextensions-apiserver v0.37.2); engine said ${summarise(compareCase(smallText, smallAns, args.shared).engine)}`,
      expect: oracleExpectation(smallAns),
    };
    found.push(JSON.stringify(caseOut, jsonReplacer));
  };

  if (args.realworld) {
    for (const c of realworldCases(args.shared)) await check(c, String(c.op === 'crd' ? 'realworld crd' : 'realworld sample'), false);
  }
  const r = new Random(args.seed);
  for (let n = 0; n < args.cases; n++) {
    const c = genCase(r, n);
    await check(c, `random ${c.op}${c.crd && c.op === 'validate' ? '+crd' : ''}`, true);
    if ((n + 1) % 500 === 0) console.error(`... ${n + 1}/${args.cases}`);
  }
  oracle.close();

  for (const f of [args.report, args.found]) fs.mkdirSync(path.dirname(path.resolve(f)), { recursive: true });
  fs.writeFileSync(args.report, report.join('\n') + (report.length ? '\n' : ''));
  fs.writeFileSync(args.found, found.join('\n') + (found.length ? '\n' : ''));
  let disagreed = 0;
  for (const [g, t] of [...tally.entries()].sort()) {
    console.log(`${g}: ${t.compared - t.disagreed}/${t.compared} agree (${t.run - t.compared} not comparable: rejected before validation, or the oracle could not run them)`);
    disagreed += t.disagreed;
  }
  console.log(`seed ${args.seed}: ${disagreed} disagreements (report: ${args.report}, minimised cases: ${args.found})`);
  return 0;
}

function summarise(e: EngineAnswer): string {
  const s = JSON.stringify(e, jsonReplacer);
  return s.length > 300 ? s.slice(0, 300) + '…' : s;
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (e) => {
    console.error(e);
    process.exitCode = 1;
  },
);
