import { isJSONObject } from '../engine';
import { identifyObject } from '../yaml';
/**
 * The index of CustomResourceDefinitions known to a session: CRDs in open documents (which win) and in
 * workspace files, keyed by group and kind, with change detection so that only the CRs depending on a
 * changed CRD are re-checked.
 */

/** A CRD document found somewhere, with enough to locate it again. */
export interface IndexedCrd {
  /** URI of the file holding it. */
  uri: string;
  /** Document index in that file. */
  docIndex: number;
  /** Zero-based line of the document's first line in the file. */
  startLine: number;
  /** The document's text (also its identity for caches). */
  text: string;
  /** The CRD as JSON. */
  crd: Record<string, unknown>;
  /** metadata.name */
  name: string;
  group: string;
  kind: string;
  plural: string;
  /** Unique per distinct CRD text: caches of results that depend on this CRD key on it. */
  id: number;
  /** The document has YAML syntax errors: its value is partial, objects are not checked against it. */
  broken?: boolean;
  /** Set by the index: where it was recorded from. */
  source?: CrdSourceKind;
  /** Its text is plain block YAML (yaml/block.ts read its value): keys can be located without a parse. */
  blockYaml?: boolean;
  /**
   * A Kubernetes built-in kind's schemas in CRD form (service/builtins.ts): no file, no text; its
   * versions are those with a schema at the target Kubernetes version.
   */
  builtin?: { namespaced: boolean; kubernetesMinor: number };
  /** Fetched from the CRD catalog (workspace/catalog.ts): its URL and the catalog's tag. */
  catalog?: CrdOrigin;
}

/** Where a catalog CRD came from (findings carry it as their `crdSource`). */
export interface CrdOrigin {
  url: string;
  tag: string;
}

/** The order of definitions of one group/kind (the first is in use): see CrdIndex. */
function compareDefinitions(a: IndexedCrd, b: IndexedCrd): number {
  return Number(!!a.broken) - Number(!!b.broken) || SOURCE_RANK[a.source ?? 'disk'] - SOURCE_RANK[b.source ?? 'disk'] || (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0) || a.docIndex - b.docIndex;
}

/** The `group/kind` key CRs are resolved by (kinds are case-sensitive in Kubernetes). */
export function crdKey(group: string, kind: string): string {
  return `${group}/${kind}`;
}

/** A document of a file, as the index needs it (structurally typed: any YAML layer can supply it). */
export interface SourceDocument {
  index: number;
  text: string;
  value: unknown;
  startLine: number;
  /** The document has YAML syntax errors. */
  broken?: boolean;
}

/** Whether a JSON value is a CustomResourceDefinition object (any apiextensions version). */
export function isCrdObject(v: unknown): v is Record<string, unknown> {
  return identifyObject(v).kind === 'crd';
}

/**
 * Whether a file's text can hold a CRD at all: its kind must be spelled out somewhere, directly or with
 * escapes of a double-quoted (or JSON) string. A file of custom resources then needs no parse to be
 * indexed. (A backslash alone is no sign: Helm templates are full of them in regular expressions, and
 * 48 files of prometheus-community's charts were parsed for it, 1 s of its check.)
 */
export function mayHoldCrd(text: string): boolean {
  if (text.includes('CustomResourceDefinition')) return true;
  return text.includes('\\') && withEscapesRead(text).includes('CustomResourceDefinition');
}

/** libyaml's escapes of double-quoted scalars (yaml/quoted.ts) and escaped line breaks, with the next line's indentation. */
const ESCAPE = /\\(?:x([0-9A-Fa-f]{2})|u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(?:\r\n|[\r\n\u0085\u2028\u2029])[ \t]*|([\s\S]))/g;

/**
 * The text with every escape read as a double-quoted scalar reads it, inside such scalars or not: what a
 * scalar spells with escapes is spelled out in the result (elsewhere, reading escapes only adds text).
 */
function withEscapesRead(text: string): string {
  return text.replace(ESCAPE, (_m, x?: string, u?: string, U?: string, other?: string) => {
    const hex = x ?? u ?? U;
    if (hex === undefined) return other ?? '';
    const cp = parseInt(hex, 16);
    return cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
  });
}

let nextId = 1;
const idByText = new Map<string, number>();
let idChars = 0;

