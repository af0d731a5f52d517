/**
 * The engine entry points the service uses, each guarded (an engine failure becomes a per-document
 * finding, never a crash) and cached by the document text and CRD identity in the service's caches
 * (caches.ts), so that an unchanged document is never re-checked.
 */
import { validateCustomResourceDefinition } from '../engine';
import { validateCustomResource, type CustomResourceResult } from '../engine';
import { validateBuiltinObject } from '../engine';
import { resolveVersion } from './kube';
import { compareWithCreate, validateCustomResourceDefinitionUpdate } from '../engine';
import { withSubtreeMemo } from '../engine';
import type { CrCheck, CrdCheck, CrdUpdateCheck, CrUpdateCheck, Guarded } from './caches';
import type { ServiceContext } from './context';
import type { IndexedCrd } from '../workspace/crdIndex';
import type { KubernetesTarget } from '../engine';

/**
 * The API server every engine call of the service follows, built from the settings in one place: create
 * and update paths, CRDs and custom resources, conversion checks all get the same target (an update path
 * that built its own options once checked at the newest version whatever the setting said).
 */
export function engineTarget(ctx: ServiceContext): KubernetesTarget {
  return { kubernetesMinor: ctx.settings.kubernetesMinor };
}

/**
 * The cache key of a document's text: the text itself as kubectl reads it (YAML 1.1), marked when read as
 * YAML 1.2 (the same text then has other values, e.g. `010` is 10, not 8).
 */
export function textKey(text: string, yamlVersion: '1.1' | '1.2'): string {
  return yamlVersion === '1.1' ? text : `\u0000yaml-1.2\u0000${text}`;
}

/** Runs an engine call; exceptions become data. */
export function guard<T>(fn: () => T): Guarded<T> {
  try {
    return { ok: true, value: fn() };
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    return { ok: false, error: msg };
  }
}

/** The findings of a CRD text when they are at hand: same parsed value, or a small CRD's text seen before. */
function cachedCrd(ctx: ServiceContext, text: string, crd: unknown): CrdCheck | undefined {
  // Same value and same text object: immediate (the text of an unchanged document is reused as is).
  const byValue = typeof crd === 'object' && crd !== null ? ctx.caches.crdChecksByValue.get(crd) : undefined;
  if (byValue && byValue.text === text) return byValue.check;
  return ctx.caches.crdCheck(text);
}

/**
 * The API server's findings on a CRD document: CRD validation, which includes the structural checks,
 * defaults and CEL compilation. Run with the service's subtree memo: an edit re-checks only its path.
 */
export function checkCrd(ctx: ServiceContext, text: string, crd: unknown): CrdCheck {
  const hit = cachedCrd(ctx, text, crd);
  if (hit) return hit;
  // The engine does not mutate its input (the memo relies on it: unchanged subtrees are shared).
  const r = guard(() => withSubtreeMemo(ctx.caches.memo, () => validateCustomResourceDefinition(crd, engineTarget(ctx))));
  const out: CrdCheck = r.ok ? { errors: r.value, failures: [] } : { errors: [], failures: [r.error] };
  ctx.caches.setCrdCheck(text, crd, out);
  return out;
}

/**
 * The API server's create path for a CR document against a CRD version (cached by CRD id and text);
 * `partial`: a patch or template object (engine/customresource/partial.ts).
 */
export function checkCr(ctx: ServiceContext, crd: IndexedCrd, version: string, text: string, obj: unknown, opts: { partial?: boolean; kustomized?: boolean } = {}): CrCheck {
  // The engine decodes a copy of the object (strategy.ts): the parse is passed as it is.
  const check = () => guard(() => (crd.builtin ? checkBuiltin(ctx, crd, version, obj, opts) : validateCustomResource(crd.crd, obj, { ...engineTarget(ctx), version, partial: opts.partial })));
  if (ctx.caches.oneShot) return check();
  const key = `${crd.id}\u0000${version}\u0000${opts.partial ? 'partial' : ''}${opts.kustomized ? 'kustomized' : ''}\u0000${text}`;
  const hit = ctx.caches.crChecks.get(key);
  if (hit) return hit;
  const r = check();
  ctx.caches.crChecks.set(key, r);
  return r;
}

