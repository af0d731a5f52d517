/**
 * A parsed YAML document turned into the JSON value the API server receives from kubectl, with
 * kubectl's errors where it cannot read the document. kubectl (cli-runtime's StreamVisitor) decodes
 * each document with sigs.k8s.io/yaml: go-yaml v2 decodes it into interface{}, map keys are turned
 * into strings and encoding/json writes the result (see resolve.ts for scalars). This module walks the
 * `yaml` package's AST in go-yaml's decoding order and restates, in one linear pass:
 *
 * - go-yaml v2's decoder (decode.go): aliases (the latest anchor before them; an alias inside its own
 *   anchor is "anchor 'x' value contains itself"), merge keys (`<<` sets the merged keys at its place,
 *   so a later key wins; in a list of maps the earlier map wins), collection keys ("invalid map key"),
 *   and the "excessive aliasing" bound on decode operations. An alias is not expanded: its value is the
 *   anchored node's value (shared, never modified) and its cost is counted as go-yaml counts it, so a
 *   document that would expand to millions of nodes costs one walk of its text;
 * - sigs.k8s.io/yaml's key conversion (null and uint64 keys refused) and encoding/json's refusal of
 *   infinities and NaN;
 * - duplicate keys: go-yaml keeps the last value silently (kubectl converts YAML to JSON before sending,
 *   so the API server never sees the duplicate); found here with one hash lookup per key.
 */
import { isAlias, isMap, isPair, isScalar, isSeq, type Alias, type Document, type Node, type Scalar } from 'yaml';
import { decodeDoubleQuoted } from './quoted';
import type { YamlSyntaxError } from './problem';
import { GoDecodeError, JsonValueError, KeyConversionError, formatGoG, isMergeKey, jsonValue, mapKey, resolveScalar, type GoScalar } from './resolve';

/** go-yaml v2's alias_ratio_range_low: up to this many decode operations, 99% may come from aliases. */
export const ALIAS_RATIO_RANGE_LOW = 400_000;
/** go-yaml v2's alias_ratio_range_high: from this many decode operations on, 10% may come from aliases. */
export const ALIAS_RATIO_RANGE_HIGH = 4_000_000;

/** go-yaml v2's allowedAliasRatio(decodeCount). */
export function allowedAliasRatio(decodeCount: number): number {
  if (decodeCount <= ALIAS_RATIO_RANGE_LOW) return 0.99;
  if (decodeCount >= ALIAS_RATIO_RANGE_HIGH) return 0.1;
  return 0.99 - 0.89 * ((decodeCount - ALIAS_RATIO_RANGE_LOW) / (ALIAS_RATIO_RANGE_HIGH - ALIAS_RATIO_RANGE_LOW));
}

/** go-yaml v2's check in unmarshal, after counting an operation. */
export function excessiveAliasing(decodeCount: number, aliasCount: number): boolean {
  return aliasCount > 100 && decodeCount > 1000 && aliasCount / decodeCount > allowedAliasRatio(decodeCount);
}

/** A problem found while decoding, with offsets into the text given. */
export type DecodeProblem = YamlSyntaxError;

/** What decoding a document did: the work counters tests and the fuzz tier bound. */
export interface DecodeWork {
  /** go-yaml's decodeCount: every node decoded, aliased nodes counted once per use. */
  decodeCount: number;
  /** go-yaml's aliasCount: the operations of that count spent inside aliases. */
  aliasCount: number;
  /** AST nodes visited by this walk (aliased nodes are not walked again). */
  nodesVisited: number;
  /** Hash lookups made to find duplicate keys (one per explicit key). */
  keyLookups: number;
}

export interface DecodeResult {
  value: unknown;
  problems: DecodeProblem[];
  work: DecodeWork;
}

const KUBECTL = 'error converting YAML to JSON: ';

/** Ends the walk: go-yaml's failf. */
class Abort extends Error {
  constructor(readonly problem: DecodeProblem) {
    super(problem.message);
  }
}

interface Decoded {
  /** The JSON value (shared with other uses of the same anchor: never modify). */
  value: unknown;
  /** Decode operations go-yaml spends on this node (saturating: a document may claim 2^100). */
  size: number;
}

/**
 * Decodes a document's AST as kubectl does. `text` is the text the AST's ranges index (kubectl's line
 * numbers count from the line after the document's `---`).
 */
