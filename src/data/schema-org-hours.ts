/**
 * schema.org opening hours → UCP `hours` and `exception_hours`.
 *
 * `openingHoursSpecification` (OpeningHoursSpecification nodes):
 *  - undated entries are the weekly schedule: every day named in `dayOfWeek` (names, `schema:`
 *    or `http(s)://schema.org/` IRIs, `{"@id": …}`) gets the `opens`–`closes` interval; days no
 *    entry names are closed; `opens` = `closes` = `00:00` closes the day, as search engines read it;
 *  - dated entries (`validFrom` and `validThrough`) are exceptions for every date of the range:
 *    `00:00`–`00:00` (or no times) closes the dates, `00:00`–`23:59` opens them all day, several
 *    entries with the same range are split shifts.
 * The `openingHours` text form (`Mo-Fr 09:00-17:00`, `Mo-Su` = every day all day) is read when
 * there is no specification.
 *
 * What UCP cannot hold is never approximated: a `PublicHolidays` rule, an open-ended dated entry,
 * seasonal weekly hours (a date range limited to some weekdays), times with seconds or an offset.
 * The whole schedule is then left out, with a warning, so the Location reads as "hours unknown"
 * rather than wrong. Malformed values (an unknown day, `25:00`, a non-date) are errors.
 */
import { DAYS, type Day, type DailyHour, type ExceptionHour } from '../domain/location.js';
import { elementAt } from '../protocol/guards.js';
import { describeType, isPlainObject } from './fields.js';
import type { FieldIssue } from './issues.js';
import { interval, readDate, readTime, type Interval, type Read } from './source-times.js';
import { group } from './match-group.js';

export interface ScheduleOutcome {
  hours?: DailyHour[];
  exception_hours?: ExceptionHour[];
  issues: FieldIssue[];
  warnings: FieldIssue[];
}

const DAY_NAMES = new Map<string, Day>(DAYS.map((d) => [d, d]));
const TEXT_DAYS: Record<string, Day> = { mo: 'monday', tu: 'tuesday', we: 'wednesday', th: 'thursday', fr: 'friday', sa: 'saturday', su: 'sunday' };

/** Why a schedule cannot be expressed; thrown inside this module only, caught by `scheduleOf`. */
class Inexpressible extends Error {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(reason);
  }
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
}

/** The local name of an IRI or compact IRI (`https://schema.org/Monday`, `schema:Monday` → `Monday`). */
export function localName(value: string): string {
  const cut = Math.max(value.lastIndexOf('/'), value.lastIndexOf('#'), value.lastIndexOf(':'));
  return value.slice(cut + 1);
}

function readDay(value: unknown, field: string, issues: FieldIssue[]): Day | undefined {
  const text = isPlainObject(value) ? (value['@id'] ?? value['name']) : value;
  if (typeof text !== 'string') {
    issues.push({ field, message: `must name a day of the week (e.g. "Monday" or "https://schema.org/Monday"), got ${describeType(value)}` });
    return undefined;
  }
  const name = localName(text.trim()).toLowerCase();
  if (name === 'publicholidays') throw new Inexpressible(field, 'the PublicHolidays rule depends on a holiday calendar UCP does not have; list the dates as dated entries (validFrom/validThrough)');
  const day = DAY_NAMES.get(name);
  if (day === undefined) issues.push({ field, message: `${JSON.stringify(text)} is not a day of the week; use Monday … Sunday or https://schema.org/Monday …` });
  return day;
}

function must<T>(read: Read<T>, field: string, issues: FieldIssue[]): T | undefined {
  if ('value' in read) return read.value;
  if ('inexpressible' in read) throw new Inexpressible(field, read.inexpressible);
  issues.push({ field, message: read.error });
  return undefined;
}

/** `HH:MM`, `HH:MM:SS`; an offset (`09:00+01:00`) cannot be held: hours are local wall-clock time. */
function readSpecTime(value: unknown, field: string, issues: FieldIssue[]): string | undefined {
  if (typeof value !== 'string') {
    issues.push({ field, message: `must be a time "HH:MM" or "HH:MM:SS", got ${describeType(value)}` });
    return undefined;
  }
  if (/([+-]\d{2}:?\d{2}|Z)$/.test(value.trim())) throw new Inexpressible(field, `${JSON.stringify(value)} carries a UTC offset; UCP hours are local wall-clock times in the zone of the Location`);
  return must(readTime(value), field, issues);
}

