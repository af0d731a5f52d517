/**
 * plainJsonValue and plainMapKey (yaml/resolve.ts) decide some plain scalars by their text alone, without
 * resolveScalar: they must give what jsonValue(resolveScalar(s, true, '')) and mapKey(resolveScalar(s,
 * true, '')) give (or throw the same error) for every text, here the YAML table's scalars and seeded
 * random texts glued from the characters numbers, timestamps and YAML 1.1 words are written with.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonValue, mapKey, plainJsonValue, plainMapKey, resolveScalar } from '../../server/src/yaml/resolve';
import { SCALARS } from '../oracle/yaml-table';

/** What f returns, or the error it throws (its class and message). */
function outcome(f: () => unknown): unknown {
  try {
    return { value: f() };
  } catch (e) {
    return {
      error: `${(e as Error).constructor.name}: ${(e as Error).message}`,
    };
  }
}

const noValue = () => 'v';

function assertSame(s: string): void {
  assert.deepStrictEqual(
    outcome(() => plainJsonValue(s)),
    outcome(() => jsonValue(resolveScalar(s, true, ''))),
    `value of ${JSON.stringify(s)}`,
  );
  assert.deepStrictEqual(
    outcome(() => plainMapKey(s, noValue)),
    outcome(() => mapKey(resolveScalar(s, true, ''), noValue)),
    `key ${JSON.stringify(s)}`,
  );
}

test('plainJsonValue and plainMapKey: the YAML table scalars as resolveScalar reads them', () => {
  for (const s of SCALARS) assertSame(s);
  for (const s of ['', '0', '7', '00', '08', '-0', '+1', '123456789012345', '1234567890123456', '9007199254740993', '100m', '64Mi', '1Gi', '0.5', '1e3', '1_000', '0x1F', '0o17', '0b101']) assertSame(s);
  for (const s of ['nginx:1.27', 'name', 'no', 'NO', 'nO', 'yes', 'True', 'FALSE', 'Falsey', 'off', 'Off', '~', '~x', '.inf', '-.Inf', '+.INF', '-.inff', '.nan', '<<', 'Null', 'nulls']) assertSame(s);
  for (const s of ['2024-01-01', '2024-1-1', '2024-02-30', '2001-12-14t21:59:43.10-05:00', '2001-12-14 21:59:43.10', '2001-12-14T21:59:43Z', '1:20', '-1:20', '+-1']) assertSame(s);
});

test('plainJsonValue and plainMapKey: seeded random texts as resolveScalar reads them', () => {
  let seed = 20261128;
  const rand = () => {
    seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    return seed / 2 ** 32;
  };
  const frags = [
    '0',
    '1',
    '7',
    '9',
    '00',
    '.',
    'e',
    'E',
    '+',
    '-',
    '_',
    'x',
    'X',
    'o',
    'O',
    'b',
    'B',
    'f',
    'a',
    'F',
    'n',
    'N',
    'y',
    'Y',
    't',
    'T',
    'Z',
    ':',
    ' ',
    '~',
    'inf',
    'Inf',
    'nan',
    'm',
    'Mi',
    'i',
    'G',
    'true',
    'no',
    'null',
    '2001-12-14',
    '21:59:43',
    '1e400',
    '\u00e9',
  ];
  for (let n = 0; n < 20000; n++) {
    let s = '';
    for (let k = 1 + Math.floor(rand() * 5); k > 0; k--) s += frags[Math.floor(rand() * frags.length)];
    assertSame(s);
  }
});
