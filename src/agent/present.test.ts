import { describe, expect, it } from 'vitest';
import type { Location } from '../domain/location.js';
import { formatDistance, formatRadius, hoursView, renderView, viewOf } from './present.js';

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
const store: Location = {
  id: 'loc_1',
  name: 'Corner Store',
  address: { street_address: '1 Main St', address_locality: 'Kathmandu', postal_code: '44600', address_country: 'NP' },
  geo: { latitude: 27.7, longitude: 85.3 },
  amenities: { 'dev.ucp.amenity.parking': { description: 'Parking' } },
  timezone: 'America/New_York',
  hours: DAYS.map((day) => ({ day, opens: '09:00', closes: '18:00' })),
};

describe('agent presentation', () => {
  it('rounds distances for people in the unit the model used', () => {
    expect(formatDistance(3, 'km')).toBe('10 m');
    expect(formatDistance(347, 'km')).toBe('350 m');
    expect(formatDistance(2449, 'km')).toBe('2.4 km');
    expect(formatDistance(25_400, 'km')).toBe('25 km');
    expect(formatDistance(1609.344 * 2.26, 'mi')).toBe('2.3 mi');
    expect(formatDistance(100, 'mi')).toBe('330 ft');
    expect(formatRadius(5000, 'km')).toBe('5 km');
    expect(formatRadius(1609.344 * 3, 'mi')).toBe('3 mi');
  });

  it("evaluates hours in the Location's own zone (not the machine's Asia/Kathmandu), with the next change in local time", () => {
    // 2026-11-30 (a Monday) 10:00 in New York = 15:00Z.
    const open = hoursView(store, Date.parse('2026-11-30T15:00:00Z'), true);
    expect(open).toMatchObject({ state: 'open', timezone: 'America/New_York', evaluated_at: '2026-11-30T10:00:00-05:00' });
    expect(open.next_change).toEqual({ at: '2026-11-30T18:00:00-05:00', state: 'closed' });
    expect(open.text).toBe('Open now; closes 18:00 (America/New_York)');
    const closed = hoursView(store, Date.parse('2026-12-01T00:30:00Z'), true);
    expect(closed.text).toBe('Closed now; opens tomorrow 09:00 (America/New_York)');
    const requested = hoursView(store, Date.parse('2026-11-30T15:00:00Z'), false);
    expect(requested.text).toBe('Open at the requested time (Mon 30 Nov 10:00 local); closes 18:00 (America/New_York)');
  });

  it('never calls an unknown or invalid schedule open', () => {
    const at = Date.parse('2026-11-30T15:00:00Z');
    expect(hoursView({ id: 'x', name: 'x' }, at, true).state).toBe('unknown');
    expect(hoursView({ id: 'x', name: 'x', hours: [{ day: 'monday', opens: '09:00', closes: '18:00' }] }, at, true).state).toBe('unknown');
  });

  it('renders a compact block: name, business, id, distance, address, hours, amenities, aliases asked', () => {
    const view = viewOf(
      'acme',
      { ...store, inputs: [{ id: 'loc_1' }, { id: 'corner' }] },
      {
        at: Date.parse('2026-11-30T15:00:00Z'),
        atIsNow: true,
        near: { latitude: 27.71, longitude: 85.3 },
        unit: 'km',
      },
    );
    expect(view.distance_meters).toBe(1108);
    expect(renderView(view, 3)).toBe(
      [
        '3. Corner Store — acme, id "loc_1", 1.1 km away',
        '   1 Main St, Kathmandu, 44600, NP',
        '   Open now; closes 18:00 (America/New_York)',
        '   Amenities: Parking',
        '   Asked for as: "corner"',
      ].join('\n'),
    );
  });
});