export function decodeDocument(doc: Document.Parsed, text: string, opts: { yaml12?: boolean } = {}): DecodeResult {
  const d = new Decoder(doc, text, opts.yaml12 === true);
  const problems: DecodeProblem[] = [];
  let value: unknown = null;
  let decoded = false;
  try {
    // What go-yaml's parser refuses (escapes, unknown anchors) comes before anything is decoded.
    if (!opts.yaml12) d.parseChecks();
    d.count(); // the document node
    if (doc.contents) value = d.node(doc.contents as Node).value;
    decoded = true;
  } catch (e) {
    if (!(e instanceof Abort)) throw e;
    problems.push(e.problem);
    value = d.partial;
  }
  problems.push(...d.problems);
  // encoding/json then refuses the infinities and NaN that are still in the value (a later duplicate key
  // or merge may have replaced them); they become null for the engine, which takes JSON only.
  if (d.sawNotJson || d.pendingKeys.size) value = d.settle(value, decoded && !problems.some((p) => p.severity === 'error'), problems);
  return { value, problems, work: d.work };
}

/** An infinity or NaN in the value being built, with the node it came from. */
class NotJsonNumber {
  constructor(
    readonly value: number,
    readonly node: Node | null,
  ) {}
}

class Decoder {
  readonly work: DecodeWork = { decodeCount: 0, aliasCount: 0, nodesVisited: 0, keyLookups: 0 };
  readonly problems: DecodeProblem[] = [];
  /** The root value built so far, for a document whose decoding failed half-way. */
  partial: unknown = null;
  /** Some value could not be written as JSON (a NotJsonNumber is in the tree). */
  sawNotJson = false;
  /** Mappings with keys sigs.k8s.io/yaml cannot convert, and the problems to report if they stay in the value. */
  readonly pendingKeys = new Map<object, DecodeProblem[]>();
  private keyProblem?: () => DecodeProblem;
  private readonly anchors = new Map<string, Node>();
  /** Nodes being decoded (an alias to one of them is a cycle) and decoded nodes' results. */
  private readonly open = new Set<Node>();
  private readonly done = new Map<Node, Decoded>();
  private aliasDepth = 0;
  /** Double-quoted scalars decoded as libyaml decodes them (only those with escapes or Unicode line breaks). */
  private readonly quoted = new Map<Scalar, string>();

  constructor(
    private readonly doc: Document.Parsed,
    private readonly text: string,
    /** Scalars as the `yaml` package typed them (YAML 1.2 core) instead of as go-yaml v2 does. */
    private readonly yaml12: boolean,
  ) {}

  /** One decode operation of go-yaml (unmarshal), with its aliasing check. */
  count(node?: Node | null): void {
    const w = this.work;
    w.decodeCount++;
    if (this.aliasDepth > 0) w.aliasCount++;
    if (excessiveAliasing(w.decodeCount, w.aliasCount))
      this.fail(node, 'EXCESSIVE_ALIASING', 'document contains excessive aliasing', 'anchors and aliases expand to far more than the document itself (kubectl refuses such documents)');
  }

  fail(node: Node | null | undefined, code: string, goError: string, plain: string): never {
    const [start, end] = this.rangeOf(node);
    throw new Abort({ severity: 'error', code, message: plain, kubectl: `${KUBECTL}yaml: ${goError}`, start, end });
  }

  rangeOf(node: Node | null | undefined): [number, number] {
    const r = node?.range;
    if (r) return [r[0], Math.max(r[0], r[1])];
    const c = (this.doc.contents as Node | null)?.range;
    return c ? [c[0], c[1]] : [0, 0];
  }

  /** Decodes a node (its unmarshal operation already counted by the caller unless `counted` is false). */
  node(n: Node | null, counted = false): Decoded {
    if (!counted) this.count(n);
    const before = this.work.decodeCount;
    this.work.nodesVisited++;
    if (n?.anchor) this.anchors.set(n.anchor, n);
    let value: unknown;
    if (n === null || isScalar(n)) value = this.scalar(n);
    else if (isAlias(n)) return this.alias(n);
    else if (isMap(n)) value = this.map(n);
    else if (isSeq(n)) value = this.seq(n);
    else value = null;
    const res = { value, size: this.work.decodeCount - before + 1 };
    if (n) this.done.set(n, res);
    return res;
  }

