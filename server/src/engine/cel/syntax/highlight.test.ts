import { test } from 'node:test';
import assert from 'node:assert/strict';
import { celHighlights } from './highlight';
import { parse } from './parse';

/** Each span as `kind:text` (punctuation left out unless asked for). */
function spans(src: string, punctuation = false): string[] {
  return celHighlights(src)
    .filter((h) => punctuation || h.kind !== 'punctuation')
    .map((h) => `${h.kind}:${src.slice(h.start, h.end)}`);
}

test('identifiers by their place: variable, field, method, function, macros; literals and operators', () => {
  assert.deepEqual(spans("self.items.all(i, i.name.startsWith('a')) && has(self.x) && size(self.y) <= 3u || oldSelf in [1.5, b'z', null]"), [
    'variable:self',
    'property:items',
    'macro:all',
    'variable:i',
    'variable:i',
    'property:name',
    'method:startsWith',
    "string:'a'",
    'operator:&&',
    'macro:has',
    'variable:self',
    'property:x',
    'operator:&&',
    'function:size',
    'variable:self',
    'property:y',
    'operator:<=',
    'number:3u',
    'operator:||',
    'variable:oldSelf',
    'keyword:in',
    'number:1.5',
    "string:b'z'",
    'keyword:null',
  ]);
});

test('punctuation: member access, calls, lists and maps', () => {
  assert.deepEqual(spans("f(a.b, [1], {'k': 2})", true), [
    'function:f',
    'punctuation:(',
    'variable:a',
    'punctuation:.',
    'property:b',
    'punctuation:,',
    'punctuation:[',
    'number:1',
    'punctuation:]',
    'punctuation:,',
    'punctuation:{',
    "string:'k'",
    'operator::',
    'number:2',
    'punctuation:}',
    'punctuation:)',
  ]);
});

test('a member call named like a global macro is a method, a global call named like a member macro a function', () => {
  assert.deepEqual(spans('x.has(1) ? map(2) : !true'), ['variable:x', 'method:has', 'number:1', 'operator:?', 'function:map', 'number:2', 'operator::', 'operator:!', 'keyword:true']);
});

test('comments between tokens, to the end of their line; text that does not parse yet is still classified', () => {
  const src = "// first\nself.a > 0 // why\n  && self.b == 'unterminated";
  assert.deepEqual(spans(src), ['comment:// first', 'variable:self', 'property:a', 'operator:>', 'number:0', 'comment:// why', 'operator:&&', 'variable:self', 'property:b', 'operator:==']);
  assert.equal(parse(src).ok, false);
  // A `//` inside a string is the string's.
  assert.deepEqual(spans("'a//b' // c"), ["string:'a//b'", 'comment:// c']);
});

test('every macro the highlighter names is one the parser expands', () => {
  for (const [src, name] of [
    ['has(a.b)', 'has'],
    ['l.all(x, x)', 'all'],
    ['l.exists_one(x, x)', 'exists_one'],
    ['l.transformList(i, v, v)', 'transformList'],
    ['l.sortBy(x, x)', 'sortBy'],
    ['o.optMap(x, x)', 'optMap'],
  ]) {
    assert.ok(spans(src).includes(`macro:${name}`), src);
    const r = parse(src);
    assert.ok(r.ok && r.ast.macroCalls.size === 1, `${src} is expanded`);
  }
});
