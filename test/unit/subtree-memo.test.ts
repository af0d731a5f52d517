/**
 * Incremental to the subtree: a CRD re-checked with the subtree memo after a keystroke (the value rebuilt
 * copy-on-write by the YAML layer, as in the editor) gives exactly the findings of a plain check, over
 * random keystrokes in every real CRD of ../shared/realworld/crds (descriptions, keys, types, CEL rules,
 * bounds, defaults, anywhere); and the memo re-checks only the path to the edit (work counted, not timed).
 *
 * SUBTREE_EDITS=N (default 4) sets the keystrokes per CRD, SUBTREE_SEED the seed; CRDs over 1 MB but
 * the argo-workflows CronWorkflow are left out unless SUBTREE_ALL=1.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { validateCustomResourceDefinition } from '../../server/src/engine/crd/validation';
import { SubtreeMemo, withSubtreeMemo } from '../../server/src/engine/field/memo';
import { parseYamlDocuments, type YamlFile } from '../../server/src/yaml';
import { needsShared, sharedPath, yamlFilesUnder } from '../shared';

const NO_SHARED = needsShared('realworld', 'crds');
const CRDS = sharedPath('realworld', 'crds');
const EDITS = Number(process.env.SUBTREE_EDITS ?? 4);
/** Larger CRDs take seconds to parse: one of them (the bench's), unless SUBTREE_ALL=1. */
const LARGE = 1_000_000;
const LARGE_KEPT = 'argoproj.io_cronworkflows.yaml';
const SEED = Number(process.env.SUBTREE_SEED ?? 12);

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    return s / 2 ** 32;
  };
}

type Edit = { at: number; del: number; ins: string; where: string };

/** Offsets just after every match of `re` (a value or key to type into). */
function positions(text: string, re: RegExp): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(re)) out.push(m.index! + m[0].length);
  return out;
}

/**
 * One keystroke somewhere a CRD author types: inside a description, a key, a type, a rule, a bound, a
 * default, anywhere, or in a key above the previous keystroke (moving the subtree it may have broken).
 */
