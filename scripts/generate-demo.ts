/**
 * Generates the demo dataset: `data/demo.ndjson` (locations of the fictional "Meridian Market"
 * chain) and `data/demo-inventory.csv` (an availability feed over the same locations).
 *
 *   npx tsx scripts/generate-demo.ts [outDir=data]
 *
 * Deterministic: a seeded PRNG and fixed tables; running it twice gives byte-identical files. The
 * output is validated with the importer's own rules before it is written, so a broken generator
 * cannot commit bad data.
 *
 * Where each Location is comes from one committed table, data/demo-places.csv (scripts/demo-places.ts):
 * per Location id its locality, neighbourhood, street, postal code and the neighbourhood's centre,
 * chosen to agree with each other and with a map. A store's address is its row's; its coordinates
 * lie within NEIGHBOURHOOD_KM of the row's centre. Store names stay fictional ("Meridian Market").
 *
 * No dates are written: the server adds the coming holidays whenever it loads the demo
 * (src/data/demo-holidays.ts), so nothing in the file goes stale. Everything else is synthetic but
 * plausible: local opening customs, awkward zones (St. John's −3:30, Adelaide +9:30/+10:30, Kolkata
 * +5:30, Phoenix without DST, Fiji/Samoa/Auckland around the antimeridian). The random draws are
 * made in the same order as before the places table existed, so stores kept their ids, formats,
 * amenities and items.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Amenities, Coverage, DailyHour, Day, LocalizedStrings, LocationRecord } from '../src/domain/location.js';
import { DAYS } from '../src/domain/location.js';
import { DatasetChecker } from '../src/data/dataset-checks.js';
import { validateRecord } from '../src/data/validate-record.js';
import { csvRow } from '../src/data/csv.js';
import { formatDataIssue } from '../src/errors.js';
import { readDemoPlaces, type DemoPlace } from './demo-places.js';

// ───────────────────────────── deterministic randomness ─────────────────────────────

/** mulberry32: tiny, fast, good enough for demo data, and identical on every platform. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = prng(20_260_825);
const int = (min: number, max: number): number => min + Math.floor(random() * (max - min + 1));
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
const chance = (p: number): boolean => random() < p;
function sample<T>(list: readonly T[], n: number): T[] {
  const copy = [...list];
  const out: T[] = [];
  while (out.length < n && copy.length > 0) out.push(copy.splice(Math.floor(random() * copy.length), 1)[0] as T);
  return out;
}
/** Rounds degrees to 5 decimals (~1 m), enough for a storefront. */
const deg = (x: number): number => Math.round(x * 1e5) / 1e5;

// ───────────────────────────── city table ─────────────────────────────

const PLACES: ReadonlyMap<string, DemoPlace> = new Map(readDemoPlaces().map((p) => [p.id, p]));

function place(id: string): DemoPlace {
  const row = PLACES.get(id);
  if (row === undefined) throw new Error(`data/demo-places.csv has no row ${id}`);
  return row;
}

/** How far a store may sit from its neighbourhood's centre. */
const NEIGHBOURHOOD_KM = 0.6;

/** A draw whose value is no longer used, kept so that every later draw (formats, items, …) stays as it was. */
const skipDraw = (): void => void random();

type Custom = 'us' | 'ca' | 'uk' | 'de' | 'fr' | 'es' | 'eu' | 'jp' | 'au' | 'nz' | 'pacific' | 'in' | 'sg' | 'latam';

interface City {
  country: string;
  locality: string;
  region: string;
  timezone: string;
  custom: Custom;
  stores: number;
  /** Postal codes of the city, for coverage lists (`serves.postal_codes`); a store's own comes from its row. */
  postal: readonly string[];
  /** Neighbourhoods the stores are drawn from; each drawn one is a row of data/demo-places.csv. */
  hoods: readonly string[];
}

