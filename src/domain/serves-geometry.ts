/**
 * `serves.point` (R-S5): coverage as geometry — a geodesic radius around the Location's `geo`
 * and RFC 7946 areas read as planar polygons in lon/lat degrees — compiled once for repeated
 * point tests, and the conservative boxes (extents) a store indexes to find candidates.
 */
import { geodesicDistanceMeters } from './geodesy.js';
import type { BBox, Coverage, Geo } from './location.js';
import { locateInPolygon, type FlatRing } from './planar-polygon.js';
import { validateCoverage } from './serves-validation.js';

/** One polygon ready for repeated tests: rings as flat [lon, lat, …] arrays plus its bbox. */
export interface CompiledPolygon {
  /** Outer ring first, then holes; closed. */
  readonly rings: readonly FlatRing[];
  /** Extent of the outer ring (holes cannot widen where the polygon contains points). */
  readonly bbox: BBox;
}

/** Coverage pre-processed for repeated point tests (areas parsed, extents computed). */
export interface CompiledCoverage {
  /** Geodesic radius around the Location's `geo`, metres; null when none is declared. */
  readonly radiusMeters: number | null;
  readonly polygons: readonly CompiledPolygon[];
}

/**
 * Parses and checks `{radius_m, areas}` once. Throws RangeError listing the problems when the
 * data is invalid (import should have rejected it via `validateCoverage`).
 */
export function compileCoverage(coverage: Pick<Coverage, 'radius_m' | 'areas'>): CompiledCoverage {
  const subset = {
    ...(coverage.radius_m !== undefined ? { radius_m: coverage.radius_m } : {}),
    ...(coverage.areas !== undefined ? { areas: coverage.areas } : {}),
  };
  const issues = validateCoverage(subset);
  if (issues.length > 0) {
    throw new RangeError(`Invalid coverage: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}`);
  }
  const polygons: CompiledPolygon[] = [];
  for (const area of coverage.areas ?? []) {
    const list = area.type === 'Polygon' ? [area.coordinates] : area.coordinates;
    for (const rings of list) polygons.push(compilePolygon(rings));
  }
  return { radiusMeters: coverage.radius_m ?? null, polygons };
}

function compilePolygon(rings: readonly (readonly (readonly number[])[])[]): CompiledPolygon {
  const flat = rings.map((ring) => {
    const f = new Float64Array(ring.length * 2);
    // Positions were validated as [longitude, latitude] when the coverage was read.
    ring.forEach(([lon = NaN, lat = NaN], i) => {
      f[2 * i] = lon;
      f[2 * i + 1] = lat;
    });
    return f;
  });
  const outer = flat[0] ?? new Float64Array(0);
  let minLon = Infinity,
    maxLon = -Infinity,
    minLat = Infinity,
    maxLat = -Infinity;
  for (let i = 0; i < outer.length; i += 2) {
    const lon = outer[i] ?? NaN;
    const lat = outer[i + 1] ?? NaN;
    if (lon < minLon) minLon = lon;
    if (lon > maxLon) maxLon = lon;
    if (lat < minLat) minLat = lat;
    if (lat > maxLat) maxLat = lat;
  }
  return { rings: flat, bbox: { minLat, maxLat, minLon, maxLon } };
}

/**
 * The bounding box of each polygon. A box touching ±180 is mirrored as a zero-width box at ∓180,
 * since both spellings name the same meridian and a probe may use either.
 */
function polygonExtents(polygons: readonly CompiledPolygon[]): BBox[] {
  const boxes: BBox[] = [];
  for (const { bbox } of polygons) {
    boxes.push(bbox);
    if (bbox.maxLon === 180) boxes.push({ ...bbox, minLon: -180, maxLon: -180 });
    if (bbox.minLon === -180) boxes.push({ ...bbox, minLon: 180, maxLon: 180 });
  }
  return boxes;
}

/**
 * `serves.point` (R-S5): true when `point` lies in any declared area — holes excluded, and a
 * point exactly on an edge or vertex (outer or hole) counts as inside, so that the published
 * boundary of a delivery zone is served, decided exactly on the given doubles — or when its
 * geodesic distance to `locationGeo` is <= the radius (inclusive, no tolerance). Without a
 * `geo`, the radius part cannot match. A point on the antimeridian is tried as both +180 and
 * -180 against the areas.
 */
export function coverageContainsPoint(coverage: CompiledCoverage, locationGeo: Geo | null, point: Geo): boolean {
  const lat = point.latitude;
  const lons = Math.abs(point.longitude) === 180 ? [180, -180] : [point.longitude];
  for (const poly of coverage.polygons) {
    const b = poly.bbox;
    if (lat < b.minLat || lat > b.maxLat) continue;
    for (const lon of lons) {
      if (lon < b.minLon || lon > b.maxLon) continue;
      if (locateInPolygon(poly.rings, lon, lat) !== 'outside') return true;
    }
  }
  if (coverage.radiusMeters !== null && locationGeo !== null) {
    return geodesicDistanceMeters(locationGeo, point) <= coverage.radiusMeters;
  }
  return false;
}

// ───────────────────────────── extents ─────────────────────────────

/*
 * Coverage extents for the stores' coverage indexes (SQLite's cov_rtree R*Tree, PostgreSQL's GiST
 * over coverage_extents, the in-memory index's R-tree), computed fast enough for bulk imports (a
 * million radii in well under a second). They only need to be *conservative* — every point the coverage can serve lies inside one
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
 * geo) plus the bounding boxes of its areas (mirrored at ±180, see polygonExtents).
 * Throws RangeError for invalid area geometry.
 */
export function coverageExtents(coverage: Pick<Coverage, 'radius_m' | 'areas'>, geo: Geo | null): BBox[] {
  const boxes: BBox[] = [];
  if (coverage.radius_m !== undefined && geo !== null) boxes.push(...radiusExtents(geo, coverage.radius_m));
  if (coverage.areas !== undefined && coverage.areas.length > 0) {
    boxes.push(...polygonExtents(compileCoverage({ areas: coverage.areas }).polygons));
  } else if (coverage.radius_m !== undefined && !(Number.isFinite(coverage.radius_m) && coverage.radius_m >= 0)) {
    // Same validation as compileCoverage, without its cost for the common radius-only case.
    throw new RangeError(`Invalid coverage: radius_m must be a finite number of metres >= 0, got ${String(coverage.radius_m)}`);
  }
  return boxes;
}
