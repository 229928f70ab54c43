/**
 * What one LocationRecord becomes in a store's tables — the same for SQLite and PostgreSQL, which
 * is why it lives beside the port and not in either adapter: both stores load exactly these
 * values, so they index, match and return the same things. Pure: no database access, so the
 * mapping is testable on its own. Written for bulk imports (a million records): each JSON
 * fragment is serialised once and reused, and no intermediate objects are built that are not stored.
 */
import { causeMessage, DataValidationError } from '../errors.js';
import { amenitySearchText } from '../domain/amenity-text.js';
import { isUsableGeo } from '../domain/geodesy.js';
import type { BBox, LocationRecord } from '../domain/location.js';
import { coverageExtents, normalizeCountryCode, normalizePostalCode, normalizeRegion } from '../domain/serves.js';

export interface DerivedRow {
  id: string;
  isPublic: boolean;
  lat: number | null;
  lon: number | null;
  /** JSON {timezone?, hours?, exception_hours?}; null when neither hours nor exception_hours exist. */
  schedule: string | null;
  /** JSON {radius_m?, areas?}; null when the record declares neither. */
  coverage: string | null;
  /** Public Location JSON, byte-identical to JSON.stringify(toPublicLocation(record)). */
  doc: string;
  /** JSON RecordLanguages {language?, localized?} kept beside the doc (never in it); null when the record has neither. */
  languages: string | null;
  aliases: string[];
  amenities: string[];
  /** Items available at import (record.items), distinct. */
  items: string[];
  countries: string[];
  regions: [country: string, region: string][];
  postalCodes: [country: string, postal: string][];
  /** Boxes outside which the coverage serves no point (serves.point prefilter). */
  coverageExtents: BBox[];
  /** The searchable texts, one per weighted column. */
  text: SearchText;
}

/**
 * Free-text columns of a Location, most to least important: SQLite's FTS5 columns (FTS_COLUMNS)
 * and PostgreSQL's tsvector weights both follow this order.
 */
export type SearchText = [name: string, keywords: string, locality: string, region: string, street: string, amenities: string];

/**
 * JSON text of frozen values, by identity. A frozen object can never change, so its text is
 * computed once however many records share it (the importer shares one frozen value per distinct
 * hours / exception list across a dataset); other values are serialised every time.
 */
const frozenJson = new WeakMap<object, string>();

function jsonOf(value: object): string {
  if (!Object.isFrozen(value)) return JSON.stringify(value);
  let text = frozenJson.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    frozenJson.set(value, text);
  }
  return text;
}

/** Distinct values, first occurrence order; a linear scan beats a Set for short lists. */
function distinct(values: readonly string[]): string[] {
  if (values.length > 16) return [...new Set(values)];
  const out: string[] = [];
  for (const v of values) if (!out.includes(v)) out.push(v);
  return out;
}

function joinText(...parts: (string | undefined)[]): string {
  let s = '';
  for (const p of parts) {
    if (typeof p !== 'string' || p.length === 0) continue;
    s = s.length === 0 ? p : `${s} ${p}`;
  }
  return s;
}

function pairs(map: Record<string, string[]> | undefined, normalize: (value: string, country: string) => string): [string, string][] {
  const out: [string, string][] = [];
  if (map === undefined) return out;
  const seen = new Set<string>();
  for (const [country, list] of Object.entries(map)) {
    const cc = normalizeCountryCode(country);
    if (cc === null) continue;
    for (const v of list) {
      const n = normalize(v, cc);
      const id = `${cc}\u0000${n}`;
      if (n === '' || seen.has(id)) continue;
      seen.add(id);
      out.push([cc, n]);
    }
  }
  return out;
}

/**
 * Derive the stored form of a validated record. Throws RangeError when the coverage geometry is
 * unusable (the caller reports it with the record's position).
 */
