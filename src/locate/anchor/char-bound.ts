/** Characters are counted in this many buckets: small enough to compare in a few dozen steps. */
const BUCKETS = 64;

/**
 * A cheap lower bound on the edit distance from one fixed text to many others: an edit changes
 * at most one character in and one out, so the surplus of characters one side has over the
 * other (counted per bucket, which can only lower it) never exceeds the distance. Lines that
 * share few characters with the snippet are rejected without running levenshtein.
 */
export type EditLowerBound = (other: string) => number;

export function editLowerBound(text: string): EditLowerBound {
  const counts = new Int32Array(BUCKETS);
  for (let i = 0; i < text.length; i++) counts[text.charCodeAt(i) & (BUCKETS - 1)]++;
  const work = new Int32Array(BUCKETS);
  return (other) => {
    work.set(counts);
    for (let i = 0; i < other.length; i++) work[other.charCodeAt(i) & (BUCKETS - 1)]--;
    let surplus = 0;
    let deficit = 0;
    for (let b = 0; b < BUCKETS; b++) {
      const d = work[b] as number;
      if (d > 0) surplus += d;
      else deficit -= d;
    }
    return Math.max(surplus, deficit);
  };
}