const CITIES: readonly City[] = [
  {
    country: 'US',
    locality: 'New York',
    region: 'NY',
    timezone: 'America/New_York',
    custom: 'us',
    stores: 9,
    postal: ['10001', '10003', '10011', '10012', '10016', '10019', '10022', '10025', '10027', '10036'],
    hoods: [
      'Chelsea',
      'SoHo',
      'Harlem',
      'Upper West Side',
      'Midtown',
      'Union Square',
      'Murray Hill',
      "Hell's Kitchen",
      'East Village',
      'Tribeca',
    ],
  },
  {
    country: 'US',
    locality: 'Brooklyn',
    region: 'NY',
    timezone: 'America/New_York',
    custom: 'us',
    stores: 4,
    postal: ['11201', '11211', '11215', '11217', '11222'],
    hoods: ['Williamsburg', 'Park Slope', 'Greenpoint', 'Brooklyn Heights', 'Fort Greene'],
  },
  {
    country: 'US',
    locality: 'Jersey City',
    region: 'NJ',
    timezone: 'America/New_York',
    custom: 'us',
    stores: 2,
    postal: ['07302', '07306', '07310'],
    hoods: ['Downtown Jersey City', 'Journal Square', 'Newport'],
  },
  {
    country: 'US',
    locality: 'Los Angeles',
    region: 'CA',
    timezone: 'America/Los_Angeles',
    custom: 'us',
    stores: 8,
    postal: ['90012', '90017', '90026', '90027', '90028', '90036', '90046', '90064'],
    hoods: ['Silver Lake', 'Hollywood', 'Koreatown', 'Echo Park', 'Los Feliz', 'Fairfax', 'West Hollywood', 'Westwood', 'Arts District'],
  },
  {
    country: 'US',
    locality: 'San Francisco',
    region: 'CA',
    timezone: 'America/Los_Angeles',
    custom: 'us',
    stores: 5,
    postal: ['94102', '94103', '94110', '94114', '94117'],
    hoods: ['Mission', 'Castro', 'Hayes Valley', 'North Beach', 'SoMa'],
  },
  {
    country: 'US',
    locality: 'Seattle',
    region: 'WA',
    timezone: 'America/Los_Angeles',
    custom: 'us',
    stores: 4,
    postal: ['98101', '98103', '98109', '98122'],
    hoods: ['Capitol Hill', 'Fremont', 'Ballard', 'South Lake Union'],
  },
  {
    country: 'US',
    locality: 'Chicago',
    region: 'IL',
    timezone: 'America/Chicago',
    custom: 'us',
    stores: 6,
    postal: ['60601', '60607', '60614', '60622', '60647'],
    hoods: ['Loop', 'Wicker Park', 'Lincoln Park', 'West Loop', 'Logan Square', 'River North'],
  },
  {
    country: 'US',
    locality: 'Houston',
    region: 'TX',
    timezone: 'America/Chicago',
    custom: 'us',
    stores: 4,
    postal: ['77002', '77006', '77007', '77019'],
    hoods: ['Montrose', 'Midtown', 'Heights', 'River Oaks'],
  },
  {
    country: 'US',
    locality: 'Phoenix',
    region: 'AZ',
    timezone: 'America/Phoenix',
    custom: 'us',
    stores: 3,
    postal: ['85003', '85004', '85016'],
    hoods: ['Roosevelt Row', 'Arcadia', 'Midtown Phoenix'],
  },
  {
    country: 'US',
    locality: 'Denver',
    region: 'CO',
    timezone: 'America/Denver',
    custom: 'us',
    stores: 3,
    postal: ['80202', '80205', '80218'],
    hoods: ['LoDo', 'RiNo', 'Capitol Hill'],
  },
  {
    country: 'US',
    locality: 'Miami',
    region: 'FL',
    timezone: 'America/New_York',
    custom: 'us',
    stores: 3,
    postal: ['33127', '33130', '33137'],
    hoods: ['Wynwood', 'Brickell', 'Little Havana'],
  },
  {
    country: 'US',
    locality: 'Boston',
    region: 'MA',
    timezone: 'America/New_York',
    custom: 'us',
    stores: 3,
    postal: ['02108', '02116', '02118'],
    hoods: ['Back Bay', 'South End', 'Beacon Hill'],
  },
  {
    country: 'US',
    locality: 'Honolulu',
    region: 'HI',
    timezone: 'Pacific/Honolulu',
    custom: 'us',
    stores: 2,
    postal: ['96813', '96815'],
    hoods: ['Waikiki', 'Ala Moana'],
  },
  {
    country: 'US',
    locality: 'Anchorage',
    region: 'AK',
    timezone: 'America/Anchorage',
    custom: 'us',
    stores: 1,
    postal: ['99501'],
    hoods: ['Downtown Anchorage'],
  },
  {
    country: 'CA',
    locality: 'Toronto',
    region: 'ON',
    timezone: 'America/Toronto',
    custom: 'ca',
    stores: 6,
    postal: ['M5V 2T6', 'M5A 1J7', 'M6J 1H4', 'M4Y 1R5', 'M5T 2C7', 'M6K 3P6'],
    hoods: ['Queen West', 'Distillery District', 'Kensington Market', 'Church-Wellesley', 'Liberty Village', 'Leslieville'],
  },
  {
    country: 'CA',
    locality: 'Montréal',
    region: 'QC',
    timezone: 'America/Toronto',
    custom: 'ca',
    stores: 4,
    postal: ['H2X 1Y4', 'H2T 1S6', 'H3B 4W8', 'H2J 2L1'],
    hoods: ['Plateau-Mont-Royal', 'Mile End', 'Ville-Marie', 'Quartier Latin'],
  },
  {
    country: 'CA',
    locality: 'Vancouver',
    region: 'BC',
    timezone: 'America/Vancouver',
    custom: 'ca',
    stores: 4,
    postal: ['V6B 1H7', 'V5T 3C9', 'V6K 2G4', 'V6E 1M7'],
    hoods: ['Gastown', 'Mount Pleasant', 'Kitsilano', 'West End'],
  },
  {
    country: 'CA',
    locality: 'Calgary',
    region: 'AB',
    timezone: 'America/Edmonton',
    custom: 'ca',
    stores: 2,
    postal: ['T2P 1J9', 'T2R 0B5'],
    hoods: ['Beltline', 'Downtown Calgary'],
  },
  {
    country: 'CA',
    locality: "St. John's",
    region: 'NL',
    timezone: 'America/St_Johns',
    custom: 'ca',
    stores: 1,
    postal: ['A1C 1A9'],
    hoods: ["Downtown St. John's"],
  },
  {
    country: 'GB',
    locality: 'London',
    region: 'ENG',
    timezone: 'Europe/London',
    custom: 'uk',
    stores: 10,
    postal: ['EC1V 9LT', 'E1 6QL', 'N1 9GU', 'SE1 9BU', 'W1F 8WE', 'SW9 8PS', 'NW1 8AH', 'WC2H 9JQ', 'E8 3RL', 'W11 2ED'],
    hoods: ['Shoreditch', 'Spitalfields', 'Islington', 'Borough', 'Soho', 'Brixton', 'Camden', 'Covent Garden', 'Hackney', 'Notting Hill'],
  },
  {
    country: 'GB',
    locality: 'Manchester',
    region: 'ENG',
    timezone: 'Europe/London',
    custom: 'uk',
    stores: 3,
    postal: ['M1 1JQ', 'M4 1HN', 'M15 4JY'],
    hoods: ['Northern Quarter', 'Deansgate', 'Hulme'],
  },
  {
    country: 'GB',
    locality: 'Edinburgh',
    region: 'SCT',
    timezone: 'Europe/London',
    custom: 'uk',
    stores: 2,
    postal: ['EH1 1QS', 'EH6 6QU'],
    hoods: ['New Town', 'Leith'],
  },
  {
    country: 'DE',
    locality: 'Berlin',
    region: 'BE',
    timezone: 'Europe/Berlin',
    custom: 'de',
    stores: 7,
    postal: ['10115', '10119', '10178', '10245', '10435', '10999', '12043'],
    hoods: ['Mitte', 'Prenzlauer Berg', 'Friedrichshain', 'Kreuzberg', 'Neukölln', 'Charlottenburg', 'Wedding'],
  },
  {
    country: 'DE',
    locality: 'München',
    region: 'BY',
    timezone: 'Europe/Berlin',
    custom: 'de',
    stores: 4,
    postal: ['80331', '80469', '80799', '81667'],
    hoods: ['Altstadt', 'Glockenbachviertel', 'Schwabing', 'Haidhausen'],
  },
  {
    country: 'DE',
    locality: 'Hamburg',
    region: 'HH',
    timezone: 'Europe/Berlin',
    custom: 'de',
    stores: 3,
    postal: ['20095', '20357', '22767'],
    hoods: ['Altstadt', 'Sternschanze', 'Altona'],
  },
  {
    country: 'DE',
    locality: 'Frankfurt am Main',
    region: 'HE',
    timezone: 'Europe/Berlin',
    custom: 'de',
    stores: 2,
    postal: ['60311', '60594'],
    hoods: ['Innenstadt', 'Sachsenhausen'],
  },
  {
    country: 'DE',
    locality: 'Köln',
    region: 'NW',
    timezone: 'Europe/Berlin',
    custom: 'de',
    stores: 2,
    postal: ['50667', '50674'],
    hoods: ['Altstadt-Nord', 'Kwartier Latäng'],
  },
  {
    country: 'FR',
    locality: 'Paris',
    region: 'IDF',
    timezone: 'Europe/Paris',
    custom: 'fr',
    stores: 5,
    postal: ['75001', '75003', '75011', '75018', '75006'],
    hoods: ['Louvre', 'Le Marais', 'Oberkampf', 'Montmartre', 'Saint-Germain-des-Prés'],
  },
  {
    country: 'FR',
    locality: 'Lyon',
    region: 'ARA',
    timezone: 'Europe/Paris',
    custom: 'fr',
    stores: 1,
    postal: ['69002'],
    hoods: ["Presqu'île"],
  },
  {
    country: 'ES',
    locality: 'Madrid',
    region: 'MD',
    timezone: 'Europe/Madrid',
    custom: 'es',
    stores: 3,
    postal: ['28004', '28012', '28013'],
    hoods: ['Malasaña', 'Lavapiés', 'Centro'],
  },
  {
    country: 'ES',
    locality: 'Barcelona',
    region: 'CT',
    timezone: 'Europe/Madrid',
    custom: 'es',
    stores: 2,
    postal: ['08001', '08010'],
    hoods: ['El Raval', 'Eixample'],
  },
  {
    country: 'NL',
    locality: 'Amsterdam',
    region: 'NH',
    timezone: 'Europe/Amsterdam',
    custom: 'eu',
    stores: 3,
    postal: ['1012 JS', '1016 DR', '1072 LH'],
    hoods: ['Centrum', 'Jordaan', 'De Pijp'],
  },
  {
    country: 'IE',
    locality: 'Dublin',
    region: 'D',
    timezone: 'Europe/Dublin',
    custom: 'uk',
    stores: 2,
    postal: ['D02 X285', 'D08 T6K4'],
    hoods: ['Grafton Quarter', 'The Liberties'],
  },
  {
    country: 'ZA',
    locality: 'Johannesburg',
    region: 'GP',
    timezone: 'Africa/Johannesburg',
    custom: 'eu',
    stores: 2,
    postal: ['2001', '2196'],
    hoods: ['Maboneng', 'Sandton'],
  },
  {
    country: 'JP',
    locality: 'Tokyo',
    region: '13',
    timezone: 'Asia/Tokyo',
    custom: 'jp',
    stores: 8,
    postal: ['150-0041', '150-0001', '160-0022', '110-0005', '106-0032', '153-0042', '155-0031', '101-0021'],
    hoods: ['Shibuya', 'Harajuku', 'Shinjuku', 'Ueno', 'Roppongi', 'Nakameguro', 'Shimokitazawa', 'Akihabara'],
  },
  {
    country: 'JP',
    locality: 'Osaka',
    region: '27',
    timezone: 'Asia/Tokyo',
    custom: 'jp',
    stores: 3,
    postal: ['542-0076', '530-0012', '556-0011'],
    hoods: ['Namba', 'Umeda', 'Nipponbashi'],
  },
  {
    country: 'JP',
    locality: 'Kyoto',
    region: '26',
    timezone: 'Asia/Tokyo',
    custom: 'jp',
    stores: 1,
    postal: ['604-8042'],
    hoods: ['Kawaramachi'],
  },
  {
    country: 'JP',
    locality: 'Sapporo',
    region: '01',
    timezone: 'Asia/Tokyo',
    custom: 'jp',
    stores: 1,
    postal: ['060-0062'],
    hoods: ['Susukino'],
  },
  {
    country: 'AU',
    locality: 'Sydney',
    region: 'NSW',
    timezone: 'Australia/Sydney',
    custom: 'au',
    stores: 6,
    postal: ['2000', '2010', '2021', '2037', '2042', '2060'],
    hoods: ['CBD', 'Surry Hills', 'Paddington', 'Glebe', 'Newtown', 'North Sydney'],
  },
  {
    country: 'AU',
    locality: 'Melbourne',
    region: 'VIC',
    timezone: 'Australia/Melbourne',
    custom: 'au',
    stores: 5,
    postal: ['3000', '3065', '3121', '3182', '3056'],
    hoods: ['CBD', 'Fitzroy', 'Richmond', 'St Kilda', 'Brunswick'],
  },
  {
    country: 'AU',
    locality: 'Brisbane',
    region: 'QLD',
    timezone: 'Australia/Brisbane',
    custom: 'au',
    stores: 3,
    postal: ['4000', '4006', '4101'],
    hoods: ['CBD', 'Fortitude Valley', 'West End'],
  },
  {
    country: 'AU',
    locality: 'Perth',
    region: 'WA',
    timezone: 'Australia/Perth',
    custom: 'au',
    stores: 2,
    postal: ['6000', '6003'],
    hoods: ['CBD', 'Northbridge'],
  },
  {
    country: 'AU',
    locality: 'Adelaide',
    region: 'SA',
    timezone: 'Australia/Adelaide',
    custom: 'au',
    stores: 2,
    postal: ['5000', '5067'],
    hoods: ['CBD', 'Norwood'],
  },
  {
    country: 'AU',
    locality: 'Darwin',
    region: 'NT',
    timezone: 'Australia/Darwin',
    custom: 'au',
    stores: 1,
    postal: ['0800'],
    hoods: ['Darwin City'],
  },
  {
    country: 'NZ',
    locality: 'Auckland',
    region: 'AUK',
    timezone: 'Pacific/Auckland',
    custom: 'nz',
    stores: 4,
    postal: ['1010', '1011', '1021', '1022'],
    hoods: ['CBD', 'Ponsonby', 'Grey Lynn', 'Mt Eden'],
  },
  {
    country: 'NZ',
    locality: 'Wellington',
    region: 'WGN',
    timezone: 'Pacific/Auckland',
    custom: 'nz',
    stores: 2,
    postal: ['6011', '6021'],
    hoods: ['Te Aro', 'Lambton'],
  },
  {
    country: 'NZ',
    locality: 'Christchurch',
    region: 'CAN',
    timezone: 'Pacific/Auckland',
    custom: 'nz',
    stores: 1,
    postal: ['8011'],
    hoods: ['Central City'],
  },
  {
    country: 'FJ',
    locality: 'Suva',
    region: 'C',
    timezone: 'Pacific/Fiji',
    custom: 'pacific',
    stores: 2,
    postal: [],
    hoods: ['Suva Central', 'Toorak'],
  },
  {
    country: 'FJ',
    locality: 'Nadi',
    region: 'W',
    timezone: 'Pacific/Fiji',
    custom: 'pacific',
    stores: 1,
    postal: [],
    hoods: ['Nadi Town'],
  },
  {
    country: 'FJ',
    locality: 'Labasa',
    region: 'N',
    timezone: 'Pacific/Fiji',
    custom: 'pacific',
    stores: 1,
    postal: [],
    hoods: ['Labasa Town'],
  },
  {
    country: 'WS',
    locality: 'Apia',
    region: 'TU',
    timezone: 'Pacific/Apia',
    custom: 'pacific',
    stores: 1,
    postal: [],
    hoods: ['Apia Central'],
  },
  {
    country: 'IN',
    locality: 'Mumbai',
    region: 'MH',
    timezone: 'Asia/Kolkata',
    custom: 'in',
    stores: 5,
    postal: ['400001', '400050', '400053', '400013', '400005'],
    hoods: ['Fort', 'Bandra West', 'Andheri West', 'Lower Parel', 'Colaba'],
  },
  {
    country: 'IN',
    locality: 'New Delhi',
    region: 'DL',
    timezone: 'Asia/Kolkata',
    custom: 'in',
    stores: 4,
    postal: ['110001', '110016', '110024', '110048'],
    hoods: ['Connaught Place', 'Hauz Khas', 'Lajpat Nagar', 'Greater Kailash'],
  },
  {
    country: 'IN',
    locality: 'Bengaluru',
    region: 'KA',
    timezone: 'Asia/Kolkata',
    custom: 'in',
    stores: 3,
    postal: ['560001', '560038', '560034'],
    hoods: ['MG Road', 'Indiranagar', 'Koramangala'],
  },
  {
    country: 'SG',
    locality: 'Singapore',
    region: '01',
    timezone: 'Asia/Singapore',
    custom: 'sg',
    stores: 3,
    postal: ['049321', '238859', '169663'],
    hoods: ['Telok Ayer', 'Orchard', 'Tiong Bahru'],
  },
  {
    country: 'BR',
    locality: 'São Paulo',
    region: 'SP',
    timezone: 'America/Sao_Paulo',
    custom: 'latam',
    stores: 3,
    postal: ['01310-100', '05414-001', '04538-132'],
    hoods: ['Bela Vista', 'Pinheiros', 'Itaim Bibi'],
  },
  {
    country: 'MX',
    locality: 'Ciudad de México',
    region: 'CMX',
    timezone: 'America/Mexico_City',
    custom: 'latam',
    stores: 3,
    postal: ['06700', '06140', '11560'],
    hoods: ['Roma Norte', 'Condesa', 'Polanco'],
  },
];

