/**
 * Strict RFC 3339 instant parsing for `filters.hours.open_at` (R-S6).
 *
 * Only the `date-time` production is accepted: `YYYY-MM-DDTHH:MM:SS[.frac](Z|z|±HH:MM)`.
 * The offset only identifies the instant; it never chooses the zone used for evaluation.
 */
import { InvalidInstantError } from '../errors.js';

// Shape only; calendar validity (Feb 30, hour 24, ...) is checked below.
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

const EXAMPLE = 'e.g. 2026-11-30T10:00:00-08:00 or 2026-11-30T18:00:00Z';

function fail(input: string, why: string): never {
  throw new InvalidInstantError(
    input,
    `Invalid instant ${JSON.stringify(input)}: ${why} (expected an RFC 3339 date-time with 'Z' or a numeric ±HH:MM offset, ${EXAMPLE})`,
  );
}

/** Explains the most likely mistake for a string that does not have the RFC 3339 shape. */
function shapeProblem(input: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(input)) return 'a date alone is not an instant; add a time and an offset';
  if (/^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(input)) {
    return 'it has no offset, so it does not identify an instant; append Z or a ±HH:MM offset';
  }
  if (/^\d{4}-\d{2}-\d{2} /.test(input)) return "date and time must be separated by 'T'";
  if (/^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}(?:[Zz]|[+-])/.test(input)) return 'seconds are required (HH:MM:SS)';
  if (/[+-]\d{4}$/.test(input) || /[+-]\d{2}$/.test(input)) return 'the offset must be written as ±HH:MM';
  if (/[+-]\d{2}:\d{2}:\d{2}$/.test(input)) return 'offsets with seconds are not allowed; use ±HH:MM';
  if (/\[.*\]$/.test(input)) return 'zone annotations like [Europe/Berlin] are not allowed';
  return 'not an RFC 3339 date-time';
}

/**
 * Epoch milliseconds of an RFC 3339 instant with `Z`/`z` or a numeric `±HH:MM` offset.
 *
 * Digits beyond milliseconds are truncated (floored in time). This never changes an
 * opening-hours answer: every schedule boundary falls on a whole millisecond `b`, and for
 * such `b`, `t >= b` ⇔ `floor(t) >= b`. Rounding could cross a boundary, so it is never done.
 *
 * @throws InvalidInstantError on anything else: missing offset, `T` replaced by a space,
 *   impossible calendar dates (2026-02-30), hour 24, minute/second 60 (leap seconds cannot be
 *   represented without shifting the instant), offsets beyond ±23:59.
 */
export function parseInstant(openAt: string): number {
  if (typeof openAt !== 'string') fail(String(openAt), 'it must be a string');
  const m = RFC3339.exec(openAt);
  if (m === null) fail(openAt, shapeProblem(openAt));
  const [, y, mo, d, h, mi, s, frac, z, sign, oh, om] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12) fail(openAt, `month ${mo} is not 01-12`);
  if (hour > 23) fail(openAt, `hour ${h} is not 00-23 (write 24:00 as 00:00 of the next day)`);
  if (minute > 59) fail(openAt, `minute ${mi} is not 00-59`);
  if (second === 60) fail(openAt, 'leap seconds (second 60) cannot be evaluated without shifting the instant');
  if (second > 59) fail(openAt, `second ${s} is not 00-59`);
  let offsetMinutes = 0;
  if (z === undefined) {
    const offH = Number(oh);
    const offM = Number(om);
    if (offH > 23 || offM > 59) fail(openAt, `offset ${sign}${oh}:${om} is out of range (max ±23:59)`);
    offsetMinutes = (sign === '-' ? -1 : 1) * (offH * 60 + offM);
  }
  // Truncate extra fraction digits: see the doc comment for why this is not a rounding.
  const millisecond = frac === undefined ? 0 : Number(frac.slice(0, 3).padEnd(3, '0'));
  if (day < 1 || day > daysInMonth(year, month)) fail(openAt, `${y}-${mo}-${d} is not a calendar date`);
  // Plain arithmetic on the proleptic Gregorian calendar (every request parses one instant; a
  // date library's object here cost more than the rest of a small search's predicate plan).
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  at.setUTCHours(hour, minute, second, millisecond);
  return at.getTime() - offsetMinutes * 60_000;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
