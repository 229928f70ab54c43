import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { DAY_MS, ZoneClock, weekdayOfDay, zoneProblem } from './hours-zone.js';

const ZONES = [
  'America/New_York',
  'America/Los_Angeles',
  'Europe/Berlin',
  'Australia/Sydney',
  'Australia/Lord_Howe',
  'America/Santiago',
  'Pacific/Apia',
  'Pacific/Chatham',
  'Asia/Kathmandu',
  'America/St_Johns',
  'Africa/Casablanca',
  'Antarctica/Troll',
  'UTC',
] as const;

/** Local wall-clock fields of an instant, straight from Luxon (the independent reference). */
function luxonFields(t: number, zone: string): number[] {
  const dt = DateTime.fromMillis(t, { zone });
  return [dt.year, dt.month, dt.day, dt.hour, dt.minute, dt.second, dt.millisecond, dt.weekday];
}

/** The same fields read off a ZoneClock label. */
function clockFields(t: number, zone: string): number[] {
  const label = ZoneClock.for(zone).label(t);
  const day = Math.floor(label / DAY_MS);
  const d = DateTime.fromMillis(label, { zone: 'UTC' });
  return [d.year, d.month, d.day, d.hour, d.minute, d.second, d.millisecond, weekdayOfDay(day) + 1];
}

describe('ZoneClock', () => {
  it('gives the local date, weekday and time Luxon gives, for any instant and zone (R-S6, property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2100, 0, 1) }), (zone, t) => {
        expect(clockFields(t, zone)).toEqual(luxonFields(t, zone));
      }),
      { numRuns: 2000 },
    );
  });

  it('locates offset transitions to the exact second (R-H3)', () => {
    // America/New_York, 2026-03-08 02:00 EST → 03:00 EDT happens at 07:00:00Z.
    const ny = ZoneClock.for('America/New_York');
    const jump = Date.UTC(2026, 2, 8, 7, 0, 0);
    expect(ny.offsetMs(jump - 1)).toBe(-5 * 3_600_000);
    expect(ny.offsetMs(jump)).toBe(-4 * 3_600_000);
    expect(ny.span(jump - 60_000).end).toBe(jump);
    // Australia/Lord_Howe moves by 30 minutes: 2026-04-05 02:00 (+11:00) → 01:30 (+10:30).
    const lh = ZoneClock.for('Australia/Lord_Howe');
    const back = Date.UTC(2026, 3, 4, 15, 0, 0);
    expect(lh.offsetMs(back - 1)).toBe(11 * 3_600_000);
    expect(lh.offsetMs(back)).toBe(10.5 * 3_600_000);
  });

  it('matches Luxon every few seconds around transitions, incl. a skipped date (R-H3)', () => {
    const cases: [string, number][] = [
      ['America/New_York', Date.UTC(2026, 10, 1, 6, 0, 0)],
      ['Europe/Berlin', Date.UTC(2026, 2, 29, 1, 0, 0)],
      ['America/Santiago', Date.UTC(2026, 8, 6, 4, 0, 0)],
      ['Pacific/Apia', Date.UTC(2011, 11, 30, 10, 0, 0)],
    ];
    for (const [zone, around] of cases) {
      for (let t = around - 7_200_000; t <= around + 7_200_000; t += 2_993) {
        expect(clockFields(t, zone), `${zone} ${t}`).toEqual(luxonFields(t, zone));
      }
    }
  });

  it('numbers weekdays from Monday = 0, also before 1970', () => {
    expect(weekdayOfDay(0)).toBe(3); // 1970-01-01 was a Thursday
    expect(weekdayOfDay(-1)).toBe(2);
    expect(weekdayOfDay(-3)).toBe(0);
    expect(weekdayOfDay(4)).toBe(0);
  });
});

describe('zoneProblem', () => {
  it('accepts canonical IANA ids and tz database links (R-H5)', () => {
    for (const z of ['America/New_York', 'Europe/Berlin', 'UTC', 'Etc/GMT+5', 'America/Argentina/Buenos_Aires', 'US/Eastern']) {
      expect(zoneProblem(z), z).toBeNull();
    }
  });

  it('rejects offsets, abbreviations and unknown names with a hint (R-H5)', () => {
    for (const z of ['+05:00', 'Z', 'PST', 'IST', 'CST', 'SystemV/EST5EDT', 'Mars/Olympus_Mons', '', 'America/New York']) {
      expect(zoneProblem(z), z).toMatch(/not an IANA time zone identifier.*America\/New_York/);
    }
  });

  it('rejects a canonical id in the wrong letter case and names the right spelling (R-H5)', () => {
    expect(zoneProblem('america/new_york')).toMatch(/wrong letter case; write it as America\/New_York/);
  });
});
