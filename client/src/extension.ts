/** VS Code client entry point: placeholder until the client lands. */
export function activate(): void {}
export function deactivate(): void {}
