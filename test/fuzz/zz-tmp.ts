import { TextDocument } from 'vscode-languageserver-textdocument';
import { LanguageService } from '../../server/src/service/languageService';
import { crdWithSchema, yq } from './gen';
const N = Number(process.argv[3]);
const rules: Record<string, string> = {
  parens: `${'('.repeat(N)}1${')'.repeat(N)} == 1`,
  not: `${'!'.repeat(N)}true`,
  neg: `${'-'.repeat(N)}1 == 1`,
  plus: `${Array(N).fill('1').join(' + ')} > 0`,
  and: `${Array(N).fill('true').join(' && ')}`,
  lists: `size(${'['.repeat(N)}${']'.repeat(N)}) == 1`,
  maps: `size(${'{1: '.repeat(N)}1${'}'.repeat(N)}) == 1`,
  select: `has(self${'.a'.repeat(N)})`,
  ternary: `${Array(N).fill('true ? 1 :').join(' ')} 2 == 1`,
  calls: `${'size('.repeat(N)}self.s${')'.repeat(N)} > 0`,
  strings: `self.s${'.lowerAscii()'.repeat(N)} != ""`,
};
const name = process.argv[2];
const crd = crdWithSchema(`type: object\nproperties:\n  spec:\n    type: object\n    x-kubernetes-validations:\n    - rule: ${yq(rules[name])}\n    properties:\n      s: {type: string, maxLength: 10}\n`);
const s = new LanguageService();
for (let i = 0; i < 3; i++) {
  const td = TextDocument.create('file:///c.yaml', 'yaml', i + 1, crd + '#'.repeat(i));
  s.update(td);
  const c = process.cpuUsage();
  const d = s.diagnostics(td);
  const cr = TextDocument.create('file:///r.yaml', 'yaml', i + 1, `apiVersion: fuzz.example.com/v1\nkind: Fuzz\nmetadata:\n  name: x\nspec:\n  s: abc${i}\n`);
  s.update(cr);
  const d2 = s.diagnostics(cr);
  const h = s.hover(td, td.positionAt(crd.indexOf('rule: ') + 10));
  if (i === 2) console.log(name, N, ((process.cpuUsage(c).user) / 1000).toFixed(0) + 'ms', d.map((x) => String(x.code) + ' ' + x.message.slice(-80).replace(/\n/g, ' ')).slice(0, 2), d2.map((x) => x.message.slice(0, 100)).slice(0, 1), h ? 'hover' : 'nohover');
}
