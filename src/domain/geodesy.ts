/**
 * WGS 84 geodesy for the `distance` relation (R-S4) and the spatial-index prefilter.
 *
 * Distances are Karney's geodesics (GeographicLib): accurate to ~15 nm anywhere on the
 * ellipsoid, including nearly antipodal pairs where Vincenty's iteration fails to converge.
 * Units: degrees for angles (latitude, longitude, azimuth clockwise from north), metres for
 * lengths. Pure: no I/O, no clock.
 */
// The package is CommonJS that assigns `module.exports` wholesale, so Node's ESM loader only
// exposes it as the default export; a named import would type-check but be undefined at runtime.
import geographiclib from 'geographiclib-geodesic';
import type { BBox, Geo } from './location.js';

/** One shared solver: WGS 84 (a = 6 378 137 m, f = 1/298.257223563). */
const WGS84 = geographiclib.Geodesic.WGS84;
const DISTANCE_ONLY = geographiclib.Geodesic.DISTANCE;
const LAT_LON = geographiclib.Geodesic.LATITUDE | geographiclib.Geodesic.LONGITUDE;

/** Semi-major axis (m) and first eccentricity squared of WGS 84. */
const A = WGS84.a;
const E2 = WGS84.f * (2 - WGS84.f);

/**
 * Meridian arc length from the equator to latitude `latDeg`, metres (negative south of it):
 * Helmert's series in the third flattening n to n⁵. On WGS 84 the truncation error is far below
 * a nanometre; against GeographicLib's meridian distances it agrees to ~1e-8 m (rounding), which
 * `MERIDIAN_SLACK_M` covers. The bounding boxes need ~50 meridian distances per request, and this
 * is about a hundred times cheaper than solving the inverse problem for each.
 */
const N = WGS84.f / (2 - WGS84.f);
const MERIDIAN_SCALE = (A / (1 + N)) * (1 + N ** 2 / 4 + N ** 4 / 64);
const MERIDIAN_TERMS = [
  -((3 / 2) * N - (9 / 16) * N ** 3 + (3 / 32) * N ** 5),
  (15 / 16) * N ** 2 - (15 / 32) * N ** 4,
  -((35 / 48) * N ** 3 - (105 / 256) * N ** 5),
  (315 / 512) * N ** 4,
  -(693 / 1280) * N ** 5,
] as const;
/** Allowance for the series' rounding (metres); every use below errs towards a larger box. */
const MERIDIAN_SLACK_M = 1e-6;

export function meridianArcMeters(latDeg: number): number {
  const phi = (latDeg * Math.PI) / 180;
  // Σ c_j·sin(2jφ) by Clenshaw's recurrence: one sine and one cosine instead of five sines.
  const x = 2 * Math.cos(2 * phi);
  let b1 = 0;
  let b2 = 0;
  for (let j = MERIDIAN_TERMS.length - 1; j >= 0; j--) {
    const b0 = (MERIDIAN_TERMS[j] as number) + x * b1 - b2;
    b2 = b1;
    b1 = b0;
  }
  return MERIDIAN_SCALE * (phi + b1 * Math.sin(2 * phi));
}

/** Meridian distance between two latitudes given by their arcs (meridianArcMeters), less the series' slack: never more than the true one. */
function meridianLowerBound(arc1: number, arc2: number): number {
  return Math.max(0, Math.abs(arc2 - arc1) - MERIDIAN_SLACK_M);
}

/**
 * Safety margins for `boundingRegions`. GeographicLib's own error is ~15 nm, so inflating the
 * radius by 1 µm (plus a relative 1e-12 for very long distances) already absorbs it; the
 * extra 1e-9° (≈ 0.1 mm) covers rounding in our own degree arithmetic.
 */
const MARGIN_M_ABS = 1e-6;
const MARGIN_M_REL = 1e-12;
const MARGIN_DEG = 1e-9;

/**
 * Shortest geodesic distance on the WGS 84 ellipsoid between two points, metres, unrounded.
 * Symmetric, 0 for identical points; the antimeridian needs no special handling.
 * R-S4 compares this value with `max` using `<=`, with no tolerance.
 */
export function geodesicDistanceMeters(a: Geo, b: Geo): number {
  const r = WGS84.Inverse(a.latitude, a.longitude, b.latitude, b.longitude, DISTANCE_ONLY);
  // With the DISTANCE bit requested s12 is always filled; the typings mark it optional.
  return r.s12 ?? Number.NaN;
}

