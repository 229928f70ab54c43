import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { geodesicDestination, geodesicDistanceMeters } from './geodesy.js';
import { GeodesicBracket } from './proximity.js';

const geo = fc.record({
  latitude: fc.double({ min: -90, max: 90, noNaN: true }),
  longitude: fc.double({ min: -180, max: 180, noNaN: true }),
});

describe('GeodesicBracket', () => {
  it('always contains the Karney distance, near and far, poles and antimeridian included (R-S4)', () => {
    fc.assert(
      fc.property(
        geo,
        fc.oneof(fc.double({ min: 0, max: 2_000_000, noNaN: true }), fc.double({ min: 0, max: 50, noNaN: true })),
        fc.double({ min: 0, max: 360, noNaN: true }),
        (center, meters, azimuth) => {
          const p = geodesicDestination(center, azimuth, meters);
          const d = geodesicDistanceMeters(center, p);
          const b = new GeodesicBracket(center).bracket(p);
          expect(b.lower).toBeLessThanOrEqual(d);
          expect(b.upper).toBeGreaterThanOrEqual(d);
        },
      ),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(geo, geo, (a, b) => {
        const d = geodesicDistanceMeters(a, b);
        const r = new GeodesicBracket(a).bracket(b);
        expect(r.lower <= d && d <= r.upper).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('is tight enough to decide almost every radius test without Karney', () => {
    const center = { latitude: 40.7128, longitude: -74.006 };
    const bracket = new GeodesicBracket(center);
    for (const [meters, width] of [
      [1_000, 1e-5],
      [10_000, 5e-3],
      [500_000, 200],
    ] as const) {
      const b = bracket.bracket(geodesicDestination(center, 37, meters));
      expect(b.upper - b.lower).toBeLessThan(width);
    }
  });

  it('is exact beyond 1000 km', () => {
    const b = new GeodesicBracket({ latitude: 0, longitude: 0 }).bracket({ latitude: 0, longitude: 90 });
    expect(b.lower).toBe(b.upper);
    expect(b.lower).toBe(geodesicDistanceMeters({ latitude: 0, longitude: 0 }, { latitude: 0, longitude: 90 }));
  });
});
