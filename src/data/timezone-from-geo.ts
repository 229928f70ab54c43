/**
 * IANA time zone of a coordinate, from the time-zone boundary data maintained by the `geo-tz`
 * package (built from timezone-boundary-builder / OpenStreetMap). Import formats whose sources carry
 * coordinates but no zone (OpenStreetMap, schema.org JSON-LD, Google Business Profile sheets) use it;
 * our own formats use it only when asked (`--derive-timezone`), because a typed zone is authoritative.
 *
 * The boundary data is loaded lazily, file by file, by the package itself: the first lookups of an
 * import cost a few milliseconds, later ones in the same region microseconds.
 */
import { find } from 'geo-tz';

export interface DerivedTimezone {
  /** The zone hours are evaluated in. */
  timezone: string;
  /**
   * Why the choice deserves a look in the import report, when it does: the point lies in
   * disputed territory (several zones claim it, the first is used), or at sea, where only a
   * nautical `Etc/GMT±N` zone exists.
   */
  note?: string;
}

/**
 * The zone at `latitude`/`longitude` (WGS 84 degrees), or `undefined` when the coordinate is not
 * a finite point on the globe. Never guesses from anything but the boundary data.
 */
export function timezoneAt(latitude: number, longitude: number): DerivedTimezone | undefined {
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return undefined;
  if (latitude < -90 || latitude > 90 || longitude < -180 || longitude > 180) return undefined;
  const zones = find(latitude, longitude);
  const [first] = zones;
  if (first === undefined) return undefined;
  if (zones.length > 1) {
    return { timezone: first, note: `the point is claimed by ${zones.length} zones (${zones.join(', ')}); ${first} was used` };
  }
  if (first.startsWith('Etc/')) {
    return { timezone: first, note: `the point is at sea: only the nautical zone ${first} applies there` };
  }
  return { timezone: first };
}
