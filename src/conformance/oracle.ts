/**
 * The checker's oracle: pure computations that decide, from what a Business *publishes*, what it
 * must answer. Probes are built so that a plausible wrong implementation answers differently
 * from a correct one (a spherical distance, hours read in UTC, an OR of predicates).
 *
 * Units: metres, degrees (WGS 84), epoch milliseconds. No I/O, no clock (time is a parameter).
 */
import { geodesicDestination, geodesicDistanceMeters, isUsableGeo } from '../domain/geodesy.js';
import { compileSchedule, isOpenAt, isOpenCompiled } from '../domain/hours.js';
import type { Geo, Location, Schedule } from '../domain/location.js';
import type { SearchRequest } from '../domain/requests.js';

/**
 * Sphere radii a non-ellipsoidal implementation plausibly uses, metres: IUGG mean radius, the
 * rounded mean radius, the WGS 84 semi-major and semi-minor axes.
 */
export const COMMON_SPHERE_RADII = [6_371_008.8, 6_371_000, 6_378_137, 6_356_752.314245] as const;

/** Great-circle (haversine) distance on a sphere of `radius` metres; the wrong answer R-S4 forbids. */
export function haversineMeters(a: Geo, b: Geo, radius: number = COMMON_SPHERE_RADII[0]): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * radius * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The closest any common sphere comes to the geodesic distance, metres. */
export function sphericalMargin(center: Geo, geo: Geo, geodesic: number): number {
  return Math.min(...COMMON_SPHERE_RADII.map((r) => Math.abs(haversineMeters(center, geo, r) - geodesic)));
}

export interface RadiusProbe {
  center: Geo;
  /** Unrounded WGS 84 geodesic distance from `center` to the Location's geo, metres (the `max` that must include it). */
  distance: number;
  /** How far the nearest spherical reading of the same pair is from `distance`, metres. */
  sphericalMargin: number;
}

/** Amount by which the exclusive probe shrinks `max`, metres (R-S4: `max = d − 1 mm` must exclude). */
export const EXCLUSION_STEP_M = 0.001;

/**
 * A center at a known geodesic distance from `geo` where every common sphere disagrees with the
 * ellipsoid by far more than the 1 mm exclusion step, so that `max = d` (include) and
 * `max = d − 1 mm` (exclude) cannot both be answered right by a spherical implementation.
 * The distance is recomputed center → geo (the argument order a Business uses) after the direct
 * step, so `max` is exactly the number a correct Business computes. Null when no azimuth
 * separates them (never observed, but the caller then skips instead of guessing).
 */
export function radiusProbe(geo: Geo, minimumMargin = 0.5): RadiusProbe | null {
  for (const step of [3_000, 12_000, 40_000]) {
    const candidates: RadiusProbe[] = [];
    for (let azimuth = 0; azimuth < 360; azimuth += 15) {
      const center = geodesicDestination(geo, azimuth, step);
      if (!isUsableGeo(center)) continue;
      const distance = geodesicDistanceMeters(center, geo);
      candidates.push({ center, distance, sphericalMargin: sphericalMargin(center, geo, distance) });
    }
    const best = candidates.reduce<RadiusProbe | null>((a, b) => (a === null || b.sphericalMargin > a.sphericalMargin ? b : a), null);
    if (best !== null && best.sphericalMargin >= minimumMargin) return best;
  }
  return null;
}

/** Point far (≈12 000 km) from `geo`, with the radius that just reaches `geo` from there plus 1 km. */
export function farProbe(geo: Geo): { center: Geo; max: number } {
  const center = geodesicDestination(geo, 90, 12_000_000);
  return { center, max: geodesicDistanceMeters(center, geo) + 1_000 };
}

/** A point on open ocean (Point Nemo): no Business has a Location within a metre of it. */
export const REMOTE_POINT: Geo = { latitude: -48.8767, longitude: -123.3933 };

/** A search that matches nothing: cheap for the Business, still a full negotiated round trip. */
export const EMPTY_SEARCH: SearchRequest = { distance: { center: REMOTE_POINT, max: 1 } };

export interface HoursProbe {
  /** Open in the Location's own zone, closed if the schedule were read in UTC. */
  openLocally: number;
  /** Closed in the Location's own zone, open if the schedule were read in UTC. */
  closedLocally: number;
}

const QUARTER_HOUR_MS = 15 * 60_000;
const SCAN_DAYS = 8;
const UTC_ZONE = 'Etc/UTC';

