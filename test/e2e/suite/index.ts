/** The extensionTestsPath entry point: VS Code (or code-server) calls `run()` inside the extension host. */
import { runTests } from './runner';
import './extension.e2e';

/** Runs the extension tests; rejects when one failed. */
export async function run(): Promise<void> {
  await runTests();
}
