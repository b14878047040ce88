// Edit distance with adjacent transpositions counted as one edit (optimal string alignment), so that
// "nmae" is one edit from "name" just as "runn" is from "run".
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i += 1) {
    for (let j = 1; j < cols; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      }
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

function normalizeKey(key: string): string {
  return key.toLowerCase().replace(/[-_\s]/g, '');
}

// The known key a mistyped one most likely meant: same letters in another case or separator style
// (okCodes, ok_codes), else the closest within about a third of its length. Null when nothing is close.
export function suggestKey(unknown: string, known: readonly string[]): string | null {
  if (unknown.length > 64) return null;
  const normalized = normalizeKey(unknown);
  const sameLetters = known.find((key) => normalizeKey(key) === normalized);
  if (sameLetters !== undefined) return sameLetters;
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const key of known) {
    const distance = editDistance(normalized, normalizeKey(key));
    const allowed = Math.max(1, Math.floor(key.length / 3));
    if (distance <= allowed && distance < bestDistance) {
      best = key;
      bestDistance = distance;
    }
  }
  return best;
}
