/**
 * What one LocationRecord becomes in the SQLite tables. Pure: no database access, so the mapping
 * can be tested on its own and reused by other stores.
 */
import { isUsableGeo } from '../../domain/geodesy.js';
import { toPublicLocation, type BBox, type LocationRecord } from '../../domain/location.js';
import { compileCoverage, normalizeCountryCode, normalizePostalCode, normalizeRegion } from '../../domain/serves.js';

export interface DerivedRow {
  id: string;
  isPublic: boolean;
  lat: number | null;
  lon: number | null;
  /** JSON {timezone?, hours?, exception_hours?}; null when neither hours nor exception_hours exist. */
  schedule: string | null;
  /** JSON {radius_m?, areas?}; null when the record declares neither. */
  coverage: string | null;
  /** Public Location JSON (toPublicLocation). */
  doc: string;
  aliases: string[];
  amenities: string[];
  /** Items available at import (record.items), distinct. */
  items: string[];
  countries: string[];
  regions: [country: string, region: string][];
  postalCodes: [country: string, postal: string][];
  /** Boxes outside which the coverage serves no point (serves.point prefilter). */
  coverageExtents: BBox[];
  /** FTS column texts in FTS_COLUMNS order. */
  text: [name: string, keywords: string, locality: string, region: string, street: string, amenities: string];
}

function distinct<T>(values: Iterable<T>): T[] {
  return [...new Set(values)];
}

function joinText(...parts: (string | undefined)[]): string {
  return parts.filter((p): p is string => typeof p === 'string' && p.length > 0).join(' ');
}

/**
 * Derive the stored form of a validated record. Throws RangeError when the coverage geometry is
 * unusable (the caller reports it with the record's position).
 */
export function deriveRow(record: LocationRecord): DerivedRow {
  const geo = record.geo !== undefined && isUsableGeo(record.geo) ? record.geo : null;
  const hasSchedule = record.hours !== undefined || record.exception_hours !== undefined;
  const schedule = hasSchedule
    ? JSON.stringify({
        ...(record.timezone !== undefined ? { timezone: record.timezone } : {}),
        ...(record.hours !== undefined ? { hours: record.hours } : {}),
        ...(record.exception_hours !== undefined ? { exception_hours: record.exception_hours } : {}),
      })
    : null;

  const serves = record.serves;
  const spatial =
    serves !== undefined && (serves.radius_m !== undefined || serves.areas !== undefined)
      ? {
          ...(serves.radius_m !== undefined ? { radius_m: serves.radius_m } : {}),
          ...(serves.areas !== undefined ? { areas: serves.areas } : {}),
        }
      : null;
  const coverageExtents = spatial === null ? [] : compileCoverage(spatial).extents(geo);

  const countries: string[] = [];
  const regions: [string, string][] = [];
  const postalCodes: [string, string][] = [];
  for (const c of serves?.countries ?? []) {
    const cc = normalizeCountryCode(c);
    if (cc !== null) countries.push(cc);
  }
  for (const [country, list] of Object.entries(serves?.regions ?? {})) {
    const cc = normalizeCountryCode(country);
    if (cc === null) continue;
    for (const r of list) {
      const nr = normalizeRegion(r, cc);
      if (nr !== '') regions.push([cc, nr]);
    }
  }
  for (const [country, list] of Object.entries(serves?.postal_codes ?? {})) {
    const cc = normalizeCountryCode(country);
    if (cc === null) continue;
    for (const p of list) {
      const np = normalizePostalCode(p);
      if (np !== '') postalCodes.push([cc, np]);
    }
  }

  const address = record.address;
  const amenityKeys = Object.keys(record.amenities ?? {});
  return {
    id: record.id,
    isPublic: record.visibility !== 'private',
    lat: geo === null ? null : geo.latitude,
    lon: geo === null ? null : geo.longitude,
    schedule,
    coverage: spatial === null ? null : JSON.stringify(spatial),
    doc: JSON.stringify(toPublicLocation(record)),
    aliases: distinct((record.aliases ?? []).filter((a) => a !== record.id)),
    amenities: distinct(amenityKeys),
    items: distinct(record.items ?? []),
    countries: distinct(countries),
    regions: distinct(regions.map((r) => JSON.stringify(r))).map((s) => JSON.parse(s) as [string, string]),
    postalCodes: distinct(postalCodes.map((p) => JSON.stringify(p))).map((s) => JSON.parse(s) as [string, string]),
    coverageExtents,
    text: [
      record.name,
      joinText(...(record.keywords ?? [])),
      joinText(address?.address_locality, address?.postal_code),
      joinText(address?.address_region, address?.address_country),
      joinText(address?.street_address, address?.extended_address),
      joinText(...Object.values(record.amenities ?? {}).map((a) => a.description)),
    ],
  };
}
