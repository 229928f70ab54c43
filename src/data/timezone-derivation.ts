/**
 * Time zones of records whose source has coordinates but no zone (OpenStreetMap, schema.org
 * JSON-LD, Business Profile sheets; ours with --derive-timezone). One path for every format:
 *
 *  - the converters only check that a schedule has something to take its zone from
 *    (`dropScheduleWithoutZoneSource`), and say so in the source's own terms;
 *  - the shared pipeline (pipeline.ts) fills in the missing `timezone` from `geo` before
 *    validation (`withDerivedTimezone`), counts the zones chosen for the report, and turns a
 *    doubtful choice (disputed territory, open sea) into a warning — which `--strict` makes an error.
 *
 * A record that states its zone keeps it; a record without usable coordinates gets nothing, so a
 * schedule without either is still rejected ("timezone is required"), never guessed.
 */
import { isPlainObject } from './fields.js';
import type { FieldIssue } from './issues.js';
import { timezoneAt } from './timezone-from-geo.js';

export interface TimezoneDerivation {
  /** The record to validate: `raw` itself, or a copy with the derived `timezone`. */
  raw: unknown;
  /** The zone that was derived, when one was. */
  timezone?: string;
  /** A warning about the derived zone, on the record field `geo`, when it deserves a look. */
  warning?: FieldIssue;
}

export function withDerivedTimezone(raw: unknown): TimezoneDerivation {
  if (!isPlainObject(raw) || raw['timezone'] !== undefined) return { raw };
  const geo = raw['geo'];
  if (!isPlainObject(geo)) return { raw };
  const { latitude, longitude } = geo;
  // Out-of-range or non-numeric coordinates are reported by record validation.
  if (typeof latitude !== 'number' || typeof longitude !== 'number') return { raw };
  const derived = timezoneAt(latitude, longitude);
  if (derived === undefined) return { raw };
  const out: TimezoneDerivation = { raw: { ...raw, timezone: derived.timezone }, timezone: derived.timezone };
  if (derived.note !== undefined) out.warning = { field: 'geo', message: `time zone ${derived.timezone} derived from the coordinates: ${derived.note}` };
  return out;
}

/** How a source format names the parts involved, for the error's message. */
export interface ZoneSourceFields {
  /** Where the opening hours come from (`openingHoursSpecification`, `Monday hours…`). */
  hours: string;
  /** What the author can add to give the zone (the error's advice). */
  remedy: string;
}

/**
 * For a converter: a record with a schedule, no `timezone` and no coordinates at all can get no
 * zone. Its schedule is dropped from `raw` and one error in the source's terms is pushed (unless
 * `geoGiven`: coordinates that were given but unreadable are already reported), so record
 * validation does not report the missing zone a second time.
 */
export function dropScheduleWithoutZoneSource(raw: Record<string, unknown>, fields: ZoneSourceFields, geoGiven: boolean, issues: FieldIssue[]): void {
  if (raw['timezone'] !== undefined || raw['geo'] !== undefined) return;
  if (raw['hours'] === undefined && raw['exception_hours'] === undefined) return;
  delete raw['hours'];
  delete raw['exception_hours'];
  if (!geoGiven) {
    issues.push({
      field: fields.hours,
      message: `the record has opening hours but no coordinates, so its time zone cannot be derived (it is never guessed); ${fields.remedy}`,
    });
  }
}
