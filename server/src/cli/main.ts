/**
 * The crd-yaml command line, as a function of its arguments and output streams (tested in process;
 * server/src/cli.ts wires it to the real process).
 */
import { checkFiles, readBaselines, type CheckOptions, type CheckReport } from './check';
import { parseArgs, UsageError, USAGE, type CliArgs } from './args';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { collectYamlFiles, describeFsError, type CollectResult, type InputFile } from './files';
import { convertFiles } from './convert';
import { migrateFiles } from './migrate';
import { formatTestJunit, formatTestText, isTestFile, runTestFiles } from './test';
import { excludedBy, remoteCrdFiles, repositoryContexts } from './sources';
import { isUrl } from '../workspace/sources';
import { catalogCrdFiles, catalogOf, checkWithCatalog, writeLock } from './catalog';
import { checkGoPackages, type GoCheck } from './goCheck';
import { formatJsonPieces, formatSarif, formatSummary, formatText, nothingChecked, summarize } from './format';
import { formatPreviewJson, formatPreviewYaml, hasErrors, previewFiles } from './preview';
import pkg from '../../../package.json';

/** Where the CLI writes, and the directory relative paths are resolved against (for SARIF). */
export interface CliIO {
  stdout: (s: string) => void;
  /**
   * Output already encoded as UTF-8 (a check worker's report, cli/jobs.ts: written as it came, not made a
   * string again); without it, the bytes are decoded and given to `stdout`.
   */
  stdoutBytes?: (b: Uint8Array) => void;
  stderr: (s: string) => void;
  cwd: string;
  /**
   * A worker's share of `check` (cli/jobs.ts): its report goes to `report` instead of being printed (the
   * main thread merges the shares and prints them with printCheckReport).
   */
  shard?: { index: number; count: number; report: (r: { report: CheckReport; inputErrors: string[] }) => void };
  /** `check`: told each input's report once it is checked (a worker posts them, cli/jobs.ts). */
  onInput?: CheckOptions['onInput'];
  /** `check`: the inputs a failed worker had checked, taken as they are (cli/jobs.ts). */
  done?: CheckOptions['done'];
  /** stderr is a terminal this wide (the progress line is shown there unless --quiet). */
  terminal?: { columns: number };
}

/** Exit codes: 0 clean, 1 errors found, 2 usage or input error. */
export const EXIT_OK = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_USAGE = 2;

/**
 * Run the CLI; returns the exit code (a promise for `convert`, which calls a webhook). Never throws:
 * every failure becomes one line on stderr.
 */
export function runCli(argv: string[], io: CliIO): number | Promise<number> {
  const failed = (e: unknown): number => {
    if (e instanceof UsageError) {
      io.stderr(`crd-yaml: ${e.message}\nRun 'crd-yaml --help' for usage.\n`);
      return EXIT_USAGE;
    }
    const msg = e instanceof Error ? e.message : String(e);
    io.stderr(`crd-yaml: internal error: ${msg.split('\n')[0]}\n`);
    return EXIT_USAGE;
  };
  try {
    const code = run(argv, io);
    return typeof code === 'number' ? code : code.catch(failed);
  } catch (e) {
    return failed(e);
  }
}

/** The CRDs of `--crd` URLs and `--cluster` (fetched before the check), and why some are missing. */
type RemoteCrds = { files: InputFile[]; errors: string[] };

function run(argv: string[], io: CliIO): number | Promise<number> {
  const args = parseArgs(argv);
  if (args.command === 'help') {
    io.stdout(USAGE);
    return EXIT_OK;
  }
  if (args.command === 'version') {
    io.stdout(`crd-yaml ${pkg.version}\n`);
    return EXIT_OK;
  }
  // The network is used only for --cluster and --crd URLs.
  const remote = args.cluster || args.crdPaths.some(isUrl) ? remoteCrdFiles(args) : undefined;
  // One search of the folders given: YAML files, and the Go API packages `check` generates and checks
  // before the YAML (a worker's share has none).
  const withGo = args.command === 'check' && !io.shard && !args.noGo;
  const collected = collectYamlFiles(args.paths, io.cwd, { followSymlinks: args.followSymlinks, goPackages: withGo });
  const go = args.command === 'check' && !io.shard && (collected.goPackages.length || args.goPatterns.length) ? goPackages(args, io, collected) : undefined;
  if (remote || go) return Promise.all([remote, go]).then(([r, g]) => runWith(args, io, r ?? { files: [], errors: [] }, collected, g));
  return runWith(args, io, { files: [], errors: [] }, collected);
}

