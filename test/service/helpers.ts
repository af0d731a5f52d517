/**
 * Helpers for data-driven language-service tests: YAML text in, findings/hovers/completions/edits out.
 * A cursor is written `<|>` in the text.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CompletionItem, Position, TextEdit } from 'vscode-languageserver-types';
import type { Finding } from '../../server/src/service/finding';
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
  return { td, pos: td.positionAt(Math.max(i, 0)) };
}

export interface ExpectedFinding {
  /** The source text the range covers. */
  text: string;
  code: string;
  /** A substring of the short message (for people). */
  message?: string;
  /** A substring of the API server's exact message. */
  apiMessage?: string;
  severity?: 'error' | 'warning' | 'information' | 'hint';
  /** 0-based line of the range start. */
  line?: number;
}

/**
 * Checks the findings of a YAML text against the expected ones (same number; each expected one
 * matched by range text and code, then messages, severity and line).
 */
export function checkFindings(s: LanguageService, yamlText: string, expected: ExpectedFinding[]): Finding[] {
  const { td } = docOf(yamlText);
  s.update(td);
  const got = s.findings(td);
  const show = () => got.map((d) => `${d.range.start.line}: [${d.code}] ${JSON.stringify(td.getText(d.range))} ${d.message} | ${d.apiMessage ?? ''}`).join('\n');
  assert.equal(got.length, expected.length, `findings:\n${show()}`);
  for (const e of expected) {
    const d = got.find((g) => g.code === e.code && td.getText(g.range) === e.text && (!e.message || g.message.includes(e.message)) && (!e.apiMessage || String(g.apiMessage).includes(e.apiMessage)));
    assert.ok(d, `expected ${JSON.stringify(e)} among:\n${show()}`);
    if (e.severity) assert.equal(d.severity, e.severity, `severity of ${e.code}`);
    if (e.line !== undefined) assert.equal(d.range.start.line, e.line, `line of ${e.code}`);
  }
  return got;
}

/** The text after applying a code action's edits for this document. */
export function applyEdits(td: TextDocument, edits: TextEdit[]): string {
  return TextDocument.applyEdits(td, edits);
}

/** The quick fixes for every finding of a text, with the text each one produces. */
export function quickFixes(s: LanguageService, yamlText: string): Array<{ title: string; result: string; code: unknown }> {
  const { td } = docOf(yamlText);
  s.update(td);
  const whole = { start: { line: 0, character: 0 }, end: td.positionAt(yamlText.length) };
  return s.fixes(td, whole).map((a) => ({ title: a.title, result: applyEdits(td, a.edits), code: a.findings[0]?.code }));
}

/**
 * Applies each fix of the finding with `code` (all of them when several) and checks that, in the text it
 * produces, that finding is gone: no finding of the same code on the same path. Returns the texts.
 */
export function checkFixesRemove(s: LanguageService, yamlText: string, code: string, opts: { title?: RegExp } = {}): string[] {
  const { td } = docOf(yamlText);
  s.update(td);
  const targets = s.findings(td).filter((f) => f.code === code);
  assert.ok(targets.length > 0, `no ${code} finding in:\n${yamlText}`);
  const results: string[] = [];
  for (const t of targets) {
    const fixes = s.fixesOf(td, t).filter((x) => !opts.title || opts.title.test(x.title));
    assert.ok(fixes.length > 0, `no fix for ${t.code} ${t.message}`);
    for (const fx of fixes) {
      const text = applyEdits(td, fx.edits);
      const after = docOf(text).td;
      s.update(after);
      const left = s.findings(after).filter((f) => fx.findings.some((x) => x.code === f.code && (x.field ?? x.path) === (f.field ?? f.path)));
      assert.deepEqual(
        left.map((f) => f.message),
        [],
        `"${fx.title}" left its finding in:\n${text}`,
      );
      results.push(text);
    }
  }
  return results;
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

/**
 * The whole answer against its expected file (test/service/expected/<name>.json), so that a change
 * anywhere in it fails, not only in the fragment a test looks at. CRD_YAML_UPDATE=1 writes the current
 * answers instead: review their diff before committing it.
 */
export function expectWhole(name: string, actual: unknown): void {
  const file = join(__dirname, 'expected', `${name}.json`);
  const text = `${JSON.stringify(actual, null, 2)}\n`;
  if (process.env.CRD_YAML_UPDATE === '1') {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return;
  }
  assert.ok(existsSync(file), `no expected answer test/service/expected/${name}.json: write it with CRD_YAML_UPDATE=1 and review it`);
  assert.deepEqual(JSON.parse(text), JSON.parse(readFileSync(file, 'utf8')), `the answer differs from test/service/expected/${name}.json (CRD_YAML_UPDATE=1 rewrites it)`);
}

/** A document at a fixed URI (whole answers must not depend on how many documents a file made before). */
export function fixedDocOf(text: string, name: string): { td: TextDocument; pos: Position } {
  const { td, pos } = docOf(text);
  return { td: TextDocument.create(`file:///ws/${name}.yaml`, 'yaml', 1, td.getText()), pos };
}
