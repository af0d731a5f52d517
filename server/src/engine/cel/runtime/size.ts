/**
 * Sizes of runtime values as cel-go's cost tracker measures them (traits.Sizer): strings in code
 * points, bytes in bytes, lists and maps in entries; 1 for everything else.
 */
import { K8S_RAW, Optional, isList, isOpaque, listSize, type Val } from './values';

const SURROGATE = /[\uD800-\uDFFF]/;
const PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

/** Code points of s (Go's utf8.RuneCountInString of its UTF-8 form). */
export function runeCount(s: string): number {
  if (s.length < 64) {
    let n = s.length;
    for (let i = 0; i < s.length - 1; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff) {
        const d = s.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          n--;
          i++;
        }
      }
    }
    return n;
  }
  if (!SURROGATE.test(s)) return s.length;
  return s.length - (s.match(PAIR)?.length ?? 0);
}

/** cel-go's actualSize (interpreter/runtimecost.go): Sizer values by size, optionals by their value. */
export function actualSize(v: Val): number {
  if (typeof v === 'string') return runeCount(v);
  if (v instanceof Uint8Array) return v.length;
  if (isList(v)) return listSize(v);
  if (v instanceof Map) {
    // A schema object counts every field of its JSON (unstructuredMap.Size), declared or not.
    const raw = (v as unknown as Record<symbol, Record<string, unknown> | undefined>)[K8S_RAW];
    return raw ? Object.keys(raw).length : v.size;
  }
  if (v instanceof Optional && v.present) return actualSize(v.value);
  // net.IP and net.CIDR are Sizers (bytes of the address / of the prefix).
  if (isOpaque(v) && typeof (v as unknown as { size?: () => number }).size === 'function') return (v as unknown as { size: () => number }).size();
  return 1;
}

/** The Kubernetes library's actualSize (pkg/cel/library/cost.go): like cel-go's, without unwrapping optionals. */
export function k8sActualSize(v: Val): number {
  if (v instanceof Optional) return 1;
  return actualSize(v);
}
