/**
 * Every quick fix, one file each. A fix is offered for a finding when its `matches` holds on the finding's
 * structured data; the engine's and the service's wording can change without losing a fix.
 */
import type { Finding, Fix } from '../finding';
import { addRequired } from './addRequired';
import { addType } from './addType';
import { celCostBound } from './celCostBound';
import { celFieldName } from './celFieldName';
import { celGuardField } from './celGuardField';
import { closestEnum } from './closestEnum';
import { closestKind } from './closestKind';
import { declareOutside } from './declareOutside';
import { moveOutOfJunctor } from './moveOutOfJunctor';
import { quoteScalar } from './quoteScalar';
import { removeConflictingKeyword } from './removeConflictingKeyword';
import { removeMetadataSchema } from './removeMetadataSchema';
import { removeUnknownField } from './removeUnknownField';
import { renameUnknownField } from './renameUnknownField';
import { setType } from './setType';
import { supplyCrds } from './supplyCrds';
import { uniqueItemsToSet } from './uniqueItemsToSet';
import { upgradeToV1 } from './upgradeToV1';
import type { FixContext, FixProvider } from './types';

export type { FixContext, FixProvider } from './types';

/** The fixes, in the order they are offered for one finding. */
export const FIXES: readonly FixProvider[] = [
  // CRDs
  upgradeToV1,
  addType,
  setType,
  removeConflictingKeyword,
  uniqueItemsToSet,
  moveOutOfJunctor,
  removeMetadataSchema,
  declareOutside,
  celFieldName,
  celCostBound,
  celGuardField,
  // CRs
  renameUnknownField,
  removeUnknownField,
  addRequired,
  closestEnum,
  closestKind,
  // any document
  quoteScalar,
  // objects not checked: ways to supply their CRDs (editor commands)
  supplyCrds,
];

/** The fixes for one finding (a fix that fails on this text is simply not offered). */
export function fixesFor(ctx: FixContext, f: Finding): Fix[] {
  const out: Fix[] = [];
  for (const p of FIXES) {
    if (!p.matches(f)) continue;
    try {
      out.push(...p.fixes(ctx, f));
    } catch {
      // A fix that cannot be computed on this text is not offered.
    }
  }
  return out;
}
