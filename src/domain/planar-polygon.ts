/**
 * Point-in-polygon on the plane, exact for the given doubles.
 *
 * Coverage areas follow RFC 7946: edges are straight lines in (longitude, latitude) space, so
 * the test is planar on degrees. Boundary decisions ("is the point exactly on this edge?") are
 * made with an exact orientation predicate, so a Location's answer never depends on rounding:
 * a fast floating-point evaluation with a proven error bound (Shewchuk's orient2d filter),
 * falling back to exact BigInt arithmetic only when the sign is uncertain.
 */

/** A ring as interleaved coordinates [x0, y0, x1, y1, …], closed (last pair equals first). */
export type FlatRing = Float64Array;

/** Where a point lies relative to a ring or polygon. */
export type PointLocation = 'inside' | 'boundary' | 'outside';

const EPSILON = 2 ** -53;
/** Shewchuk's bound on the relative error of the filtered 2×2 determinant. */
const CCW_ERRBOUND_A = (3 + 16 * EPSILON) * EPSILON;
/**
 * Below this magnitude products may lose relative precision to underflow, so the filter's
 * bound no longer holds; such (degenerate, sub-nanometre) configurations go to the exact path.
 */
const FILTER_FLOOR = 1e-290;

/**
 * Sign of the cross product (b − a) × (c − a): > 0 when a, b, c turn counterclockwise (c left of
 * a→b), < 0 when clockwise, 0 when exactly collinear. Only the sign is meaningful.
 */
export function orient2d(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  const detLeft = (ax - cx) * (by - cy);
  const detRight = (ay - cy) * (bx - cx);
  const det = detLeft - detRight;
  const detSum = Math.abs(detLeft) + Math.abs(detRight);
  if (detSum >= FILTER_FLOOR) {
    // Opposite (strict) signs cannot cancel, so the rounded difference has the right sign.
    if ((detLeft > 0 && detRight < 0) || (detLeft < 0 && detRight > 0)) return det;
    if (Math.abs(det) > CCW_ERRBOUND_A * detSum) return det;
  }
  return orient2dExact(ax, ay, bx, by, cx, cy);
}

/** Exact sign via BigInt: every double is m·2^e, so all six share the smallest exponent. */
function orient2dExact(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  const parts = [ax, ay, bx, by, cx, cy].map(decompose);
  let minExp = Infinity;
  for (const p of parts) if (p.m !== 0n && p.e < minExp) minExp = p.e;
  if (minExp === Infinity) return 0; // all zero
  const [Ax, Ay, Bx, By, Cx, Cy] = parts.map((p) => (p.m === 0n ? 0n : p.m << BigInt(p.e - minExp))) as [
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
  ];
  const det = (Bx - Ax) * (Cy - Ay) - (By - Ay) * (Cx - Ax);
  return det > 0n ? 1 : det < 0n ? -1 : 0;
}

const scratch = new DataView(new ArrayBuffer(8));

/** x = m · 2^e exactly (x finite). */
function decompose(x: number): { m: bigint; e: number } {
  scratch.setFloat64(0, x);
  const hi = scratch.getUint32(0);
  const lo = scratch.getUint32(4);
  const sign = hi >>> 31 === 1 ? -1n : 1n;
  const biased = (hi >>> 20) & 0x7ff;
  const frac = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (biased === 0) return { m: sign * frac, e: -1074 }; // zero or subnormal
  return { m: sign * (frac | (1n << 52n)), e: biased - 1075 };
}

/**
 * Locates (px, py) against one closed ring with the crossing-number (even–odd) rule; points
 * exactly on an edge or vertex are `boundary`. Works for either orientation.
 */
export function locateInRing(ring: FlatRing, px: number, py: number): PointLocation {
  let inside = false;
  const n = ring.length;
  for (let i = 0; i + 3 < n; i += 2) {
    // In bounds by the loop condition; `?? NaN` only satisfies the index type.
    const ax = ring[i] ?? NaN;
    const ay = ring[i + 1] ?? NaN;
    const bx = ring[i + 2] ?? NaN;
    const by = ring[i + 3] ?? NaN;
    const straddles = ay > py !== by > py;
    const inEdgeBox = py >= Math.min(ay, by) && py <= Math.max(ay, by) && px >= Math.min(ax, bx) && px <= Math.max(ax, bx);
    if (!straddles && !inEdgeBox) continue;
    const o = orient2d(ax, ay, bx, by, px, py);
    if (inEdgeBox && o === 0) return 'boundary';
    // Half-open rule on y (one endpoint counts) so a ray through a vertex is counted once.
    if (straddles && (by > ay ? o > 0 : o < 0)) inside = !inside;
  }
  return inside ? 'inside' : 'outside';
}

/**
 * Locates a point against a polygon given as [outer, ...holes]. A point on any ring (the outer
 * boundary or a hole's boundary) is on the polygon's boundary; inside a hole is outside.
 */
export function locateInPolygon(rings: readonly FlatRing[], px: number, py: number): PointLocation {
  const outer = rings[0];
  if (outer === undefined) return 'outside';
  const o = locateInRing(outer, px, py);
  if (o !== 'inside') return o;
  for (const hole of rings.slice(1)) {
    const l = locateInRing(hole, px, py);
    if (l === 'boundary') return 'boundary';
    if (l === 'inside') return 'outside';
  }
  return 'inside';
}
