/**
 * The extension inside a real VS Code extension host (code-server here, desktop VS Code under
 * @vscode/test-electron): the client starts the server, diagnostics reach VS Code, edits made through the
 * API re-check, hover/completion/code actions answer, and the preview command opens its document.
 * The workspace is prepared by test/e2e/lib.mjs: examples/ (CronTab CRD and CRs) and gateway-api/
 * (the real Gateway API GatewayClass CRD, v1 and v1beta1, with GatewayClasses).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { test } from './runner';

const EXTENSION_ID = 'crd-yaml.crd-yaml';
const DIAG_MS = Number(process.env.CRD_YAML_E2E_DIAG_MS ?? 45_000);

function wsUri(rel: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'a workspace folder is open');
  return vscode.Uri.joinPath(folder.uri, rel);
}

async function open(rel: string): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(wsUri(rel));
  return vscode.window.showTextDocument(doc, { preview: false });
}

function ours(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'crd-yaml');
}

function show(ds: vscode.Diagnostic[]): string {
  return JSON.stringify(
    ds.map((d) => `${d.range.start.line}:${d.range.start.character} ${codeOf(d)} ${d.message}`),
    null,
    1,
  );
}

function codeOf(d: vscode.Diagnostic): string {
  return typeof d.code === 'object' ? String(d.code.value) : String(d.code);
}

/** Resolves with our diagnostics of `uri` once `ok` holds for them (checked now and on every change). */
function diagnostics(uri: vscode.Uri, ok: (ds: vscode.Diagnostic[]) => boolean, what: string, ms = DIAG_MS): Promise<vscode.Diagnostic[]> {
  return new Promise((resolve, reject) => {
    const check = (): boolean => {
      const ds = ours(uri);
      if (!ok(ds)) return false;
      done();
      resolve(ds);
      return true;
    };
    const sub = vscode.languages.onDidChangeDiagnostics((e) => {
      if (e.uris.some((u) => u.toString() === uri.toString())) check();
    });
    const timer = setTimeout(() => {
      done();
      reject(new Error(`${what}: not seen within ${ms} ms on ${uri.path}; diagnostics now: ${show(ours(uri))}`));
    }, ms);
    const done = () => {
      sub.dispose();
      clearTimeout(timer);
    };
    check();
  });
}

function find(ds: vscode.Diagnostic[], code: string, prefix: string): vscode.Diagnostic {
  const d = ds.find((x) => codeOf(x) === code && x.message.startsWith(prefix));
  assert.ok(d, `expected ${code} "${prefix}..." in ${show(ds)}`);
  return d;
}

function hoverText(hovers: vscode.Hover[]): string {
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : c.value))
    .join('\n');
}

async function waitForText(doc: () => vscode.TextDocument | undefined, ok: (text: string) => boolean, what: string, ms = DIAG_MS): Promise<string> {
  const t0 = Date.now();
  for (;;) {
    const text = doc()?.getText();
    if (text !== undefined && ok(text)) return text;
    if (Date.now() - t0 > ms) throw new Error(`${what}: not seen within ${ms} ms; text now: ${text}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('the extension is installed and activates on a YAML file', async () => {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is installed`);
  await open('examples/crontab-valid.yaml');
  await ext.activate();
  assert.equal(ext.isActive, true);
});

test('a CR in one file is checked against the CRD in another (pattern, with the CRD as related information)', async () => {
  const uri = wsUri('examples/crontab-bad-pattern.yaml');
  await open('examples/crontab-bad-pattern.yaml');
  const ds = await diagnostics(uri, (x) => x.some((d) => codeOf(d) === 'FieldValueInvalid'), 'the pattern error');
  const d = find(ds, 'FieldValueInvalid', 'Invalid value "* * * *": should match \'^(\\d+|\\*)(/\\d+)?');
  // The API server's exact message is one click away: the first related information.
  assert.match(d.relatedInformation?.[0]?.message ?? '', /^API server: spec\.cronSpec: Invalid value: "\* \* \* \*": spec\.cronSpec in body should match/);
  assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
  assert.deepEqual([d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character], [6, 12, 6, 21]);
  assert.ok(
    d.relatedInformation?.some((r) => r.location.uri.path.endsWith('/examples/crontab-crd.yaml')),
    `related information points at the CRD: ${JSON.stringify(d.relatedInformation?.map((r) => r.location.uri.toString()))}`,
  );
  // The valid CR next to it has none.
  assert.deepEqual(show(ours(wsUri('examples/crontab-valid.yaml'))), show([]));
});