/** A date, or the date part of a date-time (`2026-12-24T00:00:00+01:00` → `2026-12-24`). */
function readSpecDate(value: unknown, field: string, issues: FieldIssue[]): string | undefined {
  if (typeof value !== 'string') {
    issues.push({ field, message: `must be a date "YYYY-MM-DD", got ${describeType(value)}` });
    return undefined;
  }
  return must(readDate(value.trim().slice(0, 10)), field, issues);
}

/** Local day index of a valid `YYYY-MM-DD`, and its weekday. */
function dayIndex(date: string): number {
  return Math.round(Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / 86_400_000);
}

function weekdayOf(index: number): Day {
  // Day 0 (1970-01-01) was a Thursday; DAYS starts on Monday.
  return elementAt(DAYS, (((index + 3) % 7) + 7) % 7);
}

class Builder {
  readonly weekly = new Map<Day, { opens: string; closes: string }[]>();
  weeklyKnown = false;
  readonly exceptions: ExceptionHour[] = [];

  addWeekly(days: readonly Day[], iv: Interval): void {
    this.weeklyKnown = true;
    for (const day of days) {
      const slots = this.weekly.get(day) ?? [];
      this.weekly.set(day, slots);
      if ('closed' in iv) continue;
      if (!slots.some((s) => s.opens === iv.opens && s.closes === iv.closes)) slots.push({ opens: iv.opens, closes: iv.closes });
    }
  }

  hours(): DailyHour[] | undefined {
    if (!this.weeklyKnown) return undefined;
    const out: DailyHour[] = [];
    for (const day of DAYS) {
      const slots = [...(this.weekly.get(day) ?? [])].sort((a, b) => a.opens.localeCompare(b.opens));
      for (const s of slots) out.push({ day, opens: s.opens, closes: s.closes });
    }
    return out;
  }
}

function specEntry(entry: unknown, field: string, b: Builder, issues: FieldIssue[]): void {
  if (!isPlainObject(entry)) {
    issues.push({ field, message: `must be an OpeningHoursSpecification object, got ${describeType(entry)}` });
    return;
  }
  const before = issues.length;
  const days: Day[] = [];
  list(entry['dayOfWeek']).forEach((d, i) => {
    const day = readDay(d, Array.isArray(entry['dayOfWeek']) ? `${field}.dayOfWeek[${i}]` : `${field}.dayOfWeek`, issues);
    if (day !== undefined && !days.includes(day)) days.push(day);
  });
  const hasOpens = entry['opens'] !== undefined;
  const hasCloses = entry['closes'] !== undefined;
  if (hasOpens !== hasCloses) issues.push({ field: `${field}.${hasOpens ? 'closes' : 'opens'}`, message: `is missing while ${hasOpens ? 'opens' : 'closes'} is set; give both` });
  const opens = hasOpens ? readSpecTime(entry['opens'], `${field}.opens`, issues) : undefined;
  const closes = hasCloses ? readSpecTime(entry['closes'], `${field}.closes`, issues) : undefined;
  const from = entry['validFrom'] === undefined ? undefined : readSpecDate(entry['validFrom'], `${field}.validFrom`, issues);
  const through = entry['validThrough'] === undefined ? undefined : readSpecDate(entry['validThrough'], `${field}.validThrough`, issues);
  if (issues.length > before) return;
  const dated = entry['validFrom'] !== undefined || entry['validThrough'] !== undefined;
  const iv = opens !== undefined && closes !== undefined ? must(interval(opens, closes, true), `${field}.closes`, issues) : undefined;
  if (issues.length > before) return;

  if (!dated) {
    if (days.length === 0) {
      issues.push({ field: `${field}.dayOfWeek`, message: 'is missing: an undated entry must name its days (dayOfWeek), a dated one its dates (validFrom and validThrough)' });
      return;
    }
    if (iv === undefined) {
      issues.push({ field: `${field}.opens`, message: 'an entry for days of the week needs opens and closes ("00:00" and "00:00" for a closed day)' });
      return;
    }
    b.addWeekly(days, iv);
    return;
  }
  if (from === undefined || through === undefined) {
    throw new Inexpressible(`${field}.${from === undefined ? 'validFrom' : 'validThrough'}`, 'a dated entry needs both validFrom and validThrough; open-ended dated hours (a new schedule from some date on) cannot be expressed');
  }
  const start = dayIndex(from);
  const end = dayIndex(through);
  if (end < start) {
    issues.push({ field: `${field}.validThrough`, message: `${through} is before validFrom ${from}` });
    return;
  }
  // Days named on a dated entry limit it to those weekdays: fine when they cover every date of the range.
  // With fewer than 7 days a mismatch shows within the first 7 dates, so the loop stays short.
  if (days.length > 0 && days.length < 7) {
    for (let d = start; d <= end; d++) {
      if (!days.includes(weekdayOf(d))) {
        throw new Inexpressible(`${field}.dayOfWeek`, `seasonal weekly hours (${from}..${through} on some weekdays only) cannot be expressed; UCP special hours apply to every date of their range — split the range into dated entries per date`);
      }
    }
  }
  const base = { valid_from: from, valid_through: through };
  if (iv === undefined || 'closed' in iv) b.exceptions.push(base);
  else b.exceptions.push({ ...base, opens: iv.opens, closes: iv.closes });
}

