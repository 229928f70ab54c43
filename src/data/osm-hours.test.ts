import fc from 'fast-check';
import OpeningHours from 'opening_hours';
import { describe, expect, it } from 'vitest';
import { compileSchedule, isOpenCompiled } from '../domain/hours.js';
import { osmOpeningHours, type HolidayRegion } from './osm-hours.js';

const DAY_MS = 86_400_000;
/** 2026-12-01, a Tuesday. */
const START_DAY = Date.UTC(2026, 11, 1) / DAY_MS;
const HORIZON = 400;

/**
 * Tests run with TZ=Asia/Kathmandu (vitest.config.ts), so the library reads wall-clock times in
 * Kathmandu; a UCP schedule in Asia/Kathmandu reads the same labels. Kathmandu's offset is +05:45.
 */
const ZONE = 'Asia/Kathmandu';
const OFFSET_MS = (5 * 60 + 45) * 60_000;

const CASES: readonly [value: string, region: HolidayRegion][] = [
  ['Mo-Fr 08:00-12:00,13:00-18:00; Sa 09:00-14:00; PH off', { country: 'DE', state: 'Berlin' }],
  // With ";" the Sunday rule replaces all of Sunday, the night carried in from Saturday included;
  // with "," (an additional rule) the night stays. Both must come out as the library reads them.
  ['Mo-Th 07:00-22:00; Fr,Sa 07:00-02:00; Su 09:00-20:00; Dec 24 07:00-15:00; Dec 25 off', { country: 'US', state: 'NY' }],
  ['Mo-Th 07:00-22:00; Fr,Sa 07:00-02:00, Su 09:00-20:00; Dec 24 07:00-15:00; Dec 25 off', { country: 'US', state: 'NY' }],
  ['24/7', {}],
  ['Mo-Su 00:00-23:59', {}],
  ['Jan-Mar Mo-Fr 10:00-16:00; Apr-Dec Mo-Fr 09:00-18:00; PH off', { country: 'FR' }],
  ['Mo-Fr 22:00-06:00; PH 10:00-14:00', { country: 'US', state: 'NY' }],
  ['Mo-Sa 10:00-20:00; 2027 Jan 01-2027 Jan 06 off', {}],
  ['Mo-Fr 09:00-17:00; easter off; easter +1 day off', { country: 'DE', state: 'Bayern' }],
  ['Mo-Fr 08:00-24:00; Sa 18:00-26:00', {}],
  ['off', {}],
];

function library(value: string, region: HolidayRegion): OpeningHours {
  return new OpeningHours(
    value,
    { lat: 0, lon: 0, address: { country_code: (region.country ?? '').toLowerCase(), state: region.state ?? '' } },
    { mode: 0, tag_key: 'opening_hours', map_value: false, warnings_severity: 4, locale: 'en' },
  );
}

/** Instants (every `stepMinutes`) over `days` from START_DAY where the UCP schedule and the library disagree. */
function disagreements(value: string, region: HolidayRegion, days: number, stepMinutes: number): string[] {
  const r = osmOpeningHours(value, region, { startDay: START_DAY, horizonDays: days });
  if (!r.ok) return [`refused: ${r.reason}`];
  const compiled = compileSchedule({ timezone: ZONE, hours: r.hours, exception_hours: r.exception_hours });
  if (compiled.problems.length > 0) return compiled.problems.map((p) => `${p.field}: ${p.message}`);
  const oh = library(value, region);
  const from = START_DAY * DAY_MS - OFFSET_MS;
  const out: string[] = [];
  for (let t = from; t < from + days * DAY_MS && out.length < 5; t += stepMinutes * 60_000) {
    const ucp = isOpenCompiled(compiled, t);
    if (ucp !== oh.getState(new Date(t))) out.push(`${new Date(t + OFFSET_MS).toISOString().slice(0, 16)} local: ucp ${ucp}`);
  }
  return out;
}

function scheduleFor(value: string, region: HolidayRegion) {
  const r = osmOpeningHours(value, region, { startDay: START_DAY, horizonDays: HORIZON });
  if (!r.ok) throw new Error(`${value}: ${r.reason}`);
  return r;
}

