/**
 * The UCP Location entity (release 2026-08-25, seed 000) and the business-private record
 * a Business imports. Field names follow the wire format exactly (snake_case) so that a
 * record's public part can be emitted without renaming.
 */

export const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Day = (typeof DAYS)[number];

/** WGS 84 decimal degrees. latitude ∈ [-90, 90], longitude ∈ [-180, 180]. */
export interface Geo {
  latitude: number;
  longitude: number;
}

/** Axis-aligned box in degrees; never crosses the antimeridian (minLon <= maxLon). */
export interface BBox {
  minLat: number;
  maxLat: number;
  minLon: number;
  maxLon: number;
}

export interface PostalAddress {
  street_address?: string;
  extended_address?: string;
  address_locality?: string;
  address_region?: string;
  address_country?: string;
  postal_code?: string;
  first_name?: string;
  last_name?: string;
  phone_number?: string;
}

/** Coarse locality (serves.address target, context). */
export interface Locality {
  address_country?: string;
  address_region?: string;
  postal_code?: string;
}

/** Buyer-facing metadata of one amenity; the map key alone defines identity (seed). */
export interface Amenity {
  description: string;
}

/** Reverse-domain amenity id → presentation metadata. */
export type Amenities = Record<string, Amenity>;

/** "HH:MM", 24-hour, local civil time of the Location. */
export type LocalTime = string;

/** A regular weekly interval; `day` is the local day on which the interval begins. */
export interface DailyHour {
  day: Day;
  opens: LocalTime;
  closes: LocalTime;
}

/**
 * Date-specific override. Dates are local `YYYY-MM-DD`, both bounds inclusive.
 * Both times present → a timed interval on every covered date; both absent → full closure.
 */
export interface ExceptionHour {
  title?: string;
  valid_from: string;
  valid_through: string;
  opens?: LocalTime;
  closes?: LocalTime;
}

/** The part of a Location that opening-hours evaluation needs. */
export interface Schedule {
  /** IANA zone id; required whenever `hours` or `exception_hours` is present. */
  timezone?: string | undefined;
  /** Absent = regular schedule unknown; `[]` = known, no regular opening. */
  hours?: readonly DailyHour[] | undefined;
  exception_hours?: readonly ExceptionHour[] | undefined;
}

/** The public Location as returned on the wire. */
export interface Location {
  id: string;
  name: string;
  address?: PostalAddress;
  geo?: Geo;
  amenities?: Amenities;
  hours?: DailyHour[];
  exception_hours?: ExceptionHour[];
  timezone?: string;
}

/** A Location in a lookup response: which request identifiers resolved to it. */
export interface LookupLocation extends Location {
  inputs: { id: string }[];
}

/** GeoJSON (RFC 7946) positions are [longitude, latitude]. */
export type Position = [number, number, ...number[]];

export interface GeoJsonPolygon {
  type: 'Polygon';
  coordinates: Position[][];
}

export interface GeoJsonMultiPolygon {
  type: 'MultiPolygon';
  coordinates: Position[][][];
}

export type CoverageArea = GeoJsonPolygon | GeoJsonMultiPolygon;

/**
 * Business-declared coverage used to answer `serves` (never disclosed on the wire).
 * Country codes are ISO 3166-1 alpha-2, upper-case.
 */
export interface Coverage {
  /** Geodesic delivery radius around the Location's `geo`, metres. */
  radius_m?: number;
  /** Areas served, GeoJSON Polygon/MultiPolygon in lon/lat. */
  areas?: CoverageArea[];
  /** Whole countries served. */
  countries?: string[];
  /** Whole regions served, per country: {"US": ["NY", "NJ"]}. */
  regions?: Record<string, string[]>;
  /** Postal codes served, per country: {"US": ["10005"]}. */
  postal_codes?: Record<string, string[]>;
}

export type Visibility = 'public' | 'private';

/**
 * The buyer-facing strings of one Location in one other language (R-C3): any of the name, amenity
 * descriptions (by amenity id, which the record must have) and exception titles (by the
 * `valid_from` date of the record's exception entries). A string left out falls back.
 */
export interface LocalizedStrings {
  name?: string;
  amenities?: Record<string, { description: string }>;
  exception_hours?: Record<string, { title: string }>;
}

/** Translations keyed by canonical BCP 47 language tag (`Intl.getCanonicalLocales` form). */
export type Localizations = Record<string, LocalizedStrings>;

/** What a store keeps of a record for localisation: never part of the public Location document. */
export interface RecordLanguages {
  /** Canonical BCP 47 tag of the record's own strings. */
  language?: string;
  localized?: Localizations;
}

/**
 * The canonical import record (NDJSON line): the public Location fields plus
 * business-private data that is never returned by search or lookup.
 */
export interface LocationRecord extends Location {
  /** Secondary lookup identifiers; resolve like `id` in lookup. */
  aliases?: string[];
  /** `private` (dark kitchens, hubs) is never returned. Default `public`. */
  visibility?: Visibility;
  /** Extra text-search terms (categories, brands). */
  keywords?: string[];
  serves?: Coverage;
  /** Item ids currently providable here (initial availability; the inventory feed updates it). */
  items?: string[];
  /** BCP 47 tag of the record's own strings (name, amenity descriptions, exception titles). */
  language?: string;
  /** The same strings in other languages, chosen per request (R-C3). */
  localized?: Localizations;
}

/** Private record fields, stripped before a record is emitted as a Location. */
export const PRIVATE_RECORD_FIELDS = ['aliases', 'visibility', 'keywords', 'serves', 'items', 'language', 'localized'] as const;

/** Public wire projection of a record: the fields the seed defines, in a stable order. */
export function toPublicLocation(record: LocationRecord): Location {
  const loc: Location = { id: record.id, name: record.name };
  if (record.address !== undefined) loc.address = record.address;
  if (record.geo !== undefined) loc.geo = record.geo;
  if (record.amenities !== undefined) loc.amenities = record.amenities;
  if (record.hours !== undefined) loc.hours = record.hours;
  if (record.exception_hours !== undefined) loc.exception_hours = record.exception_hours;
  if (record.timezone !== undefined) loc.timezone = record.timezone;
  return loc;
}
