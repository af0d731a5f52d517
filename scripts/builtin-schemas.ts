/**
 * Regenerates server/src/engine/builtin/schemas.json and lifecycle.json: the OpenAPI v3 schemas of
 * Kubernetes' built-in kinds for each minor version crd-yaml checks as (1.30..1.37), read from
 * `api/openapi-spec/v3/` of the module k8s.io/kubernetes of that release, and the API lifecycle of the
 * pre-release versions (deprecated in, removed in, replacement) from the generated
 * `zz_generated.prerelease-lifecycle.go` files of k8s.io/api. Both come through the Go module proxy:
 *
 *   node --import tsx scripts/builtin-schemas.ts
 *
 * (runs `go mod download -json` for each release below: about 20 MB each, once into the module cache).
 *
 * The documents in the sources carry no `enum`s (their generator runs without the OpenAPIEnums feature);
 * a served /openapi/v3 does. enums.json holds those of a real kube-apiserver 1.37 (every API enabled),
 * by definition and property, applied to every release's definition of that name and property:
 *
 *   node --import tsx scripts/builtin-schemas.ts --enums   (needs ../shared/kube-apiserver, test/apiserver/kapi.ts)
 *
 * The schemas are reduced to what validation, hover and completion read (engine/builtin/schemas.ts), in
 * the form of a CRD's structural schema, with the changes that make the published documents say what the
 * API server's decoding accepts (as kubectl-validate's schema patches do): IntOrString is
 * x-kubernetes-int-or-string, a Quantity is a number or a string of the quantity syntax, RawExtension keeps
 * unknown fields, types with their own JSON decoding accept null, and the `{}` defaults are dropped.
 * Definitions are deduplicated across versions: a definition is stored once per distinct content, and
 * references name the stored definition.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The release of each minor version, as the module proxy serves them (the newest patch). */
const RELEASES: Record<string, string> = {
  '1.30': 'v1.30.14',
  '1.31': 'v1.31.14',
  '1.32': 'v1.32.13',
  '1.33': 'v1.33.13',
  '1.34': 'v1.34.4',
  '1.35': 'v1.35.4',
  '1.36': 'v1.36.3',
  '1.37': 'v1.37.2',
};
/** k8s.io/api of the newest release: the lifecycle of every pre-release version (never rewritten later). */
const API_MODULE = 'k8s.io/api@v0.37.2';

const OUT = join(__dirname, '..', 'server', 'src', 'engine', 'builtin');
const BASE64_PATTERN = '^[A-Za-z0-9+/\\r\\n]*(=[\\r\\n]*){0,2}$';
const QUANTITY_PATTERN = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';
/** Types with a JSON decoding of their own that reads null (kubectl-validate's AnnotateNullable). */
const NULLABLE = new Set([
  'io.k8s.apimachinery.pkg.runtime.RawExtension',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Duration',
  'io.k8s.apimachinery.pkg.api.resource.Quantity',
]);
/** Kinds another part of crd-yaml checks (CRDs) or no client sends. */
const SKIP_KINDS = new Set(['apiextensions.k8s.io/CustomResourceDefinition']);

/** The keywords a built-in schema node keeps. */
const KEEP = [
  'description',
  'type',
  'format',
  'enum',
  'required',
  'nullable',
  'maxLength',
  'minLength',
  'maxItems',
  'minItems',
  'maximum',
  'minimum',
  'pattern',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-int-or-string',
  'x-kubernetes-validations',
];

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI documents as parsed, read field by field
type Json = any;

function download(mod: string): string {
  const r = spawnSync('go', ['mod', 'download', '-json', mod], { encoding: 'utf8', maxBuffer: 1 << 24 });
  const info = JSON.parse(r.stdout || '{}');
  if (!info.Dir) throw new Error(`go mod download ${mod}: ${info.Error ?? r.stderr}`);
  return info.Dir as string;
}

