// STUB — owned by the geodesy helper.
import type { BBox, Geo } from './location.js';

/** Shortest WGS 84 ellipsoidal geodesic distance in metres (Karney), unrounded. */
export function geodesicDistanceMeters(a: Geo, b: Geo): number {
  void a; void b;
  throw new Error('not implemented');
}

/** Conservative boxes (split at the antimeridian) containing every point within `maxMeters` of `center`. */
export function boundingRegions(center: Geo, maxMeters: number): BBox[] {
  void center; void maxMeters;
  throw new Error('not implemented');
}
