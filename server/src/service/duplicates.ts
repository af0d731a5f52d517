/**
 * Two or more definitions of one group/kind (a chart's copy and `config/crd/`, Gateway API's standard
 * and experimental channels): one information finding per group/kind, on the definition in use, naming
 * every copy by its path from the workspace folder (the CLI: its working directory) and why that one is
 * used (the rules of CrdIndex, in the README). It sits on the copy in use because that is the one objects
 * are checked against, and the one place that does not multiply with the copies (volcano's 22 duplicated
 * CRDs were 66 lines). Each other copy gets a hint (in the editor a faint mark on its kind, not a row of
 * the Problems panel): editing it changes no object's findings, and only open files show findings.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { IndexedCrd } from '../workspace/crdIndex';
import { crdLocation, type ServiceContext } from './context';
import type { Finding } from './finding';
import type { YamlDocument } from '../yaml/file';
import { isJSONObject } from '../engine';

/** Every indexed definition of the group/kind a CRD value defines, the one in use first. */
export function definitionsOf(ctx: ServiceContext, crd: Record<string, unknown>): IndexedCrd[] {
  const spec = isJSONObject(crd.spec) ? crd.spec : {};
  const names = isJSONObject(spec.names) ? spec.names : {};
  if (typeof spec.group !== 'string' || typeof names.kind !== 'string') return [];
  // A catalog CRD (workspace/catalog.ts) is a fallback fetched for want of a local one, not a copy.
  return ctx.index.definitions(spec.group, names.kind).filter((c) => !c.catalog);
}

/**
 * A file as people name it: its path from the workspace folder holding it (with the folder's name first
 * when there are several, as VS Code shows them), else its whole path; other URIs as they are.
 */
export function workspacePath(ctx: ServiceContext, uri: string): string {
  const folders = ctx.folders ?? [];
  // Compared decoded: clients and Node encode some characters of a path differently.
  const u = decode(uri);
  for (const f of folders) {
    const d = decode(f);
    const base = d.endsWith('/') ? d : `${d}/`;
    if (!u.startsWith(base)) continue;
    const rel = u.slice(base.length);
    return folders.length > 1 ? `${base.slice(0, -1).split('/').pop() ?? ''}/${rel}` : rel;
  }
  return u.startsWith('file://') ? u.slice('file://'.length) : uri;
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Why `used` is used rather than `next`, the second by the rules of CrdIndex (the first rule that tells them apart). */
function why(used: IndexedCrd, next: IndexedCrd): string {
  if (!!used.broken !== !!next.broken) return 'the others have YAML syntax errors';
  if ((used.source === 'external') !== (next.source === 'external')) return 'a workspace file is used before sources outside the workspace';
  if (used.uri === next.uri) return 'the first in the file is used';
  return 'the first by path is used';
}

/** Copies named in one message at most (the related locations list them all). */
const MAX_NAMED = 12;

const NAMES_KIND = [
  { kind: 'field', name: 'spec' },
  { kind: 'field', name: 'names' },
  { kind: 'field', name: 'kind' },
] as const;

/** The finding on a CRD document defined elsewhere too (none when it is the only definition). */
export function duplicateFindings(ctx: ServiceContext, td: TextDocument, doc: YamlDocument, crd: Record<string, unknown>): Finding[] {
  const defs = definitionsOf(ctx, crd);
  if (defs.length < 2) return [];
  const self = defs.find((d) => d.uri === td.uri && d.docIndex === doc.index);
  if (!self) return [];
  const used = defs[0];
  const r = doc.rangeOfPath([...NAMES_KIND], 'value');
  const range = { start: td.positionAt(r.start), end: td.positionAt(r.end) };
  const key = `${self.group}/${self.kind}`;
  // A file holding two copies names the second by its line.
  const name = (d: IndexedCrd) => {
    const p = workspacePath(ctx, d.uri);
    return defs.some((o) => o !== d && o.uri === d.uri) ? `${p}:${d.startLine + 1}` : p;
  };
  const base = { range, code: 'DuplicateCRD', document: 'crd', params: { origin: 'duplicateCrd' } } as const;
  if (self !== used) {
    return [
      {
        ...base,
        severity: 'hint',
        message: `${key} is also defined in ${name(used)}, which is the one in use (${why(used, defs[1])}); objects are not checked against this copy`,
        related: [{ location: crdLocation(ctx, used, [...NAMES_KIND]), message: `in use: ${key} defined in ${name(used)}` }],
      },
    ];
  }
  const others = defs.slice(1);
  const named = others.slice(0, MAX_NAMED).map(name);
  if (others.length > MAX_NAMED) named.push(`${others.length - MAX_NAMED} more`);
  return [
    {
      ...base,
      severity: 'information',
      message: `${key} is defined ${defs.length} times: objects are checked against this one, ${name(used)} (${why(used, defs[1])}), not ${named.join(', ')}`,
      related: others.map((o) => ({ location: crdLocation(ctx, o, [...NAMES_KIND]), message: `not used: ${key} defined in ${name(o)}` })),
    },
  ];
}
