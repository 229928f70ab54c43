/**
 * Result order for search (and lookup refinement) and keyset paging over it.
 *
 * Order: buyer-locality `tier` ascending, text relevance descending, geodesic distance to the
 * request's explicit center ascending, `tieBreak` ascending, then Location `id` ascending. The
 * caller fills the two locality fields (see domain/context-rank.ts): without a center, `tier` is
 * the locality tier and `tieBreak` 0 — a closer tier always ranks first, text scores only order
 * Locations within a tier; with a center, `tier` is 0 and `tieBreak` the locality tier, so
 * context only breaks exact distance ties. Without usable context both are 0 everywhere. The id
 * makes the order total, which is what lets a stateless cursor resume exactly after the last
 * Location served, on any instance. See docs/ranking.md.
 */

/** The values a result is ordered by; also the keyset position a cursor carries. */
export interface RankKey {
  /** Primary locality tier, smaller is closer to the buyer; a small non-negative integer (absent = 0). */
  tier?: number;
  /** Larger is better; 0 when the request has no text. Finite. */
  relevance: number;
  /**
   * Metres from the explicit center (`distance.center`, else `serves.point`); 0 for every
   * result when there is no center; `Infinity` for a Location without `geo` when there is one.
   */
  distance: number;
  /** Locality tier used only after distance; a small non-negative integer (absent = 0). */
  tieBreak?: number;
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
    compareNumbersAsc(a.tier ?? 0, b.tier ?? 0) ||
    compareNumbersAsc(b.relevance, a.relevance) ||
    compareNumbersAsc(a.distance, b.distance) ||
    compareNumbersAsc(a.tieBreak ?? 0, b.tieBreak ?? 0) ||
    compareIds(a.id, b.id)
  );
}

/** Order of two results whose distances are exact and equal in everything before distance. */
function compareAfterDistance(a: Bracketed, b: Bracketed): number {
  return (
    compareNumbersAsc(a.distance as number, b.distance as number) ||
    compareNumbersAsc(a.tieBreak ?? 0, b.tieBreak ?? 0) ||
    compareIds(a.id, b.id)
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

/**
 * A result whose distance may so far only be known as a bracket [lower, upper] (see
 * proximity.ts); `distance` is filled in once computed exactly. lower === upper means exact.
 */
export interface Bracketed {
  tier?: number;
  tieBreak?: number;
  relevance: number;
  id: string;
  lower: number;
  upper: number;
  distance?: number;
}

export interface SelectedPage<T> {
  /** The page, in rank order, every element with its exact `distance`. */
  items: (T & RankKey)[];
  /** How many results follow `after` in total (the page included). */
  following: number;
}

/**
 * The page of at most `size` results that follows `after` in rank order — the same page
 * `pageAfter` would return if every distance were exact — while computing exact distances
 * (`exact`) only for results whose bracket leaves their place undecided: near the cursor
 * position, and those competing for the page's slots.
 */
export function selectPage<T extends Bracketed>(
  items: readonly T[],
  after: RankKey | null,
  size: number,
  exact: (item: T) => number,
): SelectedPage<T> {
  const resolve = (t: T): number => {
    if (t.distance === undefined) t.distance = t.lower === t.upper ? t.lower : exact(t);
    return t.distance;
  };
  const isAfter = (t: T, a: RankKey): boolean => {
    if ((t.tier ?? 0) !== (a.tier ?? 0)) return (t.tier ?? 0) > (a.tier ?? 0);
    if (t.relevance !== a.relevance) return t.relevance < a.relevance;
    if (t.upper < a.distance) return false;
    if (t.lower > a.distance) return true;
    const d = resolve(t);
    if (d !== a.distance) return d > a.distance;
    const tb = t.tieBreak ?? 0;
    const ab = a.tieBreak ?? 0;
    return tb !== ab ? tb > ab : compareIds(t.id, a.id) > 0;
  };
  const rest = after === null ? [...items] : items.filter((t) => isAfter(t, after));
  // Best (tier, relevance) group first; inside a group by lower bound, so a scan can stop early.
  rest.sort(
    (a, b) =>
      compareNumbersAsc(a.tier ?? 0, b.tier ?? 0) ||
      compareNumbersAsc(b.relevance, a.relevance) ||
      compareNumbersAsc(a.lower, b.lower) ||
      compareIds(a.id, b.id),
  );

  const page: (T & RankKey)[] = [];
  let i = 0;
  while (i < rest.length && page.length < size) {
    const head = rest[i] as T;
    let end = i;
    while (end < rest.length && (rest[end] as T).relevance === head.relevance && ((rest[end] as T).tier ?? 0) === (head.tier ?? 0)) end++;
    const need = size - page.length;
    const computed: T[] = [];
    let kth = Number.POSITIVE_INFINITY;
    for (let m = i; m < end; m++) {
      const t = rest[m] as T;
      // Later results have lower bounds ≥ this one: none can beat the current need-th best.
      if (computed.length >= need && t.lower > kth) break;
      resolve(t);
      computed.push(t);
      if (computed.length >= need) {
        computed.sort(compareAfterDistance);
        computed.length = Math.min(computed.length, need);
        kth = (computed[computed.length - 1] as T).distance as number;
      }
    }
    computed.sort(compareAfterDistance);
    for (const t of computed.slice(0, need)) page.push(t as T & RankKey);
    i = end;
  }
  return { items: page, following: rest.length };
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
