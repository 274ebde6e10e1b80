// "Did you mean": the known name closest to a misspelt one (a flag, a command, a plugin).

/** Levenshtein distance: the single-character edits that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(
        (prev[j] as number) + 1,
        (cur[j - 1] as number) + 1,
        (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    prev = cur;
  }
  return prev[b.length] as number;
}

/**
 * The candidate `name` is most likely a typo of (case-insensitive): within 2 edits (1 for names
 * of 3 characters or fewer), else the only candidate it begins; undefined when none is close. The
 * first candidate wins a tie.
 */
export function closest(name: string, candidates: Iterable<string>): string | undefined {
  const typed = name.toLowerCase();
  const limit = typed.length <= 3 ? 1 : 2;
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  const prefixed: string[] = [];
  for (const c of candidates) {
    const d = editDistance(typed, c.toLowerCase());
    if (d <= limit && d < bestDistance) {
      best = c;
      bestDistance = d;
    }
    if (typed.length > 1 && c.toLowerCase().startsWith(typed)) prefixed.push(c);
  }
  return best ?? (prefixed.length === 1 ? prefixed[0] : undefined);
}
