/**
 * The JSON report written in pieces (cli/format.ts formatJsonPieces): joined, exactly JSON.stringify's text
 * of the report indented by 2, whatever the findings hold (line breaks, characters beyond Latin-1, exact
 * large integers, related locations, fixes), also when it takes several pieces.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CheckReport, FileFinding } from '../../server/src/cli/check';
import { formatJsonPieces } from '../../server/src/cli/format';
import { emptyCoverage } from '../../server/src/service';

const range = (line: number) => ({ start: { line, character: 2 }, end: { line, character: 9 } });

function finding(i: number): FileFinding {
  return {
    file: `dir/f${i % 7}.yaml`,
    range: range(i),
    severity: i % 3 === 0 ? 'error' : i % 3 === 1 ? 'warning' : 'information',
    code: 'FieldValueInvalid',
    message: `spec.a${i}: Invalid value: "x\ny"\t“quoted” ${'long '.repeat(i % 50)}`,
    apiMessage: i % 2 ? `spec.a${i}: Invalid value` : undefined,
    document: 'cr',
    ...(i % 5 === 0 ? { params: { max: 2n ** 64n + BigInt(i) } as never } : {}),
    ...(i % 4 === 0 ? { related: [{ location: { uri: 'file:///elsewhere/crd.yaml', range: range(1) }, message: 'the schema\nhere' }] } : {}),
    fixes: i % 6 === 0 ? [{ title: 'Remove it', edits: [{ range: range(i), newText: 'a:\n  b: 1\n' }] }] : [],
  } as FileFinding;
}

function report(n: number): CheckReport {
  return { findings: Array.from({ length: n }, (_, i) => finding(i)), files: 7, documents: 9, coverage: emptyCoverage(), paths: new Map([['file:///elsewhere/crd.yaml', '../elsewhere/crd.yaml']]) };
}

for (const n of [0, 1, 40, 6000]) {
  test(`JSON report of ${n} findings: JSON.stringify's text, in ${n === 6000 ? 'several pieces' : 'one piece'}`, () => {
    const pieces = [...formatJsonPieces(report(n), n ? ['x.yaml: no such file or directory'] : [], '/work')];
    const text = pieces.join('');
    const value = JSON.parse(text) as { findings: Array<{ message: string; params?: { max: string }; related?: Array<{ file: string }> }>; summary: { files: number; error: number } };
    assert.equal(text, `${JSON.stringify(value, null, 2)}\n`);
    assert.equal(value.findings.length, n);
    assert.equal(value.summary.files, 7);
    assert.equal(value.summary.error, Math.ceil(n / 3));
    if (n > 5) {
      assert.equal(value.findings[5].message, finding(5).message);
      assert.equal(value.findings[5].params?.max, String(2n ** 64n + 5n));
      assert.equal(value.findings[4].related?.[0].file, '../elsewhere/crd.yaml');
    }
    assert.equal(pieces.length > 1, n === 6000, `${pieces.length} pieces`);
  });
}
