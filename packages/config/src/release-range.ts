// The Kubernetes releases a plugin package implements, as its package.json states them
// (`"kubesched": {"kubernetes": RANGE}`): one release (`1.35`) or comparators that must all hold
// (`>=1.33 <=1.37`), compared by minor, as npm compares versions.

const comparator = /^(>=|<=|>|<|=)?\s*v?(\d+)\.(\d+)$/;

/**
 * Whether `release` (`"1.35"`) is in `range`; null when the range cannot be read (not a
 * release, or comparators of another form).
 */
export function releaseInRange(range: string, release: string): boolean | null {
  const [rMajor, rMinor] = release.split(".").map(Number) as [number, number];
  const parts = range.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return null;
  let inRange = true;
  for (const part of parts) {
    const m = comparator.exec(part);
    if (!m) return null;
    const cmp = rMajor - Number(m[2]) || rMinor - Number(m[3]);
    const op = m[1] ?? "=";
    const holds =
      op === ">="
        ? cmp >= 0
        : op === "<="
          ? cmp <= 0
          : op === ">"
            ? cmp > 0
            : op === "<"
              ? cmp < 0
              : cmp === 0;
    inRange &&= holds;
  }
  return inRange;
}
