/**
 * Levenshtein distance (insertions, deletions, substitutions, each costing 1), used only to
 * suggest what a mistyped name probably meant ("did you mean …?") in configuration keys, record
 * fields, request members and agent arguments. Quadratic, so meant for short names.
 */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
