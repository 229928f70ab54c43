import { describe, expect, it } from 'vitest';
import { timezoneAt } from './timezone-from-geo.js';

describe('timezoneAt: IANA zone from coordinates (geo-tz boundary data)', () => {
  it('finds the zone of points on land, including ones near a zone border', () => {
    expect(timezoneAt(52.52, 13.405)).toEqual({ timezone: 'Europe/Berlin' });
    expect(timezoneAt(40.7128, -74.006)).toEqual({ timezone: 'America/New_York' });
    expect(timezoneAt(35.6762, 139.6503)).toEqual({ timezone: 'Asia/Tokyo' });
    // Indiana: Indianapolis is Eastern, Gary (Chicago metro) is Central.
    expect(timezoneAt(39.7684, -86.1581)?.timezone).toBe('America/Indiana/Indianapolis');
    expect(timezoneAt(41.5934, -87.3464)?.timezone).toBe('America/Chicago');
  });

  it('names the nautical zone at sea and says so', () => {
    const derived = timezoneAt(0, -140);
    expect(derived?.timezone).toMatch(/^Etc\/GMT[+-]\d+$/);
    expect(derived?.note).toContain('at sea');
  });

  it('refuses coordinates that are not a point on the globe', () => {
    expect(timezoneAt(Number.NaN, 0)).toBeUndefined();
    expect(timezoneAt(91, 0)).toBeUndefined();
    expect(timezoneAt(0, 181)).toBeUndefined();
  });
});
