/**
 * A repository-like tree for the `repo` bench (issue 22): Helm charts built from the real CRDs and samples
 * of ../shared/realworld, as chart collections lay them out. Each project is a chart: `crds/` holds its
 * CRDs, `templates/` its samples as templates (a condition around each, a label from the release, a
 * ConfigMap of regular expressions), and one chart ships its CRDs as templates (`templates/crds/`,
 * behind `{{- if .Values.crds.install }}`, as argo-helm's argo-cd chart does). A kustomize overlay
 * beside the charts patches one of the samples.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { yamlFiles } from './fixtures';

/** The charts written, by folder (relative to the tree's root). */
export interface RepositoryTree {
  root: string;
  charts: string[];
  bytes: number;
}

/** A sample as a chart template: kept whole, under a condition, with a templated label. */
function asTemplate(sample: string): string {
  const labelled = sample.replace(/^metadata:\n/m, 'metadata:\n  labels:\n    app.kubernetes.io/instance: {{ .Release.Name | quote }}\n');
  return `{{- if .Values.enabled }}\n${labelled.trimEnd()}\n{{- end }}\n`;
}

const REGEX_CONFIGMAP = `apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ include "chart.fullname" . }}-relabel
data:
  relabel: {{ regexReplaceAll "\\\\s+" .Values.relabel "" | quote }}
  pattern: "^(\\\\d+)\\\\.(\\\\d+)$"
`;

/** Writes the tree under `root` (emptied first). */
export function writeRepositoryTree(root: string, realworld: string): RepositoryTree {
  fs.rmSync(root, { recursive: true, force: true });
  const crdsRoot = path.join(realworld, 'crds');
  const samplesRoot = path.join(realworld, 'samples');
  const charts: string[] = [];
  let bytes = 0;
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    bytes += Buffer.byteLength(text);
  };
  const projects = fs.readdirSync(crdsRoot).sort();
  for (const [i, project] of projects.entries()) {
    const chart = path.join('charts', project);
    charts.push(chart);
    const dir = path.join(root, chart);
    write(path.join(dir, 'Chart.yaml'), `apiVersion: v2\nname: ${project}\nversion: 1.0.${i}\n`);
    write(path.join(dir, 'values.yaml'), `enabled: true\ncrds:\n  install: true\nrelabel: "a b"\n`);
    // The first chart ships its CRDs as templates; the others in crds/.
    const templated = i === 0;
    for (const f of yamlFiles(path.join(crdsRoot, project))) {
      const text = fs.readFileSync(f, 'utf8');
      const name = path.basename(f);
      if (templated) write(path.join(dir, 'templates', 'crds', name), `{{- if .Values.crds.install }}\n${text.trimEnd()}\n{{- end }}\n`);
      else write(path.join(dir, 'crds', name), text);
    }
    const samples = path.join(samplesRoot, project);
    if (fs.existsSync(samples)) for (const f of yamlFiles(samples)) write(path.join(dir, 'templates', path.basename(f)), asTemplate(fs.readFileSync(f, 'utf8')));
    write(path.join(dir, 'templates', 'configmap.yaml'), REGEX_CONFIGMAP);
  }
  // A kustomize overlay of one sample, checked with the charts.
  const sample = [...yamlFiles(samplesRoot)][0];
  const overlay = path.join(root, 'deploy', 'overlays', 'prod');
  write(path.join(root, 'deploy', 'base', 'kustomization.yaml'), `resources:\n  - ${path.basename(sample)}\n`);
  write(path.join(root, 'deploy', 'base', path.basename(sample)), fs.readFileSync(sample, 'utf8'));
  write(path.join(overlay, 'kustomization.yaml'), `resources:\n  - ../../base\npatches:\n  - path: patch.yaml\n`);
  write(path.join(overlay, 'patch.yaml'), fs.readFileSync(sample, 'utf8').replace(/^spec:[\s\S]*/m, 'spec: {}\n'));
  charts.push('deploy');
  return { root, charts, bytes };
}
