/**
 * Opening-hours evaluation on local labels (SPEC §7, R-H1…R-H5; used by R-S6).
 *
 * An instant is converted to the Location's local date, weekday and time of day in its IANA
 * zone; the schedule is then applied to those labels only. Consequences that need no extra
 * code: labels in a spring-forward gap belong to no instant (nothing is shifted), both instants
 * of a fall-back fold get the same answer, and a 00:00–23:59 day covers 23 or 25 real hours.
 *
 * All times here are milliseconds: instants are epoch ms, times of day are ms after local
 * midnight, local dates are day indexes on the label timeline (see hours-zone.ts).
 */
import { DateTime } from 'luxon';
import { DAYS, type Schedule } from './location.js';
import { parseInstant } from './hours-instant.js';
import { DAY_MS, ZoneClock, weekdayOfDay } from './hours-zone.js';
import { parseLocalDate, parseLocalTime, validateSchedule, type ScheduleProblem } from './hours-validate.js';

export { parseInstant } from './hours-instant.js';
export { validateSchedule, type ScheduleProblem } from './hours-validate.js';

/** nextChange looks at least this many local days ahead of the query instant. */
export const NEXT_CHANGE_HORIZON_DAYS = 14;

/**
 * Intervals as flat pairs [opens0, closes0, opens1, closes1, …] in ms after the local midnight of
 * the date they begin on. `closes > DAY_MS` means the interval runs into the next local date
 * (closes - DAY_MS there). The whole-day pair 00:00–23:59 is stored as [0, DAY_MS].
 */
type Intervals = readonly number[];

/** One set of exception entries with identical date bounds (inclusive local day indexes). */
interface ExceptionGroup {
  readonly from: number;
  readonly through: number;
  /** Full closure: no interval at all on covered dates. */
  readonly closure: boolean;
  readonly intervals: Intervals;
}

/** A schedule pre-processed for repeated evaluation (per request, many instants/locations). */
export interface CompiledSchedule {
  readonly timezone: string | null;
  /** False when the schedule cannot be evaluated; such a schedule is never open (R-S6). */
  readonly valid: boolean;
  /** Why it is invalid ([] when valid), as `validateSchedule` reports it. */
  readonly problems: readonly ScheduleProblem[];
}

class Compiled implements CompiledSchedule {
  constructor(
    readonly timezone: string | null,
    readonly valid: boolean,
    readonly problems: readonly ScheduleProblem[],
    /** Null when the schedule has neither hours nor exception_hours (nothing to evaluate). */
    readonly clock: ZoneClock | null,
    /** Null = regular schedule unknown (hours absent); [] per day = known, none begins that day. */
    readonly weekly: readonly Intervals[] | null,
    /** Sorted by `from`, pairwise disjoint (validation guarantees it). */
    readonly exceptions: readonly ExceptionGroup[],
    /** Sorted distinct times of day (ms) where the label state may change; always contains 0. */
    readonly boundaries: readonly number[],
  ) {}
}

function toInterval(opens: number, closes: number): [number, number] {
  if (opens === 0 && closes === DAY_MS - 60_000) return [0, DAY_MS]; // 00:00–23:59 = whole date (R-H1)
  return [opens, closes > opens ? closes : closes + DAY_MS];
}

