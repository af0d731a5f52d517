import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseQuantity, Quantity } from './kubernetes';

test('ParseQuantity accepts an empty numeric part as 0 (suffix-only, sign-only, dot-only), as the oracle does', () => {
  for (const s of ['Mi', '+', '-', '.', 'n', 'e-9', '-.Ki', '1.Mi']) assert.ok(parseQuantity(s) instanceof Quantity, s);
  assert.equal((parseQuantity('Mi') as Quantity).num, 0n);
});

test('ParseQuantity errors: empty value below nano scale, two dots, bare exponent marker', () => {
  assert.equal(parseQuantity('e-10'), 'unable to parse numeric part of quantity');
  assert.match(String(parseQuantity('1.2.3')), /^quantities must match the regular expression/);
  assert.match(String(parseQuantity('')), /^quantities must match the regular expression/);
  assert.equal(parseQuantity('e'), "unable to parse quantity's suffix");
  assert.ok(parseQuantity('1e-10') instanceof Quantity);
});
