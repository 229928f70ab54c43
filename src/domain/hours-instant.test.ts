import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DateTime, FixedOffsetZone } from 'luxon';
import { InvalidInstantError } from '../errors.js';
import { parseInstant } from './hours-instant.js';

describe('parseInstant', () => {
  it('reads Z, z and numeric offsets as the same instant (R-S6)', () => {
    const utc = Date.UTC(2026, 10, 30, 18, 0, 0);
    expect(parseInstant('2026-11-30T18:00:00Z')).toBe(utc);
    expect(parseInstant('2026-11-30t18:00:00z')).toBe(utc);
    expect(parseInstant('2026-11-30T10:00:00-08:00')).toBe(utc);
    expect(parseInstant('2026-12-01T03:30:00+09:30')).toBe(utc);
    expect(parseInstant('2026-11-30T18:00:00-00:00')).toBe(utc);
    expect(parseInstant('2026-12-01T17:59:00+23:59')).toBe(utc);
    expect(parseInstant('2026-11-29T18:01:00-23:59')).toBe(utc);
  });

  it('keeps milliseconds and truncates finer digits without rounding up across a boundary (R-S6)', () => {
    expect(parseInstant('2026-11-30T16:59:59.5Z')).toBe(Date.UTC(2026, 10, 30, 16, 59, 59, 500));
    expect(parseInstant('2026-11-30T16:59:59.999999999Z')).toBe(Date.UTC(2026, 10, 30, 16, 59, 59, 999));
    // Before 1970 truncation must still move towards the past (floor), not towards zero.
    expect(parseInstant('1969-12-31T23:59:59.9999Z')).toBe(-1);
  });

  it('accepts leap days and rejects impossible calendar dates (R-S6)', () => {
    expect(parseInstant('2024-02-29T00:00:00Z')).toBe(Date.UTC(2024, 1, 29));
    for (const bad of [
      '2025-02-29T00:00:00Z',
      '2026-02-30T10:00:00Z',
      '2026-04-31T10:00:00Z',
      '2026-13-01T10:00:00Z',
      '2026-00-10T10:00:00Z',
      '2026-01-00T10:00:00Z',
    ]) {
      expect(() => parseInstant(bad), bad).toThrow(/not a calendar date|month/);
    }
  });

  it.each([
    ['2026-11-30T10:00:00', /no offset/],
    ['2026-11-30', /date alone/],
    ['2026-11-30T24:00:00Z', /hour 24/],
    ['2026-11-30T10:60:00Z', /minute 60/],
    ['2026-12-31T23:59:60Z', /leap second/],
    ['2026-11-30 10:00:00Z', /separated by 'T'/],
    ['2026-11-30T10:00Z', /seconds are required/],
    ['2026-11-30T10:00:00+0800', /±HH:MM/],
    ['2026-11-30T10:00:00+08', /±HH:MM/],
    ['2026-11-30T10:00:00+24:00', /out of range/],
    ['2026-11-30T10:00:00+05:60', /out of range/],
    ['2026-11-30T10:00:00+05:30:15', /seconds are not allowed/],
    ['2026-11-30T10:00:00Z[Europe/Berlin]', /annotations/],
    ['2026-11-30T10:00:00.Z', /RFC 3339/],
    [' 2026-11-30T10:00:00Z', /RFC 3339/],
    ['+002026-11-30T10:00:00Z', /RFC 3339/],
    ['', /RFC 3339/],
    ['now', /RFC 3339/],
  ])('rejects %j with an actionable InvalidInstantError (R-S6)', (input, why) => {
    let caught: unknown;
    try {
      parseInstant(input);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(InvalidInstantError);
    const err = caught as InvalidInstantError;
    expect(err.code).toBe('invalid_instant');
    expect(err.input).toBe(input);
    expect(err.message).toMatch(why);
    expect(err.message).toMatch(/e\.g\. 2026-11-30T10:00:00-08:00/);
  });

  it('rejects non-string input', () => {
    expect(() => parseInstant(1_700_000_000_000 as unknown as string)).toThrow(InvalidInstantError);
  });

  it('round-trips every instant written with any offset (R-S6, property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1, 0, 2), max: Date.UTC(9999, 11, 30) }),
        fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
        (t, offsetMinutes) => {
          const text = DateTime.fromMillis(t, { zone: FixedOffsetZone.instance(offsetMinutes) }).toISO();
          expect(text).not.toBeNull();
          expect(parseInstant(text as string)).toBe(t);
        },
      ),
      { numRuns: 500 },
    );
  });
});
