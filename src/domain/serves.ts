// STUB — owned by the geodesy/serves helper.
import type { Coverage, Geo, Locality } from './location.js';

/** Coverage pre-processed for repeated point tests (areas parsed, extents computed). */
export interface CompiledCoverage {
  readonly radiusMeters: number | null;
}

export function compileCoverage(coverage: Pick<Coverage, 'radius_m' | 'areas'>): CompiledCoverage {
  void coverage;
  throw new Error('not implemented');
}

/** `serves.point`: inside a declared area, or within the geodesic radius of the Location's geo. */
export function coverageContainsPoint(coverage: CompiledCoverage, locationGeo: Geo | null, point: Geo): boolean {
  void coverage; void locationGeo; void point;
  throw new Error('not implemented');
}

/** Normalised `serves.address` target; throws UcpRequestError naming the field when not evaluable. */
export interface LocalityTarget {
  country: string;
  region?: string;
  postalCode?: string;
}

export function normalizeLocalityTarget(
  address: Locality,
  model: { postalCountries: ReadonlySet<string>; regionCountries: ReadonlySet<string> },
): LocalityTarget {
  void address; void model;
  throw new Error('not implemented');
}
