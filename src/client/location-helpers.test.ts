import { describe, expect, it } from 'vitest';
import { InvalidInstantError } from '../errors.js';
import type { Location } from '../domain/location.js';
import { distanceFrom, isOpenAt, nextChange } from './location-helpers.js';

/** Open 09:00–21:00 New York time every weekday (a zone far from the test's Asia/Kathmandu). */
const store: Location = {
  id: 'loc_ny',
  name: 'Midtown',
  geo: { latitude: 40.7549, longitude: -73.984 },
  timezone: 'America/New_York',
  hours: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((day) => ({ day: day as 'monday', opens: '09:00', closes: '21:00' })),
};

describe('isOpenAt', () => {
  it("evaluates in the Location's own zone, whatever the instant's offset (R-H5, R-S6)", () => {
    // Monday 2026-11-30 20:59 EST = 01:59Z Tuesday; 21:00 EST is the exclusive close.
    expect(isOpenAt(store, '2026-12-01T01:59:00Z')).toBe(true);
    expect(isOpenAt(store, '2026-12-01T07:45:00+05:45')).toBe(false);
    expect(isOpenAt(store, new Date('2026-11-30T14:00:00Z'))).toBe(true);
    expect(isOpenAt(store, Date.parse('2026-11-29T14:00:00Z'))).toBe(false); // Sunday
  });

  it('is never open for an unknown schedule (R-H2, R-S6)', () => {
    expect(isOpenAt({ id: 'x', name: 'x' }, '2026-11-30T15:00:00Z')).toBe(false);
  });

  it('refuses an instant without an offset', () => {
    expect(() => isOpenAt(store, '2026-11-30T15:00:00')).toThrow(InvalidInstantError);
  });
});

describe('nextChange', () => {
  it('finds the closing time in the Location offset (R-H1)', () => {
    expect(nextChange(store, '2026-11-30T15:00:00Z')).toMatchObject({ at: '2026-11-30T21:00:00-05:00', state: 'closed' });
  });

  it('skips the weekend to the next opening', () => {
    expect(nextChange(store, '2026-12-05T12:00:00Z')).toMatchObject({ at: '2026-12-07T09:00:00-05:00', state: 'open' });
  });

  it('is null for an unknown schedule', () => {
    expect(nextChange({ id: 'x', name: 'x' }, new Date())).toBeNull();
  });
});

describe('distanceFrom', () => {
  it('is the WGS 84 geodesic distance in metres (R-S4)', () => {
    // Midtown to Grand Central: about 650 m.
    const d = distanceFrom(store, { latitude: 40.7527, longitude: -73.9772 });
    expect(d).toBeGreaterThan(600);
    expect(d).toBeLessThan(700);
    expect(distanceFrom(store, store.geo as { latitude: number; longitude: number })).toBe(0);
  });

  it('is undefined without a usable geo, and refuses an unusable point', () => {
    expect(distanceFrom({ id: 'x', name: 'x' }, { latitude: 0, longitude: 0 })).toBeUndefined();
    expect(() => distanceFrom(store, { latitude: 91, longitude: 0 })).toThrow(RangeError);
  });
});
