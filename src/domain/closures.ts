/**
 * What a returned Location says about its schedule at the moment of the request (R-C5, draft
 * "Business" guidelines and message codes):
 *
 *  - `exception_hours` entries that can no longer affect the schedule — their dates are over in
 *    the Location's own zone — are left out of the returned Location. Only the *returned* copy:
 *    opening-hours evaluation (`filters.hours.open_at`, past instants included) compiles the stored
 *    schedule with every exception, and an exception governing that instant stays in the answer.
 *  - A closure known from the data produces the draft's warning codes, pointing at the Location
 *    (which is still returned): `temporary_closure` when a full-closure exception (no `opens` /
 *    `closes`) covers the request's local date, `permanently_closed` when that exception is open
 *    ended — its `valid_through` is `9999-12-31`, the last date the format can write. Neither the
 *    seed nor the draft has a status field, and the draft says a temporary closure is expressed as
 *    exactly such an exception, so the record format needs nothing new.
 */
import { DateTime } from 'luxon';
import type { ExceptionHour, Location } from './location.js';
import type { Message } from './requests.js';

/** `valid_through` of a full closure that never ends. */
export const PERMANENT_CLOSURE_THROUGH = '9999-12-31';

/** The date before a `YYYY-MM-DD` date (calendar arithmetic, no zone involved). */
function dayBefore(date: string): string {
  return DateTime.fromISO(date, { zone: 'UTC' }).minus({ days: 1 }).toISODate() ?? date;
}

/** A timed interval whose `closes` is earlier than `opens` runs into the next local date. */
function runsPastMidnight(e: ExceptionHour): boolean {
  return e.opens !== undefined && e.closes !== undefined && e.closes < e.opens;
}

type LocalNow = { date: string; time: string } | null;

/**
 * The last two answers per zone, each for one UTC minute. Every returned Location needs its local
 * date, a page of ten asks up to ten times per request, and converting with luxon costs more than
 * the rest of the search; within one UTC minute the local minute is the same for every zone whose
 * offset is whole minutes (all of today's), so one conversion per zone and minute is enough. Two,
 * because a search with `open_at` asks about two instants (now, and the instant it filters on)
 * for every Location it returns: with one entry they evicted each other on every call.
 */
interface LocalNowMemo {
  minute: number;
  value: LocalNow;
}
const localNowMemo = new Map<string, [LocalNowMemo, LocalNowMemo | undefined]>();
const LOCAL_NOW_MEMO_ZONES = 1024;

/** The Location's local date and time of day (`HH:MM`) at an instant; null for an unusable zone. */
export function localNow(epochMs: number, zone: string): LocalNow {
  const minute = Math.floor(epochMs / 60_000);
  const memo = localNowMemo.get(zone);
  if (memo !== undefined) {
    if (memo[0].minute === minute) return memo[0].value;
    const second = memo[1];
    if (second !== undefined && second.minute === minute) {
      // The most recent first: the next look is most likely for the same instant.
      memo[1] = memo[0];
      memo[0] = second;
      return second.value;
    }
  }
  const dt = DateTime.fromMillis(epochMs, { zone });
  const date = dt.isValid ? dt.toISODate() : null;
  const value = date === null ? null : { date, time: dt.toFormat('HH:mm') };
  // An offset with seconds (local mean time, before ~1970) makes the local minute depend on the
  // second: such answers are not kept.
  if (dt.isValid && Number.isInteger(dt.offset)) {
    if (memo === undefined) {
      if (localNowMemo.size >= LOCAL_NOW_MEMO_ZONES) localNowMemo.clear();
      localNowMemo.set(zone, [{ minute, value }, undefined]);
    } else {
      memo[1] = memo[0];
      memo[0] = { minute, value };
    }
  }
  return value;
}

function covers(e: ExceptionHour, date: string): boolean {
  return e.valid_from <= date && date <= e.valid_through;
}

/**
 * Whether an exception can still affect the schedule at `now` or later (the Location's local date
 * and time): its range reaches today, or it ended yesterday with an interval still running past
 * midnight — unless another exception governs today, which takes authority at local midnight.
 */
export function exceptionStillApplies(e: ExceptionHour, now: { date: string; time: string }, all: readonly ExceptionHour[]): boolean {
  return e.valid_through >= now.date || stillRunningFromDayBefore(e, now, all);
}

/**
 * Whether an exception governs the schedule at a local date and time: it covers the date, or it
 * ended the day before with an interval still running past midnight and no other exception
 * covers the date.
 */
