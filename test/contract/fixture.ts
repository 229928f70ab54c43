/**
 * The contract-suite dataset: the seed's two Locations ("Valley Grocers" in Los Angeles and
 * "Downtown Store" in New York, alias `downtown-store`) plus Locations chosen to exercise every
 * rule: private ones next to public ones, both sides of the antimeridian (Fiji, Chukotka), near
 * the poles, items, coverage by radius / area / locality list, split and overnight hours, unknown
 * and empty schedules, exception closures, amenity keys that are prefixes of others.
 *
 * Calendar facts used by the tests: 2026-11-30 is a Monday, 2026-12-04 a Friday, 2026-12-25 a
 * Friday. In December Los Angeles is UTC−8, New York UTC−5, Madrid and Berlin UTC+1.
 */
import type { DailyHour, Day, Geo, LocationRecord } from '../../src/domain/location.js';

export const AMENITY = {
  curbside: 'dev.ucp.amenity.shopping.curbside_pickup',
  parking: 'dev.ucp.amenity.parking',
  wifi: 'dev.ucp.amenity.wi_fi',
  /** A namespace prefix of `curbside`: must never match it, nor be matched by it. */
  shoppingPrefix: 'dev.ucp.amenity.shopping',
} as const;

export const GEO = {
  laCityHall: { latitude: 34.0537, longitude: -118.2428 },
  valleyGrocers: { latitude: 34.0522, longitude: -118.2437 },
  downtown: { latitude: 40.7069, longitude: -74.0113 },
  brooklyn: { latitude: 40.6782, longitude: -73.9442 },
  fijiWest: { latitude: -16.8, longitude: 179.95 },
  fijiEast: { latitude: -16.8, longitude: -179.95 },
  anadyr: { latitude: 64.7337, longitude: 177.4968 },
  uelen: { latitude: 66.1597, longitude: -169.8092 },
  northPole: { latitude: 89.9, longitude: -10 },
  madrid: { latitude: 40.4168, longitude: -3.7038 },
  berlin: { latitude: 52.52, longitude: 13.405 },
} as const satisfies Record<string, Geo>;