/** A built-in object (builtins.ts): the built-in create path on its version's schema. */
function checkBuiltin(ctx: ServiceContext, crd: IndexedCrd, version: string, obj: unknown, opts: { partial?: boolean; kustomized?: boolean }): CustomResourceResult {
  const schema = resolveVersion(crd, version)?.schema ?? {};
  const apiVersion = crd.group ? builtinApiVersion(crd, version) : version;
  // Written out, not `{ ...engineTarget(ctx), ... }`: V8 builds an object literal that starts with a
  // spread and goes on with fields slowly (about 1 µs and 1 KB each time), and this runs for every object.
  const target = engineTarget(ctx);
  return validateBuiltinObject(schema, obj, {
    compatibilityMinor: target.compatibilityMinor,
    kubernetesMinor: crd.builtin?.kubernetesMinor,
    apiVersion,
    kind: crd.kind,
    partial: opts.partial,
    kustomized: opts.kustomized,
    namespaced: crd.builtin?.namespaced,
  });
}

const apiVersions = new WeakMap<IndexedCrd, Map<string, string>>();

/** `group/version` of a built-in kind's CRD, made once (the engine's tables are keyed by the same string). */
function builtinApiVersion(crd: IndexedCrd, version: string): string {
  let byVersion = apiVersions.get(crd);
  if (!byVersion) apiVersions.set(crd, (byVersion = new Map()));
  let apiVersion = byVersion.get(version);
  if (apiVersion === undefined) byVersion.set(version, (apiVersion = `${crd.group}/${version}`));
  return apiVersion;
}

const baselineIds = new WeakMap<object, number>();
let nextBaselineId = 0;
/** A stable id per baseline object (baselines are replaced, not mutated). */
function baselineId(o: object): number {
  let id = baselineIds.get(o);
  if (id === undefined) baselineIds.set(o, (id = ++nextBaselineId));
  return id;
}

/**
 * The API server's update path for a CR document against the stored object (its baseline), errors a
 * create of the same object would not have marked `onlyOnUpdate` (cached by CRD id, text and baseline).
 */
export function checkCrUpdate(ctx: ServiceContext, crd: IndexedCrd, version: string, text: string, obj: unknown, old: Record<string, unknown>): CrUpdateCheck {
  const key = `${crd.id}\u0000${version}\u0000${baselineId(old)}\u0000${text}`;
  const hit = ctx.caches.crUpdateChecks.get(key);
  if (hit) return hit;
  const r = guard(() => {
    const update = validateCustomResource(crd.crd, obj, { ...engineTarget(ctx), version, oldObject: old });
    const create = checkCr(ctx, crd, version, text, obj);
    return { ...update, errors: compareWithCreate(update.errors, create.ok ? create.value.errors : []).errors };
  });
  ctx.caches.crUpdateChecks.set(key, r);
  return r;
}

/**
 * The errors of an object created against a CRD value that is not (or not yet) indexed: a CRD being edited,
 * or its baseline (what a CRD change breaks, update.ts). Not cached: the caller keeps the verdicts it needs.
 */
export function checkObjectAgainst(ctx: ServiceContext, crd: unknown, obj: unknown): Guarded<ReturnType<typeof validateCustomResource>> {
  return guard(() => validateCustomResource(crd, obj, engineTarget(ctx)));
}

/** The API server's update path for a CRD document against the stored CRD (its baseline). */
export function checkCrdUpdate(ctx: ServiceContext, text: string, crd: unknown, old: Record<string, unknown>): CrdUpdateCheck {
  const key = `${baselineId(old)}\u0000${text}`;
  const hit = ctx.caches.crdUpdateChecks.get(key);
  if (hit) return hit;
  const create = checkCrd(ctx, text, crd);
  const r = guard(() => validateCustomResourceDefinitionUpdate(structuredClone(crd), structuredClone(old), engineTarget(ctx)));
  const out: CrdUpdateCheck = r.ok ? { errors: compareWithCreate(r.value, create.errors).errors, failures: [] } : { ...create, failures: [...create.failures, r.error] };
  ctx.caches.crdUpdateChecks.set(key, out);
  return out;
}
