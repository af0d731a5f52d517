/**
 * CRD findings are printed with the API server's *internal* field paths: the v1 -> internal
 * conversion hoists per-version fields that are identical in every version to the top of the spec
 * (`spec.validation`, `spec.subresources`, `spec.additionalPrinterColumns`, `spec.selectableFields`)
 * and moves the webhook conversion fields. This maps such a path to where the field is written in
 * a v1 YAML document, so the range lands on the text the user wrote; the message keeps the API
 * server's path.
 */
import type { PathSegment } from '../engine';

const field = (name: string): PathSegment => ({ kind: 'field', name });

/** Hoisted internal spec field -> its per-version v1 field name. */
const HOISTED: Record<string, string> = {
  validation: 'schema',
  subresources: 'subresources',
  additionalPrinterColumns: 'additionalPrinterColumns',
  selectableFields: 'selectableFields',
};

/**
 * The v1 paths that an internal CRD path may stand for, best first (empty when the path is the
 * same in v1). `versionCount` is the number of `spec.versions` items: a hoisted field was identical
 * in all of them, so each is a candidate (the first one that exists is the best range).
 */
export function v1PathsOfInternalCrdPath(segments: readonly PathSegment[], versionCount: number): PathSegment[][] {
  const out = internalToV1(segments, versionCount);
  if (out.length) return out.map((p) => v1PrinterColumnField(p) ?? p);
  const renamed = v1PrinterColumnField(segments);
  return renamed ? [renamed] : [];
}

/** Printer columns: the internal struct's field is `JSONPath`, v1's `jsonPath` (hoisted or per version). */
function v1PrinterColumnField(p: readonly PathSegment[]): PathSegment[] | undefined {
  const i = p.findIndex((s, j) => s.kind === 'field' && s.name === 'JSONPath' && j >= 2 && p[j - 2].kind === 'field' && (p[j - 2] as { name: string }).name === 'additionalPrinterColumns');
  return i < 0 ? undefined : p.map((s, j) => (j === i ? field('jsonPath') : s));
}

function internalToV1(segments: readonly PathSegment[], versionCount: number): PathSegment[][] {
  const [s0, s1, s2] = segments;
  if (s0?.kind !== 'field' || s0.name !== 'spec' || s1?.kind !== 'field') return [];
  const rest = segments.slice(2);
  const hoisted = HOISTED[s1.name];
  if (hoisted !== undefined) {
    const out: PathSegment[][] = [];
    for (let i = 0; i < Math.max(1, versionCount); i++) {
      out.push([field('spec'), field('versions'), { kind: 'index', index: i }, field(hoisted), ...rest]);
    }
    return out;
  }
  if (s1.name === 'version') return [[field('spec'), field('versions'), { kind: 'index', index: 0 }, field('name'), ...rest]];
  if (s1.name === 'conversion' && s2?.kind === 'field') {
    const tail = segments.slice(3);
    if (s2.name === 'conversionReviewVersions') return [[field('spec'), field('conversion'), field('webhook'), s2, ...tail]];
    if (s2.name === 'webhookClientConfig') return [[field('spec'), field('conversion'), field('webhook'), field('clientConfig'), ...tail]];
  }
  return [];
}