// ───────────────────────────── amenities, keywords, items ─────────────────────────────

/**
 * ~20 amenities. Only the four identifiers the UCP draft documents use the reserved `dev.ucp`
 * namespace (R-N1); the chain's own features live under its own domain. Descriptions are
 * localised per country (the seed says a Business SHOULD localise them).
 */
const AMENITY_TEXT: Record<string, { en: string; de?: string; fr?: string; es?: string; ja?: string }> = {
  'dev.ucp.amenity.parking': { en: 'Parking', de: 'Parkplatz', fr: 'Parking', es: 'Aparcamiento', ja: '駐車場' },
  'dev.ucp.amenity.wi_fi': { en: 'Free Wi-Fi', de: 'Kostenloses WLAN', fr: 'Wi-Fi gratuit', es: 'Wi-Fi gratis', ja: '無料Wi-Fi' },
  'dev.ucp.amenity.shopping.curbside_pickup': {
    en: 'Curbside pickup',
    de: 'Abholung am Straßenrand',
    fr: 'Retrait en bordure de trottoir',
    es: 'Recogida en la acera',
    ja: '店頭受け取り（車）',
  },
  'dev.ucp.amenity.shopping.in_store_pickup': {
    en: 'In-store pickup',
    de: 'Abholung im Markt',
    fr: 'Retrait en magasin',
    es: 'Recogida en tienda',
    ja: '店内受け取り',
  },
  'com.example.meridian.amenity.restroom': { en: 'Restrooms', de: 'Toiletten', fr: 'Toilettes', es: 'Aseos', ja: 'お手洗い' },
  'com.example.meridian.amenity.wheelchair_accessible': {
    en: 'Wheelchair accessible',
    de: 'Rollstuhlgerecht',
    fr: 'Accessible en fauteuil roulant',
    es: 'Accesible en silla de ruedas',
    ja: '車いす対応',
  },
  'com.example.meridian.amenity.ev_charging': {
    en: 'EV charging',
    de: 'E-Ladestation',
    fr: 'Recharge de véhicules électriques',
    es: 'Carga de vehículos eléctricos',
    ja: 'EV充電',
  },
  'com.example.meridian.amenity.atm': { en: 'ATM', de: 'Geldautomat', fr: 'Distributeur de billets', es: 'Cajero automático', ja: 'ATM' },
  'com.example.meridian.amenity.pharmacy': { en: 'Pharmacy', de: 'Apotheke', fr: 'Pharmacie', es: 'Farmacia', ja: '薬局' },
  'com.example.meridian.amenity.bakery': {
    en: 'In-store bakery',
    de: 'Backshop',
    fr: 'Boulangerie sur place',
    es: 'Panadería propia',
    ja: 'ベーカリー',
  },
  'com.example.meridian.amenity.deli': {
    en: 'Deli counter',
    de: 'Feinkosttheke',
    fr: 'Rayon traiteur',
    es: 'Charcutería',
    ja: 'デリカウンター',
  },
  'com.example.meridian.amenity.seating': {
    en: 'Seating area',
    de: 'Sitzbereich',
    fr: 'Espace assis',
    es: 'Zona de asientos',
    ja: 'イートインスペース',
  },
  'com.example.meridian.amenity.bike_parking': {
    en: 'Bike parking',
    de: 'Fahrradstellplätze',
    fr: 'Parking vélos',
    es: 'Aparcabicis',
    ja: '駐輪場',
  },
  'com.example.meridian.amenity.baby_changing': {
    en: 'Baby changing room',
    de: 'Wickelraum',
    fr: 'Table à langer',
    es: 'Cambiador de bebés',
    ja: 'おむつ交換台',
  },
  'com.example.meridian.amenity.self_checkout': {
    en: 'Self-checkout',
    de: 'Selbstbedienungskasse',
    fr: 'Caisses automatiques',
    es: 'Autopago',
    ja: 'セルフレジ',
  },
  'com.example.meridian.amenity.returns_desk': {
    en: 'Returns desk',
    de: 'Retourenschalter',
    fr: 'Service retours',
    es: 'Mostrador de devoluciones',
    ja: '返品カウンター',
  },
  'com.example.meridian.amenity.drive_through_pickup': {
    en: 'Drive-through pickup',
    de: 'Drive-in-Abholung',
    fr: 'Retrait au volant',
    es: 'Recogida en coche',
    ja: 'ドライブスルー受け取り',
  },
  'com.example.meridian.amenity.phone_repair': {
    en: 'Phone repair bar',
    de: 'Handy-Reparatur',
    fr: 'Réparation de téléphones',
    es: 'Reparación de móviles',
    ja: 'スマホ修理',
  },
  'com.example.meridian.amenity.pickup_lockers': {
    en: 'Pickup lockers',
    de: 'Abholschließfächer',
    fr: 'Casiers de retrait',
    es: 'Taquillas de recogida',
    ja: '受け取りロッカー',
  },
  'com.example.meridian.amenity.hot_food': {
    en: 'Hot food counter',
    de: 'Heiße Theke',
    fr: 'Plats chauds',
    es: 'Comida caliente',
    ja: 'ホットスナック',
  },
  'com.example.meridian.amenity.key_cutting': {
    en: 'Key cutting',
    de: 'Schlüsseldienst',
    fr: 'Reproduction de clés',
    es: 'Copia de llaves',
    ja: '合鍵作製',
  },
};
const LANGUAGE: Record<Custom, 'en' | 'de' | 'fr' | 'es' | 'ja'> = {
  us: 'en',
  ca: 'en',
  uk: 'en',
  de: 'de',
  fr: 'fr',
  es: 'es',
  eu: 'en',
  jp: 'ja',
  au: 'en',
  nz: 'en',
  pacific: 'en',
  in: 'en',
  sg: 'en',
  latam: 'es',
};

