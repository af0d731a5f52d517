/**
 * Indexing CRD files on disk without parsing their schemas. A workspace may hold tens of megabytes of
 * CRDs (140 real ones are 34 MB) while the user has a few CRs open: parsing every schema at start-up
 * takes seconds per megabyte and keeps hundreds of megabytes of values alive. The index only needs each
 * CRD's names, so each document is parsed with its `spec.versions` (and v1beta1 `spec.validation`)
 * block left out, and the full value is parsed the first time something asks for it.
 *
 * Exactness: the cut is made on lines by indentation only where YAML block structure makes it safe, and
 * the shortened text must parse without any error and give a CRD with a group and kind; anything else
 * (flow style, directives, several documents in a chunk, ...) returns undefined and the caller parses
 * the file fully as before.
 */
import { detachedString } from '../engine';
import { parseYamlDocuments, splitYamlChunks } from '../yaml';
import { readBlockYaml } from '../yaml/block';
import { extractCrds, type CrdOrigin, type IndexedCrd } from './crdIndex';

/** Keys of `spec` whose blocks hold the schemas (the bulk of a CRD). */
const HEAVY_SPEC_KEYS = new Set(['versions', 'validation']);

/**
 * Where a one-shot check (the CLI) gets a file's text again, so that the index need not keep it: `reread`
 * reads the file again; `held` is told each time a CRD's text or value is read (again) into memory, with
 * `drop` to forget both until the next use (the caller keeps a budget of them, caches.ts).
 */
export interface Rereadable {
  reread: () => string;
  held: (crd: IndexedCrd, chars: number, drop: () => void) => void;
}

/**
 * The CRDs of a file with lazily parsed values, or undefined when the light path does not apply. With
 * `rereadable`, the CRDs do not keep their text either: it is read again on first use.
 */
export function lightCrds(uri: string, text: string, yamlVersion?: '1.1' | '1.2', rereadable?: Rereadable): IndexedCrd[] | undefined {
  if (/^%/m.test(text)) return undefined;
  const out: IndexedCrd[] = [];
  let line = 0;
  let at = 0;
  let docIndex = 0;
  for (const chunk of splitYamlChunks(text)) {
    line += countLines(text, at, chunk.start);
    at = chunk.start;
    const light = lightValue(chunk.text);
    if (light === undefined) return undefined;
    if (light === COMMENTS_ONLY) continue;
    const value = light.value;
    const index = docIndex++;
    const found = extractCrds(uri, [{ index, text: chunk.text, value, startLine: line }], { freshIds: !!rereadable });
    if (found.length === 0) {
      if ((value as { kind?: unknown } | null)?.kind === 'CustomResourceDefinition') return undefined;
      continue;
    }
    const again = rereadable && { ...rereadable, start: chunk.start, end: chunk.end };
    out.push(parsedOnFirstUse(found[0], value as Record<string, unknown>, yamlVersion, again));
  }
  return out;
}

const COMMENTS_ONLY = Symbol('comments only');

/**
 * The value of a CRD document without its heavy blocks (withoutHeavySpecBlocks); undefined when the light
 * path does not apply to it.
 */
function lightValue(chunk: string): { value: unknown } | typeof COMMENTS_ONLY | undefined {
  const short = withoutHeavySpecBlocks(chunk);
  if (short === undefined) return undefined;
  // The fast reader takes generated YAML; anything else (comments only, ...) the full parse.
  const fast = readBlockYaml(short);
  if (fast !== undefined) return { value: fast };
  const docs = parseYamlDocuments(short).documents;
  if (docs.length === 0) return COMMENTS_ONLY;
  if (docs.length !== 1 || docs[0].errors.length) return undefined;
  return { value: docs[0].value };
}

/** What a lazily parsed CRD keeps (the getters below read it). */
interface LazyState {
  /** The document's text, while held. */
  text?: string;
  /** Its full value, once parsed (while held). */
  full?: Record<string, unknown>;
  /** The value of the light parse (without `again`): the fallback of a full parse that gives no CRD. */
  light?: Record<string, unknown>;
  yamlVersion?: '1.1' | '1.2';
  again?: Rereadable & { start: number; end: number };
}

