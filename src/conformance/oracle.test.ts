import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { geodesicDistanceMeters } from '../domain/geodesy.js';
import { isOpenAt, parseInstant } from '../domain/hours.js';
import type { DailyHour, Location } from '../domain/location.js';
import {
  COMMON_SPHERE_RADII,
  EXCLUSION_STEP_M,
  farProbe,
  formatInstant,
  haversineMeters,
  hoursProbe,
  predicatesOf,
  predicateViolations,
  radiusProbe,
} from './oracle.js';

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] as const;
const nineToFive: DailyHour[] = WEEKDAYS.map((day) => ({ day, opens: '09:00', closes: '17:00' }));
const geoArb = fc.record({
  latitude: fc.double({ min: -89.5, max: 89.5, noNaN: true }),
  longitude: fc.double({ min: -180, max: 180, noNaN: true }),
});

describe('haversineMeters', () => {
  it('is the spherical answer R-S4 forbids: it disagrees with WGS 84 by metres over kilometres', () => {
    const a = { latitude: 34.0522, longitude: -118.2437 };
    const b = { latitude: 34.1522, longitude: -118.2437 };
    const sphere = haversineMeters(a, b);
    const ellipsoid = geodesicDistanceMeters(a, b);
    expect(Math.abs(sphere - ellipsoid)).toBeGreaterThan(5);
    expect(haversineMeters(a, a)).toBe(0);
  });
});

