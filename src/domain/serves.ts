/**
 * Coverage evaluation for the `serves` relation (R-S5). Coverage is business-private and never
 * disclosed; these modules only answer "does this Location's coverage include the target?".
 *
 *  - `serves.point`: inside a declared area (RFC 7946 polygons, planar in lon/lat degrees) or
 *    within the geodesic radius of the Location's `geo` (`<=`, metres, no tolerance — R-S4 rules):
 *    serves-geometry.ts, with the extents stores index;
 *  - `serves.address`: coarse locality matched against per-country lists (whole countries,
 *    regions, postal codes), after the normalisation both sides share: serves-locality.ts, with
 *    each country's postal codes in serves-postal.ts;
 *  - a coverage object read from import data is checked by serves-validation.ts.
 *
 * This module is the one the rest of the code imports.
 */
export { validateCoverage, type CoverageIssue } from './serves-validation.js';
export {
  compileCoverage,
  coverageContainsPoint,
  coverageExtents,
  radiusExtents,
  type CompiledCoverage,
  type CompiledPolygon,
} from './serves-geometry.js';
export {
  localityMatches,
  normalizeCountryCode,
  normalizeLocalityTarget,
  normalizeRegion,
  type LocalityModel,
  type LocalityTarget,
} from './serves-locality.js';
export { normalizePostalCode, postalCodeKeys } from './serves-postal.js';
