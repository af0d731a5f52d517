/**
 * Hostile input by class (issue 11), against the real server over stdio. For each class: while the
 * attacked document is being checked, a normal, already checked custom resource is hovered again and
 * again; then the attacked document must have its findings (or the bound's finding), and a normal CRD
 * and CR must be checked correctly afterwards.
 *
 * What is asserted holds on a loaded machine, because it is work and order, never time:
 * - the main thread parses nothing and checks nothing (its parse counter, and the bundle: see
 *   threads.test.ts), and the query worker that answers the hovers never touched the attacked document
 *   (no task, no parse): so no hover can wait for the attack;
 * - the check worker parsed each version of the attacked documents at most once (its parse counter);
 * - the work of checking the attacked texts is within the engine's bounds and linear in their size: the
 *   same language service the check worker runs checks them in this process under the fuzz probe
 *   (probe.ts: CEL work by cost, pattern steps by budgets, YAML nodes decoded and indexed per character),
 *   and what a bound cut, the findings say;
 * - the first hover sent as the attack starts is answered before the attacked document's diagnostics are
 *   published (counted in messages received), and hovers are answered while the check worker is inside a
 *   check (crdYaml/stats): order and counters show that the hover did not wait for the attack;
 * - the server's peak resident memory grows by less than the stated bound, 20 × the attack's size +
 *   128 MB, over what it held before.
 * The hover latencies (p50/p99/max) and the check worker's CPU time on the attacked document are
 * measured and printed, never asserted. The time limits left (the attacked document's final diagnostics,
 * the workspace scan) only end a test that would otherwise wait forever for a server that hangs or died;
 * they fail with what was last seen and decide nothing else.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LanguageService } from '../../server/src/service/languageService';
import { aliasWidthCr, EXPENSIVE_PATTERN, expensivePatternCr, expensivePatternCrd, hugeCr, hugeIntegerCr, manyDocuments, oneLineListCr, outOfRangeChange, Rng, seed, wideMapCr, widgetCr, widgetFile } from './gen';
import { crdYaml } from '../crd';
import { FuzzServer, percentile } from './server';
import { decodedNodes, Probe } from './probe';

const SEED = seed();
const WIDGET_CRD = readFileSync(join(__dirname, '..', 'service', 'fixtures', 'widget-crd.yaml'), 'utf8');
/**
 * The stated memory bound (README): 20 times the attack's size plus 128 MB, over what the server held
 * before the attack (its three isolates, the index, the normal documents).
 */
const memoryBoundMB = (bytes: number) => 128 + (20 * bytes) / 1048576;
let hugeReplicas = BigInt(0);
/**
 * Valid custom resources that ride along with an attack that is cheap on its own now that it is bounded
 * (a pattern cut by its budget, a few huge integers, edits, links): about half a second of checking, so
 * that "the hover came back before the attacked document's diagnostics" is an order that says something.
 */
const BALLAST = () => `---\n${widgetFile(2500, 'ballast')}`;

interface Attacked {
  uri: string;
  /** Bytes of hostile input sent. */
  size: number;
  /** Whether the attacked document's diagnostics are its final ones. */
  done: (d: Diagnostic[]) => boolean;
  /** The final texts of the documents the attack opened, in order (uri, text): checked again in this process. */
  texts: Array<[string, string]>;
  /** Versions of documents the attack sent (opens and changes): what the check worker may parse. */
  versions: number;
}

interface Attack {
  name: string;
  /** Starts the attack (opens or edits documents; not waiting for their checks). */
  start(s: FuzzServer, ws: string, r: Rng): Promise<Attacked>;
  /** More checks on the outcome. */
  after?(s: FuzzServer, a: Attacked, diags: Diagnostic[]): Promise<void>;
  /** Workspace entries before the server starts. */
  prepare?(ws: string): void;
}

/**
 * Resolves with the attacked document's diagnostics once `done` accepts them. The time limit is a hang
 * guard only (a server that never publishes would keep the test waiting forever): it fails with the
 * latest diagnostics seen, and no verdict depends on how long the check took.
 */
