/**
 * Validation of one canonical import record (an NDJSON line, a GeoJSON feature, a CSV row after
 * conversion). It returns every problem found, each naming its field, and — only when there is
 * none — a fresh `LocationRecord` holding exactly the known fields in a stable order.
 *
 * Policy on unknown fields: they are **errors**, at every level (record, address, geo, hours
 * entries, …). A misspelt `exception_hour` would otherwise vanish and the Location would be
 * reported open on a holiday; failing loudly is the only safe reading of a typo.
 */
import { deepFreeze } from '../protocol/schema-walk.js';
import type { DataIssue } from '../errors.js';
import type {
  Amenities,
  Coverage,
  DailyHour,
  ExceptionHour,
  Geo,
  LocationRecord,
  PostalAddress,
} from '../domain/location.js';
import { validateSchedule, type ScheduleProblem } from '../domain/hours.js';
import { isDailyHour, isExceptionHour } from '../domain/hours-validate.js';
import { validateCoverage } from '../domain/serves.js';
import { isReverseDomainName } from '../protocol/names.js';
import { describeType, identifierProblem, isPlainObject, nonEmptyStringProblem, unknownFieldMessage } from './fields.js';
import { oversizedFields } from './field-limits.js';
import { atPosition, type FieldIssue, type SourcePosition } from './issues.js';
import { checkLanguages } from './validate-languages.js';

export const RECORD_FIELDS = [
  'id',
  'name',
  'aliases',
  'address',
  'geo',
  'amenities',
  'timezone',
  'hours',
  'exception_hours',
  'visibility',
  'keywords',
  'serves',
  'items',
  'language',
  'localized',
] as const;

export const ADDRESS_FIELDS = [
  'street_address',
  'extended_address',
  'address_locality',
  'address_region',
  'postal_code',
  'address_country',
  'first_name',
  'last_name',
  'phone_number',
] as const satisfies readonly (keyof PostalAddress)[];

const GEO_FIELDS = ['latitude', 'longitude'] as const;
const HOUR_FIELDS = ['day', 'opens', 'closes'] as const;
const EXCEPTION_FIELDS = ['title', 'valid_from', 'valid_through', 'opens', 'closes'] as const;
const AMENITY_FIELDS = ['description'] as const;

export interface RecordValidation {
  /** Present only when `issues` is empty. */
  record?: LocationRecord;
  issues: DataIssue[];
}

/** Accumulates issues with their field path. */
class Issues {
  readonly list: FieldIssue[] = [];
  add(field: string, message: string): void {
    this.list.push({ field, message });
  }
  /** Adds `problem` when non-null; returns true when the value was fine. */
  check(field: string, problem: string | null): boolean {
    if (problem === null) return true;
    this.add(field, problem);
    return false;
  }
  count(): number {
    return this.list.length;
  }
}

function rejectUnknown(obj: Record<string, unknown>, known: readonly string[], path: string, out: Issues): void {
  for (const key of Object.keys(obj)) {
    if (!known.includes(key)) out.add(path === '' ? key : `${path}.${key}`, unknownFieldMessage(key, known));
  }
}

function expectObject(value: unknown, field: string, out: Issues, hint = ''): value is Record<string, unknown> {
  if (isPlainObject(value)) return true;
  out.add(field, `must be an object${hint}, got ${describeType(value)}`);
  return false;
}

/** Adds why `value` is not an identifier, if it is not; narrows it when it is. */
function expectIdentifier(value: unknown, field: string, out: Issues): value is string {
  return out.check(field, identifierProblem(value));
}

/** Adds why `value` is not a non-empty string, if it is not; narrows it when it is. */
function expectText(value: unknown, field: string, out: Issues): value is string {
  return out.check(field, nonEmptyStringProblem(value));
}

function expectArray(value: unknown, field: string, out: Issues, hint = ''): value is unknown[] {
  if (Array.isArray(value)) return true;
  out.add(field, `must be an array${hint}, got ${describeType(value)}`);
  return false;
}

function stringList(value: unknown, field: string, out: Issues): string[] | undefined {
  if (!expectArray(value, field, out, ' of strings')) return undefined;
  const strings: string[] = [];
  value.forEach((v, i) => {
    if (expectText(v, `${field}[${i}]`, out)) strings.push(v);
  });
  return strings.length === value.length ? strings : undefined;
}

