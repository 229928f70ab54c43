/**
 * Request predicates of search and lookup, checked and prepared before any data is touched
 * (R-S1, R-S3…R-S8). Pure: the engine passes the limits in.
 *
 * Every supplied predicate is honoured or the request is rejected with an actionable
 * UcpRequestError; nothing is ever ignored, clamped or relaxed, because each of those would
 * return Locations the Platform asked to exclude.
 */
import { InvalidInstantError, UcpRequestError } from '../errors.js';
import { elementAt, isOneOf, isRecord } from '../protocol/guards.js';
import { boundingRegions } from './geodesy.js';
import { parseInstant } from './hours.js';
import type { BBox, Geo, Locality } from './location.js';
import type { LocationDistance, LocationFilter, LocationServes } from './requests.js';

/** The filters this Business evaluates; any other `filters.*` key is rejected. */
export const SUPPORTED_FILTERS = ['hours', 'amenities', 'items'] as const;

export interface PredicatePlan {
  /** R-S4: exact geodesic `<=`; `regions` is the conservative prefilter. */
  distance: { center: Geo; max: number; regions: BBox[] } | null;
  /** R-S5 `serves.point`. */
  servesPoint: Geo | null;
  /** R-S5 `serves.address`, as sent (normalised later against the store's locality model). */
  servesAddress: Locality | null;
  /** R-S6: the instant of `filters.hours.open_at`, epoch milliseconds. */
  openAtMs: number | null;
  /** R-S7: exact amenity keys, distinct, in request order. */
  amenities: string[];
  /** R-S8: item ids, distinct, in request order. */
  items: string[];
}

/** One reference token of an RFC 6901 JSON pointer (`~` → `~0`, `/` → `~1`). */
export function pointerToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function isGeo(x: unknown): x is Geo {
  if (!isRecord(x)) return false;
  const g = x;
  return (
    typeof g.latitude === 'number' &&
    typeof g.longitude === 'number' &&
    Number.isFinite(g.latitude) &&
    Number.isFinite(g.longitude) &&
    g.latitude >= -90 &&
    g.latitude <= 90 &&
    g.longitude >= -180 &&
    g.longitude <= 180
  );
}

function planDistance(distance: LocationDistance, maxRadiusMeters: number): PredicatePlan['distance'] {
  if (!isGeo(distance.center)) {
    throw new UcpRequestError(
      'invalid_request',
      'distance.center must be {latitude, longitude} in WGS 84 degrees, latitude in [-90, 90] and longitude in [-180, 180]',
      '/distance/center',
    );
  }
  const max = distance.max;
  if (typeof max !== 'number' || !Number.isFinite(max) || max < 0) {
    throw new UcpRequestError('invalid_request', 'distance.max must be a finite number of metres >= 0', '/distance/max');
  }
  if (max > maxRadiusMeters) {
    throw new UcpRequestError(
      'radius_too_large',
      `distance.max ${max} m is larger than the largest radius this Business can honour (${maxRadiusMeters} m). ` +
        `Send a distance.max of at most ${maxRadiusMeters}; the radius is never reduced silently.`,
      '/distance/max',
    );
  }
  return {
    center: { latitude: distance.center.latitude, longitude: distance.center.longitude },
    max,
    regions: boundingRegions(distance.center, max),
  };
}

function planServes(serves: LocationServes): Pick<PredicatePlan, 'servesPoint' | 'servesAddress'> {
  const keys = Object.keys(serves);
  if (keys.length !== 1) {
    throw new UcpRequestError(
      'invalid_request',
      `serves must hold exactly one target (point, address or a negotiated extension target); got ${keys.length}`,
      '/serves',
    );
  }
  const [key, value]: [string, unknown] = elementAt(Object.entries(serves), 0);
  if (key === 'point') {
    if (!isGeo(value)) {
      throw new UcpRequestError(
        'invalid_request',
        'serves.point must be {latitude, longitude} in WGS 84 degrees, latitude in [-90, 90] and longitude in [-180, 180]',
        '/serves/point',
      );
    }
    return { servesPoint: { latitude: value.latitude, longitude: value.longitude }, servesAddress: null };
  }
  if (key === 'address') {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new UcpRequestError(
        'invalid_request',
        'serves.address must be an object with address_country, address_region and/or postal_code',
        '/serves/address',
      );
    }
    return { servesPoint: null, servesAddress: value };
  }
  throw new UcpRequestError(
    'serves_target_unsupported',
    `serves.${key} is an extension target this Business has not negotiated, so it cannot be evaluated. ` +
      'Use serves.point (coordinates) or serves.address (country, region or postal code) instead.',
    `/serves/${pointerToken(key)}`,
  );
}

function stringList(value: unknown, pointer: string, what: string): string[] {
  if (!Array.isArray(value) || !value.every((v): v is string => typeof v === 'string')) {
    throw new UcpRequestError('invalid_request', `${what} must be an array of strings`, pointer);
  }
  return [...new Set(value)];
}

function planFilters(filters: LocationFilter): Pick<PredicatePlan, 'openAtMs' | 'amenities' | 'items'> {
  for (const key of Object.keys(filters)) {
    if (isOneOf(SUPPORTED_FILTERS, key)) continue;
    throw new UcpRequestError(
      'unsupported_filter',
      `filters.${key} is not supported by this Business. Remove it or use one of: ${SUPPORTED_FILTERS.join(', ')}. ` +
        'An unsupported filter is rejected rather than ignored, because ignoring it would return Locations it should exclude.',
      `/filters/${pointerToken(key)}`,
    );
  }
  let openAtMs: number | null = null;
  if (filters.hours !== undefined) {
    // Typed, but the request is outside input: only an object can hold open_at.
    const hours: unknown = filters.hours;
    const openAt = isRecord(hours) ? hours['open_at'] : undefined;
    if (typeof openAt !== 'string') {
      throw new UcpRequestError(
        'invalid_request',
        'filters.hours.open_at is required: an RFC 3339 date-time with Z or a numeric offset',
        '/filters/hours/open_at',
      );
    }
    try {
      openAtMs = parseInstant(openAt);
    } catch (cause) {
      if (!(cause instanceof InvalidInstantError)) throw cause;
      throw new UcpRequestError('invalid_request', `filters.hours.open_at: ${cause.message}`, '/filters/hours/open_at', { cause });
    }
  }
  return {
    openAtMs,
    amenities: filters.amenities === undefined ? [] : stringList(filters.amenities, '/filters/amenities', 'filters.amenities'),
    items: filters.items === undefined ? [] : stringList(filters.items, '/filters/items', 'filters.items'),
  };
}

/**
 * Check and prepare `distance`, `serves` and `filters` of a search or lookup request.
 * Throws UcpRequestError with the JSON pointer of the first offending member.
 */
export function planPredicates(
  request: { distance?: LocationDistance; serves?: LocationServes; filters?: LocationFilter },
  limits: { maxRadiusMeters: number },
): PredicatePlan {
  const distance = request.distance === undefined ? null : planDistance(request.distance, limits.maxRadiusMeters);
  const serves = request.serves === undefined ? { servesPoint: null, servesAddress: null } : planServes(request.serves);
  const filters = request.filters === undefined ? { openAtMs: null, amenities: [], items: [] } : planFilters(request.filters);
  return { distance, ...serves, ...filters };
}

/** True when the request has no spatial operand at all: a bounded browse (R-S2). */
export function isBoundedBrowse(plan: PredicatePlan): boolean {
  return plan.distance === null && plan.servesPoint === null && plan.servesAddress === null;
}
