import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LanguageService } from '../../server/src/service';
import { celTokenWork } from '../../server/src/service/celTokens';
import { itemScalarWork } from '../../server/src/yaml';
import { crdYaml, specSchemaYaml } from '../crd';

// The highlighting of CEL in validation rules (semantic tokens): every scalar style, placed on the source.

/** Rules in every scalar style (x-kubernetes-validations items of spec, at column 0). */
const RULES = `- rule: self.a > 0 # plain, with a comment
  message: not CEL
- rule: 'self.b.startsWith(''x'')'
  messageExpression: "'bad: ' + self.c"
- rule: "has(self.d) && self.d != \\"q\\""
- rule: |-
    self.items.all(i,
      size(i) <= 3) // short
- messageExpression: >-
    'folded ' +
    string(self.n)
  rule: self.n in [1, 2]
- rule: self.x >
    0 && true
- rule: "self.e == \\
    1.5"`;

/** Keys named `rule` that are not CEL: in prose, in another list, in a description that shows YAML. */
const NOT_CEL = `a:
  type: integer
  description: |
    x-kubernetes-validations:
    - rule: self.inProse
other:
  type: array
  items:
    type: object
    properties:
      rule:
        type: string
  example:
  - rule: self.notARule
`;

const TEXT = crdYaml(specSchemaYaml(NOT_CEL, { rules: RULES }));

/** The tokens of lines from..to of a text, each as `line:character type text`. */
function tokens(service: LanguageService, text: string, from = 0, to = 1000, version = 1): string[] {
  const td = TextDocument.create('file:///ws/crd.yaml', 'yaml', version, text);
  const lines = text.split(/\r?\n/);
  return service.celTokens(td, { start: { line: from, character: 0 }, end: { line: to, character: 0 } }).map((t) => `${t.line}:${t.character} ${t.type} ${lines[t.line].slice(t.character, t.character + t.length)}`);
}

const EXPECTED = [
  '23:20 variable self',
  '23:24 operator .',
  '23:25 property a',
  '23:27 operator >',
  '23:29 number 0',
  '25:21 variable self',
  '25:25 operator .',
  '25:26 property b',
  '25:27 operator .',
  '25:28 method startsWith',
  '25:38 operator (',
  "25:39 string ''x''",
  '25:44 operator )',
  "26:34 string 'bad: '",
  '26:42 operator +',
  '26:44 variable self',
  '26:48 operator .',
  '26:49 property c',
  '27:21 macro has',
  '27:24 operator (',
  '27:25 variable self',
  '27:29 operator .',
  '27:30 property d',
  '27:31 operator )',
  '27:33 operator &&',
  '27:36 variable self',
  '27:40 operator .',
  '27:41 property d',
  '27:43 operator !=',
  '27:46 string \\"q\\"',
  '29:16 variable self',
  '29:20 operator .',
  '29:21 property items',
  '29:26 operator .',
  '29:27 macro all',
  '29:30 operator (',
  '29:31 variable i',
  '29:32 operator ,',
  '30:18 function size',
  '30:22 operator (',
  '30:23 variable i',
  '30:24 operator )',
  '30:26 operator <=',
  '30:29 number 3',
  '30:30 operator )',
  '30:32 comment // short',
  "32:16 string 'folded '",
  '32:26 operator +',
  '33:16 function string',
  '33:22 operator (',
  '33:23 variable self',
  '33:27 operator .',
  '33:28 property n',
  '33:29 operator )',
  '34:20 variable self',
  '34:24 operator .',
  '34:25 property n',
  '34:27 keyword in',
  '34:30 operator [',
  '34:31 number 1',
  '34:32 operator ,',
  '34:34 number 2',
  '34:35 operator ]',
  '35:20 variable self',
  '35:24 operator .',
  '35:25 property x',
  '35:27 operator >',
  '36:16 number 0',
  '36:18 operator &&',
  '36:21 keyword true',
  '37:21 variable self',
  '37:25 operator .',
  '37:26 property e',
  '37:28 operator ==',
  '38:16 number 1.5',
];

test('CEL tokens of every scalar style, on their source; keys named rule elsewhere are not CEL', () => {
  assert.deepEqual(tokens(new LanguageService(), TEXT), EXPECTED);
});

test('CRLF line ends: the same tokens', () => {
  assert.deepEqual(tokens(new LanguageService(), TEXT.replace(/\n/g, '\r\n')), EXPECTED);
});

test('a range: the tokens on its lines only; the text is read to its end, once per text, and only its expressions are decoded', () => {
  const service = new LanguageService();
  const read = itemScalarWork.lines;
  const decoded = celTokenWork.expressions;
  // The top of the document, as an editor opening it asks: nothing of the rules below is read.
  assert.deepEqual(tokens(service, TEXT, 0, 10), []);
  // (Each line at most twice: after a scalar, the next line is looked at to see whether it goes on.)
  assert.ok(itemScalarWork.lines - read <= 2 * 12, `${itemScalarWork.lines - read} lines read for lines 0..10`);
  assert.equal(celTokenWork.expressions - decoded, 0);
  // The second line of a block scalar that starts above the range.
  assert.deepEqual(
    tokens(service, TEXT, 30, 30),
    EXPECTED.filter((t) => t.startsWith('30:')),
  );
  assert.equal(celTokenWork.expressions - decoded, 1);
  // The same text again: nothing read again; the whole document: each expression decoded once more.
  const readBefore = itemScalarWork.lines;
  assert.deepEqual(tokens(service, TEXT, 0, 1000), EXPECTED);
  const again = itemScalarWork.lines - readBefore;
  assert.deepEqual(tokens(service, TEXT, 0, 1000), EXPECTED);
  assert.equal(itemScalarWork.lines - readBefore, again, 'the expressions found are kept for the text');
  assert.equal(celTokenWork.expressions - decoded, 1 + 2 * 9, '9 expressions');
  // An edit: found again in the new text.
  const edited = TEXT.replace('self.a > 0', 'self.a >= 10');
  assert.deepEqual(tokens(service, edited, 23, 23, 2), ['23:20 variable self', '23:24 operator .', '23:25 property a', '23:27 operator >=', '23:30 number 10']);
});

test('a document without x-kubernetes-validations is not read line by line', () => {
  const read = itemScalarWork.lines;
  assert.deepEqual(tokens(new LanguageService(), crdYaml(specSchemaYaml('a:\n  type: integer\n  description: no rule here\n'))), []);
  assert.equal(itemScalarWork.lines - read, 0);
});
