/**
 * Checking a coverage object as import data gives it (any JSON value): every problem found, with
 * the field it is in, so an operator fixes a file in one pass.
 */
import { isRecord } from '../protocol/guards.js';
import { normalizeRegion, truncate } from './serves-locality.js';
import { normalizePostalCode } from './serves-postal.js';

/** One problem in a coverage object; `field` is relative to the coverage (e.g. `areas[0].type`). */
export interface CoverageIssue {
  field: string;
  message: string;
}

const COVERAGE_KEYS = new Set(['radius_m', 'areas', 'countries', 'regions', 'postal_codes']);
const ALPHA2 = /^[A-Z]{2}$/;

/**
 * Checks a coverage object as read from import data (so it accepts any JSON value). Returns
 * every problem found, empty when valid. Rules:
 *  - `radius_m`: finite number >= 0 (metres);
 *  - `areas`: GeoJSON Polygon / MultiPolygon; every ring closed (first position == last) with
 *    >= 4 positions; positions `[lon, lat, ...]` with finite lon ∈ [-180, 180], lat ∈ [-90, 90];
 *    a ring may span at most 180° of longitude (RFC 7946 §3.1.9: a shape crossing the
 *    antimeridian must be split by the publisher, otherwise its planar reading is wrong);
 *  - `countries`: ISO 3166-1 alpha-2 codes in upper case;
 *  - `regions` / `postal_codes`: maps keyed by upper-case alpha-2 code to non-empty lists of
 *    non-blank strings.
 * Not checked: ring self-intersection and holes lying inside their outer ring (the even–odd
 * evaluation is still well defined for such data).
 */
export function validateCoverage(coverage: unknown): CoverageIssue[] {
  const issues: CoverageIssue[] = [];
  if (!isRecord(coverage)) {
    return [{ field: '', message: 'coverage must be an object with radius_m, areas, countries, regions and/or postal_codes' }];
  }
  for (const key of Object.keys(coverage)) {
    if (!COVERAGE_KEYS.has(key)) {
      issues.push({ field: key, message: `unknown coverage field; expected one of ${[...COVERAGE_KEYS].join(', ')}` });
    }
  }
  const { radius_m: radius, areas, countries, regions, postal_codes: postal } = coverage;
  if (radius !== undefined && !(typeof radius === 'number' && Number.isFinite(radius) && radius >= 0)) {
    issues.push({ field: 'radius_m', message: 'radius_m must be a finite number of metres >= 0' });
  }
  if (areas !== undefined) {
    if (!Array.isArray(areas))
      issues.push({ field: 'areas', message: 'areas must be an array of GeoJSON Polygon or MultiPolygon geometries' });
    else areas.forEach((area, i) => validateArea(area, `areas[${i}]`, issues));
  }
  if (countries !== undefined) {
    if (!Array.isArray(countries))
      issues.push({ field: 'countries', message: 'countries must be an array of ISO 3166-1 alpha-2 codes, e.g. ["US"]' });
    else {
      countries.forEach((c, i) => {
        if (typeof c !== 'string' || !ALPHA2.test(c)) {
          issues.push({ field: `countries[${i}]`, message: `${describe(c)} is not an upper-case ISO 3166-1 alpha-2 code (e.g. "US")` });
        }
      });
    }
  }
  validateCountryLists(regions, 'regions', 'region', normalizeRegion, issues);
  validateCountryLists(postal, 'postal_codes', 'postal code', normalizePostalCode, issues);
  return issues;
}

function validateCountryLists(
  value: unknown,
  field: string,
  what: string,
  normalize: (v: string, country: string) => string,
  issues: CoverageIssue[],
): void {
  if (value === undefined) return;
  if (!isRecord(value)) {
    issues.push({ field, message: `${field} must be an object mapping a country code to a list, e.g. {"US": ["..."]}` });
    return;
  }
  for (const [country, list] of Object.entries(value)) {
    const at = `${field}.${country}`;
    if (!ALPHA2.test(country)) {
      issues.push({
        field: at,
        message: `key ${JSON.stringify(truncate(country))} is not an upper-case ISO 3166-1 alpha-2 code (e.g. "US")`,
      });
    }
    if (!Array.isArray(list)) {
      issues.push({ field: at, message: `must be an array of ${what} strings` });
      continue;
    }
    if (list.length === 0) issues.push({ field: at, message: `empty list; remove the key or list at least one ${what}` });
    list.forEach((v, i) => {
      if (typeof v !== 'string' || normalize(v, country) === '') {
        issues.push({ field: `${at}[${i}]`, message: `${what} must be a non-blank string` });
      }
    });
  }
}