function amenities(ids: readonly string[], custom: Custom): Amenities {
  const lang = LANGUAGE[custom];
  const out: Amenities = {};
  for (const id of [...ids].sort()) {
    const text = AMENITY_TEXT[id];
    if (text === undefined) throw new Error(`no text for amenity ${id}`);
    out[id] = { description: text[lang] ?? text.en };
  }
  return out;
}

const ITEM_FAMILIES = {
  grocery: [
    'milk_whole_1l',
    'milk_oat_1l',
    'milk_almond_1l',
    'eggs_free_range_12',
    'eggs_free_range_6',
    'butter_salted_250g',
    'yogurt_greek_500g',
    'cheddar_mature_400g',
    'bread_sourdough',
    'bread_wholemeal',
    'bagels_plain_4',
    'croissants_4',
    'bananas_1kg',
    'apples_gala_1kg',
    'avocados_2',
    'lemons_4',
    'tomatoes_vine_500g',
    'spinach_baby_200g',
    'carrots_1kg',
    'potatoes_2kg',
    'onions_yellow_1kg',
    'garlic_3',
    'rice_basmati_1kg',
    'rice_jasmine_1kg',
    'pasta_spaghetti_500g',
    'pasta_penne_500g',
    'olive_oil_extra_virgin_500ml',
    'tomato_passata_700g',
    'chickpeas_400g',
    'black_beans_400g',
    'tuna_chunks_160g',
    'peanut_butter_340g',
    'honey_wildflower_340g',
    'oats_rolled_1kg',
    'granola_500g',
    'coffee_beans_1kg',
    'coffee_ground_250g',
    'tea_black_80',
    'tea_green_40',
    'orange_juice_1l',
    'sparkling_water_6',
    'still_water_6',
    'cola_6',
    'chocolate_dark_100g',
    'crisps_sea_salt_150g',
    'cookies_choc_chip',
    'ice_cream_vanilla_1l',
    'frozen_peas_1kg',
    'pizza_margherita_frozen',
    'chicken_breast_500g',
    'salmon_fillet_2',
    'tofu_firm_400g',
    'hummus_200g',
    'kimchi_400g',
    'miso_paste_500g',
    'soy_sauce_500ml',
    'sriracha_435ml',
    'maple_syrup_250ml',
    'flour_plain_1kg',
    'sugar_cane_1kg',
    'salt_sea_500g',
    'pepper_black_100g',
    'basmati_ready_250g',
    'noodles_udon_3',
    'ramen_instant_5',
    'tortillas_corn_12',
    'salsa_verde_450g',
    'ghee_500g',
    'paneer_200g',
    'atta_flour_5kg',
    'lentils_red_1kg',
    'masala_chai_250g',
  ],
  household: [
    'paper_towels_6',
    'toilet_paper_12',
    'dish_soap_750ml',
    'laundry_liquid_2l',
    'sponges_5',
    'bin_bags_30',
    'aluminium_foil_30m',
    'batteries_aa_8',
    'batteries_aaa_8',
    'light_bulb_led_e27',
    'light_bulb_led_gu10',
    'hand_soap_500ml',
    'surface_spray_750ml',
    'dishwasher_tabs_40',
    'candles_tealight_50',
  ],
  personal: [
    'toothpaste_mint_100ml',
    'toothbrush_soft_2',
    'shampoo_400ml',
    'conditioner_400ml',
    'body_wash_500ml',
    'deodorant_roll_on',
    'sunscreen_spf50_200ml',
    'razor_blades_4',
    'cotton_pads_100',
    'lip_balm',
    'hand_cream_75ml',
    'plasters_40',
    'paracetamol_500mg_16',
    'ibuprofen_200mg_24',
    'allergy_relief_30',
    'vitamin_c_1000mg_60',
    'vitamin_d3_90',
    'face_masks_10',
    'hand_sanitiser_250ml',
  ],
  electronics: [
    'phone_15',
    'phone_15_plus',
    'phone_15_pro_max',
    'phone_14',
    'phone_se',
    'phone_budget_5g',
    'tablet_air_11',
    'tablet_mini',
    'tablet_kids',
    'laptop_air_13',
    'laptop_pro_14',
    'chromebook_11',
    'earbuds_pro',
    'earbuds_basic',
    'headphones_over_ear_nc',
    'speaker_portable',
    'speaker_smart_mini',
    'watch_smart_41mm',
    'watch_smart_45mm',
    'fitness_band',
    'charger_usb_c_20w',
    'charger_usb_c_30w',
    'charger_usb_c_65w',
    'cable_usb_c_1m',
    'cable_usb_c_2m',
    'cable_lightning_1m',
    'power_bank_10000',
    'power_bank_20000',
    'wireless_charger_pad',
    'car_charger_dual',
    'case_phone_15_clear',
    'case_phone_15_pro_clear',
    'screen_protector_15',
    'screen_protector_15_pro',
    'sim_prepaid_starter',
    'memory_card_128gb',
    'usb_stick_64gb',
    'hdmi_cable_2m',
    'mouse_wireless',
    'keyboard_wireless',
    'webcam_1080p',
    'e_reader_basic',
    'camera_instant',
    'film_instant_20',
    'game_controller',
    'streaming_stick_4k',
    'tracker_tag_4',
  ],
  pantry_extras: [
    'sparkling_lemonade_330ml',
    'kombucha_ginger_330ml',
    'energy_drink_250ml',
    'iced_tea_peach_500ml',
    'coconut_water_1l',
    'cold_brew_coffee_250ml',
    'apple_juice_1l',
    'tomato_juice_1l',
    'ginger_beer_4',
    'mineral_water_1_5l',
    'oat_latte_can_250ml',
    'matcha_powder_30g',
    'hot_chocolate_500g',
    'pretzels_salted_200g',
    'popcorn_sweet_salty_100g',
    'rice_crackers_150g',
    'trail_mix_200g',
    'almonds_roasted_200g',
    'dried_mango_100g',
    'protein_bar_peanut',
    'granola_bar_6',
    'seaweed_snack_10',
    'dark_chocolate_almond_100g',
    'gummy_bears_200g',
    'mints_peppermint',
    'chewing_gum_spearmint',
    'biscuits_digestive_400g',
    'shortbread_200g',
    'wafer_rolls_150g',
    'nachos_cheese_200g',
  ],
  baby_and_pet: [
    'nappies_size_3_40',
    'nappies_size_4_36',
    'baby_wipes_80',
    'baby_formula_800g',
    'baby_food_pouch_apple',
    'baby_shampoo_300ml',
    'teething_rings_2',
    'dog_food_dry_2kg',
    'dog_treats_200g',
    'cat_food_wet_12',
    'cat_litter_10l',
    'cat_treats_60g',
    'pet_shampoo_250ml',
    'bird_seed_1kg',
    'fish_flakes_50g',
  ],
  stationery: [
    'notebook_a5_ruled',
    'notebook_a4_grid',
    'ballpoint_pens_10',
    'gel_pens_colour_8',
    'highlighters_4',
    'pencils_hb_12',
    'eraser_2',
    'sticky_notes_6',
    'printer_paper_a4_500',
    'envelopes_c5_50',
    'greeting_card_birthday',
    'greeting_card_thank_you',
    'sellotape_2',
    'scissors_office',
    'glue_stick_3',
    'stamps_first_class_6',
    'calendar_2027_wall',
    'diary_2027_a5',
    'planner_2027_weekly',
    'photo_frame_10x15',
  ],
  hot_food: [
    'coffee_flat_white',
    'coffee_americano',
    'tea_chai_latte',
    'sandwich_blt',
    'sandwich_veggie',
    'onigiri_salmon',
    'onigiri_tuna_mayo',
    'bento_karaage',
    'samosa_2',
    'burrito_bean',
    'pie_steak',
    'sausage_roll',
    'pastel_de_nata',
    'bao_pork_2',
    'soup_tomato',
    'salad_caesar',
    'sushi_set_8',
    'pizza_slice',
  ],
  seasonal: [
    'advent_calendar_chocolate',
    'mince_pies_6',
    'stollen_750g',
    'panettone_750g',
    'christmas_pudding_400g',
    'gingerbread_house_kit',
    'wrapping_paper_roll',
    'gift_card_25',
    'gift_card_50',
    'gift_card_100',
    'christmas_crackers_6',
    'fairy_lights_100',
    'osechi_set_small',
    'mochi_kagami',
    'new_year_sparklers',
    'champagne_flute_2',
    'eggnog_1l',
    'candy_canes_12',
    'tree_ornaments_12',
    'sparkling_grape_juice',
    'red_envelopes_10',
    'diya_lamps_6',
    'sweets_box_500g',
  ],
} as const satisfies Record<string, readonly string[]>;
const itemId = (slug: string): string => `item_id_${slug}`;
const ALL_ITEMS: string[] = Object.values(ITEM_FAMILIES).flat().map(itemId);

