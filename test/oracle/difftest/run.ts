/**
 * npm run difftest -- [--cases N] [--seed S] [--no-realworld] [--shared DIR] [--report FILE] [--found FILE]
 *                      [--minimise-per-kind K] [--max-disagreements M]
 *
 * Differential tests of the engine against the Go oracle:
 * 1. every real CRD under shared/realworld/crds (op crd) and every sample under shared/realworld/samples
 *    (op validate against its CRD);
 * 2. N random cases (default 2000) from the generators, seeded (default: the current time, printed).
 * Disagreements are grouped by kind (op and the error types only one side reports); the first K (default
 * 2) of each kind are minimised and written as conformance cases whose expectation is the oracle's
 * answer to --found (default reports/difftest-found.jsonl; copy the ones to keep into
 * test/conformance/found/); the report (default reports/difftest.jsonl) has the unminimised details.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { defaultSharedDir } from '../../conformance/runner';
import { ensureOracleBinary, goAvailable, type OracleAnswer } from '../oracle';
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
  perSignature: number;
  /** Exit 1 when more than this many disagreements (CI gate); unset = report only. */
  maxDisagreements?: number;
}

function parseArgs(argv: string[]): Args {
  const a: Args = {
    cases: 2000,
    seed: Date.now() % 2 ** 31,
    realworld: true,
    shared: defaultSharedDir(),
    report: 'reports/difftest.jsonl',
    found: 'reports/difftest-found.jsonl',
    perSignature: 2,
  };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    if (k === '--cases') a.cases = Number(argv[++i]);
    else if (k === '--seed') a.seed = Number(argv[++i]);
    else if (k === '--no-realworld') a.realworld = false;
    else if (k === '--shared') a.shared = path.resolve(argv[++i]);
    else if (k === '--report') a.report = argv[++i];
    else if (k === '--found') a.found = argv[++i];
    else if (k === '--minimise-per-kind') a.perSignature = Number(argv[++i]);
    else if (k === '--max-disagreements') a.maxDisagreements = Number(argv[++i]);
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

  const signatures = new Map<string, number>();
  const check = async (c: Record<string, unknown>, text: string, ans: OracleAnswer, group: string, minimise: boolean) => {
    count(group, 'run');
    const v = compareCase(text, ans, args.shared);
    if (!v.comparable) return;
    count(group, 'compared');
    if (v.agree) return;
    count(group, 'disagreed');
    const sig = signature(String(c.op), v.engine, ans);
    const seen = signatures.get(sig) ?? 0;
    signatures.set(sig, seen + 1);
    report.push(JSON.stringify({ id: c.id, group, signature: sig, case: JSON.parse(text), engine: v.engine, oracle: ans }, jsonReplacer));
    // Minimise only the first few of each kind of disagreement: the rest are the same bug again.
    if (!minimise || seen >= args.perSignature) return;
    const threw = v.engine.exception !== undefined;
    // A candidate must not make the schema worse as a CRD than the original was (no CRD error the
    // original did not have): otherwise the minimum drifts to degenerate schemas (no root type, ...)
    // that the API server would never serve.
    const crdErrors = async (cands: Record<string, unknown>[]) => {
      const wrapped = cands.map((k) => stringifyCase({ id: 'crd-check', op: 'crd', crd: k.crd ?? wrapCRD(k.schema as JSONSchemaProps) }));
      return (await oracle.ask(wrapped)).map((a) => (a.errors ? new Set(a.errors.map((e) => `${e.type}\u0000${e.field}`)) : undefined));
    };
    const checkCRD = c.op !== 'structural' && c.op !== 'crd';
    const base = checkCRD ? (await crdErrors([c]))[0] : undefined;
    const noWorse = (k: Set<string> | undefined) => !base || (k !== undefined && [...k].every((e) => base.has(e)));
    const small = await shrink(c, async (cands) => {
      const texts = cands.map(stringifyCase);
      const answers = await oracle.ask(texts);
      const keys = checkCRD ? await crdErrors(cands) : [];
      for (let i = 0; i < texts.length; i++) {
        if (checkCRD && !noWorse(keys[i])) continue;
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
      source: `difftest seed ${args.seed}, ${c.id} (${sig}), minimised; expectation = the oracle (k8s.io/apiextensions-apiserver v0.37.2); engine said ${summarise(compareCase(smallText, smallAns, args.shared).engine)}`,
      expect: oracleExpectation(smallAns),
    };
    found.push(JSON.stringify(caseOut, jsonReplacer));
  };

  const runBatch = async (cases: Record<string, unknown>[], group: (c: Record<string, unknown>) => string, minimise: boolean) => {
    const texts = cases.map(stringifyCase);
    const answers = await oracle.ask(texts);
    for (let i = 0; i < cases.length; i++) await check(cases[i], texts[i], answers[i], group(cases[i]), minimise);
  };
  if (args.realworld) {
    await runBatch(realworldCases(args.shared), (c) => (c.op === 'crd' ? 'realworld crd' : 'realworld sample'), false);
  }
  const r = new Random(args.seed);
  for (let n = 0; n < args.cases; ) {
    const batch: Record<string, unknown>[] = [];
    for (; n < args.cases && batch.length < 200; n++) batch.push(genCase(r, n));
    await runBatch(batch, (c) => `random ${c.op}${c.crd && c.op === 'validate' ? '+crd' : ''}${c.oldObject !== undefined || c.oldCrd !== undefined ? ' update' : ''}`, true);
    if (n % 1000 === 0) console.error(`... ${n}/${args.cases}`);
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
  console.log('kinds of disagreement (op | oracle-only, engine-only error types or object/value/exception):');
  for (const [sig, n] of [...signatures.entries()].sort((x, y) => y[1] - x[1])) console.log(`  ${n}\t${sig}`);
  console.log(`seed ${args.seed}: ${disagreed} disagreements (report: ${args.report}, minimised cases: ${args.found})`);
  if (args.maxDisagreements !== undefined && disagreed > args.maxDisagreements) {
    console.error(`difftest: ${disagreed} disagreements, more than --max-disagreements ${args.maxDisagreements}`);
    return 1;
  }
  return 0;
}

/** What kind of disagreement this is, for grouping: the op and the error types only one side reports. */
function signature(op: string, engine: EngineAnswer, oracle: OracleAnswer): string {
  if (engine.exception !== undefined) return `${op} | engine exception: ${engine.exception.slice(0, 60)}`;
  if (oracle.errors) {
    const key = (e: { type: string; field: string }) => `${e.type}\u0000${e.field}`;
    const ek = new Set((engine.errors ?? []).map(key));
    const ok = new Set(oracle.errors.map(key));
    const onlyOracle = [...new Set(oracle.errors.filter((e) => !ek.has(key(e))).map((e) => e.type))].sort();
    const onlyEngine = [...new Set((engine.errors ?? []).filter((e) => !ok.has(key(e))).map((e) => e.type))].sort();
    if (onlyOracle.length || onlyEngine.length) return `${op} | oracle-only: ${onlyOracle.join(',') || '-'} | engine-only: ${onlyEngine.join(',') || '-'}`;
    const msgs = oracle.errors.filter((e) => !(engine.errors ?? []).some((x) => key(x) === key(e) && x.detail.includes(e.detail))).map((e) => e.type);
    return `${op} | message differs: ${[...new Set(msgs)].sort().join(',')}`;
  }
  if ('object' in oracle) return `${op} | object differs`;
  return `${op} | value/error differs`;
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