const LAZY = Symbol('lazy CRD');
type LazyCrd = IndexedCrd & { [LAZY]: LazyState };

/**
 * `found` with `crd` parsing the document's text the first time it is read (`fallback` if that fails).
 * With `again`, the text too is read (from the file, chunk `start`-`end`) on first use, both can be
 * dropped, and nothing of the light parse is kept (the fallback is read again from the text if needed).
 *
 * A new object, with `text` and `crd` defined on it by getters that all CRDs share: redefining values as
 * getters, or a getter of its own for each CRD (a hidden class each), turned every CRD into a hash table;
 * with the light value and its text kept, the index of the catalog's 8,295 CRDs took 40 MB of the heap.
 */
function parsedOnFirstUse(found: IndexedCrd, fallback: Record<string, unknown>, yamlVersion?: '1.1' | '1.2', again?: Rereadable & { start: number; end: number }): IndexedCrd {
  const { text, crd: _light, ...names } = found;
  const crd = names as LazyCrd;
  const state: LazyState = again ? { yamlVersion, again } : { text, light: fallback, yamlVersion };
  if (again) {
    // Copied out of the light parse's text, which they would keep alive.
    crd.name = detachedString(crd.name);
    crd.group = detachedString(crd.group);
    crd.kind = detachedString(crd.kind);
    crd.plural = detachedString(crd.plural);
  }
  Object.defineProperty(crd, LAZY, { value: state, writable: true });
  Object.defineProperty(crd, 'text', { enumerable: true, configurable: true, get: lazyText });
  Object.defineProperty(crd, 'crd', { enumerable: true, configurable: true, get: lazyValue });
  return crd;
}

function lazyText(this: LazyCrd): string {
  const state = this[LAZY];
  if (state.text === undefined) {
    const again = state.again!;
    state.text = again.reread().slice(again.start, again.end);
    // Held within the caches' budget, which drops the least recently read (caches.ts).
    again.held(this, state.text.length, () => {
      state.text = undefined;
      state.full = undefined;
    });
  }
  return state.text;
}

function lazyValue(this: LazyCrd): Record<string, unknown> {
  const state = this[LAZY];
  if (!state.full) {
    const text = this.text;
    // Generated CRD YAML is read by the fast block reader; anything else by the full parse.
    const fast = state.yamlVersion === '1.2' ? undefined : readBlockYaml(text);
    const v = fast !== undefined ? fast : parseYamlDocuments(text, { yamlVersion: state.yamlVersion }).documents[0]?.value;
    if (fast !== undefined) this.blockYaml = true;
    // Only the value is taken (the CRD keeps its id): a fresh id, not one looked up by text, which
    // would keep every text read here alive in crdIndex's table (11 MB of argo-helm's check).
    const parsed = extractCrds(this.uri, [{ index: this.docIndex, text, value: v, startLine: this.startLine }], { freshIds: true })[0];
    // The light names are those of the full value (the cut never touches them); the value wins regardless.
    state.full = parsed?.crd ?? state.light ?? lightFallback(this);
  }
  return state.full;
}

/** The light value of a CRD read again (the fallback of a full parse that gives no CRD); its names if the file changed meanwhile. */
function lightFallback(crd: IndexedCrd): Record<string, unknown> {
  const light = lightValue(crd.text);
  return light && light !== COMMENTS_ONLY ? (light.value as Record<string, unknown>) : stubOf(crd);
}

/** An indexed CRD as another thread describes it: its document's text and names, nothing parsed. */
export interface CrdNames {
  docIndex: number;
  startLine: number;
  text: string;
  name: string;
  group: string;
  kind: string;
  plural: string;
  /** A catalog CRD's origin (workspace/catalog.ts). */
  catalog?: CrdOrigin;
}