const idByValue = new WeakMap<object, { text: string; id: number }>();

/**
 * The id of a CRD text, found by its parsed value first: a lookup of a 3 MB text compares it with every
 * text of the same length (V8 hashes long strings by length only), while the text of an unchanged
 * document is the same string object (=== is immediate).
 */
function idOf(text: string, value: object): number {
  const hit = idByValue.get(value);
  if (hit && hit.text === text) return hit.id;
  const id = idFor(text);
  idByValue.set(value, { text, id });
  return id;
}

function idFor(text: string): number {
  let id = idByText.get(text);
  if (id === undefined) {
    id = nextId++;
    idByText.set(text, id);
    idChars += text.length;
    // Bounded (count and characters: each keystroke in a 3 MB CRD is a new text): ids only need to be
    // stable while a text is in use.
    while (idByText.size > 1 && (idByText.size > 20000 || idChars > 48_000_000)) {
      const oldest = idByText.keys().next().value as string;
      idByText.delete(oldest);
      idChars -= oldest.length;
    }
  }
  return id;
}

/**
 * The CRDs among a file's documents. `freshIds`: a new id for each, not looked up by text (a one-shot
 * check, where keeping every text for its id would keep tens of megabytes alive).
 */
export function extractCrds(uri: string, docs: SourceDocument[], opts: { freshIds?: boolean } = {}): IndexedCrd[] {
  const out: IndexedCrd[] = [];
  for (const d of docs) {
    const v = d.value;
    if (!isCrdObject(v)) continue;
    const spec = isJSONObject(v.spec) ? v.spec : {};
    const names = isJSONObject(spec.names) ? spec.names : {};
    const meta = isJSONObject(v.metadata) ? v.metadata : {};
    if (typeof spec.group !== 'string' || typeof names.kind !== 'string') continue;
    out.push({
      uri,
      docIndex: d.index,
      startLine: d.startLine,
      text: d.text,
      crd: v,
      name: typeof meta.name === 'string' ? meta.name : '',
      group: spec.group,
      kind: names.kind,
      plural: typeof names.plural === 'string' ? names.plural : '',
      id: opts.freshIds ? nextId++ : idOf(d.text, v),
      ...(d.broken ? { broken: true } : {}),
    });
  }
  return out;
}

/** CRDs by source (open document or file on disk), resolved by group and kind. */
/** Where an indexed CRD comes from: an open document, a workspace file, or a source outside the workspace. */
export type CrdSourceKind = 'open' | 'disk' | 'external';

/**
 * An open document ranks as the workspace file it is: which definition is in use must not depend on which
 * files are open (the CLI opens every input, the editor a few), only on what the files hold.
 */
const SOURCE_RANK: Record<CrdSourceKind, number> = { open: 0, disk: 0, external: 1 };

/**
 * CRDs by source, resolved by group and kind. When several documents define one group/kind, the one in
 * use is the first by these rules (`definitions` lists them all in this order), the same in the editor
 * (whatever files are open) and in the CLI:
 * 1. a readable one before one with YAML syntax errors;
 * 2. a workspace file (open or not: an open document stands for its file) before a source outside the
 *    workspace (crdSources, Go modules, `--crd` URLs and files outside the CLI's directory, a cluster);
 * 3. then by path (URI), and by position in the file.
 */
export class CrdIndex {
  private readonly sources: Record<CrdSourceKind, Map<string, IndexedCrd[]>> = { open: new Map(), disk: new Map(), external: new Map() };
  /**
   * Every definition by group/kind, the one in use first: kept up to date by each change, which touches
   * only the keys of the source changed (a check of thousands of CRD files changes one source at a time;
   * rebuilding the whole map for each was quadratic: 40 of 60 s over 2,765 catalog files).
   */
  private readonly byKey = new Map<string, IndexedCrd[]>();
  private allCache: IndexedCrd[] | null = null;

  /**
   * Records the CRDs of a source; returns the keys (group/kind) whose resolved CRD changed, so the caller
   * can re-check the CRs that use them.
   */
  set(uri: string, crds: IndexedCrd[], source: CrdSourceKind): string[] {
    return this.change(uri, () => {
      const m = this.sources[source];
      if (crds.length === 0) m.delete(uri);
      else {
        // Marked in place: a lazily parsed CRD (lightIndex.ts) must not be copied (that would parse it).
        for (const c of crds) c.source = source;
        m.set(uri, crds);
      }
    });
  }