/** The Go check of `check` (cli/goCheck.ts), when the arguments name Go packages or folders that hold them. */
async function goPackages(args: ReturnType<typeof parseArgs>, io: CliIO, collected: CollectResult): Promise<GoCheck | undefined> {
  const g = await checkGoPackages(collected.goPackages, args.goPatterns, { cwd: io.cwd, fieldValidation: args.fieldValidation, kubernetesMinor: args.kubernetesMinor, celLintScope: args.celLintScope });
  return { ...g, dirs: collected.goRoots };
}

function runWith(args: ReturnType<typeof parseArgs>, io: CliIO, remote: RemoteCrds, collected: CollectResult, go?: GoCheck): number | Promise<number> {
  const collectOpts = { followSymlinks: args.followSymlinks };
  const { skippedLinks } = collected;
  const inputErrors = [...collected.inputErrors];
  // Said once, not an input error: the YAML is still checked and the exit code is the findings'.
  for (const n of go?.notes ?? []) io.stderr(`crd-yaml: ${n}\n`);
  // --exclude: not checked, but the CRDs they define are still used.
  const excluded = excludedBy(args.exclude, io.cwd);
  const files = collected.files.filter((f) => !excluded(f.path));
  let crdFiles: InputFile[] = collected.files.filter((f) => excluded(f.path) && f.text.includes('CustomResourceDefinition'));
  const localCrds = args.crdPaths.filter((p) => !isUrl(p));
  if (localCrds.length) {
    const c = collectYamlFiles(localCrds, io.cwd, collectOpts);
    crdFiles.push(...c.files);
    inputErrors.push(...c.inputErrors);
    skippedLinks.push(...c.skippedLinks);
  }
  crdFiles.push(...remote.files);
  inputErrors.push(...remote.errors);
  const repo = repositoryContexts(files, io.cwd);
  crdFiles = [...crdFiles, ...repo.chartCrds];
  inputErrors.push(...repo.errors);
  for (const e of inputErrors) io.stderr(`crd-yaml: ${e}\n`);
  if (skippedLinks.length && !args.quiet) {
    const n = skippedLinks.length;
    io.stderr(`crd-yaml: ${n} symbolic ${n === 1 ? 'link' : 'links'} not followed (${skippedLinks.slice(0, 3).join(', ')}${n > 3 ? ', ...' : ''}); --follow-symlinks follows them\n`);
  }
  const yamlVersion = args.yaml12 ? '1.2' : '1.1';
  const opts = {
    crdFiles,
    yamlVersion,
    fieldValidation: args.fieldValidation,
    unknownKinds: args.unknownKinds,
    kubernetesMinor: args.kubernetesMinor,
    celLintScope: args.celLintScope,
    builtins: args.builtins,
    cwd: io.cwd,
    contexts: repo.contexts,
  } as const;

  if (args.command === 'test') {
    // Named files are test files whatever their name; in folders, *.crdtest.yaml. The other YAML files
    // there are where `crd: group/Kind` is looked up, with --crd.
    const named = new Set(args.paths.map((p) => path.resolve(io.cwd, p)));
    const tests = files.filter((f) => isTestFile(f.path) || named.has(path.resolve(io.cwd, f.path)));
    const others = files.filter((f) => !tests.includes(f));
    if (tests.length === 0) {
      io.stderr(`crd-yaml: no *.crdtest.yaml files in ${args.paths.join(', ')}\n`);
      return EXIT_USAGE;
    }
    // `crd: group/Kind` no local CRD defines: from the catalog, as check (cli/catalog.ts).
    const cat = catalogOf(args, io.cwd);
    if ('error' in cat) {
      io.stderr(`crd-yaml: ${cat.error}\n`);
      return EXIT_USAGE;
    }
    const ran = runTestFiles(tests, { crdFiles: [...crdFiles, ...others], cwd: io.cwd, kubernetesMinor: args.kubernetesMinor, catalog: cat.catalog });
    const printed = (r: Awaited<typeof ran>): number => {
      for (const n of r.catalogNotes) if (!args.quiet) io.stderr(`crd-yaml: ${n}\n`);
      for (const e of r.catalogErrors) io.stderr(`crd-yaml: ${e}\n`);
      for (const p of r.fileProblems) io.stderr(`crd-yaml: ${p}\n`);
      io.stdout(args.format === 'junit' ? formatTestJunit(r) : formatTestText(r));
      if (inputErrors.length || r.catalogErrors.length) return EXIT_USAGE;
      return r.cases.some((c) => !c.outcome.passed) || r.fileProblems.length > 0 ? EXIT_FINDINGS : EXIT_OK;
    };
    return ran instanceof Promise ? ran.then(printed) : printed(ran);
  }

  if (args.command === 'migrate') {
    const r = migrateFiles(files, { write: args.write, cwd: io.cwd, yamlVersion });
    io.stdout(r.stdout);
    for (const l of r.lines) io.stderr(l + '\n');
    if (r.migrated === 0) {
      if (files.length) io.stderr(`crd-yaml: no apiextensions.k8s.io/v1beta1 CustomResourceDefinition in ${args.paths.join(', ')}\n`);
      return EXIT_USAGE;
    }
    if (inputErrors.length || r.writeErrors) return EXIT_USAGE;
    return r.manual > 0 ? EXIT_FINDINGS : EXIT_OK;
  }

  if (args.command === 'convert') {
    let ca: string | undefined;
    if (args.caBundle !== undefined) {
      try {
        ca = fs.readFileSync(path.resolve(io.cwd, args.caBundle), 'utf8');
      } catch (e) {
        io.stderr(`crd-yaml: ${args.caBundle}: ${describeFsError(e)}\n`);
        return EXIT_USAGE;
      }
    }
    const format = args.format === 'json' ? 'json' : 'yaml';
    return convertFiles(files, { webhook: args.webhook!, to: args.to!, crdFiles, yamlVersion, ca, format, kubernetesMinor: args.kubernetesMinor }).then((r) => {
      io.stdout(r.stdout);
      for (const l of r.lines) io.stderr(l + '\n');
      if (r.objects === 0) {
        if (files.length) io.stderr(`crd-yaml: no custom resources to convert in ${args.paths.join(', ')}\n`);
        return EXIT_USAGE;
      }
      if (inputErrors.length) return EXIT_USAGE;
      return r.errors > 0 ? EXIT_FINDINGS : EXIT_OK;
    });
  }

  // The catalog (cli/catalog.ts) for the kinds no local CRD defines: check, preview and lock.
  const cat = args.command === 'check' || args.command === 'preview' || args.command === 'lock' ? catalogOf(args, io.cwd) : { lockFile: '' };
  if ('error' in cat) {
    io.stderr(`crd-yaml: ${cat.error}\n`);
    return EXIT_USAGE;
  }
  if (args.command === 'lock') {
    return writeLock(files, opts, args, io.cwd).then((r) => {
      for (const l of r.lines) io.stderr(`crd-yaml: ${l}\n`);
      return inputErrors.length ? EXIT_USAGE : r.code;
    });
  }
  const catalog = cat.catalog;
  // Said once on standard error; a CRD the lock refuses is an input error.
  const told = (r: { errors: string[]; notes: string[] }) => {
    for (const n of r.notes) if (!args.quiet) io.stderr(`crd-yaml: ${n}\n`);
    for (const e of r.errors) io.stderr(`crd-yaml: ${e}\n`);
    inputErrors.push(...r.errors);
  };

  if (args.command === 'preview' && catalog) {
    return catalogCrdFiles(files, opts, catalog).then((r) => {
      told(r);
      return preview({ ...opts, crdFiles: [...crdFiles, ...r.crdFiles] });
    });
  }
  if (args.command === 'preview') return preview(opts);
  function preview(opts: Parameters<typeof previewFiles>[1]): number {
    const entries = previewFiles(files, { ...opts, readBack: args.readBack });
    if (entries.length === 0) {
      if (files.length) io.stderr(`crd-yaml: no custom resources to preview in ${args.paths.join(', ')}\n`);
      return EXIT_USAGE;
    }
    io.stdout(args.format === 'json' ? formatPreviewJson(entries) : formatPreviewYaml(entries));
    if (inputErrors.length) return EXIT_USAGE;
    return entries.some(hasErrors) ? EXIT_FINDINGS : EXIT_OK;
  }

  if (args.base !== undefined || args.baseCluster) {
    return readBaselines(files, { base: args.base, cluster: args.baseCluster, cwd: io.cwd, kubeconfig: args.kubeconfig, context: args.context }).then((r) => {
      if ('error' in r) {
        io.stderr(`crd-yaml: ${r.error}\n`);
        return EXIT_USAGE;
      }
      const checkOpts = { ...opts, baselines: r.baselines, compatibility: args.compatibility, fixes: args.format !== 'text' };
      if (!catalog) return printCheckReport(checkFiles(files, checkOpts), args, io, inputErrors);
      return checkWithCatalog(files, checkOpts, catalog).then((c) => {
        told(c);
        return printCheckReport(c.report, args, io, inputErrors);
      });
    });
  }
  const checkOpts: CheckOptions = { ...opts, compatibility: args.compatibility, fixes: args.format !== 'text', ...(io.shard ? { shard: io.shard } : {}), onInput: io.onInput, done: io.done };
  if (catalog) {
    return checkWithCatalog(files, checkOpts, catalog).then((c) => {
      told(c);
      return reported(c.report);
    });
  }
  return reported(checkFiles(files, checkOpts));

  function reported(report: CheckReport): number {
    if (go) {
      report.findings.push(...go.findings);
      report.files += go.files;
      // Each generated CRD is a CRD document checked.
      report.documents += go.crds;
      report.coverage.checked.crd += go.crds;
    }
    if (io.shard) {
      io.shard.report({ report, inputErrors });
      return EXIT_OK;
    }
    return printCheckReport(report, args, io, inputErrors);
  }
}

