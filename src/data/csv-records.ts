/**
 * The CSV form of a location record: one row per location, one documented column per field
 * (docs/data-format.md). Coverage `areas` (polygons) have no CSV column: use NDJSON or GeoJSON.
 */
import type { LocationRecord } from '../domain/location.js';
import {
  formatAmenities,
  formatExceptions,
  formatHours,
  formatList,
  formatPerCountry,
  parseAmenities,
  parseExceptions,
  parseHours,
  parseList,
  parsePerCountry,
  type Parsed,
} from './compact-syntax.js';
import { elementAt, isOneOf } from '../protocol/guards.js';
import { csvRow } from './csv.js';
import { localizedCell, localizedColumn, localizedColumnOf, readLocalizedCell, type LocalizedColumn } from './csv-languages.js';
import { ADDRESS_FIELDS } from './validate-record.js';
import type { FieldIssue } from './issues.js';

export const CSV_COLUMNS = [
  'id',
  'name',
  'aliases',
  ...ADDRESS_FIELDS,
  'latitude',
  'longitude',
  'timezone',
  'hours',
  'exception_hours',
  'amenities',
  'keywords',
  'items',
  'serves_radius_m',
  'serves_countries',
  'serves_regions',
  'serves_postal_codes',
  'visibility',
  'language',
] as const;

export type CsvColumn = (typeof CSV_COLUMNS)[number];

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

function parseNumber(text: string): Parsed<number> {
  return DECIMAL.test(text) ? { value: Number(text) } : { error: `${JSON.stringify(text)} is not a decimal number` };
}

/** Column → how its text becomes part of the raw record. */
const READERS: Partial<Record<CsvColumn, (text: string) => Parsed<unknown>>> = {
  aliases: parseList,
  latitude: parseNumber,
  longitude: parseNumber,
  hours: parseHours,
  exception_hours: parseExceptions,
  amenities: parseAmenities,
  keywords: parseList,
  items: parseList,
  serves_radius_m: parseNumber,
  serves_countries: parseList,
  serves_regions: parsePerCountry,
  serves_postal_codes: parsePerCountry,
};

export interface CsvHeader {
  /** Column name per position (a translation column `name@de` as its parts); null for a column that is not ours (already reported). */
  columns: (CsvColumn | LocalizedColumn | null)[];
  issues: FieldIssue[];
  /** The id or name column is missing: rows cannot be read meaningfully. */
  unusable: boolean;
}

export function readHeader(fields: readonly string[]): CsvHeader {
  const issues: FieldIssue[] = [];
  const seen = new Set<string>();
  const columns = fields.map((f) => {
    const name = f.trim().toLowerCase();
    const column = localizedColumn(name) ?? (isOneOf(CSV_COLUMNS, name) ? name : null);
    if (column === null) {
      issues.push({
        field: f,
        message: `unknown column ${JSON.stringify(f)}; the columns are: ${CSV_COLUMNS.join(', ')}, and translations as name@<language>, amenities@<language>, exception_hours@<language>`,
      });
      return null;
    }
    if (seen.has(name)) issues.push({ field: name, message: `column ${JSON.stringify(name)} appears twice` });
    seen.add(name);
    return column;
  });
  let unusable = false;
  for (const required of ['id', 'name'] as const) {
    if (seen.has(required)) continue;
    unusable = true;
    issues.push({ field: required, message: `the header has no ${JSON.stringify(required)} column (the first line must name the columns)` });
  }
  return { columns, issues, unusable };
}

/**
 * Builds the raw record of one data row. Cells are trimmed; an empty cell leaves its field out.
 * Cell-syntax problems are returned as issues and the field is left out, so the rest of the row
 * is still validated.
 */