function checkAddress(value: unknown, out: Issues): PostalAddress | undefined {
  if (!expectObject(value, 'address', out)) return undefined;
  const before = out.count();
  rejectUnknown(value, ADDRESS_FIELDS, 'address', out);
  const address: PostalAddress = {};
  for (const key of ADDRESS_FIELDS) {
    const v = value[key];
    if (v === undefined) continue;
    if (expectText(v, `address.${key}`, out)) address[key] = v;
  }
  return out.count() === before ? address : undefined;
}

function checkGeo(value: unknown, out: Issues): Geo | undefined {
  if (!expectObject(value, 'geo', out, ' {"latitude": …, "longitude": …} in WGS 84 decimal degrees')) return undefined;
  const before = out.count();
  rejectUnknown(value, GEO_FIELDS, 'geo', out);
  const ranges = { latitude: 90, longitude: 180 } as const;
  for (const key of GEO_FIELDS) {
    const v = value[key];
    const field = `geo.${key}`;
    if (v === undefined) out.add(field, 'is required when geo is present');
    else if (typeof v !== 'number' || !Number.isFinite(v)) out.add(field, `must be a number in decimal degrees, got ${describeType(v)}`);
    else if (Math.abs(v) > ranges[key]) out.add(field, `${v} is out of range [-${ranges[key]}, ${ranges[key]}]`);
  }
  const { latitude, longitude } = value;
  if (out.count() !== before || typeof latitude !== 'number' || typeof longitude !== 'number') return undefined;
  return { latitude, longitude };
}

function checkAmenities(value: unknown, out: Issues): Amenities | undefined {
  if (Array.isArray(value)) {
    out.add('amenities', 'must be an object keyed by amenity id, e.g. {"dev.ucp.amenity.parking": {"description": "Parking"}}; the array form of older drafts is not accepted');
    return undefined;
  }
  if (!expectObject(value, 'amenities', out)) return undefined;
  const before = out.count();
  const amenities: Amenities = {};
  for (const [key, entry] of Object.entries(value)) {
    const field = `amenities.${key}`;
    if (!amenityIds.has(key) && !isReverseDomainName(key)) {
      out.add(field, `amenity id ${JSON.stringify(key)} is not a reverse-domain name (lower-case dot-separated labels such as "dev.ucp.amenity.parking" or "com.example.amenity.car_wash")`);
    }
    if (!expectObject(entry, field, out, ' {"description": "…"}')) continue;
    rejectUnknown(entry, AMENITY_FIELDS, field, out);
    const description = entry['description'];
    if (expectText(description, `${field}.description`, out)) amenities[key] = { description };
  }
  if (out.count() !== before) return undefined;
  for (const key of Object.keys(amenities)) {
    if (amenityIds.size >= 10_000) amenityIds.clear();
    amenityIds.add(key);
  }
  return amenities;
}

/** Amenity ids already found to be reverse-domain names (a chain uses a few dozen): no regex for them. */
const amenityIds = new Set<string>();

/**
 * `serves`: every rule of its content (types, rings, country codes, unknown keys) is
 * domain/serves.ts's validateCoverage; only the link to the record's geo is checked here.
 */
function checkCoverage(value: unknown, hasGeo: boolean, out: Issues): Coverage | undefined {
  const before = out.count();
  for (const issue of validateCoverage(value)) out.add(joinField('serves', issue.field), issue.message);
  if (out.count() !== before || !isPlainObject(value)) return undefined;
  if (value['radius_m'] !== undefined && !hasGeo) {
    out.add('serves.radius_m', "needs the location's geo (the radius is measured from it)");
    return undefined;
  }
  return value;
}

function joinField(parent: string, child: string): string {
  if (child === '') return parent;
  return child.startsWith('[') ? `${parent}${child}` : `${parent}.${child}`;
}

function checkAliases(value: unknown, id: unknown, out: Issues): string[] | undefined {
  if (!expectArray(value, 'aliases', out, ' of strings')) return undefined;
  const before = out.count();
  const seen = new Set<string>();
  const aliases: string[] = [];
  value.forEach((alias, i) => {
    const field = `aliases[${i}]`;
    if (!expectIdentifier(alias, field, out)) return;
    if (alias === id) out.add(field, `alias ${JSON.stringify(alias)} repeats the location's own id; remove it`);
    else if (seen.has(alias)) out.add(field, `alias ${JSON.stringify(alias)} is listed twice`);
    seen.add(alias);
    aliases.push(alias);
  });
  return out.count() === before ? aliases : undefined;
}

/**
 * Validates one raw record. `pos` only labels the issues; `record` is returned only when the
 * record is entirely valid (a partly valid record is never written).
 */