async function finalDiagnostics(s: FuzzServer, uri: string, done: (d: Diagnostic[]) => boolean, timeoutMs: number): Promise<Diagnostic[]> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const p = s.latest.get(uri);
    if (p && done(p.diagnostics)) return p.diagnostics;
    if (s.proc.exitCode !== null) throw new Error(`server exited: ${s.stderr.slice(-2000)}`);
    if (performance.now() > deadline) throw new Error(`hang guard: no final diagnostics for ${uri} within ${timeoutMs} ms (latest: ${JSON.stringify(p?.diagnostics.slice(0, 3))})`);
    await new Promise((res) => setTimeout(res, 25));
  }
}

/** The API server's exact text of a diagnostic (the first related entry), or its message when they are the same. */
function apiText(d: Diagnostic): string {
  const r = d.relatedInformation?.find((x) => x.message.startsWith('API server: '));
  return r ? r.message.slice('API server: '.length) : String(d.message);
}

function noNullPositions(ds: Diagnostic[]): void {
  for (const d of ds) for (const p of [d.range.start, d.range.end]) assert.ok(Number.isInteger(p.line) && Number.isInteger(p.character), JSON.stringify(d.range));
}

/**
 * The attacked texts checked again in this process by the language service the check worker runs, under
 * the fuzz probe: no exception, work within the engine's bounds (CEL work by cost, pattern steps by
 * budgets, YAML key-index and alias-walk nodes per character), YAML nodes decoded at most one per
 * character, and what a bound cut (a pattern check) said in the findings.
 */
function checkedWithinBounds(ws: string, a: Attacked): void {
  const p = new Probe(SEED);
  const s = new LanguageService({ unknownKinds: 'ignore' });
  s.indexDiskFile(`file://${ws}/widget.yaml`, WIDGET_CRD);
  let held = WIDGET_CRD.length;
  for (const [uri, text] of a.texts) {
    held += text.length;
    const td = TextDocument.create(uri, 'yaml', 1, text);
    const what = () => `${uri} (${text.length} characters)`;
    p.call('update', what, () => s.update(td), held);
    const findings = p.call('findings', what, () => s.findings(td), held) ?? [];
    if (p.last.patternRefused > 0 && !findings.some((f) => f.code === 'NotChecked')) p.add('findings', `${p.last.patternRefused} pattern match(es) cut by the work bound, no NotChecked finding`, what());
    const nodes = decodedNodes(s.file(td));
    if (nodes > text.length + 1) p.add('decode', `${nodes} YAML nodes decoded and keys looked up for ${text.length} characters`, what());
  }
  assert.deepEqual(p.findings, [], p.report());
}

