/**
 * Coverage extents for the stores' coverage indexes (SQLite's cov_rtree R*Tree, PostgreSQL's GiST
 * over coverage_extents), computed fast enough for bulk imports (a million radii in well under a
 * second). They only need to be *conservative* — every point the coverage can serve lies inside one
 * of the boxes — because the engine re-checks each candidate exactly (coverageContainsPoint); a
 * slightly larger box only costs an extra candidate.
 *
 * Radius bound (WGS 84, a = 6 378 137 m, e² = 0.00669437999014):
 *  - latitude: the meridional radius of curvature M(φ) = a(1−e²)/(1−e² sin²φ)^{3/2} is at least
 *    a(1−e²) ≈ 6 335 439 m, and any path changes latitude no faster than ds / M, so
 *    |Δφ| ≤ d / (a(1−e²));
 *  - longitude: the parallel radius a cosφ / √(1−e² sin²φ) is at least a cosφ, so inside the
 *    latitude band a path of length d changes longitude by at most d / (a cos φ*), φ* being the
 *    band's largest |latitude|. If the band reaches a pole, every longitude is possible.
 * A relative margin of 1e-9 plus 1e-7° (≈ 1 cm) absorbs floating-point rounding.
 */
import type { BBox, Coverage, Geo } from '../domain/location.js';
import { compileCoverage } from '../domain/serves.js';

const A = 6_378_137;
const E2 = 0.0066943799901413165;
const MIN_MERIDIONAL_RADIUS = A * (1 - E2);
const DEG = 180 / Math.PI;
const MARGIN_DEG = 1e-7;

/** Conservative boxes (split at ±180, never crossing it) around every point within `meters` of `center`. */
export function radiusExtents(center: Geo, meters: number): BBox[] {
  if (!(meters >= 0)) return [];
  const d = meters * (1 + 1e-9);
  const dLat = (d / MIN_MERIDIONAL_RADIUS) * DEG + MARGIN_DEG;
  const minLat = center.latitude - dLat;
  const maxLat = center.latitude + dLat;
  if (minLat <= -90 || maxLat >= 90) {
    return [{ minLat: Math.max(-90, minLat), maxLat: Math.min(90, maxLat), minLon: -180, maxLon: 180 }];
  }
  const extremeLat = Math.max(Math.abs(minLat), Math.abs(maxLat));
  const dLon = (d / (A * Math.cos(extremeLat / DEG))) * DEG + MARGIN_DEG;
  if (dLon >= 180) return [{ minLat, maxLat, minLon: -180, maxLon: 180 }];
  const west = center.longitude - dLon;
  const east = center.longitude + dLon;
  const boxes: BBox[] = [];
  if (west < -180) {
    // Wraps west of the antimeridian: the part beyond reappears near +180. Both spellings of
    // ±180 are covered by the two boxes touching it.
    boxes.push({ minLat, maxLat, minLon: -180, maxLon: Math.min(180, east) });
    boxes.push({ minLat, maxLat, minLon: Math.max(-180, west + 360), maxLon: 180 });
  } else if (east > 180) {
    boxes.push({ minLat, maxLat, minLon: Math.max(-180, west), maxLon: 180 });
    boxes.push({ minLat, maxLat, minLon: -180, maxLon: Math.min(180, east - 360) });
  } else {
    boxes.push({ minLat, maxLat, minLon: west, maxLon: east });
    // A box touching one spelling of the antimeridian must also answer probes using the other.
    if (east === 180) boxes.push({ minLat, maxLat, minLon: -180, maxLon: -180 });
    if (west === -180) boxes.push({ minLat, maxLat, minLon: 180, maxLon: 180 });
  }
  return boxes;
}

/**
 * All extents of a Location's spatial coverage: the radius boxes around its geo (none without
 * geo) plus the bounding boxes of its areas (from serves.ts, which also mirrors ±180).
 * Throws RangeError for invalid area geometry.
 */
export function coverageExtents(coverage: Pick<Coverage, 'radius_m' | 'areas'>, geo: Geo | null): BBox[] {
  const boxes: BBox[] = [];
  if (coverage.radius_m !== undefined && geo !== null) boxes.push(...radiusExtents(geo, coverage.radius_m));
  if (coverage.areas !== undefined && coverage.areas.length > 0) {
    boxes.push(...compileCoverage({ areas: coverage.areas }).extents(null));
  } else if (coverage.radius_m !== undefined && !(Number.isFinite(coverage.radius_m) && coverage.radius_m >= 0)) {
    // Same validation as compileCoverage, without its cost for the common radius-only case.
    throw new RangeError(`Invalid coverage: radius_m must be a finite number of metres >= 0, got ${String(coverage.radius_m)}`);
  }
  return boxes;
}
