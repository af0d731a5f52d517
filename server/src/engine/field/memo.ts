/**
 * Subtree memoization for checks that walk a schema (or any JSON tree) node by node.
 *
 * A check of one node is a pure function of that node's subtree and of a small context (the flags its
 * ancestors pass down) and, through the field paths of its errors, of where the node sits. The YAML layer
 * rebuilds a document's value copy-on-write (an edit replaces only the objects on the path from the root to
 * the edit), so when a memo is active the walks below look each node up by object identity and context:
 * everything off the edited path is a hit, and a CRD re-check costs the depth of the edit, not the size
 * of the CRD. A hit found at another path (a renamed key above it) has its error paths rebased, unless an
 * error names a path in its text (`markPathInDetail`): that one is recomputed.
 *
 * Without an active memo every call computes, so the engine's results never depend on the memo: the
 * randomized test (test/unit/subtree-memo.test.ts) compares memoized checks with plain ones over edits of
 * real CRDs. The memo is owned by its caller (the language service), activated for one call at a time
 * with `withSubtreeMemo`; results are only kept while their node objects live (WeakMap), and nodes handed
 * to a memoized walk must not be mutated afterwards.
 */
import type { FieldError } from './errors';
import type { FieldPath } from './path';

interface Entry {
  ctx: string;
  /** The printed path the value was computed at ('' for path-independent tables). */
  at: string;
  /** The number of segments of that path. */
  len: number;
  value: unknown;
}

/** How a memoized value is moved from the path it was computed at to another one (undefined: it cannot be). */
export type Rebase<T> = (value: T, from: { path: string; length: number }, to: FieldPath) => T | undefined;

/** What the memo did, for tests (work done is counted, never timed) and logs. */
export interface SubtreeMemoStats {
  /** Values found for the same node, context and path. */
  hits: number;
  /** Values found at another path and rebased. */
  rebased: number;
  /** Values computed, per table. */
  computed: Record<string, number>;
}

/** The memo tables of one owner (a language service): per table, per node object, the values by context. */
export class SubtreeMemo {
  readonly stats: SubtreeMemoStats = { hits: 0, rebased: 0, computed: {} };
  private readonly tables = new Map<string, WeakMap<object, Entry | Entry[]>>();

  /** The table of a check, created on first use. */
  table(name: string): WeakMap<object, Entry | Entry[]> {
    let t = this.tables.get(name);
    if (!t) this.tables.set(name, (t = new WeakMap()));
    return t;
  }

  /** Total values computed since the last reset (all tables). */
  get computedTotal(): number {
    return Object.values(this.stats.computed).reduce((a, b) => a + b, 0);
  }

  resetStats(): void {
    this.stats.hits = 0;
    this.stats.rebased = 0;
    this.stats.computed = {};
  }
}

let active: SubtreeMemo | undefined;

/** Runs fn with `memo` active for the memoized walks it reaches (none: plain computation). */
export function withSubtreeMemo<T>(memo: SubtreeMemo | undefined, fn: () => T): T {
  const outer = active;
  active = memo;
  try {
    return fn();
  } finally {
    active = outer;
  }
}

/** The active memo (for walks that keep their own per-call state beside it). */
export function activeSubtreeMemo(): SubtreeMemo | undefined {
  return active;
}

function find(slot: Entry | Entry[] | undefined, ctx: string): Entry | undefined {
  if (!slot) return undefined;
  if (!Array.isArray(slot)) return slot.ctx === ctx ? slot : undefined;
  for (const e of slot) if (e.ctx === ctx) return e;
  return undefined;
}

function store(t: WeakMap<object, Entry | Entry[]>, node: object, entry: Entry): void {
  const slot = t.get(node);
  if (!slot) t.set(node, entry);
  else if (!Array.isArray(slot)) t.set(node, slot.ctx === entry.ctx ? entry : [slot, entry]);
  else {
    const i = slot.findIndex((e) => e.ctx === entry.ctx);
    if (i >= 0) slot[i] = entry;
    // A node is walked under a handful of contexts at most; more means the context key is too fine.
    else if (slot.length < 8) slot.push(entry);
    else slot[0] = entry;
  }
}

function count(m: SubtreeMemo, table: string): void {
  m.stats.computed[table] = (m.stats.computed[table] ?? 0) + 1;
}