async function runAttack(t: { diagnostic: (m: string) => void }, attack: Attack, timeoutMs = 60_000): Promise<void> {
  const r = new Rng(SEED);
  const ws = mkdtempSync(join(tmpdir(), 'crd-yaml-attack-'));
  writeFileSync(join(ws, 'widget.yaml'), WIDGET_CRD);
  attack.prepare?.(ws);
  const s = await FuzzServer.start(ws);
  try {
    // A normal custom resource, checked, and hovered once (the query worker has it parsed).
    const normal = `file://${ws}/normal.yaml`;
    await s.open(normal, widgetCr('normal'));
    assert.deepEqual(await s.diagnosticsFor(normal, 1), []);
    const sizePos = { line: 5, character: 3 };
    // The workspace scan indexes widget.yaml: then the hover knows the field. (600 tries: a hang guard.)
    for (let i = 0; !/How big the widget is/.test(JSON.stringify((await s.timedHover(normal, sizePos)).result)); i++) {
      assert.ok(i < 600, 'hang guard: the workspace scan never indexed widget.yaml');
      await new Promise((res) => setTimeout(res, 50));
    }
    // The scan is over (its end re-checks the open documents): what follows is the attack's work only.
    await s.scanned();
    await s.settle(200);
    const before = await s.stats();
    const rssBefore = s.memoryMB().rss;

    const publishedBefore = s.publications.length;
    const attacked = await attack.start(s, ws, r);
    // The first hover goes out at once: it must come back before the attacked document's diagnostics,
    // which the check worker publishes when its check ends (the order proves the hover did not wait).
    // Order by count: how many publications had been received when its answer was.
    let publishedAtFirstHover = Number.NaN;
    const firstHover = s.timedHover(normal, sizePos).then((h) => {
      publishedAtFirstHover = s.publications.length;
      return h;
    });
    const latencies: number[] = [];
    let final: Diagnostic[] | undefined;
    let failed: unknown;
    const finished = finalDiagnostics(s, attacked.uri, attacked.done, timeoutMs).then(
      (d) => (final = d),
      (e) => (failed = e),
    );
    const hoverLine = () =>
      `${attack.name}: ${latencies.length} hovers during the attack: p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`;
    const fh = await firstHover;
    assert.match(JSON.stringify(fh.result), /How big the widget is/, 'hover answers during the attack');
    latencies.push(fh.ms);
    while (!final && !failed) {
      const h = await s.timedHover(normal, sizePos);
      assert.match(JSON.stringify(h.result), /How big the widget is/, 'hover answers during the attack');
      latencies.push(h.ms);
      await Promise.race([finished, new Promise((res) => setTimeout(res, 10))]);
    }
    if (failed) {
      t.diagnostic(hoverLine());
      throw failed;
    }
    const diags = final!;
    noNullPositions(diags);
    const after = await s.stats();
    const mem = s.memoryMB();
    // (The check worker's publications carry the version; the main thread's clearing of an out-of-sync document does not.)
    const firstPublished = s.publications.findIndex((p, i) => i >= publishedBefore && p.uri === attacked.uri && p.version !== undefined);
    const during = after.main.answeredDuringChecks - before.main.answeredDuringChecks;
    const growth = mem.peak - rssBefore;
    t.diagnostic(
      `${hoverLine()}; ` +
        `check CPU on the attacked document ${(after.check?.cpuByDocument[attacked.uri] ?? 0).toFixed(0)} ms; peak RSS ${mem.peak.toFixed(0)} MB (${growth.toFixed(0)} MB over the ${rssBefore.toFixed(0)} MB before, bound ${memoryBoundMB(attacked.size).toFixed(0)} MB); ` +
        `hovers answered while the check worker was checking: ${during}`,
    );
    // Order, not time: the first hover came back before the attacked document's first diagnostics, and
    // hovers were answered while the check worker was inside a check.
    assert.ok(firstPublished >= 0, 'the attacked document got diagnostics');
    assert.ok(firstPublished >= publishedAtFirstHover, 'the first hover was answered before the attacked document was checked');
    assert.ok(during >= 1, 'hovers answered while the check worker was checking');

    // Structural: the main thread parses nothing; the query worker never touched the attacked document.
    assert.equal(after.main.parses, 0);
    assert.equal(after.query?.cpuByDocument[attacked.uri], undefined, 'the query worker had no task on the attacked document');
    assert.equal(after.query?.parses, before.query?.parses, 'the query worker parsed nothing new');
    assert.equal(after.query!.tasks - before.query!.tasks, latencies.length, 'every hover was answered by the query worker');
    // Work bounds: each version the attack sent parsed once at most by the check worker; the check's work
    // (in this process, the same service) within the engine's bounds; the memory bound.
    assert.ok(after.check!.parses - before.check!.parses <= attacked.versions, `the check worker parsed ${after.check!.parses - before.check!.parses} times for ${attacked.versions} versions`);
    checkedWithinBounds(ws, attacked);
    assert.ok(growth < memoryBoundMB(attacked.size), `peak RSS ${mem.peak} MB: ${growth} MB over the ${rssBefore} MB before, bound ${memoryBoundMB(attacked.size)} MB`);
    assert.equal(after.workerRestarts, 0);
    await attack.after?.(s, attacked, diags);

    // A normal CR and a normal CRD are checked correctly afterwards.
    await s.conn.sendNotification('textDocument/didChange', {
      textDocument: { uri: normal, version: 2 },
      contentChanges: [{ text: widgetCr('normal').replace('replicas: 2', 'replicas: 9') }],
    });
    const rechecked = await s.diagnosticsFor(normal, 2);
    assert.equal(rechecked.length, 1);
    assert.match(String(rechecked[0].message), /too many replicas/);
    const crd = `file://${ws}/later-crd.yaml`;
    await s.open(crd, crdYaml('type: object\nproperties:\n  spec:\n    type: objekt\n', { kind: 'Later', group: 'later.example.com' }));
    const crdDiags = await s.diagnosticsFor(crd, 1);
    assert.ok(
      crdDiags.some((d) => /Unsupported value: "objekt"/.test(apiText(d))),
      JSON.stringify(crdDiags.map(apiText)),
    );
    assert.deepEqual(s.failures(), []);
  } finally {
    await s.stop();
    rmSync(ws, { recursive: true, force: true });
  }
}

