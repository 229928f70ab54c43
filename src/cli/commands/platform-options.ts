/**
 * Parsing of the platform verbs' options into a UCP request. Pure; every refusal is a
 * `ConfigError` whose message names the option and shows an accepted form (exit status 2).
 *
 * Only explicit operands become predicates (R-S3): no `--near` means no `distance`, no
 * `--serves-*` means no `serves`, and nothing is guessed from the machine's locale or zone.
 */
import { ConfigError } from '../../errors.js';
import { isOneOf } from '../../protocol/guards.js';
import type { Geo } from '../../domain/location.js';
import type { LocationFilter, LocationServes, LookupRequest, SearchRequest } from '../../domain/requests.js';

/** Metres per unit accepted by --radius. */
const RADIUS_UNITS = ['m', 'km', 'mi'] as const satisfies readonly RadiusValue['unit'][];
const UNIT_METERS: Readonly<Record<string, number>> = { m: 1, km: 1000, mi: 1609.344 };

/** When --near is given without --radius. */
export const DEFAULT_RADIUS = '5km';

export interface RadiusValue {
  meters: number;
  /** The unit the user wrote, reused to print distances. */
  unit: 'm' | 'km' | 'mi';
}

/**
 * `5km`, `800m`, `2mi`, `1.5 km`. The unit is required: a bare `5` used to mean 5 m, which nobody
 * typing it meant (the default is 5 km), and it silently returned almost nothing.
 */
export function parseRadius(text: string): RadiusValue {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(m|km|mi)?\s*$/i.exec(text);
  const value = m?.[1];
  if (m === null || value === undefined) {
    throw new ConfigError(`--radius ${JSON.stringify(text)} is not a distance; use a number with m, km or mi, e.g. 800m, 5km, 2mi`);
  }
  if (m[2] === undefined) {
    throw new ConfigError(`--radius ${JSON.stringify(text)} has no unit; write ${value}km, ${value}m or ${value}mi (e.g. 800m, 5km, 3mi)`);
  }
  const unit = m[2].toLowerCase();
  // The pattern admits only these units (any case).
  if (!isOneOf(RADIUS_UNITS, unit)) throw new ConfigError(`--radius ${JSON.stringify(text)}: use m, km or mi`);
  const meters = Number(value) * (UNIT_METERS[unit] ?? 1);
  if (!Number.isFinite(meters)) throw new ConfigError(`--radius ${JSON.stringify(text)} is too large`);
  return { meters, unit };
}

/** `lat,lon` in WGS 84 decimal degrees (latitude first). */
export function parseLatLon(text: string, option: string): Geo {
  const parts = text.split(',').map((p) => p.trim());
  const [lat, lon] = parts.map(Number);
  if (
    parts.length !== 2 ||
    parts.some((p) => p === '') ||
    lat === undefined ||
    lon === undefined ||
    !Number.isFinite(lat) ||
    !Number.isFinite(lon)
  ) {
    throw new ConfigError(
      `${option} ${JSON.stringify(text)} is not a coordinate; use latitude,longitude in decimal degrees, e.g. 37.7936,-122.3958`,
    );
  }
  if (lat < -90 || lat > 90) throw new ConfigError(`${option}: latitude ${lat} is outside -90…90 (latitude comes first: lat,lon)`);
  if (lon < -180 || lon > 180) throw new ConfigError(`${option}: longitude ${lon} is outside -180…180`);
  return { latitude: lat, longitude: lon };
}

/** `COUNTRY:VALUE`, e.g. `US:94043`. */
function parseQualified(text: string, option: string, example: string): { country: string; value: string } {
  const i = text.indexOf(':');
  const country = i < 0 ? '' : text.slice(0, i).trim();
  const value = i < 0 ? '' : text.slice(i + 1).trim();
  if (country === '' || value === '') throw new ConfigError(`${option} ${JSON.stringify(text)} needs COUNTRY:VALUE, e.g. ${example}`);
  return { country, value };
}

export interface RefinementOptions {
  near?: string;
  radius?: string;
  servesPoint?: string;
  servesPostal?: string;
  servesRegion?: string;
  servesCountry?: string;
  openAt?: string;
  amenity?: string[];
  item?: string[];
}

