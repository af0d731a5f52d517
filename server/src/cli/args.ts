/**
 * Command-line arguments of crd-yaml. Hand-written (no dependency): two commands, a few options.
 */

import { parseKubernetesVersion, supportedKubernetesVersions } from '../engine';
import { CEL_LINT_SCOPES, type CelLintScope } from '../service';

export type OutputFormat = 'text' | 'json' | 'sarif' | 'yaml' | 'junit';

export interface CliArgs {
  command: 'check' | 'preview' | 'migrate' | 'convert' | 'test' | 'lock' | 'help' | 'version';
  paths: string[];
  /** Extra places to load CRDs from (their own findings are not reported). */
  crdPaths: string[];
  format: OutputFormat;
  /** Hide `info` lines (and the progress line). */
  quiet: boolean;
  /** check: the progress line on stderr (`--progress`: even when stderr is not a terminal); undefined: when it is one. */
  progress?: boolean;
  /** Worker threads checking the inputs (`--jobs`); undefined: one, or one per core for large inputs. */
  jobs?: number;
  /** Read scalars as plain YAML 1.2 core instead of as Kubernetes does (YAML 1.1, go-yaml v2). */
  yaml12: boolean;
  /** Follow symbolic links met while searching directories. */
  followSymlinks: boolean;
  /** migrate: rewrite the files in place. */
  write: boolean;
  /** preview: also the stored object as read back at each served version. */
  readBack: boolean;
  /** convert: the webhook URL, the target version, a PEM file of CAs to trust. */
  webhook?: string;
  to?: string;
  caBundle?: string;
  /** How unknown fields are reported: as the API server's fieldValidation (Strict: errors, as kubectl apply). */
  fieldValidation: 'Strict' | 'Warn' | 'Ignore';
  /** `hint`: list the objects whose kind no known CRD defines and the documents a template decides (they are counted either way). */
  unknownKinds: 'ignore' | 'hint';
  /** check: exit 1 when an object's kind had no CRD (it was not checked). */
  failOnUnchecked: boolean;
  /** Globs of files not checked (their CRDs are still used). */
  exclude: string[];
  /** Load the CRDs of a cluster (the kubeconfig's current context, or `context`). */
  cluster: boolean;
  kubeconfig?: string;
  context?: string;
  /** check: the git revision whose objects the inputs update (`--base REF`). */
  base?: string;
  /** check: the cluster of the kubeconfig's current context holds the objects the inputs update. */
  baseCluster: boolean;
  /** check: the compatibility severities (`--compat CATEGORY=SEVERITY`). */
  compatibility: Record<string, 'error' | 'warning' | 'information' | 'off'>;
  /** --kubernetes-version 1.X: the API server version checked as (30 .. 37); undefined: the newest. */
  kubernetesMinor?: number;
  /** check: the CRDs the CEL lints run on (--cel-lint-scope; service/lintScope.ts). */
  celLintScope: CelLintScope;
  /** --catalog URL-TEMPLATE|off (workspace/catalog.ts); undefined: $CRD_YAML_CATALOG, else the public catalog. */
  catalog?: string;
  /** lock: fetch every catalog CRD again instead of keeping the locked ones (--update). */
  update: boolean;
  /** --builtins on|off: built-in kinds (Deployment, Service, ...) checked too (default on). */
  builtins: boolean;
  /** check: Go packages of kubebuilder types (`--go ./api/...`), checked through the CRDs they generate. */
  goPatterns: string[];
  /** check: folders' Go API packages are not generated and checked (`--no-go`). */
  noGo: boolean;
}

/** A usage mistake: printed as one line, exit code 2. */
export class UsageError extends Error {}

