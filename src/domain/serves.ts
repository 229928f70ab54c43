/**
 * Coverage evaluation for the `serves` relation (R-S5). Coverage is business-private and never
 * disclosed; this module only answers "does this Location's coverage include the target?".
 *
 *  - `serves.point`: inside a declared area (RFC 7946 polygons, planar in lon/lat degrees) or
 *    within the geodesic radius of the Location's `geo` (`<=`, metres, no tolerance — R-S4 rules).
 *  - `serves.address`: coarse locality matched against per-country lists (whole countries,
 *    regions, postal codes), after the normalisation both sides share.
 */
import { UcpRequestError } from '../errors.js';
import { boundingRegions, geodesicDistanceMeters } from './geodesy.js';
import type { BBox, Coverage, Geo, Locality } from './location.js';
import { locateInPolygon, type FlatRing } from './planar-polygon.js';

// ───────────────────────────── validation ─────────────────────────────

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
  if (!isPlainObject(coverage)) {
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
  validateCountryLists(postal, 'postal_codes', 'postal code', (v) => normalizePostalCode(v), issues);
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
  if (!isPlainObject(value)) {
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
  if (!isPlainObject(area)) {
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

// ───────────────────────────── point coverage ─────────────────────────────

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
  /**
   * Conservative boxes outside which this coverage serves no point, given the Location's
   * `geo` (the radius part needs it): what a store indexes to answer `coverageProbe`.
   */
  extents(locationGeo: Geo | null): BBox[];
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
  const radiusMeters = coverage.radius_m ?? null;
  const compiled: CompiledCoverage = {
    radiusMeters,
    polygons,
    extents: (geo) => coverageExtents(compiled, geo),
  };
  return compiled;
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
 * Boxes containing every point the coverage can serve: `boundingRegions` of the radius around
 * `locationGeo` plus each polygon's bbox. A bbox touching ±180 is mirrored as a zero-width box
 * at ∓180, since both spellings name the same meridian and a probe may use either.
 */
export function coverageExtents(coverage: CompiledCoverage, locationGeo: Geo | null): BBox[] {
  const boxes: BBox[] = [];
  if (coverage.radiusMeters !== null && locationGeo !== null) {
    boxes.push(...boundingRegions(locationGeo, coverage.radiusMeters));
  }
  for (const { bbox } of coverage.polygons) {
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

// ───────────────────────────── locality coverage ─────────────────────────────

/** Normalised `serves.address` target; throws UcpRequestError naming the field when not evaluable. */
export interface LocalityTarget {
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
  /** As `normalizeRegion` produces. */
  region?: string;
  /** As `normalizePostalCode` produces. */
  postalCode?: string;
}

/** Which countries the Business holds region / postal-code data for (see LocationStore.localityModel). */
export interface LocalityModel {
  postalCountries: ReadonlySet<string>;
  regionCountries: ReadonlySet<string>;
}

/**
 * Canonical postal code, applied identically to the Business's lists at import and to request
 * targets: Unicode NFC, upper case, every whitespace character removed ("sw1a 1aa" → "SW1A1AA").
 * Hyphens are kept: "10005-1234" is a different (finer) code than "10005".
 */
export function normalizePostalCode(code: string): string {
  return code.normalize('NFC').replace(/\s+/gu, '').toUpperCase();
}

/**
 * Canonical region, applied identically to the Business's lists and to request targets: NFC,
 * trimmed, inner whitespace collapsed, upper case, and an ISO 3166-2 prefix of the same country
 * removed ("us-ny" for US → "NY"), so the subdivision code and its ISO 3166-2 spelling agree.
 * Idempotent.
 */
export function normalizeRegion(region: string, country: string): string {
  let r = region.normalize('NFC').trim().replace(/\s+/gu, ' ').toUpperCase();
  const prefix = `${country.trim().toUpperCase()}-`;
  while (prefix.length === 3 && r.startsWith(prefix)) r = r.slice(prefix.length).trim();
  return r;
}

/** Upper-case ISO 3166-1 alpha-2 code, or null when `value` is not two ASCII letters. */
export function normalizeCountryCode(value: string): string | null {
  const c = value.trim().toUpperCase();
  return ALPHA2.test(c) ? c : null;
}

/**
 * Validates and normalises a `serves.address` target (R-S5). Errors carry the JSON pointer of
 * the offending field under `pointer` (default `/serves/address`, relative to the domain request):
 *  - `invalid_request`: no non-blank `address_country` / `address_region` / `postal_code`; a field
 *    that is not a string; or a field sent blank next to others (dropping it would broaden the
 *    target, which R-S5 forbids);
 *  - `serves_target_unsupported`: region or postal code without `address_country` (not
 *    interpretable); a country that is not ISO 3166-1 alpha-2; a postal code / region for a
 *    country the Business holds no postal / region data for. Never degraded to a coarser target.
 * Messages never echo the buyer's postal code or region.
 */
export function normalizeLocalityTarget(address: Locality, model: LocalityModel, pointer = '/serves/address'): LocalityTarget {
  const raw = address as Record<string, unknown>;
  const fields = ['address_country', 'address_region', 'postal_code'] as const;
  const values: Partial<Record<(typeof fields)[number], string>> = {};
  for (const f of fields) {
    const v = raw[f];
    if (v === undefined) continue;
    if (typeof v !== 'string') {
      throw new UcpRequestError('invalid_request', `serves.address.${f} must be a string`, `${pointer}/${f}`);
    }
    values[f] = v;
  }
  const present = fields.flatMap((f) => {
    const v = values[f];
    return v === undefined ? [] : [{ f, blank: v.trim() === '' }];
  });
  const nonBlank = present.filter((p) => !p.blank);
  if (nonBlank.length === 0) {
    throw new UcpRequestError(
      'invalid_request',
      'serves.address needs at least one non-empty field among address_country, address_region and postal_code',
      pointer,
    );
  }
  const blank = present.find((p) => p.blank)?.f;
  if (blank !== undefined) {
    throw new UcpRequestError(
      'invalid_request',
      `serves.address.${blank} is empty; omit the field or give a value (an empty field is not ignored, as that would broaden the target)`,
      `${pointer}/${blank}`,
    );
  }

  const countryRaw = values.address_country;
  if (countryRaw === undefined) {
    const f = values.postal_code !== undefined ? 'postal_code' : 'address_region';
    throw new UcpRequestError(
      'serves_target_unsupported',
      `serves.address.${f} cannot be interpreted without address_country; add the ISO 3166-1 alpha-2 country code (e.g. "US")`,
      `${pointer}/address_country`,
    );
  }
  const country = normalizeCountryCode(countryRaw);
  if (country === null) {
    throw new UcpRequestError(
      'serves_target_unsupported',
      `serves.address.address_country ${JSON.stringify(truncate(countryRaw.trim()))} is not supported; send the ISO 3166-1 alpha-2 code (two letters, e.g. "US", "DE") instead of an alpha-3 code or a country name`,
      `${pointer}/address_country`,
    );
  }

  const target: LocalityTarget = { country };
  if (values.address_region !== undefined) {
    if (!model.regionCountries.has(country)) {
      throw new UcpRequestError(
        'serves_target_unsupported',
        `This Business has no region coverage data for country ${country}, so serves.address.address_region cannot be evaluated; omit address_region (to ask about the whole country) or use serves.point`,
        `${pointer}/address_region`,
      );
    }
    target.region = normalizeRegion(values.address_region, country);
    if (target.region === '') {
      throw new UcpRequestError(
        'invalid_request',
        'serves.address.address_region is empty after normalisation',
        `${pointer}/address_region`,
      );
    }
  }
  if (values.postal_code !== undefined) {
    if (!model.postalCountries.has(country)) {
      throw new UcpRequestError(
        'serves_target_unsupported',
        `This Business has no postal-code coverage data for country ${country}, so serves.address.postal_code cannot be evaluated; omit postal_code or use serves.point`,
        `${pointer}/postal_code`,
      );
    }
    target.postalCode = normalizePostalCode(values.postal_code);
  }
  return target;
}

/**
 * Reference semantics of `serves.address` that every store reproduces (in SQL): a Location
 * matches when it lists the target's postal code for that country, or the target's region of
 * that country, or covers the whole country. A country-only target therefore matches only
 * whole-country coverage: serving part of a country does not serve "the country".
 * Coverage lists are normalised here too, so un-normalised data still compares correctly.
 */
export function localityMatches(coverage: Coverage, target: LocalityTarget): boolean {
  const { country } = target;
  if (coverage.countries?.some((c) => normalizeCountryCode(c) === country)) return true;
  if (target.region !== undefined) {
    const regions = listFor(coverage.regions, country);
    if (regions.some((r) => normalizeRegion(r, country) === target.region)) return true;
  }
  if (target.postalCode !== undefined) {
    const codes = listFor(coverage.postal_codes, country);
    if (codes.some((p) => normalizePostalCode(p) === target.postalCode)) return true;
  }
  return false;
}

function listFor(map: Record<string, string[]> | undefined, country: string): readonly string[] {
  if (map === undefined) return [];
  // Own keys only: a country code never resolves to an inherited property.
  return Object.hasOwn(map, country) ? (map[country] ?? []) : [];
}

// ───────────────────────────── helpers ─────────────────────────────

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(truncate(v)) : v === null ? 'null' : typeof v;
}

function truncate(s: string, max = 40): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
