/**
 * Filters the bridge applies itself, on the Locations a business returned, because no single
 * request to a business can express them (#26):
 *
 *  - `open_at` as a local wall time ("2026-12-06T10:00"): one instant per Location — that wall time
 *    in the Location's own zone — evaluated with the domain's hours evaluator (the one a Business
 *    uses) on the hours and exceptions the business returned. A wall time that does not exist in
 *    the zone (inside a spring-forward gap) matches nothing (R-H3), a Location without a usable
 *    schedule is never open (R-S6).
 *  - amenity labels ("wheelchair accessible"): different businesses name one feature with different
 *    ids, so a label is matched per Location against each amenity's description (as returned now,
 *    or in another language earlier) and the last segment of its id, after normalising case,
 *    spaces, `_` and `-`.
 */
import { DateTime } from 'luxon';
import { compileSchedule, isOpenCompiled } from '../domain/hours.js';
import type { Location } from '../domain/location.js';

/** The instant `wall` (`YYYY-MM-DDTHH:MM`) names in the Location's zone, or undefined when it names none. */
export function wallTimeInstant(location: Location, wall: string): number | undefined {
  if (location.timezone === undefined) return undefined;
  const local = DateTime.fromISO(wall, { zone: location.timezone });
  // Luxon moves a time inside a DST gap forward; such a label names no instant (R-H3).
  if (!local.isValid || local.toFormat("yyyy-MM-dd'T'HH:mm") !== wall) return undefined;
  return local.toMillis();
}

/** Whether the Location is open at wall time `wall` in its own zone. */
export function openAtWallTime(location: Location, wall: string): boolean {
  const at = wallTimeInstant(location, wall);
  if (at === undefined) return false;
  const compiled = compileSchedule(location);
  return compiled.valid && isOpenCompiled(compiled, at);
}

/** "Wheelchair-Accessible", "wheelchair_accessible", " wheelchair  accessible " → "wheelchair accessible". */
export function normaliseLabel(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ')
    .trim();
}

/**
 * The Location's amenity ids that `label` names: by its description now, by a description seen
 * for the same id earlier (`known`, per id, any language), or by the id's last segment.
 */
export function idsForLabel(location: Location, label: string, known: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const wanted = normaliseLabel(label);
  return Object.entries(location.amenities ?? {})
    .filter(([id, amenity]) => {
      if (normaliseLabel(amenity.description) === wanted) return true;
      if (normaliseLabel(id.slice(id.lastIndexOf('.') + 1)) === wanted) return true;
      for (const description of known.get(id) ?? []) if (normaliseLabel(description) === wanted) return true;
      return false;
    })
    .map(([id]) => id);
}
