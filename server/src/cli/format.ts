/**
 * Printing findings: text (one line each, compiler style), JSON, and SARIF 2.1.0 for code scanning.
 */
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Log, Result } from 'sarif';
import { errorTypeString, type ErrorType } from '../engine/field';
import { CLI_RULES, oneLine, type CheckReport, type Finding, type Severity } from './check';
import { STDIN } from './files';

/**
 * `file:line:col: severity: message [Rule field.path]`, one line per finding. A CEL compile error's
 * source snippet (the ` | rule` and ` | ..^` lines) is left out: line:col already point at the spot.
 */
export function formatText(findings: Finding[]): string {
  return findings
    .map((f) => {
      const tag = f.field ? `${f.rule} ${f.field}` : f.rule;
      const message = f.message
        .split('\n')
        .filter((l, i) => i === 0 || !/^\s*\|/.test(l))
        .join('\n');
      return `${f.file}:${f.start.line}:${f.start.column}: ${f.severity}: ${oneLine(message)} [${tag}]\n`;
    })
    .join('');
}

/** Counts by severity. */
export function summarize(findings: Finding[]): Record<Severity, number> {
  const c: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const f of findings) c[f.severity]++;
  return c;
}

/** The JSON report: findings with 1-based positions, the counts, and input errors. */
export function formatJson(report: CheckReport, inputErrors: string[]): string {
  const findings = report.findings.map((f) => ({
    file: f.file,
    line: f.start.line,
    column: f.start.column,
    endLine: f.end.line,
    endColumn: f.end.column,
    severity: f.severity,
    message: f.message,
    rule: f.rule,
    ...(f.field !== undefined ? { field: f.field } : {}),
  }));
  const summary = { files: report.files, documents: report.documents, ...summarize(report.findings) };
  return JSON.stringify({ findings, summary, inputErrors }, null, 2) + '\n';
}

const ERROR_TYPES: ErrorType[] = [
  'FieldValueRequired',
  'FieldValueInvalid',
  'FieldValueForbidden',
  'FieldValueNotSupported',
  'FieldValueDuplicate',
  'FieldValueTooLong',
  'FieldValueTooMany',
  'FieldValueTypeInvalid',
  'FieldValueNotFound',
  'InternalError',
];

const SARIF_LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };

/** Every rule the CLI can report, with a stable index (Kubernetes error types first). */
function sarifRules(): { id: string; text: string }[] {
  return [
    ...ERROR_TYPES.map((t) => ({ id: t, text: `Kubernetes ${t}: ${errorTypeString(t)}` })),
    ...Object.entries(CLI_RULES).map(([id, text]) => ({ id, text })),
  ];
}

/**
 * SARIF 2.1.0: one run, tool.driver with the rules, one result per finding with its level, message
 * and physical location (relative paths against %SRCROOT% = the working directory).
 */
export function formatSarif(report: CheckReport, opts: { version: string; cwd: string; inputErrors: string[] }): string {
  const rules = sarifRules();
  const ruleIndex = new Map(rules.map((r, i) => [r.id, i]));
  const uriOf = (file: string) => {
    if (file === STDIN) return { uri: 'stdin' };
    const abs = path.resolve(opts.cwd, file);
    const rel = path.relative(opts.cwd, abs);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return { uri: pathToFileURL(abs).href };
    return { uri: rel.split(path.sep).map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' };
  };
  const results = report.findings.map((f): Result => {
    const idx = ruleIndex.get(f.rule);
    return {
      ruleId: f.rule,
      ...(idx !== undefined ? { ruleIndex: idx } : {}),
      level: SARIF_LEVEL[f.severity],
      message: { text: f.message },
      locations: [
        {
          physicalLocation: {
            artifactLocation: uriOf(f.file),
            region: { startLine: f.start.line, startColumn: f.start.column, endLine: f.end.line, endColumn: f.end.column },
          },
        },
      ],
      ...(f.field !== undefined ? { properties: { field: f.field } } : {}),
    };
  });
  const root = pathToFileURL(opts.cwd.endsWith(path.sep) ? opts.cwd : opts.cwd + path.sep).href;
  // Typed against @types/sarif, so that property names and shapes follow the 2.1.0 schema.
  const sarif: Log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'crd-yaml',
            version: opts.version,
            rules: rules.map((r) => ({ id: r.id, shortDescription: { text: r.text } })),
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { uri: root } },
        columnKind: 'utf16CodeUnits',
        invocations: [
          {
            executionSuccessful: opts.inputErrors.length === 0,
            toolExecutionNotifications: opts.inputErrors.map((text) => ({ level: 'error' as const, message: { text } })),
          },
        ],
        results,
      },
    ],
  };
  return JSON.stringify(sarif, null, 2) + '\n';
}
