import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BBox, Geo } from './location.js';
import {
  bboxContains,
  boundingRegions,
  geodesicDestination,
  geodesicDistanceMeters,
  isUsableGeo,
  meridianArcMeters,
  parallelRadiusMeters,
  regionsContain,
  withinDistance,
} from './geodesy.js';

const geo = (latitude: number, longitude: number): Geo => ({ latitude, longitude });
/** WGS 84 semi-major axis, metres. */
const A = 6378137;
/** Quarter meridian of WGS 84, metres (GeographicLib documentation: 10 001 965.729 m). */
const QUARTER_MERIDIAN = 10001965.729;

// ───────── arbitraries ─────────

/** Latitudes with extra weight near the poles and the equator, where the geometry is awkward. */
const latArb = fc.oneof(
  fc.double({ min: -90, max: 90, noNaN: true }),
  fc.double({ min: 85, max: 90, noNaN: true }),
  fc.double({ min: -90, max: -85, noNaN: true }),
  fc.constantFrom(-90, 90, 0),
);
/** Longitudes with extra weight next to the antimeridian. */
const lonArb = fc.oneof(
  fc.double({ min: -180, max: 180, noNaN: true }),
  fc.double({ min: 179, max: 180, noNaN: true }),
  fc.double({ min: -180, max: -179, noNaN: true }),
  fc.constantFrom(-180, 180),
);
const geoArb = fc.record({ latitude: latArb, longitude: lonArb });
const azimuthArb = fc.double({ min: -180, max: 180, noNaN: true });
/** Distances, metres: mostly up to 500 km, some up to 5 000 km, some tiny. */
const distArb = fc.oneof(
  { weight: 6, arbitrary: fc.double({ min: 0, max: 500_000, noNaN: true }) },
  { weight: 2, arbitrary: fc.double({ min: 0, max: 5_000_000, noNaN: true }) },
  { weight: 1, arbitrary: fc.double({ min: 0, max: 10, noNaN: true }) },
);

// ───────── independent references used only by the tests ─────────

/** Great-circle distance on a sphere of radius `r` (haversine), metres. */
function haversineMeters(a: Geo, b: Geo, r = 6371008.8): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * r * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * Vincenty's classic inverse iteration on WGS 84, written here only to show where it breaks.
 * Returns null when the longitude iteration has not converged after `maxIter` rounds.
 */
function vincentyIterations(a: Geo, b: Geo, maxIter = 1000): number | null {
  const f = 1 / 298.257223563;
  const rad = Math.PI / 180;
  const L = (b.longitude - a.longitude) * rad;
  const u1 = Math.atan((1 - f) * Math.tan(a.latitude * rad));
  const u2 = Math.atan((1 - f) * Math.tan(b.latitude * rad));
  let lambda = L;
  for (let i = 1; i <= maxIter; i++) {
    const sinL = Math.sin(lambda);
    const cosL = Math.cos(lambda);
    const sinSigma = Math.hypot(Math.cos(u2) * sinL, Math.cos(u1) * Math.sin(u2) - Math.sin(u1) * Math.cos(u2) * cosL);
    const cosSigma = Math.sin(u1) * Math.sin(u2) + Math.cos(u1) * Math.cos(u2) * cosL;
    const sigma = Math.atan2(sinSigma, cosSigma);
    const sinAlpha = (Math.cos(u1) * Math.cos(u2) * sinL) / sinSigma;
    const cos2Alpha = 1 - sinAlpha * sinAlpha;
    const cos2SigmaM = cos2Alpha === 0 ? 0 : cosSigma - (2 * Math.sin(u1) * Math.sin(u2)) / cos2Alpha;
    const C = (f / 16) * cos2Alpha * (4 + f * (4 - 3 * cos2Alpha));
    const next = L + (1 - C) * f * sinAlpha * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM ** 2)));
    if (Math.abs(next - lambda) < 1e-12) return i;
    lambda = next;
  }
  return null;
}

function wellFormed(b: BBox): boolean {
  return b.minLat <= b.maxLat && b.minLon <= b.maxLon && b.minLat >= -90 && b.maxLat <= 90 && b.minLon >= -180 && b.maxLon <= 180;
}

// ───────── tests ─────────