  alias(a: Alias): Decoded {
    const target = this.anchors.get(a.source);
    if (!target) this.fail(a, 'UNKNOWN_ANCHOR', `unknown anchor '${a.source}' referenced`, `no anchor &${a.source} before this alias`);
    if (this.open.has(target)) this.fail(a, 'ALIAS_CYCLE', `anchor '${a.source}' value contains itself`, `the alias *${a.source} is inside its own anchor`);
    const t = this.done.get(target);
    if (!t) this.fail(a, 'UNKNOWN_ANCHOR', `unknown anchor '${a.source}' referenced`, `no anchor &${a.source} before this alias`);
    this.aliasRun(a, t.size);
    return { value: t.value, size: 1 + t.size };
  }

  /**
   * The decode operations of one alias use: `size` operations, all inside the alias. The ratio can
   * only grow during them and the allowed ratio only shrink, so go-yaml fails inside the run exactly
   * when it fails at its end.
   */
  aliasRun(at: Node, size: number): void {
    const w = this.work;
    const d = w.decodeCount + size;
    const a = w.aliasCount + size;
    w.decodeCount = d;
    w.aliasCount = a;
    if (excessiveAliasing(d, a)) this.fail(at, 'EXCESSIVE_ALIASING', 'document contains excessive aliasing', 'anchors and aliases expand to far more than the document itself (kubectl refuses such documents)');
  }

  scalar(s: Scalar | null): unknown {
    return this.jsonOf(this.goScalar(s), s);
  }

  pendOn(o: object, problems: DecodeProblem[]): void {
    const list = this.pendingKeys.get(o);
    if (list) list.push(...problems);
    else this.pendingKeys.set(o, [...problems]);
  }

  /** A scalar's JSON value; an infinity or NaN is kept as a NotJsonNumber until the value is complete. */
  jsonOf(go: GoScalar, at: Node | null): unknown {
    try {
      return jsonValue(go);
    } catch (e) {
      if (!(e instanceof JsonValueError)) throw e;
      this.sawNotJson = true;
      return new NotJsonNumber((go as { value: number }).value, at);
    }
  }

  /**
   * The value with each NotJsonNumber replaced by null (in place: the objects are this decode's own),
   * reporting, when `report`, the mappings with unconvertible keys and the infinities that remain in it
   * (sigs.k8s.io/yaml and encoding/json see only the final value).
   */
  settle(value: unknown, report: boolean, problems: DecodeProblem[]): unknown {
    const seen = new Set<object>();
    const reported = new Set<Node | null>();
    const reportedKeys = new Set<string>();
    const fix = (x: unknown): unknown => {
      if (!(x instanceof NotJsonNumber)) return x;
      if (report && !reported.has(x.node)) {
        reported.add(x.node);
        problems.push(this.notJsonProblem(x.node, x.value));
      }
      return null;
    };
    const stack: unknown[] = [value];
    while (stack.length) {
      const x = stack.pop();
      if (!x || typeof x !== 'object' || x instanceof NotJsonNumber || seen.has(x)) continue;
      seen.add(x);
      for (const p of (report && this.pendingKeys.get(x)) || []) {
        const id = `${p.start}:${p.end}`;
        if (!reportedKeys.has(id)) problems.push(p);
        reportedKeys.add(id);
      }
      if (Array.isArray(x)) {
        for (let i = 0; i < x.length; i++) {
          x[i] = fix(x[i]);
          stack.push(x[i]);
        }
      } else if (Object.getPrototypeOf(x) === Object.prototype) {
        const o = x as Record<string, unknown>;
        for (const k of Object.keys(o)) {
          const v = fix(o[k]);
          if (v !== o[k]) setKey(o, k, v);
          stack.push(v);
        }
      }
    }
    if (problems.length) problems.sort((a, b) => a.start - b.start);
    return fix(value);
  }

  notJsonProblem(at: Node | null, f: number): DecodeProblem {
    const [start, end] = this.rangeOf(at);
    const word = at ? this.text.slice(start, end) : '';
    const go = Number.isNaN(f) ? 'NaN' : f > 0 ? '+Inf' : '-Inf';
    return {
      severity: 'error',
      code: 'NOT_JSON',
      message: `${word || 'this value'} is ${Number.isNaN(f) ? 'NaN' : 'infinite'}, which JSON cannot carry: kubectl refuses the file`,
      kubectl: `${KUBECTL}json: unsupported value: ${go}`,
      start,
      end,
    };
  }

