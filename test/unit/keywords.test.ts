import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SCHEMA_KEYWORDS } from '../../server/src/service/keywords';
import { isUnrecognizedFormat } from '../../server/src/engine/crd/warnings';

test('format completion offers only formats the API server keeps (no unrecognized-format warning)', () => {
  const values = SCHEMA_KEYWORDS.format.values ?? [];
  assert.ok(values.includes('date-time') && values.includes('k8s-short-name'), values.join(','));
  for (const f of values) {
    const type = ['int32', 'int64'].includes(f) ? 'integer' : ['float', 'double'].includes(f) ? 'number' : 'string';
    assert.equal(isUnrecognizedFormat(f, type), false, f);
  }
});
