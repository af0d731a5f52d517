/**
 * The loss warning of a CRD whose versions convert with strategy None but whose schemas differ
 * (engine/crd/storageversion.ts): for each served version, the fields an object written in it loses when
 * stored, and the fields a stored object loses when read in it, at that version's `name`.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { PathSegment } from '../engine';
import { versionFieldLoss } from '../engine';
import { guard } from './engineCalls';
import type { Finding } from './finding';
import { rangeOfPath } from './findings';
import type { YamlDocument } from '../yaml/file';

/** How many field names a message lists before "and N more". */
const MAX_LISTED = 8;

function list(fields: string[]): string {
  const shown = fields.slice(0, MAX_LISTED).join(', ');
  return fields.length > MAX_LISTED ? `${shown} and ${fields.length - MAX_LISTED} more` : shown;
}

const nameOf = (index: number): PathSegment[] => [
  { kind: 'field', name: 'spec' },
  { kind: 'field', name: 'versions' },
  { kind: 'index', index },
  { kind: 'field', name: 'name' },
];

/** The VersionFieldLoss findings of a CRD document (none when its versions keep every field). */
export function versionLossFindings(td: TextDocument, doc: YamlDocument, crd: unknown): Finding[] {
  const r = guard(() => versionFieldLoss(crd));
  if (!r.ok) return [];
  const out: Finding[] = [];
  for (const l of r.value) {
    const range = rangeOfPath(td, doc, nameOf(l.versionIndex), 'value');
    const storage = { location: { uri: td.uri, range: rangeOfPath(td, doc, nameOf(l.storageIndex), 'value') }, message: `${l.storageVersion} is the storage version` };
    // Without spec.conversion the CRD may get a webhook when deployed (generated bases, kustomize patches):
    // then this is only what would happen without one.
    const severity = l.explicitNone ? ('warning' as const) : ('information' as const);
    const unless = l.explicitNone ? '' : ' (no spec.conversion: unless a conversion webhook is added when it is deployed)';
    const base = { range, severity, code: 'VersionFieldLoss' as const, document: 'crd' as const, params: { origin: 'versionFieldLoss' }, related: [storage] };
    if (l.lostWhenStored.length) {
      out.push({
        ...base,
        message: `objects written as ${l.version} lose ${list(l.lostWhenStored)} when stored as ${l.storageVersion}: conversion strategy None only changes apiVersion, and the storage version's schema does not have them${unless}`,
      });
    }
    if (l.lostWhenRead.length) {
      out.push({
        ...base,
        message: `objects read as ${l.version} lose ${list(l.lostWhenRead)} (stored as ${l.storageVersion}): conversion strategy None only changes apiVersion, and ${l.version}'s schema does not have them${unless}`,
      });
    }
  }
  return out;
}