describe('radiusProbe (R-S4)', () => {
  it('gives max = the exact center→geo geodesic distance, where every common sphere is off by ≥ 0.5 m', () => {
    fc.assert(
      fc.property(geoArb, (geo) => {
        const probe = radiusProbe(geo);
        expect(probe).not.toBeNull();
        if (probe === null) return;
        // Bit-for-bit what a correct Business computes, in its argument order (center first).
        expect(geodesicDistanceMeters(probe.center, geo)).toBe(probe.distance);
        expect(probe.sphericalMargin).toBeGreaterThanOrEqual(0.5);
        for (const radius of COMMON_SPHERE_RADII) {
          const sphere = haversineMeters(probe.center, geo, radius);
          // A sphere either excludes at max = d or includes at max = d − 1 mm: both probes cannot pass.
          expect(sphere > probe.distance || sphere <= probe.distance - EXCLUSION_STEP_M).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('works across the antimeridian and near the poles', () => {
    for (const geo of [
      { latitude: -16.8, longitude: 179.95 },
      { latitude: -16.8, longitude: -179.95 },
      { latitude: 89.9, longitude: -10 },
      { latitude: -77.846, longitude: 166.676 },
    ]) {
      expect(radiusProbe(geo)?.sphericalMargin).toBeGreaterThanOrEqual(0.5);
    }
  });
});

describe('farProbe (R-S4, no clamping)', () => {
  it('puts the Location just inside a radius of about 12 000 km', () => {
    fc.assert(
      fc.property(geoArb, (geo) => {
        const { center, max } = farProbe(geo);
        const d = geodesicDistanceMeters(center, geo);
        expect(d).toBeLessThanOrEqual(max);
        expect(d).toBeGreaterThan(11_000_000);
      }),
    );
  });
});

describe('hoursProbe (R-S6)', () => {
  const from = Date.UTC(2026, 10, 25, 12, 0);

  it.each(['America/Los_Angeles', 'Asia/Kathmandu', 'Pacific/Chatham', 'Asia/Anadyr', 'Europe/Berlin', 'America/St_Johns'])(
    'finds instants open in %s but closed in UTC, and the reverse',
    (timezone) => {
      const schedule = { timezone, hours: nineToFive };
      const probe = hoursProbe(schedule, from);
      expect(probe).not.toBeNull();
      if (probe === null) return;
      const utc = { ...schedule, timezone: 'Etc/UTC' };
      expect(isOpenAt(schedule, formatInstant(probe.openLocally))).toBe(true);
      expect(isOpenAt(utc, formatInstant(probe.openLocally))).toBe(false);
      expect(isOpenAt(schedule, formatInstant(probe.closedLocally))).toBe(false);
      expect(isOpenAt(utc, formatInstant(probe.closedLocally))).toBe(true);
      expect(probe.openLocally).toBeGreaterThan(from);
      expect(probe.closedLocally).toBeLessThan(from + 9 * 86_400_000);
    },
  );

  it('is null when the zone reads like UTC, or the schedule is unknown, empty or invalid', () => {
    expect(hoursProbe({ timezone: 'Africa/Abidjan', hours: nineToFive }, from)).toBeNull();
    expect(hoursProbe({ timezone: 'America/New_York' }, from)).toBeNull();
    expect(hoursProbe({ timezone: 'America/New_York', hours: [] }, from)).toBeNull();
    expect(hoursProbe({ timezone: 'Mars/Olympus', hours: nineToFive }, from)).toBeNull();
    expect(hoursProbe({ hours: nineToFive }, from)).toBeNull();
  });
});

describe('formatInstant', () => {
  it('writes the same instant whatever the offset (parseInstant round-trips it)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2000, 0, 1) / 1000, max: Date.UTC(2100, 0, 1) / 1000 }),
        fc.integer({ min: -12 * 60, max: 14 * 60 }),
        (seconds, offset) => {
          const text = formatInstant(seconds * 1000, offset);
          expect(text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$/);
          expect(parseInstant(text)).toBe(seconds * 1000);
        },
      ),
    );
  });

  it('uses Z for offset 0 and ±HH:MM otherwise', () => {
    const t = Date.UTC(2026, 10, 30, 0, 15);
    expect(formatInstant(t)).toBe('2026-11-30T00:15:00Z');
    expect(formatInstant(t, 345)).toBe('2026-11-30T06:00:00+05:45');
    expect(formatInstant(t, -570)).toBe('2026-11-29T14:45:00-09:30');
  });
});

describe('predicateViolations (R-S1, R-S4, R-S6, R-S7)', () => {
  const center = { latitude: 40.7069, longitude: -74.0113 };
  const store: Location = {
    id: 'loc_a',
    name: 'A',
    geo: { latitude: 40.7306, longitude: -73.9866 },
    amenities: { 'dev.ucp.amenity.shopping.curbside_pickup': { description: 'Curbside' } },
    timezone: 'America/New_York',
    hours: nineToFive,
  };
  const d = geodesicDistanceMeters(center, store.geo as { latitude: number; longitude: number });

  it('accepts a Location exactly at distance.max (inclusive) and rejects one 1 mm beyond', () => {
    expect(predicateViolations(store, { distance: { center, max: d } })).toEqual([]);
    expect(predicateViolations(store, { distance: { center, max: d - 0.001 } })).toEqual([expect.stringMatching(/R-S4/)]);
  });

  it('requires every amenity as an exact key (a namespace prefix is not enough)', () => {
    expect(predicateViolations(store, { amenities: ['dev.ucp.amenity.shopping.curbside_pickup'] })).toEqual([]);
    expect(predicateViolations(store, { amenities: ['dev.ucp.amenity.shopping'] })).toEqual([expect.stringMatching(/R-S7/)]);
  });

  it("judges hours in the Location's own zone", () => {
    // Monday 2026-11-30 in New York (UTC−5): 15:00Z is 10:00 local (open), 23:00Z is 18:00 local (closed).
    expect(predicateViolations(store, { openAt: '2026-11-30T15:00:00Z' })).toEqual([]);
    expect(predicateViolations(store, { openAt: '2026-11-30T23:00:00Z' })).toEqual([expect.stringMatching(/R-S6/)]);
  });

  it('reports nothing it cannot prove from the published Location (no geo, no amenities map, no schedule)', () => {
    const bare: Location = { id: 'loc_b', name: 'B' };
    expect(
      predicateViolations(bare, { distance: { center, max: 1 }, amenities: ['dev.ucp.amenity.parking'], openAt: '2026-11-30T23:00:00Z' }),
    ).toEqual([]);
  });

  it('reads the predicates of a request and ignores malformed ones', () => {
    expect(
      predicatesOf({ distance: { center, max: 5 }, filters: { amenities: ['x.y'], hours: { open_at: '2026-11-30T15:00:00Z' } } }),
    ).toEqual({
      distance: { center, max: 5 },
      amenities: ['x.y'],
      openAt: '2026-11-30T15:00:00Z',
    });
    expect(predicatesOf({ distance: { center: 'here', max: '5' }, filters: { amenities: [1], hours: {} } })).toEqual({});
    expect(predicatesOf(null)).toEqual({});
  });
});
