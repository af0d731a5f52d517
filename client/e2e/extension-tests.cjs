// Tests run inside a real VS Code extension host (code-server), against the `vscode` API: the extension
// activates, starts its server over IPC, publishes diagnostics, offers completions and quick fixes, and the
// preview command opens a read-only document that follows the source. Writes {ok, steps, error} to $RESULT.
const vscode = require('vscode');
const fs = require('fs');
const path = require('path');

const { RESULT, WS } = process.env;

async function until(what, fn, ms = 30000) {
  const t0 = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() - t0 > ms) throw new Error(`timeout: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

exports.run = async function run() {
  const result = { ok: false, steps: [] };
  const step = (s) => result.steps.push(`${new Date().toISOString()} ${s}`);
  try {
    const ext = vscode.extensions.all.find((e) => e.packageJSON.name === 'crd-yaml');
    if (!ext) throw new Error('extension not found');
    await ext.activate();
    step('activated');
    const uri = vscode.Uri.file(path.join(WS, 'cr.yaml'));
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const diag = await until('diagnostics', () =>
      vscode.languages.getDiagnostics(uri).find((d) => d.source === 'crd-yaml' && d.message.includes('Unsupported value: "huge"')),
    );
    step(`diagnostic: ${diag.message} @${diag.range.start.line}:${diag.range.start.character} code=${diag.code}`);
    if (diag.range.start.line !== 5 || diag.range.start.character !== 8) throw new Error('diagnostic range');

    const actions = await vscode.commands.executeCommand('vscode.executeCodeActionProvider', uri, diag.range);
    const fix = actions.find((a) => a.title === 'Replace with large');
    if (!fix) throw new Error(`quick fix missing: ${actions.map((a) => a.title)}`);
    step(`quick fix: ${fix.title}`);

    const list = await vscode.commands.executeCommand('vscode.executeCompletionItemProvider', uri, new vscode.Position(5, 8));
    const labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    if (!['small', 'medium', 'large'].every((l) => labels.includes(l))) throw new Error(`completion: ${labels}`);
    step(`completion: ${labels.join(',')}`);

    const hovers = await vscode.commands.executeCommand('vscode.executeHoverProvider', uri, new vscode.Position(5, 3));
    const hoverText = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    if (!hoverText.includes('How big the widget is')) throw new Error(`hover: ${hoverText}`);
    step('hover');

    await vscode.commands.executeCommand('crdYaml.preview', uri.toString(), { line: 0, character: 0 });
    const preview = await until('preview editor', () => vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme === 'crd-yaml-preview'));
    const text = preview.document.getText();
    if (!text.includes('# pruned: spec.colour') || !text.includes('replicas: 1')) throw new Error(`preview: ${text}`);
    step('preview opened');

    // Fix the source: the preview follows.
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, diag.range, 'large');
    await vscode.workspace.applyEdit(edit);
    await until('preview update', () => {
      const d = vscode.workspace.textDocuments.find((x) => x.uri.scheme === 'crd-yaml-preview');
      result.previewText = d ? d.getText() : '(no preview document)';
      result.previewUri = d ? d.uri.toString() : '';
      result.sourceText = doc.getText();
      return d && d.getText().includes('size: large');
    }, 10000);
    step('preview followed the edit');
    await until('diagnostics cleared', () => !vscode.languages.getDiagnostics(uri).some((d) => d.message.includes('Unsupported value')));
    step('diagnostics updated');

    const lenses = await vscode.commands.executeCommand('vscode.executeCodeLensProvider', uri);
    if (!lenses.some((l) => l.command && l.command.command === 'crdYaml.preview')) throw new Error('no preview code lens');
    step('code lens');
    await vscode.commands.executeCommand('crdYaml.previewDiff', uri.toString(), { line: 0, character: 0 });
    await until('diff editor', () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).some((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === 'crd-yaml-preview'));
    step('diff view');
    result.ok = true;
  } catch (e) {
    result.error = String((e && e.stack) || e);
  }
  fs.writeFileSync(RESULT, JSON.stringify(result, null, 2));
};
