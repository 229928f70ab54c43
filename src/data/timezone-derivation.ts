/**
 * The import step that fills in a record's missing `timezone` from its `geo` (timezone-from-geo.ts),
 * run before validation for the formats that never carry a zone and, on request, for ours. A record
 * that states its zone keeps it; a record without usable coordinates gets nothing, so a schedule
 * without either is still rejected by validation ("timezone is required"), never guessed.
 */
import { isPlainObject } from './fields.js';
import { timezoneAt } from './timezone-from-geo.js';

export interface TimezoneDerivation {
  /** The record to validate: `raw` itself, or a copy with the derived `timezone`. */
  raw: unknown;
  /** The zone that was derived, when one was. */
  timezone?: string;
  /** Why the derived zone deserves a look (disputed territory, open sea). */
  note?: string;
}

export function withDerivedTimezone(raw: unknown): TimezoneDerivation {
  if (!isPlainObject(raw) || raw['timezone'] !== undefined) return { raw };
  const geo = raw['geo'];
  if (!isPlainObject(geo)) return { raw };
  const { latitude, longitude } = geo;
  if (typeof latitude !== 'number' || typeof longitude !== 'number') return { raw };
  const derived = timezoneAt(latitude, longitude);
  if (derived === undefined) return { raw };
  const out: TimezoneDerivation = { raw: { ...raw, timezone: derived.timezone }, timezone: derived.timezone };
  if (derived.note !== undefined) out.note = `derived from the coordinates: ${derived.note}`;
  return out;
}
