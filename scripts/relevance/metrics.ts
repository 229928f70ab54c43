/**
 * Graded-relevance metrics for a ranked list of ids, judged 0–3 (unjudged ids count as 0).
 *
 *  - nDCG@k: Σ (2^grade − 1) / log2(rank + 1) over the first k results, divided by the same sum
 *    for the ideal order of every judged id (1 when nothing is relevant and nothing is returned);
 *  - reciprocal rank: 1 / rank of the first result graded at least `minGrade` (0 when none is).
 */

export type Judgments = ReadonlyMap<string, number>;

function gain(grade: number): number {
  return 2 ** grade - 1;
}

function dcg(grades: readonly number[], k: number): number {
  let sum = 0;
  grades.slice(0, k).forEach((g, i) => {
    sum += gain(g) / Math.log2(i + 2);
  });
  return sum;
}

export function ndcgAt(k: number, ranked: readonly string[], judgments: Judgments): number {
  const ideal = dcg(
    [...judgments.values()].filter((g) => g > 0).sort((a, b) => b - a),
    k,
  );
  if (ideal === 0) return ranked.length === 0 ? 1 : 0;
  return (
    dcg(
      ranked.map((id) => judgments.get(id) ?? 0),
      k,
    ) / ideal
  );
}

export function reciprocalRank(ranked: readonly string[], judgments: Judgments, minGrade: number): number {
  const i = ranked.findIndex((id) => (judgments.get(id) ?? 0) >= minGrade);
  return i < 0 ? 0 : 1 / (i + 1);
}
