import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { locateInPolygon, locateInRing, orient2d, type FlatRing } from './planar-polygon.js';

/** Builds a closed flat ring from [x, y] pairs (closing pair appended). */
function ring(...pts: [number, number][]): FlatRing {
  const closed = [...pts, pts[0]!];
  return Float64Array.from(closed.flat());
}

/** Integers scaled by 2^-43 are exact doubles; the BigInt determinant of the integers is the truth. */
const SCALE = 2 ** -43;
const intArb = fc.bigInt({ min: -(2n ** 50n), max: 2n ** 50n });

function exactSign(ax: bigint, ay: bigint, bx: bigint, by: bigint, cx: bigint, cy: bigint): number {
  const det = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  return det > 0n ? 1 : det < 0n ? -1 : 0;
}

describe('orient2d', () => {
  it('gives the exact sign for arbitrary points', () => {
    fc.assert(
      fc.property(intArb, intArb, intArb, intArb, intArb, intArb, (ax, ay, bx, by, cx, cy) => {
        const got = Math.sign(
          orient2d(...([ax, ay, bx, by, cx, cy].map((v) => Number(v) * SCALE) as [number, number, number, number, number, number])),
        );
        expect(got).toBe(exactSign(ax, ay, bx, by, cx, cy));
      }),
      { numRuns: 2000 },
    );
  });

  it('reports exact collinearity of points on one line', () => {
    // c = a + k·(b − a) with integer k: exactly collinear, although the floating products round.
    fc.assert(
      fc.property(
        intArb,
        intArb,
        fc.bigInt({ min: -(2n ** 20n), max: 2n ** 20n }),
        fc.bigInt({ min: -(2n ** 20n), max: 2n ** 20n }),
        fc.bigInt({ min: -3n, max: 3n }),
        (ax, ay, dx, dy, k) => {
          const [bx, by, cx, cy] = [ax + dx, ay + dy, ax + k * dx, ay + k * dy];
          const f = (v: bigint): number => Number(v) * SCALE;
          expect(orient2d(f(ax), f(ay), f(bx), f(by), f(cx), f(cy))).toBe(0);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('handles a point a few ulps off a long edge', () => {
    const y = 0.5;
    const above = y + Number.EPSILON / 2; // next double above 0.5
    expect(orient2d(0, 0, 1, 1, y, y)).toBe(0);
    expect(Math.sign(orient2d(0, 0, 1, 1, y, above))).toBe(1);
    expect(Math.sign(orient2d(0, 0, 1, 1, above, y))).toBe(-1);
    // Subnormal-scale offsets go through the exact path too.
    expect(Math.sign(orient2d(0, 0, 1e-300, 1e-300, 5e-301, 5e-301 + 1e-310))).toBe(1);
  });
});

describe('locateInRing', () => {
  const square = ring([0, 0], [10, 0], [10, 10], [0, 10]);

  it('classifies inside, outside, edge and vertex points (boundary inclusive)', () => {
    expect(locateInRing(square, 5, 5)).toBe('inside');
    expect(locateInRing(square, 15, 5)).toBe('outside');
    expect(locateInRing(square, -1e-12, 5)).toBe('outside');
    expect(locateInRing(square, 0, 5)).toBe('boundary');
    expect(locateInRing(square, 10, 10)).toBe('boundary');
    expect(locateInRing(square, 3, 0)).toBe('boundary');
  });

  it('is independent of ring orientation', () => {
    const cw = ring([0, 0], [0, 10], [10, 10], [10, 0]);
    for (const [x, y] of [
      [5, 5],
      [0, 5],
      [11, 5],
      [10, 0],
    ] as const)
      expect(locateInRing(cw, x, y)).toBe(locateInRing(square, x, y));
  });

  it('counts a ray through a vertex once (diamond and concave shapes)', () => {
    const diamond = ring([0, -5], [5, 0], [0, 5], [-5, 0]);
    expect(locateInRing(diamond, 0, 0)).toBe('inside');
    expect(locateInRing(diamond, -6, 0)).toBe('outside'); // ray passes both side vertices
    expect(locateInRing(diamond, 4.999, 0)).toBe('inside');
    const notch = ring([0, 0], [10, 0], [10, 10], [5, 5], [0, 10]); // vertex (5,5) points inward
    expect(locateInRing(notch, 2, 5)).toBe('inside');
    expect(locateInRing(notch, 5, 7)).toBe('outside');
    expect(locateInRing(notch, 5, 5)).toBe('boundary');
  });

  it('agrees with the exact convex-triangle rule on random triangles', () => {
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: -(2n ** 30n), max: 2n ** 30n }), { minLength: 8, maxLength: 8 }), (v) => {
        const [ax, ay, bx, by, cx, cy, px, py] = v as [bigint, bigint, bigint, bigint, bigint, bigint, bigint, bigint];
        if (exactSign(ax, ay, bx, by, cx, cy) === 0) return; // degenerate triangle
        const s = [exactSign(ax, ay, bx, by, px, py), exactSign(bx, by, cx, cy, px, py), exactSign(cx, cy, ax, ay, px, py)];
        const onLine = (x1: bigint, y1: bigint, x2: bigint, y2: bigint) =>
          exactSign(x1, y1, x2, y2, px, py) === 0 &&
          px >= (x1 < x2 ? x1 : x2) &&
          px <= (x1 < x2 ? x2 : x1) &&
          py >= (y1 < y2 ? y1 : y2) &&
          py <= (y1 < y2 ? y2 : y1);
        const expected =
          onLine(ax, ay, bx, by) || onLine(bx, by, cx, cy) || onLine(cx, cy, ax, ay)
            ? 'boundary'
            : s.every((x) => x > 0) || s.every((x) => x < 0)
              ? 'inside'
              : 'outside';
        const f = (x: bigint): number => Number(x) * 2 ** -24;
        const tri = ring([f(ax), f(ay)], [f(bx), f(by)], [f(cx), f(cy)]);
        expect(locateInRing(tri, f(px), f(py))).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('finds points placed exactly on random edges to be on the boundary', () => {
    fc.assert(
      fc.property(
        intArb,
        intArb,
        fc.bigInt({ min: 1n, max: 2n ** 20n }),
        fc.bigInt({ min: 1n, max: 2n ** 20n }),
        fc.bigInt({ min: 0n, max: 8n }),
        (ax, ay, dx, dy, k) => {
          // Triangle a, a + 8d, a + 8d + (0, 8|d|); the point a + k·d lies on its first edge.
          const f = (x: bigint): number => Number(x) * SCALE;
          const tri = ring([f(ax), f(ay)], [f(ax + 8n * dx), f(ay + 8n * dy)], [f(ax + 8n * dx), f(ay + 8n * dy + 8n * dx)]);
          expect(locateInRing(tri, f(ax + k * dx), f(ay + k * dy))).toBe('boundary');
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('locateInPolygon', () => {
  const outer = ring([0, 0], [10, 0], [10, 10], [0, 10]);
  const hole = ring([4, 4], [6, 4], [6, 6], [4, 6]);

  it('excludes the hole interior but keeps its boundary', () => {
    expect(locateInPolygon([outer, hole], 2, 2)).toBe('inside');
    expect(locateInPolygon([outer, hole], 5, 5)).toBe('outside');
    expect(locateInPolygon([outer, hole], 4, 5)).toBe('boundary');
    expect(locateInPolygon([outer, hole], 6, 6)).toBe('boundary');
    expect(locateInPolygon([outer, hole], 0, 0)).toBe('boundary');
    expect(locateInPolygon([outer, hole], 11, 5)).toBe('outside');
    expect(locateInPolygon([], 1, 1)).toBe('outside');
  });
});
