/**
 * The ways forward for an object not checked for want of its CRD (`UnknownKind` with `origin: noCrd`):
 * editor commands, not edits. The VS Code extension registers the commands (client/src); other editors
 * are not offered them (lsp/ drops actions whose command the client does not have).
 */
import type { Fix } from '../finding';
import type { FixProvider } from './types';

/** The VS Code extension's commands a "not checked" finding offers, with the titles they are offered under. */
export const SUPPLY_CRDS_COMMANDS = {
  importFromCluster: { command: 'crdYaml.importFromCluster', title: 'Import CRDs from a cluster...' },
  addCrdSource: { command: 'crdYaml.addCrdSource', title: 'Add a folder or URL of CRDs...' },
  openSettings: { command: 'workbench.action.openSettings', title: 'Open the crdYaml.crdSources setting' },
} as const;

export const supplyCrds: FixProvider = {
  id: 'supplyCrds',
  matches: (f) => f.code === 'UnknownKind' && f.params?.origin === 'noCrd',
  fixes(_ctx, f): Fix[] {
    const c = SUPPLY_CRDS_COMMANDS;
    return [
      { title: c.importFromCluster.title, edits: [], findings: [f], command: { command: c.importFromCluster.command } },
      { title: c.addCrdSource.title, edits: [], findings: [f], command: { command: c.addCrdSource.command } },
      { title: c.openSettings.title, edits: [], findings: [f], command: { command: c.openSettings.command, arguments: ['crdYaml.crdSources'] } },
    ];
  },
};