export function exceptionGoverns(e: ExceptionHour, at: { date: string; time: string }, all: readonly ExceptionHour[]): boolean {
  return covers(e, at.date) || stillRunningFromDayBefore(e, at, all);
}

/**
 * Whether `e` ended the day before `at` with an interval that runs past midnight and is still
 * running at `at`, with no other exception covering `at`'s date (that one takes authority at midnight).
 */
function stillRunningFromDayBefore(e: ExceptionHour, at: { date: string; time: string }, all: readonly ExceptionHour[]): boolean {
  const closes = e.closes;
  if (closes === undefined || !runsPastMidnight(e) || e.valid_through !== dayBefore(at.date)) return false;
  return at.time < closes && !all.some((other) => covers(other, at.date));
}

/**
 * The Location as returned at `nowMs`: spent `exception_hours` left out (the same object when none
 * is) — except one that governs the schedule at `keptAtMs` (a past `filters.hours.open_at`): it
 * decided that match, so the answer shows it rather than a schedule saying "closed" then.
 */
export function withoutSpentExceptions<T extends Location>(loc: T, nowMs: number, keptAtMs: number | null = null): T {
  const list = loc.exception_hours;
  if (list === undefined || list.length === 0 || loc.timezone === undefined) return loc;
  const now = localNow(nowMs, loc.timezone);
  if (now === null) return loc;
  // The filtered instant's local time only when some exception is spent by now (one conversion fewer per Location otherwise).
  const zone = loc.timezone;
  let at: LocalNow | undefined;
  const governsAt = (e: ExceptionHour): boolean => {
    if (keptAtMs === null) return false;
    at ??= localNow(keptAtMs, zone);
    return at !== null && exceptionGoverns(e, at, list);
  };
  const kept = list.filter((e) => exceptionStillApplies(e, now, list) || governsAt(e));
  if (kept.length === list.length) return loc;
  const copy = { ...loc };
  if (kept.length > 0) copy.exception_hours = kept;
  else delete copy.exception_hours;
  return copy;
}

export type Closure = { kind: 'permanent'; since: string } | { kind: 'temporary'; from: string; through: string; title?: string };

/** The closure the Location's data declares for its local date at `nowMs`, if any. */
export function closureAt(loc: Location, nowMs: number): Closure | null {
  if (loc.timezone === undefined || loc.exception_hours === undefined) return null;
  const today = localNow(nowMs, loc.timezone)?.date;
  if (today === undefined) return null;
  for (const e of loc.exception_hours) {
    if (e.opens !== undefined || e.closes !== undefined) continue;
    if (!covers(e, today)) continue;
    if (e.valid_through === PERMANENT_CLOSURE_THROUGH) return { kind: 'permanent', since: e.valid_from };
    const c: Closure = { kind: 'temporary', from: e.valid_from, through: e.valid_through };
    if (e.title !== undefined) c.title = e.title;
    return c;
  }
  return null;
}

/** The draft's warning for a closure of the Location at `path` (a JSONPath into the response). */
export function closureWarning(loc: Location, closure: Closure, path: string): Message {
  if (closure.kind === 'permanent') {
    return {
      type: 'warning',
      code: 'permanently_closed',
      content: `${loc.name} (${loc.id}) is permanently closed (since ${closure.since}).`,
      path,
    };
  }
  const why = closure.title === undefined ? '' : ` (${closure.title})`;
  const span = closure.from === closure.through ? `on ${closure.from}` : `from ${closure.from} through ${closure.through}`;
  return {
    type: 'warning',
    code: 'temporary_closure',
    content: `${loc.name} (${loc.id}) is temporarily closed ${span}${why}, local dates in ${loc.timezone ?? 'its time zone'}.`,
    path,
  };
}

/**
 * The returned Locations at `nowMs` (spent exceptions left out, but those governing `openAtMs`, the
 * request's `filters.hours.open_at`, kept) and a warning for each one closed by its data, pointing
 * at `$.locations[i]`. Closures are judged on the full stored list.
 */
export function presentAt<T extends Location>(
  locations: readonly T[],
  nowMs: number,
  openAtMs: number | null = null,
): { locations: T[]; warnings: Message[] } {
  const warnings: Message[] = [];
  const out = locations.map((loc, i) => {
    const closure = closureAt(loc, nowMs);
    if (closure !== null) warnings.push(closureWarning(loc, closure, `$.locations[${i}]`));
    return withoutSpentExceptions(loc, nowMs, openAtMs);
  });
  return { locations: out, warnings };
}
