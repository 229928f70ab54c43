/**
 * OpenStreetMap `opening_hours` → UCP `hours` + `exception_hours`, exactly or not at all.
 *
 * The value is parsed and evaluated by the `opening_hours` library (the reference implementation of
 * the tag's syntax, public holidays included). We never translate its syntax ourselves; we ask the
 * library which minutes of which local dates are open and write that down in UCP terms:
 *
 *  - Every date's open time is cut at midnight, so each UCP entry lies within the date it belongs to
 *    (`Fr 22:00-02:00` becomes friday 22:00–00:00 and saturday 00:00–02:00). UCP's carry-over rules
 *    (an exception date stops what carried in from the day before) then never come into play, and
 *    a date's state is exactly the library's, whichever mix of weekly and exception entries covers it.
 *  - A week-stable value (the library's own test: the same every week) is read off one week and
 *    needs no exceptions. Any other value (public holidays, dates, months, years) is evaluated for
 *    every date of the horizon: each weekday's most frequent day becomes the weekly entry, and every
 *    date that differs becomes an exception. Within the horizon the UCP schedule is therefore open at
 *    exactly the minutes the library says; past it, only the weekly pattern remains.
 *  - What UCP cannot state (times that follow the sun, week numbers, "Mo[1]", school holidays, open
 *    ends, unknown states, comments carrying the meaning) is refused with a reason, never rounded to
 *    something close (the caller imports the Location without hours and warns).
 *
 * The library reads dates through the JavaScript Date local-time getters. Labels (wall-clock times)
 * are therefore handed to it on a clock with one fixed UTC offset over the whole evaluated span, so
 * local time there is plain arithmetic with no daylight-saving gaps (see onFixedOffsetClock).
 */
import OpeningHours from 'opening_hours';
import { DAYS, type DailyHour, type ExceptionHour } from '../domain/location.js';

const MINUTE_MS = 60_000;
const DAY_MINUTES = 24 * 60;
const DAY_MS = DAY_MINUTES * MINUTE_MS;

/** Where the Location is, as the library's holiday tables need it (ISO 3166-1 alpha-2 country, state name). */
export interface HolidayRegion {
  country?: string | undefined;
  state?: string | undefined;
}

export interface OsmHoursOptions {
  /** First local date evaluated, as a day index (days since 1970-01-01). */
  startDay: number;
  /** Dates evaluated for values that are not the same every week. */
  horizonDays: number;
  /** Time one value may take to evaluate, ms (default `MAX_EVALUATION_MS`); past it, refused. */
  budgetMs?: number;
}

/**
 * Longest value evaluated: OpenStreetMap itself stores at most 255 characters per tag value. The
 * library's cost grows faster than the value (200 one-minute intervals, 2.4 KB: 35 s for a year),
 * so a longer value is refused before it is parsed.
 */
export const MAX_OPENING_HOURS_CHARS = 255;

/** Time one value may take to evaluate, ms: real values take milliseconds. */
export const MAX_EVALUATION_MS = 2_000;

export type OsmHours =
  | { ok: true; hours: DailyHour[]; exception_hours?: ExceptionHour[] }
  /** `reason` completes "opening_hours is not imported: …". */
  | { ok: false; reason: string };

/** "17:00+" or "open end" (not "easter +1 day", where the sign follows a word). */
const OPEN_END = /\d\+|\bopen\s*end\b/i;

