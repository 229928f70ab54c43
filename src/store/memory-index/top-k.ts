/**
 * The best `k` of `n` scored rows, best first: score descending, then row ordinal ascending (the
 * order the stores use for a limited text scan). A bounded heap keeps the current `k` with the
 * worst on top, so a row that cannot enter costs one comparison: O(n log k) instead of sorting all
 * n rows, which matters when a common word matches much of a large dataset and a browse needs a
 * few hundred.
 */

/** Whether row (sa, oa) ranks after row (sb, ob). */
function worse(sa: number, oa: number, sb: number, ob: number): boolean {
  return sa < sb || (sa === sb && oa > ob);
}

/** Positions (into `rows` / `scores`) of the best `k` rows, best first. */
export function topK(rows: ArrayLike<number>, scores: ArrayLike<number>, k: number): number[] {
  const n = rows.length;
  if (k <= 0 || n === 0) return [];
  const heap: number[] = [];
  const sc = (p: number): number => scores[p]!;
  const ord = (p: number): number => rows[p]!;
  const below = (a: number, b: number): boolean => worse(sc(a), ord(a), sc(b), ord(b));
  const siftDown = (from: number): void => {
    let i = from;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let w = i;
      if (l < heap.length && below(heap[l]!, heap[w]!)) w = l;
      if (r < heap.length && below(heap[r]!, heap[w]!)) w = r;
      if (w === i) return;
      const t = heap[i]!;
      heap[i] = heap[w]!;
      heap[w] = t;
      i = w;
    }
  };
  for (let p = 0; p < n; p++) {
    if (heap.length < k) {
      heap.push(p);
      let i = heap.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!below(heap[i]!, heap[parent]!)) break;
        const t = heap[i]!;
        heap[i] = heap[parent]!;
        heap[parent] = t;
        i = parent;
      }
    } else if (below(heap[0]!, p)) {
      heap[0] = p;
      siftDown(0);
    }
  }
  return heap.sort((a, b) => (below(a, b) ? 1 : below(b, a) ? -1 : 0));
}
