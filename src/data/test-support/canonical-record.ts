import type { LocationRecord } from '../../domain/location.js';

/**
 * The canonical record of the issue contract (docs/data-format.md), written out independently of
 * the demo generator so tests can hold the generator to it.
 */
export const DOWNTOWN: LocationRecord = {
  id: 'loc_downtown',
  name: 'Downtown Store',
  aliases: ['downtown-store'],
  address: { street_address: '100 Broadway', address_locality: 'New York', address_region: 'NY', address_country: 'US', postal_code: '10005' },
  geo: { latitude: 40.707, longitude: -74.011 },
  amenities: { 'dev.ucp.amenity.parking': { description: 'Parking' } },
  timezone: 'America/New_York',
  hours: [{ day: 'monday', opens: '09:00', closes: '21:00' }],
  exception_hours: [{ title: 'Thanksgiving', valid_from: '2026-11-26', valid_through: '2026-11-26' }],
  visibility: 'public',
  keywords: ['electronics', 'phones'],
  serves: {
    radius_m: 8000,
    areas: [{ type: 'Polygon', coordinates: [[[-74.02, 40.7], [-74.0, 40.7], [-74.0, 40.72], [-74.02, 40.7]]] }],
    postal_codes: { US: ['10005', '10004'] },
  },
  items: ['item_id_phone_15_pro'],
};