/** Constructs UCP cannot state; checked on the value with its comments removed. */
const UNSUPPORTED: readonly (readonly [RegExp, string])[] = [
  [/\b(?:sunrise|sunset|dawn|dusk)\b/i, 'it uses times that follow the sun (sunrise, sunset, dawn, dusk), which UCP hours cannot state'],
  [/\bweek\b/i, 'it uses week numbers ("week 01-10"), which UCP hours cannot state'],
  [/\b(?:Mo|Tu|We|Th|Fr|Sa|Su)\s*\[/i, 'it names the nth weekday of a month ("Mo[1]"), which UCP hours cannot state'],
  [/\bSH\b/, 'it uses school holidays (SH), which UCP hours cannot state'],
  [OPEN_END, 'it has an open end ("17:00+"): the closing time is unknown'],
  [/\bunknown\b/i, 'it declares an unknown state'],
];

/** The reason `value` cannot be written as UCP hours before evaluating it, or null. */
function syntaxRefusal(value: string): string | null {
  const bare = value.replace(/"[^"]*"/g, ' ');
  if (bare.trim() === '' || /^[\s;,|]*$/.test(bare)) return `it holds only a comment (${value.trim()}), not hours`;
  for (const [pattern, reason] of UNSUPPORTED) if (pattern.test(bare)) return reason;
  return null;
}

/** The first line of a library error, without the value it repeats. */
function libraryMessage(error: unknown): string {
  const text = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  const noHolidays = /There are no holidays \((\w+)\) defined for country (\w*)(?: and state ([^.]*))?/.exec(text);
  if (noHolidays !== null) {
    const [, kind, cc, state] = noHolidays;
    if (cc === '') return `it uses ${kind} but the Location's country is unknown (add an addr:country tag)`;
    const where = state !== undefined ? `${cc?.toUpperCase()} and state ${JSON.stringify(state.trim())}` : cc?.toUpperCase();
    return `it uses ${kind} but the opening_hours library knows no ${kind === 'PH' ? 'public holidays' : 'holidays'} for ${where}${state !== undefined && state.trim() === '' ? ' (an addr:state tag may help)' : ''}`;
  }
  return `it is not valid opening_hours syntax: ${text.length > 200 ? `${text.slice(0, 200)}…` : text}`;
}

/** The machine zone's offset (ms) if it is the same over [fromMs, toMs], else null. */
function constantMachineOffset(fromMs: number, toMs: number): number | null {
  // The library works in machine-local time; this reads the machine's offset to neutralise it.
  // eslint-disable-next-line no-restricted-syntax
  const offsetAt = (ms: number): number => new Date(ms).getTimezoneOffset();
  const first = offsetAt(fromMs);
  for (let ms = fromMs; ms <= toMs + DAY_MS; ms += DAY_MS / 2) if (offsetAt(ms) !== first) return null;
  return first * MINUTE_MS;
}

/**
 * Whether evaluations over `days` from `startDay` run without switching the process zone, so
 * also on a worker thread (which cannot switch it): true on machines whose zone keeps one offset
 * there (UTC servers, most containers).
 */
export function evaluatesOnAnyThread(startDay: number, days: number): boolean {
  return constantMachineOffset(startDay * DAY_MS, (startDay + days) * DAY_MS) !== null;
}

/**
 * Runs `body` on a clock whose UTC offset is the same over [fromMs, toMs], passing that offset
 * (ms to add to a wall-clock label to get the Date the library must see). The machine's own zone
 * is used when it has no transition in the span (UTC servers, most containers); otherwise the
 * process zone is switched to UTC for the synchronous call and restored. Worker threads cannot
 * switch zones, so there an evaluation over a transition fails loudly instead of shifting hours.
 */
function onFixedOffsetClock<T>(fromMs: number, toMs: number, body: (shiftMs: number) => T): T {
  const own = constantMachineOffset(fromMs, toMs);
  if (own !== null) return body(own);
  const saved = process.env['TZ'];
  process.env['TZ'] = 'UTC';
  try {
    const utc = constantMachineOffset(fromMs, toMs);
    if (utc === null) {
      throw new Error('opening_hours cannot be evaluated exactly on this thread: the machine time zone changes offset in the horizon; run the import with TZ=UTC');
    }
    return body(utc);
  } finally {
    if (saved === undefined) delete process.env['TZ'];
    else process.env['TZ'] = saved;
  }
}

/** The library reports problems it cannot evaluate on the console as well as by throwing. */
function quietly<T>(body: () => T): T {
  const saved = console.error;
  console.error = () => undefined;
  try {
    return body();
  } finally {
    console.error = saved;
  }
}

/** Open minutes of one local date: sorted, disjoint, non-touching [start, end) pairs in 0..1440. */
type DaySegments = number[];

function keyOf(segments: DaySegments): string {
  return segments.join(',');
}

function addSegment(segments: DaySegments, start: number, end: number): void {
  const last = segments.length - 1;
  if (last > 0 && segments[last] === start) segments[last] = end;
  else segments.push(start, end);
}

function hhmm(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

/**
 * A date's segment as UCP (opens, closes) pairs. 00:00–23:59 means the whole date in UCP, so a
 * whole date is written that way and a literal "open until 23:59" from midnight is split in two.
 */
function ucpTimes(start: number, end: number): [string, string][] {
  if (start === 0 && end === DAY_MINUTES) return [['00:00', '23:59']];
  if (start === 0 && end === DAY_MINUTES - 1) return [['00:00', '12:00'], ['12:00', '23:59']];
  return [[hhmm(start), end === DAY_MINUTES ? '00:00' : hhmm(end)]];
}

function isoDate(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** Monday = 0 … Sunday = 6 (day 0, 1970-01-01, was a Thursday). */
function weekday(day: number): number {
  return (((day + 3) % 7) + 7) % 7;
}

interface Evaluated {
  /** Segments per date, from `first`. */
  days: DaySegments[];
  first: number;
  weekStable: boolean;
  comment: (day: number) => string | undefined;
}

/**
 * The library's `getOpenIntervals`, walked step by step so that a value whose evaluation runs
 * past `deadline` (performance.now() time) is given up on instead of holding the import.
 */
function openIntervals(oh: OpeningHours, from: Date, to: Date, deadline: number): ReturnType<OpeningHours['getOpenIntervals']> | null {
  const out: ReturnType<OpeningHours['getOpenIntervals']> = [];
  const it = oh.getIterator(from);
  let openSince: Date | undefined;
  const open = (at: Date): void => {
    out.push([at, to, it.getUnknown(), it.getComment()]);
    openSince = at;
  };
  if (it.getState() || it.getUnknown()) open(from);
  for (let step = 1; it.advance(to); step += 1) {
    if (step % 64 === 0 && performance.now() > deadline) return null;
    // The iterator's getDate() is the instant of the change (a Date), not a day-of-month getter.
    // eslint-disable-next-line no-restricted-syntax
    const at = it.getDate();
    const last = out[out.length - 1];
    if (openSince !== undefined && last !== undefined) last[1] = at;
    openSince = undefined;
    if (it.getState() || it.getUnknown()) open(at);
  }
  return out;
}

function evaluate(oh: OpeningHours, first: number, count: number, deadline: number): Evaluated | string {
  const from = first * DAY_MS;
  const to = (first + count) * DAY_MS;
  return onFixedOffsetClock(from, to, (shift) => {
    const intervals = openIntervals(oh, new Date(from + shift), new Date(to + shift), deadline);
    if (intervals === null) return tooComplex();
    const days: DaySegments[] = Array.from({ length: count }, () => []);
    for (const [opens, closes, unknown, comment] of intervals) {
      if (unknown) {
        if (typeof comment === 'string' && OPEN_END.test(comment)) return 'it has an open end ("17:00+"): the closing time is unknown';
        return comment !== undefined && comment !== null && comment !== ''
          ? `a rule carries a comment (${JSON.stringify(comment)}) that UCP hours cannot carry, so its state is unknown`
          : 'a rule has an unknown state';
      }
      const a = opens.getTime() - shift;
      const b = closes.getTime() - shift;
      if (a % MINUTE_MS !== 0 || b % MINUTE_MS !== 0) return 'it has times that are not whole minutes';
      for (let day = Math.floor(a / DAY_MS); day * DAY_MS < b; day++) {
        const segments = days[day - first];
        if (segments === undefined) continue;
        const start = Math.max(a, day * DAY_MS) - day * DAY_MS;
        const end = Math.min(b, (day + 1) * DAY_MS) - day * DAY_MS;
        if (end > start) addSegment(segments, start / MINUTE_MS, end / MINUTE_MS);
      }
    }
    const comment = (day: number): string | undefined => {
      const text = oh.getComment(new Date(day * DAY_MS + DAY_MS / 2 + shift));
      return typeof text === 'string' && text.trim() !== '' ? text.trim() : undefined;
    };
    return { days, first, weekStable: oh.isWeekStable(), comment };
  });
}

/** A day's segments `[opens, closes, opens, closes, …]` as `[opens, closes]` pairs. */
function* pairsOf(segments: DaySegments): Generator<[number, number]> {
  let opens: number | undefined;
  for (const t of segments) {
    if (opens === undefined) {
      opens = t;
    } else {
      yield [opens, t];
      opens = undefined;
    }
  }
}

function weeklyHours(perWeekday: readonly (DaySegments | undefined)[]): DailyHour[] {
  const hours: DailyHour[] = [];
  perWeekday.forEach((segments, w) => {
    const day = DAYS[w];
    if (segments === undefined || day === undefined) return;
    for (const [from, to] of pairsOf(segments)) {
      for (const [opens, closes] of ucpTimes(from, to)) hours.push({ day, opens, closes });
    }
  });
  return hours;
}

/** Dates that differ from their weekday's pattern, as runs of equal consecutive dates. */
function exceptionHours(e: Evaluated, weekly: readonly string[]): ExceptionHour[] {
  const out: ExceptionHour[] = [];
  let run: { from: number; through: number; key: string; title: string | undefined; segments: DaySegments } | null = null;
  const flush = (): void => {
    if (run === null) return;
    const bounds = { valid_from: isoDate(run.from), valid_through: isoDate(run.through) };
    const titled = run.title === undefined ? {} : { title: run.title };
    if (run.segments.length === 0) out.push({ ...titled, ...bounds });
    for (const [from, to] of pairsOf(run.segments)) {
      for (const [opens, closes] of ucpTimes(from, to)) out.push({ ...titled, ...bounds, opens, closes });
    }
    run = null;
  };
  e.days.forEach((segments, i) => {
    const day = e.first + i;
    const key = keyOf(segments);
    if (key === weekly[weekday(day)]) {
      flush();
      return;
    }
    const title = e.comment(day);
    if (run !== null && run.key === key && run.title === title && run.through === day - 1) run.through = day;
    else {
      flush();
      run = { from: day, through: day, key, title, segments };
    }
  });
  flush();
  return out;
}

/** Most frequent segments per weekday (ties: the earliest date), over the evaluated dates. */
function modalWeek(e: Evaluated): DaySegments[] {
  const counts = DAYS.map(() => new Map<string, { n: number; segments: DaySegments }>());
  e.days.forEach((segments, i) => {
    const tally = counts[weekday(e.first + i)];
    if (tally === undefined) return;
    const key = keyOf(segments);
    const seen = tally.get(key);
    if (seen === undefined) tally.set(key, { n: 1, segments });
    else seen.n += 1;
  });
  return counts.map((tally) => {
    let best: { n: number; segments: DaySegments } = { n: 0, segments: [] };
    for (const entry of tally.values()) if (entry.n > best.n) best = entry;
    return best.segments;
  });
}

function tooComplex(): string {
  return 'it is too complex to evaluate in reasonable time (real opening hours take milliseconds); simplify the value';
}

/** A translation without a region that needed the region's holidays: translate per region instead. */
const NEEDS_REGION = Symbol('needs a region');

function translate(value: string, region: HolidayRegion, options: OsmHoursOptions): OsmHours;
function translate(value: string, region: HolidayRegion, options: OsmHoursOptions, probe: true): OsmHours | typeof NEEDS_REGION;
/** `probe`: a translation for every region; NEEDS_REGION when the value turned out to need the region's holidays. */
function translate(value: string, region: HolidayRegion, options: OsmHoursOptions, probe = false): OsmHours | typeof NEEDS_REGION {
  if (value.length > MAX_OPENING_HOURS_CHARS) {
    return {
      ok: false,
      reason: `it is ${value.length} characters long; OpenStreetMap tag values have at most ${MAX_OPENING_HOURS_CHARS}`,
    };
  }
  const deadline = performance.now() + (options.budgetMs ?? MAX_EVALUATION_MS);
  const refusal = syntaxRefusal(value);
  if (refusal !== null) return { ok: false, reason: refusal };
  const nominatim = { lat: 0, lon: 0, address: { country_code: (region.country ?? '').toLowerCase(), state: region.state ?? '' } };
  let result: Evaluated | string;
  try {
    result = quietly(() => {
      const oh = new OpeningHours(value, nominatim, { mode: 0, tag_key: 'opening_hours', map_value: false, warnings_severity: 4, locale: 'en' });
      // A week-stable value is read off one week; anything else over the whole horizon.
      const days = oh.isWeekStable() ? 7 : options.horizonDays;
      return evaluate(oh, options.startDay, days, deadline);
    });
  } catch (error) {
    if (probe && NO_HOLIDAYS.test(error instanceof Error ? error.message : String(error))) return NEEDS_REGION;
    return { ok: false, reason: libraryMessage(error) };
  }
  if (typeof result === 'string') return { ok: false, reason: result };
  if (result.weekStable) {
    const perWeekday: (DaySegments | undefined)[] = DAYS.map(() => undefined);
    result.days.forEach((segments, i) => (perWeekday[weekday(result.first + i)] = segments));
    return { ok: true, hours: weeklyHours(perWeekday) };
  }
  const week = modalWeek(result);
  const exceptions = exceptionHours(result, week.map(keyOf));
  return exceptions.length > 0 ? { ok: true, hours: weeklyHours(week), exception_hours: exceptions } : { ok: true, hours: weeklyHours(week) };
}

/**
 * Translations by value (and region, when it matters) and horizon: a chain repeats a few values
 * across thousands of features, and parsing one costs the library a millisecond or more (a year of
 * evaluation more still). Results are shared, so never mutated.
 */
const memo = new Map<string, OsmHours | typeof NEEDS_REGION>();
const MEMO_LIMIT = 20_000;

function remember(key: string, result: OsmHours | typeof NEEDS_REGION): void {
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(key, result);
}


/**
 * The holiday tables are the only part of an evaluation that depends on where the Location is
 * (lat/lon are fixed, and what follows the sun is refused). A value is therefore translated once
 * for every region when it has no PH or SH token *and* its translation without any region did
 * not ask for holidays (the library throws when a value needs holidays it has no country for,
 * which also catches words it corrects to PH, such as "Feiertag"). Anything else is translated
 * per region. Conservative: a PH inside a comment only costs a translation per region.
 */
const HOLIDAY_TOKEN = /\b[PS]H\b/i;
const NO_HOLIDAYS = /There are no holidays \((\w+)\) defined for country/;

/** UCP hours for an `opening_hours` value, or why it cannot be written as UCP hours. */
export function osmOpeningHours(value: string, region: HolidayRegion, options: OsmHoursOptions): OsmHours {
  // Over-long values are refused without work, and kept out of the memo (it would hold them).
  if (value.length > MAX_OPENING_HOURS_CHARS) return translate(value, region, options);
  const base = [value, options.startDay, options.horizonDays].join('\u0000');
  if (!HOLIDAY_TOKEN.test(value)) {
    let shared = memo.get(base);
    if (shared === undefined) {
      shared = translate(value, {}, options, true);
      remember(base, shared);
    }
    if (shared !== NEEDS_REGION) return shared;
  }
  const key = [base, region.country ?? '', region.state ?? ''].join('\u0000');
  let result = memo.get(key);
  if (result === undefined || result === NEEDS_REGION) {
    result = translate(value, region, options);
    remember(key, result);
  }
  return result;
}
