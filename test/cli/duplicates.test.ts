/**
 * A CRD defined in several files (issue 22 cause 12, issue 28 item 7): `crd-yaml check` prints one line per
 * duplicated CRD, on the copy in use, naming every copy by its path from the working directory; the copy
 * in use is the one the editor uses, whatever file is open there.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { runCli } from '../../server/src/cli/main';
import { LanguageService } from '../../server/src/service/languageService';
import { crdYaml } from '../crd';

const CRD = (maximum: number) =>
  crdYaml(`type: object
properties:
  spec:
    type: object
    properties:
      size:
        type: integer
        maximum: ${maximum}`);
/** Where a duplicated CRD is reported: line:column of its kind (spec.names.kind). */
const KIND_AT = (() => {
  const lines = CRD(0).split('\n');
  const line = lines.findIndex((l) => l.trim() === 'kind: Widget');
  return `${line + 1}:${lines[line].indexOf('Widget') + 1}`;
})();
const WIDGET = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: 15\n';

/** A repository with three copies of one CRD (maximum 10, 20, 30) and a Widget of size 15. */
function repo(): { dir: string; files: Record<string, string> } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crd-yaml-dup-'));
  const files: Record<string, string> = {
    // By path, charts/ comes first: its copy (maximum 10) is the one in use, and the Widget is over it.
    'charts/widgets/crds/widgets.yaml': CRD(10),
    'config/crd/widgets.yaml': CRD(20),
    'deploy/crds.yaml': CRD(30),
    'deploy/widget.yaml': WIDGET,
  };
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return { dir, files };
}

async function cli(argv: string[], cwd: string): Promise<{ code: number; out: string[]; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s), cwd });
  return { code, out: out.split('\n').filter((l) => l !== ''), err };
}

test('check .: one line per duplicated CRD, on the copy in use, with every copy by its path from the working directory', async () => {
  const { dir } = repo();
  try {
    const r = await cli(['check', '.'], dir);
    assert.deepEqual(r.out, [
      `charts/widgets/crds/widgets.yaml:${KIND_AT}: info: example.com/Widget is defined 3 times: objects are checked against this one, charts/widgets/crds/widgets.yaml (the first by path is used), not config/crd/widgets.yaml, deploy/crds.yaml [DuplicateCRD]`,
      'deploy/widget.yaml:6:9: error: spec.size: Invalid value: 15: spec.size in body should be less than or equal to 10 [FieldValueInvalid spec.size]',
    ]);
    // From the folder above, paths start there.
    const above = await cli(['check', path.basename(dir)], path.dirname(dir));
    const b = path.basename(dir);
    assert.equal(
      above.out[0],
      `${b}/charts/widgets/crds/widgets.yaml:${KIND_AT}: info: example.com/Widget is defined 3 times: objects are checked against this one, ${b}/charts/widgets/crds/widgets.yaml (the first by path is used), not ${b}/config/crd/widgets.yaml, ${b}/deploy/crds.yaml [DuplicateCRD]`,
    );
    assert.equal(above.out.length, 2, above.out.join('\n'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the copy in use is not among the inputs: the line is on the input copy, naming the one in use; --crd from outside the directory comes after the inputs', async () => {
  const { dir } = repo();
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'crd-yaml-dup-src-'));
  try {
    // --crd inside the working directory is a workspace file (as in the editor): by path it is used.
    const r = await cli(['check', '--crd', 'config/crd', 'deploy'], dir);
    assert.deepEqual(r.out, [
      `deploy/crds.yaml:${KIND_AT}: info: example.com/Widget is also defined in config/crd/widgets.yaml, which is the one in use (the first by path is used); objects are not checked against this copy [DuplicateCRD]`,
    ]);
    // The Widget (size 15) is checked against config/crd's copy (maximum 20), not deploy's own (maximum 30).
    assert.equal(r.code, 0);
    fs.writeFileSync(path.join(dir, 'config/crd/widgets.yaml'), CRD(12));
    const over = await cli(['check', '--crd', 'config/crd', 'deploy'], dir);
    assert.match(over.out[1], /^deploy\/widget\.yaml:6:9: error: .*less than or equal to 12 /);
    // A --crd from outside ranks as a source outside the workspace: the input's own copy (maximum 30) is used.
    fs.writeFileSync(path.join(outside, 'a.yaml'), CRD(5));
    const ext = await cli(['check', '--crd', outside, 'deploy'], dir);
    assert.equal(ext.code, 0, ext.out.join('\n'));
    assert.match(
      ext.out[0],
      new RegExp(
        `^deploy/crds\\.yaml:${KIND_AT}: info: example\\.com/Widget is defined 2 times: objects are checked against this one, deploy/crds\\.yaml \\(a workspace file is used before sources outside the workspace\\), not .*a\\.yaml \\[DuplicateCRD\\]$`,
      ),
    );
    assert.equal(ext.out.length, 1);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  }
});

test("the editor's choice is the CLI's, whatever file is open", async () => {
  const { dir, files } = repo();
  try {
    const r = await cli(['check', '.'], dir);
    const cliUsed = r.out.find((l) => l.includes('[DuplicateCRD]'))?.split(':')[0];
    const cliWidget = r.out.filter((l) => l.startsWith('deploy/widget.yaml:')).map((l) => l.replace(/^[^ ]+ error: /, ''));
    assert.equal(cliUsed, 'charts/widgets/crds/widgets.yaml');
    const uri = (rel: string) => pathToFileURL(path.join(dir, rel)).href;
    // The editor: every file indexed from disk, then each opened alone, then all opened in turn.
    const editor = new LanguageService();
    editor.setWorkspaceFolders([pathToFileURL(dir).href]);
    for (const [rel, text] of Object.entries(files)) editor.indexDiskFile(uri(rel), text);
    const widgetFindings = () => {
      const td = TextDocument.create(uri('deploy/widget.yaml'), 'yaml', 1, WIDGET);
      editor.update(td);
      return editor.findings(td).map((f) => f.apiMessage ?? f.message);
    };
    const rels = Object.keys(files).filter((f) => f !== 'deploy/widget.yaml');
    for (const opened of [[], ...rels.map((x) => [x]), rels, [...rels].reverse()]) {
      for (const rel of opened) editor.update(TextDocument.create(uri(rel), 'yaml', 1, files[rel]));
      assert.equal(editor.index.lookup('example.com', 'Widget')?.uri, uri(cliUsed!), `open: ${opened.join(', ')}`);
      assert.deepEqual(
        widgetFindings().map((m) => `${m} [FieldValueInvalid spec.size]`),
        cliWidget,
        `open: ${opened.join(', ')}`,
      );
      // The one information line is the CLI's, on the same copy.
      for (const rel of opened) {
        const td = TextDocument.create(uri(rel), 'yaml', 1, files[rel]);
        const info = editor.findings(td).filter((f) => f.code === 'DuplicateCRD' && f.severity === 'information');
        assert.equal(info.length, rel === cliUsed ? 1 : 0, rel);
        if (info.length) assert.ok(r.out[0].includes(info[0].message), info[0].message);
      }
      for (const rel of opened) editor.close(uri(rel));
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