/** Pre-process `schedule` once; invalid schedules compile to a never-open value with `problems`. */
export function compileSchedule(schedule: Schedule): CompiledSchedule {
  const problems = validateSchedule(schedule);
  const tz = typeof schedule?.timezone === 'string' ? schedule.timezone : null;
  if (problems.length > 0) return new Compiled(tz, false, problems, null, null, [], [0]);
  const { hours, exception_hours: exceptions } = schedule;
  const clock = tz !== null && (hours !== undefined || exceptions !== undefined) ? ZoneClock.for(tz) : null;
  const times = new Set<number>([0]);

  let weekly: number[][] | null = null;
  if (hours !== undefined) {
    weekly = DAYS.map(() => []);
    for (const h of hours) {
      const [o, c] = toInterval(parseLocalTime(h.opens) ?? 0, parseLocalTime(h.closes) ?? 0);
      weekly[DAYS.indexOf(h.day)]?.push(o, c);
      times.add(o).add(c % DAY_MS);
    }
  }

  const groups = new Map<string, { from: number; through: number; closure: boolean; intervals: number[] }>();
  for (const e of exceptions ?? []) {
    const from = parseLocalDate(e.valid_from) ?? 0;
    const through = parseLocalDate(e.valid_through) ?? 0;
    const key = `${from}:${through}`;
    let g = groups.get(key);
    if (g === undefined) {
      g = { from, through, closure: false, intervals: [] };
      groups.set(key, g);
    }
    if (e.opens === undefined || e.closes === undefined) {
      g.closure = true; // validation guarantees a closure is alone for its bounds
    } else {
      const [o, c] = toInterval(parseLocalTime(e.opens) ?? 0, parseLocalTime(e.closes) ?? 0);
      g.intervals.push(o, c);
      times.add(o).add(c % DAY_MS);
    }
  }
  const sortedGroups = [...groups.values()].sort((a, b) => a.from - b.from);
  const boundaries = [...times].sort((a, b) => a - b);
  return new Compiled(tz, true, [], clock, weekly, sortedGroups, boundaries);
}

/** The exception group governing local day `day`, if any (binary search over disjoint ranges). */
function groupFor(groups: readonly ExceptionGroup[], day: number): ExceptionGroup | undefined {
  let lo = 0;
  let hi = groups.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const g = groups[mid] as ExceptionGroup;
    if (day < g.from) hi = mid - 1;
    else if (day > g.through) lo = mid + 1;
    else return g;
  }
  return undefined;
}

/** Does an interval beginning on this date cover time of day `t`? (opens inclusive, closes exclusive) */
function coversOwn(iv: Intervals, t: number): boolean {
  for (let i = 0; i < iv.length; i += 2) {
    if ((iv[i] as number) <= t && t < (iv[i + 1] as number)) return true;
  }
  return false;
}

/** Does an overnight interval that began on the previous date still cover time of day `t`? */
function coversCarry(iv: Intervals, t: number): boolean {
  for (let i = 1; i < iv.length; i += 2) {
    if (t < (iv[i] as number) - DAY_MS) return true;
  }
  return false;
}

/** Open/closed for a local label (ms on the label timeline). The heart of R-H1…R-H4. */
function openAtLabel(c: Compiled, label: number): boolean {
  const day = Math.floor(label / DAY_MS);
  const t = label - day * DAY_MS;
  const today = groupFor(c.exceptions, day);
  if (today !== undefined) {
    // An exception date: its own intervals only; anything carrying in stopped at midnight (R-H4).
    return !today.closure && coversOwn(today.intervals, t);
  }
  if (c.weekly !== null && coversOwn(c.weekly[weekdayOfDay(day)] as Intervals, t)) return true;
  // Carry-over from the previous date, whichever schedule governed it (R-H2, R-H4).
  const yesterday = groupFor(c.exceptions, day - 1);
  if (yesterday !== undefined) return !yesterday.closure && coversCarry(yesterday.intervals, t);
  return c.weekly !== null && coversCarry(c.weekly[weekdayOfDay(day - 1)] as Intervals, t);
}

function asCompiled(schedule: CompiledSchedule): Compiled {
  if (!(schedule instanceof Compiled)) throw new TypeError('isOpenCompiled/nextChangeCompiled need a value returned by compileSchedule()');
  return schedule;
}

function checkEpoch(epochMs: number): void {
  if (!Number.isFinite(epochMs)) throw new RangeError(`Instant must be a finite number of epoch milliseconds, got ${String(epochMs)}`);
}

/**
 * Evaluate a compiled schedule at an epoch-ms instant. Allocation-free on the hot path: the zone
 * offset comes from a per-zone memo. Invalid or unknown schedules are never open.
 */