export function deriveRow(record: LocationRecord): DerivedRow {
  const geo = record.geo !== undefined && isUsableGeo(record.geo) ? record.geo : null;

  // Serialise each public member once; the doc and the schedule share the schedule parts.
  const hours = record.hours !== undefined ? jsonOf(record.hours) : undefined;
  const exceptions = record.exception_hours !== undefined ? jsonOf(record.exception_hours) : undefined;
  const timezone = record.timezone !== undefined ? JSON.stringify(record.timezone) : undefined;
  // Same members, same order as toPublicLocation (a unit test keeps the two identical).
  let doc = `{"id":${JSON.stringify(record.id)},"name":${JSON.stringify(record.name)}`;
  if (record.address !== undefined) doc += `,"address":${JSON.stringify(record.address)}`;
  if (record.geo !== undefined) doc += `,"geo":${JSON.stringify(record.geo)}`;
  if (record.amenities !== undefined) doc += `,"amenities":${JSON.stringify(record.amenities)}`;
  if (hours !== undefined) doc += `,"hours":${hours}`;
  if (exceptions !== undefined) doc += `,"exception_hours":${exceptions}`;
  if (timezone !== undefined) doc += `,"timezone":${timezone}`;
  doc += '}';

  let schedule: string | null = null;
  if (hours !== undefined || exceptions !== undefined) {
    const parts: string[] = [];
    if (timezone !== undefined) parts.push(`"timezone":${timezone}`);
    if (hours !== undefined) parts.push(`"hours":${hours}`);
    if (exceptions !== undefined) parts.push(`"exception_hours":${exceptions}`);
    schedule = `{${parts.join(',')}}`;
  }

  const serves = record.serves;
  let coverage: string | null = null;
  let extents: BBox[] = [];
  if (serves !== undefined && (serves.radius_m !== undefined || serves.areas !== undefined)) {
    const spatial = {
      ...(serves.radius_m !== undefined ? { radius_m: serves.radius_m } : {}),
      ...(serves.areas !== undefined ? { areas: serves.areas } : {}),
    };
    extents = coverageExtents(spatial, geo);
    coverage = JSON.stringify(spatial);
  }

  const countries: string[] = [];
  for (const c of serves?.countries ?? []) {
    const cc = normalizeCountryCode(c);
    if (cc !== null && !countries.includes(cc)) countries.push(cc);
  }

  const amenityKeys = record.amenities === undefined ? [] : Object.keys(record.amenities);
  return {
    id: record.id,
    isPublic: record.visibility !== 'private',
    lat: geo === null ? null : geo.latitude,
    lon: geo === null ? null : geo.longitude,
    schedule,
    coverage,
    doc,
    languages:
      record.language === undefined && record.localized === undefined
        ? null
        : JSON.stringify({ language: record.language, localized: record.localized }),
    aliases: record.aliases === undefined ? [] : distinct(record.aliases.filter((a) => a !== record.id)),
    amenities: amenityKeys,
    items: record.items === undefined ? [] : distinct(record.items),
    countries,
    regions: pairs(serves?.regions, normalizeRegion),
    postalCodes: pairs(serves?.postal_codes, normalizePostalCode),
    coverageExtents: extents,
    text: searchText(record),
  };
}

/**
 * The searchable texts of a Location, one per weighted column. Reads only members the public
 * document also has, plus `keywords` (absent from it): an in-memory index rebuilds the columns
 * from stored documents with this same function.
 */
export function searchText(source: Pick<LocationRecord, 'name' | 'keywords' | 'address' | 'amenities'>): SearchText {
  const address = source.address;
  return [
    source.name,
    source.keywords === undefined ? '' : joinText(...source.keywords),
    joinText(address?.address_locality, address?.postal_code),
    joinText(address?.address_region, address?.address_country),
    joinText(address?.street_address, address?.extended_address),
    amenitySearchText(source.amenities),
  ];
}

/**
 * `deriveRow` for a bulk load: rejects a repeated id and reports unusable coverage with the record's
 * position, so every store's loader fails the same way (the importer validates first; this is the
 * store's own guard).
 */
export function deriveUniqueRow(record: LocationRecord, seen: Set<string>, file: string, line: number): DerivedRow {
  if (seen.has(record.id)) {
    throw new DataValidationError([
      { file, line, field: 'id', message: `duplicate Location id ${JSON.stringify(record.id)}; every id must be unique` },
    ]);
  }
  seen.add(record.id);
  try {
    return deriveRow(record);
  } catch (cause) {
    throw new DataValidationError([{ file, line, field: 'serves', message: causeMessage(cause) }]);
  }
}
