import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAYS, type DailyHour, type ExceptionHour } from '../domain/location.js';
import {
  formatAmenities,
  formatExceptions,
  formatHours,
  formatList,
  formatPerCountry,
  parseAmenities,
  parseExceptions,
  parseHours,
  parseList,
  parsePerCountry,
} from './compact-syntax.js';

const hhmm = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
const date = fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
/** Trimmed, non-empty text; the syntaxes trim items, so only such text round-trips. */
const text = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', '|', '\\', ';', '"', '=', ':', ',', '-', 'é', '🎄'), minLength: 1, maxLength: 12 }).filter((s) => s.trim() === s && s !== '');

describe('hours cell syntax', () => {
  it('reads the documented example: split shift, day range and an overnight interval (R-H1)', () => {
    expect(parseHours('mon 09:00-12:00,13:00-17:00; tue-fri 09:00-21:00; sat 22:00-02:00')).toEqual({
      value: [
        { day: 'monday', opens: '09:00', closes: '12:00' },
        { day: 'monday', opens: '13:00', closes: '17:00' },
        ...['tuesday', 'wednesday', 'thursday', 'friday'].map((day) => ({ day, opens: '09:00', closes: '21:00' })),
        { day: 'saturday', opens: '22:00', closes: '02:00' },
      ],
    });
  });

  it('accepts full day names, day lists, wrapping ranges, "daily" and "closed" (= known, no regular opening, R-H2)', () => {
    expect(parseHours('Saturday,sun 10:00-16:00')).toEqual({ value: [{ day: 'saturday', opens: '10:00', closes: '16:00' }, { day: 'sunday', opens: '10:00', closes: '16:00' }] });
    expect(parseHours('fri-mon 08:00-20:00')).toMatchObject({ value: [{ day: 'friday' }, { day: 'saturday' }, { day: 'sunday' }, { day: 'monday' }] });
    expect(parseHours('daily 00:00-23:59')).toMatchObject({ value: DAYS.map((day) => ({ day })) });
    expect(parseHours('closed')).toEqual({ value: [] });
  });

  it('names the segment of a syntax error', () => {
    expect(parseHours('mon 09:00-17:00; funday 10:00-12:00')).toEqual({ error: expect.stringContaining('"funday"') as unknown });
    expect(parseHours('mon 09:00')).toEqual({ error: expect.stringContaining('"09:00" is not an interval') as unknown });
    expect(parseHours('09:00-17:00')).toEqual({ error: expect.stringContaining('needs days and intervals') as unknown });
  });

  it('formats compactly and parses back to the same entries in the same order (property)', () => {
    const entry = fc.record({ day: fc.constantFrom(...DAYS), opens: hhmm, closes: hhmm });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 12 }), (hours: DailyHour[]) => {
        expect(parseHours(formatHours(hours))).toEqual({ value: hours });
      }),
      { numRuns: 500 },
    );
    expect(formatHours([{ day: 'monday', opens: '09:00', closes: '12:00' }, { day: 'monday', opens: '13:00', closes: '17:00' }, { day: 'tuesday', opens: '09:00', closes: '21:00' }, { day: 'wednesday', opens: '09:00', closes: '21:00' }])).toBe(
      'mon 09:00-12:00,13:00-17:00; tue-wed 09:00-21:00',
    );
  });
});