/** Every definition of a release's published OpenAPI v3 (the per-group documents share names). */
function definitionsOf(dir: string): Map<string, Json> {
  const specDir = join(dir, 'api', 'openapi-spec', 'v3');
  const defs = new Map<string, Json>();
  for (const f of readdirSync(specDir).sort()) {
    const doc = JSON.parse(readFileSync(join(specDir, f), 'utf8'));
    for (const [name, s] of Object.entries(doc.components?.schemas ?? {})) defs.set(name, s);
  }
  return defs;
}

const refName = (ref: string) => ref.replace('#/components/schemas/', '');

/** A definition's short id: its Go package and type (`apps.v1.Deployment`). */
function shortName(name: string): string {
  return name
    .replace(/^io\.k8s\.api\./, '')
    .replace(/^io\.k8s\.apimachinery\.pkg\.apis\./, '')
    .replace(/^io\.k8s\.apimachinery\.pkg\./, '')
    .replace(/^io\.k8s\./, '');
}

const stored: Record<string, Json> = {};
const idOfContent = new Map<string, string>();

/** Stores a reduced definition, returning the id of an equal one stored before. */
function store(name: string, reduced: Json): string {
  const text = JSON.stringify(reduced);
  const hash = createHash('sha256').update(text).digest('hex');
  const known = idOfContent.get(hash);
  if (known) return known;
  let id = shortName(name);
  for (let n = 2; id in stored; n++) id = `${shortName(name)}~${n}`;
  stored[id] = reduced;
  idOfContent.set(hash, id);
  return id;
}

function reduceRelease(defs: Map<string, Json>): Map<string, string> {
  const ids = new Map<string, string>();
  const visiting = new Set<string>();
  const idOf = (name: string): string => {
    const done = ids.get(name);
    if (done) return done;
    if (visiting.has(name)) throw new Error(`recursive definition ${name}`);
    visiting.add(name);
    const id = store(name, reduceDefinition(name, defs.get(name) ?? {}));
    visiting.delete(name);
    ids.set(name, id);
    return id;
  };
  const node = (s: Json): Json => {
    if (typeof s !== 'object' || s === null) return {};
    let ref: string | undefined = s.$ref;
    if (!ref && Array.isArray(s.allOf) && s.allOf.length === 1 && s.allOf[0].$ref) ref = s.allOf[0].$ref;
    if (ref) {
      const out: Json = { $ref: idOf(refName(ref)) };
      if (typeof s.description === 'string') out.description = s.description;
      for (const k of KEEP) if (k.startsWith('x-kubernetes-list') && s[k] !== undefined) out[k] = s[k];
      return out;
    }
    const out: Json = {};
    for (const k of KEEP) if (s[k] !== undefined) out[k] = s[k];
    // []byte decodes with Go's base64.StdEncoding, which skips line breaks ("" is an empty slice; a
    // Secret's PEM written as a folded block): the alphabet and padding, not the CRD `byte` format.
    if (s.format === 'byte') {
      delete out.format;
      out.pattern = BASE64_PATTERN;
    }
    if (s.format === 'int-or-string') {
      delete out.format;
      delete out.type;
      out['x-kubernetes-int-or-string'] = true;
    }
    if (s.properties) {
      out.properties = {};
      for (const [k, v] of Object.entries(s.properties)) out.properties[k] = node(v);
    }
    if (s.items) out.items = node(s.items);
    if (typeof s.additionalProperties === 'object') out.additionalProperties = node(s.additionalProperties);
    if (s.default !== undefined && !(typeof s.default === 'object' && s.default !== null && !Array.isArray(s.default) && Object.keys(s.default).length === 0)) out.default = s.default;
    return out;
  };
  function reduceDefinition(name: string, s: Json): Json {
    if (name === 'io.k8s.apimachinery.pkg.util.intstr.IntOrString') return { description: s.description, 'x-kubernetes-int-or-string': true };
    // The API server decodes a quantity from a JSON number or a string of this syntax (resource.Quantity's
    // UnmarshalJSON): the published oneOf of both types, and the syntax (a pattern applies to strings only).
    if (name === 'io.k8s.apimachinery.pkg.api.resource.Quantity') return { description: s.description, oneOf: [{ type: 'string' }, { type: 'number' }], pattern: QUANTITY_PATTERN, nullable: true };
    if (name === 'io.k8s.apimachinery.pkg.runtime.RawExtension') return { description: s.description, 'x-kubernetes-preserve-unknown-fields': true, nullable: true };
    const out = node(s);
    if (NULLABLE.has(name)) out.nullable = true;
    // A field the newest release does not require was not required before either: older documents list
    // fields Go's defaulting fills before validation (RoleRef.apiGroup until 1.33).
    const newest = NEWEST_REQUIRED.get(name);
    if (Array.isArray(out.required) && newest) {
      out.required = out.required.filter((f: string) => newest.has(f));
      if (out.required.length === 0) delete out.required;
    }
    for (const [prop, values] of Object.entries(ENUMS[name] ?? {})) {
      const p = out.properties?.[prop];
      if (!p || p.$ref) continue;
      if (p.type === 'array' && p.items && !p.items.$ref) p.items.enum = values;
      else if (p.type === 'string') p.enum = values;
    }
    return out;
  }
  for (const [name, s] of defs) {
    const gvks = s['x-kubernetes-group-version-kind'];
    if (!Array.isArray(gvks) || gvks.length !== 1) continue;
    const { group, kind } = gvks[0];
    if (kind.endsWith('List') || SKIP_KINDS.has(`${group}/${kind}`)) continue;
    try {
      idOf(name);
    } catch (e) {
      // A recursive type (an alpha scheduling API in 1.37) has no tree form: the kind is left unchecked.
      visiting.clear();
      console.error(`skipped ${name}: ${(e as Error).message}`);
    }
  }
  return ids;
}

