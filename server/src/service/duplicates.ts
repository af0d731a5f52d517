/**
 * Two or more definitions of one group/kind (a chart's copy and `config/crd/`, Gateway API's standard
 * and experimental channels): each gets an information finding naming the one in use, and why (the
 * rules of CrdIndex, in the README).
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { fileURLToPath } from 'node:url';
import type { IndexedCrd } from '../workspace/crdIndex';
import { crdLocation, type ServiceContext } from './context';
import type { Finding } from './finding';
import type { YamlDoc } from './yamlDocument';
import { isJSONObject } from '../engine/json/values';

/** Every indexed definition of the group/kind a CRD value defines, the one in use first. */
export function definitionsOf(ctx: ServiceContext, crd: Record<string, unknown>): IndexedCrd[] {
  const spec = isJSONObject(crd.spec) ? crd.spec : {};
  const names = isJSONObject(spec.names) ? spec.names : {};
  if (typeof spec.group !== 'string' || typeof names.kind !== 'string') return [];
  return ctx.index.definitions(spec.group, names.kind);
}

/** A file named for people: its last three path segments. */
function shortName(uri: string): string {
  let p = uri;
  try {
    if (uri.startsWith('file:')) p = fileURLToPath(uri);
  } catch {
    // keep the URI
  }
  return p.split(/[\\/]/).slice(-3).join('/');
}

/** Why `used` is used rather than `other` (the first rule of CrdIndex that tells them apart). */
function why(used: IndexedCrd, other: IndexedCrd): string {
  if (!!used.broken !== !!other.broken) return 'the other has YAML syntax errors';
  if (used.source !== other.source) {
    if (used.source === 'open') return 'an open document is used before files on disk';
    return 'workspace files are used before sources outside the workspace';
  }
  if (used.uri === other.uri) return 'the first in the file is used';
  return 'the first by path is used';
}

const NAMES_KIND = [
  { kind: 'field', name: 'spec' },
  { kind: 'field', name: 'names' },
  { kind: 'field', name: 'kind' },
] as const;

/** The finding on a CRD document defined elsewhere too (none when it is the only definition). */
export function duplicateFindings(ctx: ServiceContext, td: TextDocument, doc: YamlDoc, crd: Record<string, unknown>): Finding[] {
  const defs = definitionsOf(ctx, crd);
  if (defs.length < 2) return [];
  const self = defs.find((d) => d.uri === td.uri && d.docIndex === doc.index);
  if (!self) return [];
  const used = defs[0];
  const others = defs.filter((d) => d !== self);
  const r = doc.layer.rangeOfPath([...NAMES_KIND], 'value');
  const range = { start: td.positionAt(r.start), end: td.positionAt(r.end) };
  const key = `${self.group}/${self.kind}`;
  const message =
    self === used
      ? `${key} is also defined in ${others.map((o) => shortName(o.uri)).join(', ')}: this definition is the one in use (${why(used, others[0])})`
      : `${key} is also defined in ${shortName(used.uri)}, which is the one in use (${why(used, self)}); objects are not checked against this one`;
  return [
    {
      range,
      severity: 'information',
      code: 'DuplicateCRD',
      message,
      document: 'crd',
      params: { origin: 'duplicateCrd' },
      related: others.map((o) => ({ location: crdLocation(ctx, o, [...NAMES_KIND]), message: `${o === used ? 'in use: ' : ''}${key} defined in ${shortName(o.uri)}` })),
    },
  ];
}