/** One `openingHours` text value: `Mo-Fr 09:00-17:00`, `Sa 10:00-12:00,13:00-16:00`, `Mo-Su`. */
function textEntry(text: string, field: string, b: Builder): void {
  const m = /^\s*([A-Za-z]{2}(?:\s*[-,]\s*[A-Za-z]{2})*)(?:\s+(\S.*))?$/.exec(text);
  const unreadable = (): Inexpressible => new Inexpressible(field, `${JSON.stringify(text)} is not in the schema.org openingHours form ("Mo-Fr 09:00-17:00")`);
  if (m === null) throw unreadable();
  const days: Day[] = [];
  for (const part of group(m, 1).split(',')) {
    const [a, z] = part.split('-').map((s) => TEXT_DAYS[s.trim().toLowerCase()]);
    if (a === undefined || (part.includes('-') && z === undefined)) throw unreadable();
    const from = DAYS.indexOf(a);
    const last = z ?? a;
    // A range may wrap the week (Fr-Mo).
    for (const day of [...DAYS.slice(from), ...DAYS.slice(0, from)]) {
      if (!days.includes(day)) days.push(day);
      if (day === last) break;
    }
  }
  if (m[2] === undefined) {
    b.addWeekly(days, { opens: '00:00', closes: '23:59' });
    return;
  }
  for (const range of m[2].split(',')) {
    const [o, c, extra] = range.split('-').map((s) => s.trim());
    if (o === undefined || c === undefined || extra !== undefined) throw unreadable();
    const opens = readTime(o);
    const closes = readTime(c);
    if (!('value' in opens) || !('value' in closes)) throw unreadable();
    const iv = interval(opens.value, closes.value, true);
    if (!('value' in iv)) throw unreadable();
    b.addWeekly(days, iv.value);
  }
}

/** The weekly hours of the `openingHours` text form (one string or several). */
function fromText(text: unknown, issues: FieldIssue[]): Builder {
  const b = new Builder();
  list(text).forEach((t, i) => {
    const field = Array.isArray(text) ? `openingHours[${i}]` : 'openingHours';
    if (typeof t !== 'string') issues.push({ field, message: `must be text such as "Mo-Fr 09:00-17:00", got ${describeType(t)}` });
    // Several rules may share one string ("Mo-Fr 09:00-17:00 Sa 10:00-14:00").
    else for (const part of t.split(/(?<=\d)\s+(?=[A-Za-z]{2}\b)/)) textEntry(part, field, b);
  });
  return b;
}

/** The schedule of one LocalBusiness node; field paths are relative to the node. */
export function scheduleOf(node: Record<string, unknown>): ScheduleOutcome {
  const issues: FieldIssue[] = [];
  const warnings: FieldIssue[] = [];
  const spec = node['openingHoursSpecification'];
  const text = node['openingHours'];
  try {
    if (spec === undefined || spec === null) return { ...done(fromText(text, issues)), issues, warnings };
    const b = new Builder();
    list(spec).forEach((entry, i) => specEntry(entry, Array.isArray(spec) ? `openingHoursSpecification[${i}]` : 'openingHoursSpecification', b, issues));
    const out = done(b);
    if (text !== undefined && out.hours !== undefined) {
      // The text form is a second opinion here: only a disagreement is worth a word.
      let same = false;
      try {
        same = JSON.stringify(fromText(text, []).hours()) === JSON.stringify(out.hours);
      } catch (error) {
        if (!(error instanceof Inexpressible)) throw error;
      }
      if (!same) warnings.push({ field: 'openingHours', message: 'differs from openingHoursSpecification, which was used' });
    }
    return { ...out, issues, warnings };
  } catch (error) {
    if (!(error instanceof Inexpressible)) throw error;
    warnings.push({ field: error.field, message: `${error.reason}; the Location is imported without opening hours` });
    return { issues, warnings };
  }
}

function done(b: Builder): { hours?: DailyHour[]; exception_hours?: ExceptionHour[] } {
  const hours = b.hours();
  return {
    ...(hours !== undefined ? { hours } : {}),
    ...(b.exceptions.length > 0 ? { exception_hours: b.exceptions } : {}),
  };
}