// ───────────────────────────── opening hours ─────────────────────────────

type Format = 'market' | 'express' | 'late' | 'allday' | 'split' | 'hub';

const h = (day: Day, opens: string, closes: string): DailyHour => ({ day, opens, closes });
const everyDay = (days: readonly Day[], opens: string, closes: string): DailyHour[] => days.map((d) => h(d, opens, closes));
const WEEKDAYS = DAYS.slice(0, 5);

function weeklyHours(format: Format, custom: Custom): DailyHour[] {
  switch (format) {
    case 'allday':
      return everyDay(DAYS, '00:00', '23:59');
    case 'late':
      // Overnight intervals: opens in the morning, closes after midnight on the next local date.
      return [
        ...everyDay(['monday', 'tuesday', 'wednesday', 'thursday', 'sunday'], '07:00', '01:00'),
        ...everyDay(['friday', 'saturday'], '07:00', '03:00'),
      ];
    case 'split':
      // Lunch closure (southern Europe / Latin America) and Saturday morning only.
      return [...WEEKDAYS.flatMap((d) => [h(d, '09:00', '13:30'), h(d, '16:30', '20:30')]), h('saturday', '09:30', '14:00')];
    case 'express':
      return [...everyDay(WEEKDAYS, '06:30', '22:00'), ...everyDay(['saturday', 'sunday'], '08:00', '22:00')];
    case 'hub':
      // Fulfilment hubs pick overnight and in two daytime waves.
      return [...WEEKDAYS.flatMap((d) => [h(d, '05:00', '11:00'), h(d, '14:00', '23:00')]), h('saturday', '06:00', '18:00')];
    case 'market':
      if (custom === 'de') return everyDay([...WEEKDAYS, 'saturday'], '07:00', '22:00');
      if (custom === 'uk') return [...everyDay([...WEEKDAYS, 'saturday'], '07:00', '22:00'), h('sunday', '10:00', '16:00')];
      if (custom === 'fr') return [...everyDay([...WEEKDAYS, 'saturday'], '08:30', '21:00'), h('sunday', '09:00', '13:00')];
      if (custom === 'in') return everyDay(DAYS, '10:00', '22:00');
      if (custom === 'pacific') return [...everyDay(WEEKDAYS, '08:00', '18:00'), h('saturday', '08:00', '13:00')];
      return [...everyDay([...WEEKDAYS, 'saturday'], '08:00', '21:00'), h('sunday', '09:00', '19:00')];
  }
}

