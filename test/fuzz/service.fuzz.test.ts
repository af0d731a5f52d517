/**
 * Service-level fuzzing: the language service (diagnostics, hover, completion, code actions, preview,
 * lenses, symbols, definition, folding) on randomly edited real files, truncations, pathological YAML,
 * random CEL rules and random regex patterns. Asserts no exception escapes, no call's work over the
 * engine's bounds (probe.ts: counters, never the clock), no swallowed internal failure in the findings,
 * incremental results equal to a fresh service's, and a bounded heap. Seeded: a failure prints
 * CRD_YAML_FUZZ_SEED=<n> to reproduce; CRD_YAML_FUZZ_ITERATIONS runs longer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml, parseAllDocuments, stringify as stringifyYaml } from 'yaml';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Position } from 'vscode-languageserver-types';
import type { Finding } from '../../server/src/service/finding';
import { LanguageService } from '../../server/src/service/languageService';
import {
  applyEdit,
  CEL_BLOWUPS,
  CEL_LONG_BLOWUPS,
  celExpr,
  FUZZ_CRD,
  exampleFiles,
  iterations,
  mutate,
  mutateCrdObject,
  pathologicalInputs,
  randomEdit,
  randomJson,
  readText,
  realCrdFiles,
  REALWORLD,
  REGEX_BLOWUPS,
  regexPattern,
  Rng,
  seed,
  yq,
} from './gen';
import { crdYaml, specSchemaYaml } from '../crd';
import { celTokensOnTheirLines, heapMB, Probe, swallowedFailures } from './probe';

const SEED = seed();
/**
 * A long run (CRD_YAML_FUZZ_ITERATIONS): the long blow-ups too. Every loop is bounded by its count, never
 * by the clock, so a seed reproduces the same inputs on a loaded machine as on a quiet one.
 */
const LONG = !!process.env.CRD_YAML_FUZZ_ITERATIONS;

/** Real CR samples whose CRD is small enough to check on every keystroke of a fuzz run. */
const SAMPLE_PAIRS: Array<[string, string]> = [
  ['crossplane/e2e_manifests_apiextensions_composition_basic-cluster_setup_composition.yaml', 'crossplane/apiextensions.crossplane.io_compositions.yaml'],
  ['prometheus-operator/user-guides_alerting_prometheus-example-rules.yaml', 'prometheus-operator/monitoring.coreos.com_prometheusrules.yaml'],
  ['flux/samples_source_v1_helmrepository-oci.yaml', 'flux/source.toolkit.fluxcd.io_helmrepositories.yaml'],
  ['flux/samples_source_v1_bucket.yaml', 'flux/source.toolkit.fluxcd.io_buckets.yaml'],
  ['argo-cd/operator-manual_project.yaml', 'argo-cd/appproject-crd.yaml'],
  ['flux/samples_source_v1_gitrepository.yaml', 'flux/source.toolkit.fluxcd.io_gitrepositories.yaml'],
  ['flux/samples_kustomize_v1_kustomization.yaml', 'flux/kustomize.toolkit.fluxcd.io_kustomizations.yaml'],
]
  .map(([s, c]): [string, string] => [join(REALWORLD, '..', 'samples', s), join(REALWORLD, c)])
  .filter(([s, c]) => existsSync(s) && existsSync(c));

const EXAMPLES = exampleFiles();
const SMALL_CRDS = realCrdFiles(40_000);
const MID_CRDS = realCrdFiles(120_000).filter((f) => !SMALL_CRDS.includes(f));
const CRONTAB_CRD = readText(EXAMPLES.find((f) => f.endsWith('crontab-crd.yaml'))!);

/**
 * The characters each service holds, by URI (indexed files and open documents): what a call on it could
 * read, the size its YAML work is bounded by.
 */
const HELD = new WeakMap<LanguageService, Map<string, number>>();
function hold(s: LanguageService, uri: string, text: string): void {
  if (!HELD.has(s)) HELD.set(s, new Map());
  HELD.get(s)!.set(uri, text.length);
}
const heldChars = (s: LanguageService) => [...(HELD.get(s)?.values() ?? [])].reduce((a, b) => a + b, 0);
/** Updates a document in the service (held while open). */
function update(s: LanguageService, td: TextDocument): void {
  hold(s, td.uri, td.getText());
  s.update(td);
}
function close(s: LanguageService, uri: string): void {
  HELD.get(s)?.delete(uri);
  s.close(uri);
}

