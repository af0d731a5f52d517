import { deepCopyJSON, isJSONObject, setOwn } from '../json/values';
/**
 * Structural edits of a JSON document (a CRD being migrated), as data. One list of edits is applied
 * twice: to the JSON value here (the result that is validated), and to the YAML document by the
 * service (moving nodes rather than re-creating them, so that comments travel with what they describe).
 * Insertion positions are part of an edit so that both results list keys in the same order.
 */

/** A path of object keys and array indexes from the document root. */
export type JSONPathKeys = readonly (string | number)[];

/** Where a new key goes in its object: first, before a sibling (when present), or last (default). */
export interface KeyPosition {
  first?: boolean;
  before?: string;
}

export type DocumentEdit =
  /** Sets a value: replaced in place when the key exists, else inserted (missing parent objects are created). */
  | ({ op: 'set'; path: JSONPathKeys; value: unknown } & KeyPosition)
  /** Removes a key or an array element (no-op when absent). */
  | { op: 'remove'; path: JSONPathKeys }
  /** Renames a key in place (no-op when absent). */
  | { op: 'rename'; path: JSONPathKeys; to: string }
  /** Moves a value (with its comments, in YAML) to another path; no-op when `from` is absent. */
  | ({ op: 'move'; from: JSONPathKeys; path: JSONPathKeys } & KeyPosition)
  /** Copies a value to another path; no-op when `from` is absent. */
  | ({ op: 'copy'; from: JSONPathKeys; path: JSONPathKeys } & KeyPosition);

/** The value at a path, or undefined. */
export function valueAt(root: unknown, path: JSONPathKeys): unknown {
  let v = root;
  for (const k of path) {
    if (typeof k === 'number') v = Array.isArray(v) ? v[k] : undefined;
    else v = isJSONObject(v) && Object.hasOwn(v, k) ? v[k] : undefined;
    if (v === undefined) return undefined;
  }
  return v;
}

/** Applies edits in order to a copy of `root`; the input is not changed. */
export function applyEdits(root: unknown, edits: readonly DocumentEdit[]): unknown {
  const box = { v: deepCopyJSON(root) };
  for (const e of edits) applyEdit(box, e);
  return box.v;
}

function applyEdit(box: { v: unknown }, e: DocumentEdit): void {
  switch (e.op) {
    case 'set':
      setAt(box, e.path, deepCopyJSON(e.value), e);
      return;
    case 'remove':
      removeAt(box.v, e.path);
      return;
    case 'rename': {
      const parent = valueAt(box.v, e.path.slice(0, -1));
      const key = e.path[e.path.length - 1];
      if (!isJSONObject(parent) || typeof key !== 'string' || !Object.hasOwn(parent, key)) return;
      const entries = Object.entries(parent).filter(([k]) => k !== e.to);
      for (const k of Object.keys(parent)) delete parent[k];
      for (const [k, x] of entries) setOwn(parent, k === key ? e.to : k, x);
      return;
    }
    case 'move':
    case 'copy': {
      const v = valueAt(box.v, e.from);
      if (v === undefined) return;
      const copy = deepCopyJSON(v);
      if (e.op === 'move') removeAt(box.v, e.from);
      setAt(box, e.path, copy, e);
      return;
    }
  }
}

function setAt(box: { v: unknown }, path: JSONPathKeys, value: unknown, pos: KeyPosition): void {
  if (path.length === 0) {
    box.v = value;
    return;
  }
  let parent = box.v;
  for (let i = 0; i < path.length - 1; i++) {
    const k = path[i];
    let next = typeof k === 'number' ? (Array.isArray(parent) ? parent[k] : undefined) : isJSONObject(parent) ? parent[k] : undefined;
    if (next === undefined || next === null) {
      next = typeof path[i + 1] === 'number' ? [] : {};
      if (typeof k === 'number' && Array.isArray(parent)) parent[k] = next;
      else if (typeof k === 'string' && isJSONObject(parent)) setOwn(parent, k, next);
      else return;
    }
    parent = next;
  }
  const key = path[path.length - 1];
  if (typeof key === 'number') {
    if (Array.isArray(parent) && key <= parent.length) parent[key] = value;
    return;
  }
  if (!isJSONObject(parent)) return;
  if (Object.hasOwn(parent, key)) {
    parent[key] = value;
    return;
  }
  const entries = Object.entries(parent);
  let at = entries.length;
  if (pos.first) at = 0;
  else if (pos.before !== undefined) {
    const i = entries.findIndex(([k]) => k === pos.before);
    if (i >= 0) at = i;
  }
  entries.splice(at, 0, [key, value]);
  for (const k of Object.keys(parent)) delete parent[k];
  for (const [k, x] of entries) setOwn(parent, k, x);
}

function removeAt(root: unknown, path: JSONPathKeys): void {
  const parent = valueAt(root, path.slice(0, -1));
  const key = path[path.length - 1];
  if (typeof key === 'number') {
    if (Array.isArray(parent) && key < parent.length) parent.splice(key, 1);
  } else if (isJSONObject(parent)) delete parent[key];
}