function formatFor(custom: Custom): Format {
  if (custom === 'jp') return pick(['allday', 'allday', 'express', 'market'] as const);
  if (custom === 'es' || custom === 'latam') return pick(['split', 'split', 'market'] as const);
  if (custom === 'fr') return pick(['split', 'market', 'market'] as const);
  return pick(['market', 'market', 'market', 'express', 'late', 'allday'] as const);
}

// ───────────────────────────── holiday season (Nov 2026 – Jan 2027) ─────────────────────────────

// ───────────────────────────── addresses ─────────────────────────────

function streetAddress(city: City, street: string): string {
  switch (city.custom) {
    case 'de':
    case 'latam':
      return `${street} ${int(1, 240)}`;
    case 'es':
      return `${street}, ${int(1, 180)}`;
    case 'fr':
      return `${int(1, 160)} ${street}`;
    case 'jp':
      return `${street} ${int(1, 6)}-${int(1, 30)}-${int(1, 20)}`;
    case 'in':
      return `${int(1, 300)}, ${street}`;
    default:
      return `${int(1, 2400)} ${street}`;
  }
}

/** A point within `km` kilometres of `c`: uniform in a square of half-side km/√2, so its corners stay inside. */
function jitter(c: { latitude: number; longitude: number }, km: number): { latitude: number; longitude: number } {
  const half = km / Math.SQRT2;
  const dLat = ((random() * 2 - 1) * half) / 111.2;
  const dLon = ((random() * 2 - 1) * half) / (111.2 * Math.cos((c.latitude * Math.PI) / 180));
  return { latitude: deg(c.latitude + dLat), longitude: deg(c.longitude + dLon) };
}

/** A counter-clockwise (RFC 7946 exterior) square ring around a point, ± `d` degrees. */
function squareAround(p: { latitude: number; longitude: number }, d: number): [number, number][] {
  const [w, e, s, n] = [deg(p.longitude - d), deg(p.longitude + d), deg(p.latitude - d), deg(p.latitude + d)];
  return [
    [w, s],
    [e, s],
    [e, n],
    [w, n],
    [w, s],
  ];
}

// ───────────────────────────── the two seed records ─────────────────────────────

/** Seed example (lookup): exactly the record of the issue contract. */
const DOWNTOWN: LocationRecord = {
  id: 'loc_downtown',
  name: 'Downtown Store',
  aliases: ['downtown-store'],
  address: {
    street_address: '100 Broadway',
    address_locality: 'New York',
    address_region: 'NY',
    address_country: 'US',
    postal_code: '10005',
  },
  geo: { latitude: 40.707, longitude: -74.011 },
  amenities: { 'dev.ucp.amenity.parking': { description: 'Parking' } },
  timezone: 'America/New_York',
  hours: [{ day: 'monday', opens: '09:00', closes: '21:00' }],
  visibility: 'public',
  keywords: ['electronics', 'phones'],
  serves: {
    radius_m: 8000,
    areas: [
      {
        type: 'Polygon',
        coordinates: [
          [
            [-74.02, 40.7],
            [-74.0, 40.7],
            [-74.0, 40.72],
            [-74.02, 40.7],
          ],
        ],
      },
    ],
    postal_codes: { US: ['10005', '10004'] },
  },
  items: ['item_id_phone_15_pro'],
};

/** Seed example (search "grocery store"): a San Fernando Valley grocer, open Mondays from 10:00. */
const VALLEY_GROCERS: LocationRecord = {
  id: 'loc_valley_grocers',
  name: 'Valley Grocers',
  aliases: ['valley-grocers', 'mm-0002'],
  address: {
    street_address: '14520 Ventura Blvd',
    address_locality: 'Sherman Oaks',
    address_region: 'CA',
    postal_code: '91403',
    address_country: 'US',
  },
  geo: { latitude: 34.1513, longitude: -118.4512 },
  amenities: amenities(
    [
      'dev.ucp.amenity.parking',
      'dev.ucp.amenity.shopping.curbside_pickup',
      'com.example.meridian.amenity.bakery',
      'com.example.meridian.amenity.wheelchair_accessible',
    ],
    'us',
  ),
  timezone: 'America/Los_Angeles',
  hours: [
    h('monday', '10:00', '20:00'),
    ...everyDay(['tuesday', 'wednesday', 'thursday', 'friday', 'saturday'], '08:00', '21:00'),
    h('sunday', '09:00', '18:00'),
  ],
  keywords: ['grocery', 'grocery store', 'supermarket', 'produce', 'organic', 'bakery'],
  serves: { radius_m: 12000, postal_codes: { US: ['91403', '91423', '91411', '91604', '91401'] } },
  items: ITEM_FAMILIES.grocery.slice(0, 40).map(itemId),
};

// ───────────────────────────── generation ─────────────────────────────

const BRAND = 'Meridian Market';
const FORMAT_NAME: Record<Format, string> = {
  market: BRAND,
  express: `${BRAND} Express`,
  late: `${BRAND} Late`,
  allday: `${BRAND} 24/7`,
  split: BRAND,
  hub: 'Meridian Fulfilment Hub',
};
const BASE_AMENITIES = [
  'dev.ucp.amenity.wi_fi',
  'dev.ucp.amenity.shopping.in_store_pickup',
  'com.example.meridian.amenity.wheelchair_accessible',
  'com.example.meridian.amenity.restroom',
];
const OPTIONAL_AMENITIES = Object.keys(AMENITY_TEXT).filter((k) => !BASE_AMENITIES.includes(k));