/** A service knowing the CronTab CRD and the CRDs of the sample CRs (as workspace files). */
function baseService(): LanguageService {
  const s = new LanguageService();
  const index = (uri: string, text: string) => {
    hold(s, uri, text);
    s.indexDiskFile(uri, text);
  };
  index('file:///ws/examples/crontab-crd.yaml', CRONTAB_CRD);
  for (const [, crd] of SAMPLE_PAIRS) index(`file://${crd}`, readText(crd));
  return s;
}

function positionIn(r: Rng, td: TextDocument): Position {
  return td.positionAt(r.int(td.getText().length + 1));
}

const short = (t: string) => (t.length > 2000 ? `${t.slice(0, 2000)}… (${t.length} chars)` : t);

/** Every editor feature of the service on one text, each call watched by the probe. */
function exercise(p: Probe, r: Rng, s: LanguageService, td: TextDocument, label: string, positions = 2): Finding[] {
  const input = () => `${label}: ${short(td.getText())}`;
  p.call('update', input, () => update(s, td), heldChars(s) + td.getText().length);
  const chars = heldChars(s);
  const diags = p.call('findings', input, () => s.findings(td), chars) ?? [];
  for (const d of swallowedFailures(diags)) p.add('findings', `swallowed failure [${d.code}] ${d.message}`, input());
  // What a bound cut, the findings say (never a silent pass).
  const cut = p.last;
  if (cut.patternRefused > 0 && !diags.some((d) => d.code === 'NotChecked')) p.add('findings', `${cut.patternRefused} pattern match(es) cut by the work bound, no NotChecked finding`, input());
  // (In a CRD a lint may evaluate a constant rule, and says nothing when the limit stops it.)
  const crd = td.getText().includes('kind: CustomResourceDefinition');
  if (cut.celStoppedByLimit > 0 && !crd && !diags.some((d) => /cost/.test(d.message))) p.add('findings', `${cut.celStoppedByLimit} rule evaluation(s) stopped by the cost limit, no finding says so`, input());
  for (let i = 0; i < positions; i++) {
    const pos = positionIn(r, td);
    const at = () => `${label} at ${pos.line}:${pos.character}: ${short(td.getText())}`;
    p.call('hover', at, () => s.hover(td, pos), chars);
    p.call('completion', at, () => s.completion(td, pos), chars);
    p.call('definition', at, () => s.definition(td, pos), chars);
    p.call('preview', at, () => s.preview(td, pos), chars);
    const near = diags.length ? diags[r.int(diags.length)] : undefined;
    const range = near?.range ?? { start: pos, end: pos };
    p.call('fixes', at, () => s.fixes(td, range), chars);
  }
  p.call('codeLenses', input, () => s.codeLenses(td), chars);
  p.call('documentSymbols', input, () => s.documentSymbols(td), chars);
  p.call('foldingRanges', input, () => s.foldingRanges(td), chars);
  p.call('celTokens', input, () => celTokensOnTheirLines(td.getText(), s.celTokens(td, { start: { line: 0, character: 0 }, end: { line: td.lineCount, character: 0 } })), chars);
  return diags;
}

/** Diagnostics as comparable data. */
function norm(ds: Finding[]): string[] {
  return ds.map((d) => JSON.stringify([d.range, d.code, d.severity, d.message, d.related?.map((r) => r.message)])).sort();
}

function finish(p: Probe, name: string, done: number, t0: number): void {
  const ms = performance.now() - t0;
  console.log(`# ${name}: seed ${p.seed}, ${done} inputs, ${p.calls} calls in ${ms.toFixed(0)} ms (wall, printed only); slowest call ${p.slowest.ms.toFixed(0)} ms CPU (${p.slowest.what}); ${p.workLine()}`);
  assert.equal(p.findings.length, 0, p.report());
}