export function validateRecord(raw: unknown, pos: SourcePosition): RecordValidation {
  const out = new Issues();
  const done = (record?: LocationRecord): RecordValidation => {
    const issues = out.list.map((i) => atPosition(pos, i));
    return record !== undefined && issues.length === 0 ? { record, issues } : { issues };
  };
  if (!isPlainObject(raw)) {
    out.add('', `a record must be a JSON object, got ${describeType(raw)}`);
    return done();
  }
  // Before anything reads the fields: a hostile record must not cost more than its size check.
  const oversized = oversizedFields(raw);
  if (oversized.length > 0) {
    for (const issue of oversized) out.add(issue.field, issue.message);
    return done();
  }
  rejectUnknown(raw, RECORD_FIELDS, '', out);

  const { id, name } = raw;
  if (id === undefined) out.add('id', 'is required (a stable, unique location identifier)');
  else expectIdentifier(id, 'id', out);
  if (name === undefined) out.add('name', 'is required');
  else expectText(name, 'name', out);

  // An id or name that is not a string has an issue recorded, so `done` drops this record: the
  // empty strings never leave here.
  const record: LocationRecord = { id: typeof id === 'string' ? id : '', name: typeof name === 'string' ? name : '' };
  const v = raw;
  if (v['aliases'] !== undefined) assign(record, 'aliases', checkAliases(v['aliases'], id, out));
  if (v['address'] !== undefined) assign(record, 'address', checkAddress(v['address'], out));
  if (v['geo'] !== undefined) assign(record, 'geo', checkGeo(v['geo'], out));
  if (v['amenities'] !== undefined) assign(record, 'amenities', checkAmenities(v['amenities'], out));
  checkScheduleFields(v, record, out);
  if (v['visibility'] !== undefined) {
    if (v['visibility'] === 'public' || v['visibility'] === 'private') record.visibility = v['visibility'];
    else out.add('visibility', `must be "public" or "private", got ${describeType(v['visibility'])}`);
  }
  if (v['keywords'] !== undefined) assign(record, 'keywords', stringList(v['keywords'], 'keywords', out));
  if (v['serves'] !== undefined) assign(record, 'serves', checkCoverage(v['serves'], v['geo'] !== undefined, out));
  if (v['items'] !== undefined) assign(record, 'items', stringList(v['items'], 'items', out));
  if (v['language'] !== undefined || v['localized'] !== undefined) {
    const languages = checkLanguages(v);
    for (const issue of languages.issues) out.add(issue.field, issue.message);
    assign(record, 'language', languages.language);
    assign(record, 'localized', languages.localized);
  }
  return done(record);
}

function assign<K extends keyof LocationRecord>(record: LocationRecord, key: K, value: LocationRecord[K] | undefined): void {
  if (value !== undefined) record[key] = value;
}

/**
 * Memo of schedule parts already found valid. Chains repeat a few hundred distinct weekly
 * patterns, exception lists and zones across a dataset, and validateSchedule (IANA zone look-up,
 * calendar dates through luxon, range checks) was a third of record validation; a part seen
 * valid before is not checked again.
 *
 * Sound because validateSchedule's rules never mix the parts: a timezone's problems depend on
 * the zone alone (plus the presence rule, which only fires when it is absent), the hours' on the
 * hours alone, the exceptions' on the exceptions alone. So a schedule whose zone, hours and
 * exceptions were each part of some valid schedule is valid (a property test checks the memo
 * against validateSchedule). Parts are keyed by their JSON text: raw records hold only JSON data
 * (every decoder produces strings, numbers, booleans, null, arrays and plain objects), so equal
 * text means equal content, and only valid parts are remembered (invalid ones are rare and are
 * always validated in full, so their messages cannot change).
 */
export class ScheduleMemo {
  private readonly zones = new Set<string>();
  /** JSON text → the first valid value seen with it (deep-frozen, shared by later records). */
  private readonly hours = new Map<string, DailyHour[]>();
  private readonly exceptions = new Map<string, ExceptionHour[]>();

  /** Bound on remembered parts of each kind; past it the memo starts over (memory stays flat). */
  constructor(private readonly limit = 50_000) {}

  private remember<K, V>(map: Map<K, V> | Set<K>, key: K, value: V): void {
    if (map.size >= this.limit) map.clear();
    if (map instanceof Map) map.set(key, value);
    else map.add(key);
  }

  /** Problems of this schedule, exactly as validateSchedule reports them. */
  problems(timezone: unknown, hours: unknown, exceptions: unknown): readonly { field: string; message: string }[] {
    return this.check(timezone, hours, exceptions).problems;
  }

