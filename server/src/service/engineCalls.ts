/**
 * The engine entry points the service uses, each guarded (an engine failure becomes a per-document
 * finding, never a crash) and cached by the document text and CRD identity, so that an unchanged
 * document is never re-checked.
 */
import { FieldPath, type FieldError } from '../engine/field';
import { validateCustomResourceDefinition } from '../engine/crd/validation';
import { validateStructuralSchema } from '../engine/schema/structural';
import { compileSchemaValidations } from '../engine/cel/compile';
import { validateCustomResource, type CustomResourceResult } from '../engine/customresource/strategy';
import type { IndexedCrd } from '../workspace/crdIndex';
import { crdVersions } from './kube';
import { deriveCrdFindings } from './crdReuse';

/**
 * The cache key of a document's text: the text itself as kubectl reads it (YAML 1.1), marked when read as
 * YAML 1.2 (the same text then has other values, e.g. `010` is 10, not 8).
 */
export function textKey(text: string, yamlVersion: '1.1' | '1.2'): string {
  return yamlVersion === '1.1' ? text : `\u0000yaml-1.2\u0000${text}`;
}

/** An engine answer, or why there is none. */
export type Guarded<T> = { ok: true; value: T } | { ok: false; error: string; notImplemented: boolean };

/** Runs an engine call; exceptions become data. */
export function guard<T>(fn: () => T): Guarded<T> {
  try {
    return { ok: true, value: fn() };
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    return { ok: false, error: msg, notImplemented: msg.startsWith('not implemented') };
  }
}

class Lru<V> {
  private readonly m = new Map<string, V>();
  constructor(private readonly max: number) {}
  get(k: string): V | undefined {
    const v = this.m.get(k);
    if (v !== undefined) {
      this.m.delete(k);
      this.m.set(k, v);
    }
    return v;
  }
  set(k: string, v: V): void {
    this.m.set(k, v);
    if (this.m.size > this.max) this.m.delete(this.m.keys().next().value as string);
  }
}

export interface CrdCheck {
  errors: FieldError[];
  /** Engine parts that could not run (not implemented yet, or failed). */
  failures: string[];
}

const smallCrdChecks = new Lru<CrdCheck>(200);
/** Large CRD texts (each version of a 3 MB CRD being typed in is a new key): only the last few. */
const largeCrdChecks = new Lru<CrdCheck>(6);
const crdChecks = {
  get: (text: string) => (text.length >= 100_000 ? largeCrdChecks : smallCrdChecks).get(text),
  set: (text: string, v: CrdCheck) => (text.length >= 100_000 ? largeCrdChecks : smallCrdChecks).set(text, v),
};
/**
 * The same findings by the parsed value (one per text per parse): looking up a 3 MB text costs a
 * comparison with every cached text of the same length (V8 hashes long strings by length only).
 */
const crdChecksByValue = new WeakMap<object, { text: string; check: CrdCheck }>();

/** The cached findings for a CRD text, without computing them. */
export function peekCrd(text: string): CrdCheck | undefined {
  return crdChecks.get(text);
}

/** The last CRD values fully checked, for deriving the findings of their edits (crdReuse.ts). */
const recentCrds: { crd: unknown; check: CrdCheck }[] = [];

function rememberCrd(text: string, crd: unknown, check: CrdCheck): void {
  if (typeof crd === 'object' && crd !== null) crdChecksByValue.set(crd, { text, check });
  recentCrds.unshift({ crd, check });
  if (recentCrds.length > 4) recentCrds.pop();
}

/**
 * The findings for a CRD text when they come cheap: cached, or derived from a recent check of an
 * earlier version that differs only where findings cannot change (crdReuse.ts). Undefined otherwise.
 */
export function cheapCrd(text: string, crd: unknown): CrdCheck | undefined {
  // Same value and same text object: immediate (the text of an unchanged document is reused as is).
  const byValue = typeof crd === 'object' && crd !== null ? crdChecksByValue.get(crd) : undefined;
  if (byValue && byValue.text === text) return byValue.check;
  const hit = crdChecks.get(text);
  if (hit) return hit;
  for (const r of recentCrds) {
    const derived = deriveCrdFindings(r.crd, r.check, crd);
    if (derived) {
      crdChecks.set(text, derived);
      rememberCrd(text, crd, derived);
      return derived;
    }
  }
  return undefined;
}

/**
 * The API server's findings on a CRD document: CRD validation (which includes the structural checks and
 * CEL compilation). While that entry point is unavailable, the structural and CEL checks run on their own.
 */
export function checkCrd(text: string, crd: unknown): CrdCheck {
  const hit = cheapCrd(text, crd);
  if (hit) return hit;
  const failures: string[] = [];
  let errors: FieldError[] = [];
  const full = guard(() => validateCustomResourceDefinition(structuredClone(crd)));
  if (full.ok) errors = full.value;
  else {
    failures.push(full.error);
    const versions = crdVersions(crd as Record<string, unknown>);
    for (const v of versions) {
      if (!v.schema) continue;
      const base = FieldPath.root('spec', 'versions').index(v.index).child('schema', 'openAPIV3Schema');
      const structural = guard(() => validateStructuralSchema(structuredClone(v.schema!), base));
      if (structural.ok) errors.push(...structural.value);
      else failures.push(structural.error);
      const cel = guard(() => compileSchemaValidations(structuredClone(v.schema!)));
      if (cel.ok) errors.push(...cel.value.map((e) => prefixField(e, base.toString())));
      else failures.push(cel.error);
    }
  }
  const out = { errors, failures: [...new Set(failures)] };
  crdChecks.set(text, out);
  rememberCrd(text, crd, out);
  return out;
}

function prefixField(e: FieldError, prefix: string): FieldError {
  const field = e.field === '' ? prefix : e.field.startsWith('[') ? prefix + e.field : `${prefix}.${e.field}`;
  return { ...e, field, segments: undefined };
}

export type CrCheck = Guarded<CustomResourceResult>;

const crChecks = new Lru<CrCheck>(5000);

/** The API server's create path for a CR document against a CRD version (cached by CRD id and text); `partial`: a patch or template object (engine/customresource/partial.ts). */
export function checkCr(crd: IndexedCrd, version: string, text: string, obj: unknown, opts: { partial?: boolean } = {}): CrCheck {
  const key = `${crd.id}\u0000${version}\u0000${opts.partial ? 'partial' : ''}\u0000${text}`;
  const hit = crChecks.get(key);
  if (hit) return hit;
  const r = guard(() => validateCustomResource(crd.crd, structuredClone(obj), { version, partial: opts.partial }));
  crChecks.set(key, r);
  return r;
}