/** apiVersion/kind -> root id, for each minor. */
function kindsOf(defs: Map<string, Json>, ids: Map<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, s] of defs) {
    const gvks = s['x-kubernetes-group-version-kind'];
    const id = ids.get(name);
    if (!id || !Array.isArray(gvks) || gvks.length !== 1) continue;
    const { group, version, kind } = gvks[0];
    out[`${group ? `${group}/` : ''}${version}/${kind}`] = id;
  }
  return out;
}

interface Lifecycle {
  introduced?: string;
  deprecated?: string;
  removed?: string;
  replacement?: string;
}

/** The pre-release lifecycle of each group/version/kind of k8s.io/api (zz_generated.prerelease-lifecycle.go). */
function lifecycles(apiDir: string): Record<string, Lifecycle> {
  const out: Record<string, Lifecycle> = {};
  const walk = (dir: string, rel: string[]): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name), [...rel, e.name]);
      else if (e.name === 'zz_generated.prerelease-lifecycle.go') {
        const text = readFileSync(join(dir, e.name), 'utf8');
        const groupName = /GroupName\s*=\s*"([^"]*)"/.exec(readFileSync(join(dir, 'register.go'), 'utf8'))?.[1] ?? '';
        const version = rel[rel.length - 1];
        const re = /func \(in \*(\w+)\) APILifecycle(Introduced|Deprecated|Removed|Replacement)\(\)[^{]*\{\s*return ([^\n]+)/g;
        for (let m = re.exec(text); m; m = re.exec(text)) {
          const [, kind, what, ret] = m;
          if (kind.endsWith('List')) continue;
          const key = `${groupName ? `${groupName}/` : ''}${version}/${kind}`;
          const l = (out[key] ??= {});
          if (what === 'Replacement') {
            const g = /Group: "([^"]*)", Version: "([^"]*)", Kind: "([^"]*)"/.exec(ret);
            if (g) l.replacement = `${g[1] ? `${g[1]}/` : ''}${g[2]} ${g[3]}`;
          } else {
            const v = /(\d+), (\d+)/.exec(ret);
            if (v) l[what.toLowerCase() as 'introduced'] = `${v[1]}.${v[2]}`;
          }
        }
      }
    }
  };
  walk(apiDir, []);
  return out;
}

type Enums = Record<string, Record<string, unknown[]>>;

