/**
 * Google Business Profile bulk location sheets (`import --format gbp`): the CSV that Business
 * Profile Manager exports and imports, one location per row, read with the project's streaming
 * CSV parser. Columns are matched by their English header names, ignoring case and spacing;
 * columns with no UCP counterpart (photos, labels, attributes, …) are ignored and named once in a
 * warning. Column by column in docs/data-format.md.
 *
 * Hours cells: `09:00-17:00`, several ranges separated by commas (`09:00-12:00, 13:00-17:00`),
 * overnight `22:00-02:00`, `00:00-24:00` all day, `x` (or `closed`, or an empty cell when another
 * day has hours) closed. Special hours: `2026-12-25: x, 2026-12-31: 10:00-14:00`, a range after
 * another one continuing the same date (`2026-12-24: 08:00-12:00, 14:00-16:00`).
 */
import type { DailyHour, Day, ExceptionHour } from '../domain/location.js';
import { resolveCountry } from '../domain/locality-names.js';
import { editDistance } from '../protocol/edit-distance.js';
import { elementAt } from '../protocol/guards.js';
import { dropScheduleWithoutZoneSource } from './timezone-derivation.js';
import type { FieldIssue } from './issues.js';
import { interval, readDate, readTime, type Interval } from './source-times.js';
import { group } from './match-group.js';

/** Each day and the column of its hours, in the template's order. */
const WEEK = [
  ['sunday', 'Sunday hours'],
  ['monday', 'Monday hours'],
  ['tuesday', 'Tuesday hours'],
  ['wednesday', 'Wednesday hours'],
  ['thursday', 'Thursday hours'],
  ['friday', 'Friday hours'],
  ['saturday', 'Saturday hours'],
] as const satisfies readonly (readonly [Day, Column])[];

/** Header (folded) → what it feeds. The header names as the template spells them are the values' labels. */
const COLUMNS = {
  'store code': 'Store code',
  'business name': 'Business name',
  'address line 1': 'Address line 1',
  'address line 2': 'Address line 2',
  'address line 3': 'Address line 3',
  'address line 4': 'Address line 4',
  'address line 5': 'Address line 5',
  'sub-locality': 'Sub-locality',
  locality: 'Locality',
  'administrative area': 'Administrative area',
  'country/region': 'Country / Region',
  'postal code': 'Postal code',
  latitude: 'Latitude',
  longitude: 'Longitude',
  'primary phone': 'Primary phone',
  'primary category': 'Primary category',
  'additional categories': 'Additional categories',
  'sunday hours': 'Sunday hours',
  'monday hours': 'Monday hours',
  'tuesday hours': 'Tuesday hours',
  'wednesday hours': 'Wednesday hours',
  'thursday hours': 'Thursday hours',
  'friday hours': 'Friday hours',
  'saturday hours': 'Saturday hours',
  'special hours': 'Special hours',
  // Not a Business Profile column: lets a sheet without coordinates still carry hours.
  'time zone': 'Time zone',
} as const;

type Column = (typeof COLUMNS)[keyof typeof COLUMNS];

/** `Country / Region` and `country/region` alike; other columns by case and spacing only. */
function fold(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, ' ').replace(/\s*\/\s*/g, '/');
}

const BY_FOLDED = new Map<string, Column>(Object.entries(COLUMNS));

export interface GbpHeader {
  columns: (Column | null)[];
  issues: FieldIssue[];
  warnings: FieldIssue[];
  unusable: boolean;
}

/** Maps the header row; a name one or two edits away from a known column is an error (a typo would drop data). */
export function readGbpHeader(fields: readonly string[]): GbpHeader {
  const issues: FieldIssue[] = [];
  const ignored: string[] = [];
  const seen = new Set<Column>();
  const columns = fields.map((f): Column | null => {
    const folded = fold(f);
    const column = BY_FOLDED.get(folded);
    if (column === undefined) {
      let near: [string, Column] | undefined;
      let best = 3;
      for (const entry of BY_FOLDED) {
        const d = editDistance(folded, entry[0]);
        if (folded.length > 3 && d < best) [near, best] = [entry, d];
      }
      if (near !== undefined) issues.push({ field: f, message: `unknown column ${JSON.stringify(f)}; did you mean ${JSON.stringify(near[1])}?` });
      else if (f.trim() !== '') ignored.push(f.trim());
      return null;
    }
    if (seen.has(column)) issues.push({ field: column, message: `column ${JSON.stringify(column)} appears twice` });
    seen.add(column);
    return column;
  });
  let unusable = false;
  for (const required of ['Store code', 'Business name'] as const) {
    if (seen.has(required)) continue;
    unusable = true;
    issues.push({ field: required, message: `the header has no ${JSON.stringify(required)} column (the first line must be the sheet's header row)` });
  }
  const warnings: FieldIssue[] = [];
  if (ignored.length > 0) warnings.push({ field: '', message: `column(s) with no UCP counterpart, ignored: ${ignored.join(', ')}` });
  return { columns, issues, warnings, unusable };
}