describe('geodesicDistanceMeters', () => {
  it('matches the Wellington–Salamanca value in the GeographicLib documentation (near-antipodal, R-S4)', () => {
    // geographiclib-geodesic README: "The distance is 19959679.267 m."
    const s = geodesicDistanceMeters(geo(-41.32, 174.81), geo(40.96, -5.5));
    expect(Math.abs(s - 19959679.267)).toBeLessThan(0.0005);
  });

  it("matches the worked inverse example of Karney's 'Algorithms for geodesics' (2013) to 10 µm", () => {
    // φ1 = −30°, φ2 = 29.9°, λ12 = 179.8°: nearly antipodal, the hard case. s12 = 19 989 832.827 61 m.
    const s = geodesicDistanceMeters(geo(-30, 0), geo(29.9, 179.8));
    expect(Math.abs(s - 19989832.82761)).toBeLessThan(1e-5);
  });

  it('goes over a pole between antipodal points on the equator (half a meridian, not half the equator)', () => {
    const s = geodesicDistanceMeters(geo(0, 0), geo(0, 180));
    expect(Math.abs(s - 2 * QUARTER_MERIDIAN)).toBeLessThan(0.001);
    expect(s).toBeLessThan(Math.PI * A); // the equatorial route would be longer
    expect(Math.abs(geodesicDistanceMeters(geo(90, 0), geo(-90, 123)) - 2 * QUARTER_MERIDIAN)).toBeLessThan(0.001);
  });

  it('is the arc of the equator for short equatorial separations (a·Δλ)', () => {
    const s = geodesicDistanceMeters(geo(0, 10), geo(0, 11));
    expect(Math.abs(s - (A * Math.PI) / 180)).toBeLessThan(1e-6);
  });

  it('needs no special case across the antimeridian: 179.9 to -179.9 is 0.2° of equator (R-S4)', () => {
    const s = geodesicDistanceMeters(geo(0, 179.9), geo(0, -179.9));
    expect(Math.abs(s - (0.2 * A * Math.PI) / 180)).toBeLessThan(1e-6);
    // Same at 60°N: short, and equal to the distance between the mirrored pair.
    const north = geodesicDistanceMeters(geo(60, 179.9), geo(60, -179.9));
    expect(north).toBeLessThan(12_000);
    expect(north).toBeCloseTo(geodesicDistanceMeters(geo(60, -0.1), geo(60, 0.1)), 6);
  });

  it('is zero for the same point, at the poles, and for +180 vs -180', () => {
    expect(geodesicDistanceMeters(geo(12.5, 45), geo(12.5, 45))).toBe(0);
    expect(geodesicDistanceMeters(geo(90, 0), geo(90, 135))).toBe(0);
    expect(geodesicDistanceMeters(geo(-90, -180), geo(-90, 77))).toBe(0);
    expect(geodesicDistanceMeters(geo(-33, 180), geo(-33, -180))).toBe(0);
  });

  it('is symmetric and obeys the triangle inequality, including near-antipodal triples', () => {
    fc.assert(
      fc.property(geoArb, geoArb, geoArb, (a, b, c) => {
        const ab = geodesicDistanceMeters(a, b);
        expect(Math.abs(ab - geodesicDistanceMeters(b, a))).toBeLessThan(1e-6);
        // 1 µm slack: GeographicLib is accurate to ~15 nm; this checks the library, not a match rule.
        expect(ab).toBeLessThanOrEqual(geodesicDistanceMeters(a, c) + geodesicDistanceMeters(c, b) + 1e-6);
        expect(ab).toBeLessThanOrEqual(2 * QUARTER_MERIDIAN + 0.001);
      }),
      { numRuns: 500 },
    );
    const a = geo(0, 0);
    const b = geo(0.5, 179.7);
    const c = geo(0.2, 90);
    expect(geodesicDistanceMeters(a, b)).toBeLessThanOrEqual(geodesicDistanceMeters(a, c) + geodesicDistanceMeters(c, b));
  });

  it("stays finite where Vincenty's iteration does not converge (nearly antipodal pair)", () => {
    const a = geo(0, 0);
    const b = geo(0.5, 179.7);
    expect(vincentyIterations(a, b)).toBeNull();
    const s = geodesicDistanceMeters(a, b);
    expect(Number.isFinite(s)).toBe(true);
    expect(s).toBeGreaterThan(19_900_000);
    expect(s).toBeLessThan(2 * QUARTER_MERIDIAN);
    // Sanity check of the reference itself: it converges on an ordinary pair.
    expect(vincentyIterations(geo(40, -74), geo(51.5, 0))).not.toBeNull();
  });

  it('differs from a spherical (haversine) distance enough to flip a boundary decision (R-S4)', () => {
    // East–west on the equator the ellipsoid is wider than the mean sphere…
    const center = geo(0, 0);
    const east = geo(0, 1);
    const ellipsoidal = geodesicDistanceMeters(center, east); // ≈ 111 319.49 m
    const spherical = haversineMeters(center, east); // ≈ 111 195.08 m
    const max = 111_250;
    expect(spherical <= max).toBe(true); // a spherical implementation would match…
    expect(withinDistance(center, east, max)).toBe(false); // …but the Location is outside.
    // …while along a meridian near the equator it is narrower, so no single sphere radius fits both.
    const north = geo(1, 0);
    const rEast = ellipsoidal / ((Math.PI / 180) * 1);
    const rNorth = geodesicDistanceMeters(center, north) / ((Math.PI / 180) * 1);
    expect(rEast - rNorth).toBeGreaterThan(40_000);
  });
});

