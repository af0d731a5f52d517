/**
 * Completion, hover and signature help inside the CEL expressions of a CRD, as an editor asks for them:
 * a cursor in a `rule:` or `messageExpression:` value written in any YAML scalar style. Types come from
 * the engine's checker (the service approximates nothing).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LanguageService } from '../../server/src/service/languageService';
import { docOf } from './helpers';
import { celCrdYaml } from '../crd';

/** A rule item as it stands in the schema (x-kubernetes-validations of spec). */
const rule = (text: string) => `- rule: ${text}`;

function at(text: string): { s: LanguageService; td: ReturnType<typeof docOf>['td']; pos: ReturnType<typeof docOf>['pos'] } {
  const s = new LanguageService();
  const { td, pos } = docOf(text);
  s.update(td);
  return { s, td, pos };
}

const labels = (items: Array<{ label: string }>) => items.map((i) => i.label);

test('completion: after `self.workers.all(l, l.` the list item fields (escaped), not functions of other types', () => {
  const { s, td, pos } = at(celCrdYaml(rule('"self.workers.all(l, l.<|>)"')));
  const items = s.completion(td, pos);
  const l = labels(items);
  assert.ok(
    ['image', 'replicas', 'node__dash__selector'].every((x) => l.includes(x)),
    l.join(','),
  );
  assert.ok(!l.includes('startsWith') && !l.includes('all'), 'an object has no string or list functions: ' + l.join(','));
  const image = items.find((i) => i.label === 'image')!;
  assert.match(String(image.detail), /string \(required\)/);
  assert.match(String(items.find((i) => i.label === 'replicas')!.detail), /int \(has a default\)/);
  assert.match(String(items.find((i) => i.label === 'node__dash__selector')!.detail), /property "node-selector"/);
});

test('completion: `all` and `exists` once each on a list, with the signatures of both macros (one and two variables)', () => {
  const { s, td, pos } = at(celCrdYaml(rule('"self.workers.<|>"')));
  const items = s.completion(td, pos);
  const l = labels(items);
  assert.ok(l.includes('all') && l.includes('exists'), l.join(','));
  assert.deepEqual(
    l.filter((x, i) => l.indexOf(x) !== i),
    [],
    'no label twice',
  );
  const all = items.find((i) => i.label === 'all')!;
  assert.match(String(all.detail), /list\.all\(x, predicate\).*list\.all\(i, v, predicate\)/);
});

test('completion: after `self.name.` (a string) only string functions; a typed prefix is replaced', () => {
  const { s, td, pos } = at(celCrdYaml(rule('"self.name.<|>"')));
  const l = labels(s.completion(td, pos));
  assert.ok(
    ['startsWith', 'matches', 'size', 'split', 'lowerAscii'].every((x) => l.includes(x)),
    l.join(','),
  );
  assert.ok(!l.includes('all') && !l.includes('image') && !l.includes('isGreaterThan') && !l.includes('getHours'), l.join(','));
  const t = at(celCrdYaml(rule('self.name.sta<|>')));
  const items = t.s.completion(t.td, t.pos);
  const sw = items.find((i) => i.label === 'startsWith')!;
  const edit = sw.textEdit as { range: { start: { character: number }; end: { character: number } }; newText: string };
  assert.equal(t.td.getText().split('\n')[t.pos.line].slice(edit.range.start.character, edit.range.end.character), 'sta');
  assert.equal(edit.newText, 'startsWith($0)');
});