function validateArea(area: unknown, at: string, issues: CoverageIssue[]): void {
  if (!isRecord(area)) {
    issues.push({
      field: at,
      message: 'area must be a GeoJSON geometry object {"type": "Polygon" | "MultiPolygon", "coordinates": [...]}',
    });
    return;
  }
  const coords = area['coordinates'];
  if (area['type'] === 'Polygon') {
    validatePolygonCoords(coords, `${at}.coordinates`, issues);
  } else if (area['type'] === 'MultiPolygon') {
    if (!Array.isArray(coords) || coords.length === 0) {
      issues.push({ field: `${at}.coordinates`, message: 'MultiPolygon coordinates must be a non-empty array of polygons' });
      return;
    }
    coords.forEach((p, i) => validatePolygonCoords(p, `${at}.coordinates[${i}]`, issues));
  } else {
    issues.push({ field: `${at}.type`, message: `unsupported geometry type ${describe(area['type'])}; use "Polygon" or "MultiPolygon"` });
  }
}

function validatePolygonCoords(coords: unknown, at: string, issues: CoverageIssue[]): void {
  if (!Array.isArray(coords) || coords.length === 0) {
    issues.push({ field: at, message: 'polygon must be a non-empty array of linear rings (outer ring first, then holes)' });
    return;
  }
  coords.forEach((ring, r) => {
    const ringAt = `${at}[${r}]`;
    if (!Array.isArray(ring) || ring.length < 4) {
      issues.push({ field: ringAt, message: 'linear ring must be an array of at least 4 positions, the last equal to the first' });
      return;
    }
    let ok = true;
    let minLon = Infinity;
    let maxLon = -Infinity;
    ring.forEach((pos: unknown, i) => {
      const msg = positionProblem(pos);
      if (msg !== null) {
        ok = false;
        issues.push({ field: `${ringAt}[${i}]`, message: msg });
        return;
      }
      const [lon] = pos as [number, number]; // checked by positionProblem
      if (lon < minLon) minLon = lon;
      if (lon > maxLon) maxLon = lon;
    });
    if (!ok) return;
    const first = ring[0] as number[];
    const last = ring[ring.length - 1] as number[];
    if (first[0] !== last[0] || first[1] !== last[1]) {
      issues.push({ field: ringAt, message: 'linear ring is not closed: the last position must equal the first' });
    }
    if (maxLon - minLon > 180) {
      issues.push({
        field: ringAt,
        message: `ring spans ${round(maxLon - minLon)}° of longitude (> 180°), which cannot be evaluated; split a shape crossing the antimeridian into a MultiPolygon with parts on each side of ±180 (RFC 7946 §3.1.9)`,
      });
    }
  });
}

function positionProblem(pos: unknown): string | null {
  if (!Array.isArray(pos) || pos.length < 2) return 'position must be [longitude, latitude] (GeoJSON order)';
  const [lon, lat] = pos as unknown[];
  if (typeof lon !== 'number' || !Number.isFinite(lon) || typeof lat !== 'number' || !Number.isFinite(lat)) {
    return 'longitude and latitude must be finite numbers';
  }
  if (lon < -180 || lon > 180) return `longitude ${lon} is outside [-180, 180] (GeoJSON positions are [longitude, latitude])`;
  if (lat < -90 || lat > 90) return `latitude ${lat} is outside [-90, 90] (GeoJSON positions are [longitude, latitude])`;
  return null;
}

function describe(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(truncate(v)) : v === null ? 'null' : typeof v;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