function keystroke(text: string, rand: () => number, previous: number | undefined): Edit {
  const pick = <T>(xs: T[]): T | undefined => (xs.length ? xs[Math.floor(rand() * xs.length)] : undefined);
  const char = (s: string) => s[Math.floor(rand() * s.length)];
  const kinds: Array<() => Edit | undefined> = [
    () => {
      const at = pick(positions(text, /description: /g));
      return at === undefined ? undefined : { at: at + Math.floor(rand() * 4), del: rand() < 0.3 ? 1 : 0, ins: char('abx .'), where: 'description' };
    },
    () => {
      // A property name: the key line under `properties:`.
      const at = pick(positions(text, /properties:\n */g));
      return at === undefined ? undefined : { at: at + Math.floor(rand() * 3), del: rand() < 0.4 ? 1 : 0, ins: rand() < 0.7 ? char('abxyz') : '', where: 'key' };
    },
    () => {
      const at = pick(positions(text, /type: /g));
      return at === undefined ? undefined : { at, del: rand() < 0.5 ? 1 : 0, ins: char('aosnib'), where: 'type' };
    },
    () => {
      const at = pick(positions(text, /rule: ['"|>]?/g));
      return at === undefined ? undefined : { at: at + Math.floor(rand() * 8), del: rand() < 0.3 ? 1 : 0, ins: char(' .x()=!1'), where: 'rule' };
    },
    () => {
      const at = pick(positions(text, /(maxItems|maxLength|maxProperties|minimum|maximum|minLength): /g));
      return at === undefined ? undefined : { at, del: 0, ins: char('0123456789'), where: 'bound' };
    },
    () => {
      const at = pick(positions(text, /default: /g));
      return at === undefined ? undefined : { at, del: rand() < 0.5 ? 1 : 0, ins: char('x1{}"'), where: 'default' };
    },
    () => {
      if (previous === undefined) return undefined;
      // A property name on the path to the previous edit (its subtree, possibly broken, moves).
      const at = pick(ancestorPropertyKeys(text, previous));
      return at === undefined ? undefined : { at: at + Math.floor(rand() * 2), del: 0, ins: char('abxyz'), where: 'ancestor key' };
    },
    () => {
      const line = text.lastIndexOf('\n', Math.floor(rand() * text.length)) + 1;
      const indent = /^ */.exec(text.slice(line))![0].length;
      return { at: line + indent + Math.floor(rand() * 6), del: rand() < 0.3 ? 1 : 0, ins: rand() < 0.8 ? char('ax :-#"[0') : '', where: 'anywhere' };
    },
  ];
  for (;;) {
    const e = pick(kinds)!();
    if (!e || e.at > text.length) continue;
    // One line, as a keystroke is.
    if (text.slice(e.at, e.at + e.del).includes('\n')) e.del = 0;
    return e;
  }
}

/** The offsets of the property names whose subtrees hold `offset` (by block indentation). */
function ancestorPropertyKeys(text: string, offset: number): number[] {
  const lines: { at: number; indent: number; key: string }[] = [];
  let minIndent = Infinity;
  for (let end = text.lastIndexOf('\n', offset - 1); end > 0 && minIndent > 0; ) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    const m = /^( *)(?:- )?([\w.-]+):/.exec(text.slice(start, end));
    if (m && m[1].length < minIndent) {
      minIndent = m[1].length;
      lines.push({ at: start + m[1].length, indent: m[1].length, key: m[2] });
    }
    end = start - 1;
  }
  // lines[i + 1] is the parent of lines[i]: a property name sits right under `properties:`.
  return lines.filter((_l, i) => lines[i + 1]?.key === 'properties').map((l) => l.at);
}

/** The CRD value of a parsed file (its first CustomResourceDefinition document). */
function crdOf(f: YamlFile): unknown {
  return f.documents.map((d) => d.value).find((v) => (v as { kind?: unknown } | null)?.kind === 'CustomResourceDefinition');
}

/** The number of schema nodes of a CRD value (what a plain check walks). */
function schemaNodes(v: unknown): number {
  if (Array.isArray(v)) return v.reduce<number>((n, x) => n + schemaNodes(x), 0);
  if (typeof v !== 'object' || v === null) return 0;
  return 1 + Object.values(v).reduce<number>((n, x) => n + schemaNodes(x), 0);
}

test('subtree memo: a CRD re-checked after random keystrokes = a plain check, recomputing only the edited path', { skip: NO_SHARED }, () => {
  const rand = rng(SEED);
  let edits = 0;
  let syntaxBroken = 0;
  let withErrors = 0;
  let rebased = 0;
  const shares: number[] = [];
  for (const path of yamlFilesUnder(CRDS)) {
    let text = readFileSync(path, 'utf8');
    if (text.length > LARGE && !path.endsWith(LARGE_KEPT) && !process.env.SUBTREE_ALL) continue;
    let file = parseYamlDocuments(text);
    if (!crdOf(file)) continue;
    const memo = new SubtreeMemo();
    withSubtreeMemo(memo, () => validateCustomResourceDefinition(crdOf(file)));
    const nodes = schemaNodes(crdOf(file));
    let previous: number | undefined;
    for (let i = 0; i < EDITS; i++) {
      const e = keystroke(text, rand, previous);
      previous = e.at;
      text = text.slice(0, e.at) + e.ins + text.slice(e.at + e.del);
      // The editor's parse: the previous one is consumed, unchanged subtrees keep their objects.
      file = parseYamlDocuments(text, { previous: file, consumePrevious: true });
      const crd = crdOf(file);
      if (file.errors.some((x) => x.severity === 'error')) syntaxBroken++;
      memo.resetStats();
      const got = withSubtreeMemo(memo, () => validateCustomResourceDefinition(crd));
      const computed = memo.computedTotal;
      rebased += memo.stats.rebased;
      const want = validateCustomResourceDefinition(crd);
      assert.deepStrictEqual(got, want, `${path}: ${e.where} edit ${JSON.stringify(e)}`);
      if (want.length > 0) withErrors++;
      if (crd !== undefined && nodes > 2000) shares.push(computed / nodes);
      edits++;
    }
  }
  assert.ok(edits >= 100 * EDITS, `edits: ${edits}`);
  // The comparison is not vacuous: keystrokes leave the YAML readable, many break the CRD, and subtrees
  // were found at other paths (renamed keys above them) and moved.
  assert.ok(syntaxBroken < edits / 2, `syntax broken by ${syntaxBroken} of ${edits} keystrokes`);
  assert.ok(withErrors > edits / 5, `keystrokes with findings: ${withErrors} of ${edits}`);
  assert.ok(rebased > 0, 'no subtree was moved');
  // Work counted: on large CRDs the median keystroke recomputes a small share of the nodes.
  shares.sort((a, b) => a - b);
  const median = shares[Math.floor(shares.length / 2)];
  assert.ok(median < 0.05, `median share of nodes recomputed: ${median}`);
});

/** The value with `f` applied at `path`, copy-on-write: every object off the path is shared. */
function updateAt(v: unknown, path: (string | number)[], f: (x: unknown) => unknown): unknown {
  if (path.length === 0) return f(v);
  const [k, ...rest] = path;
  if (Array.isArray(v)) return v.map((x, i) => (i === k ? updateAt(x, rest, f) : x));
  const o = v as Record<string, unknown>;
  return { ...o, [k]: updateAt(o[k], rest, f) };
}

/** Paths of the schema nodes of a CRD value (through properties, items, additionalProperties). */
function schemaPaths(crd: unknown): (string | number)[][] {
  const out: (string | number)[][] = [];
  const walk = (s: unknown, p: (string | number)[]) => {
    if (typeof s !== 'object' || s === null || Array.isArray(s)) return;
    out.push(p);
    const n = s as Record<string, unknown>;
    if (typeof n.properties === 'object' && n.properties) for (const k of Object.keys(n.properties)) walk((n.properties as Record<string, unknown>)[k], [...p, 'properties', k]);
    walk(n.items, [...p, 'items']);
    walk(n.additionalProperties, [...p, 'additionalProperties']);
  };
  const versions = (crd as { spec?: { versions?: { schema?: { openAPIV3Schema?: unknown } }[] } }).spec?.versions ?? [];
  versions.forEach((v, i) => walk(v.schema?.openAPIV3Schema, ['spec', 'versions', i, 'schema', 'openAPIV3Schema']));
  return out;
}

/** Breaks a schema node the way a half-typed edit does (one finding or more, some printing their path). */
const BREAKS: Array<(s: Record<string, unknown>) => Record<string, unknown>> = [
  (s) => ({ ...s, type: 'strin' }),
  (s) => ({ ...s, uniqueItems: true }),
  (s) => ({ ...s, typo: 1 }), // an unknown keyword: strict decoding prints its path
  (s) => ({ ...s, 'x-kubernetes-list-type': 'map' }),
  (s) => ({ ...s, default: { unknown: 1 } }),
  (s) => ({ ...s, 'x-kubernetes-validations': [{ rule: 'self.nope == oldSelf.nope' }] }),
];

test('subtree memo: broken subtrees moved under renamed keys are rebased exactly', { skip: NO_SHARED }, () => {
  const rand = rng(SEED + 1);
  let moves = 0;
  let rebased = 0;
  for (const path of yamlFilesUnder(CRDS).filter((_, i) => i % 4 === 0)) {
    const text = readFileSync(path, 'utf8');
    if (text.length > 400_000) continue;
    let crd = crdOf(parseYamlDocuments(text));
    if (!crd) continue;
    const memo = new SubtreeMemo();
    withSubtreeMemo(memo, () => validateCustomResourceDefinition(crd));
    for (let i = 0; i < 6; i++) {
      const paths = schemaPaths(crd);
      if (paths.length < 3) break;
      const target = paths[Math.floor(rand() * paths.length)];
      if (i % 2 === 0) {
        crd = updateAt(crd, target, (s) => BREAKS[Math.floor(rand() * BREAKS.length)](s as Record<string, unknown>));
      } else {
        // Rename a property on the path to a node: its subtree object moves as it is.
        const at = target.lastIndexOf('properties');
        if (at < 0) continue;
        const key = target[at + 1] as string;
        crd = updateAt(crd, target.slice(0, at + 1), (m) => Object.fromEntries(Object.entries(m as Record<string, unknown>).map(([k, v]) => [k === key ? `${k}x` : k, v])));
        moves++;
      }
      memo.resetStats();
      const got = withSubtreeMemo(memo, () => validateCustomResourceDefinition(crd));
      rebased += memo.stats.rebased;
      assert.deepStrictEqual(got, validateCustomResourceDefinition(crd), `${path}: step ${i} at ${target.join('.')}`);
    }
  }
  assert.ok(moves > 20 && rebased > moves, `moves ${moves}, rebased ${rebased}`);
});
