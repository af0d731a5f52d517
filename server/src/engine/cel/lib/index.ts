/**
 * Installs every Kubernetes CEL library (k8s.io/apiserver/pkg/cel/library) and the cel-go extension
 * libraries the base environment enables, gated by compatibility version.
 *
 * Overriding builtins: cel-js refuses a second overload that overlaps a builtin, so where its builtin
 * differs from cel-go (JS RegExp `matches`, UTF-16 string indices, lax timestamp parsing, JS number
 * printing) we register ours as `<name>__k8s` and the compiler renames those calls before checking
 * (see environment.ts prepareAst); error messages strip the suffix again.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { installComprehensions } from './comprehensions';
import { installLists } from './lists';
import { installOptional, OPTIONAL_OVERRIDES } from './optional';
import { installRegex } from './regex';
import { installSets } from './sets';
import { installStrings, STRING_OVERRIDES } from './strings';
import { installTime, installTimeAccessors, TIME_ACCESSOR_OVERRIDES } from './time';
import { installKubernetesTypes } from './kubernetes';
import { installOptionalLiterals } from './optional-literals';
import { installConversions } from './conversions';
import { installHasHelper } from './has-macro';

export interface LibraryOptions {
  compatibilityVersion: '1.36' | '1.37';
}

/** Suffix of our replacements for cel-js builtins. */
export const INTERNAL_SUFFIX = '__k8s';

/** Function names whose calls are routed to our `<name>__k8s` implementations. */
export const OVERRIDDEN_FUNCTIONS: ReadonlySet<string> = new Set([
  ...STRING_OVERRIDES,
  ...OPTIONAL_OVERRIDES,
  ...TIME_ACCESSOR_OVERRIDES,
  'timestamp',
  'duration',
  'string',
  'int',
  'uint',
  'double',
]);

/**
 * cel-go lets `null` compare with "legacy nullable" types (opaque types such as optional and the
 * Kubernetes types, timestamps, durations); the answer is false at run time.
 */
function installNullComparisons(env: Environment): void {
  for (const t of ['optional', 'google.protobuf.Timestamp', 'google.protobuf.Duration', 'kubernetes.Quantity', 'net.IP', 'net.CIDR', 'kubernetes.URL', 'kubernetes.Semver', 'kubernetes.NamedFormat']) {
    env.registerOperator(`${t} == null`, () => false);
  }
}

/** Registers all libraries on env (which must not be frozen yet). */
export function installKubernetesLibraries(env: Environment, opts: LibraryOptions): void {
  installTime(env);
  installConversions(env);
  installTimeAccessors(env);
  installStrings(env);
  installRegex(env);
  installLists(env, { includes: opts.compatibilityVersion >= '1.37' });
  installSets(env);
  installOptional(env);
  installComprehensions(env);
  installKubernetesTypes(env);
  installOptionalLiterals(env);
  installHasHelper(env);
  installNullComparisons(env);
}