const WEEKDAYS: Day[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'];
const ALL_DAYS: Day[] = [...WEEKDAYS, 'saturday', 'sunday'];

function every(days: Day[], opens: string, closes: string): DailyHour[] {
  return days.map((day) => ({ day, opens, closes }));
}

function box(minLon: number, minLat: number, maxLon: number, maxLat: number) {
  return {
    type: 'Polygon' as const,
    coordinates: [
      [
        [minLon, minLat],
        [maxLon, minLat],
        [maxLon, maxLat],
        [minLon, maxLat],
        [minLon, minLat],
      ] as [number, number][],
    ],
  };
}

/** Los Angeles stores used for ranking and paging (all public, all with geo, daily hours). */
const LA_CLUSTER: [id: string, name: string, lat: number, lon: number][] = [
  ['loc_la_arts', 'Arts District Pantry', 34.0407, -118.2468],
  ['loc_la_echo', 'Echo Park Books', 34.0782, -118.2606],
  ['loc_la_silver', 'Silver Lake Coffee', 34.0869, -118.2702],
  ['loc_la_ktown', 'Koreatown Hardware', 34.0618, -118.3004],
  ['loc_la_boyle', 'Boyle Heights Bakery', 34.0297, -118.2117],
  ['loc_la_chinatown', 'Chinatown Tea House', 34.0623, -118.2383],
  ['loc_la_usc', 'University Park Pharmacy', 34.0224, -118.2851],
  ['loc_la_hollywood', 'Hollywood Florist', 34.1016, -118.3267],
  ['loc_la_culver', 'Culver City Cycles', 34.0211, -118.3965],
  ['loc_la_pasadena', 'Pasadena Pet Supply', 34.1478, -118.1445],
];

/** A fresh copy of the dataset (tests may mutate what they get). */
export function fixtureRecords(): LocationRecord[] {
  const la: LocationRecord[] = LA_CLUSTER.map(([id, name, latitude, longitude]) => ({
    id,
    name,
    geo: { latitude, longitude },
    address: { address_locality: 'Los Angeles', address_region: 'CA', address_country: 'US' },
    timezone: 'America/Los_Angeles',
    hours: every(ALL_DAYS, '10:00', '22:00'),
  }));
  const byId = new Map(la.map((r) => [r.id, r]));
  const arts = byId.get('loc_la_arts') as LocationRecord;
  arts.amenities = { [AMENITY.parking]: { description: 'Parking' } };
  arts.items = ['sku_milk'];
  const boyle = byId.get('loc_la_boyle') as LocationRecord;
  boyle.items = ['sku_bread'];
  const chinatown = byId.get('loc_la_chinatown') as LocationRecord;
  chinatown.amenities = { [AMENITY.curbside]: { description: 'Curbside pickup' } };

  return [
    {
      id: 'loc_valley_grocers',
      name: 'Valley Grocers',
      geo: GEO.valleyGrocers,
      address: {
        street_address: '200 N Spring St',
        address_locality: 'Los Angeles',
        address_region: 'CA',
        postal_code: '90012',
        address_country: 'US',
      },
      timezone: 'America/Los_Angeles',
      hours: [...every([...WEEKDAYS, 'saturday'], '08:00', '21:00'), { day: 'sunday', opens: '09:00', closes: '18:00' }],
      amenities: {
        [AMENITY.curbside]: { description: 'Curbside pickup' },
        [AMENITY.parking]: { description: 'Parking' },
      },
      items: ['sku_milk', 'sku_bread'],
      serves: { radius_m: 8000, postal_codes: { US: ['90012', '90013'] } },
    },
    {
      id: 'loc_downtown',
      name: 'Downtown Store',
      aliases: ['downtown-store'],
      geo: GEO.downtown,
      address: {
        street_address: '11 Wall St',
        address_locality: 'New York',
        address_region: 'NY',
        postal_code: '10005',
        address_country: 'US',
      },
      timezone: 'America/New_York',
      hours: every(WEEKDAYS, '07:00', '22:00'),
      amenities: { [AMENITY.wifi]: { description: 'Free Wi-Fi' } },
      items: ['sku_milk'],
      serves: { radius_m: 3000, postal_codes: { US: ['10005', '10004'] } },
      language: 'en',
      localized: {
        de: { amenities: { [AMENITY.wifi]: { description: 'Kostenloses WLAN' } } },
        fr: { amenities: { [AMENITY.wifi]: { description: 'Wi-Fi gratuit' } } },
        'fr-CA': { name: 'Magasin du centre-ville' },
      },
    },
    ...la,
    {
      id: 'loc_la_mystery',
      name: 'Mystery Shop',
      geo: { latitude: 34.05, longitude: -118.25 },
      // No hours at all: the schedule is unknown, never "open" (R-H2, R-S6).
    },
    {
      id: 'loc_la_closed_corner',
      name: 'Closed Corner',
      geo: { latitude: 34.045, longitude: -118.255 },
      timezone: 'America/Los_Angeles',
      hours: [], // known: no regular opening
    },
    {
      id: 'loc_la_prefix_outlet',
      name: 'Prefix Outlet',
      geo: { latitude: 34.056, longitude: -118.25 },
      timezone: 'America/Los_Angeles',
      hours: every(ALL_DAYS, '00:00', '23:59'),
      // Key is only a namespace prefix of curbside pickup; the description says "Curbside pickup".
      amenities: {
        [AMENITY.shoppingPrefix]: { description: 'Curbside pickup' },
        'com.example.amenity.wi_fi_lounge': { description: 'Free Wi-Fi' },
      },
    },
    {
      id: 'loc_la_private_hub',
      name: 'Valley Grocers Hub',
      visibility: 'private',
      aliases: ['valley-hub'],
      geo: { latitude: 34.0525, longitude: -118.244 },
      timezone: 'America/Los_Angeles',
      hours: every(ALL_DAYS, '00:00', '23:59'),
      amenities: { [AMENITY.curbside]: { description: 'Curbside pickup' } },
      items: ['sku_milk', 'sku_bread'],
      keywords: ['grocery', 'warehouse'],
      serves: { radius_m: 50000, countries: ['US'], postal_codes: { US: ['90012'] } },
    },
    {
      id: 'loc_ny_private_kitchen',
      name: 'Downtown Dark Kitchen',
      visibility: 'private',
      aliases: ['dark-kitchen', 'downtown-store-kitchen'],
      geo: { latitude: 40.7075, longitude: -74.01 },
      timezone: 'America/New_York',
      hours: every(ALL_DAYS, '00:00', '23:59'),
      amenities: { [AMENITY.wifi]: { description: 'Free Wi-Fi' } },
      items: ['sku_secret'],
      serves: { radius_m: 50000, regions: { FR: ['IDF'] }, postal_codes: { FR: ['75001'] } },
    },
    {
      id: 'loc_ny_night_owl',
      name: 'Night Owl Diner',
      geo: { latitude: 40.7306, longitude: -73.9866 },
      timezone: 'America/New_York',
      hours: [
        { day: 'friday', opens: '22:00', closes: '02:00' },
        { day: 'saturday', opens: '22:00', closes: '03:00' },
      ],
    },
    {
      id: 'loc_ny_brooklyn',
      name: 'Brooklyn Deli',
      geo: GEO.brooklyn,
      timezone: 'America/New_York',
      hours: every(ALL_DAYS, '06:00', '23:00'),
      serves: { areas: [box(-74.05, 40.57, -73.85, 40.74)] },
    },
    {
      id: 'loc_ny_albany',
      name: 'Empire Deliveries',
      geo: { latitude: 42.6526, longitude: -73.7562 },
      serves: { regions: { US: ['NY'] } },
    },
    {
      id: 'loc_online',
      name: 'Online Only Store',
      // No geo: never matches `distance` (R-S4), may still serve by area or country.
      serves: { countries: ['US'], areas: [box(-74.03, 40.7, -73.9, 40.88)] },
    },
    {
      id: 'loc_fiji_suva',
      name: 'Suva Market',
      geo: { latitude: -18.1416, longitude: 178.4419 },
      timezone: 'Pacific/Fiji',
      hours: every(ALL_DAYS, '07:00', '18:00'),
    },
    {
      id: 'loc_fiji_west',
      name: 'Taveuni West Store',
      geo: GEO.fijiWest,
      timezone: 'Pacific/Fiji',
      hours: every(ALL_DAYS, '07:00', '18:00'),
    },
    {
      id: 'loc_fiji_east',
      name: 'Taveuni East Store',
      geo: GEO.fijiEast,
      timezone: 'Pacific/Fiji',
      hours: every(ALL_DAYS, '07:00', '18:00'),
      // A 20 km delivery radius that reaches across the antimeridian.
      serves: { radius_m: 20000 },
    },
    {
      id: 'loc_chukotka_anadyr',
      name: 'Anadyr Supplies',
      geo: GEO.anadyr,
      timezone: 'Asia/Anadyr',
      hours: every(ALL_DAYS, '09:00', '20:00'),
    },
    {
      id: 'loc_chukotka_uelen',
      name: 'Uelen Trading Post',
      geo: GEO.uelen,
      timezone: 'Asia/Anadyr',
      hours: every(ALL_DAYS, '09:00', '20:00'),
    },
    {
      id: 'loc_svalbard',
      name: 'Longyearbyen Outfitters',
      geo: { latitude: 78.2232, longitude: 15.6267 },
      timezone: 'Arctic/Longyearbyen',
      hours: every(ALL_DAYS, '10:00', '18:00'),
    },
    {
      id: 'loc_north_pole',
      name: 'Pole Station Kiosk',
      geo: GEO.northPole,
      timezone: 'Etc/UTC',
      hours: every(ALL_DAYS, '00:00', '23:59'),
    },
    {
      id: 'loc_mcmurdo',
      name: 'McMurdo Station Store',
      geo: { latitude: -77.846, longitude: 166.676 },
      timezone: 'Antarctica/McMurdo',
      hours: every(WEEKDAYS, '12:00', '17:00'),
    },
    {
      id: 'loc_kathmandu',
      name: 'Thamel Trekking Gear',
      geo: { latitude: 27.7172, longitude: 85.324 },
      timezone: 'Asia/Kathmandu',
      hours: every(ALL_DAYS, '10:00', '19:00'),
      keywords: ['outdoor', 'camping'],
    },
    {
      id: 'loc_madrid_split',
      name: 'Siesta Market',
      geo: GEO.madrid,
      timezone: 'Europe/Madrid',
      hours: [...every(WEEKDAYS, '09:00', '14:00'), ...every(WEEKDAYS, '17:00', '21:00')],
    },
    {
      id: 'loc_berlin',
      name: 'Berlin Späti',
      geo: GEO.berlin,
      address: { address_locality: 'Berlin', postal_code: '10115', address_country: 'DE' },
      timezone: 'Europe/Berlin',
      hours: every(ALL_DAYS, '00:00', '23:59'),
      exception_hours: [{ title: 'Weihnachten', valid_from: '2026-12-25', valid_through: '2026-12-25' }],
      serves: { countries: ['DE'], postal_codes: { DE: ['10115'] } },
      language: 'de',
      localized: { en: { name: 'Berlin Corner Shop', exception_hours: { '2026-12-25': { title: 'Christmas Day' } } } },
    },
  ];
}

/** Ids of the Locations that must never be returned (R-S11). */
export const PRIVATE_IDS = ['loc_la_private_hub', 'loc_ny_private_kitchen'] as const;
export const PRIVATE_ALIASES = ['valley-hub', 'dark-kitchen', 'downtown-store-kitchen'] as const;
