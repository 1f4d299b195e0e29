// Spelling help for field and collection names: the nearest known word, when it is near enough to be a typo.

/** Edit distance, for "did you mean" on misspelt field names. */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length];
}

export function suggest(word: string, options: ReadonlyArray<string>): string | null {
  let best: string | null = null;
  let bestD = Infinity;
  for (const o of options) {
    const d = editDistance(word.toLowerCase(), o);
    if (d < bestD) (best = o), (bestD = d);
  }
  return best !== null && bestD <= Math.max(1, Math.floor(word.length / 3)) ? best : null;
}
