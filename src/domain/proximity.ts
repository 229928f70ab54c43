/**
 * Cheap, rigorous brackets around the WGS 84 geodesic distance from one center, so that the
 * exact (Karney) distance is computed only where a decision depends on it: near the `distance.max`
 * boundary (R-S4) and for the few Locations competing for a page slot (ranking).
 *
 * For two points with straight-line (ECEF chord) distance c:
 *   lower:  c ≤ s, since no surface path is shorter than the straight segment;
 *   upper:  s ≤ 2ρ·asin(c / 2ρ), ρ = b²/a ≈ 6 335 439 m.
 * Proof of the upper bound: the plane through both points and the Earth's centre cuts the
 * ellipsoid in an ellipse that contains an equatorial diameter, so its semi-axes are a and some
 * b' ∈ [b, a], and its radius of curvature is at least b'²/a ≥ b²/a = ρ everywhere. Its shorter
 * arc between the points is a surface path, hence ≥ s. By Schur's comparison theorem an arc of
 * length L whose curvature never exceeds 1/ρ has a chord at least as long as the circular arc of
 * radius ρ and length L, i.e. c ≥ 2ρ·sin(L / 2ρ) when L ≤ πρ; so L ≤ 2ρ·asin(c / 2ρ).
 * The bracket is used up to c = 1 000 km (then L is far below πρ); beyond, the exact distance is
 * computed directly. Its width is about c³ / 24ρ²: 0.1 µm at 1 km, 1 mm at 10 km, 130 m at 500 km.
 *
 * A margin of 1 µm plus 1e-12·c on both sides absorbs floating-point rounding here and
 * GeographicLib's own error (~15 nm), so the bracket always contains the value that
 * geodesicDistanceMeters returns — the value R-S4 compares with `max`.
 */
import { geodesicDistanceMeters } from './geodesy.js';
import type { Geo } from './location.js';

const A = 6_378_137;
const F = 1 / 298.257223563;
const E2 = F * (2 - F);
const B = A * (1 - F);
const RHO = (B * B) / A;
const RAD = Math.PI / 180;
/** Chords longer than this are not bracketed (exact distance instead), metres. */
const MAX_BRACKET_CHORD = 1_000_000;

export interface DistanceBracket {
  /** Metres; ≤ the geodesic distance. */
  lower: number;
  /** Metres; ≥ the geodesic distance. Equal to `lower` when the distance was computed exactly. */
  upper: number;
}

/** Brackets distances from one fixed center (precomputes its ECEF position). */
export class GeodesicBracket {
  private readonly centre = new Float64Array(3);
  /** ECEF position of the point being measured: reused, so that measuring allocates nothing. */
  private readonly point = new Float64Array(3);

  constructor(readonly center: Geo) {
    ecefInto(center.latitude, center.longitude, this.centre);
  }

  /** The bracket `measure` found last (fields, so that a search over many candidates allocates nothing per candidate). */
  lower = 0;
  upper = 0;

  /** A bracket of geodesicDistanceMeters(center, geo), exact when the cheap bound does not apply. */
  bracket(geo: Geo): DistanceBracket {
    this.measure(geo);
    return { lower: this.lower, upper: this.upper };
  }

  /** Like `bracket`, into `this.lower` / `this.upper`. */
  measure(geo: Geo): void {
    const c = this.chordTo(geo.latitude, geo.longitude);
    if (c > MAX_BRACKET_CHORD) {
      const d = geodesicDistanceMeters(this.center, geo);
      this.lower = d;
      this.upper = d;
      return;
    }
    const margin = chordMargin(c);
    this.lower = Math.max(0, c - margin);
    this.upper = 2 * RHO * Math.asin(c / (2 * RHO)) + margin;
  }

  /**
   * A lower bound of the geodesic distance to a point given as numbers (an index's columns: no
   * object per row): the straight chord through the ellipsoid, which no path on its surface beats.
   */
  lowerBoundAt(latitude: number, longitude: number): number {
    const c = this.chordTo(latitude, longitude);
    return Math.max(0, c - chordMargin(c));
  }

  /** Straight-line (ECEF) distance from the center, metres. */
  private chordTo(latitude: number, longitude: number): number {
    const p = ecefInto(latitude, longitude, this.point);
    const dx = (p[0] as number) - (this.centre[0] as number);
    const dy = (p[1] as number) - (this.centre[1] as number);
    const dz = (p[2] as number) - (this.centre[2] as number);
    return Math.sqrt(dx * dx + dy * dy + dz * dz);
  }

  /** The exact distance (Karney), metres. */
  exact(geo: Geo): number {
    return geodesicDistanceMeters(this.center, geo);
  }
}

/** Floating-point allowance on a chord of `c` metres (the bracket widens by it on both sides). */
function chordMargin(c: number): number {
  return 1e-6 + 1e-12 * c;
}

/** Earth-centred, Earth-fixed coordinates of a point on the WGS 84 ellipsoid (height 0), metres, written into `out`. */
function ecefInto(latitude: number, longitude: number, out: Float64Array): Float64Array {
  const phi = latitude * RAD;
  const lambda = longitude * RAD;
  const sinPhi = Math.sin(phi);
  const cosPhi = Math.cos(phi);
  const n = A / Math.sqrt(1 - E2 * sinPhi * sinPhi);
  out[0] = n * cosPhi * Math.cos(lambda);
  out[1] = n * cosPhi * Math.sin(lambda);
  out[2] = n * (1 - E2) * sinPhi;
  return out;
}