/** The names of an indexed CRD, to rebuild it elsewhere with `fromNames`. */
export function namesOf(c: IndexedCrd): CrdNames {
  return { docIndex: c.docIndex, startLine: c.startLine, text: c.text, name: c.name, group: c.group, kind: c.kind, plural: c.plural, ...(c.catalog ? { catalog: c.catalog } : {}) };
}

/** An indexed CRD from its names, its value parsed from its text the first time something asks for it. */
export function fromNames(uri: string, n: CrdNames): IndexedCrd | undefined {
  const stub = stubOf(n);
  const crd = extractCrds(uri, [{ index: n.docIndex, text: n.text, value: stub, startLine: n.startLine }])[0];
  if (crd && n.catalog) crd.catalog = n.catalog;
  return crd && parsedOnFirstUse(crd, stub);
}

/** A CRD object of only its names. */
function stubOf(n: Pick<CrdNames, 'name' | 'group' | 'kind' | 'plural'>): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: n.name },
    spec: { group: n.group, names: { kind: n.kind, plural: n.plural } },
  };
}

function countLines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function indentOf(l: string): number {
  let i = 0;
  while (i < l.length && l.charCodeAt(i) === 32) i++;
  return i;
}

/**
 * The chunk without the lines of its `spec.versions` / `spec.validation` blocks (block style only).
 * Undefined when the structure is not the plain block layout this relies on.
 */
export function withoutHeavySpecBlocks(chunk: string): string | undefined {
  if (chunk.includes('\r') && /\r(?!\n)/.test(chunk)) return undefined;
  let out = '';
  let pos = 0;
  let inSpec = false;
  let specIndent = -1;
  while (pos < chunk.length) {
    let nl = chunk.indexOf('\n', pos);
    if (nl < 0) nl = chunk.length;
    const l = chunk.slice(pos, nl);
    const next = Math.min(chunk.length, nl + 1);
    const content = l.trim();
    if (content === '' || content.startsWith('#')) {
      out += chunk.slice(pos, next);
      pos = next;
      continue;
    }
    if (/^ *\t/.test(l)) return undefined;
    const ind = indentOf(l);
    if (ind === 0) {
      inSpec = /^spec:\s*(#.*)?$/.test(l);
      if (/^spec:/.test(l) && !inSpec) return undefined; // flow or inline spec
      specIndent = -1;
    } else if (inSpec) {
      if (specIndent < 0) specIndent = ind;
      const m = ind === specIndent ? /^ *([A-Za-z]+):(\s|$)/.exec(l) : null;
      if (m && HEAVY_SPEC_KEYS.has(m[1])) {
        // The value must be a block (nothing after the colon but a comment).
        if (!/^ *[A-Za-z]+:\s*(#.*)?$/.test(l)) return undefined;
        pos = blockEnd(chunk, next, specIndent);
        continue;
      }
    }
    out += chunk.slice(pos, next);
    pos = next;
  }
  return out;
}

/**
 * Where the block under a key at indent `n` ends (from `from`, the line after the key): at the first line
 * with content indented `n` or less, except a `- ` item at exactly `n` (a sequence may sit at its key's
 * indent). Blank and comment lines do not end it. Native regex search: the block may be megabytes.
 */
function blockEnd(chunk: string, from: number, n: number): number {
  const re = new RegExp(`(?:^|\\n)( {0,${n}})(?=[^ \\n#])`, 'g');
  re.lastIndex = from === 0 ? 0 : from - 1;
  for (;;) {
    const m = re.exec(chunk);
    if (!m) return chunk.length;
    const lineStart = m.index + (chunk[m.index] === '\n' ? 1 : 0);
    const ind = m[1].length;
    const c = chunk.charCodeAt(lineStart + ind);
    const after = chunk.charCodeAt(lineStart + ind + 1);
    if (ind === n && c === 45 /* - */ && (Number.isNaN(after) || after === 32 || after === 10 || after === 13)) continue;
    return lineStart;
  }
}