export const USAGE = `Usage: crd-yaml <command> [options] PATHS...

Checks Kubernetes CustomResourceDefinitions and custom resources in YAML files offline, as the
API server would (structural schema, CRD validation, pruning, defaulting, OpenAPI and CEL rules).

Commands:
  check PATHS...     Check every *.yaml / *.yml file under PATHS (directories are searched
                     recursively; - reads the standard input). CRDs are validated; custom
                     resources are validated against the CRDs found in PATHS and --crd
                     (matched by API group and kind).
  preview PATHS...   Print each custom resource as the API server would store it (after pruning
                     and defaulting), with what was pruned and defaulted.
  migrate PATHS...   Upgrade apiextensions.k8s.io/v1beta1 CRDs to v1: the API server's own
                     conversion plus the edits v1 requires (structural types, schema
                     extensions), each listed as a note on stderr. Prints the v1 CRDs, or
                     with --write rewrites the files in place, keeping comments.
  test PATHS...      Run the CRD rule test files (*.crdtest.yaml) under PATHS: each case's
                     object (and oldObject, for an update) through the API server's checks
                     against the file's CRD. Prints PASS or FAIL per case, the differences of
                     failures, and "N passed, M failed"; exit code 1 when a case failed.
  lock PATHS...       Write crd-yaml.lock at the repository root: the catalog CRDs the custom
                     resources in PATHS use (URL, tag, sha256). check then uses those bytes
                     only; --update fetches them again.
  convert --webhook URL --to VERSION PATHS...
                     Send the custom resources in PATHS to a conversion webhook you run, in a
                     ConversionReview as the API server would (its CRD from PATHS or --crd),
                     apply the API server's checks to the answer, and validate the converted
                     objects against the target version's schema. Prints the converted objects.
  lsp [--stdio]      Run the language server for any LSP client, over stdio (docs/editors.md).

Options:
  -f, --format FMT   check: text (default), json or sarif (SARIF 2.1.0)
                     test: text (default) or junit (JUnit XML)
                     preview, convert: yaml (default) or json
  --crd PATH|URL     Also load CRDs from PATH (file or directory) or an http(s) URL of CRD
                     YAML (fetched once, then read from the cache in ~/.cache/crd-yaml;
                     repeatable). Their own problems are not reported. For test: where
                     \`crd: group/Kind\` is looked up.
  --catalog URL|off  Where the CRD of a custom resource no local CRD defines is fetched from: a
                     URL template with {group}, {kind} (lower case) and {tag} (default: the
                     public CustomResourceDefinition/catalog on GitHub, tag by
                     --kubernetes-version, else main; $CRD_YAML_CATALOG overrides). Only the
                     group and kind are sent; answers are cached in ~/.cache/crd-yaml. off:
                     never.
  --go PATTERN       check: Go packages of kubebuilder types (e.g. ./api/...; repeatable):
                     their CRDs are generated with the project's controller-tools (built
                     with your Go) and findings are reported at the markers and fields
                     that made them. Folders given as PATHS are searched for such
                     packages too; --no-go skips them.
  --exclude GLOB     Do not check files matching GLOB (relative to the current directory,
                     e.g. 'chart/**'; repeatable). CRDs they define are still used.
  --cluster          Also load the CRDs of a cluster (read-only: a list of
                     apiextensions.k8s.io/v1 CustomResourceDefinitions), from the
                     kubeconfig's current context.
  --kubeconfig FILE  The kubeconfig for --cluster (default: $KUBECONFIG, ~/.kube/config).
  --context NAME     The kubeconfig context for --cluster.
  --field-validation Strict|Warn|Ignore
                     How unknown fields are reported, as the API server's fieldValidation:
                     Strict (default, as kubectl apply): an error; Warn: a warning (the
                     field is pruned); Ignore: not reported.
  --builtins on|off  Check objects of Kubernetes' built-in kinds (Deployment, Service, ...)
                     against their schemas at --kubernetes-version and the API server's own
                     checks (default on); off: only CRDs and custom resources.
  --base REF         check: check each object as an update of the same object (group, kind,
                     namespace, name) in the same file at the git revision REF (HEAD, main,
                     v1.2.0, HEAD~1): transition rules, ratcheting of unchanged values, CRD
                     update rules and compatibility, and the objects a CRD change breaks. The
                     repository is read without running git.
  --base-cluster     check: the same, against the objects in the cluster of the kubeconfig's
                     current context (read-only; --kubeconfig and --context choose others).
  --compat CATEGORY=SEVERITY
                     check: the severity of a CRD compatibility category (error, warning,
                     information, off), e.g. --compat enum=warning (repeatable).
  --unknown-kinds ignore|hint
                     hint: list the objects whose kind no known CRD defines and the
                     documents whose kind a template decides (not checked). By default
                     they are only counted in the summary.
  --fail-on-unchecked
                     check: exit 1 when an object was not checked because no known CRD
                     defines its kind (as kubeconform and kubectl-validate do without
                     a schema).
  --cel-lint-scope authored|all|off
                     check: the CRDs the CEL lints (CELNoSuchKey, CELConstantRule,
                     CELEmptyMessage) run on. authored (default): not on copies of other
                     projects' CRDs (vendor/, third_party/, upstream/, a dependency chart)
                     nor generated ones (controller-gen or api-approved.kubernetes.io
                     annotation, a literal helm.sh/chart label, a DO NOT EDIT header), except
                     their rules changed against --base; all: every CRD; off: none.
  --kubernetes-version X.Y
                     Check as an API server of Kubernetes X.Y would (1.30 to 1.37, default
                     the newest): its CEL libraries and feature gates.
  -q, --quiet        Do not print information lines (e.g. "no CRD found for ...") nor the
                     progress line.
  --progress         check: print the progress line (files checked / total, the current file)
                     on stderr even when it is not a terminal (by default: only when it is one).
  -j, --jobs N       Check with N threads (default: one per core when the inputs pass 64 MB).
  --follow-symlinks  Follow symbolic links met while searching directories (each real file is
                     still read once, each real directory searched once). By default a search
                     stays inside the directories named: links to directories are not entered
                     and links to files outside them are not read.
  -w, --write        migrate: rewrite the files instead of printing the v1 CRDs.
  --read-back        preview: also the stored object as a client reading each served
                     version gets it (pruned by that version's schema).
  --webhook URL      convert: the webhook (http or https) to send the ConversionReview to.
  --to VERSION       convert: the version to convert to (v1, or group/v1).
  --ca-bundle FILE   convert: PEM certificates to trust for an https webhook (default: the
                     CRD's spec.conversion.webhook.clientConfig.caBundle, else the system's).
  --yaml-1.2         Read scalars as YAML 1.2 core. By default they are read as kubectl and
                     the API server read them (YAML 1.1: yes/no/on/off are booleans, 0755 is
                     octal).
  -h, --help         Show this help.
  -v, --version      Show the version.

Output (text): file:line:col: severity: message [Code field.path], with the API server's exact
message; json and sarif also carry the short message, related locations and quick fixes.

The summary line (standard error) counts what was checked (CRDs, custom resources, partial
objects: patches and test assertions) and what was not, by reason: objects with no CRD for
their kind (--crd, --cluster), documents a template decides, built-in kinds (not validated
yet), patches that are not objects, client-side files.

Exit codes: 0 no errors (warnings allowed), 1 errors found, or objects of kinds no known CRD
defines and nothing at all checked (or any such object, with --fail-on-unchecked), 2 usage or
input error (unknown option, missing file, binary file, no YAML files found, a --crd URL that
could not be downloaded).
`;

