/**
 * In-process keystroke profile of the language service (no LSP transport): the same edits as the bench
 * scenarios, timing update + quick diagnostics per keystroke. Run with `node --cpu-prof` to see where
 * the time goes.
 *
 *   node --import tsx bench/inproc.ts [a|c|c2|c3|c4] [edits]   (c: a description, c2: a key, c3: a type, c4: a CEL rule)
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LanguageService } from '../server/src/service/languageService';
import { CRONTAB_CRD, cronTabs } from './fixtures';

const scenario = process.argv[2] ?? 'a';
const edits = Number(process.argv[3] ?? '40');
const svc = new LanguageService();
let text: string;
let offset: number;
let alt: [string, string];
if (scenario === 'a') {
  const crd = TextDocument.create('file:///crd.yaml', 'yaml', 1, CRONTAB_CRD);
  svc.update(crd);
  text = cronTabs(300);
  offset = text.indexOf('replicas: 1', Math.floor(text.length / 2)) + 'replicas: '.length;
  alt = ['1', '7'];
} else {
  text = fs.readFileSync(path.resolve(__dirname, '..', '..', 'shared', 'realworld', 'crds', 'argo-workflows', 'argoproj.io_cronworkflows.yaml'), 'utf8');
  const mid = Math.floor(text.length / 2);
  if (scenario === 'c2') {
    const key = text.indexOf('properties:\n', mid);
    const keyLine = text.indexOf('\n', key + 'properties:\n'.length - 1) + 1;
    offset = keyLine + (/^ */.exec(text.slice(keyLine))?.[0].length ?? 0) + 1;
  } else if (scenario === 'c3') offset = text.indexOf('type: string', mid) + 'type: strin'.length;
  else if (scenario === 'c4') offset = text.indexOf('(self.', text.indexOf("rule: '", mid)) + '(self.'.length;
  else offset = text.indexOf('description: ', mid) + 'description: '.length;
  alt = [text[offset], text[offset] === 'x' ? 'y' : 'x'];
}
let td = TextDocument.create('file:///f.yaml', 'yaml', 1, text);
let t0 = performance.now();
svc.update(td);
const first = svc.findings(td);
console.log(`open: ${(performance.now() - t0).toFixed(1)} ms, ${first.length} findings`);
const times: number[] = [];
for (let i = 0; i < edits; i++) {
  const [a, b] = i % 2 === 0 ? alt : [alt[1], alt[0]];
  const pos = td.positionAt(offset);
  td = TextDocument.update(td, [{ range: { start: pos, end: { line: pos.line, character: pos.character + a.length } }, text: b }], td.version + 1);
  t0 = performance.now();
  svc.update(td);
  svc.findings(td);
  times.push(performance.now() - t0);
}
times.sort((x, y) => x - y);
console.log(`keystroke: median ${times[Math.floor(times.length / 2)].toFixed(2)} ms, p95 ${times[Math.floor(times.length * 0.95)].toFixed(2)} ms`);
