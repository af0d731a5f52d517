/**
 * In-process profile of bench scenario (e): keystrokes in a property name of the argo CronWorkflow CRD
 * with 5 CronWorkflows open, each timed until the CRD and every dependent custom resource is re-checked.
 *
 *   node --import tsx bench/inproc-e.ts [edits]
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LanguageService } from '../server/src/service/languageService';

const edits = Number(process.argv[2] ?? '20');
const shared = path.resolve(__dirname, '..', '..', 'shared', 'realworld');
const text = fs.readFileSync(path.join(shared, 'crds', 'argo-workflows', 'argoproj.io_cronworkflows.yaml'), 'utf8');
const sample = fs.readFileSync(path.join(shared, 'samples', 'argo-workflows', 'cron-workflow.yaml'), 'utf8');
const svc = new LanguageService();
let crd = TextDocument.create('file:///ws/crd.yaml', 'yaml', 1, text);
const crs = Array.from({ length: 5 }, (_, i) => TextDocument.create(`file:///ws/cr${i}.yaml`, 'yaml', 1, sample.replace('name: hello-world', `name: hello-world-${i}`)));
let t0 = performance.now();
svc.update(crd);
svc.findings(crd);
for (const cr of crs) {
  svc.update(cr);
  svc.findings(cr);
}
console.log(`open: ${(performance.now() - t0).toFixed(1)} ms`);
const at = text.indexOf('\n              timezone:\n') + '\n              timez'.length;
const times: number[] = [];
for (let i = 0; i < edits; i++) {
  const [a, b] = i % 2 === 0 ? ['o', 'x'] : ['x', 'o'];
  const pos = crd.positionAt(at);
  crd = TextDocument.update(crd, [{ range: { start: pos, end: { line: pos.line, character: pos.character + a.length } }, text: b }], crd.version + 1);
  t0 = performance.now();
  const changed = svc.update(crd);
  svc.findings(crd);
  const deps = new Set(svc.dependents(changed));
  let n = 0;
  for (const cr of crs) if (deps.has(cr.uri)) n += svc.findings(cr).length;
  times.push(performance.now() - t0);
  if (i === 0) console.log(`first edit: ${deps.size} dependents, ${n} findings`);
}
times.sort((x, y) => x - y);
console.log(`CRD keystroke + dependents: median ${times[Math.floor(times.length / 2)].toFixed(1)} ms, p95 ${times[Math.floor(times.length * 0.95)].toFixed(1)} ms`);
