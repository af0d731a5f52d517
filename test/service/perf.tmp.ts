import { readFileSync } from 'node:fs';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LanguageService } from '../../server/src/service/languageService';
const s = new LanguageService();
s.update(TextDocument.create('file:///crd.yaml', 'yaml', 1, readFileSync('examples/crontab-crd.yaml', 'utf8')));
let text = '';
for (let i = 0; i < 300; i++) text += `---\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: c${i}\nspec:\n  cronSpec: "* * * * */5"\n  image: img-${i}\n  replicas: ${i % 12}\n`;
let td = TextDocument.create('file:///crs.yaml', 'yaml', 1, text);
let t = performance.now(); s.update(td); let d = s.diagnostics(td); console.log('cold', (performance.now() - t).toFixed(1), d.length);
const times: number[] = [];
for (let k = 0; k < 200; k++) {
  const off = text.indexOf('image: img-150') + 14;
  text = text.slice(0, off) + 'x' + text.slice(off);
  td = TextDocument.update(td, [{ text }], td.version + 1);
  t = performance.now(); s.update(td); d = s.diagnostics(td); times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
console.log('median', times[100].toFixed(2), 'p95', times[190].toFixed(2), d.length);
