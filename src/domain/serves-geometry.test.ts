import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { geodesicDestination } from './geodesy.js';
import type { BBox, Geo } from './location.js';
import { coverageExtents, radiusExtents } from './serves.js';

function inside(boxes: readonly BBox[], p: Geo): boolean {
  return boxes.some((b) => p.latitude >= b.minLat && p.latitude <= b.maxLat && p.longitude >= b.minLon && p.longitude <= b.maxLon);
}

const center = fc.record({
  latitude: fc.double({ min: -89.999, max: 89.999, noNaN: true }),
  longitude: fc.oneof(fc.double({ min: -180, max: 180, noNaN: true }), fc.constantFrom(-180, 180, 179.9999, -179.9999)),
});

describe('radiusExtents', () => {
  it('contains every point within the radius, anywhere on the globe (serves.point prefilter)', () => {
    fc.assert(
      fc.property(
        center,
        fc.double({ min: 0, max: 600_000, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 360, noNaN: true }),
        (c, radius, fraction, azimuth) => {
          const boxes = radiusExtents(c, radius);
          for (const b of boxes) expect(b.minLon).toBeLessThanOrEqual(b.maxLon);
          const p = geodesicDestination(c, azimuth, radius * fraction);
          // A destination exactly on ±180 may be reported with either sign.
          expect(inside(boxes, p) || inside(boxes, { ...p, longitude: -p.longitude })).toBe(true);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('wraps at the antimeridian into two boxes (Fiji)', () => {
    const boxes = radiusExtents({ latitude: -16.8, longitude: -179.95 }, 20_000);
    expect(boxes).toHaveLength(2);
    expect(inside(boxes, { latitude: -16.8, longitude: 179.9 })).toBe(true);
    expect(inside(boxes, { latitude: -16.8, longitude: 179 })).toBe(false);
  });

  it('covers every longitude when the radius reaches a pole', () => {
    const boxes = radiusExtents({ latitude: 89.95, longitude: 10 }, 10_000);
    expect(boxes).toHaveLength(1);
    expect(boxes[0]).toMatchObject({ maxLat: 90, minLon: -180, maxLon: 180 });
    expect(boxes[0]?.minLat).toBeLessThan(89.95 - 0.08);
  });

  it('is empty for a negative or NaN radius', () => {
    expect(radiusExtents({ latitude: 0, longitude: 0 }, -1)).toEqual([]);
    expect(radiusExtents({ latitude: 0, longitude: 0 }, Number.NaN)).toEqual([]);
  });
});

describe('coverageExtents', () => {
  it('combines radius boxes (needs geo) and area boxes (do not)', () => {
    const area = {
      type: 'Polygon' as const,
      coordinates: [
        [
          [10, 10],
          [11, 10],
          [11, 11],
          [10, 10],
        ] as [number, number][],
      ],
    };
    expect(coverageExtents({ radius_m: 1000 }, null)).toEqual([]);
    expect(coverageExtents({ radius_m: 1000, areas: [area] }, null)).toEqual([{ minLat: 10, maxLat: 11, minLon: 10, maxLon: 11 }]);
    expect(coverageExtents({ radius_m: 1000, areas: [area] }, { latitude: 0, longitude: 0 })).toHaveLength(2);
  });

  it('rejects invalid coverage like compileCoverage does', () => {
    expect(() => coverageExtents({ radius_m: -5 }, { latitude: 0, longitude: 0 })).toThrow(RangeError);
  });
});
