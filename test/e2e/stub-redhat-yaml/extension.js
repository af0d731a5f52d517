// A stub of redhat.vscode-yaml for the editor tests (test/e2e): crd-yaml's `syntaxDiagnostics: auto`
// turns its syntax errors off while an extension with this id is active.
exports.activate = () => undefined;
exports.deactivate = () => undefined;
