/**
 * Command-line arguments of crd-yaml. Hand-written (no dependency): two commands, a few options.
 */

export type OutputFormat = 'text' | 'json' | 'sarif' | 'yaml';

export interface CliArgs {
  command: 'check' | 'preview' | 'help' | 'version';
  paths: string[];
  /** Extra places to load CRDs from (their own findings are not reported). */
  crdPaths: string[];
  format: OutputFormat;
  /** Hide `info` lines. */
  quiet: boolean;
  /** Read scalars as plain YAML 1.2 core instead of as Kubernetes does (YAML 1.1, go-yaml v2). */
  yaml12: boolean;
  /** Follow symbolic links met while searching directories. */
  followSymlinks: boolean;
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

Options:
  -f, --format FMT   check: text (default), json or sarif (SARIF 2.1.0)
                     preview: yaml (default) or json
  --crd PATH         Also load CRDs from PATH (file or directory; repeatable). Their own
                     problems are not reported.
  -q, --quiet        Do not print information lines (e.g. "no CRD found for ...").
  --follow-symlinks  Follow symbolic links met while searching directories (each real file is
                     still read once, each real directory searched once). By default a search
                     stays inside the directories named: links to directories are not entered
                     and links to files outside them are not read.
  --yaml-1.2         Read scalars as YAML 1.2 core. By default they are read as kubectl and
                     the API server read them (YAML 1.1: yes/no/on/off are booleans, 0755 is
                     octal).
  -h, --help         Show this help.
  -v, --version      Show the version.

Output (text): file:line:col: severity: message [ErrorType field.path]

Exit codes: 0 no errors (warnings allowed), 1 errors found, 2 usage or input error
(unknown option, missing file, binary file, no YAML files found).
`;

/** Parse argv (without `node` and the script). Throws UsageError. */
export function parseArgs(argv: string[]): CliArgs {
  const args: CliArgs = { command: 'help', paths: [], crdPaths: [], format: 'text', quiet: false, yaml12: false, followSymlinks: false };
  let command: string | undefined;
  let formatGiven: string | undefined;
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
    else if (a === '-q' || a === '--quiet') args.quiet = true;
    else if (a === '--yaml-1.2') args.yaml12 = true;
    else if (a === '--follow-symlinks') args.followSymlinks = true;
    else if (a.startsWith('-') && a !== '-') throw new UsageError(`unknown option ${a}`);
    else if (command === undefined) command = a;
    else rest.push(a);
  }
  if (command === undefined) throw new UsageError('missing command (check or preview)');
  if (command === 'help') return { ...args, command: 'help' };
  if (command !== 'check' && command !== 'preview') throw new UsageError(`unknown command "${command}" (expected check or preview)`);
  args.command = command;
  args.paths = rest;
  if (args.paths.length === 0) throw new UsageError(`${command}: no paths given`);
  const allowed: OutputFormat[] = command === 'check' ? ['text', 'json', 'sarif'] : ['yaml', 'json'];
  const fmt = (formatGiven ?? allowed[0]) as OutputFormat;
  if (!allowed.includes(fmt)) throw new UsageError(`${command}: unknown format "${formatGiven}" (expected ${allowed.join(', ')})`);
  args.format = fmt;
  return args;
}
