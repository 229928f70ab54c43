import { describe, expect, it } from 'vitest';
import type { Schedule } from './location.js';
import { isDailyHour, isExceptionHour, parseLocalDate, parseLocalTime, validateSchedule } from './hours-validate.js';

const TZ = 'America/Los_Angeles';
/** Raw JSON as an importer would see it: runtime types are not trusted. */
const raw = (v: unknown): Schedule => v as Schedule;
const fields = (s: Schedule): string[] => validateSchedule(s).map((p) => p.field);

describe('validateSchedule', () => {
  it('accepts valid schedules, including unknown and empty ones (R-H2, R-H5)', () => {
    expect(validateSchedule({})).toEqual([]);
    expect(validateSchedule({ timezone: TZ })).toEqual([]);
    expect(validateSchedule({ timezone: TZ, hours: [] })).toEqual([]);
    expect(
      validateSchedule({
        timezone: TZ,
        hours: [
          { day: 'monday', opens: '09:00', closes: '12:00' },
          { day: 'monday', opens: '13:00', closes: '02:00' },
          { day: 'sunday', opens: '00:00', closes: '23:59' },
        ],
        exception_hours: [
          { valid_from: '2026-12-24', valid_through: '2026-12-26', opens: '10:00', closes: '14:00', title: 'Holiday hours' },
          { valid_from: '2026-12-24', valid_through: '2026-12-26', opens: '16:00', closes: '18:00' },
          { valid_from: '2026-12-27', valid_through: '2026-12-27' },
          { valid_from: '2027-01-01', valid_through: '2027-01-01' },
        ],
      }),
    ).toEqual([]);
  });

  it('requires timezone whenever hours or exception_hours is present (R-H5)', () => {
    expect(validateSchedule({ hours: [] })).toEqual([{ field: 'timezone', message: expect.stringMatching(/required.*IANA/) }]);
    expect(fields({ exception_hours: [] })).toEqual(['timezone']);
  });

  it('rejects unknown zones and wrong runtime types of timezone (R-H5)', () => {
    expect(validateSchedule({ timezone: 'Mars/Base', hours: [] })[0]?.message).toMatch(/not an IANA time zone identifier/);
    expect(validateSchedule({ timezone: '+02:00', hours: [] })[0]?.field).toBe('timezone');
    expect(validateSchedule(raw({ timezone: 5, hours: [] }))[0]?.message).toMatch(/must be a string/);
  });

  it('reports malformed times with the entry path (R-H1)', () => {
    const problems = validateSchedule(
      raw({
        timezone: TZ,
        hours: [
          { day: 'monday', opens: '09:00', closes: '17:00' },
          { day: 'tuesday', opens: '9:00', closes: '17:00' },
          { day: 'wednesday', opens: '09:00', closes: '24:00' },
          { day: 'thursday', opens: '09:00' },
          { day: 'friday', opens: '09:00:00', closes: 1700 },
        ],
      }),
    );
    expect(problems).toEqual([
      { field: 'hours[1].opens', message: expect.stringMatching(/two hour digits, e\.g\. 09:00/) },
      { field: 'hours[2].closes', message: expect.stringMatching(/"24:00" is not allowed/) },
      { field: 'hours[3].closes', message: expect.stringMatching(/missing/) },
      { field: 'hours[4].opens', message: expect.stringMatching(/not a 24-hour local time/) },
      { field: 'hours[4].closes', message: expect.stringMatching(/not a 24-hour local time/) },
    ]);
  });

  it('rejects opens == closes, including 00:00-00:00 (R-H1)', () => {
    const problems = validateSchedule({
      timezone: TZ,
      hours: [
        { day: 'monday', opens: '09:00', closes: '09:00' },
        { day: 'tuesday', opens: '00:00', closes: '00:00' },
      ],
      exception_hours: [{ valid_from: '2026-12-24', valid_through: '2026-12-24', opens: '10:00', closes: '10:00' }],
    });
    expect(problems.map((p) => p.field)).toEqual(['hours[0].closes', 'hours[1].closes', 'exception_hours[0].closes']);
    expect(problems[1]?.message).toMatch(/00:00-23:59 for a whole day/);
  });

  it('rejects unknown or mis-cased day names (R-H1)', () => {
    const problems = validateSchedule(
      raw({
        timezone: TZ,
        hours: [
          { day: 'Monday', opens: '09:00', closes: '17:00' },
          { opens: '09:00', closes: '17:00' },
        ],
      }),
    );
    expect(problems).toEqual([
      { field: 'hours[0].day', message: expect.stringMatching(/"Monday" is not valid; use one of monday, tuesday/) },
      { field: 'hours[1].day', message: expect.stringMatching(/is missing/) },
    ]);
  });

  it('rejects non-array hours / exception_hours and non-object entries', () => {
    expect(fields(raw({ timezone: TZ, hours: {} }))).toEqual(['hours']);
    expect(fields(raw({ timezone: TZ, exception_hours: 'none' }))).toEqual(['exception_hours']);
    expect(fields(raw({ timezone: TZ, hours: [null], exception_hours: [7] }))).toEqual(['hours[0]', 'exception_hours[0]']);
    expect(fields(raw(null))).toEqual(['']);
  });

  it('rejects an exception with only one of opens/closes (R-H4)', () => {
    const problems = validateSchedule({
      timezone: TZ,
      exception_hours: [{ valid_from: '2026-12-24', valid_through: '2026-12-24', closes: '14:00' }],
    });
    expect(problems).toEqual([
      {
        field: 'exception_hours[0].opens',
        message: expect.stringMatching(/give both for a timed exception, or neither for a full closure/),
      },
    ]);
  });

  it('rejects bad dates and valid_from after valid_through (R-H4)', () => {
    const problems = validateSchedule(
      raw({
        timezone: TZ,
        exception_hours: [
          { valid_from: '2026-02-30', valid_through: '2026-03-01' },
          { valid_from: '2026-12-26', valid_through: '2026-12-24' },
          { valid_from: '12/24/2026' },
          { valid_from: '2027-01-01', valid_through: '2027-01-01', title: 3 },
        ],
      }),
    );
    expect(problems).toEqual([
      { field: 'exception_hours[0].valid_from', message: expect.stringMatching(/not a calendar date/) },
      { field: 'exception_hours[1].valid_through', message: expect.stringMatching(/before valid_from.*inclusive/) },
      { field: 'exception_hours[2].valid_from', message: expect.stringMatching(/not a local date YYYY-MM-DD/) },
      { field: 'exception_hours[2].valid_through', message: expect.stringMatching(/missing/) },
      { field: 'exception_hours[3].title', message: expect.stringMatching(/must be a string/) },
    ]);
  });

  it('rejects intersecting non-identical exception ranges, including containment (R-H4)', () => {
    const overlap = validateSchedule({
      timezone: TZ,
      exception_hours: [
        { valid_from: '2026-12-24', valid_through: '2026-12-26', opens: '10:00', closes: '14:00' },
        { valid_from: '2026-12-26', valid_through: '2026-12-27' },
      ],
    });
    expect(overlap).toEqual([
      {
        field: 'exception_hours[1]',
        message: expect.stringMatching(/2026-12-26\.\.2026-12-27 intersect exception_hours\[0\] \(2026-12-24\.\.2026-12-26\)/),
      },
    ]);
    const contained = validateSchedule({
      timezone: TZ,
      exception_hours: [
        { valid_from: '2026-12-25', valid_through: '2026-12-25' },
        { valid_from: '2026-12-01', valid_through: '2026-12-31', opens: '10:00', closes: '14:00' },
        { valid_from: '2027-01-05', valid_through: '2027-01-05' },
      ],
    });
    expect(contained.map((p) => p.field)).toEqual(['exception_hours[0]']);
    // Adjacent ranges do not intersect.
    expect(
      validateSchedule({
        timezone: TZ,
        exception_hours: [
          { valid_from: '2026-12-24', valid_through: '2026-12-25' },
          { valid_from: '2026-12-26', valid_through: '2026-12-26' },
        ],
      }),
    ).toEqual([]);
  });

  it('requires a full closure to stand alone for its bounds (R-H4)', () => {
    const problems = validateSchedule({
      timezone: TZ,
      exception_hours: [
        { valid_from: '2026-12-25', valid_through: '2026-12-25', opens: '10:00', closes: '14:00' },
        { valid_from: '2026-12-25', valid_through: '2026-12-25', title: 'Closed' },
      ],
    });
    expect(problems).toEqual([
      {
        field: 'exception_hours[1]',
        message: expect.stringMatching(/exception_hours\[1\] is a full closure.*must stand alone.*exception_hours\[0\]/),
      },
    ]);
  });
});

