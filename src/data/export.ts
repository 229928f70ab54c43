/**
 * Writing records in the two alternative import formats. Both are exact inverses of their
 * readers: importing `toGeoJSON(records)` or `toCsv(records)` yields the same records (CSV
 * without coverage `areas`, which it cannot hold).
 */
import type { LocationRecord } from '../domain/location.js';
import { localizedColumnsOf } from './csv-languages.js';
import { csvHeaderRow, recordToRow, type CsvExportOptions } from './csv-records.js';

export { CsvExportError, type CsvExportOptions } from './csv-records.js';

export interface PointFeature {
  type: 'Feature';
  /** RFC 7946 order: [longitude, latitude]. */
  geometry: { type: 'Point'; coordinates: [number, number] } | null;
  properties: Omit<LocationRecord, 'geo'>;
}

export interface FeatureCollection {
  type: 'FeatureCollection';
  features: PointFeature[];
}

export function toFeature(record: LocationRecord): PointFeature {
  const { geo, ...properties } = record;
  return {
    type: 'Feature',
    geometry: geo === undefined ? null : { type: 'Point', coordinates: [geo.longitude, geo.latitude] },
    properties,
  };
}

export function toGeoJSON(records: Iterable<LocationRecord>): FeatureCollection {
  return { type: 'FeatureCollection', features: Array.from(records, toFeature) };
}

/** Header plus one row per record, LF line ends. Throws CsvExportError for records with areas unless `dropAreas`. */
export function toCsv(records: Iterable<LocationRecord>, options: CsvExportOptions = {}): string {
  const all = [...records];
  const translations = localizedColumnsOf(all);
  const lines = [csvHeaderRow(translations)];
  for (const r of all) lines.push(recordToRow(r, options, translations));
  return `${lines.join('\n')}\n`;
}