test('completion in every scalar style and position: block literal over lines, single quotes, index, map value, oldSelf, namespaces', () => {
  const block = at(celCrdYaml(`- rule: |\n    self.workers.exists(w,\n      w.<|>)`));
  assert.ok(labels(block.s.completion(block.td, block.pos)).includes('image'));
  const single = at(celCrdYaml(rule("'self.workers[0].<|>'")));
  assert.ok(labels(single.s.completion(single.td, single.pos)).includes('replicas'));
  const map = at(celCrdYaml(rule('"self.labels[\'a\'].<|>"')));
  assert.ok(labels(map.s.completion(map.td, map.pos)).includes('startsWith'));
  const old = at(celCrdYaml(rule('"oldSelf.workers.all(x, x.<|>)"')));
  assert.ok(labels(old.s.completion(old.td, old.pos)).includes('image'));
  const two = at(celCrdYaml(rule('"self.workers.all(i, w, w.<|>)"')));
  assert.ok(labels(two.s.completion(two.td, two.pos)).includes('image'));
  const ns = at(celCrdYaml(rule('"sets.<|>"')));
  const nl = labels(ns.s.completion(ns.td, ns.pos));
  assert.ok(nl.includes('contains') && nl.includes('equivalent') && !nl.includes('startsWith'), nl.join(','));
  const global = at(celCrdYaml(rule('"self.workers.all(w, <|>"')));
  const gl = labels(global.s.completion(global.td, global.pos));
  assert.ok(
    ['self', 'oldSelf', 'w', 'has', 'quantity', 'sets'].every((x) => gl.includes(x)),
    gl.join(','),
  );
  const msg = at(celCrdYaml(`- rule: "true"\n  messageExpression: "self.name.<|>"`));
  assert.ok(labels(msg.s.completion(msg.td, msg.pos)).includes('upperAscii'));
});

test('hover: on a lambda variable the item fields; on a list its item type; on the rule key self and the cost breakdown', () => {
  const text = celCrdYaml(rule('"self.workers.all(l, l.image != \'\')"'));
  const s = new LanguageService();
  const { td } = docOf(text);
  s.update(td);
  const line = text.split('\n').findIndex((x) => x.includes('- rule:'));
  const col = (needle: string) => text.split('\n')[line].indexOf(needle);
  const onL = s.hover(td, { line, character: col('l.image') })!;
  const v = (onL.contents as { value: string }).value;
  assert.match(v, /`l` \(iteration variable\): `object`/);
  assert.match(v, /`image`: `string` — required — The container image\./);
  assert.match(v, /`node__dash__selector`/);
  const onList = (s.hover(td, { line, character: col('workers') + 1 })!.contents as { value: string }).value;
  assert.match(onList, /`list\(object\)`/);
  assert.match(onList, /Items: `object` with fields:/);
  assert.match(onList, /Estimated cost: /);
  const onKey = (s.hover(td, { line, character: col('rule') + 1 })!.contents as { value: string }).value;
  assert.match(onKey, /`self`: `object`/);
  assert.match(onKey, /iterates `self\.workers`: size at most 10/);
});

test('signature help: quantity( and .isGreaterThan( with the active parameter', () => {
  const q = at(celCrdYaml(rule('"quantity(<|>"')));
  const h = q.s.signatureHelp(q.td, q.pos)!;
  assert.deepEqual(
    h.signatures.map((x) => x.label),
    ['quantity(string) -> kubernetes.Quantity'],
  );
  assert.equal(h.activeParameter, 0);
  const g = at(celCrdYaml(rule('"quantity(self.cpu).isGreaterThan(<|>)"')));
  const gh = g.s.signatureHelp(g.td, g.pos)!;
  assert.deepEqual(
    gh.signatures.map((x) => x.label),
    ['kubernetes.Quantity.isGreaterThan(kubernetes.Quantity) -> bool'],
  );
  assert.deepEqual(gh.signatures[0].parameters, [{ label: 'kubernetes.Quantity' }]);
  const split = at(celCrdYaml(rule('"self.name.split(\'/\', <|>"')));
  const sh = split.s.signatureHelp(split.td, split.pos)!;
  assert.equal(sh.activeParameter, 1);
  assert.equal(sh.signatures[sh.activeSignature ?? 0].parameters?.length, 2);
  const outside = at(celCrdYaml(rule('"self.name"')).replace('pools.example.com', 'pools.ex<|>ample.com'));
  assert.equal(outside.s.signatureHelp(outside.td, outside.pos), null);
});