  /** What go-yaml decodes a scalar (or an empty node) into. */
  goScalar(s: Scalar | null): GoScalar {
    if (!s) return { kind: 'null' };
    if (this.yaml12) return yaml12Scalar(s.value);
    const tag = s.tag ?? '';
    const plain = s.type === 'PLAIN' || s.type === undefined;
    const source = this.quoted.get(s) ?? (typeof s.source === 'string' ? s.source : String(s.value ?? ''));
    try {
      return resolveScalar(source, plain, tag);
    } catch (e) {
      if (!(e instanceof GoDecodeError)) throw e;
      this.fail(s, 'TAG_MISMATCH', e.message, e.message.startsWith('!!binary') ? 'this !!binary value is not valid base64' : `the value does not fit its tag ${tagWord(tag)}`);
    }
  }

  /**
   * What go-yaml's parser refuses, in document order, before anything is decoded: escapes of
   * double-quoted scalars (decoded here as libyaml decodes them) and aliases with no anchor before them.
   */
  parseChecks(): void {
    const backslash = this.text.includes('\\') || /[\u0085\u2028\u2029]/.test(this.text);
    const anchors = new Set<string>();
    const stack: unknown[] = [this.doc.contents];
    while (stack.length) {
      const n = stack.pop();
      if (!n || typeof n !== 'object') continue;
      if (isPair(n)) {
        stack.push(n.value, n.key);
        continue;
      }
      if (isAlias(n)) {
        if (!anchors.has(n.source)) this.fail(n, 'UNKNOWN_ANCHOR', `unknown anchor '${n.source}' referenced`, `no anchor &${n.source} before this alias`);
        continue;
      }
      const a = (n as Node).anchor;
      if (a) anchors.add(a);
      if (isMap(n) || isSeq(n)) for (let i = n.items.length - 1; i >= 0; i--) stack.push(n.items[i]);
      else if (backslash && isScalar(n) && n.type === 'QUOTE_DOUBLE' && n.range) {
        const raw = this.text.slice(n.range[0], n.range[1]);
        if (!raw.includes('\\') && !/[\u0085\u2028\u2029]/.test(raw)) continue;
        const dq = decodeDoubleQuoted(raw);
        if (dq && 'error' in dq) this.scanFail(n.range[0] + dq.at, dq.error);
        if (dq) this.quoted.set(n, dq.value);
      }
    }
  }

  /** A go-yaml scanner error at an escape (kubectl prints its 1-based line, except on the first line). */
  scanFail(at: number, goError: string): never {
    const line = this.kubectlLine(at);
    const where = line > 0 ? `line ${line + 1}: ` : '';
    const e = this.text[at + 1];
    const len = e === 'x' ? 4 : e === 'u' ? 6 : e === 'U' ? 10 : 2;
    const esc = this.text.slice(at, Math.min(this.text.length, at + len));
    const plain =
      goError === 'found unknown escape character'
        ? `kubectl does not know the escape ${esc}${esc === '\\/' ? ' (write / alone)' : ''}`
        : goError === 'found invalid Unicode character escape code'
          ? `${esc} is not a Unicode character kubectl accepts (surrogates and code points beyond U+10FFFF are refused)`
          : `the escape ${esc} is incomplete`;
    const kubectl = `${KUBECTL}yaml: ${where}${goError}`;
    throw new Abort({ severity: 'error', code: 'BAD_ESCAPE', message: plain, kubectl, start: at, end: at + esc.length });
  }

  /** 0-based line of an offset as kubectl counts it: from the line after the document's `---`. */
  kubectlLine(at: number): number {
    let line = 0;
    for (let i = 0; i < at; i++) if (this.text.charCodeAt(i) === 10) line++;
    return /^---(?:[ \t]|\r?\n|$)/.test(this.text) ? line - 1 : line;
  }

  seq(s: import('yaml').YAMLSeq): unknown[] {
    this.open.add(s);
    const out: unknown[] = [];
    if (this.partial === null) this.partial = out;
    for (const it of s.items as Array<Node | null>) {
      if (isPair(it)) out.push(this.singlePairMap(it));
      else out.push(this.node(it).value);
    }
    this.open.delete(s);
    return out;
  }

  /** A `[a: 1]` pair inside a flow sequence: a one-entry map to go-yaml. */
  singlePairMap(p: import('yaml').Pair): Record<string, unknown> {
    this.count();
    const o: Record<string, unknown> = {};
    this.pairs([p], o);
    return o;
  }