function slug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function storeItems(format: Format, custom: Custom, electronics: boolean): string[] {
  const families: string[] = [
    ...sample(ITEM_FAMILIES.grocery, int(25, 45)),
    ...sample(ITEM_FAMILIES.household, int(5, 10)),
    ...sample(ITEM_FAMILIES.personal, int(5, 12)),
  ];
  if (electronics) families.push(...sample(ITEM_FAMILIES.electronics, int(12, 30)));
  if (format === 'allday' || format === 'late' || custom === 'jp') families.push(...sample(ITEM_FAMILIES.hot_food, int(4, 9)));
  families.push(...sample(ITEM_FAMILIES.pantry_extras, int(5, 12)), ...sample(ITEM_FAMILIES.stationery, int(0, 6)));
  if (chance(0.5)) families.push(...sample(ITEM_FAMILIES.baby_and_pet, int(3, 8)));
  families.push(...sample(ITEM_FAMILIES.seasonal, int(3, 8)));
  return families.map(itemId);
}

function storeKeywords(format: Format, electronics: boolean, amen: readonly string[]): string[] {
  const k = ['grocery', format === 'market' || format === 'split' ? 'supermarket' : 'convenience store'];
  if (format === 'allday') k.push('24 hours', 'open late');
  if (format === 'late') k.push('open late');
  if (electronics) k.push('electronics', 'phones', 'accessories');
  if (amen.includes('com.example.meridian.amenity.pharmacy')) k.push('pharmacy');
  if (amen.includes('com.example.meridian.amenity.bakery')) k.push('bakery');
  if (chance(0.3)) k.push('organic');
  return k;
}

function generateStores(): LocationRecord[] {
  const records: LocationRecord[] = [];
  let storeNo = 100;
  for (const city of CITIES) {
    const hoods = sample(city.hoods, city.stores);
    for (let i = 0; i < city.stores; i++) {
      storeNo += 1;
      const format = formatFor(city.custom);
      const hood = hoods[i % hoods.length] as string;
      const electronics = chance(0.35);
      const amen = [...BASE_AMENITIES.filter(() => chance(0.8)), ...sample(OPTIONAL_AMENITIES, int(2, 7))];
      if (electronics && !amen.includes('com.example.meridian.amenity.phone_repair') && chance(0.6))
        amen.push('com.example.meridian.amenity.phone_repair');
      const id = `loc_${slug(city.locality)}_${slug(hood)}`.replace(/-/g, '_');
      const row = place(id);
      const geo = jitter(row, NEIGHBOURHOOD_KM);
      const street = streetAddress(city, row.street);
      skipDraw(); // was the street, now the row's
      if (city.postal.length > 0) skipDraw(); // was the postal code, now the row's
      const address = {
        street_address: street,
        address_locality: row.locality,
        address_region: city.region,
        ...(row.postalCode !== '' ? { postal_code: row.postalCode } : {}),
        address_country: city.country,
      };
      const number = `mm-${String(storeNo).padStart(4, '0')}`;
      const serves: Coverage = { radius_m: pick([3000, 5000, 8000, 10000, 15000]) };
      if (city.postal.length > 1 && chance(0.5)) serves.postal_codes = { [city.country]: sample(city.postal, int(2, city.postal.length)) };
      if (chance(0.15)) serves.regions = { [city.country]: [city.region] };
      if (chance(0.1)) serves.areas = [{ type: 'Polygon', coordinates: [squareAround(geo, 0.05)] }];
      skipDraw(); // was a dated refit closure; demo-holidays.ts adds closures relative to today
      const record: LocationRecord = {
        id,
        name: `${FORMAT_NAME[format]} ${hood}`,
        aliases: chance(0.5) ? [number, slug(`${city.locality} ${hood}`)] : [number],
        address,
        geo,
        amenities: amenities(amen, city.custom),
        timezone: city.timezone,
        hours: weeklyHours(format, city.custom),
        ...(chance(0.3) ? { visibility: 'public' as const } : {}),
        keywords: storeKeywords(format, electronics, amen),
        serves,
        items: storeItems(format, city.custom, electronics),
      };
      records.push(record);
    }
  }
  return records;
}

/** Dark kitchens and fulfilment hubs: private (never returned by search or lookup, R-S11). */
function generateHubs(): LocationRecord[] {
  const hubs: {
    id: string;
    name: string;
    country: string;
    region: string;
    tz: string;
    custom: Custom;
    /** Number and street; street, locality and postal code agree with the hub's row of data/demo-places.csv. */
    street: string;
    serves: Coverage;
  }[] = [
    {
      id: 'hub_newark',
      name: 'Meridian Fulfilment Hub Newark',
      country: 'US',
      region: 'NJ',
      tz: 'America/New_York',
      custom: 'us',
      street: '400 Doremus Ave',
      serves: { regions: { US: ['NY', 'NJ'] } },
    },
    {
      id: 'hub_london_shoreditch_kitchen',
      name: 'Meridian Dark Kitchen Shoreditch',
      country: 'GB',
      region: 'ENG',
      tz: 'Europe/London',
      custom: 'uk',
      street: '12 Rivington Street',
      serves: { radius_m: 4000 },
    },
    {
      id: 'hub_berlin_spandau',
      name: 'Meridian Fulfilment Hub Spandau',
      country: 'DE',
      region: 'BE',
      tz: 'Europe/Berlin',
      custom: 'de',
      street: 'Freiheit 9',
      serves: { countries: ['DE'] },
    },
    {
      id: 'hub_tokyo_koto',
      name: 'Meridian Fulfilment Hub Koto',
      country: 'JP',
      region: '13',
      tz: 'Asia/Tokyo',
      custom: 'jp',
      street: 'Shinkiba 1-7-1',
      serves: { regions: { JP: ['13', '11', '12', '14'] } },
    },
    {
      id: 'hub_sydney_alexandria',
      name: 'Meridian Dark Kitchen Alexandria',
      country: 'AU',
      region: 'NSW',
      tz: 'Australia/Sydney',
      custom: 'au',
      street: '40 Bourke Rd',
      serves: { radius_m: 7000 },
    },
    {
      id: 'hub_mumbai_bhiwandi',
      name: 'Meridian Fulfilment Hub Bhiwandi',
      country: 'IN',
      region: 'MH',
      tz: 'Asia/Kolkata',
      custom: 'in',
      street: 'Mumbai-Nashik Highway',
      serves: { regions: { IN: ['MH'] } },
    },
  ];
  return hubs.map((hub) => {
    const row = place(hub.id);
    if (!hub.street.includes(row.street)) throw new Error(`${hub.id}: ${hub.street} is not on ${row.street}`);
    const geo = jitter(row, NEIGHBOURHOOD_KM);
    return {
      id: hub.id,
      name: hub.name,
      address: {
        street_address: hub.street,
        address_locality: row.locality,
        address_region: hub.region,
        ...(row.postalCode !== '' ? { postal_code: row.postalCode } : {}),
        address_country: hub.country,
      },
      geo,
      timezone: hub.tz,
      hours: weeklyHours('hub', hub.custom),
      visibility: 'private',
      keywords: ['fulfilment', 'delivery'],
      serves: hub.serves,
      items: sample(ALL_ITEMS, 60),
    };
  });
}

