/**
 * What the console says about one Location at a glance: the map's point panel (address, today's
 * hours, amenities with their descriptions) and a playground result row (distance, open state).
 */
import { geodesicDistanceMeters, isUsableGeo } from '../domain/geodesy.js';
import type { Geo, Location } from '../domain/location.js';
import type { PredicatePlan } from '../domain/predicates.js';
import type { ConsoleLocation } from './dataset.js';
import { hoursStatus, type HoursStatus } from './hours-status.js';
import { weekHours } from './hours-week.js';
import { readableMeters } from './readable.js';

export interface LocationCard {
  id: string;
  name: string;
  address: string | null;
  geo: Geo | null;
  timezone: string | null;
  hours: HoursStatus;
  /** Today's opening in the Location's zone: "08:00–12:00, 13:00–18:00", "closed all day", or null when unknown. */
  today: string | null;
  amenities: { id: string; description: string | null }[];
}

function hhmm(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

export function locationCard(l: ConsoleLocation, amenityText: ReadonlyMap<string, string>, nowMs: number): LocationCard {
  const week = weekHours(l.schedule, nowMs, l.timezone);
  const day = week.days[week.today];
  let today: string | null = null;
  if (day !== undefined && day.known)
    today = day.open.length === 0 ? 'closed all day' : day.open.map(([a, b]) => `${hhmm(a)}–${hhmm(b)}`).join(', ');
  return {
    id: l.id,
    name: l.name,
    address: l.address,
    geo: l.geo,
    timezone: week.timezone,
    hours: week.status,
    today,
    amenities: l.amenities.map((id) => ({ id, description: amenityText.get(id) ?? null })),
  };
}

export interface ResultRow {
  id: string;
  /** From the request's centre (`distance.center`, else `serves.point`), rounded for reading; null without one. */
  distance: string | null;
  distanceMeters: number | null;
  /** Open state at the request's open-at instant, else now. */
  hours: HoursStatus;
}

export function resultRows(
  locations: readonly Location[],
  plan: Pick<PredicatePlan, 'distance' | 'servesPoint' | 'openAtMs'>,
  nowMs: number,
): ResultRow[] {
  const center = plan.distance?.center ?? plan.servesPoint ?? null;
  const at = plan.openAtMs ?? nowMs;
  return locations.map((l) => {
    const d = center !== null && l.geo !== undefined && isUsableGeo(l.geo) ? geodesicDistanceMeters(center, l.geo) : null;
    return {
      id: l.id,
      distance: d === null ? null : readableMeters(d),
      distanceMeters: d,
      hours: hoursStatus(l, l.timezone ?? null, at, nowMs),
    };
  });
}

/** How many Locations are in each time zone. */
export function zoneCounts(locations: readonly ConsoleLocation[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const l of locations) if (l.timezone !== null) counts.set(l.timezone, (counts.get(l.timezone) ?? 0) + 1);
  return counts;
}
