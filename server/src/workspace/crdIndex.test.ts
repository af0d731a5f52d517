/**
 * mayHoldCrd: a file it rules out holds no CRD by the full parse (a file of custom resources is indexed
 * without one), and a backslash alone (a template's regular expression) does not rule a file in.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseYamlDocuments } from '../yaml';
import { isCrdObject, mayHoldCrd } from './crdIndex';

const crd = (kind: string) => `apiVersion: apiextensions.k8s.io/v1\nkind: ${kind}\nmetadata:\n  name: widgets.example.com\n`;

test('mayHoldCrd: the kind spelled out or with escapes, never a backslash alone', () => {
  const cases: Array<[string, string]> = [
    ['plain', crd('CustomResourceDefinition')],
    ['\\x escape', crd('"Custom\\x52esourceDefinition"')],
    ['\\u escape', crd('"Custom\\u0052esourceDefinition"')],
    ['\\U escape', crd('"\\U00000043ustomResourceDefinition"')],
    ['escaped line break', crd('"Custom\\\n    ResourceDefinition"')],
    ['escaped CRLF line break', crd('"Custom\\\n    ResourceDefinition"').replace(/\n/g, '\r\n')],
    ['JSON', `{"apiVersion": "apiextensions.k8s.io/v1", "kind": "\\u0043ustomResourceDefinition", "metadata": {"name": "w"}}`],
    ['escaped backslash', crd('"Custom\\\\x52esourceDefinition"')],
    ['a regular expression', `apiVersion: v1\nkind: ConfigMap\ndata:\n  re: "^\\\\d+\\\\.\\\\d+$"\n  path: "C:\\\\x52"\n`],
    ['a template with backslashes', `apiVersion: v1\nkind: ConfigMap\ndata:\n  a: {{ regexReplaceAll "\\\\s+" .Values.x "" | quote }}\n`],
  ];
  for (const [name, text] of cases) {
    const parsed = parseYamlDocuments(text.replace(/\{\{.*\}\}/g, '""')).documents.some((d) => isCrdObject(d.value));
    // Never ruled out when the parse finds a CRD; ruled out when it does not (for these files).
    assert.equal(mayHoldCrd(text), parsed, name);
  }
});
