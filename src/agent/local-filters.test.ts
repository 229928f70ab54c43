import { describe, expect, it } from 'vitest';
import type { Location } from '../domain/location.js';
import { idsForLabel, normaliseLabel, openAtWallTime, wallTimeInstant } from './local-filters.js';

const sundays = (timezone: string): Location => ({
  id: timezone,
  name: timezone,
  timezone,
  hours: [{ day: 'sunday', opens: '10:00', closes: '18:00' }],
});

describe('agent local filters (#26)', () => {
  it("reads an offset-less open_at as that wall time in each Location's own zone (R-H5)", () => {
    expect(wallTimeInstant(sundays('America/New_York'), '2026-12-06T10:00')).toBe(Date.parse('2026-12-06T15:00:00Z'));
    expect(wallTimeInstant(sundays('America/Los_Angeles'), '2026-12-06T10:00')).toBe(Date.parse('2026-12-06T18:00:00Z'));
    expect(openAtWallTime(sundays('America/New_York'), '2026-12-06T10:00')).toBe(true);
    expect(openAtWallTime(sundays('Asia/Tokyo'), '2026-12-06T09:59')).toBe(false);
    expect(openAtWallTime(sundays('Asia/Tokyo'), '2026-12-07T10:00')).toBe(false);
  });

  it('a wall time inside a spring-forward gap names no instant (R-H3); no zone or no schedule is never open (R-S6)', () => {
    expect(wallTimeInstant(sundays('America/New_York'), '2026-03-08T02:30')).toBeUndefined();
    expect(openAtWallTime({ id: 'x', name: 'x' }, '2026-12-06T10:00')).toBe(false);
    expect(openAtWallTime({ id: 'x', name: 'x', timezone: 'America/New_York' }, '2026-12-06T10:00')).toBe(false);
  });

  it('matches a label by description (any language seen), or by the id’s last segment, after normalising', () => {
    expect(normaliseLabel(' Wheelchair-Accessible ')).toBe('wheelchair accessible');
    const location: Location = {
      id: 'a',
      name: 'A',
      amenities: {
        'com.example.a.amenity.wheelchair_accessible': { description: 'Rollstuhlgerecht' },
        'net.b.feature.wifi': { description: 'Free Wi-Fi' },
      },
    };
    expect(idsForLabel(location, 'wheelchair accessible', new Map())).toEqual(['com.example.a.amenity.wheelchair_accessible']);
    expect(idsForLabel(location, 'free wi fi', new Map())).toEqual(['net.b.feature.wifi']);
    expect(idsForLabel(location, 'WLAN', new Map([['net.b.feature.wifi', new Set(['WLAN'])]]))).toEqual(['net.b.feature.wifi']);
    expect(idsForLabel(location, 'parking', new Map())).toEqual([]);
  });
});