const ATTACKS: Attack[] = [
  {
    name: 'expensive pattern (CR value and CRD default, 100 KB each)',
    async start(s, ws) {
      const crd = `file://${ws}/patterned-crd.yaml`;
      const crdText = expensivePatternCrd(EXPENSIVE_PATTERN, 100_000);
      await s.open(crd, crdText);
      await finalDiagnostics(s, crd, (d) => d.some((x) => x.code === 'NotChecked'), 30_000);
      const uri = `file://${ws}/patterned.yaml`;
      const text = expensivePatternCr(100_000) + BALLAST();
      await s.open(uri, text);
      return {
        uri,
        size: crdText.length + text.length,
        done: (d) => d.some((x) => x.code === 'NotChecked'),
        texts: [
          [crd, crdText],
          [uri, text],
        ],
        versions: 2,
      };
    },
    async after(s, a, diags) {
      assert.deepEqual(diags.map((d) => [d.code, d.severity, apiText(d)]).sort(), [
        ['FieldValueInvalid', 1, `spec.name: Invalid value: "Not-Lower": spec.name in body should match '^[a-z]+$'`],
        ['NotChecked', 3, 'spec.value: Not checked: pattern too expensive for a value of 100000 characters'],
      ]);
      const crd = s.latest.get(a.uri.replace('patterned.yaml', 'patterned-crd.yaml'))!.diagnostics;
      assert.deepEqual(crd.map(apiText), ['spec.validation.openAPIV3Schema.properties[spec].properties[value].default: Not checked: pattern too expensive for a value of 100000 characters']);
    },
  },
  {
    name: 'huge integers (beyond 2^53 and int64) in a CR, and its preview',
    async start(s, ws, r) {
      const uri = `file://${ws}/huge.yaml`;
      const first = hugeIntegerCr(r);
      hugeReplicas = first.replicas;
      // Each document has its huge integers (the first one's preview is read below).
      const text = [first.text, ...Array.from({ length: 2500 }, (_, i) => hugeIntegerCr(r, `huge-${i}`).text)].join('---\n');
      await s.open(uri, text);
      return { uri, size: text.length, done: (d) => d.length > 0, texts: [[uri, text]], versions: 1 };
    },
    async after(s, a) {
      const p = (await s.conn.sendRequest('crdYaml/preview', { textDocument: { uri: a.uri }, position: { line: 0, character: 0 } })) as { object: { spec: { replicas: unknown } }; yaml: string } | null;
      assert.ok(p, 'preview answers');
      // Beyond 2^53: the exact digits as a string in the JSON object, as a number in the YAML text.
      assert.equal(p.object.spec.replicas, hugeReplicas.toString());
      assert.match(p.yaml, new RegExp(`replicas: ${hugeReplicas}\\b`));
    },
  },
  {
    name: 'out-of-range and malformed incremental edits, then the full text',
    async start(s, ws, r) {
      const uri = `file://${ws}/edited.yaml`;
      let text = widgetCr('edited') + BALLAST();
      // The burst is made before the document is opened: it follows the open at once (made in between, the
      // document's first check could end, and publish, before the first hover is sent).
      const lines = text.split('\n').length;
      const burst = Array.from({ length: 300 }, () => Array.from({ length: 1 + r.int(3) }, () => outOfRangeChange(r, lines)));
      await s.open(uri, text);
      let version = 1;
      let size = text.length;
      for (const changes of burst) {
        size += JSON.stringify(changes).length;
        void s.conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: ++version }, contentChanges: changes });
      }
      // A full text brings the document back in sync, whatever happened before.
      text = widgetCr('edited').replace('replicas: 2', 'replicas: 7') + BALLAST();
      void s.conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: ++version }, contentChanges: [{ text }] });
      const v = version;
      return { uri, size, done: (d) => s.latest.get(uri)?.version === v && d.length === 1, texts: [[uri, text]], versions: v };
    },
    async after(s, a, diags) {
      assert.equal(diags.length, 1);
      assert.match(String(diags[0].message), /too many replicas/);
      // The burst's edits all have ranges: a malformed one was rejected (the document went out of sync), the
      // well-formed ones after it were ignored until the full text; each notification is counted once at most.
      const st = await s.stats();
      assert.ok(st.main.rejectedChanges > 0 && st.main.ignoredChanges > 0, JSON.stringify(st.main));
      assert.ok(st.main.rejectedChanges + st.main.ignoredChanges + st.main.clampedChanges <= 300, JSON.stringify(st.main));
      // Clamped, not dropped: an insertion past the last line lands at the end of the document.
      const v = s.latest.get(a.uri)!.version! + 1;
      await s.conn.sendNotification('textDocument/didChange', {
        textDocument: { uri: a.uri, version: v },
        contentChanges: [{ range: { start: { line: 999_999, character: 5 }, end: { line: 1_000_000, character: 0 } }, text: 'bad: [\n' }],
      });
      const d = await s.diagnosticsFor(a.uri, v);
      const st2 = await s.stats();
      assert.deepEqual(
        [st2.main.clampedChanges - st.main.clampedChanges, st2.main.rejectedChanges - st.main.rejectedChanges, st2.main.ignoredChanges - st.main.ignoredChanges],
        [1, 0, 0],
        'the edit past the last line was clamped',
      );
      const syntax = d.filter((x) => x.code === 'YAMLSyntax');
      // The text ends with a newline: the insertion lands on its last (empty) line.
      const lastLine = (widgetCr('edited') + BALLAST()).split('\n').length - 1;
      assert.ok(syntax.length > 0 && syntax.every((x) => x.range.start.line >= lastLine), JSON.stringify(d));
      noNullPositions(d);
    },
  },
  {
    name: 'wide map: 40,000 keys in one mapping',
    async start(s, ws, r) {
      const uri = `file://${ws}/wide.yaml`;
      const text = wideMapCr(r, 40_000);
      await s.open(uri, text);
      // Checked to the end: the unknown field is reported (strict field validation), the rest is valid.
      return { uri, size: text.length, done: (d) => d.some((x) => x.code === 'UnknownField' && /spec\.labels/.test(String(x.message))), texts: [[uri, text]], versions: 1 };
    },
  },
  {
    name: 'alias width: a few hundred KB that expand to millions of nodes',
    async start(s, ws) {
      const uri = `file://${ws}/aliases.yaml`;
      const text = aliasWidthCr(100, 40_000);
      await s.open(uri, text);
      // go-yaml v2's bound, as kubectl reports it.
      return { uri, size: text.length, done: (d) => d.some((x) => /document contains excessive aliasing/.test(apiText(x))), texts: [[uri, text]], versions: 1 };
    },
  },
  {
    name: 'a 2 MB list on one line',
    async start(s, ws, r) {
      const uri = `file://${ws}/oneline.yaml`;
      const text = oneLineListCr(r, 2 * 1024 * 1024);
      await s.open(uri, text);
      // Its findings, or the YAML layer's memory bound saying it was not checked.
      return { uri, size: text.length, done: (d) => d.length > 0, texts: [[uri, text]], versions: 1 };
    },
  },
  {
    name: '100,000 documents in one file',
    async start(s, ws) {
      const uri = `file://${ws}/many.yaml`;
      const text = manyDocuments(100_000);
      await s.open(uri, text);
      return { uri, size: text.length, done: () => true, texts: [[uri, text]], versions: 1 };
    },
  },
  {
    name: 'a 20 MB custom resource',
    async start(s, ws, r) {
      const uri = `file://${ws}/huge-input.yaml`;
      const text = hugeCr(r, 20 * 1024 * 1024);
      await s.open(uri, text);
      return { uri, size: text.length, done: (d) => d.length > 0, texts: [[uri, text]], versions: 1 };
    },
  },
  {
    name: 'symlink workspace: self-links and a link to /, scanned while a CR is open',
    prepare(ws) {
      symlinkSync('.', join(ws, 'a'));
      symlinkSync('.', join(ws, 'b'));
      symlinkSync('/', join(ws, 'root'));
    },
    async start(s, ws) {
      const uri = `file://${ws}/linked.yaml`;
      const text = widgetCr('linked').replace('size: small', 'size: huge') + BALLAST();
      await s.open(uri, text);
      return { uri, size: text.length, done: (d) => d.some((x) => x.code === 'FieldValueNotSupported'), texts: [[uri, text]], versions: 1 };
    },
    async after(s) {
      // One CRD indexed (widget.yaml), read once: not through a, b or root.
      assert.equal((await s.stats()).check!.tasks >= 1, true);
    },
  },
];

for (const a of ATTACKS) {
  test(`attack: ${a.name}`, async (t) => {
    await runAttack(t, a);
  });
}
