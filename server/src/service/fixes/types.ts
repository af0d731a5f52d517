/**
 * What every quick fix gets and gives. One file per fix, listed in ./index.ts; each fix says which
 * findings it fixes from their structured data (code, params, document role), never from their wording.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ServiceContext } from '../context';
import type { Finding, Fix } from '../finding';
import type { YamlDocument, YamlFile } from '../../yaml/file';

/** The place a fix works on. */
export interface FixContext {
  service: ServiceContext;
  td: TextDocument;
  file: YamlFile;
  /** The document the finding is in. */
  doc: YamlDocument;
  /** Every finding of that document (for fixes that cover several, e.g. "add all missing required fields"). */
  findings: Finding[];
}

/** One kind of quick fix. */
export interface FixProvider {
  /** A stable name (tests, logs). */
  id: string;
  /** Whether a finding is one this fix is for, by its structured data. */
  matches(f: Finding): boolean;
  /** The fixes for one finding; none when this text does not allow one. */
  fixes(ctx: FixContext, f: Finding): Fix[];
}
