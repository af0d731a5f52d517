/** k8s.io/apimachinery/pkg/version CompareKubeAwareVersionStrings: v1 > v1beta2 > v1beta1 > v1alpha1 > other. */
export function compareKubeAwareVersionStrings(v1: string, v2: string): number {
  if (v1 === v2) return 0;
  const a = parse(v1);
  const b = parse(v2);
  if (!a && !b) return v2 < v1 ? -1 : v2 > v1 ? 1 : 0;
  if (!a) return -1;
  if (!b) return 1;
  if (a.type !== b.type) return a.type - b.type;
  if (a.major !== b.major) return a.major - b.major;
  return a.minor - b.minor;
}

function parse(v: string): { major: number; type: number; minor: number } | undefined {
  const m = /^v([1-9][0-9]*)(?:(alpha|beta)([1-9][0-9]*))?$/.exec(v);
  if (!m) return undefined;
  return { major: Number(m[1]), type: m[2] === 'alpha' ? 0 : m[2] === 'beta' ? 1 : 2, minor: m[3] ? Number(m[3]) : 0 };
}
