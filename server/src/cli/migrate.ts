/**
 * `crd-yaml migrate`: apiextensions.k8s.io/v1beta1 CRDs upgraded to v1 (service/migrate.ts). Prints the
 * v1 CRDs, or with --write rewrites each file in place (only the migrated documents change). Every change
 * and everything v1 still rejects is reported on stderr as `file:line:col: note|error: path: message`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseYamlDocuments, type YamlVersion } from '../yaml';
import { applyMigrations, migrateFile, type DocumentMigration } from '../service';
import { describeFsError, type InputFile } from './files';

export interface MigrateReport {
  /** What goes to stdout (the v1 CRDs; empty with --write). */
  stdout: string;
  /** One line each, for stderr. */
  lines: string[];
  /** CRDs migrated. */
  migrated: number;
  /** Notes that v1 still rejects something (a person must fix it). */
  manual: number;
  /** Files that could not be written. */
  writeErrors: number;
}

/** Migrates the v1beta1 CRDs of `files`; with `write`, files are rewritten relative to `cwd`. */
export function migrateFiles(files: InputFile[], opts: { write: boolean; cwd: string; yamlVersion?: YamlVersion }): MigrateReport {
  const report: MigrateReport = { stdout: '', lines: [], migrated: 0, manual: 0, writeErrors: 0 };
  const printed: string[] = [];
  for (const file of files) {
    const yaml = parseYamlDocuments(file.text, { yamlVersion: opts.yamlVersion });
    const migrations = migrateFile(yaml);
    if (migrations.length === 0) continue;
    for (const m of migrations) {
      report.migrated++;
      const pos = yaml.positionAt(contentStart(file.text, m));
      const at = { line: pos.line + 1, column: pos.character + 1 };
      const where = `${file.path}:${at.line}:${at.column}`;
      if (m.commentsLost) report.lines.push(`${where}: warning: comments not kept: ${m.commentsLost}`);
      for (const n of m.notes) {
        if (n.kind === 'manual') report.manual++;
        report.lines.push(`${where}: ${n.kind === 'manual' ? 'error' : 'note'}: ${n.path}: ${n.message}${n.kind === 'manual' ? ' (v1 still rejects it: fix by hand)' : ''}`);
      }
      printed.push(m.text.replace(/^---[^\n]*\n/, ''));
    }
    if (opts.write) {
      try {
        fs.writeFileSync(path.resolve(opts.cwd, file.path), applyMigrations(file.text, migrations));
        report.lines.push(`${file.path}: rewrote ${migrations.length} CustomResourceDefinition${migrations.length === 1 ? '' : 's'} as apiextensions.k8s.io/v1`);
      } catch (e) {
        report.writeErrors++;
        report.lines.push(`${file.path}: cannot write: ${describeFsError(e)}`);
      }
    }
  }
  if (!opts.write) report.stdout = printed.map((t) => (t.endsWith('\n') ? t : t + '\n')).join('---\n');
  return report;
}

/** The first line of the document's content (after its `---` line and leading comments). */
function contentStart(text: string, m: DocumentMigration): number {
  const body = text.slice(m.start, m.end);
  const re = /^(?:---[^\n]*\n|[ \t]*(?:#[^\n]*)?\n)*/;
  return m.start + (re.exec(body)?.[0].length ?? 0);
}