export function isOpenCompiled(schedule: CompiledSchedule, epochMs: number): boolean {
  const c = asCompiled(schedule);
  checkEpoch(epochMs);
  if (!c.valid || c.clock === null) return false;
  const label = c.clock.label(epochMs);
  return !Number.isNaN(label) && openAtLabel(c, label);
}

/**
 * True iff the schedule establishes the Location open at `openAt` (RFC 3339 with Z/offset).
 * The offset only identifies the instant; the Location's own `timezone` frames the schedule.
 * @throws InvalidInstantError when `openAt` is not such an instant (checked even if the schedule is invalid).
 */
export function isOpenAt(schedule: Schedule, openAt: string): boolean {
  const epochMs = parseInstant(openAt);
  return isOpenCompiled(compileSchedule(schedule), epochMs);
}

export interface StateChange {
  /** RFC 3339 instant in the Location's zone offset, e.g. 2026-03-08T03:00:00-04:00. */
  at: string;
  /** The same instant as epoch ms. */
  epochMs: number;
  /** The state from `at` on. */
  state: 'open' | 'closed';
}

/** Smallest candidate label strictly after `label`. */
function nextBoundary(c: Compiled, label: number): number {
  const day = Math.floor(label / DAY_MS);
  const t = label - day * DAY_MS;
  for (const b of c.boundaries) if (b > t) return day * DAY_MS + b;
  return (day + 1) * DAY_MS + (c.boundaries[0] ?? 0);
}

function formatInstant(clock: ZoneClock, epochMs: number): string {
  const offset = clock.offsetMs(epochMs);
  // RFC 3339 offsets have no seconds; historical LMT offsets that do are written in UTC instead.
  const zone = offset % 60_000 === 0 ? clock.name : 'UTC';
  const iso = DateTime.fromMillis(epochMs, { zone }).toISO({ suppressMilliseconds: true });
  if (iso === null) throw new RangeError(`Cannot format instant ${epochMs}`);
  return iso;
}

/**
 * The first instant strictly after `atEpochMs` at which the open/closed state changes, and the new
 * state; null when the schedule is invalid/unknown or nothing changes within
 * NEXT_CHANGE_HORIZON_DAYS (+1) days. Offset transitions count as changes when they move the
 * label across a boundary (e.g. an interval whose closing label falls in a DST gap ends at the
 * transition). A boundary label that occurs twice in a fold occurs first at its first instant.
 */
export function nextChangeCompiled(schedule: CompiledSchedule, atEpochMs: number): StateChange | null {
  const c = asCompiled(schedule);
  checkEpoch(atEpochMs);
  const clock = c.clock;
  if (!c.valid || clock === null) return null;
  const end = atEpochMs + (NEXT_CHANGE_HORIZON_DAYS + 1) * DAY_MS;
  const current = isOpenCompiled(c, atEpochMs);
  const found = (epochMs: number): StateChange => ({
    at: formatInstant(clock, epochMs),
    epochMs,
    state: current ? 'closed' : 'open',
  });
  // Walk constant-offset spans; inside one, the label grows with the instant, so the state can
  // only change at a boundary label. Between spans the label may jump, so the state is re-read.
  let t = atEpochMs;
  while (t < end) {
    const span = clock.span(t);
    if (Number.isNaN(span.offsetMs)) return null;
    const spanEnd = Math.min(span.end, end);
    for (let b = nextBoundary(c, t + span.offsetMs); b < spanEnd + span.offsetMs; b = nextBoundary(c, b)) {
      if (openAtLabel(c, b) !== current) return found(b - span.offsetMs);
    }
    t = spanEnd;
    if (t < end && isOpenCompiled(c, t) !== current) return found(t);
  }
  return null;
}

/** `nextChangeCompiled` for a raw schedule. */
export function nextChange(schedule: Schedule, atEpochMs: number): StateChange | null {
  return nextChangeCompiled(compileSchedule(schedule), atEpochMs);
}
