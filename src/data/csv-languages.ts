/**
 * CSV columns of a record's translations (R-C3): `<field>@<language tag>` for the three translatable
 * fields, each cell in the syntax of the field's own column —
 *
 *   name@de               Markt Mitte
 *   amenities@en          dev.ucp.amenity.wi_fi=Free Wi-Fi|dev.ucp.amenity.parking=Parking
 *   exception_hours@en    2026-12-25=Christmas|2026-12-31=New Year's Eve
 *
 * (exception titles keyed by the entry's `valid_from` date). The tag is checked like the NDJSON
 * `localized` keys, by the record validator; here only the column shape is read.
 */
import type { LocationRecord, LocalizedStrings } from '../domain/location.js';
import { isOneOf, isRecord } from '../protocol/guards.js';
import { formatAmenities, formatList, parseAmenities, parseList, type Parsed } from './compact-syntax.js';
import { group } from './match-group.js';

export const LOCALIZED_COLUMN_FIELDS = ['name', 'amenities', 'exception_hours'] as const;
export type LocalizedColumnField = (typeof LOCALIZED_COLUMN_FIELDS)[number];

export interface LocalizedColumn {
  /** The header as read (lower case), e.g. `amenities@de-ch`. */
  name: string;
  field: LocalizedColumnField;
  /** The language tag as written in the header. */
  tag: string;
}

/** `name@de` → {field: 'name', tag: 'de'}; null for a header that is not of this form. */
export function localizedColumn(header: string): LocalizedColumn | null {
  const at = header.indexOf('@');
  if (at <= 0 || at === header.length - 1) return null;
  const field = header.slice(0, at);
  if (!isOneOf(LOCALIZED_COLUMN_FIELDS, field)) return null;
  return { name: header, field, tag: header.slice(at + 1) };
}

/** `2026-12-25=Christmas|2026-12-31=New Year's Eve` → {date: {title}}. */
function parseTitles(text: string): Parsed<NonNullable<LocalizedStrings['exception_hours']>> {
  const items = parseList(text);
  if ('error' in items) return items;
  const titles: NonNullable<LocalizedStrings['exception_hours']> = {};
  for (const item of items.value) {
    const eq = item.indexOf('=');
    if (eq <= 0 || item.slice(eq + 1).trim() === '') {
      return { error: `${JSON.stringify(item)} must be written date=Title, e.g. 2026-12-25=Christmas Day` };
    }
    const date = item.slice(0, eq).trim();
    if (Object.hasOwn(titles, date)) return { error: `date ${date} is listed twice` };
    titles[date] = { title: item.slice(eq + 1).trim() };
  }
  return { value: titles };
}

/** Reads one translation cell into `raw.localized[tag][field]`; returns the cell-syntax error, if any. */
export function readLocalizedCell(column: LocalizedColumn, text: string, raw: Record<string, unknown>): string | null {
  let value: unknown = text;
  if (column.field !== 'name') {
    const parsed = column.field === 'amenities' ? parseAmenities(text) : parseTitles(text);
    if ('error' in parsed) return `${column.name}: ${parsed.error}`;
    value = parsed.value;
  }
  // Only this function writes `raw.localized`, so what is there is the object it made.
  const localized = childRecord(raw, 'localized');
  childRecord(localized, column.tag)[column.field] = value;
  return null;
}

/** `parent[key]` as an object, made (and set) when there is none yet. */
function childRecord(parent: Record<string, unknown>, key: string): Record<string, unknown> {
  const existing = parent[key];
  if (isRecord(existing)) return existing;
  const made: Record<string, unknown> = {};
  parent[key] = made;
  return made;
}

/** The CSV column holding a `localized.<tag>.<field>…` issue path, or null for other paths. */
export function localizedColumnOf(field: string): string | null {
  const m = /^localized\.([^.]+)(?:\.([a-z_]+))?/.exec(field);
  if (m === null) return null;
  const tag = group(m, 1);
  const sub = m[2];
  // A problem with the tag itself belongs to every column of that language.
  return isOneOf(LOCALIZED_COLUMN_FIELDS, sub) ? `${sub}@${tag}` : `*@${tag}`;
}

/** The translation columns a set of records needs, in a stable order (by tag, then field). */
export function localizedColumnsOf(records: readonly LocationRecord[]): LocalizedColumn[] {
  const wanted = new Map<string, LocalizedColumn>();
  for (const r of records) {
    for (const [tag, strings] of Object.entries(r.localized ?? {})) {
      for (const field of LOCALIZED_COLUMN_FIELDS) {
        const name = `${field}@${tag}`;
        if (strings[field] !== undefined && !wanted.has(name)) wanted.set(name, { name, field, tag });
      }
    }
  }
  const columns = [...wanted.values()];
  const order = (c: LocalizedColumn): number => LOCALIZED_COLUMN_FIELDS.indexOf(c.field);
  return columns.sort((a, b) => (a.tag === b.tag ? order(a) - order(b) : a.tag < b.tag ? -1 : 1));
}

/** The cell of one translation column for a record ('' when the record has no such string). */
export function localizedCell(record: LocationRecord, column: LocalizedColumn): string {
  const strings = record.localized?.[column.tag];
  if (strings === undefined) return '';
  if (column.field === 'name') return strings.name ?? '';
  if (column.field === 'amenities') return strings.amenities === undefined ? '' : formatAmenities(strings.amenities);
  const titles = strings.exception_hours;
  return titles === undefined ? '' : formatList(Object.entries(titles).map(([date, t]) => `${date}=${t.title}`));
}