test('random edit sequences on real CRDs, CR samples and the examples: no crash, no slow call, incremental = fresh', () => {
  const r = new Rng(SEED);
  const p = new Probe(SEED);
  const s = baseService();
  const t0 = performance.now();
  const n = iterations(4);
  let done = 0;
  for (let seq = 0; seq < n; seq++, done++) {
    const kind = r.int(4);
    const file =
      kind === 0 ? r.pick(EXAMPLES) : kind === 1 && SAMPLE_PAIRS.length ? r.pick(SAMPLE_PAIRS)[0] : kind === 2 && MID_CRDS.length && r.chance(0.3) ? r.pick(MID_CRDS) : r.pick(SMALL_CRDS.length ? SMALL_CRDS : EXAMPLES);
    const uri = `file:///fuzz/seq${seq}.yaml`;
    let text = readText(file);
    let version = 1;
    const td = TextDocument.create(uri, 'yaml', version, text);
    const steps = 1 + r.int(6);
    let diags: Finding[] = [];
    for (let k = 0; k < steps; k++) {
      // Several edits at once sometimes (a paste, a fast typist): the service sees the result only.
      const edits = r.chance(0.3) ? 1 + r.int(5) : 1;
      for (let e = 0; e < edits; e++) {
        const edit = randomEdit(r, text);
        text = applyEdit(text, edit);
        const start = td.positionAt(edit[0]);
        const end = td.positionAt(edit[0] + edit[1]);
        TextDocument.update(td, [{ range: { start, end }, text: edit[2] }], ++version);
      }
      assert.equal(td.getText(), text, 'incremental TextDocument update');
      diags = exercise(p, r, s, td, `step ${k} of ${file}`, 1);
    }
    // The incrementally re-parsed, cached findings equal those of a fresh parse of the same final text
    // (the edited document closed, the text opened as a new one: no previous parse, no cached findings).
    close(s, uri);
    const ftd = TextDocument.create(`${uri}.fresh`, 'yaml', 1, text);
    update(s, ftd);
    const want =
      p.call(
        'fresh diagnostics',
        () => text,
        () => s.findings(ftd),
        heldChars(s),
      ) ?? [];
    // A message may name the document's own file (the copy in use of a duplicated CRD): the fresh
    // document's name is the edited one's with `.fresh` added.
    const name = uri.slice(uri.lastIndexOf('/') + 1);
    const fresh = norm(want).map((x) => x.replaceAll(`${name}.fresh`, name));
    if (norm(diags).join('\n') !== fresh.join('\n')) {
      p.add('incremental diagnostics', `differ from a fresh parse's:\nincremental: ${norm(diags).join('\n')}\nfresh: ${fresh.join('\n')}`, `${file} edited: ${short(text)}`);
    }
    close(s, ftd.uri);
  }
  finish(p, 'edit sequences', done, t0);
});

test('truncations at random offsets and random line deletions of real files', () => {
  const r = new Rng(SEED ^ 0x5a5a5a5a);
  const p = new Probe(SEED);
  const s = baseService();
  const t0 = performance.now();
  const n = iterations(20);
  let done = 0;
  for (let i = 0; i < n; i++, done++) {
    const file = r.chance(0.4) ? r.pick(EXAMPLES) : r.pick(SMALL_CRDS.length ? SMALL_CRDS : EXAMPLES);
    const full = readText(file);
    let text = full.slice(0, r.int(full.length + 1));
    if (r.chance(0.3)) text = full.slice(r.int(full.length + 1)); // a tail: starts mid-line, mid-indent
    if (r.chance(0.3)) text = mutate(r, text, 1 + r.int(30));
    const td = TextDocument.create(`file:///fuzz/trunc${i}.yaml`, 'yaml', 1, text);
    exercise(p, r, s, td, `truncation of ${file}`, 1);
    close(s, td.uri);
  }
  finish(p, 'truncations', done, t0);
});

test('pathological YAML: 10k nesting levels, 10 MB scalars, many documents, aliases', () => {
  const r = new Rng(SEED ^ 0x1234);
  const p = new Probe(SEED);
  const s = baseService();
  const t0 = performance.now();
  let done = 0;
  const times: string[] = [];
  const before = heapMB();
  for (const { name, text, long } of pathologicalInputs()) {
    if (long && !LONG) continue;
    const w0 = performance.now();
    const td = TextDocument.create(`file:///fuzz/${encodeURIComponent(name)}.yaml`, 'yaml', 1, text);
    // (other features on texts over 1 MB only in the long run: each costs a pass over the text)
    if (text.length > 1e6 && !LONG) {
      p.call(
        'update',
        () => name,
        () => update(s, td),
        heldChars(s) + text.length,
      );
      p.call(
        'diagnostics',
        () => name,
        () => s.findings(td),
        heldChars(s),
      );
    } else exercise(p, r, s, td, name, 1);
    // An edit at the end of a huge document (the incremental path) is within the bounds too.
    TextDocument.update(td, [{ range: { start: td.positionAt(text.length), end: td.positionAt(text.length) }, text: '\n#' }], 2);
    hold(s, td.uri, td.getText());
    p.call(
      'diagnostics after edit',
      () => name,
      () => s.findings(td),
      heldChars(s),
    );
    close(s, td.uri);
    times.push(`${name} ${(performance.now() - w0).toFixed(0)} ms`);
    done++;
  }
  console.log(`# pathological inputs: ${times.join('; ')}`);
  const after = heapMB();
  console.log(`# pathological: heap ${before.toFixed(0)} MB -> ${after.toFixed(0)} MB after closing every document`);
  // Closed documents are forgotten; caches keyed by huge texts must not keep them all alive.
  if (after - before > 150) p.add('memory', `heap grew ${(after - before).toFixed(0)} MB after the pathological inputs were closed`, 'pathologicalInputs()');
  finish(p, 'pathological', done, t0);
});