/** Parse argv (without `node` and the script). Throws UsageError. */
export function parseArgs(argv: string[]): CliArgs {
  const args: CliArgs = {
    command: 'help',
    paths: [],
    crdPaths: [],
    format: 'text',
    quiet: false,
    yaml12: false,
    fieldValidation: 'Strict',
    builtins: true,
    unknownKinds: 'ignore',
    failOnUnchecked: false,
    followSymlinks: false,
    write: false,
    readBack: false,
    exclude: [],
    cluster: false,
    baseCluster: false,
    compatibility: {},
    celLintScope: 'authored',
    update: false,
    goPatterns: [],
    noGo: false,
  };
  let command: string | undefined;
  let formatGiven: string | undefined;
  let celLintScopeGiven = false;
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i];
    let inline: string | undefined;
    if (a.startsWith('--') && a.includes('=')) {
      inline = a.slice(a.indexOf('=') + 1);
      a = a.slice(0, a.indexOf('='));
    }
    const value = (): string => {
      if (inline !== undefined) return inline;
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`option ${a} needs a value`);
      return v;
    };
    if (a === '--') {
      rest.push(...argv.slice(i + 1));
      break;
    } else if (a === '-h' || a === '--help') return { ...args, command: 'help' };
    else if (a === '-v' || a === '--version') return { ...args, command: 'version' };
    else if (a === '-f' || a === '--format') formatGiven = value();
    else if (a === '--crd') args.crdPaths.push(value());
    else if (a === '--exclude') args.exclude.push(value());
    else if (a === '--catalog') args.catalog = value();
    else if (a === '--update') args.update = true;
    else if (a === '--go') args.goPatterns.push(value());
    else if (a === '--no-go') args.noGo = true;
    else if (a === '--cluster') args.cluster = true;
    else if (a === '--kubeconfig') args.kubeconfig = value();
    else if (a === '--context') args.context = value();
    else if (a === '-q' || a === '--quiet') args.quiet = true;
    else if (a === '--progress') args.progress = true;
    else if (a === '-j' || a === '--jobs') {
      const v = value();
      if (!/^[1-9][0-9]?$/.test(v)) throw new UsageError(`--jobs needs a number of threads from 1 to 99, not "${v}"`);
      args.jobs = Number(v);
    } else if (a === '--yaml-1.2') args.yaml12 = true;
    else if (a === '--follow-symlinks') args.followSymlinks = true;
    else if (a === '-w' || a === '--write') args.write = true;
    else if (a === '--read-back') args.readBack = true;
    else if (a === '--webhook') args.webhook = value();
    else if (a === '--to') args.to = value();
    else if (a === '--ca-bundle') args.caBundle = value();
    else if (a === '--field-validation') {
      const v = value();
      const known = (['Strict', 'Warn', 'Ignore'] as const).find((x) => x.toLowerCase() === v.toLowerCase());
      if (!known) throw new UsageError(`unknown --field-validation "${v}" (expected Strict, Warn or Ignore)`);
      args.fieldValidation = known;
    } else if (a === '--unknown-kinds') {
      const v = value();
      if (v !== 'ignore' && v !== 'hint') throw new UsageError(`unknown --unknown-kinds "${v}" (expected ignore or hint)`);
      args.unknownKinds = v;
    } else if (a === '--builtins') {
      const v = value();
      if (v !== 'on' && v !== 'off') throw new UsageError(`unknown --builtins "${v}" (expected on or off)`);
      args.builtins = v === 'on';
    } else if (a === '--fail-on-unchecked') args.failOnUnchecked = true;
    else if (a === '--base') args.base = value();
    else if (a === '--base-cluster') args.baseCluster = true;
    else if (a === '--compat') {
      const v = value();
      const m = /^([A-Za-z]+)=(error|warning|information|off)$/.exec(v);
      if (!m) throw new UsageError(`--compat takes CATEGORY=error|warning|information|off, not "${v}"`);
      args.compatibility[m[1]] = m[2] as 'error' | 'warning' | 'information' | 'off';
    } else if (a === '--cel-lint-scope') {
      const v = value();
      const scope = CEL_LINT_SCOPES.find((x) => x === v);
      if (!scope) throw new UsageError(`unknown --cel-lint-scope "${v}" (expected ${CEL_LINT_SCOPES.join(', ')})`);
      args.celLintScope = scope;
      celLintScopeGiven = true;
    } else if (a === '--kubernetes-version') {
      const v = value();
      const minor = parseKubernetesVersion(v);
      if (minor === undefined) throw new UsageError(`unknown --kubernetes-version "${v}" (expected ${supportedKubernetesVersions().join(', ')})`);
      args.kubernetesMinor = minor;
    } else if (a.startsWith('-') && a !== '-') throw new UsageError(`unknown option ${a}`);
    else if (command === undefined) command = a;
    else rest.push(a);
  }
  if (command === undefined) throw new UsageError('missing command (check, preview, test, lock, migrate or convert)');
  if (command === 'help') return { ...args, command: 'help' };
  if (command !== 'check' && command !== 'preview' && command !== 'migrate' && command !== 'convert' && command !== 'test' && command !== 'lock') {
    throw new UsageError(`unknown command "${command}" (expected check, preview, test, lock, migrate or convert)`);
  }
  args.command = command;
  args.paths = rest;
  if (args.paths.length === 0) throw new UsageError(`${command}: no paths given`);
  if (args.update && command !== 'lock') throw new UsageError(`${command}: --update is for lock`);
  if (args.write && command !== 'migrate') throw new UsageError(`${command}: --write is for migrate`);
  if (args.readBack && command !== 'preview') throw new UsageError(`${command}: --read-back is for preview`);
  if ((args.base !== undefined || args.baseCluster || Object.keys(args.compatibility).length) && command !== 'check') throw new UsageError(`${command}: --base, --base-cluster and --compat are for check`);
  if (celLintScopeGiven && command !== 'check') throw new UsageError(`${command}: --cel-lint-scope is for check`);
  if (args.failOnUnchecked && command !== 'check') throw new UsageError(`${command}: --fail-on-unchecked is for check`);
  if (args.base !== undefined && args.baseCluster) throw new UsageError('check: --base and --base-cluster exclude each other');
  if (args.write && args.paths.includes('-')) throw new UsageError('migrate: --write cannot rewrite the standard input');
  for (const [flag, v] of [
    ['--webhook', args.webhook],
    ['--to', args.to],
    ['--ca-bundle', args.caBundle],
  ] as const) {
    if (v !== undefined && command !== 'convert') throw new UsageError(`${command}: ${flag} is for convert`);
  }
  if (command === 'convert' && !args.webhook) throw new UsageError('convert: --webhook URL is required');
  if (command === 'convert' && !args.to) throw new UsageError('convert: --to VERSION is required');
  if ((args.kubeconfig !== undefined || args.context !== undefined) && !args.cluster) throw new UsageError('--kubeconfig and --context go with --cluster');
  const allowed: OutputFormat[] = command === 'check' ? ['text', 'json', 'sarif'] : command === 'lock' ? ['text'] : command === 'test' ? ['text', 'junit'] : command === 'migrate' ? ['yaml'] : ['yaml', 'json'];
  const fmt = (formatGiven ?? allowed[0]) as OutputFormat;
  if (!allowed.includes(fmt)) throw new UsageError(`${command}: unknown format "${formatGiven}" (expected ${allowed.join(', ')})`);
  args.format = fmt;
  return args;
}
