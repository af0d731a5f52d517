/**
 * Helpers for data-driven language-service tests: YAML text in, findings/hovers/completions/edits out.
 * A cursor is written `<|>` in the text.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CompletionItem, Diagnostic, Position, TextEdit } from 'vscode-languageserver-types';
import { LanguageService } from '../../server/src/service/languageService';
import type { ServiceSettings } from '../../server/src/service/context';

export const WIDGET_CRD = readFileSync(join(__dirname, 'fixtures', 'widget-crd.yaml'), 'utf8');
export const CRD_URI = 'file:///ws/crds/widget-crd.yaml';

/** A service with the Widget CRD open (as a separate file). */
export function serviceWithCrd(settings: Partial<ServiceSettings> = {}, crdText = WIDGET_CRD): LanguageService {
  const s = new LanguageService(settings);
  s.update(TextDocument.create(CRD_URI, 'yaml', 1, crdText));
  return s;
}

let n = 0;
/** A document of the given text (cursor marker removed) and the cursor position, if any. */
export function docOf(text: string): { td: TextDocument; pos: Position } {
  const i = text.indexOf('<|>');
  const clean = i < 0 ? text : text.slice(0, i) + text.slice(i + 3);
  const td = TextDocument.create(`file:///ws/doc${n++}.yaml`, 'yaml', 1, clean);
  return { td, pos: td.positionAt(i < 0 ? 0 : i) };
}

export interface ExpectedDiagnostic {
  /** The source text the range covers. */
  text: string;
  code: string;
  /** A substring of the message. */
  message?: string;
  severity?: 'error' | 'warning' | 'information' | 'hint';
  /** 0-based line of the range start. */
  line?: number;
}

const SEVERITY = { error: 1, warning: 2, information: 3, hint: 4 } as const;

/**
 * Checks the diagnostics of a YAML text against the expected ones (same number; each expected one
 * matched by range text and code, then message, severity and line).
 */
export function checkDiagnostics(s: LanguageService, yamlText: string, expected: ExpectedDiagnostic[]): Diagnostic[] {
  const { td } = docOf(yamlText);
  s.update(td);
  const got = s.diagnostics(td);
  const show = () => got.map((d) => `${d.range.start.line}: [${d.code}] ${JSON.stringify(td.getText(d.range))} ${d.message}`).join('\n');
  assert.equal(got.length, expected.length, `diagnostics:\n${show()}`);
  for (const e of expected) {
    const d = got.find((g) => g.code === e.code && td.getText(g.range) === e.text && (!e.message || String(g.message).includes(e.message)));
    assert.ok(d, `expected ${JSON.stringify(e)} among:\n${show()}`);
    assert.equal(d.source, 'crd-yaml');
    if (e.severity) assert.equal(d.severity, SEVERITY[e.severity], `severity of ${e.code}`);
    if (e.line !== undefined) assert.equal(d.range.start.line, e.line, `line of ${e.code}`);
  }
  return got;
}

/** The text after applying a code action's edits for this document. */
export function applyEdits(td: TextDocument, edits: TextEdit[]): string {
  return TextDocument.applyEdits(td, edits);
}

/** The quick fixes for a text's diagnostics, with the text each one produces. */
export function quickFixes(s: LanguageService, yamlText: string): Array<{ title: string; result: string; code: unknown }> {
  const { td } = docOf(yamlText);
  s.update(td);
  const diags = s.diagnostics(td);
  return s.codeActions(td, diags[0]?.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, diags).map((a) => ({
    title: a.title,
    result: applyEdits(td, a.edit!.changes![td.uri]),
    code: a.diagnostics?.[0]?.code,
  }));
}

/** Completion labels at the cursor. */
export function completionsAt(s: LanguageService, yamlText: string): CompletionItem[] {
  const { td, pos } = docOf(yamlText);
  s.update(td);
  return s.completion(td, pos);
}

/** The hover markdown at the cursor ('' when none). */
export function hoverAt(s: LanguageService, yamlText: string): string {
  const { td, pos } = docOf(yamlText);
  s.update(td);
  const h = s.hover(td, pos);
  if (!h) return '';
  const c = h.contents as { value?: string };
  return c.value ?? String(h.contents);
}