/** One hours range `HH:MM-HH:MM` → a UCP interval (`00:00-24:00` whole day, `22:00-02:00` overnight). */
function range(text: string): { iv: Interval } | { error: string } {
  const m = /^(\d{1,2}:\d{2})\s*-\s*(\d{1,2}:\d{2})$/.exec(text.trim());
  if (m === null) return { error: `${JSON.stringify(text.trim())} is not a range HH:MM-HH:MM` };
  const opens = readTime(group(m, 1));
  const closes = readTime(group(m, 2));
  if (!('value' in opens)) return { error: 'error' in opens ? opens.error : opens.inexpressible };
  if (!('value' in closes)) return { error: 'error' in closes ? closes.error : closes.inexpressible };
  const iv = interval(opens.value, closes.value, false);
  return 'value' in iv ? { iv: iv.value } : { error: 'error' in iv ? iv.error : iv.inexpressible };
}

const CLOSED = /^(x|closed)$/i;

/** A day's hours cell → its intervals ([] closed), or an error message. */
export function parseDayHours(cell: string): { slots: { opens: string; closes: string }[] } | { error: string } {
  if (cell === '' || CLOSED.test(cell)) return { slots: [] };
  const slots: { opens: string; closes: string }[] = [];
  for (const part of cell.split(',')) {
    const r = range(part);
    if ('error' in r) return { error: `${r.error}; write ranges like 09:00-17:00 (several separated by commas), 00:00-24:00 for all day, or x for closed` };
    if (!('closed' in r.iv)) slots.push(r.iv);
  }
  return { slots };
}

/** The Special hours cell → exception entries, or an error message. */
export function parseSpecialHours(cell: string): { exceptions: ExceptionHour[] } | { error: string } {
  const byDate = new Map<string, { closed: boolean; slots: { opens: string; closes: string }[] }>();
  let current: string | undefined;
  for (const part of cell.split(',')) {
    const m = /^\s*(\d{4}-\d{2}-\d{2})\s*:\s*(.*)$/.exec(part);
    let spec = part.trim();
    if (m !== null) {
      const date = readDate(group(m, 1));
      if (!('value' in date)) return { error: `${'error' in date ? date.error : date.inexpressible} in ${JSON.stringify(part.trim())}` };
      current = date.value;
      spec = group(m, 2).trim();
    } else if (current === undefined) {
      return { error: `${JSON.stringify(part.trim())} does not start with a date; write YYYY-MM-DD: HH:MM-HH:MM or YYYY-MM-DD: x` };
    }
    const entry = byDate.get(current) ?? { closed: false, slots: [] };
    byDate.set(current, entry);
    if (CLOSED.test(spec)) entry.closed = true;
    else {
      const r = range(spec);
      if ('error' in r) return { error: `${current}: ${r.error}; write HH:MM-HH:MM or x for closed` };
      if ('closed' in r.iv) entry.closed = true;
      else entry.slots.push(r.iv);
    }
    if (entry.closed && entry.slots.length > 0) return { error: `${current} is both closed (x) and open (${entry.slots.map((s) => `${s.opens}-${s.closes}`).join(', ')}); keep one` };
  }
  const exceptions: ExceptionHour[] = [];
  for (const [date, { closed, slots }] of [...byDate].sort(([a], [b]) => a.localeCompare(b))) {
    if (closed) exceptions.push({ valid_from: date, valid_through: date });
    for (const s of slots) exceptions.push({ valid_from: date, valid_through: date, opens: s.opens, closes: s.closes });
  }
  return { exceptions };
}

/**
 * Parsed cells by their text: a chain's sheet repeats a handful of hours cells over thousands of
 * rows. Results are only read (rows copy the slots they need), so sharing them is safe.
 */
