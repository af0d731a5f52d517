/**
 * The state a language service keeps between calls: every cache belongs to one LanguageService instance
 * (two services share nothing, and a service in a worker thread has its own), each bounded by a budget
 * named here, and entries of a document are dropped when it closes.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { FieldError } from '../engine';
import { SubtreeMemo } from '../engine';
import type { CustomResourceResult } from '../engine';
import type { Finding } from './finding';
import type { PathLocator, YamlFile } from '../yaml/file';

/** The budgets of the caches below, in one place. */
export const CACHE_BUDGETS = {
  /**
   * CRD documents at least this long are not cached by their text: each keystroke in a 3 MB CRD is a new
   * text, and looking one up compares it with every cached text of the same length (V8 hashes long
   * strings by their length only). The subtree memo makes their re-check cheap instead.
   */
  largeCrdChars: 100_000,
  /** Findings of small CRD texts (by text). */
  crdChecks: 200,
  /** Custom resource checks, by CRD id, version and document text. */
  crChecks: 5000,
  /** Parsed texts of indexed CRDs, for related-information locations and definitions (by text). */
  crdTexts: 200,
  /**
   * Characters of those texts, a parsed one counting PARSED_TEXT_WEIGHT times (a parsed 1.4 MB CRD is
   * 10.5 MB of syntax tree; a text located by indentation keeps only itself). A one-shot check keeps
   * heldCrdChars of them: 200 texts of argo-helm's CRDs were 33 MB of its worker's 59 MB heap, which then
   * ran out and the whole check was done again in the main thread.
   */
  crdTextChars: 16_000_000,
  /** Custom resources checked as updates of their baseline, by CRD id, version, baseline and text. */
  crUpdateChecks: 500,
  /** CRDs checked as updates of their baseline, by baseline and text. */
  crdUpdateChecks: 20,
  /**
   * Characters of CRD text (and the values parsed from them) held by CRDs whose files can be read again
   * (a one-shot check): the least recently read are dropped, and read again if used again. One 2.9 MB
   * argo-workflows CRD besides the one in use: samples come grouped by project, so few are read twice.
   */
  heldCrdChars: 3_000_000,
} as const;

/** What a parsed CRD text weighs in crdTexts, per character of text (measured: 7.5 for a 1.4 MB CRD). */
const PARSED_TEXT_WEIGHT = 8;

/**
 * A least-recently-used map with a fixed number of entries and, with `weigh`, a total weight (the
 * newest entry is kept whatever its weight).
 */
export class Lru<K, V> {
  private readonly m = new Map<K, { v: V; w: number }>();
  private weight = 0;
  constructor(
    private readonly max: number,
    private readonly maxWeight = Infinity,
    private readonly weigh: (v: V) => number = () => 0,
  ) {}
  get(k: K): V | undefined {
    const e = this.m.get(k);
    if (e !== undefined) {
      this.m.delete(k);
      this.m.set(k, e);
    }
    return e?.v;
  }
  set(k: K, v: V): void {
    this.delete(k);
    const w = this.weigh(v);
    this.m.set(k, { v, w });
    this.weight += w;
    for (const old of this.m.keys()) {
      if ((this.m.size <= this.max && this.weight <= this.maxWeight) || old === k) break;
      this.delete(old);
    }
  }
  delete(k: K): void {
    const e = this.m.get(k);
    if (e === undefined) return;
    this.m.delete(k);
    this.weight -= e.w;
  }
  get size(): number {
    return this.m.size;
  }
}

export interface CrdCheck {
  errors: FieldError[];
  /** Engine parts that could not run (not implemented yet, or failed). */
  failures: string[];
}

/** An engine answer, or why there is none. */
export type Guarded<T> = { ok: true; value: T } | { ok: false; error: string };

export type CrCheck = Guarded<CustomResourceResult>;

/** An engine error of an update check; `onlyOnUpdate`: the object as a create would not have it. */
export type UpdateError = FieldError & { onlyOnUpdate?: boolean };
/** A custom resource checked as an update of its baseline. */
export type CrUpdateCheck = Guarded<CustomResourceResult & { errors: UpdateError[] }>;
/** A CRD checked as an update of its baseline. */
export interface CrdUpdateCheck extends CrdCheck {
  errors: UpdateError[];
}

