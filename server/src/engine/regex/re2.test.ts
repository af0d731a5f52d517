import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { compileRE2, re2Test } from './re2';

test('Go error wording for unsupported syntax and a trailing backslash', () => {
  const look = compileRE2('(?=a)');
  assert.equal(look.ok, false);
  assert.equal(!look.ok && look.error, 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`');
  const tb = compileRE2('a\\');
  assert.equal(!tb.ok && tb.error, 'error parsing regexp: trailing backslash at end of expression: ``');
});

test('duplicate group names compile as in Go 1.22+', () => {
  assert.equal(compileRE2('(?P<n>a)(?P<n>b)').ok, true);
  assert.equal(re2Test('(?P<n>a)(?P<n>b)', 'xab'), true);
  assert.equal(re2Test('(?P<n>a)(?P<n>b)', 'xba'), false);
});

test('matching is linear: a catastrophic pattern for backtracking engines returns quickly', () => {
  const t0 = performance.now();
  assert.equal(re2Test('^(a+)+$', 'a'.repeat(30000) + 'b'), false);
  assert.ok(performance.now() - t0 < 2000);
});