/** Stores whose coverage shows antimeridian handling and nationwide shipping. */
function generateSpecials(): LocationRecord[] {
  const labasa = place('loc_labasa_vanua_levu');
  const auckland = place('loc_auckland_online');
  return [
    {
      id: 'loc_labasa_vanua_levu',
      name: `${BRAND} Vanua Levu`,
      aliases: ['mm-0090'],
      address: { street_address: 'Nasekula Rd', address_locality: 'Labasa', address_region: 'N', address_country: 'FJ' },
      geo: { latitude: deg(labasa.latitude), longitude: deg(labasa.longitude) },
      amenities: amenities(['dev.ucp.amenity.parking', 'dev.ucp.amenity.shopping.in_store_pickup'], 'pacific'),
      timezone: 'Pacific/Fiji',
      hours: weeklyHours('market', 'pacific'),
      keywords: ['grocery', 'supermarket', 'delivery'],
      // Taveuni straddles 180°: the delivery area is split at the antimeridian (RFC 7946 §3.1.9).
      serves: {
        radius_m: 25000,
        areas: [
          {
            type: 'MultiPolygon',
            coordinates: [
              [
                [
                  [179.8, -17.1],
                  [180, -17.1],
                  [180, -16.6],
                  [179.8, -16.6],
                  [179.8, -17.1],
                ],
              ],
              [
                [
                  [-180, -17.1],
                  [-179.85, -17.1],
                  [-179.85, -16.6],
                  [-180, -16.6],
                  [-180, -17.1],
                ],
              ],
            ],
          },
        ],
      },
      items: sample(ITEM_FAMILIES.grocery, 30).map(itemId),
    },
    {
      id: 'loc_auckland_online',
      name: `${BRAND} Online NZ (Auckland pickup)`,
      aliases: ['mm-0091', 'nz-online'],
      address: {
        street_address: '22 Fanshawe St',
        address_locality: 'Auckland',
        address_region: 'AUK',
        postal_code: '1010',
        address_country: 'NZ',
      },
      geo: jitter(auckland, NEIGHBOURHOOD_KM),
      amenities: amenities(['com.example.meridian.amenity.pickup_lockers', 'dev.ucp.amenity.shopping.in_store_pickup'], 'nz'),
      timezone: 'Pacific/Auckland',
      hours: everyDay(DAYS, '07:00', '22:00'),
      visibility: 'public',
      keywords: ['grocery', 'electronics', 'online', 'nationwide delivery'],
      serves: { countries: ['NZ'] },
      items: sample(ALL_ITEMS, 120),
    },
  ];
}

// ───────────────────────────── languages and translations (R-C3) ─────────────────────────────

type Lang = 'en' | 'de' | 'fr' | 'es' | 'ja';

/** Japanese names of the New York stores (the brand and district names in katakana). */
const JA_BRAND = 'メリディアン・マーケット';
const JA_FORMAT: Record<string, string> = { Express: 'エクスプレス', Late: 'レイト', '24/7': '24/7' };
const JA_NEW_YORK: Record<string, string> = {
  Chelsea: 'チェルシー',
  'East Village': 'イースト・ヴィレッジ',
  Harlem: 'ハーレム',
  "Hell's Kitchen": 'ヘルズ・キッチン',
  Midtown: 'ミッドタウン',
  'Murray Hill': 'マレー・ヒル',
  SoHo: 'ソーホー',
  'Union Square': 'ユニオン・スクエア',
  'Upper West Side': 'アッパー・ウエスト・サイド',
};

function japaneseName(name: string): string {
  const m = /^Meridian Market(?: (Express|Late|24\/7))? (.+)$/.exec(name);
  const hood = m?.[2] === undefined ? undefined : JA_NEW_YORK[m[2]];
  if (m === null || hood === undefined) throw new Error(`no Japanese name for ${name}`);
  return [JA_BRAND, ...(m[1] === undefined ? [] : [JA_FORMAT[m[1]]]), hood].join(' ');
}

/** The record's strings in `to` (its own language is `from`): the name (in katakana for Japanese) and amenities; holiday titles come with the holidays (demo-holidays.ts). */
function translation(record: LocationRecord, from: Lang, to: Lang): LocalizedStrings {
  const out: LocalizedStrings = { name: to === 'ja' ? japaneseName(record.name) : record.name };
  if (record.amenities !== undefined) {
    out.amenities = Object.fromEntries(
      Object.keys(record.amenities).map((id) => {
        const text = AMENITY_TEXT[id]?.[to];
        if (text === undefined) throw new Error(`no ${to} text for amenity ${id}`);
        return [id, { description: text }];
      }),
    );
  }
  return out;
}

/**
 * Every generated public store says the language of its own strings; the German, French and
 * Japanese stores carry English translations, and the New York stores German, French and Japanese
 * ones. The seed example records stay exactly as the seed has them. No random draws here, so the
 * rest of the dataset is unchanged by this pass.
 */
function addLanguages(records: LocationRecord[]): LocationRecord[] {
  const byCountry = new Map(CITIES.map((c) => [c.country, LANGUAGE[c.custom]]));
  return records.map((r) => {
    if (r.visibility === 'private' || r === DOWNTOWN || r === VALLEY_GROCERS) return r;
    const own = byCountry.get(r.address?.address_country ?? '') ?? 'en';
    const targets: Lang[] =
      own === 'de' || own === 'fr' || own === 'ja' ? ['en'] : r.id.startsWith('loc_new_york_') ? ['de', 'fr', 'ja'] : [];
    const localized = Object.fromEntries(targets.map((to) => [to, translation(r, own, to)]));
    return { ...r, language: own, ...(targets.length > 0 ? { localized } : {}) };
  });
}

function validate(records: readonly LocationRecord[]): void {
  const dataset = new DatasetChecker();
  const problems: string[] = [];
  records.forEach((r, i) => {
    const pos = { file: 'demo.ndjson', line: i + 1 };
    const checked = validateRecord(JSON.parse(JSON.stringify(r)), pos);
    problems.push(...checked.issues.map(formatDataIssue));
    problems.push(...dataset.add(r, pos).map(formatDataIssue));
  });
  problems.push(...dataset.finish().map(formatDataIssue));
  if (problems.length > 0) throw new Error(`generated data is invalid:\n${problems.slice(0, 30).join('\n')}`);
}

function inventory(records: readonly LocationRecord[]): string {
  const rows = [csvRow(['location_id', 'item_id', 'available'])];
  for (const r of records) {
    if (r.id === 'loc_downtown') {
      // The seed's lookup example stays providable: the feed only confirms it.
      rows.push(csvRow([r.id, 'item_id_phone_15_pro', 'true']));
      continue;
    }
    const carried = r.items ?? [];
    // Sell-outs among carried items, and new arrivals (mostly seasonal stock).
    for (const item of sample(carried, Math.min(carried.length, int(2, 6)))) rows.push(csvRow([r.id, item, pick(['false', '0', 'no'])]));
    for (const item of sample(
      ALL_ITEMS.filter((x) => !carried.includes(x)),
      int(3, 10),
    ))
      rows.push(csvRow([r.id, item, pick(['true', '1', 'yes'])]));
  }
  return `${rows.join('\n')}\n`;
}

function main(): void {
  const outDir = process.argv[2] ?? 'data';
  const records = addLanguages([VALLEY_GROCERS, DOWNTOWN, ...generateStores(), ...generateSpecials(), ...generateHubs()]);
  validate(records);
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'demo.ndjson'), `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  writeFileSync(join(outDir, 'demo-inventory.csv'), inventory(records));
  const zones = new Set(records.map((r) => r.timezone));
  const countries = new Set(records.map((r) => r.address?.address_country));
  process.stdout.write(
    `wrote ${records.length} locations (${records.filter((r) => r.visibility === 'private').length} private) in ${countries.size} countries and ${zones.size} time zones, ${ALL_ITEMS.length} items, to ${outDir}/\n`,
  );
}

main();
