/**
 * `crd-yaml convert --webhook URL --to VERSION PATHS...`: the custom resources of PATHS, per CRD, sent
 * to a conversion webhook the user runs, checked as the API server checks the answer, and created at the
 * target version (service/conversionWebhook.ts). Prints the converted objects; problems go to stderr as
 * `file:line:col: error: message`, with the API server's messages.
 */
import { stringify } from 'yaml';
import { errorMessage } from '../engine';
import { parseJSONLossless, stringifyJSONLossless } from '../engine';
import { BUILTIN_API_GROUPS, type YamlVersion } from '../yaml';
import { roleOf } from '../service';
import { headRange } from '../service';
import type { IndexedCrd } from '../workspace/crdIndex';
import { checkConversionWebhook } from '../service';
import { postJson, type WebhookAnswer } from '../net/webhook';
import { openInputs } from './check';
import type { InputFile } from './files';

export interface ConvertOptions {
  webhook: string;
  to: string;
  crdFiles?: InputFile[];
  yamlVersion?: YamlVersion;
  /** PEM text of the CAs to trust (--ca-bundle); otherwise the CRD's caBundle, otherwise the system's. */
  ca?: string;
  format: 'yaml' | 'json';
  /** The Kubernetes minor checked as (--kubernetes-version); undefined: the newest. */
  kubernetesMinor?: number;
  /** The HTTP call (tests may replace it); postJson by default. */
  post?: (url: string, body: string, ca: string | undefined) => Promise<WebhookAnswer>;
}

export interface ConvertReport {
  stdout: string;
  lines: string[];
  /** Objects converted and valid at the target version. */
  converted: number;
  errors: number;
  /** Custom resources found (with or without a CRD). */
  objects: number;
}

export async function convertFiles(files: InputFile[], opts: ConvertOptions): Promise<ConvertReport> {
  const report: ConvertReport = { stdout: '', lines: [], converted: 0, errors: 0, objects: 0 };
  // The same CRD index as `check` (inputs as open documents, --crd files as workspace files).
  const { service, docs: inputs, paths } = openInputs(files, { crdFiles: opts.crdFiles, yamlVersion: opts.yamlVersion, kubernetesMinor: opts.kubernetesMinor });
  const fileOf = (crd: IndexedCrd) => paths.get(crd.uri) ?? crd.uri;
  // The custom resources of each CRD, in input order.
  const groups = new Map<IndexedCrd, { file: string; value: unknown; where: string }[]>();
  for (const { file, td } of inputs) {
    for (const doc of service.file(td).documents) {
      const role = roleOf(doc.value);
      if (role.role !== 'cr' || BUILTIN_API_GROUPS.has(role.group)) continue;
      report.objects++;
      const at = headRange(td, doc).start;
      const where = `${file.path}:${at.line + 1}:${at.character + 1}`;
      if (doc.errors.some((x) => x.severity === 'error')) {
        report.lines.push(`${where}: error: YAML syntax errors; run crd-yaml check for details`);
        report.errors++;
        continue;
      }
      const crd = service.index.lookup(role.group, role.kind);
      if (!crd || crd.broken) {
        report.lines.push(
          `${where}: info: ${crd ? `the CustomResourceDefinition ${crd.name} has YAML syntax errors` : `no CustomResourceDefinition for kind ${role.kind} in group ${role.group} among the given paths`}; not sent`,
        );
        continue;
      }
      const list = groups.get(crd) ?? groups.set(crd, []).get(crd)!;
      list.push({ file: file.path, value: doc.value, where });
    }
  }
  const out: unknown[] = [];
  const post = opts.post ?? ((url, body, ca) => postJson(url, body, { ca }));
  for (const [crd, docs] of groups) {
    const result = await checkConversionWebhook(
      crd.crd,
      docs.map((d) => d.value),
      opts.to,
      crypto.randomUUID(),
      (body, crdCa) => post(opts.webhook, body, opts.ca ?? crdCa),
      { kubernetesMinor: opts.kubernetesMinor },
    );
    const whereOf = (i: number | undefined) => docs[i ?? result.sent[0] ?? 0]?.where ?? fileOf(crd);
    for (const e of result.errors) {
      report.errors++;
      report.lines.push(`${whereOf(e.object)}: error: ${e.message}`);
    }
    for (const c of result.converted ?? []) {
      for (const e of c.errors) report.lines.push(`${whereOf(c.source)}: error: ${errorMessage(e)} (after conversion to ${result.desiredAPIVersion})`);
      for (const w of c.warnings) report.lines.push(`${whereOf(c.source)}: warning: ${errorMessage(w)} (after conversion to ${result.desiredAPIVersion})`);
      report.errors += c.errors.length;
      if (c.errors.length === 0) report.converted++;
      out.push(c.object);
    }
    if (result.converted && result.sent.length < docs.length) {
      const n = docs.length - result.sent.length;
      report.lines.push(`${fileOf(crd)}: info: ${n} object${n === 1 ? '' : 's'} of ${crd.name} already at ${result.desiredAPIVersion}: not sent`);
    }
  }
  // Plain numbers for the printers (IntegralFloat marks only matter to validation).
  const plain = out.map((o) => parseJSONLossless(stringifyJSONLossless(o)));
  report.stdout = opts.format === 'json' ? stringifyJSONLossless(plain, 2) + '\n' : plain.map((o) => stringify(o, { lineWidth: 0 })).join('---\n');
  return report;
}
