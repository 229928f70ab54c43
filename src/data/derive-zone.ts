/**
 * The `timezone` of a record converted from a format that has none (schema.org JSON-LD, Google
 * Business Profile sheets): derived from its `geo` through the time-zone boundary data
 * (timezone-from-geo.ts). A record with opening hours but no coordinates is an error — a zone is
 * never guessed from an address or a country, which can span several zones.
 */
import type { FieldIssue } from './issues.js';
import { timezoneAt } from './timezone-from-geo.js';

/** How the source names the parts involved, for messages. */
export interface ZoneFields {
  /** Where the coordinates come from (`geo`, `Latitude`). */
  geo: string;
  /** Where the opening hours come from (`openingHoursSpecification`, `Monday hours`…). */
  hours: string;
  /** What the author can add to give the zone instead (for the error's advice). */
  remedy: string;
}

/**
 * Sets `raw.timezone` from `raw.geo` when the record has none. Points in disputed territory or at
 * sea get a warning naming the zone chosen. Pushes an error when the record has a schedule and no
 * coordinates at all (`geoGiven` false: coordinates that were given but unreadable are already
 * reported). A schedule left without a zone is dropped from `raw`, so record validation does not
 * report the missing zone a second time.
 */
export function deriveZone(raw: Record<string, unknown>, fields: ZoneFields, geoGiven: boolean, issues: FieldIssue[], warnings: FieldIssue[]): void {
  if (raw['timezone'] !== undefined) return;
  const hasSchedule = raw['hours'] !== undefined || raw['exception_hours'] !== undefined;
  const geo = raw['geo'] as { latitude?: unknown; longitude?: unknown } | undefined;
  if (geo !== undefined) {
    const { latitude, longitude } = geo;
    // Out-of-range or non-numeric coordinates are reported by record validation.
    if (typeof latitude !== 'number' || typeof longitude !== 'number') return;
    const derived = timezoneAt(latitude, longitude);
    if (derived === undefined) return;
    raw['timezone'] = derived.timezone;
    if (derived.note !== undefined) warnings.push({ field: fields.geo, message: `time zone ${derived.timezone} derived from the coordinates: ${derived.note}` });
    return;
  }
  if (!hasSchedule) return;
  delete raw['hours'];
  delete raw['exception_hours'];
  if (!geoGiven) {
    issues.push({
      field: fields.hours,
      message: `the record has opening hours but no coordinates, so its time zone cannot be derived (it is never guessed); ${fields.remedy}`,
    });
  }
}
