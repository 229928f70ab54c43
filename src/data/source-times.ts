/**
 * Times of day and dates as other formats write them (schema.org JSON-LD, Google Business Profile
 * sheets), turned into UCP's `HH:MM` and `YYYY-MM-DD` exactly, or refused with the reason. Nothing
 * here rounds: a time UCP cannot hold (seconds other than :00) is reported as inexpressible, so
 * the caller can leave the schedule out rather than approximate it.
 */
import { group } from './match-group.js';

/** A read value, a malformed one (`error`: the author must fix it) or a valid one UCP cannot hold. */
export type Read<T> = { value: T } | { error: string } | { inexpressible: string };

const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;

/**
 * `H:MM`, `HH:MM` or `HH:MM:SS` (24-hour) → `HH:MM`; `24:00` stays `24:00` for `interval` to
 * resolve. `23:59:59` reads as `23:59`, the end-of-day spelling UCP uses; other seconds cannot be held.
 */
export function readTime(text: string): Read<string> {
  const m = TIME.exec(text.trim());
  if (m === null) return { error: `${JSON.stringify(text)} is not a 24-hour time HH:MM` };
  const hour = Number(m[1]);
  const minute = Number(m[2]);
  const second = m[3] === undefined ? 0 : Number(m[3]);
  if (hour > 24 || minute > 59 || second > 59 || (hour === 24 && (minute > 0 || second > 0))) {
    return { error: `${JSON.stringify(text)} is not a time of day (00:00-24:00)` };
  }
  const hhmm = `${String(hour).padStart(2, '0')}:${group(m, 2)}`;
  if (second !== 0 && hhmm !== '23:59') return { inexpressible: `${JSON.stringify(text)} has seconds; UCP hours have minute precision` };
  return { value: hhmm };
}

/** An opening interval in UCP terms, or a day closed throughout. */
export type Interval = { opens: string; closes: string } | { closed: true };

/**
 * Two read times → a UCP interval. `24:00` as closing time is midnight at the end of the day:
 * `00:00`–`24:00` is the whole day (UCP `00:00`–`23:59`), any other `X`–`24:00` becomes `X`–`00:00`,
 * which UCP reads as running up to the next midnight — the same instants. `closesEarlier` intervals
 * run past midnight as in UCP. `00:00`–`00:00` is a closed day only where the format says so
 * (`zeroZeroIsClosed`, schema.org as search engines document it); other equal pairs are errors.
 */
export function interval(opens: string, closes: string, zeroZeroIsClosed: boolean): Read<Interval> {
  if (opens === '24:00') return { error: 'an interval cannot open at 24:00; write 00:00' };
  if (closes === '24:00') return { value: opens === '00:00' ? { opens: '00:00', closes: '23:59' } : { opens, closes: '00:00' } };
  if (opens === closes) {
    if (opens === '00:00' && zeroZeroIsClosed) return { value: { closed: true } };
    return { error: `opens and closes are both ${opens}; for a whole day write 00:00-23:59` };
  }
  return { value: { opens, closes } };
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `YYYY-MM-DD` that names a real calendar date, or an error. */
export function readDate(text: string): Read<string> {
  const m = DATE.exec(text.trim());
  if (m === null) return { error: `${JSON.stringify(text)} is not a date YYYY-MM-DD` };
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const probe = new Date(Date.UTC(y, mo - 1, d));
  if (probe.getUTCFullYear() !== y || probe.getUTCMonth() !== mo - 1 || probe.getUTCDate() !== d) {
    return { error: `${JSON.stringify(text)} is not a calendar date` };
  }
  return { value: text.trim() };
}
