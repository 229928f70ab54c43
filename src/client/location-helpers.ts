/**
 * Helpers a Platform applies to returned Locations. They are the domain's own evaluators (the
 * same code the Business filters with), so a Platform never re-implements opening hours or
 * geodesy: hours are evaluated on the Location's own `timezone` (never the Platform's or the
 * buyer's, R-H5), and absent or invalid schedules are never "open" (R-S6).
 */
import { geodesicDistanceMeters, isUsableGeo } from '../domain/geodesy.js';
import { compileSchedule, isOpenCompiled, nextChangeCompiled, parseInstant, type StateChange } from '../domain/hours.js';
import type { Geo, Location } from '../domain/location.js';

/** An instant: a Date, epoch milliseconds, or an RFC 3339 string with `Z` or a numeric offset. */
export type Instant = Date | number | string;

function epochMs(instant: Instant): number {
  if (typeof instant === 'string') return parseInstant(instant);
  const ms = instant instanceof Date ? instant.getTime() : instant;
  if (!Number.isFinite(ms)) throw new RangeError(`Not a valid instant: ${String(instant)}`);
  return ms;
}

/**
 * True when the Location's schedule establishes it open at `instant`; false when closed, when
 * the schedule is unknown (no `hours`/`exception_hours`) or invalid.
 * @throws InvalidInstantError for a string that is not RFC 3339 with `Z` or an offset.
 */
export function isOpenAt(location: Location, instant: Instant): boolean {
  return isOpenCompiled(compileSchedule(location), epochMs(instant));
}

/**
 * The first instant strictly after `instant` at which the open/closed state changes (within the
 * next 14 days), with the new state; null when the schedule is unknown/invalid or nothing changes.
 * `at` is written in the Location's own UTC offset.
 */
export function nextChange(location: Location, instant: Instant): StateChange | null {
  return nextChangeCompiled(compileSchedule(location), epochMs(instant));
}

/**
 * Shortest WGS 84 geodesic distance from `point` to the Location, metres, unrounded (the same
 * measure `distance.max` is judged by, R-S4); undefined when the Location has no usable `geo`.
 */
export function distanceFrom(location: Location, point: Geo): number | undefined {
  const geo = location.geo;
  if (geo === undefined || !isUsableGeo(geo)) return undefined;
  if (!isUsableGeo(point)) throw new RangeError(`Not a usable WGS 84 point: ${JSON.stringify(point)}`);
  return geodesicDistanceMeters(point, geo);
}

export type { StateChange };