export interface SearchOptionsInput extends RefinementOptions {
  query?: string;
  limit?: string;
  cursor?: string;
}

/** The refinements shared by search and lookup, plus the center for the distance column. */
export interface Refinements {
  request: Omit<LookupRequest, 'ids'>;
  center: Geo | undefined;
  radius: RadiusValue | undefined;
}

/** @param now the instant `--open-at now` stands for */
export function buildRefinements(options: RefinementOptions, now: Date): Refinements {
  const request: Omit<LookupRequest, 'ids'> = {};
  let center: Geo | undefined;
  let radius: RadiusValue | undefined;
  if (options.radius !== undefined && options.near === undefined) {
    throw new ConfigError('--radius needs --near lat,lon (the center the radius is measured from)');
  }
  if (options.near !== undefined) {
    center = parseLatLon(options.near, '--near');
    radius = parseRadius(options.radius ?? DEFAULT_RADIUS);
    request.distance = { center, max: radius.meters };
  }
  const serves = buildServes(options);
  if (serves !== undefined) request.serves = serves;
  const filters: LocationFilter = {};
  if (options.openAt !== undefined) filters.hours = { open_at: parseOpenAt(options.openAt, now) };
  if (options.amenity !== undefined && options.amenity.length > 0) filters.amenities = [...options.amenity];
  if (options.item !== undefined && options.item.length > 0) filters.items = [...options.item];
  if (Object.keys(filters).length > 0) request.filters = filters;
  return { request, center, radius };
}

export function buildSearchRequest(
  options: SearchOptionsInput,
  now: Date,
): Refinements & { request: SearchRequest; limit: number | undefined } {
  const refinements = buildRefinements(options, now);
  const request: SearchRequest = { ...refinements.request };
  if (options.query !== undefined) {
    if (options.query.trim() === '') throw new ConfigError('--query is empty; give some words, or leave it out to browse');
    request.query = options.query;
  }
  const limit = options.limit === undefined ? undefined : parseLimit(options.limit);
  if (options.cursor !== undefined) request.pagination = { cursor: options.cursor };
  return { ...refinements, request, limit };
}

function parseLimit(text: string): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
    throw new ConfigError(`--limit ${JSON.stringify(text)} must be a whole number of at least 1`);
  }
  return Number(text);
}

/** `now`, or an RFC 3339 instant with `Z` or an offset (checked by the request schema too). */
export function parseOpenAt(text: string, now: Date): string {
  if (text.trim().toLowerCase() === 'now') return now.toISOString();
  if (!/^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/.test(text.trim()) || Number.isNaN(Date.parse(text))) {
    throw new ConfigError(
      `--open-at ${JSON.stringify(text)} is not an instant; use "now" or RFC 3339 with Z or an offset, e.g. 2026-11-30T18:30:00-05:00`,
    );
  }
  return text.trim();
}

function buildServes(options: RefinementOptions): LocationServes | undefined {
  const given = [
    ['--serves-point', options.servesPoint],
    ['--serves-postal', options.servesPostal],
    ['--serves-region', options.servesRegion],
    ['--serves-country', options.servesCountry],
  ].filter((entry): entry is [string, string] => entry[1] !== undefined);
  if (given.length === 0) return undefined;
  if (given.length > 1) {
    throw new ConfigError(
      `${given.map(([o]) => o).join(' and ')} cannot be combined: a serves target is exactly one point or one locality`,
    );
  }
  if (options.servesPoint !== undefined) return { point: parseLatLon(options.servesPoint, '--serves-point') };
  if (options.servesPostal !== undefined) {
    const { country, value } = parseQualified(options.servesPostal, '--serves-postal', 'US:94043');
    return { address: { address_country: country, postal_code: value } };
  }
  if (options.servesRegion !== undefined) {
    const { country, value } = parseQualified(options.servesRegion, '--serves-region', 'US:CA');
    return { address: { address_country: country, address_region: value } };
  }
  const country = (options.servesCountry ?? '').trim();
  if (country === '') throw new ConfigError('--serves-country needs a country code, e.g. US');
  return { address: { address_country: country } };
}