describe('parseLocalTime / parseLocalDate', () => {
  it('parses HH:MM into ms after midnight and dates into day indexes', () => {
    expect(parseLocalTime('00:00')).toBe(0);
    expect(parseLocalTime('23:59')).toBe((23 * 60 + 59) * 60_000);
    expect(parseLocalTime('24:00')).toBeNull();
    expect(parseLocalTime('7:00')).toBeNull();
    expect(parseLocalDate('1970-01-02')).toBe(1);
    expect(parseLocalDate('1969-12-31')).toBe(-1);
    expect(parseLocalDate('2024-02-29')).toBe(19782);
    expect(parseLocalDate('2023-02-29')).toBeNull();
  });
});

describe('isDailyHour / isExceptionHour (the guards behind typed schedules)', () => {
  const HOURS: unknown[] = [
    { day: 'monday', opens: '09:00', closes: '17:00' },
    { day: 'sunday', opens: '22:00', closes: '02:00' },
    { day: 'Monday', opens: '09:00', closes: '17:00' },
    { day: 'friday', opens: '9:00', closes: '17:00' },
    { day: 'friday', opens: '10:00', closes: '10:00' },
    { day: 'friday', opens: '10:00' },
    null,
    'mon',
  ];
  const EXCEPTIONS: unknown[] = [
    { valid_from: '2026-12-25', valid_through: '2026-12-25' },
    { valid_from: '2026-12-24', valid_through: '2026-12-24', opens: '09:00', closes: '13:00', title: 'Eve' },
    { valid_from: '2026-02-30', valid_through: '2026-03-01' },
    { valid_from: '2026-03-02', valid_through: '2026-03-01' },
    { valid_from: '2026-12-25', valid_through: '2026-12-25', opens: '09:00' },
    { valid_from: '2026-12-25', valid_through: '2026-12-25', title: 7 },
    { valid_from: '2026-12-25', valid_through: '2026-12-25', opens: '09:00', closes: '09:00' },
    [],
  ];

  it('accepts exactly the entries validateSchedule accepts (R-H1, R-H4)', () => {
    for (const entry of HOURS) {
      expect(isDailyHour(entry), JSON.stringify(entry)).toBe(validateSchedule({ timezone: 'UTC', hours: [entry] }).length === 0);
    }
    for (const entry of EXCEPTIONS) {
      expect(isExceptionHour(entry), JSON.stringify(entry)).toBe(
        validateSchedule({ timezone: 'UTC', exception_hours: [entry] }).length === 0,
      );
    }
  });
});