describe('exception_hours cell syntax', () => {
  it('reads the documented example: closures, a titled timed day and a multi-day range (R-H4)', () => {
    expect(parseExceptions('2026-12-25 closed; 2026-12-24 09:00-14:00 "Christmas Eve"; 2026-12-31..2027-01-01 closed')).toEqual({
      value: [
        { valid_from: '2026-12-25', valid_through: '2026-12-25' },
        { title: 'Christmas Eve', valid_from: '2026-12-24', valid_through: '2026-12-24', opens: '09:00', closes: '14:00' },
        { valid_from: '2026-12-31', valid_through: '2027-01-01' },
      ],
    });
  });

  it('expands several intervals on one range into split shifts with identical bounds, and keeps ";" inside titles', () => {
    expect(parseExceptions('2027-01-01 00:00-02:00,08:00-20:00 "New Year; late \\"open\\""')).toEqual({
      value: [
        { title: 'New Year; late "open"', valid_from: '2027-01-01', valid_through: '2027-01-01', opens: '00:00', closes: '02:00' },
        { title: 'New Year; late "open"', valid_from: '2027-01-01', valid_through: '2027-01-01', opens: '08:00', closes: '20:00' },
      ],
    });
  });

  it('rejects an unquoted title and an unclosed quote', () => {
    expect(parseExceptions('2026-12-25 closed Christmas')).toHaveProperty('error');
    expect(parseExceptions('2026-12-25 closed "Christmas')).toEqual({ error: expect.stringContaining('no closing quote') as unknown });
  });

  it('formats and parses back to the same entries (property)', () => {
    const timedOrClosed = fc.oneof(
      fc.record({ valid_from: date, valid_through: date }, { requiredKeys: ['valid_from', 'valid_through'] }),
      fc.record({ valid_from: date, valid_through: date, opens: hhmm, closes: hhmm }),
    );
    const entry = fc.tuple(timedOrClosed, fc.option(fc.string({ maxLength: 10 }), { nil: undefined })).map(([e, title]): ExceptionHour => (title === undefined ? e : { title, ...e }));
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 8 }), (list) => {
        expect(parseExceptions(formatExceptions(list))).toEqual({ value: list });
      }),
      { numRuns: 500 },
    );
  });
});

describe('list, amenity and per-country cell syntax', () => {
  it('lists split on "|" with backslash escapes and reject empty items', () => {
    expect(parseList('a|b\\|c|d\\\\')).toEqual({ value: ['a', 'b|c', 'd\\'] });
    expect(parseList('a||b')).toEqual({ error: expect.stringContaining('item 2') as unknown });
  });

  it('amenities read id=Description and reject a missing description or a repeated id', () => {
    expect(parseAmenities('dev.ucp.amenity.parking=Parking|dev.ucp.amenity.wi_fi=Free Wi-Fi = fast')).toEqual({
      value: { 'dev.ucp.amenity.parking': { description: 'Parking' }, 'dev.ucp.amenity.wi_fi': { description: 'Free Wi-Fi = fast' } },
    });
    expect(parseAmenities('dev.ucp.amenity.parking')).toHaveProperty('error');
    expect(parseAmenities('a.b=X|a.b=Y')).toEqual({ error: expect.stringContaining('listed twice') as unknown });
  });

  it('per-country lists group values by country in first-seen order', () => {
    expect(parsePerCountry('US:NY|US:NJ|CA:ON')).toEqual({ value: { US: ['NY', 'NJ'], CA: ['ON'] } });
    expect(parsePerCountry('NY')).toEqual({ error: expect.stringContaining('COUNTRY:value') as unknown });
  });

  it('all three round-trip arbitrary text (property)', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 5 }), (items) => {
        expect(parseList(formatList(items))).toEqual({ value: items });
      }),
    );
    const amenityId = fc.stringMatching(/^[a-z]{1,5}\.[a-z_]{1,6}(\.[a-z_]{1,6})?$/);
    fc.assert(
      fc.property(fc.dictionary(amenityId, text.map((description) => ({ description })), { minKeys: 1, maxKeys: 4 }), (amenities) => {
        expect(parseAmenities(formatAmenities(amenities))).toEqual({ value: amenities });
      }),
    );
    const values = fc.array(text.filter((s) => !s.startsWith(':')), { minLength: 1, maxLength: 3 });
    fc.assert(
      fc.property(fc.dictionary(fc.stringMatching(/^[A-Z]{2}$/), values, { minKeys: 1, maxKeys: 3 }), (map) => {
        expect(parsePerCountry(formatPerCountry(map))).toEqual({ value: map });
      }),
    );
  });
});
