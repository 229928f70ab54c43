/**
 * Capture group `n` of a regular-expression match, for a group the pattern makes mandatory (not
 * inside `?`, `*` or an alternative): present whenever the match is. A missing one means the
 * pattern and the code reading it disagree, which is a bug here, not bad input — so it throws.
 */
export function group(match: RegExpExecArray | RegExpMatchArray, n: number): string {
  const value = match[n];
  if (value === undefined) throw new Error(`capture group ${n} of ${JSON.stringify(match[0])} did not take part: the pattern and its reader disagree`);
  return value;
}
