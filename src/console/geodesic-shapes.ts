/**
 * Shapes drawn on the console's map, computed with the engine's own geodesy (domain/geodesy.ts)
 * so that what an operator sees is what the `distance` and `serves.point` tests decide.
 */
import { geodesicDestination } from '../domain/geodesy.js';
import type { Geo } from '../domain/location.js';

/** GeoJSON ring positions, [longitude, latitude]. */
export type Ring = [number, number][];

/** Vertices of a drawn circle; at 500 km the chord between two is ~16 km, well below a pixel at that scale. */
const CIRCLE_STEPS = 180;

/**
 * The geodesic circle of `radiusMeters` around `center`: the points reached by the direct geodesic
 * problem at evenly spaced azimuths. Clockwise (azimuth grows clockwise from north), which is the
 * exterior winding d3-geo expects of a small spherical polygon.
 */
export function geodesicCircle(center: Geo, radiusMeters: number, steps = CIRCLE_STEPS): Ring {
  const ring: Ring = [];
  for (let i = 0; i < steps; i++) {
    const p = geodesicDestination(center, (360 * i) / steps, radiusMeters);
    ring.push([p.longitude, p.latitude]);
  }
  const first = ring[0];
  if (first !== undefined) ring.push([first[0], first[1]]);
  return ring;
}