  /** Forgets a source (a closed document falls back to its disk copy, if indexed). */
  remove(uri: string, source: CrdSourceKind): string[] {
    return this.change(uri, () => this.sources[source].delete(uri));
  }

  /** The CRDs a source holds (before resolution: shadowed ones included). */
  entriesOf(uri: string, source: CrdSourceKind): IndexedCrd[] {
    return this.sources[source].get(uri) ?? [];
  }

  /** The URIs of the files on disk that hold indexed CRDs. */
  diskSources(): string[] {
    return [...this.sources.disk.keys()];
  }

  /** The URIs of the sources outside the workspace that hold indexed CRDs. */
  externalSources(): string[] {
    return [...this.sources.external.keys()];
  }

  /**
   * Kubernetes' built-in kinds as CRDs (service/builtins.ts, set by the service with `crdYaml.builtins`):
   * what `lookupOrBuiltin` answers where no CRD defines a group/kind.
   */
  builtins?: (group: string, kind: string) => IndexedCrd | undefined;

  /** The CRD defining group/kind (see the class comment for which one when several do). */
  lookup(group: string, kind: string): IndexedCrd | undefined {
    return this.byKey.get(crdKey(group, kind))?.[0];
  }

  /** The CRD defining group/kind, or else the built-in kind's schemas. */
  lookupOrBuiltin(group: string, kind: string): IndexedCrd | undefined {
    return this.lookup(group, kind) ?? this.builtins?.(group, kind);
  }

  /** Every definition of group/kind, the one in use first. */
  definitions(group: string, kind: string): IndexedCrd[] {
    return this.byKey.get(crdKey(group, kind)) ?? [];
  }

  /** Every resolved CRD (one per group/kind). */
  all(): IndexedCrd[] {
    this.allCache ??= [...this.byKey.values()].map((l) => l[0]);
    return this.allCache;
  }

  get size(): number {
    return this.byKey.size;
  }

  /** What a URI puts in the index: a file open in the editor is that document, not also its copy on disk. */
  private contribution(uri: string): IndexedCrd[] {
    const open = this.sources.open.get(uri);
    if (open) return open;
    const disk = this.sources.disk.get(uri) ?? [];
    const external = this.sources.external.get(uri) ?? [];
    return external.length ? [...disk, ...external] : disk;
  }

  /** Applies a change of one URI's sources to the keys it touches; returns those whose CRD in use changed. */
  private change(uri: string, mutate: () => void): string[] {
    const before = this.contribution(uri);
    const inUse = new Map<string, number | undefined>();
    for (const c of before) {
      const k = crdKey(c.group, c.kind);
      if (!inUse.has(k)) inUse.set(k, this.byKey.get(k)?.[0].id);
    }
    mutate();
    const after = this.contribution(uri);
    for (const c of after) {
      const k = crdKey(c.group, c.kind);
      if (!inUse.has(k)) inUse.set(k, this.byKey.get(k)?.[0].id);
    }
    const gone = new Set(before);
    const added = new Map<string, IndexedCrd[]>();
    for (const c of after) {
      const k = crdKey(c.group, c.kind);
      const l = added.get(k);
      if (l) l.push(c);
      else added.set(k, [c]);
    }
    const changed: string[] = [];
    for (const [k, id] of inUse) {
      const l = [...(this.byKey.get(k) ?? []).filter((c) => !gone.has(c)), ...(added.get(k) ?? [])];
      if (l.length > 1) l.sort(compareInIndex);
      if (l.length) this.byKey.set(k, l);
      else this.byKey.delete(k);
      if (l[0]?.id !== id) changed.push(k);
    }
    this.allCache = null;
    return changed;
  }
}

/** The order of compareDefinitions, and between the copies of one place (a disk and an external source) the source's. */
function compareInIndex(a: IndexedCrd, b: IndexedCrd): number {
  return compareDefinitions(a, b) || SOURCE_ORDER.indexOf(a.source ?? 'disk') - SOURCE_ORDER.indexOf(b.source ?? 'disk');
}
const SOURCE_ORDER: CrdSourceKind[] = ['open', 'disk', 'external'];