/**
 * Instants (epoch ms, on quarter hours, within 8 days after `fromMs`) at which the published
 * schedule gives opposite answers in the Location's zone and in UTC (R-S6). Null when the
 * schedule is absent or invalid, or the zone never differs from UTC at an opening edge.
 */
export function hoursProbe(schedule: Schedule, fromMs: number): HoursProbe | null {
  if (schedule.timezone === undefined || (schedule.hours === undefined && schedule.exception_hours === undefined)) return null;
  const local = compileSchedule(schedule);
  if (!local.valid) return null;
  const utc = compileSchedule({ ...schedule, timezone: UTC_ZONE });
  const start = Math.ceil(fromMs / QUARTER_HOUR_MS) * QUARTER_HOUR_MS + QUARTER_HOUR_MS;
  let openLocally: number | undefined;
  let closedLocally: number | undefined;
  for (
    let t = start;
    t < start + SCAN_DAYS * 86_400_000 && (openLocally === undefined || closedLocally === undefined);
    t += QUARTER_HOUR_MS
  ) {
    const here = isOpenCompiled(local, t);
    const there = isOpenCompiled(utc, t);
    if (here && !there) openLocally ??= t;
    if (!here && there) closedLocally ??= t;
  }
  return openLocally === undefined || closedLocally === undefined ? null : { openLocally, closedLocally };
}

/**
 * RFC 3339 text of an instant at a fixed numeric offset (minutes east of UTC), e.g.
 * `2026-12-01T03:45:00+05:45`: the same instant, written so that a Business that ignores the
 * offset reads a different one.
 */
export function formatInstant(epochMs: number, offsetMinutes = 0): string {
  const shifted = new Date(epochMs + offsetMinutes * 60_000).toISOString().replace(/\.\d{3}Z$/, '');
  if (offsetMinutes === 0) return `${shifted}Z`;
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${shifted}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** The predicates of a search or lookup request that can be judged from a published Location. */
export interface Predicates {
  distance?: { center: Geo; max: number };
  amenities?: readonly string[];
  openAt?: string;
}

/** Reads the judgeable predicates out of a request body (anything malformed is ignored). */
export function predicatesOf(request: unknown): Predicates {
  const out: Predicates = {};
  if (!isRecord(request)) return out;
  const distance = request['distance'];
  if (isRecord(distance) && isRecord(distance['center']) && typeof distance['max'] === 'number') {
    const { latitude, longitude } = distance['center'];
    if (typeof latitude === 'number' && typeof longitude === 'number')
      out.distance = { center: { latitude, longitude }, max: distance['max'] };
  }
  const filters = request['filters'];
  if (isRecord(filters)) {
    if (Array.isArray(filters['amenities']) && filters['amenities'].every((a) => typeof a === 'string'))
      out.amenities = filters['amenities'];
    const hours = filters['hours'];
    if (isRecord(hours) && typeof hours['open_at'] === 'string') out.openAt = hours['open_at'];
  }
  return out;
}

/**
 * Every predicate a returned Location visibly violates, as sentences. A predicate the published
 * Location cannot be judged on (no `geo`, no `amenities` map, no schedule at all) is not reported:
 * the checker only fails what it can prove from the Business's own data.
 */
export function predicateViolations(location: Location, predicates: Predicates): string[] {
  const out: string[] = [];
  const { distance, amenities, openAt } = predicates;
  if (distance !== undefined && location.geo !== undefined && isUsableGeo(location.geo)) {
    const d = geodesicDistanceMeters(distance.center, location.geo);
    if (!(d <= distance.max)) out.push(`${location.id} is ${d.toFixed(3)} m from the center, beyond distance.max ${distance.max} m (R-S4)`);
  }
  if (amenities !== undefined && isRecord(location.amenities)) {
    const map = location.amenities;
    const missing = amenities.filter((a) => !Object.hasOwn(map, a));
    if (missing.length > 0) out.push(`${location.id} lacks amenities ${missing.join(', ')} (exact keys, R-S7)`);
  }
  if (openAt !== undefined && (location.hours !== undefined || location.exception_hours !== undefined)) {
    let open: boolean;
    try {
      open = isOpenAt(location, openAt);
    } catch {
      open = true; // an unparsable instant is the request's problem, not this Location's
    }
    if (!open) out.push(`${location.id} is not open at ${openAt} in its own zone ${location.timezone ?? '(none)'} (R-S6)`);
  }
  return out;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
