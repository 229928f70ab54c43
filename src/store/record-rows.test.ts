import { describe, expect, it } from 'vitest';
import { fixtureRecords } from '../../test/contract/fixture.js';
import { toPublicLocation, type DailyHour, type LocationRecord } from '../domain/location.js';
import { deriveRow } from './record-rows.js';

const FULL: LocationRecord = {
  id: 'loc_full',
  name: 'Full "Quoted" Record',
  address: {
    street_address: '1 Main',
    extended_address: 'Unit 2',
    address_locality: 'Springfield',
    address_region: 'IL',
    postal_code: '62701',
    address_country: 'US',
  },
  geo: { latitude: 39.8, longitude: -89.6 },
  amenities: { 'dev.ucp.amenity.wi_fi': { description: 'Wi-Fi' } },
  hours: [{ day: 'monday', opens: '09:00', closes: '17:00' }],
  exception_hours: [{ valid_from: '2026-12-25', valid_through: '2026-12-25' }],
  timezone: 'America/Chicago',
  aliases: ['full', 'full', 'loc_full'],
  keywords: ['hardware', 'tools'],
  items: ['a', 'b', 'a'],
  serves: { radius_m: 5000, countries: ['us', 'US'], regions: { US: ['us-il', 'IL', ' il '] }, postal_codes: { US: ['62701', '62 701'] } },
};

describe('deriveRow', () => {
  it('emits exactly the public Location JSON (same members and order as toPublicLocation)', () => {
    for (const r of [...fixtureRecords(), FULL]) expect(deriveRow(r).doc).toBe(JSON.stringify(toPublicLocation(r)));
  });

  it('keeps the schedule, and only when hours or exception_hours exist', () => {
    expect(JSON.parse(deriveRow(FULL).schedule as string)).toEqual({
      timezone: FULL.timezone,
      hours: FULL.hours,
      exception_hours: FULL.exception_hours,
    });
    expect(deriveRow({ id: 'x', name: 'x', timezone: 'Europe/Paris' }).schedule).toBeNull();
    expect(JSON.parse(deriveRow({ id: 'x', name: 'x', hours: [] }).schedule as string)).toEqual({ hours: [] });
  });

  it('normalises and dedupes locality coverage with the serves.ts normalisers', () => {
    const row = deriveRow(FULL);
    expect(row.countries).toEqual(['US']);
    expect(row.regions).toEqual([['US', 'IL']]);
    expect(row.postalCodes).toEqual([['US', '62701']]);
  });

  it('dedupes aliases (dropping the own id) and items; reads visibility', () => {
    const row = deriveRow(FULL);
    expect(row.aliases).toEqual(['full']);
    expect(row.items).toEqual(['a', 'b']);
    expect(row.isPublic).toBe(true);
    expect(deriveRow({ ...FULL, visibility: 'private' }).isPublic).toBe(false);
  });

  it('indexes name, keywords, place, amenity descriptions and amenity id words as text; never private coverage', () => {
    expect(deriveRow(FULL).text).toEqual([
      'Full "Quoted" Record',
      'hardware tools',
      'Springfield 62701',
      'IL US',
      '1 Main Unit 2',
      'Wi-Fi wi fi wifi',
    ]);
    expect(deriveRow(FULL).coverage).toBe('{"radius_m":5000}');
    expect(deriveRow(FULL).coverageExtents.length).toBeGreaterThan(0);
  });

  it('treats an unusable geo as no geo', () => {
    const row = deriveRow({ id: 'x', name: 'x', geo: { latitude: 95, longitude: 0 } });
    expect([row.lat, row.lon]).toEqual([null, null]);
  });

  it('serialises a frozen (shared) schedule part once and gives the same text as an unshared copy', () => {
    const hours: DailyHour[] = [{ day: 'monday', opens: '09:00', closes: '17:00' }];
    Object.freeze(hours[0]);
    Object.freeze(hours);
    const shared = deriveRow({ ...FULL, hours });
    const copy = deriveRow({ ...FULL, hours: [{ day: 'monday', opens: '09:00', closes: '17:00' }] });
    expect(shared.doc).toBe(copy.doc);
    expect(shared.schedule).toBe(copy.schedule);
    expect(deriveRow({ ...FULL, id: 'other', hours }).schedule).toBe(copy.schedule);
  });
});
