/**
 * Human output of the platform verbs: plain-text tables and the cells that go in them. Times
 * are shown in each Location's own zone with its abbreviation ("open · closes 21:00 EST"),
 * never in the zone of the machine running the CLI; distances in the unit the user typed.
 */
import { DateTime } from 'luxon';
import { geodesicDistanceMeters, isUsableGeo } from '../domain/geodesy.js';
import { compileSchedule, isOpenCompiled, nextChangeCompiled } from '../domain/hours.js';
import type { Geo, Location, PostalAddress } from '../domain/location.js';

export interface Column {
  header: string;
  align?: 'left' | 'right';
  /** Longer cells are cut with an ellipsis. */
  maxWidth?: number;
}

/** Columns separated by two spaces, a header row and a rule; trailing spaces trimmed. */
export function renderTable(columns: readonly Column[], rows: readonly (readonly string[])[]): string {
  const cell = (row: readonly string[], i: number): string => {
    const text = (row[i] ?? '').replace(/\s+/g, ' ');
    const max = columns[i]?.maxWidth;
    return max !== undefined && [...text].length > max ? `${[...text].slice(0, max - 1).join('')}…` : text;
  };
  const cells = rows.map((row) => columns.map((_, i) => cell(row, i)));
  const widths = columns.map((c, i) => Math.max([...c.header].length, ...cells.map((r) => [...(r[i] ?? '')].length)));
  const line = (values: readonly string[]): string =>
    values
      .map((v, i) => {
        const pad = ' '.repeat(Math.max(0, (widths[i] ?? 0) - [...v].length));
        return columns[i]?.align === 'right' ? pad + v : v + pad;
      })
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.header)), line(widths.map((w) => '─'.repeat(w))), ...cells.map(line)].join('\n');
}

/** `850 m`, `1.2 km`, `3.4 mi`. */
export function formatDistance(meters: number, unit: 'm' | 'km' | 'mi' = 'km'): string {
  if (unit === 'mi') return `${(meters / 1609.344).toFixed(meters < 16_093 ? 2 : 1)} mi`;
  if (meters < 1000) return `${Math.round(meters)} m`;
  return `${(meters / 1000).toFixed(meters < 10_000 ? 2 : 1)} km`;
}

/** One line: street, locality, region postal code, country (whatever is present). */
export function formatAddress(address: PostalAddress | undefined): string {
  if (address === undefined) return '';
  const regionLine = [address.address_region, address.postal_code].filter(Boolean).join(' ');
  return [address.street_address, address.extended_address, address.address_locality, regionLine, address.address_country]
    .filter((p) => p !== undefined && p !== '')
    .join(', ');
}

/**
 * The open/closed state at `atMs` and the next change, in the Location's zone:
 * "open · closes 21:00 EST", "closed · opens Tue 09:00 GMT+5:45", "hours unknown".
 */
export function describeHours(location: Location, atMs: number): string {
  if (location.hours === undefined && location.exception_hours === undefined) return 'hours unknown';
  const schedule = compileSchedule(location);
  if (!schedule.valid || schedule.timezone === null) return 'hours invalid';
  const zone = schedule.timezone;
  const open = isOpenCompiled(schedule, atMs);
  const change = nextChangeCompiled(schedule, atMs);
  const state = open ? 'open' : 'closed';
  if (change === null) return `${state} · no change within 14 days`;
  return `${state} · ${open ? 'closes' : 'opens'} ${localTime(change.epochMs, atMs, zone)}`;
}

/** `21:00 EST` on the same local date, `Tue 09:00 EST` within a week, `Mar 9 09:00 EDT` beyond. */
export function localTime(epochMs: number, referenceMs: number, zone: string): string {
  const at = DateTime.fromMillis(epochMs, { zone }).setLocale('en-US');
  const ref = DateTime.fromMillis(referenceMs, { zone }).setLocale('en-US');
  const days = at.startOf('day').diff(ref.startOf('day'), 'days').days;
  const pattern = days < 1 ? 'HH:mm ZZZZ' : days < 7 ? 'ccc HH:mm ZZZZ' : 'LLL d HH:mm ZZZZ';
  return at.toFormat(pattern);
}

export interface LocationTableOptions {
  /** Reference instant for the hours column, ms. */
  atMs: number;
  /** Header of the hours column ("NOW" or the instant). */
  hoursHeader: string;
  /** When given, a distance column from this point. */
  center?: Geo | undefined;
  unit?: 'm' | 'km' | 'mi';
  /** Lookup: which requested ids reached each Location. */
  showInputs?: boolean;
}

export function renderLocations(locations: readonly (Location & { inputs?: { id: string }[] })[], options: LocationTableOptions): string {
  const columns: Column[] = [
    { header: 'NAME', maxWidth: 32 },
    { header: 'ID', maxWidth: 28 },
  ];
  if (options.showInputs === true) columns.push({ header: 'REQUESTED AS', maxWidth: 28 });
  if (options.center !== undefined) columns.push({ header: 'DISTANCE', align: 'right' });
  columns.push({ header: options.hoursHeader, maxWidth: 44 }, { header: 'ADDRESS', maxWidth: 60 });
  const center = options.center;
  const rows = locations.map((l) => {
    const row = [l.name, l.id];
    if (options.showInputs === true) row.push((l.inputs ?? []).map((i) => i.id).join(', '));
    if (center !== undefined) {
      row.push(l.geo !== undefined && isUsableGeo(l.geo) ? formatDistance(geodesicDistanceMeters(center, l.geo), options.unit) : '—');
    }
    row.push(describeHours(l, options.atMs), formatAddress(l.address));
    return row;
  });
  return renderTable(columns, rows);
}