class CellMemo<T> {
  readonly #map = new Map<string, T>();
  get(text: string, parse: (text: string) => T): T {
    let hit = this.#map.get(text);
    if (hit === undefined) {
      if (this.#map.size >= 10_000) this.#map.clear();
      hit = parse(text);
      this.#map.set(text, hit);
    }
    return hit;
  }
}

const dayHoursMemo = new CellMemo<ReturnType<typeof parseDayHours>>();
const specialHoursMemo = new CellMemo<ReturnType<typeof parseSpecialHours>>();

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** One data row → the raw record, with problems named by column. */
export function gbpRowToRaw(header: GbpHeader, fields: readonly string[]): { raw: Record<string, unknown>; issues: FieldIssue[]; warnings: FieldIssue[] } {
  const issues: FieldIssue[] = [];
  const warnings: FieldIssue[] = [];
  const raw: Record<string, unknown> = {};
  if (fields.length !== header.columns.length) {
    issues.push({ field: '', message: `this row has ${fields.length} field(s) but the header has ${header.columns.length}` });
    return { raw, issues, warnings };
  }
  const cell = new Map<Column, string>();
  header.columns.forEach((c, i) => {
    if (c !== null) cell.set(c, elementAt(fields, i).trim());
  });
  const get = (c: Column): string | undefined => {
    const v = cell.get(c);
    return v === undefined || v === '' ? undefined : v;
  };

  // Missing ones are reported by record validation, under these columns' names.
  const id = get('Store code');
  if (id !== undefined) raw['id'] = id;
  const name = get('Business name');
  if (name !== undefined) raw['name'] = name;

  const address: Record<string, string> = {};
  const street = get('Address line 1');
  if (street !== undefined) address['street_address'] = street;
  const extended = (['Address line 2', 'Address line 3', 'Address line 4', 'Address line 5', 'Sub-locality'] as const).map(get).filter((v) => v !== undefined);
  if (extended.length > 0) address['extended_address'] = extended.join(', ');
  const locality = get('Locality');
  if (locality !== undefined) address['address_locality'] = locality;
  const region = get('Administrative area');
  if (region !== undefined) address['address_region'] = region;
  const postal = get('Postal code');
  if (postal !== undefined) address['postal_code'] = postal;
  const country = get('Country / Region');
  if (country !== undefined) {
    const code = resolveCountry(country);
    if (code === null) warnings.push({ field: 'Country / Region', message: `${JSON.stringify(country)} is no ISO 3166 country code or name known here; kept as written` });
    address['address_country'] = code ?? country;
  }
  const phone = get('Primary phone');
  if (phone !== undefined) address['phone_number'] = phone;
  if (Object.keys(address).length > 0) raw['address'] = address;

  const lat = get('Latitude');
  const lon = get('Longitude');
  if (lat !== undefined || lon !== undefined) {
    for (const [column, text] of [['Latitude', lat] as const, ['Longitude', lon] as const]) {
      if (text === undefined) issues.push({ field: column, message: `is empty while ${column === 'Latitude' ? 'Longitude' : 'Latitude'} is set; give both or neither` });
      else if (!DECIMAL.test(text)) issues.push({ field: column, message: `${JSON.stringify(text)} is not a decimal number of degrees` });
    }
    if (lat !== undefined && lon !== undefined && DECIMAL.test(lat) && DECIMAL.test(lon)) raw['geo'] = { latitude: Number(lat), longitude: Number(lon) };
  }

  const keywords = [get('Primary category'), ...(get('Additional categories') ?? '').split(',')].map((k) => k?.trim()).filter((k): k is string => k !== undefined && k !== '');
  if (keywords.length > 0) raw['keywords'] = [...new Set(keywords)];

  const dayCells = WEEK.map(([day, column]) => [day, column, get(column)] as const);
  if (dayCells.some(([, , text]) => text !== undefined)) {
    const hours: DailyHour[] = [];
    const ok = dayCells.every(([day, column, text]) => {
      const parsed = dayHoursMemo.get(text ?? '', parseDayHours);
      if ('error' in parsed) issues.push({ field: column, message: parsed.error });
      else for (const s of parsed.slots) hours.push({ day, opens: s.opens, closes: s.closes });
      return !('error' in parsed);
    });
    if (ok) raw['hours'] = hours;
  }
  const special = get('Special hours');
  if (special !== undefined) {
    const parsed = specialHoursMemo.get(special, parseSpecialHours);
    if ('error' in parsed) issues.push({ field: 'Special hours', message: parsed.error });
    else raw['exception_hours'] = parsed.exceptions;
  }
  const zone = get('Time zone');
  if (zone !== undefined) raw['timezone'] = zone;
  // The zone itself is derived from Latitude/Longitude by the shared pipeline (timezone-derivation.ts).
  const zoneFields = { hours: 'Monday hours…Special hours', remedy: 'fill Latitude and Longitude, or add a "Time zone" column with the IANA zone (America/New_York)' };
  dropScheduleWithoutZoneSource(raw, zoneFields, lat !== undefined || lon !== undefined, issues);
  return { raw, issues, warnings };
}

/** Record field paths as the sheet's columns. */
export function gbpColumnOf(field: string): string {
  const map: [string, string][] = [
    ['id', 'Store code'],
    ['name', 'Business name'],
    ['address.street_address', 'Address line 1'],
    ['address.extended_address', 'Address line 2…5, Sub-locality'],
    ['address.address_locality', 'Locality'],
    ['address.address_region', 'Administrative area'],
    ['address.postal_code', 'Postal code'],
    ['address.address_country', 'Country / Region'],
    ['address.phone_number', 'Primary phone'],
    ['geo.latitude', 'Latitude'],
    ['geo.longitude', 'Longitude'],
    ['geo', 'Latitude/Longitude'],
    ['keywords', 'Primary category, Additional categories'],
    ['timezone', 'Time zone (or the one derived from Latitude/Longitude)'],
    ['hours', 'Sunday hours…Saturday hours'],
    ['exception_hours', 'Special hours'],
  ];
  return map.find(([prefix]) => field === prefix || field.startsWith(`${prefix}.`) || field.startsWith(`${prefix}[`))?.[1] ?? field;
}