  map(m: import('yaml').YAMLMap): Record<string, unknown> {
    this.open.add(m);
    const out: Record<string, unknown> = {};
    if (this.partial === null) this.partial = out;
    this.pairs(m.items as import('yaml').Pair[], out);
    this.open.delete(m);
    return out;
  }

  pairs(items: import('yaml').Pair[], out: Record<string, unknown>): void {
    // Keys written explicitly in this mapping (merged keys may be overridden without a warning).
    const explicit = new Map<string, Node | null>();
    for (const p of items) {
      const k = (p.key ?? null) as Node | null;
      if (isScalar(k) && isMergeKey(String(k.source ?? ''), k.type === 'PLAIN', k.tag ?? '')) {
        if (k.anchor) this.anchors.set(k.anchor, k);
        this.merge((p.value ?? null) as Node | null, out);
        continue;
      }
      const key = this.key(k, () => this.goSyntaxOf((p.value ?? null) as Node | null));
      const keyProblem = this.keyProblem;
      this.keyProblem = undefined;
      const v = this.node((p.value ?? null) as Node | null).value;
      if (key === undefined) {
        if (keyProblem) this.pendOn(out, [keyProblem()]);
        continue;
      }
      this.work.keyLookups++;
      if (explicit.has(key)) {
        const [start, end] = this.rangeOf(k);
        this.problems.push({
          severity: 'warning',
          code: 'DUPLICATE_KEY',
          message: `duplicate key ${JSON.stringify(key)}${this.spelledAs(explicit.get(key) ?? null, key)}: kubectl keeps only this last value`,
          start,
          end,
        });
      }
      explicit.set(key, k);
      setKey(out, key, v);
    }
  }

  /** A map key: decoded as go-yaml does, converted as sigs.k8s.io/yaml does; undefined when refused. */
  key(k: Node | null, valueSyntax: () => string): string | undefined {
    this.count(k);
    let go: GoScalar;
    if (isAlias(k)) {
      const target = this.aliasTarget(k);
      this.alias(k);
      if (isMap(target) || isSeq(target)) this.fail(k, 'INVALID_MAP_KEY', `invalid map key: ${this.goSyntaxOf(target)}`, 'a key that is a list or a map: JSON keys are strings');
      go = this.goScalar(isScalar(target) ? target : null);
    } else if (isMap(k) || isSeq(k)) {
      this.node(k, true);
      this.fail(k, 'INVALID_MAP_KEY', `invalid map key: ${this.goSyntaxOf(k)}`, 'a key that is a list or a map: JSON keys are strings');
    } else {
      // A scalar key: an infinity is a fine key (`.inf`), so its JSON value is only checked where an
      // alias uses it as a value.
      this.work.nodesVisited++;
      if (k?.anchor) this.anchors.set(k.anchor, k);
      go = this.goScalar(k);
      if (k) this.done.set(k, { value: this.jsonOf(go, k), size: 1 });
    }
    try {
      return mapKey(go, () => '');
    } catch (e) {
      if (!(e instanceof KeyConversionError)) throw e;
      const [start, end] = this.rangeOf(k);
      // Made once the value is decoded (its anchors known), and reported if the mapping is still in
      // the value at the end (sigs.k8s.io/yaml converts the final value).
      this.keyProblem = () => {
        let msg = '';
        try {
          mapKey(go, valueSyntax);
        } catch (err) {
          msg = (err as Error).message;
        }
        return {
          severity: 'error',
          code: 'INVALID_MAP_KEY',
          message: `${go.kind === 'null' ? 'an empty (null) key' : 'a key beyond int64'}: kubectl cannot turn it into a JSON key`,
          kubectl: KUBECTL + msg,
          start,
          end,
        };
      };
      return undefined;
    }
  }