test('a CRD whose schema is not structural is reported at its schema', async () => {
  const uri = wsUri('examples/nonstructural-crd.yaml');
  await open('examples/nonstructural-crd.yaml');
  const ds = await diagnostics(uri, (x) => x.filter((d) => codeOf(d) === 'FieldValueRequired').length >= 2, 'two missing types');
  const missing = ds.filter((d) => codeOf(d) === 'FieldValueRequired' && d.message === 'missing "type": must not be empty for specified object fields');
  assert.deepEqual(missing.map((d) => d.range.start.line).sort(), [21, 25], show(ds));
  // No absolute schema path up front; the API server's (internal) path is in the related information.
  assert.ok(
    missing.every((d) => d.relatedInformation?.[0]?.message.startsWith('API server: spec.validation.openAPIV3Schema.properties[spec]')),
    show(ds),
  );
});

test('a real multi-version CRD (Gateway API GatewayClass v1 and v1beta1) checks its CRs', async () => {
  const uri = wsUri('gateway-api/gatewayclasses.yaml');
  await open('gateway-api/gatewayclasses.yaml');
  const ds = await diagnostics(uri, (x) => x.some((d) => codeOf(d) === 'FieldValueTypeInvalid') && x.some((d) => codeOf(d) === 'UnknownField' || codeOf(d) === 'FieldValuePruned'), 'v1 and v1beta1 findings');
  const pattern = find(ds, 'FieldValueInvalid', 'Invalid value "Example Controller": should match');
  assert.equal(pattern.range.start.line, 7);
  const type = find(ds, 'FieldValueTypeInvalid', '42 is read as the number 42, but this field is a string: quote it');
  assert.equal(type.range.start.line, 8);
  const required = find(ds, 'FieldValueRequired', 'missing required field "name"');
  assert.equal(required.range.start.line, 9);
  // The v1beta1 document: its unknown field is an error, as kubectl apply (strict field validation) rejects it.
  const unknown = ds.find((d) => d.range.start.line === 19);
  assert.ok(unknown && codeOf(unknown) === 'UnknownField' && unknown.severity === vscode.DiagnosticSeverity.Error && /spec\.colour/.test(unknown.message), show(ds));
  // The CRD itself is accepted by real API servers: no error on it. Asserted once the server has checked
  // its text, shown by events rather than a pause (a pause passes unseen on a machine slower than it):
  // a planted error is published, then the saved text's diagnostics replace it. (DIAG_MS in `diagnostics`
  // only ends a wait that would never end: a hang guard.)
  const crd = await open('gateway-api/gateway.networking.k8s.io_gatewayclasses.yaml');
  const isError = (d: vscode.Diagnostic) => d.severity === vscode.DiagnosticSeverity.Error;
  const at = crd.document.getText().indexOf('type: string');
  assert.ok(at > 0);
  const plant = new vscode.WorkspaceEdit();
  plant.replace(crd.document.uri, new vscode.Range(crd.document.positionAt(at), crd.document.positionAt(at + 'type: string'.length)), 'type: strin');
  assert.equal(await vscode.workspace.applyEdit(plant), true);
  const line = crd.document.positionAt(at).line;
  const key = (d: vscode.Diagnostic) => `${d.range.start.line}:${d.range.start.character} ${d.message}`;
  const planted = (await diagnostics(crd.document.uri, (x) => x.some((d) => isError(d) && d.range.start.line === line), 'the error planted in the CRD')).filter((d) => isError(d) && d.range.start.line === line).map(key);
  await vscode.commands.executeCommand('workbench.action.files.revert');
  assert.equal(crd.document.isDirty, false);
  const saved = await diagnostics(crd.document.uri, (x) => !x.some((d) => planted.includes(key(d))), 'the planted error gone after the revert');
  const crdErrors = saved.filter(isError);
  assert.equal(crdErrors.length, 0, show(crdErrors));
});