describe('osmOpeningHours', () => {
  it.each(CASES)('%s: open at exactly the minutes the opening_hours library says, every 15 minutes over the horizon', (value, region) => {
    expect(disagreements(value, region, HORIZON, 15)).toEqual([]);
  });

  it('agrees with the library for generated values (weekday ranges, split and overnight times, PH, dated rules, both separators)', () => {
    const time = fc.integer({ min: 0, max: 95 }).map((q) => `${String(Math.floor(q / 4)).padStart(2, '0')}:${String((q % 4) * 15).padStart(2, '0')}`);
    const span = fc.tuple(time, time).filter(([a, b]) => a !== b).map(([a, b]) => `${a}-${b}`);
    const days = fc.tuple(fc.constantFrom('Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'), fc.constantFrom('', '-Fr', '-Su', ',Sa')).map(([d, rest]) => d + rest);
    const weekly = fc.tuple(days, fc.array(span, { minLength: 1, maxLength: 2 })).map(([d, spans]) => `${d} ${spans.join(',')}`);
    const dated = fc.constantFrom('PH off', 'PH 10:00-14:00', 'Dec 24 08:00-13:00', 'Dec 25,26 off', 'Jan 01 off', '2027 Jan 01-2027 Jan 03 09:00-12:00');
    const value = fc
      .tuple(fc.array(weekly, { minLength: 1, maxLength: 3 }), fc.array(dated, { maxLength: 2 }), fc.constantFrom('; ', ', '))
      .map(([w, d, sep]) => [w.join(sep), ...d].join('; '));
    fc.assert(
      fc.property(value, (v) => {
        expect(disagreements(v, { country: 'DE', state: 'Berlin' }, 60, 15), v).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });

  it('writes a week-stable value as weekly hours only, cut at midnight (overnight Fr 22:00-02:00)', () => {
    const r = scheduleFor('Fr 22:00-02:00', {});
    expect(r).toEqual({ ok: true, hours: [{ day: 'friday', opens: '22:00', closes: '00:00' }, { day: 'saturday', opens: '00:00', closes: '02:00' }] });
  });

  it('writes public holidays as titled closures within the horizon, and only there', () => {
    const r = scheduleFor('Mo-Fr 09:00-18:00; PH off', { country: 'DE', state: 'Berlin' });
    expect(r.exception_hours).toContainEqual({ title: '1. Weihnachtstag', valid_from: '2026-12-25', valid_through: '2026-12-25' });
    expect(r.exception_hours).toContainEqual({ title: 'Neujahr', valid_from: '2027-01-01', valid_through: '2027-01-01' });
    const last = new Date((START_DAY + HORIZON - 1) * DAY_MS).toISOString().slice(0, 10);
    expect(r.exception_hours?.every((e) => e.valid_through <= last)).toBe(true);
    const short = osmOpeningHours('Mo-Fr 09:00-18:00; PH off', { country: 'DE', state: 'Berlin' }, { startDay: START_DAY, horizonDays: 20 });
    expect(short.ok).toBe(true);
    expect(short.ok ? short.exception_hours : 'refused').toBeUndefined();
  });

  it('keeps "open until 23:59" apart from the whole day (00:00-23:59 means the whole date in UCP)', () => {
    expect(scheduleFor('Mo 00:00-23:59', {}).hours).toEqual([
      { day: 'monday', opens: '00:00', closes: '12:00' },
      { day: 'monday', opens: '12:00', closes: '23:59' },
    ]);
    expect(scheduleFor('Mo 00:00-24:00', {}).hours).toEqual([{ day: 'monday', opens: '00:00', closes: '23:59' }]);
  });

  it.each([
    ['sunrise-sunset', /follow the sun/],
    ['Mo-Fr 08:00-dusk', /follow the sun/],
    ['week 01-10 Mo 10:00-12:00', /week numbers/],
    ['Mo[1] 09:00-12:00', /nth weekday/],
    ['Mo-Fr 08:00-12:00; SH off', /school holidays/],
    ['Mo-Fr 17:00+', /open end/],
    ['Mo-Fr 08:00-12:00 open end', /open end/],
    ['Mo-Fr unknown', /unknown state/],
    ['"by appointment"', /only a comment/],
    ['Mo-Fr 09:00-17:00 "call ahead"', /comment \("call ahead"\)/],
    ['Mo-Fr 09:00-17:00 || "by appointment"', /comment \("by appointment"\)/],
    ['these are not hours', /not valid opening_hours syntax/],
  ])('refuses %s rather than approximating it', (value, reason) => {
    const r = osmOpeningHours(value, { country: 'DE', state: 'Berlin' }, { startDay: START_DAY, horizonDays: HORIZON });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toMatch(reason);
  });

  it('refuses PH where the library knows no holidays or the country is unknown, naming the fix', () => {
    const unknownCountry = osmOpeningHours('Mo-Fr 09:00-17:00; PH off', {}, { startDay: START_DAY, horizonDays: HORIZON });
    expect(!unknownCountry.ok && unknownCountry.reason).toMatch(/country is unknown \(add an addr:country tag\)/);
    const noData = osmOpeningHours('Mo-Fr 09:00-17:00; PH off', { country: 'NP' }, { startDay: START_DAY, horizonDays: HORIZON });
    expect(!noData.ok && noData.reason).toMatch(/knows no public holidays for NP/);
  });

  it('gives the same hours when the machine zone has daylight saving time (the evaluation switches to a fixed offset)', () => {
    const value = 'Mo-Th 07:00-22:00; Fr,Sa 07:00-02:00; Su 09:00-20:00; PH off; Mar 14 off';
    const region = { country: 'US', state: 'NY' };
    const here = osmOpeningHours(value, region, { startDay: START_DAY, horizonDays: HORIZON + 1 });
    const saved = process.env['TZ'];
    process.env['TZ'] = 'America/New_York';
    try {
      const there = osmOpeningHours(value, region, { startDay: START_DAY, horizonDays: HORIZON + 2 });
      expect(there.ok && there.exception_hours?.length).toBeGreaterThan(0);
      const strip = (r: typeof here) => (r.ok ? { hours: r.hours, exception_hours: r.exception_hours?.filter((e) => e.valid_from < '2027-12-01') } : r);
      expect(strip(there)).toEqual(strip(here));
      expect(process.env['TZ']).toBe('America/New_York');
    } finally {
      process.env['TZ'] = saved;
    }
  });

  it('translates a value that reads no holidays once for every region, and one that does per region', () => {
    const options = { startDay: START_DAY, horizonDays: HORIZON + 3 };
    // No holidays: one shared translation, whatever the region.
    const plain = 'Mo-Fr 09:30-17:30';
    expect(osmOpeningHours(plain, { country: 'DE', state: 'Berlin' }, options)).toBe(osmOpeningHours(plain, { country: 'US', state: 'NY' }, options));
    // PH, and a word the library corrects to PH: each region gets its own holidays.
    for (const value of ['Mo-Fr 09:30-17:30; PH off', 'Mo-Fr 09:30-17:30; feiertags off']) {
      const berlin = osmOpeningHours(value, { country: 'DE', state: 'Berlin' }, options);
      const newYork = osmOpeningHours(value, { country: 'US', state: 'NY' }, options);
      expect(berlin.ok && newYork.ok).toBe(true);
      const dates = (r: typeof berlin) => (r.ok ? (r.exception_hours ?? []).map((e) => e.valid_from) : []);
      expect(dates(berlin)).toContain('2027-03-08'); // Women's Day: a holiday in Berlin, not in New York
      expect(dates(newYork)).not.toContain('2027-03-08');
      expect(dates(newYork)).toContain('2027-01-18'); // Martin Luther King Jr. Day
      expect(dates(berlin)).not.toContain('2027-01-18');
      const unknown = osmOpeningHours(value, {}, options);
      expect(!unknown.ok && unknown.reason).toMatch(/country is unknown/);
    }
  });
});