  /** `` (`on` above reads as "true" too)`` when the earlier key is written otherwise (YAML 1.1 words, numbers). */
  spelledAs(earlier: Node | null, key: string): string {
    const [start, end] = this.rangeOf(earlier);
    let written = this.text.slice(start, end);
    if (/^(["']).*\1$/s.test(written)) written = written.slice(1, -1);
    if (written === key) return '';
    return ` (\`${written.length > 40 ? `${written.slice(0, 40)}...` : written}\` above reads as ${JSON.stringify(key)} too)`;
  }

  aliasTarget(a: Alias): Node | null {
    return this.anchors.get(a.source) ?? null;
  }

  /** go-yaml's merge: a map, an alias of a map, or a list of those (the earlier wins). */
  merge(v: Node | null, out: Record<string, unknown>): void {
    const wantMap = (at: Node | null): never => this.fail(at, 'BAD_MERGE', 'map merge requires map or sequence of maps as the value', 'a merge key `<<` needs a map, an alias of a map or a list of those');
    const one = (n: Node | null) => {
      if (isMap(n)) return this.node(n).value;
      if (isAlias(n)) {
        if (!isMap(this.aliasTarget(n))) wantMap(n);
        this.count(n);
        return this.alias(n).value;
      }
      return wantMap(n);
    };
    const take = (m: unknown) => {
      assign(out, m);
      // The merged mapping's unconvertible keys are now this mapping's too.
      const pending = m && typeof m === 'object' ? this.pendingKeys.get(m) : undefined;
      if (pending) this.pendOn(out, pending);
    };
    if (isSeq(v)) {
      const maps: unknown[] = [];
      for (let i = v.items.length - 1; i >= 0; i--) {
        const it = v.items[i] as Node | null;
        if (!isMap(it) && !(isAlias(it) && isMap(this.aliasTarget(it)))) wantMap(it);
        maps.push(one(it));
      }
      for (const m of maps) take(m);
      return;
    }
    take(one(v));
  }

  /** Go's %#v of what go-yaml decodes a node into (for kubectl's messages). */
  goSyntaxOf(n: Node | null, top = true, budget = { n: 200 }): string {
    if (--budget.n < 0) return '...';
    if (isAlias(n)) return this.goSyntaxOf(this.aliasTarget(n), top, budget);
    if (isMap(n)) {
      // The decoded map: a repeated key keeps its last value; fmt prints keys sorted.
      const entries = new Map<string, string>();
      for (const p of n.items) {
        const k = this.goSyntaxOf((p.key ?? null) as Node | null, false, budget);
        entries.set(k, `${k}:${this.goSyntaxOf((p.value ?? null) as Node | null, false, budget)}`);
      }
      // fmt's order puts nil first; keys of other types are ordered by type, then value (approximated).
      const rank = (k: string) => (k === 'interface {}(nil)' ? 0 : 1);
      const sorted = [...entries].sort((a, b) => rank(a[0]) - rank(b[0]) || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      return `map[interface {}]interface {}{${sorted.map((e) => e[1]).join(', ')}}`;
    }
    if (isSeq(n)) return `[]interface {}{${n.items.map((x) => this.goSyntaxOf(x as Node | null, false, budget)).join(', ')}}`;
    let go: GoScalar;
    try {
      go = this.goScalar(isScalar(n) ? n : null);
    } catch {
      return '?';
    }
    switch (go.kind) {
      case 'null':
        return top ? '<nil>' : 'interface {}(nil)';
      case 'bool':
        return String(go.value);
      case 'int':
        return go.value.toString();
      case 'uint':
        return `0x${go.value.toString(16)}`;
      case 'float':
        return formatGoG(go.value, 64);
      case 'string':
        return JSON.stringify(go.value);
    }
  }
}

function tagWord(tag: string): string {
  return tag.startsWith('tag:yaml.org,2002:') ? `!!${tag.slice(18)}` : tag;
}

/** A scalar as the `yaml` package resolved it (the YAML 1.2 mode). */
function yaml12Scalar(v: unknown): GoScalar {
  if (v === null || v === undefined) return { kind: 'null' };
  if (typeof v === 'boolean') return { kind: 'bool', value: v };
  if (typeof v === 'bigint') return { kind: 'int', value: v };
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 2 ** 63 ? { kind: 'int', value: BigInt(v) } : { kind: 'float', value: v };
  if (v instanceof Uint8Array) return { kind: 'string', value: Buffer.from(v).toString('base64') };
  if (v instanceof Date) return { kind: 'string', value: v.toISOString() };
  return { kind: 'string', value: String(v) };
}

function assign(out: Record<string, unknown>, m: unknown): void {
  if (!m || typeof m !== 'object' || Array.isArray(m)) return;
  for (const k of Object.keys(m)) setKey(out, k, (m as Record<string, unknown>)[k]);
}

/** Assign without invoking the `__proto__` setter: a YAML key is data. */
export function setKey(o: Record<string, unknown>, k: string, x: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: x, enumerable: true, writable: true, configurable: true });
  else o[k] = x;
}
