/**
 * The Kubernetes CEL base environment by version (apiserver pkg/cel/environment/base.go, read for
 * every release 1.30 to 1.37): which libraries an API server of a given version has, and which of
 * them new expressions may use (its compatibility version) versus stored ones.
 *
 * An API server of version V type-checks a new or changed rule in the NewExpressions environment at
 * its DefaultCompatibilityVersion (1.29 for 1.30, V-1 from 1.31 on), and runs stored rules in the
 * StoredExpressions environment (everything the binary has).
 */
import { NEWEST_KUBERNETES_MINOR } from '../../version';
import { ALL_MACROS, type MacroOptions } from '../syntax/parse';
import type { FunctionDecl, Library, Minor, OverloadDecl, RuntimeCost, StaticCost } from './decls';
import { AUTHZ, AUTHZ_SELECTORS } from './authz';
import { CIDR_LIB } from './cidr';
import { FORMAT } from './format';
import { IP_LIB } from './ip';
import { QUANTITY } from './quantity';
import { SEMVER } from './semver';
import { URLS } from './urls';
import { K8S_LISTS_V0, K8S_LISTS_V1, LISTS_EXT, TWO_VAR_COMPREHENSIONS } from './lists';
import { REGEX } from './regex';
import { OPTIONAL, STANDARD } from './stdlib';
import { SETS, STRINGS } from './strings';

/** The newest Kubernetes minor modelled (engine/version.ts). */
export const NEWEST_MINOR: Minor = NEWEST_KUBERNETES_MINOR;

/** Which of the two environments of an EnvSet. */
export type EnvKind = 'new' | 'stored';

/** An overload with the costs of the function declaration it came from. */
export interface ResolvedOverload extends OverloadDecl {
  name: string;
  library: string;
  estimate?: StaticCost;
  cost?: RuntimeCost;
  costFromArgs?: true;
}

/** A function of an environment: all its overloads, from every library that declares the name. */
export interface ResolvedFunction {
  name: string;
  overloads: ResolvedOverload[];
  /** Docs of the declarations, in library order. */
  docs: Array<{ library: string; doc: string }>;
}

/** What one environment declares. */
export interface EnvDecls {
  minor: Minor;
  kind: EnvKind;
  /** The compatibility version the environment was filtered at (Infinity for stored expressions). */
  compatibility: number;
  functions: Map<string, ResolvedFunction>;
  libraries: Library[];
  macros: MacroOptions;
  /** Opaque type names usable as values (`net.IP`). */
  types: Set<string>;
  /** Fields named like CEL keywords are found by their bare name too (DeclTypeProvider, compatibility >= 1.31). */
  keywordFieldNames: boolean;
}

interface BaseOption {
  library: Library;
  introduced: Minor;
  removed?: Minor;
}

/** base.go's option list as the binary of version `binary` has it. */
function baseOptions(binary: Minor): BaseOption[] {
  const opts: BaseOption[] = [
    { library: STANDARD, introduced: 0 },
    { library: URLS, introduced: 0 },
    { library: REGEX, introduced: 0 },
  ];
  if (binary >= 37) opts.push({ library: K8S_LISTS_V0, introduced: 0, removed: 37 }, { library: K8S_LISTS_V1, introduced: 37 });
  else opts.push({ library: K8S_LISTS_V0, introduced: 0 });
  opts.push(
    { library: AUTHZ, introduced: 27 },
    { library: OPTIONAL, introduced: 28 },
    { library: QUANTITY, introduced: 28 },
    { library: STRINGS, introduced: 29 },
    { library: SETS, introduced: 29 },
    { library: IP_LIB, introduced: 30 },
    { library: CIDR_LIB, introduced: 30 },
    { library: FORMAT, introduced: 31 },
    { library: AUTHZ_SELECTORS, introduced: 31 },
    { library: TWO_VAR_COMPREHENSIONS, introduced: 32 },
    { library: SEMVER, introduced: 33 },
    { library: LISTS_EXT, introduced: 34 },
  );
  return opts.filter((o) => o.introduced <= binary);
}

/** DefaultCompatibilityVersion of an API server of this minor (the version new rules must compile at). */
export function compatibilityVersion(minor: Minor): Minor {
  return minor <= 30 ? 29 : minor - 1;
}

const cache = new Map<string, EnvDecls>();

/**
 * The declarations of the NewExpressions or StoredExpressions environment of an API server of `minor`.
 * `compatibility` overrides the server's compatibility version (its `--min-compatibility-version`, which
 * a server emulating an older version also floors at binary-3); by default DefaultCompatibilityVersion.
 */
export function environmentDeclarations(minor: Minor, kind: EnvKind, compatibility?: Minor): EnvDecls {
  const compat = kind === 'new' ? Math.min(minor, compatibility ?? compatibilityVersion(minor)) : Infinity;
  const key = `${minor}/${kind}/${compat}`;
  let d = cache.get(key);
  if (d) return d;
  const libraries = baseOptions(minor)
    .filter((o) => compat >= o.introduced && (o.removed === undefined || compat < o.removed))
    .map((o) => o.library);
  const functions = new Map<string, ResolvedFunction>();
  const add = (lib: Library, f: FunctionDecl) => {
    let r = functions.get(f.name);
    if (!r) functions.set(f.name, (r = { name: f.name, overloads: [], docs: [] }));
    if (f.doc) r.docs.push({ library: lib.name, doc: f.doc });
    for (const o of f.overloads) {
      if ((o.since ?? 0) > minor || (o.until !== undefined && o.until <= minor)) continue;
      if (r.overloads.some((x) => x.id === o.id)) continue;
      r.overloads.push({ ...o, name: f.name, library: lib.name, estimate: f.estimate, cost: f.cost, costFromArgs: f.costFromArgs });
    }
  };
  const types = new Set<string>();
  for (const lib of libraries) {
    for (const f of lib.functions) add(lib, f);
    for (const t of lib.types ?? []) types.add(t);
  }
  for (const [name, f] of functions) if (f.overloads.length === 0) functions.delete(name);
  const has = (l: Library) => libraries.includes(l);
  d = {
    minor,
    kind,
    compatibility: compat,
    functions,
    libraries,
    macros: { ...ALL_MACROS, twoVarComprehensions: has(TWO_VAR_COMPREHENSIONS), sortBy: has(LISTS_EXT) },
    types,
    keywordFieldNames: compat >= 31,
  };
  cache.set(key, d);
  return d;
}
