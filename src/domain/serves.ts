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
import { resolveCountry, resolveSubdivision } from './locality-names.js';
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
  /** ISO 3166-2 subdivision code without the country prefix ("CA" for US-CA), as `normalizeRegion` produces. */
  region?: string;
  /** As `normalizePostalCode` produces. */
  postalCode?: string;
  /**
   * Listed codes that contain the target: `postalCode` itself first, then the coarser forms it
   * nests in for countries where that is well defined (see `postalCodeKeys`). Set with `postalCode`.
   */
  postalKeys?: string[];
}

/** Which countries the Business holds region / postal-code data for (see LocationStore.localityModel). */
export interface LocalityModel {
  postalCountries: ReadonlySet<string>;
  regionCountries: ReadonlySet<string>;
}

const US_ZIP = /^(\d{5})(?:-?(\d{4}))?$/;
const GB_FULL = /^([A-Z]{1,2})(\d[A-Z\d]?)(\d[A-Z]{2})$/;
const GB_OUTWARD = /^([A-Z]{1,2})\d[A-Z\d]?$/;
const GB_AREA = /^[A-Z]{1,2}$/;
const CA_FULL = /^[ABCEGHJ-NPRSTVXY]\d[A-Z]\d[A-Z]\d$/;
const CA_FSA = /^[ABCEGHJ-NPRSTVXY]\d[A-Z]$/;
const NL_FULL = /^[1-9]\d{3}[A-Z]{2}$/;
const NL_DIGITS = /^[1-9]\d{3}$/;

/** Accepted spellings per country with a known postal format, quoted in refusals. */
const POSTAL_FORMS: Readonly<Record<string, string>> = {
  US: 'a 5-digit ZIP code ("10005") or ZIP+4 ("10005-1234", answered for its ZIP code)',
  GB: 'a full postcode ("SW1A 1AA"), an outward code ("SW1A") or a postcode area ("SW")',
  CA: 'a postal code ("K1A 0B1") or its forward sortation area ("K1A")',
  NL: 'a postcode ("1012 AB") or its four digits ("1012")',
};

/**
 * Canonical postal code, applied identically to the Business's lists at import and to request
 * targets: Unicode NFC, upper case, every whitespace character removed ("sw1a 1aa" → "SW1A1AA").
 * With `country` "US", ZIP+4 is spelled "10005-1234" whether sent with or without the hyphen; it
 * stays a different (finer) code than "10005" — `postalCodeKeys` relates the two. Idempotent.
 */
export function normalizePostalCode(code: string, country?: string): string {
  const c = code.normalize('NFC').replace(/\s+/gu, '').toUpperCase();
  if (country?.toUpperCase() === 'US') {
    const m = US_ZIP.exec(c);
    if (m !== null) return m[2] === undefined ? (m[1] ?? c) : `${m[1]}-${m[2]}`;
  }
  return c;
}

/**
 * The listed codes that contain a normalised postal code of `country`, finest first: the code
 * itself, then the coarser units it nests in. US: ZIP+4 → ZIP. GB: full postcode → outward code →
 * area ("SW1A1AA" → "SW1A" → "SW"; sectors are left out, as "E11" could be the outward code E11 or
 * sector "E1 1" once spaces are dropped). CA: postal code → forward sortation area. NL: postcode
 * → its four digits. Elsewhere the code only matches itself.
 * Returns null when the code is not well formed for a country whose format is known.
 */
export function postalCodeKeys(normalized: string, country: string): string[] | null {
  switch (country) {
    case 'US': {
      const m = US_ZIP.exec(normalized);
      if (m === null) return null;
      return m[2] === undefined ? [normalized] : [normalized, m[1] ?? ''];
    }
    case 'GB': {
      const full = GB_FULL.exec(normalized);
      if (full !== null) {
        const [, area = '', district = ''] = full;
        return [normalized, `${area}${district}`, area];
      }
      const outward = GB_OUTWARD.exec(normalized);
      if (outward !== null) return [normalized, outward[1] ?? ''];
      return GB_AREA.test(normalized) ? [normalized] : null;
    }
    case 'CA':
      if (CA_FULL.test(normalized)) return [normalized, normalized.slice(0, 3)];
      return CA_FSA.test(normalized) ? [normalized] : null;
    case 'NL':
      if (NL_FULL.test(normalized)) return [normalized, normalized.slice(0, 4)];
      return NL_DIGITS.test(normalized) ? [normalized] : null;
    default:
      return [normalized];
  }
}