  /**
   * validateSchedule's problems, and — when there are none — the hours and exceptions to keep:
   * an equal, deep-frozen value shared with earlier records where one was seen. Sharing lets a
   * million records hold a few hundred schedule arrays, and lets the store serialise each once.
   */
  check(timezone: unknown, hours: unknown, exceptions: unknown): ScheduleCheck {
    const hoursKey = hours === undefined ? undefined : JSON.stringify(hours);
    const exceptionsKey = exceptions === undefined ? undefined : JSON.stringify(exceptions);
    if (typeof timezone === 'string' && this.zones.has(timezone)) {
      const sharedHours = hoursKey === undefined ? undefined : this.hours.get(hoursKey);
      const sharedExceptions = exceptionsKey === undefined ? undefined : this.exceptions.get(exceptionsKey);
      if ((hoursKey === undefined || sharedHours !== undefined) && (exceptionsKey === undefined || sharedExceptions !== undefined)) {
        return { valid: true, problems: [], timezone, hours: sharedHours, exceptions: sharedExceptions };
      }
    }
    const problems = validateSchedule({ timezone, hours, exception_hours: exceptions });
    if (problems.length > 0) return { valid: false, problems, hours, exceptions };
    // Valid without a zone means no hours and no exceptions either (they would need one).
    if (typeof timezone !== 'string') return { valid: true, problems, timezone: undefined, hours: undefined, exceptions: undefined };
    this.remember(this.zones, timezone, undefined);
    let validHours: DailyHour[] | undefined;
    if (hoursKey !== undefined) {
      validHours = this.hours.get(hoursKey) ?? deepFreeze(accepted(hours, isDailyHour, 'hours'));
      this.remember(this.hours, hoursKey, validHours);
    }
    let validExceptions: ExceptionHour[] | undefined;
    if (exceptionsKey !== undefined) {
      validExceptions = this.exceptions.get(exceptionsKey) ?? deepFreeze(accepted(exceptions, isExceptionHour, 'exception_hours'));
      this.remember(this.exceptions, exceptionsKey, validExceptions);
    }
    return { valid: true, problems, timezone, hours: validHours, exceptions: validExceptions };
  }
}

/** What ScheduleMemo.check found: the typed parts of a valid schedule, or the problems and the parts as given. */
export type ScheduleCheck =
  | { valid: true; problems: readonly ScheduleProblem[]; timezone: string | undefined; hours: DailyHour[] | undefined; exceptions: ExceptionHour[] | undefined }
  | { valid: false; problems: readonly ScheduleProblem[]; hours: unknown; exceptions: unknown };

/**
 * A list validateSchedule accepted, typed by the guard of its entries. The guards accept every
 * entry validateSchedule does, so the throw only fires if the two ever drift apart.
 */
function accepted<T>(list: unknown, isEntry: (v: unknown) => v is T, field: string): T[] {
  if (Array.isArray(list) && list.every(isEntry)) return list;
  throw new Error(`${field} passed schedule validation but not its entry guard; the two checks disagree`);
}

/** Shared by every validation in this process; it only ever holds valid parts. */
const scheduleMemo = new ScheduleMemo();

/**
 * timezone, hours and exception_hours: every schedule rule (types, HH:MM, dates, opens != closes,
 * intersecting exception ranges, a real IANA zone, timezone required) is domain/hours.ts's
 * validateSchedule, so the importer and the evaluator agree on what is valid. Only unknown
 * keys inside entries are checked here.
 */
function checkScheduleFields(v: Record<string, unknown>, record: LocationRecord, out: Issues): void {
  const { timezone, hours, exception_hours: exceptions } = v;
  if (timezone === undefined && hours === undefined && exceptions === undefined) return;
  const before = out.count();
  for (const [list, field, known] of [
    [hours, 'hours', HOUR_FIELDS],
    [exceptions, 'exception_hours', EXCEPTION_FIELDS],
  ] as const) {
    if (!Array.isArray(list)) continue;
    list.forEach((entry: unknown, i) => {
      if (isPlainObject(entry)) rejectUnknown(entry, known, `${field}[${i}]`, out);
    });
  }
  const checked = scheduleMemo.check(timezone, hours, exceptions);
  for (const issue of checked.problems) out.add(issue.field, issue.message);
  if (out.count() !== before || !checked.valid) return;
  if (checked.timezone !== undefined) record.timezone = checked.timezone;
  if (checked.hours !== undefined) record.hours = checked.hours;
  if (checked.exceptions !== undefined) record.exception_hours = checked.exceptions;
}
