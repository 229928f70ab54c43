/**
 * A Location's schedule as a buyer reads it (#26): the regular week in compact form, and the
 * named exceptions coming up. What the model needs to answer "when are they open on Sunday?"
 * or "are they open on Christmas?" from the text alone, without a probe per day.
 *
 *   Mon–Fri 08:00–20:00 · Sat 09:00–14:00 · Sun closed
 *   Daily 07:00–22:00
 *   Open 24 hours
 *   Staff Training Day, Fri 4 Dec: closed · Christmas Eve, Thu 24 Dec: 08:00–14:00
 *
 * Times are the business's own local labels (R-H1: the Location's civil time), so nothing is
 * converted here; dates of exceptions are compared with the local date of the evaluated instant
 * in the Location's zone. Business strings (exception titles) go through `plain`.
 */
import { DateTime } from 'luxon';
import { DAYS, type DailyHour, type ExceptionHour } from '../domain/location.js';
import { plain } from './plain.js';

const SHORT: Record<(typeof DAYS)[number], string> = {
  monday: 'Mon',
  tuesday: 'Tue',
  wednesday: 'Wed',
  thursday: 'Thu',
  friday: 'Fri',
  saturday: 'Sat',
  sunday: 'Sun',
};

/** How far ahead exceptions are named, in days (the same horizon as the next change). */
export const EXCEPTION_HORIZON_DAYS = 14;
/** Most exceptions named; the rest are counted. */
const MAX_EXCEPTIONS_SHOWN = 3;

function isWholeDay(h: { opens?: string | undefined; closes?: string | undefined }): boolean {
  return h.opens === '00:00' && h.closes === '23:59';
}

function span(opens: string, closes: string): string {
  return isWholeDay({ opens, closes }) ? '24 hours' : `${opens}–${closes}`;
}

/** The regular week, or undefined when it is unknown (no `hours`). */
export function compactWeek(hours: readonly DailyHour[] | undefined): string | undefined {
  if (hours === undefined) return undefined;
  if (hours.length === 0) return 'no regular opening hours';
  const perDay = DAYS.map((day) => {
    const intervals = hours
      .filter((h) => h.day === day)
      .map((h) => [h.opens, h.closes] as const)
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return intervals.length === 0 ? 'closed' : intervals.map(([o, c]) => span(o, c)).join(', ');
  });
  if (perDay.every((d) => d === '24 hours')) return 'Open 24 hours';
  if (perDay.every((d) => d === perDay[0])) return `Daily ${perDay[0] ?? ''}`;
  const runs: string[] = [];
  let start = 0;
  for (let i = 1; i <= DAYS.length; i++) {
    if (i < DAYS.length && perDay[i] === perDay[start]) continue;
    const first = SHORT[DAYS[start] ?? 'monday'];
    const last = SHORT[DAYS[i - 1] ?? 'monday'];
    runs.push(`${i - 1 === start ? first : `${first}–${last}`} ${perDay[start] ?? ''}`);
    start = i;
  }
  return runs.join(' · ');
}

/**
 * Exceptions overlapping the `EXCEPTION_HORIZON_DAYS` local dates from `from` on, in date order:
 * "Christmas Day, Fri 25 Dec: 08:00–20:00", "Inventory, Mon 7 Dec–Tue 8 Dec: closed".
 */
export function comingExceptions(exceptions: readonly ExceptionHour[] | undefined, from: DateTime): string[] {
  if (exceptions === undefined || exceptions.length === 0) return [];
  const first = from.startOf('day');
  const horizon = first.plus({ days: EXCEPTION_HORIZON_DAYS - 1 });
  const firstKey = first.toISODate() ?? '';
  const lastKey = horizon.toISODate() ?? '';
  const coming = exceptions
    .filter((e) => e.valid_through >= firstKey && e.valid_from <= lastKey)
    .sort((a, b) => (a.valid_from < b.valid_from ? -1 : a.valid_from > b.valid_from ? 1 : 0));
  const lines = coming.slice(0, MAX_EXCEPTIONS_SHOWN).map((e) => {
    const date = (iso: string): string => DateTime.fromISO(iso, { zone: from.zone }).setLocale('en').toFormat('ccc d LLL');
    const dates = e.valid_from === e.valid_through ? date(e.valid_from) : `${date(e.valid_from)}–${date(e.valid_through)}`;
    const what = e.opens !== undefined && e.closes !== undefined ? span(e.opens, e.closes) : 'closed';
    const title = e.title === undefined ? '' : plain(e.title, 80);
    return `${title === '' ? 'Special hours' : title}, ${dates}: ${what}`;
  });
  if (coming.length > MAX_EXCEPTIONS_SHOWN) lines.push(`${coming.length - MAX_EXCEPTIONS_SHOWN} more`);
  return lines;
}