/** definition -> property -> enum values (of the property, or of its items), from a served /openapi/v3. */
async function enumsFromApiServer(): Promise<void> {
  const { startApiServer } = await import('../test/apiserver/kapi');
  const s = await startApiServer({ flags: ['--runtime-config=api/all=true'] });
  const out: Enums = {};
  try {
    const index = await s.request('GET', '/openapi/v3');
    for (const [path, ref] of Object.entries(index.body.paths as Record<string, { serverRelativeURL: string }>)) {
      if (!/^(api|apis)\//.test(path)) continue;
      const doc = await s.request('GET', ref.serverRelativeURL);
      for (const [name, def] of Object.entries((doc.body.components?.schemas ?? {}) as Record<string, Json>)) {
        for (const [prop, p] of Object.entries((def.properties ?? {}) as Record<string, Json>)) {
          const values = p.enum ?? p.items?.enum;
          if (Array.isArray(values)) (out[name] ??= {})[prop] = values;
        }
      }
    }
  } finally {
    s.stop();
  }
  const sorted = Object.fromEntries(
    Object.keys(out)
      .sort()
      .map((k) => [k, out[k]]),
  );
  writeFileSync(
    join(OUT, 'enums.json'),
    `${JSON.stringify({ generatedBy: 'scripts/builtin-schemas.ts --enums: /openapi/v3 of kube-apiserver v1.37.2 with --runtime-config=api/all=true', definitions: sorted }, null, 1)}\n`,
  );
  console.error(`${Object.keys(sorted).length} definitions with enums`);
}

let ENUMS: Enums = {};
/** The required fields of each definition in the newest release. */
const NEWEST_REQUIRED = new Map<string, Set<string>>();

function main(): void {
  ENUMS = JSON.parse(readFileSync(join(OUT, 'enums.json'), 'utf8')).definitions;
  const newest = Object.values(RELEASES).at(-1)!;
  for (const [name, s] of definitionsOf(download(`k8s.io/kubernetes@${newest}`))) NEWEST_REQUIRED.set(name, new Set(s.required ?? []));
  const kinds: Record<string, Record<string, string>> = {};
  for (const [minor, release] of Object.entries(RELEASES)) {
    const dir = download(`k8s.io/kubernetes@${release}`);
    const defs = definitionsOf(dir);
    const ids = reduceRelease(defs);
    for (const [gvk, id] of Object.entries(kindsOf(defs, ids))) (kinds[gvk] ??= {})[minor] = id;
    console.error(`${minor} (${release}): ${defs.size} definitions, ${Object.keys(stored).length} stored so far`);
  }
  // Per kind, the minors in order, each with its root id: runs of equal ids written once ("1.30": id
  // until the next entry).
  const compact: Record<string, [string, string][]> = {};
  for (const gvk of Object.keys(kinds).sort()) {
    const runs: [string, string][] = [];
    for (const minor of Object.keys(RELEASES)) {
      const id = kinds[gvk][minor] ?? '';
      if (runs.length === 0 || runs[runs.length - 1][1] !== id) runs.push([minor, id]);
    }
    compact[gvk] = runs;
  }
  const schemas = {
    generatedBy: `scripts/builtin-schemas.ts from api/openapi-spec/v3 of k8s.io/kubernetes ${Object.values(RELEASES).join(', ')}`,
    minors: Object.keys(RELEASES),
    kinds: compact,
    definitions: Object.fromEntries(
      Object.keys(stored)
        .sort()
        .map((k) => [k, stored[k]]),
    ),
  };
  writeFileSync(join(OUT, 'schemas.json'), `${JSON.stringify(schemas)}\n`);
  const lc = lifecycles(download(API_MODULE));
  const sorted = Object.fromEntries(
    Object.keys(lc)
      .sort()
      .map((k) => [k, lc[k]]),
  );
  writeFileSync(join(OUT, 'lifecycle.json'), `${JSON.stringify({ generatedBy: `scripts/builtin-schemas.ts from zz_generated.prerelease-lifecycle.go of ${API_MODULE}`, kinds: sorted }, null, 1)}\n`);
  console.error(`${Object.keys(compact).length} kinds, ${Object.keys(stored).length} definitions, ${Object.keys(lc).length} lifecycles`);
}

if (process.argv.includes('--enums')) void enumsFromApiServer();
else main();