/** A schema with rules at the root and on each field type, for random CEL rules. */
function celCrd(rules: string[]): string {
  const rs = (ind: string, xs: string[]) => xs.map((x) => `${ind}- rule: ${yq(x)}\n${ind}  message: ${yq(`failed: ${x.slice(0, 20)}`)}`).join('\n');
  const at = (k: number) => rules.filter((_, i) => i % 4 === k);
  return crdYaml(
    specSchemaYaml(
      `s:
  type: string
  maxLength: 256
  x-kubernetes-validations:
${rs('  ', at(1).length ? at(1) : ['true'])}
n:
  type: integer
l:
  type: array
  maxItems: 20
  items:
    type: string
    maxLength: 64
  x-kubernetes-validations:
${rs('  ', at(2).length ? at(2) : ['true'])}
ul:
  type: array
  items:
    type: string
m:
  type: object
  additionalProperties:
    type: string
o:
  type: object
  x-kubernetes-preserve-unknown-fields: true
  x-kubernetes-validations:
${rs('  ', at(3).length ? at(3) : ['true'])}
`,
      { rules: rs('', at(0).length ? at(0) : ['true']) },
    ),
    FUZZ_CRD,
  );
}

function celCr(r: Rng): string {
  const str = r.pick(['a', '', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!', 'x'.repeat(256), '1.2.3', '10.0.0.0/8', 'https://x.y/z', '1Gi', 'é💥']);
  const n = r.pick(['0', '1', '-1', '9223372036854775807', '1.5', '"x"']);
  const items = Array.from({ length: r.int(21) }, (_, i) => yq(i % 2 ? str.slice(0, 64) : `i${i}`));
  return `apiVersion: fuzz.example.com/v1
kind: Fuzz
metadata:
  name: x
spec:
  s: ${yq(str)}
  n: ${n}
  l: [${items.join(', ')}]
  ul: [${Array.from({ length: r.int(200) }, (_, i) => `"${'u'.repeat(i % 50)}"`).join(', ')}]
  m: {a: "1", b: "2", k: ${yq(str)}}
  o: {x: ${r.pick(['1', '"y"', '[1, 2]', '{z: 1}', 'null', `[${Array.from({ length: 2000 }, (_, i) => `"${'s'.repeat(i % 50)}"`).join(', ')}]`])}}
`;
}

test('random and blow-up CEL rules: the CRD check and the CR check stay within budget', () => {
  const r = new Rng(SEED ^ 0xcafe);
  const p = new Probe(SEED);
  const s = new LanguageService();
  const t0 = performance.now();
  const n = iterations(6);
  let done = 0;
  const blowups = [...CEL_BLOWUPS, ...(LONG ? CEL_LONG_BLOWUPS : [])];
  const nBlowups = blowups.length;
  // Every blow-up runs; then `n` random rule sets.
  for (let i = 0; i < nBlowups + n; i++, done++) {
    const rules = blowups.length ? [blowups.shift()!] : Array.from({ length: 1 + r.int(4) }, () => celExpr(r));
    const crdTd = TextDocument.create('file:///fuzz/cel-crd.yaml', 'yaml', i + 1, celCrd(rules));
    // (blow-ups: the checks and the rule hovers only; positional features are for the random rules)
    const positions = i < nBlowups ? 0 : 1;
    exercise(p, r, s, crdTd, `CEL rules ${JSON.stringify(rules).slice(0, 1500)}`, positions);
    // Hover on each rule's text (the rule hover shows types and cost estimates).
    const text = crdTd.getText();
    for (let at = text.indexOf('rule: '); at >= 0; at = text.indexOf('rule: ', at + 1)) {
      const pos = crdTd.positionAt(at + 8);
      p.call(
        'hover on rule',
        () => `rules ${JSON.stringify(rules)}`,
        () => s.hover(crdTd, pos),
        heldChars(s),
      );
      p.call(
        'completion in rule',
        () => `rules ${JSON.stringify(rules)}`,
        () => s.completion(crdTd, pos),
        heldChars(s),
      );
    }
    const crTd = TextDocument.create('file:///fuzz/cel-cr.yaml', 'yaml', i + 1, celCr(r));
    exercise(p, r, s, crTd, `CR for CEL rules ${JSON.stringify(rules).slice(0, 1500)}`, positions);
  }
  finish(p, 'CEL', done, t0);
});

test('random and catastrophic regex patterns: CRD check and CR validation stay linear', () => {
  const r = new Rng(SEED ^ 0xbeef);
  const p = new Probe(SEED);
  const s = new LanguageService();
  const t0 = performance.now();
  const n = iterations(6);
  let done = 0;
  const blowups = [...REGEX_BLOWUPS];
  // Linear-time matching still costs length × pattern size: 50 kB against a 2,000-state pattern is
  // ~0.2 s per match here, so one field gets the long value (the long run tries 100 kB).
  const attack = ['a'.repeat(30) + '!', 'a'.repeat(LONG ? 100_000 : 50_000) + '!', 'x'.repeat(50_000), '', 'aaaa', ' '.repeat(10_000) + 'x'];
  // Every blow-up runs; then `n` random patterns.
  for (let i = 0; i < REGEX_BLOWUPS.length + n; i++, done++) {
    const pat = blowups.length ? blowups.shift()! : regexPattern(r);
    const crd = crdYaml(
      `type: object
properties:
  spec:
    type: object
    properties:
      s:
        type: string
        pattern: ${yq(pat)}
      m:
        type: object
        additionalProperties:
          type: string
          pattern: ${yq(pat)}
      l:
        type: array
        items:
          type: string
          pattern: ${yq(pat)}
    x-kubernetes-validations:
    - rule: ${yq(`!has(self.s) || self.s.matches(${JSON.stringify(pat)})`)}
`,
      FUZZ_CRD,
    );
    const crdTd = TextDocument.create('file:///fuzz/re-crd.yaml', 'yaml', i + 1, crd);
    exercise(p, r, s, crdTd, `pattern ${JSON.stringify(pat)}`, 1);
    // Blow-up patterns always meet the long value; random ones a random value.
    const v = i < REGEX_BLOWUPS.length ? attack[1] : r.pick(attack);
    const where = r.int(3);
    const val = (k: number) => yq(k === where ? v : 'aab');
    const crTd = TextDocument.create('file:///fuzz/re-cr.yaml', 'yaml', i + 1, `apiVersion: fuzz.example.com/v1\nkind: Fuzz\nmetadata:\n  name: x\nspec:\n  s: ${val(0)}\n  m: {a: ${val(1)}}\n  l: [${val(2)}, "b"]\n`);
    exercise(p, r, s, crTd, `CR for pattern ${JSON.stringify(pat)} value ${v.slice(0, 40)}(${v.length})`, 1);
  }
  finish(p, 'regex', done, t0);
});

test('heap stays bounded over many edits of the same documents', () => {
  const r = new Rng(SEED ^ 0x77);
  const p = new Probe(SEED);
  const s = baseService();
  const file = SAMPLE_PAIRS.length ? SAMPLE_PAIRS[0][0] : EXAMPLES[0];
  const crd = SMALL_CRDS.length ? r.pick(SMALL_CRDS) : EXAMPLES[0];
  const docs = [file, crd].map((f, i) => ({ td: TextDocument.create(`file:///fuzz/heap${i}.yaml`, 'yaml', 1, readText(f)), text: readText(f), orig: readText(f) }));
  const round = (k: number) => {
    for (let i = 0; i < k; i++) {
      const d = docs[i % 2];
      // Drift back to the original now and then, so the text stays a CRD/CR and not noise.
      const next = r.chance(0.1) ? d.orig : mutate(r, d.text, 1);
      TextDocument.update(d.td, [{ text: next }], d.td.version + 1);
      d.text = next;
      p.call(
        'update',
        () => next,
        () => update(s, d.td),
        heldChars(s) + next.length,
      );
      p.call(
        'diagnostics',
        () => next,
        () => s.findings(d.td),
        heldChars(s),
      );
    }
  };
  const t0 = performance.now();
  const n = iterations(45);
  round(Math.ceil(n / 3));
  const h1 = heapMB();
  round(n);
  const h2 = heapMB();
  console.log(`# heap: ${h1.toFixed(1)} MB after warm-up, ${h2.toFixed(1)} MB after ${n} more edits`);
  // Caches are bounded by count; what they hold for two small documents is a few MB, not a leak per edit.
  if (h2 - h1 > 60) p.add('memory', `heap grew ${(h2 - h1).toFixed(1)} MB over ${n} edits of two documents`, `${file}, ${crd}`);
  finish(p, 'heap', n, t0);
});

test('semantic CRD mutations (schema keywords of right and wrong shapes): the CRD and its CRs are checked without internal errors', () => {
  const r = new Rng(SEED ^ 0x5e3a);
  const p = new Probe(SEED);
  const s = new LanguageService();
  const crs = EXAMPLES.filter((f) => /crontab-(?!crd)/.test(f)).map((f) => [f, EXAMPLES.find((x) => x.endsWith('crontab-crd.yaml'))!] as [string, string]);
  const pairs = [...crs, ...SAMPLE_PAIRS];
  const t0 = performance.now();
  const n = iterations(5);
  let done = 0;
  for (let i = 0; i < n; i++, done++) {
    const [crFile, crdFile] = r.pick(pairs);
    const crd = parseYaml(readText(crdFile)) as unknown;
    mutateCrdObject(r, crd, 1 + r.int(5));
    const crdText = stringifyYaml(crd, { lineWidth: 0 });
    const crdTd = TextDocument.create('file:///fuzz/semantic-crd.yaml', 'yaml', i + 1, crdText);
    exercise(p, r, s, crdTd, `mutated CRD from ${crdFile}`, 1);
    // The CR: as written, or with a few values replaced by random ones.
    let crText = readText(crFile);
    if (r.chance(0.5)) {
      const docs = parseAllDocuments(crText).map((d) => d.toJS() as unknown);
      for (const d of docs) {
        for (let k = r.int(4); k > 0; k--) {
          const spec = (d as { spec?: Record<string, unknown> })?.spec;
          if (spec && typeof spec === 'object') {
            const keys = Object.keys(spec);
            spec[keys.length && r.chance(0.7) ? r.pick(keys) : 'extra'] = randomJson(r);
          }
        }
      }
      crText = docs.map((d) => stringifyYaml(d, { lineWidth: 0 })).join('---\n');
    }
    const crTd = TextDocument.create('file:///fuzz/semantic-cr.yaml', 'yaml', i + 1, crText);
    exercise(p, r, s, crTd, `CR ${crFile} against a mutated CRD:\n${short(crdText)}\nCR`, 1);
  }
  finish(p, 'semantic CRD mutations', done, t0);
});

// Known service issue (reported to the language-service owner): engineCalls.ts caches CRD checks in an
// LRU of 200 entries keyed by the document's full text, so every keystroke in a large CRD keeps one more
// copy of it alive (2.9 MB per keystroke on argo-workflows' cronworkflows CRD, ~560 MB at the LRU's
// cap). Long run only (it re-checks a large CRD per keystroke); `todo` until the cache is keyed by a
// digest or bounded by size, then it must pass.
test('heap per keystroke in a large CRD stays well under the size of its text', { skip: !LONG, todo: 'service: CRD-check cache keyed by full text' }, () => {
  const files = realCrdFiles(400_000).filter((f) => statSync(f).size > 200_000);
  if (!files.length) return;
  const file = files[0];
  const text = readText(file);
  const s = new LanguageService();
  const td = TextDocument.create('file:///fuzz/large-crd.yaml', 'yaml', 1, text);
  s.update(td);
  s.findings(td);
  const n = 30;
  const h0 = heapMB();
  for (let i = 0; i < n; i++) {
    // A keystroke inside a description near the middle (a realistic edit).
    const at = text.indexOf('description: ', (text.length >> 1) + i * 500) + 13;
    TextDocument.update(td, [{ range: { start: td.positionAt(at), end: td.positionAt(at) }, text: 'x' }], td.version + 1);
    s.update(td);
    s.findings(td);
  }
  const perKeystroke = ((heapMB() - h0) * 2 ** 20) / n;
  console.log(`# large CRD ${file}: ${(perKeystroke / 1024).toFixed(0)} kB heap per keystroke (text ${(text.length / 1024).toFixed(0)} kB)`);
  assert.ok(perKeystroke < text.length / 4, `${(perKeystroke / 1024).toFixed(0)} kB retained per keystroke in a ${(text.length / 1024).toFixed(0)} kB CRD`);
});