/**
 * Canonical region, applied identically to the Business's lists and to request targets: the
 * ISO 3166-2 subdivision code without its country prefix when the value names a subdivision of
 * `country` by code ("us-ca", "CA") or by English or local name ("California", "Bayern",
 * "Bavaria"), see `resolveSubdivision`; otherwise NFC, trimmed, inner whitespace collapsed, upper
 * case, with a "CC-" prefix of the same country removed. Idempotent.
 */
export function normalizeRegion(region: string, country: string): string {
  const cc = normalizeCountryCode(country);
  if (cc !== null) {
    const code = resolveSubdivision(region, cc);
    if (code !== null) return code;
  }
  let r = region.normalize('NFC').trim().replace(/\s+/gu, ' ').toUpperCase();
  const prefix = `${country.trim().toUpperCase()}-`;
  while (prefix.length === 3 && r.startsWith(prefix)) r = r.slice(prefix.length).trim();
  // "US-California": only the stripped form names the subdivision; resolving it keeps this idempotent.
  return cc === null ? r : (resolveSubdivision(r, cc) ?? r);
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
 *    interpretable); a country that is neither an ISO 3166-1 code nor a known country name; a
 *    region that is not a known subdivision of that country; a postal code that is not well
 *    formed for a country whose format is known (US, GB, CA, NL); a postal code / region for a
 *    country the Business holds no postal / region data for. Never degraded to a coarser target,
 *    and every message lists the accepted forms.
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
  const country = resolveCountry(countryRaw);
  if (country === null) {
    throw new UcpRequestError(
      'serves_target_unsupported',
      `serves.address.address_country ${JSON.stringify(truncate(countryRaw.trim()))} is not a known country; send an ISO 3166-1 alpha-2 code ("US", "DE"; any letter case), an alpha-3 code ("USA") or the country's English or local name ("Germany", "Deutschland")`,
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
    const region = resolveSubdivision(values.address_region, country);
    if (region === null) {
      throw new UcpRequestError(
        'serves_target_unsupported',
        `serves.address.address_region is not a known ISO 3166-2 subdivision of ${country}; send the subdivision code ("${country}-XX" or "XX", any letter case) or its English or local name (e.g. "California" or "CA" for US-CA)`,
        `${pointer}/address_region`,
      );
    }
    target.region = region;
  }
  if (values.postal_code !== undefined) {
    if (!model.postalCountries.has(country)) {
      throw new UcpRequestError(
        'serves_target_unsupported',
        `This Business has no postal-code coverage data for country ${country}, so serves.address.postal_code cannot be evaluated; omit postal_code or use serves.point`,
        `${pointer}/postal_code`,
      );
    }
    const code = normalizePostalCode(values.postal_code, country);
    const keys = postalCodeKeys(code, country);
    if (keys === null) {
      throw new UcpRequestError(
        'serves_target_unsupported',
        `serves.address.postal_code is not a well-formed postal code for ${country}; send ${POSTAL_FORMS[country] ?? 'the postal code as written locally'}`,
        `${pointer}/postal_code`,
      );
    }
    target.postalCode = code;
    target.postalKeys = keys;
  }
  return target;
}

/**
 * Reference semantics of `serves.address` that every store reproduces (in SQL): a Location
 * matches when it lists the target's postal code (or a coarser code it nests in, `postalKeys`) for
 * that country, or the target's region of
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
    const keys = target.postalKeys ?? [target.postalCode];
    const codes = listFor(coverage.postal_codes, country);
    if (codes.some((p) => keys.includes(normalizePostalCode(p, country)))) return true;
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