/**
 * The value of a path-dependent check of `node` under a context (its key, or a function computing it
 * only when a memo is active) at `path`: from the active memo when it holds one for this node and
 * context (rebased when computed at another path), else computed.
 */
export function memoAt<T>(table: string, node: unknown, context: string | (() => string), path: FieldPath, compute: () => T, rebase: Rebase<T>): T {
  const m = active;
  if (!m || typeof node !== 'object' || node === null) return compute();
  const ctx = typeof context === 'string' ? context : context();
  const t = m.table(table);
  const at = path.toString();
  const hit = find(t.get(node), ctx);
  if (hit) {
    if (hit.at === at) {
      m.stats.hits++;
      return hit.value as T;
    }
    const moved = rebase(hit.value as T, { path: hit.at, length: hit.len }, path);
    if (moved !== undefined) {
      m.stats.rebased++;
      store(t, node, { ctx, at, len: path.length, value: moved });
      return moved;
    }
  }
  count(m, table);
  const value = compute();
  store(t, node, { ctx, at, len: path.length, value });
  return value;
}

/** The value of a path-independent check of `node` under context `ctx`, from the active memo or computed. */
export function memoOf<T>(table: string, node: unknown, ctx: string, compute: () => T): T {
  const m = active;
  if (!m || typeof node !== 'object' || node === null) return compute();
  const t = m.table(table);
  const hit = find(t.get(node), ctx);
  if (hit) {
    m.stats.hits++;
    return hit.value as T;
  }
  count(m, table);
  const value = compute();
  store(t, node, { ctx, at: '', len: 0, value });
  return value;
}

/** Errors whose detail or parameters print a path inside the subtree: not rebased (see module doc). */
const pathInDetail = new WeakSet<FieldError>();

/** Marks an error whose text names a field path (its memoized subtree is recomputed when it moves). */
export function markPathInDetail(e: FieldError): FieldError {
  pathInDetail.add(e);
  return e;
}

/**
 * Errors computed under path `from` moved under `to`: each field must start with `from` (the error is
 * about the subtree), its rest is appended to `to`; segments likewise. Undefined when one cannot move.
 */
export function rebaseErrors(errs: readonly FieldError[], from: { path: string; length: number }, to: FieldPath): FieldError[] | undefined {
  if (errs.length === 0) return errs as FieldError[];
  const target = to.toString();
  const toSegs = to.segments();
  const out: FieldError[] = [];
  for (const e of errs) {
    if (pathInDetail.has(e)) return undefined;
    const f = rebaseField(e.field, from.path, target);
    if (f === undefined) return undefined;
    const moved: FieldError = { ...e, field: f };
    if (e.segments) {
      if (e.segments.length < from.length) return undefined;
      moved.segments = [...toSegs, ...e.segments.slice(from.length)];
    }
    out.push(moved);
  }
  return out;
}

/** A printed field path under `from` re-printed under `to` (undefined when it is not under `from`). */
export function rebaseField(field: string, from: string, to: string): string | undefined {
  if (from === '') {
    if (field === '') return to;
    if (to === '') return field;
    return field.startsWith('[') ? to + field : `${to}.${field}`;
  }
  if (!field.startsWith(from)) return undefined;
  const rest = field.slice(from.length);
  if (rest !== '' && rest[0] !== '.' && rest[0] !== '[') return undefined;
  if (to === '') return rest.startsWith('.') ? rest.slice(1) : rest;
  return to + rest;
}

const pairTables = new WeakMap<SubtreeMemo, Map<string, WeakMap<object, WeakMap<object, unknown>>>>();

/** The value of a path-independent check of two nodes (a comparison), from the active memo or computed. */
export function memoPair<T>(table: string, a: object, b: object, compute: () => T): T {
  const m = active;
  if (!m) return compute();
  let tables = pairTables.get(m);
  if (!tables) pairTables.set(m, (tables = new Map()));
  let t = tables.get(table);
  if (!t) tables.set(table, (t = new WeakMap()));
  let row = t.get(a);
  if (!row) t.set(a, (row = new WeakMap()));
  if (row.has(b)) {
    m.stats.hits++;
    return row.get(b) as T;
  }
  count(m, table);
  const value = compute();
  row.set(b, value);
  return value;
}