/** Where the fields of a CRD document are, for definitions and related information. */
export interface CrdText {
  /** Where its paths are (yaml/file.ts). */
  locator: PathLocator;
  /** Located by indentation (a CRD in plain block YAML read from disk: parsed only for a path it cannot place). */
  byIndentation: boolean;
  /** Positions of the document's offsets. */
  lines: TextDocument;
  /** Lines to add to those positions (a CRD parsed alone, out of its file). */
  lineShift: number;
}

/** An open document's last text and parse. */
export interface OpenFile {
  td: TextDocument;
  file: YamlFile;
  /** Read by the fast reader (yaml/document.ts parseBlockYamlDocuments): its syntax trees are not built yet (LanguageService.parseFully). */
  lazy?: boolean;
}

/** A document's last findings, reused while its text and what it depends on are unchanged. */
export interface DocFindings {
  key: string;
  text: string;
  startLine: number;
  findings: Finding[];
  sameFileRelated: boolean;
}

/** The caches of one language service. */
export class ServiceCaches {
  /** Per schema node results of the CRD checks (engine/field/memo.ts): an edit re-checks only its path. */
  readonly memo: SubtreeMemo | undefined;
  readonly crdChecks = new Lru<string, CrdCheck>(CACHE_BUDGETS.crdChecks);
  /** The same findings by the parsed value (one per text per parse), for CRDs of any size. */
  readonly crdChecksByValue = new WeakMap<object, { text: string; check: CrdCheck }>();
  readonly crChecks = new Lru<string, CrCheck>(CACHE_BUDGETS.crChecks);
  readonly crdTexts: Lru<string, CrdText>;
  readonly crUpdateChecks = new Lru<string, CrUpdateCheck>(CACHE_BUDGETS.crUpdateChecks);
  readonly crdUpdateChecks = new Lru<string, CrdUpdateCheck>(CACHE_BUDGETS.crdUpdateChecks);
  /** Per parsed document (the same object while its text is unchanged, yaml/file.ts): its last findings. */
  readonly docFindings = new WeakMap<object, DocFindings>();
  /** Parsed open documents by URI (dropped on close): they also serve locations inside open CRDs. */
  readonly openFiles = new Map<string, OpenFile>();

  /**
   * A one-shot check of many files (the CLI): each document is checked once, so results are not kept
   * (keeping them would only hold them in memory, and make the collector copy them).
   */
  readonly oneShot: boolean;

  /** `memo: false`: a one-shot check (no per-node memo of the CRD checks: it pays only across edits). */
  constructor(opts: { memo?: boolean } = {}) {
    this.oneShot = opts.memo === false;
    this.memo = this.oneShot ? undefined : new SubtreeMemo();
    const textChars = this.oneShot ? CACHE_BUDGETS.heldCrdChars : CACHE_BUDGETS.crdTextChars;
    this.crdTexts = new Lru(CACHE_BUDGETS.crdTexts, textChars, (t) => t.lines.getText().length * (t.byIndentation ? 1 : PARSED_TEXT_WEIGHT));
  }

  /** The findings of a small CRD text checked before. */

  crdCheck(text: string): CrdCheck | undefined {
    return text.length < CACHE_BUDGETS.largeCrdChars ? this.crdChecks.get(text) : undefined;
  }

  setCrdCheck(text: string, crd: unknown, check: CrdCheck): void {
    if (typeof crd === 'object' && crd !== null) this.crdChecksByValue.set(crd, { text, check });
    // A one-shot check (no memo) checks each text once: keeping them by text would only keep them alive.
    if (this.memo && text.length < CACHE_BUDGETS.largeCrdChars) this.crdChecks.set(text, check);
  }

  /** CRDs holding their text and value read again (indexDiskFile's `reread`), oldest first. */
  private readonly heldCrds = new Map<object, { chars: number; drop: () => void }>();
  private heldChars = 0;

  /** A CRD read its text again: held within CACHE_BUDGETS.heldCrdChars, the least recently read dropped. */
  holdCrd(crd: object, chars: number, drop: () => void): void {
    const before = this.heldCrds.get(crd);
    if (before) {
      this.heldCrds.delete(crd);
      this.heldChars -= before.chars;
    }
    this.heldCrds.set(crd, { chars, drop });
    this.heldChars += chars;
    for (const [k, v] of this.heldCrds) {
      if (this.heldChars <= CACHE_BUDGETS.heldCrdChars || k === crd) break;
      this.heldCrds.delete(k);
      this.heldChars -= v.chars;
      v.drop();
    }
  }

  /** Forgets what was kept for an open document. */
  closeDocument(uri: string): void {
    this.openFiles.delete(uri);
  }
}