/**
 * Prints a check report as args ask; returns the exit code: 1 for errors, and for objects no known CRD
 * defines when nothing at all could be checked or with --fail-on-unchecked.
 */
export function printCheckReport(report: CheckReport, args: Pick<CliArgs, 'quiet' | 'format' | 'unknownKinds' | 'failOnUnchecked'>, io: CliIO, inputErrors: string[]): number {
  const counts = summarize(report.findings);
  if (args.quiet) report.findings = report.findings.filter((f) => f.severity === 'error' || f.severity === 'warning');
  // In pieces: the report of thousands of files is not made one string (format.ts).
  if (args.format === 'json') for (const piece of formatJsonPieces(report, inputErrors, io.cwd)) io.stdout(piece);
  else if (args.format === 'sarif') io.stdout(formatSarif(report, { version: pkg.version, cwd: io.cwd, inputErrors }));
  else {
    io.stdout(formatText(report.findings));
    if (report.files === 0) return inputErrors.length ? EXIT_USAGE : EXIT_OK;
    io.stderr(formatSummary(report, counts, { hint: args.unknownKinds === 'hint', catalog: report.catalog === 'asked' }));
  }
  if (inputErrors.length) return EXIT_USAGE;
  const unchecked = report.coverage.notChecked.noCrd > 0 && (args.failOnUnchecked || nothingChecked(report.coverage));
  return counts.error > 0 || unchecked ? EXIT_FINDINGS : EXIT_OK;
}