test('diagnostics follow an edit made through the API (WorkspaceEdit on the CR)', async () => {
  const editor = await open('examples/crontab-bad-pattern.yaml');
  const uri = editor.document.uri;
  await diagnostics(uri, (x) => x.length > 0, 'the pattern error');
  const at = editor.document.getText().indexOf('"* * * *"');
  assert.ok(at > 0);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(uri, new vscode.Range(editor.document.positionAt(at), editor.document.positionAt(at + '"* * * *"'.length)), '"*/5 * * * *"');
  assert.equal(await vscode.workspace.applyEdit(edit), true);
  await diagnostics(uri, (x) => x.length === 0, 'no diagnostics after the fix');
  // And back: the error returns.
  const again = new vscode.WorkspaceEdit();
  const at2 = editor.document.getText().indexOf('"*/5 * * * *"');
  again.replace(uri, new vscode.Range(editor.document.positionAt(at2), editor.document.positionAt(at2 + '"*/5 * * * *"'.length)), '"nope"');
  assert.equal(await vscode.workspace.applyEdit(again), true);
  const ds = await diagnostics(uri, (x) => x.some((d) => d.message.startsWith('Invalid value "nope"')), 'the new value reported');
  assert.equal(ds.length, 1, show(ds));
});

test('an edit to the CRD in one file re-checks the CR in another', async () => {
  const crUri = wsUri('examples/crontab-replicas-out-of-range.yaml');
  await open('examples/crontab-replicas-out-of-range.yaml');
  await diagnostics(crUri, (x) => x.some((d) => d.message.includes('should be less than or equal to 10')), 'the maximum error');
  const crd = await open('examples/crontab-crd.yaml');
  const text = crd.document.getText();
  const at = text.indexOf('maximum: 10');
  assert.ok(at > 0);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(crd.document.uri, new vscode.Range(crd.document.positionAt(at), crd.document.positionAt(at + 'maximum: 10'.length)), 'maximum: 20');
  assert.equal(await vscode.workspace.applyEdit(edit), true);
  await diagnostics(crUri, (x) => x.length === 0, 'the CR valid under the edited CRD');
  // Undo (the document stays unsaved; later tests see the original CRD).
  const back = new vscode.WorkspaceEdit();
  const at2 = crd.document.getText().indexOf('maximum: 20');
  back.replace(crd.document.uri, new vscode.Range(crd.document.positionAt(at2), crd.document.positionAt(at2 + 'maximum: 20'.length)), 'maximum: 10');
  assert.equal(await vscode.workspace.applyEdit(back), true);
  await diagnostics(crUri, (x) => x.some((d) => d.message.includes('should be less than or equal to 10')), 'the maximum error again');
});

test('hover on a CR field shows what its CRD schema says', async () => {
  const editor = await open('examples/crontab-valid.yaml');
  const line = editor.document
    .getText()
    .split('\n')
    .findIndex((l) => l.startsWith('  cronSpec:'));
  assert.ok(line > 0);
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', editor.document.uri, new vscode.Position(line, 4));
  const text = hoverText(hovers);
  assert.match(text, /cronSpec/);
  assert.match(text, /string/);
  assert.ok(text.includes('^(\\d+|\\*)(/\\d+)?'), `the pattern is shown: ${text}`);
});

