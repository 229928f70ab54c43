/**
 * Schedule validation (R-H1, R-H4, R-H5): every reason a schedule cannot be evaluated, with the
 * field path and a fix. The importer rejects such records; the evaluator treats them as never
 * open (R-S6). Input may be raw JSON, so runtime types are checked too.
 */
import { DateTime } from 'luxon';
import { isOneOf } from '../protocol/guards.js';
import { DAYS, type DailyHour, type ExceptionHour } from './location.js';
import { DAY_MS, MINUTE_MS, zoneProblem } from './hours-zone.js';

/** One problem; `field` is a path such as `timezone`, `hours[2].closes`, `exception_hours[0].valid_through`. */
export interface ScheduleProblem {
  field: string;
  message: string;
}

const HHMM = /^([01][0-9]|2[0-3]):([0-5][0-9])$/;
const YMD = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Milliseconds after local midnight of a valid `HH:MM`, or null. */
export function parseLocalTime(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const m = HHMM.exec(value);
  if (m === null) return null;
  return (Number(m[1]) * 60 + Number(m[2])) * MINUTE_MS;
}

/** Local day index (days since 1970-01-01 on the label timeline) of a valid `YYYY-MM-DD`, or null. */
export function parseLocalDate(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const m = YMD.exec(value);
  if (m === null) return null;
  // A calendar computation on labels; the zone is irrelevant, so UTC is used as a neutral frame.
  const dt = DateTime.fromObject({ year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) }, { zone: 'UTC' });
  if (!dt.isValid || dt.day !== Number(m[3]) || dt.month !== Number(m[2])) return null;
  return Math.round(dt.toMillis() / DAY_MS);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function timeMessage(value: unknown, what: string): string {
  if (value === undefined) return `${what} is missing; give a 24-hour local time HH:MM such as 09:00`;
  if (typeof value === 'string' && /^\d:\d{2}$/.test(value))
    return `${what} ${JSON.stringify(value)} must have two hour digits, e.g. 0${value}`;
  if (value === '24:00')
    return `${what} "24:00" is not allowed; use 00:00 (an interval whose closes is earlier than opens runs into the next day) or the whole-day pair 00:00-23:59`;
  return `${what} ${JSON.stringify(value)} is not a 24-hour local time HH:MM (00:00-23:59)`;
}

function dateMessage(value: unknown, what: string): string {
  if (value === undefined) return `${what} is missing; give a local date YYYY-MM-DD`;
  if (typeof value === 'string' && YMD.test(value)) return `${what} ${JSON.stringify(value)} is not a calendar date`;
  return `${what} ${JSON.stringify(value)} is not a local date YYYY-MM-DD`;
}

/** Checks one opens/closes pair; pushes problems under `path`. Both times absent is allowed only when `optional`. */
function checkPair(entry: Record<string, unknown>, path: string, optional: boolean, out: ScheduleProblem[]): void {
  const hasOpens = entry['opens'] !== undefined;
  const hasCloses = entry['closes'] !== undefined;
  if (optional && !hasOpens && !hasCloses) return;
  if (optional && hasOpens !== hasCloses) {
    const [present, missing] = hasOpens ? ['opens', 'closes'] : ['closes', 'opens'];
    out.push({
      field: `${path}.${missing}`,
      message: `${missing} is missing while ${present} is set; give both for a timed exception, or neither for a full closure`,
    });
    return;
  }
  const opens = parseLocalTime(entry['opens']);
  const closes = parseLocalTime(entry['closes']);
  if (opens === null) out.push({ field: `${path}.opens`, message: timeMessage(entry['opens'], 'opens') });
  if (closes === null) out.push({ field: `${path}.closes`, message: timeMessage(entry['closes'], 'closes') });
  if (opens !== null && opens === closes) {
    out.push({
      field: `${path}.closes`,
      message: `opens and closes are both ${String(entry['opens'])}, which is invalid; use 00:00-23:59 for a whole day, or different times`,
    });
  }
}

interface DatedRange {
  index: number;
  from: number;
  through: number;
  closure: boolean;
}

/**
 * Every problem that makes `schedule` unevaluable; [] when it is valid. Takes any value (a
 * `Schedule`, or raw JSON that claims to be one).
 */