describe('withinDistance (R-S4)', () => {
  it('matches at exactly the computed distance and not 1 µm below it (no tolerance)', () => {
    fc.assert(
      fc.property(geoArb, azimuthArb, distArb, (center, az, d) => {
        const p = geodesicDestination(center, az, d);
        const s = geodesicDistanceMeters(center, p);
        expect(withinDistance(center, p, s)).toBe(true);
        expect(withinDistance(center, p, s - 1e-6)).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  it('matches a Location at the center with max 0, and never one without usable geo', () => {
    const c = geo(27.7, 85.3);
    expect(withinDistance(c, geo(27.7, 85.3), 0)).toBe(true);
    expect(withinDistance(c, undefined, 1e9)).toBe(false);
    expect(withinDistance(c, null, 1e9)).toBe(false);
    expect(withinDistance(c, geo(Number.NaN, 0), 1e9)).toBe(false);
    expect(withinDistance(c, geo(91, 0), 1e9)).toBe(false);
    expect(isUsableGeo(geo(-90, -180))).toBe(true);
    expect(isUsableGeo(geo(0, 180.0001))).toBe(false);
  });
});

describe('geodesicDestination', () => {
  it('round-trips with the inverse problem to within a micrometre', () => {
    fc.assert(
      fc.property(geoArb, azimuthArb, distArb, (center, az, d) => {
        const p = geodesicDestination(center, az, d);
        expect(p.longitude).toBeGreaterThanOrEqual(-180);
        expect(p.longitude).toBeLessThanOrEqual(180);
        expect(Math.abs(geodesicDistanceMeters(center, p) - d)).toBeLessThan(1e-6);
      }),
      { numRuns: 500 },
    );
  });

  it('crosses the antimeridian and normalises the longitude', () => {
    const p = geodesicDestination(geo(0, 179.9), 90, (0.2 * A * Math.PI) / 180);
    expect(p.latitude).toBeCloseTo(0, 9);
    expect(p.longitude).toBeCloseTo(-179.9, 9);
  });
});

describe('meridianArcMeters', () => {
  it('is the quarter meridian at the pole and odd in latitude', () => {
    expect(meridianArcMeters(90)).toBeCloseTo(QUARTER_MERIDIAN, 3);
    expect(meridianArcMeters(0)).toBe(0);
    fc.assert(fc.property(latArb, (lat) => meridianArcMeters(-lat) === -meridianArcMeters(lat)));
  });

  it("differences agree with GeographicLib's meridian distances to 1e-7 m (bounding boxes rely on it)", () => {
    fc.assert(
      fc.property(latArb, latArb, lonArb, (a, b, lon) => {
        const series = Math.abs(meridianArcMeters(b) - meridianArcMeters(a));
        return Math.abs(series - geodesicDistanceMeters(geo(a, lon), geo(b, lon))) < 1e-7;
      }),
      { numRuns: 2000 },
    );
  });
});

describe('boundingRegions', () => {
  it('contains every point at exactly the max distance — conservative prefilter (R-S4)', () => {
    fc.assert(
      fc.property(geoArb, azimuthArb, distArb, (center, az, d) => {
        const p = geodesicDestination(center, az, d);
        const s = geodesicDistanceMeters(center, p);
        const boxes = boundingRegions(center, s);
        expect(boxes.every(wellFormed)).toBe(true);
        expect(regionsContain(boxes, p)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('contains every point that the exact test accepts, for arbitrary nearby points and radii', () => {
    fc.assert(
      fc.property(
        geoArb,
        fc.double({ min: -5, max: 5, noNaN: true }),
        fc.double({ min: -20, max: 20, noNaN: true }),
        fc.double({ min: 0, max: 2_000_000, noNaN: true }),
        (center, dLat, dLon, max) => {
          const lat = Math.max(-90, Math.min(90, center.latitude + dLat));
          let lon = center.longitude + dLon;
          if (lon > 180) lon -= 360;
          if (lon < -180) lon += 360;
          const p = geo(lat, lon);
          if (withinDistance(center, p, max)) expect(regionsContain(boundingRegions(center, max), p)).toBe(true);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('is reasonably tight: within 1.5% of the sampled extent at mid latitudes', () => {
    for (const [lat, d] of [
      [0, 1_000],
      [45, 10_000],
      [45, 500_000],
      [-60, 200_000],
    ] as const) {
      const center = geo(lat, 10);
      let minLat = 90,
        maxLat = -90,
        maxDLon = 0;
      for (let az = 0; az < 360; az += 0.25) {
        const p = geodesicDestination(center, az, d);
        minLat = Math.min(minLat, p.latitude);
        maxLat = Math.max(maxLat, p.latitude);
        maxDLon = Math.max(maxDLon, Math.abs(p.longitude - 10));
      }
      const [box, ...rest] = boundingRegions(center, d);
      expect(rest).toEqual([]);
      expect(box!.minLat).toBeLessThanOrEqual(minLat);
      expect(box!.maxLat).toBeGreaterThanOrEqual(maxLat);
      expect(box!.maxLat - box!.minLat).toBeLessThan((maxLat - minLat) * 1.000001 + 1e-8);
      const half = (box!.maxLon - box!.minLon) / 2;
      expect(half).toBeGreaterThanOrEqual(maxDLon);
      expect(half).toBeLessThan(maxDLon * 1.015);
    }
  });

  it('splits at the antimeridian into two boxes that each stay within [-180, 180]', () => {
    const boxes = boundingRegions(geo(0, 179.95), 20_000);
    expect(boxes).toHaveLength(2);
    expect(boxes.every(wellFormed)).toBe(true);
    expect(regionsContain(boxes, geo(0, -179.9))).toBe(true);
    expect(regionsContain(boxes, geo(0, 179.9))).toBe(true);
    expect(regionsContain(boxes, geo(0, 180))).toBe(true);
    expect(regionsContain(boxes, geo(0, -180))).toBe(true);
    expect(regionsContain(boxes, geo(0, -179.5))).toBe(false);
    const west = boundingRegions(geo(10, -180), 1_000);
    expect(west).toHaveLength(2);
    expect(regionsContain(west, geo(10, 179.995))).toBe(true);
  });

  it('spans all longitudes up to the pole when the pole is within reach', () => {
    const boxes = boundingRegions(geo(89.9, 0), 50_000);
    expect(boxes).toEqual([{ minLat: expect.any(Number) as number, maxLat: 90, minLon: -180, maxLon: 180 }]);
    expect(boxes[0]!.minLat).toBeLessThan(89.9 - 0.44);
    expect(boundingRegions(geo(-90, 0), 1)[0]).toMatchObject({ minLat: -90, minLon: -180, maxLon: 180 });
    // Just short of the pole the box is narrower than the whole globe.
    const near = boundingRegions(geo(89, 0), 100_000);
    expect(near[0]!.maxLat).toBeLessThan(90);
    expect(near.reduce((w, b) => w + b.maxLon - b.minLon, 0)).toBeLessThan(360);
  });

  it('covers the globe for radii beyond half a meridian or infinite, nothing for negative radii', () => {
    expect(boundingRegions(geo(10, 20), 2 * QUARTER_MERIDIAN)).toEqual([{ minLat: -90, maxLat: 90, minLon: -180, maxLon: 180 }]);
    expect(boundingRegions(geo(10, 20), Number.POSITIVE_INFINITY)).toEqual([{ minLat: -90, maxLat: 90, minLon: -180, maxLon: 180 }]);
    expect(boundingRegions(geo(10, 20), -1)).toEqual([]);
    expect(() => boundingRegions(geo(10, 20), Number.NaN)).toThrow(/NaN/);
    expect(() => boundingRegions(geo(91, 20), 10)).toThrow(/center must have/);
  });

  it('with max 0 still contains the center itself', () => {
    fc.assert(
      fc.property(geoArb, (c) => {
        expect(regionsContain(boundingRegions(c, 0), c)).toBe(true);
      }),
    );
  });
});

describe('bboxContains / parallelRadiusMeters', () => {
  it('is inclusive on every edge', () => {
    const b: BBox = { minLat: -1, maxLat: 1, minLon: 10, maxLon: 20 };
    expect(bboxContains(b, geo(-1, 10))).toBe(true);
    expect(bboxContains(b, geo(1, 20))).toBe(true);
    expect(bboxContains(b, geo(1.0000001, 15))).toBe(false);
    expect(bboxContains(b, geo(0, 9.9999999))).toBe(false);
  });

  it('is the semi-major axis at the equator, zero at the poles, and decreasing in |latitude|', () => {
    expect(parallelRadiusMeters(0)).toBe(A);
    expect(parallelRadiusMeters(90)).toBeLessThan(1e-9);
    fc.assert(
      fc.property(fc.double({ min: 0, max: 89.9, noNaN: true }), fc.double({ min: 1e-6, max: 0.1, noNaN: true }), (lat, dl) => {
        expect(parallelRadiusMeters(lat + dl)).toBeLessThan(parallelRadiusMeters(lat));
        expect(parallelRadiusMeters(-lat)).toBe(parallelRadiusMeters(lat));
      }),
    );
  });
});