test('CEL in a validation rule is highlighted: the client asks the server for the range it shows and gets each token typed', async () => {
  const content = [
    'apiVersion: apiextensions.k8s.io/v1',
    'kind: CustomResourceDefinition',
    'metadata:',
    '  name: gadgets.example.com',
    'spec:',
    '  group: example.com',
    '  names: {kind: Gadget, plural: gadgets}',
    '  scope: Namespaced',
    '  versions:',
    '  - name: v1',
    '    served: true',
    '    storage: true',
    '    schema:',
    '      openAPIV3Schema:',
    '        type: object',
    '        x-kubernetes-validations:',
    '        - rule: has(self.spec) && self.spec.size > 2',
    '',
  ].join('\n');
  const doc = await vscode.workspace.openTextDocument({ language: 'yaml', content });
  await vscode.window.showTextDocument(doc, { preview: false });
  const line = 16;
  const range = new vscode.Range(0, 0, doc.lineCount, 0);
  // The provider is registered once the server has started: asked again until it answers.
  let legend: vscode.SemanticTokensLegend | undefined;
  let tokens: vscode.SemanticTokens | undefined;
  for (const t0 = Date.now(); !tokens?.data.length && Date.now() - t0 < DIAG_MS; await new Promise((r) => setTimeout(r, 200))) {
    legend = await vscode.commands.executeCommand<vscode.SemanticTokensLegend>('vscode.provideDocumentRangeSemanticTokensLegend', doc.uri);
    tokens = await vscode.commands.executeCommand<vscode.SemanticTokens>('vscode.provideDocumentRangeSemanticTokens', doc.uri, range);
  }
  assert.ok(legend && tokens?.data.length, 'semantic tokens for the rule');
  const got: string[] = [];
  let l = 0;
  let c = 0;
  for (let i = 0; i < tokens.data.length; i += 5) {
    const [dl, dc, len, type] = tokens.data.slice(i, i + 4);
    c = dl === 0 ? c + dc : dc;
    l += dl;
    got.push(`${l}:${doc.lineAt(l).text.slice(c, c + len)}:${legend.tokenTypes[type]}`);
  }
  const want = [
    'has:macro',
    '(:operator',
    'self:variable',
    '.:operator',
    'spec:property',
    '):operator',
    '&&:operator',
    'self:variable',
    '.:operator',
    'spec:property',
    '.:operator',
    'size:property',
    '>:operator',
    '2:number',
  ];
  assert.deepEqual(
    got,
    want.map((w) => `${line}:${w}`),
  );
});

test("completion in a CR offers the schema's properties", async () => {
  const editor = await open('examples/crontab-valid.yaml');
  const doc = editor.document;
  // A new, empty key line inside spec.
  const line = doc
    .getText()
    .split('\n')
    .findIndex((l) => l.startsWith('  image:'));
  const edit = new vscode.WorkspaceEdit();
  edit.insert(doc.uri, new vscode.Position(line + 1, 0), '  \n');
  assert.equal(await vscode.workspace.applyEdit(edit), true);
  const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, new vscode.Position(line + 1, 2));
  const labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
  for (const want of ['replicas', 'maxReplicas']) assert.ok(labels.includes(want), `${want} offered: ${JSON.stringify(labels)}`);
  // Already written keys are not offered again.
  assert.ok(!labels.includes('image'), `image already present: ${JSON.stringify(labels)}`);
  const undo = new vscode.WorkspaceEdit();
  undo.delete(doc.uri, new vscode.Range(line + 1, 0, line + 2, 0));
  assert.equal(await vscode.workspace.applyEdit(undo), true);
});

test('a quick fix applied with workspace.applyEdit removes a NonStructural diagnostic', async () => {
  const editor = await open('examples/nonstructural-crd.yaml');
  const uri = editor.document.uri;
  const ds = await diagnostics(uri, (x) => x.length >= 2, 'the missing types');
  const target = ds.find((d) => codeOf(d) === 'FieldValueRequired' && d.range.start.line === 21);
  assert.ok(target, show(ds));
  const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, target.range, vscode.CodeActionKind.QuickFix.value);
  const fix = actions.find((a) => a.title === 'Add "type: object"');
  assert.ok(fix?.edit, `the quick fix is offered: ${JSON.stringify(actions.map((a) => a.title))}`);
  assert.equal(await vscode.workspace.applyEdit(fix.edit), true);
  assert.match(editor.document.getText(), /\n {12}spec:\n {14}type: object\n {14}properties:/);
  const after = await diagnostics(uri, (x) => x.length === 1, 'the spec diagnostic gone');
  // The other one (spec.color, now a line lower) is still reported: only the fixed finding went away.
  assert.deepEqual(
    after.map((d) => [codeOf(d), d.range.start.line]),
    [['FieldValueRequired', 26]],
    show(after),
  );
});