export function validateSchedule(schedule: unknown): ScheduleProblem[] {
  const out: ScheduleProblem[] = [];
  const raw = schedule;
  if (!isRecord(raw)) return [{ field: '', message: 'the schedule must be an object with timezone, hours and/or exception_hours' }];
  const { timezone, hours, exception_hours: exceptions } = raw;

  const needsZone = hours !== undefined || exceptions !== undefined;
  if (timezone === undefined) {
    if (needsZone) {
      out.push({
        field: 'timezone',
        message:
          'timezone is required when hours or exception_hours is present; set the IANA zone of the Location, e.g. America/Los_Angeles',
      });
    }
  } else if (typeof timezone !== 'string') {
    out.push({ field: 'timezone', message: 'timezone must be a string IANA zone id such as America/Los_Angeles' });
  } else {
    const why = zoneProblem(timezone);
    if (why !== null) out.push({ field: 'timezone', message: why });
  }

  if (hours !== undefined) {
    if (!Array.isArray(hours)) {
      out.push({
        field: 'hours',
        message: 'hours must be an array of {day, opens, closes} (use [] for "no regular opening"; omit it when unknown)',
      });
    } else {
      hours.forEach((entry: unknown, i) => {
        const path = `hours[${i}]`;
        if (!isRecord(entry)) {
          out.push({ field: path, message: 'each hours entry must be an object {day, opens, closes}' });
          return;
        }
        const day = entry['day'];
        if (!isOneOf(DAYS, day)) {
          out.push({
            field: `${path}.day`,
            message: `day ${day === undefined ? 'is missing' : `${JSON.stringify(day)} is not valid`}; use one of ${DAYS.join(', ')} (lower case)`,
          });
        }
        checkPair(entry, path, false, out);
      });
    }
  }

  if (exceptions !== undefined) {
    if (!Array.isArray(exceptions)) {
      out.push({
        field: 'exception_hours',
        message: 'exception_hours must be an array of {valid_from, valid_through, opens?, closes?, title?}',
      });
    } else {
      const ranges: DatedRange[] = [];
      exceptions.forEach((entry: unknown, i) => {
        const path = `exception_hours[${i}]`;
        if (!isRecord(entry)) {
          out.push({
            field: path,
            message: 'each exception_hours entry must be an object {valid_from, valid_through, opens?, closes?, title?}',
          });
          return;
        }
        const from = parseLocalDate(entry['valid_from']);
        const through = parseLocalDate(entry['valid_through']);
        if (from === null) out.push({ field: `${path}.valid_from`, message: dateMessage(entry['valid_from'], 'valid_from') });
        if (through === null) out.push({ field: `${path}.valid_through`, message: dateMessage(entry['valid_through'], 'valid_through') });
        if (from !== null && through !== null && from > through) {
          out.push({
            field: `${path}.valid_through`,
            message: `valid_through ${String(entry['valid_through'])} is before valid_from ${String(entry['valid_from'])}; both bounds are inclusive local dates, so use the same date for a single day`,
          });
        }
        if (entry['title'] !== undefined && typeof entry['title'] !== 'string') {
          out.push({ field: `${path}.title`, message: 'title must be a string (presentation only)' });
        }
        checkPair(entry, path, true, out);
        if (from !== null && through !== null && from <= through) {
          ranges.push({ index: i, from, through, closure: entry['opens'] === undefined && entry['closes'] === undefined });
        }
      });
      checkRanges(ranges, exceptions, out);
    }
  }
  return out;
}

function describe(entry: unknown): string {
  const e = isRecord(entry) ? entry : {};
  return `${String(e['valid_from'])}..${String(e['valid_through'])}`;
}

/**
 * Exception ranges must be identical or disjoint (R-H4); identical timed entries are split
 * shifts, but a full closure must be alone for its bounds.
 */
function checkRanges(ranges: DatedRange[], entries: readonly unknown[], out: ScheduleProblem[]): void {
  const sorted = [...ranges].sort((a, b) => a.from - b.from || a.through - b.through || a.index - b.index);
  // `reach` = the range with the latest `through` among earlier ranges: any later range starting
  // on or before it intersects it (or a range identical to it).
  let reach: DatedRange | undefined;
  let groupHead: DatedRange | undefined;
  for (const r of sorted) {
    if (groupHead !== undefined && groupHead.from === r.from && groupHead.through === r.through) {
      // Same bounds as the previous group: a split shift, unless a closure is involved.
      if (r.closure || groupHead.closure) {
        const closureIdx = r.closure ? r.index : groupHead.index;
        const otherIdx = r.closure ? groupHead.index : r.index;
        out.push({
          field: `exception_hours[${Math.max(r.index, groupHead.index)}]`,
          message: `exception_hours[${closureIdx}] is a full closure for ${describe(entries[r.index])}, and a full closure must stand alone, but exception_hours[${otherIdx}] has the same dates; remove one of them`,
        });
      }
      continue;
    }
    if (reach !== undefined && r.from <= reach.through) {
      out.push({
        field: `exception_hours[${r.index}]`,
        message: `dates ${describe(entries[r.index])} intersect exception_hours[${reach.index}] (${describe(entries[reach.index])}); exception ranges must be identical (split shifts) or not overlap at all`,
      });
    }
    groupHead = r;
    if (reach === undefined || r.through > reach.through) reach = r;
  }
}

/** A time of day as the hours fields hold it: `HH:MM`, 00:00-23:59. */
function isLocalTime(v: unknown): v is string {
  return parseLocalTime(v) !== null;
}

/** One weekly hours entry as validateSchedule accepts it (the guard behind a typed schedule). */
export function isDailyHour(v: unknown): v is DailyHour {
  return isRecord(v) && isOneOf(DAYS, v['day']) && isLocalTime(v['opens']) && isLocalTime(v['closes']) && v['opens'] !== v['closes'];
}

/** One exception entry as validateSchedule accepts it on its own (ranges across entries aside). */
export function isExceptionHour(v: unknown): v is ExceptionHour {
  if (!isRecord(v)) return false;
  const from = parseLocalDate(v['valid_from']);
  const through = parseLocalDate(v['valid_through']);
  const { opens, closes, title } = v;
  const times = (opens === undefined && closes === undefined) || (isLocalTime(opens) && isLocalTime(closes) && opens !== closes);
  return from !== null && through !== null && from <= through && times && (title === undefined || typeof title === 'string');
}
