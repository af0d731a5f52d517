import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dotInSyntaxIssues } from './dotin';
import { parseExpression } from './compile';

const issues = (src: string) => dotInSyntaxIssues(src, (t) => parseExpression(t).ok)?.map((i) => `${i.offset + 1}: ${i.message.replace(/ expecting \{.*\}$/, ' expecting {...}')}`);

test("x.in: cel-go's recovery errors (no viable alternative, then the token after `in`)", () => {
  assert.deepEqual(issues('has(self.in)'), [
    '5: invalid argument to has() macro',
    "10: Syntax error: no viable alternative at input '.in'",
    "12: Syntax error: mismatched input ')' expecting {...}",
  ]);
  assert.deepEqual(issues("self.in == 'abc'"), ["6: Syntax error: no viable alternative at input '.in'", "9: Syntax error: extraneous input '==' expecting {...}"]);
  assert.deepEqual(issues('self.in'), ["6: Syntax error: no viable alternative at input '.in'", "8: Syntax error: mismatched input '<EOF>' expecting {...}"]);
  assert.deepEqual(issues('self.in.x'), ["6: Syntax error: no viable alternative at input '.in'"]);
  // has() of a select stays valid; only a bare receiver is an invalid argument.
  assert.deepEqual(issues('has(self.a.in)'), ["12: Syntax error: no viable alternative at input '.in'", "14: Syntax error: mismatched input ')' expecting {...}"]);
});

test('x.in: not applied inside strings, to self.__in__, or when other syntax errors remain', () => {
  assert.equal(issues("'a.in' == self.__in__"), undefined);
  assert.equal(issues('self.in == (('), undefined);
});