test('"Add required field" is applied as a snippet in its editor: the value inserted and selected as a tab stop', async () => {
  const doc = await vscode.workspace.openTextDocument({
    language: 'yaml',
    content: 'apiVersion: gateway.networking.k8s.io/v1\nkind: GatewayClass\nmetadata:\n  name: needs-controller\nspec:\n  description: no controller yet\n',
  });
  const editor = await vscode.window.showTextDocument(doc, { preview: false });
  const ds = await diagnostics(doc.uri, (x) => x.some((d) => codeOf(d) === 'FieldValueRequired'), 'the missing required field');
  const target = ds.find((d) => codeOf(d) === 'FieldValueRequired')!;
  const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', doc.uri, target.range, vscode.CodeActionKind.QuickFix.value);
  const fix = actions.find((a) => a.title.startsWith('Add required field'));
  assert.ok(fix?.edit, `the quick fix is offered: ${JSON.stringify(actions.map((a) => a.title))}`);
  assert.equal(await vscode.workspace.applyEdit(fix.edit), true);
  const text = editor.document.getText();
  // The value is inserted as text (no snippet syntax left in the file) and the cursor is on it (the tab stop).
  assert.doesNotMatch(text, /\$\{/, text);
  const selected = editor.document.getText(editor.selection);
  assert.ok(selected.length > 0 && text.includes(`: ${selected}`), `selection ${JSON.stringify(selected)} in:\n${text}`);
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
});

test('the preview command opens the pruned and defaulted object', async () => {
  const editor = await open('examples/crontab-unknown-field.yaml');
  const line = editor.document
    .getText()
    .split('\n')
    .findIndex((l) => l.startsWith('spec:'));
  editor.selection = new vscode.Selection(line, 0, line, 0);
  await vscode.commands.executeCommand('crdYaml.preview');
  const preview = () => vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'crd-yaml-preview' && d.uri.query.endsWith('crontab-unknown-field.yaml'));
  const text = await waitForText(preview, (t) => /^spec:/m.test(t), 'the preview document');
  assert.match(text, /^# pruned: spec\.someRandomField \(unknown field\)$/m);
  assert.match(text, /^# defaulted: spec\.replicas = 1$/m);
  assert.doesNotMatch(text, /^\s+someRandomField:/m);
  assert.match(text, /^ {2}replicas: 1$/m);
  assert.match(text, /^ {2}cronSpec: ['"]?\*\/5 \* \* \* \*['"]?$/m);
  assert.equal(preview()?.languageId, 'yaml');
  assert.ok(
    vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme === 'crd-yaml-preview'),
    'the preview is shown in an editor',
  );
});

test('the diff command compares the file with the whole file as stored, document by document', async () => {
  const editor = await open('examples/crontabs-multi.yaml');
  await vscode.commands.executeCommand('crdYaml.previewDiff');
  const stored = () => vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'crd-yaml-preview' && d.uri.fragment === 'file' && d.uri.query.endsWith('crontabs-multi.yaml'));
  const text = await waitForText(stored, (t) => /^# pruned|^# defaulted/m.test(t), 'the stored view');
  const source = editor.document.getText();
  // As many documents as the source; the ConfigMap (not a CR) as written.
  assert.equal(text.split(/^---$/m).length, source.split(/^---$/m).length, text);
  const configMap = source.slice(source.lastIndexOf('---'));
  assert.ok(text.endsWith(configMap), text);
  assert.match(text, /^# defaulted: spec\.replicas = 1$/m);
  // The stored side is YAML, as the source side is (it opened as Plain Text).
  assert.equal(stored()?.languageId, 'yaml');
});

test('crdYaml.addCrdSource refuses a URL that is not http(s) and writes nothing', async () => {
  const before = vscode.workspace.getConfiguration('crdYaml').inspect<string[]>('crdSources')?.workspaceValue;
  const r = await vscode.commands.executeCommand<string | undefined>('crdYaml.addCrdSource', { url: 'ftp://example.com/crds.yaml' });
  assert.equal(r, undefined);
  assert.deepEqual(vscode.workspace.getConfiguration('crdYaml').inspect<string[]>('crdSources')?.workspaceValue, before);
});

test('an object no CRD defines is said not checked (crdYaml.unknownKinds "file", the default), with ways to supply CRDs; "ignore" says nothing', async () => {
  const doc = await vscode.workspace.openTextDocument({ language: 'yaml', content: 'apiVersion: other.example.org/v1\nkind: Thing\nmetadata:\n  name: x\n' });
  await vscode.window.showTextDocument(doc, { preview: false });
  const config = () => vscode.workspace.getConfiguration('crdYaml');
  const notChecked = (x: vscode.Diagnostic[]) => x.some((d) => codeOf(d) === 'UnknownKind');
  const ds = await diagnostics(doc.uri, notChecked, 'the not-checked information');
  const d = find(ds, 'UnknownKind', 'other.example.org/Thing not checked: no CRD known for it');
  assert.equal(d.severity, vscode.DiagnosticSeverity.Information);
  assert.equal(d.range.start.line, 1);
  const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', doc.uri, d.range, vscode.CodeActionKind.QuickFix.value);
  assert.deepEqual(
    actions.filter((a) => a.command).map((a) => [a.title, a.command?.command]),
    [
      ['Import CRDs from a cluster...', 'crdYaml.importFromCluster'],
      ['Add a folder or URL of CRDs...', 'crdYaml.addCrdSource'],
      ['Open the crdYaml.crdSources setting', 'workbench.action.openSettings'],
    ],
  );
  await config().update('unknownKinds', 'ignore', vscode.ConfigurationTarget.Workspace);
  try {
    await diagnostics(doc.uri, (x) => x.length === 0, 'nothing with "ignore"');
  } finally {
    await config().update('unknownKinds', undefined, vscode.ConfigurationTarget.Workspace);
  }
  await diagnostics(doc.uri, notChecked, 'the information again after the setting is reset');
});

test('beside redhat.vscode-yaml, crdYaml.syntaxDiagnostics "auto" leaves YAML syntax errors to it; "on" reports them', async () => {
  const redhat = vscode.extensions.getExtension('redhat.vscode-yaml');
  assert.ok(redhat, 'an extension with the id redhat.vscode-yaml is installed (the stub of test/e2e/stub-redhat-yaml)');
  const wrongType = new TextDecoder().decode(await vscode.workspace.fs.readFile(wsUri('examples/crontab-wrong-type.yaml')));
  const content = `${wrongType}---\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: broken\nspec:\n  cronSpec: [\n`;
  const doc = await vscode.workspace.openTextDocument({ language: 'yaml', content });
  await vscode.window.showTextDocument(doc, { preview: false });
  await redhat.activate();
  assert.equal(redhat.isActive, true, 'the redhat.vscode-yaml stub is active');
  // The first document is checked (its type error is reported); the second's syntax error is not ours to report.
  const ds = await diagnostics(doc.uri, (x) => x.some((d) => codeOf(d) === 'FieldValueTypeInvalid'), 'the type error of the first document');
  assert.deepEqual(
    ds.filter((d) => codeOf(d) === 'YAMLSyntax').map((d) => d.message),
    [],
  );
  const config = () => vscode.workspace.getConfiguration('crdYaml');
  await config().update('syntaxDiagnostics', 'on', vscode.ConfigurationTarget.Workspace);
  try {
    const on = await diagnostics(doc.uri, (x) => x.some((d) => codeOf(d) === 'YAMLSyntax'), 'the syntax error with syntaxDiagnostics "on"');
    assert.ok(on.some((d) => codeOf(d) === 'FieldValueTypeInvalid'));
  } finally {
    await config().update('syntaxDiagnostics', undefined, vscode.ConfigurationTarget.Workspace);
  }
  await diagnostics(doc.uri, (x) => !x.some((d) => codeOf(d) === 'YAMLSyntax') && x.length > 0, 'no syntax error again in "auto"');
});

test('the status bar item lists the indexed CRDs: kind, group, versions, file', async () => {
  const items = await vscode.commands.executeCommand<Array<vscode.QuickPickItem>>('crdYaml.showCrds');
  await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  assert.ok(Array.isArray(items), 'the command returns the items it shows');
  const byLabel = new Map(items.map((i) => [i.label, i]));
  const gc = byLabel.get('$(symbol-class) GatewayClass');
  assert.ok(gc, JSON.stringify(items.map((i) => i.label)));
  assert.equal(gc.description, 'gateway.networking.k8s.io · v1, v1beta1');
  assert.equal(gc.detail, 'gateway-api/gateway.networking.k8s.io_gatewayclasses.yaml');
  const cron = byLabel.get('$(symbol-class) CronTab');
  assert.ok(cron, JSON.stringify(items.map((i) => i.label)));
  assert.equal(cron.description, 'stable.example.com · v1');
});