/**
 * The `distance` relation (R-S4): the Location matches iff the unrounded geodesic distance from
 * `center` to its `geo` is <= `maxMeters` (equality matches; no tolerance, no clamping). A
 * Location without a usable `geo` (absent, non-finite or out of range) never matches.
 */
export function withinDistance(center: Geo, geo: Geo | null | undefined, maxMeters: number): boolean {
  if (geo === null || geo === undefined || !isUsableGeo(geo)) return false;
  return geodesicDistanceMeters(center, geo) <= maxMeters;
}

/** Finite latitude in [-90, 90] and longitude in [-180, 180], degrees. */
export function isUsableGeo(geo: Geo): boolean {
  const { latitude: lat, longitude: lon } = geo;
  return (
    typeof lat === 'number' &&
    typeof lon === 'number' &&
    Number.isFinite(lat) &&
    Number.isFinite(lon) &&
    lat >= -90 &&
    lat <= 90 &&
    lon >= -180 &&
    lon <= 180
  );
}

/**
 * Direct problem: the point reached by travelling `meters` along the geodesic that leaves
 * `from` at `azimuthDeg` (clockwise from north). Longitude is normalised to [-180, 180].
 */
export function geodesicDestination(from: Geo, azimuthDeg: number, meters: number): Geo {
  const r = WGS84.Direct(from.latitude, from.longitude, azimuthDeg, meters, LAT_LON);
  return { latitude: r.lat2 ?? Number.NaN, longitude: r.lon2 ?? Number.NaN };
}

/** Inclusive containment; `b` never crosses the antimeridian (minLon <= maxLon). */
export function bboxContains(b: BBox, p: Geo): boolean {
  return p.latitude >= b.minLat && p.latitude <= b.maxLat && p.longitude >= b.minLon && p.longitude <= b.maxLon;
}

/** True when any of the boxes contains `p` (the shape `boundingRegions` returns). */
export function regionsContain(boxes: readonly BBox[], p: Geo): boolean {
  return boxes.some((b) => bboxContains(b, p));
}

/**
 * Radius of the parallel (circle of latitude) at `latDeg`, metres: a·cosφ / √(1 − e²·sin²φ).
 * Strictly decreasing in |φ|, 0 at the poles.
 */
export function parallelRadiusMeters(latDeg: number): number {
  const phi = (latDeg * Math.PI) / 180;
  const s = Math.sin(phi);
  return Math.max(0, (A * Math.cos(phi)) / Math.sqrt(1 - E2 * s * s));
}

/**
 * A conservative set of boxes that together contain every point whose geodesic distance to
 * `center` is <= `maxMeters`. Used as a spatial-index prefilter before the exact test, so it
 * may include extra area but never excludes a true match (within GeographicLib's accuracy,
 * covered by a small margin). Boxes never cross the antimeridian: a range that would is split
 * in two, and a range ending exactly at ±180 also gets the degenerate box at ∓180 so that a
 * Location stored with either spelling of the antimeridian is found.
 *
 * Derivation:
 *  - Latitude: along any curve ds ≥ ρ(φ)·|dφ| (meridional radius ρ), so the shortest way to a
 *    parallel is along the meridian; the band is what the direct problem reaches at azimuths
 *    0 and 180, or up to the pole when the distance to the pole is within reach.
 *  - Longitude: every point of a path of length ≤ d stays within that band, and along it
 *    ds ≥ r(φ)·|dλ| with r the parallel radius (smallest at the band's largest |φ|), so
 *    |Δλ| ≤ d / r(φ*). `maxLongitudeOffsetRad` sharpens this by also charging the meridian
 *    distance spent reaching high latitudes. If the band touches a pole (the pole is within
 *    reach) or the offset reaches 180°, every longitude is possible.
 *
 * `maxMeters` must not be NaN and `center` must be a usable geo (else RangeError); a negative
 * `maxMeters` yields no box (nothing can be nearer than 0 m); +Infinity yields the whole globe.
 */