export function rowToRaw(header: CsvHeader, fields: readonly string[]): { raw: Record<string, unknown>; issues: FieldIssue[] } {
  const issues: FieldIssue[] = [];
  const raw: Record<string, unknown> = {};
  if (fields.length !== header.columns.length) {
    issues.push({ field: '', message: `this row has ${fields.length} field(s) but the header has ${header.columns.length}` });
    return { raw, issues };
  }
  const cells = new Map<CsvColumn, unknown>();
  header.columns.forEach((column, i) => {
    const text = elementAt(fields, i).trim();
    if (column === null || text === '') return;
    if (typeof column === 'object') {
      const error = readLocalizedCell(column, text, raw);
      if (error !== null) issues.push({ field: column.name, message: error });
      return;
    }
    const read = READERS[column];
    if (read === undefined) {
      cells.set(column, text);
      return;
    }
    const parsed = read(text);
    if ('error' in parsed) issues.push({ field: column, message: `${column}: ${parsed.error}` });
    else cells.set(column, parsed.value);
  });
  for (const key of ['id', 'name', 'aliases', 'timezone', 'hours', 'exception_hours', 'amenities', 'keywords', 'items', 'visibility', 'language'] as const) {
    if (cells.has(key)) raw[key] = cells.get(key);
  }
  const address: Record<string, unknown> = {};
  for (const key of ADDRESS_FIELDS) if (cells.has(key)) address[key] = cells.get(key);
  if (Object.keys(address).length > 0) raw['address'] = address;
  const lat = cells.get('latitude');
  const lon = cells.get('longitude');
  if (lat !== undefined || lon !== undefined) {
    if (lat === undefined || lon === undefined) {
      if (!issues.some((i) => i.field === 'latitude' || i.field === 'longitude')) {
        issues.push({ field: lat === undefined ? 'latitude' : 'longitude', message: 'latitude and longitude must be given together' });
      }
    } else {
      raw['geo'] = { latitude: lat, longitude: lon };
    }
  }
  const serves: Record<string, unknown> = {};
  const servesColumns = [
    ['serves_radius_m', 'radius_m'],
    ['serves_countries', 'countries'],
    ['serves_regions', 'regions'],
    ['serves_postal_codes', 'postal_codes'],
  ] as const;
  for (const [column, key] of servesColumns) {
    if (cells.has(column)) serves[key] = cells.get(column);
  }
  if (Object.keys(serves).length > 0) raw['serves'] = serves;
  return { raw, issues };
}

/** Maps a record field path to the CSV column that holds it, for messages. */
export function csvColumnOf(field: string): string {
  const translation = localizedColumnOf(field);
  if (translation !== null) return translation;
  const [first = '', second = ''] = field.split(/[.[]/);
  if (first === 'geo') return field.includes('longitude') ? 'longitude' : 'latitude';
  if (first === 'address') return second === '' ? ADDRESS_FIELDS[0] : second;
  if (first === 'serves') return second === '' ? 'serves_radius_m' : `serves_${second}`;
  return first;
}

export class CsvExportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CsvExportError';
  }
}

export interface CsvExportOptions {
  /** Drop `serves.areas` (no CSV column) instead of failing. Default false. */
  dropAreas?: boolean;
}

/** The CSV row of one valid record, in CSV_COLUMNS order, then `translations` (see csvHeaderRow). */
export function recordToRow(record: LocationRecord, options: CsvExportOptions = {}, translations: readonly LocalizedColumn[] = []): string {
  if (record.serves?.areas !== undefined && record.serves.areas.length > 0 && options.dropAreas !== true) {
    throw new CsvExportError(`location ${JSON.stringify(record.id)} has serves.areas, which CSV cannot hold; export it as NDJSON or GeoJSON (or drop the areas explicitly)`);
  }
  const cell: Partial<Record<CsvColumn, string>> = {};
  cell.id = record.id;
  cell.name = record.name;
  if (record.aliases !== undefined) cell.aliases = formatList(record.aliases);
  for (const key of ADDRESS_FIELDS) {
    const v = record.address?.[key];
    if (v !== undefined) cell[key] = v;
  }
  if (record.geo !== undefined) {
    cell.latitude = String(record.geo.latitude);
    cell.longitude = String(record.geo.longitude);
  }
  if (record.timezone !== undefined) cell.timezone = record.timezone;
  if (record.hours !== undefined) cell.hours = formatHours(record.hours);
  if (record.exception_hours !== undefined) cell.exception_hours = formatExceptions(record.exception_hours);
  if (record.amenities !== undefined) cell.amenities = formatAmenities(record.amenities);
  if (record.keywords !== undefined) cell.keywords = formatList(record.keywords);
  if (record.items !== undefined) cell.items = formatList(record.items);
  const s = record.serves;
  if (s?.radius_m !== undefined) cell.serves_radius_m = String(s.radius_m);
  if (s?.countries !== undefined) cell.serves_countries = formatList(s.countries);
  if (s?.regions !== undefined) cell.serves_regions = formatPerCountry(s.regions);
  if (s?.postal_codes !== undefined) cell.serves_postal_codes = formatPerCountry(s.postal_codes);
  if (record.visibility !== undefined) cell.visibility = record.visibility;
  if (record.language !== undefined) cell.language = record.language;
  return csvRow([...CSV_COLUMNS.map((c) => cell[c] ?? ''), ...translations.map((t) => localizedCell(record, t))]);
}

/** The header: every CSV column, then the translation columns the records use (localizedColumnsOf). */
export function csvHeaderRow(translations: readonly LocalizedColumn[] = []): string {
  return csvRow([...CSV_COLUMNS, ...translations.map((t) => t.name)]);
}
