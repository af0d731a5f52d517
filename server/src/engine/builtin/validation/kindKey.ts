/**
 * `apiVersion/kind`, the key of the built-in tables (schemas, lifecycles, handwritten checks), made once per
 * pair: they are read for every object, and a key concatenated for each read is hashed anew each time (about
 * a microsecond a read while a check warms up, 5,000 objects reading three tables).
 */
const keys = new Map<string, Map<string, string>>();

/** Pairs kept at most (a file of made-up kinds does not grow it without end). */
const MAX_PAIRS = 10_000;
let pairs = 0;

export function kindKey(apiVersion: string, kind: string): string {
  let byKind = keys.get(apiVersion);
  if (!byKind) {
    if (pairs >= MAX_PAIRS) {
      keys.clear();
      pairs = 0;
    }
    keys.set(apiVersion, (byKind = new Map()));
  }
  let key = byKind.get(kind);
  if (key === undefined) {
    byKind.set(kind, (key = `${apiVersion}/${kind}`));
    pairs++;
  }
  return key;
}