export function boundingRegions(center: Geo, maxMeters: number): BBox[] {
  if (Number.isNaN(maxMeters)) throw new RangeError('boundingRegions: maxMeters is NaN; expected a distance in metres >= 0');
  if (!isUsableGeo(center)) {
    throw new RangeError('boundingRegions: center must have finite latitude in [-90, 90] and longitude in [-180, 180] degrees');
  }
  if (maxMeters < 0) return [];
  const lat = center.latitude;
  const lon = center.longitude;
  if (!Number.isFinite(maxMeters)) return [{ minLat: -90, maxLat: 90, minLon: -180, maxLon: 180 }];

  const d = maxMeters * (1 + MARGIN_M_REL) + MARGIN_M_ABS;

  // Meridian distances from the center to each pole (same for every meridian); lower bounds, so
  // a pole within a hair of reach counts as reached (a wider box, never a missed match).
  const arc = meridianArcMeters(lat);
  const toNorthPole = meridianLowerBound(arc, meridianArcMeters(90));
  const toSouthPole = meridianLowerBound(arc, meridianArcMeters(-90));

  const maxLat = d >= toNorthPole ? 90 : Math.min(90, geodesicDestination({ latitude: lat, longitude: lon }, 0, d).latitude + MARGIN_DEG);
  const minLat =
    d >= toSouthPole ? -90 : Math.max(-90, geodesicDestination({ latitude: lat, longitude: lon }, 180, d).latitude - MARGIN_DEG);

  // A band touching a pole means the pole itself is within reach: every longitude is.
  if (maxLat >= 90 || minLat <= -90) return [{ minLat, maxLat, minLon: -180, maxLon: 180 }];
  const halfWidthDeg = (maxLongitudeOffsetRad(lat, d, minLat, maxLat) * 180) / Math.PI + MARGIN_DEG;
  if (!(halfWidthDeg < 180)) return [{ minLat, maxLat, minLon: -180, maxLon: 180 }];

  const west = lon - halfWidthDeg;
  const east = lon + halfWidthDeg;
  const boxes: BBox[] = [];
  // Each branch keeps minLon <= maxLon; ±180 denote the same meridian, so a range touching
  // one end is mirrored (possibly as a zero-width box) at the other.
  if (west <= -180) {
    boxes.push({ minLat, maxLat, minLon: west + 360, maxLon: 180 });
    boxes.push({ minLat, maxLat, minLon: -180, maxLon: east });
  } else if (east >= 180) {
    boxes.push({ minLat, maxLat, minLon: west, maxLon: 180 });
    boxes.push({ minLat, maxLat, minLon: -180, maxLon: east - 360 });
  } else {
    boxes.push({ minLat, maxLat, minLon: west, maxLon: east });
  }
  return boxes;
}

/** Sub-intervals per side of the band when bounding the longitude offset (tightness vs cost). */
const LON_BOUND_STEPS = 24;

/**
 * Upper bound, radians, on |Δλ| between `lat0` and any point reachable by a path of length <= d
 * inside the band [minLat, maxLat] (which must not touch a pole).
 *
 * Let φm be the latitude of largest |φ| along the path (so |φm| >= |lat0|). Along the path
 * r(φ) >= r(φm), and with ds = √(ρ²dφ² + r²dλ²) Minkowski's inequality gives
 *   d >= √((∫ρ|dφ|)² + (∫r|dλ|)²) >= √(ΔM(φm)² + (r(φm)·|Δλ|)²),
 * ΔM being the meridian distance from lat0 to φm. So |Δλ| <= √(d² − ΔM(φm)²) / r(φm). For φm
 * in a sub-interval [u, v] on one side (|u| <= |v|), ΔM is smallest at u and r at v, which
 * bounds the whole sub-interval; the maximum over all sub-intervals bounds every path.
 * Compared with d / r(φ*) this stays within a few percent of the true extent at high latitude.
 */
function maxLongitudeOffsetRad(lat0: number, d: number, minLat: number, maxLat: number): number {
  const a0 = Math.abs(lat0);
  // A lower bound of ΔM only loosens the bound on |Δλ| (see meridianLowerBound).
  const m0 = meridianArcMeters(lat0);
  const meridian = (lat: number): number => meridianLowerBound(m0, meridianArcMeters(lat));
  let best = 0;
  // Each side: φm runs from |lat0| (or -|lat0|) out to the band's edge on that side.
  for (const [from, to] of [
    [a0, maxLat],
    [-a0, minLat],
  ] as const) {
    if (Math.abs(to) < Math.abs(from)) continue; // the band does not reach this side's |φ| >= |lat0|
    const step = (to - from) / LON_BOUND_STEPS;
    let u = from;
    let dmU = meridian(u);
    for (let i = 1; i <= LON_BOUND_STEPS; i++) {
      const v = i === LON_BOUND_STEPS ? to : from + step * i;
      const rV = parallelRadiusMeters(v);
      if (!(rV > 0)) return Number.POSITIVE_INFINITY;
      const bound = Math.sqrt(Math.max(0, d * d - dmU * dmU)) / rV;
      if (bound > best) best = bound;
      u = v;
      dmU = meridian(u);
    }
  }
  return best;
}
