/**
 * Result order for search (and lookup refinement) and keyset paging over it.
 *
 * Order: text relevance descending, then geodesic distance to the request's explicit center
 * ascending, then Location `id` ascending. The id makes the order total, which is what lets a
 * stateless cursor resume exactly after the last Location served, on any instance.
 */

/** The values a result is ordered by; also the keyset position a cursor carries. */
export interface RankKey {
  /** Larger is better; 0 when the request has no text. Finite. */
  relevance: number;
  /**
   * Metres from the explicit center (`distance.center`, else `serves.point`); 0 for every
   * result when there is no center; `Infinity` for a Location without `geo` when there is one.
   */
  distance: number;
  /** Canonical Location id. */
  id: string;
}

/**
 * Compare strings by Unicode code point, which is also the byte order of their UTF-8 encoding,
 * i.e. SQLite's BINARY collation and PostgreSQL's "C" collation. Plain `<` on JS strings compares
 * UTF-16 code units and disagrees for supplementary characters versus U+E000–U+FFFF.
 */
export function compareIds(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // Lift surrogates above the rest of the BMP so that code-unit order becomes code-point order.
    if (x >= 0xd800) x = x <= 0xdfff ? x + 0x2000 : x - 0x800;
    if (y >= 0xd800) y = y <= 0xdfff ? y + 0x2000 : y - 0x800;
    return x - y;
  }
  return a.length - b.length;
}

function compareNumbersAsc(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Negative when `a` comes first. A total order on RankKeys (ids are unique within a result). */
export function compareRank(a: RankKey, b: RankKey): number {
  return (
    compareNumbersAsc(b.relevance, a.relevance) || compareNumbersAsc(a.distance, b.distance) || compareIds(a.id, b.id)
  );
}

/** Index of the first element of `sorted` that comes strictly after `after` (binary search). */
export function indexAfter(sorted: readonly RankKey[], after: RankKey): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareRank(sorted[mid] as RankKey, after) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface Page<T> {
  items: T[];
  /** Whether elements remain after this page (within `available`). */
  hasMore: boolean;
}

/**
 * The page of at most `size` elements that follows `after` (or starts at the top when null),
 * reading no further than the first `available` elements of `sorted`.
 */
export function pageAfter<T extends RankKey>(
  sorted: readonly T[],
  after: RankKey | null,
  size: number,
  available: number = sorted.length,
): Page<T> {
  const end = Math.min(available, sorted.length);
  const start = after === null ? 0 : Math.min(indexAfter(sorted, after), end);
  const stop = Math.min(end, start + Math.max(0, size));
  return { items: sorted.slice(start, stop), hasMore: stop < end };
}
