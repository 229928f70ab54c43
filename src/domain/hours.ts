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
  /** Titles of the entries in the group (for explanations only). */
  readonly titles: readonly string[];
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

/**
 * A schedule as a store keeps it (the JSON of {timezone?, hours?, exception_hours?}, or null for
 * none) compiled; no stored schedule means unknown hours, which compile to never open (R-S6).
 * The engine and the in-memory index both compile through here, so they decide open_at alike.
 */
export function compileStoredSchedule(json: string | null | undefined): CompiledSchedule {
  // Validation inside compileSchedule checks every member, whatever the JSON held.
  const parsed: unknown = json === undefined || json === null ? {} : JSON.parse(json);
  return compileSchedule(parsed);
}

/** The schedule passed validation (`problems` are validateSchedule's for it): it is a Schedule. */
function isValidated(_schedule: unknown, problems: readonly ScheduleProblem[]): _schedule is Schedule {
  return problems.length === 0;
}

/** Pre-process `schedule` once; invalid schedules compile to a never-open value with `problems`. */
export function compileSchedule(schedule: unknown): CompiledSchedule {
  const problems = validateSchedule(schedule);
  const zone: unknown = typeof schedule === 'object' && schedule !== null ? Reflect.get(schedule, 'timezone') : undefined;
  const tz = typeof zone === 'string' ? zone : null;
  if (!isValidated(schedule, problems)) return new Compiled(tz, false, problems, null, null, [], [0]);
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

  const groups = new Map<string, { from: number; through: number; closure: boolean; intervals: number[]; titles: string[] }>();
  for (const e of exceptions ?? []) {
    const from = parseLocalDate(e.valid_from) ?? 0;
    const through = parseLocalDate(e.valid_through) ?? 0;
    const key = `${from}:${through}`;
    let g = groups.get(key);
    if (g === undefined) {
      g = { from, through, closure: false, intervals: [], titles: [] };
      groups.set(key, g);
    }
    if (e.title !== undefined && !g.titles.includes(e.title)) g.titles.push(e.title);
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

/** Index of the interval beginning on this date that covers time of day `t` (opens inclusive, closes exclusive), or -1. */
function coveringOwn(iv: Intervals, t: number): number {
  for (let i = 0; i < iv.length; i += 2) {
    if ((iv[i] as number) <= t && t < (iv[i + 1] as number)) return i;
  }
  return -1;
}

/** Index of the overnight interval that began on the previous date and still covers `t`, or -1. */
function coveringCarry(iv: Intervals, t: number): number {
  for (let i = 1; i < iv.length; i += 2) {
    if (t < (iv[i] as number) - DAY_MS) return i - 1;
  }
  return -1;
}

/**
 * Which rule decided a label (see `explainOpenAt`). Filled only when a caller asks why, so the
 * evaluation below stays the one implementation and the hot path allocates nothing.
 */
interface LabelTrace {
  rule?: HoursRule;
}

/** Open/closed for a local label (ms on the label timeline). The heart of R-H1…R-H4. */
function openAtLabel(c: Compiled, label: number, trace?: LabelTrace): boolean {
  const day = Math.floor(label / DAY_MS);
  const t = label - day * DAY_MS;
  const today = groupFor(c.exceptions, day);
  if (today !== undefined) {
    // An exception date: its own intervals only; anything carrying in stopped at midnight (R-H4).
    const i = today.closure ? -1 : coveringOwn(today.intervals, t);
    if (trace !== undefined) trace.rule = exceptionRule(today, i, 'own');
    return i >= 0;
  }
  const weekday = weekdayOfDay(day);
  if (c.weekly !== null) {
    const i = coveringOwn(c.weekly[weekday] as Intervals, t);
    if (i >= 0) {
      if (trace !== undefined) trace.rule = weeklyRule(c.weekly, weekday, i, 'own');
      return true;
    }
  }
  // Carry-over from the previous date, whichever schedule governed it (R-H2, R-H4).
  const yesterday = groupFor(c.exceptions, day - 1);
  if (yesterday !== undefined) {
    const i = yesterday.closure ? -1 : coveringCarry(yesterday.intervals, t);
    if (i >= 0) {
      if (trace !== undefined) trace.rule = exceptionRule(yesterday, i, 'carried');
      return true;
    }
  } else if (c.weekly !== null) {
    const i = coveringCarry(c.weekly[weekdayOfDay(day - 1)] as Intervals, t);
    if (i >= 0) {
      if (trace !== undefined) trace.rule = weeklyRule(c.weekly, weekdayOfDay(day - 1), i, 'carried');
      return true;
    }
  }
  if (trace !== undefined) trace.rule = c.weekly === null ? { kind: 'unknown-regular-hours' } : weeklyRule(c.weekly, weekday, -1, 'own');
  return false;
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

// ───────────────────────── explanations ─────────────────────────

/** "HH:MM" of a time of day in ms (values past midnight wrap: an overnight close). */
function clockText(ms: number): string {
  const minutes = Math.round((ms % DAY_MS) / 60_000);
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** An interval as written in the data: 00:00–23:59 for a whole day, closes < opens for overnight. */
function intervalText(iv: Intervals, i: number): string {
  const opens = iv[i] as number;
  const closes = iv[i + 1] as number;
  if (opens === 0 && closes === DAY_MS) return '00:00–23:59';
  return `${clockText(opens)}–${clockText(closes)}`;
}

function intervalsText(iv: Intervals): string[] {
  const out: string[] = [];
  for (let i = 0; i < iv.length; i += 2) out.push(intervalText(iv, i));
  return out;
}

/** The rule that decided an instant, as `explainOpenAt` reports it. */
export type HoursRule =
  | {
      /** A regular weekly interval (`hours`), beginning on `day` (the previous day when `carried`). */
      kind: 'weekly';
      day: (typeof DAYS)[number];
      /** The intervals the data lists for that day. */
      intervals: string[];
      /** The interval covering the instant; absent when none does (closed). */
      matched?: string;
      /** `carried`: an overnight interval that began the day before. */
      from: 'own' | 'carried';
    }
  | {
      /** A dated exception (`exception_hours`) governing the local date (or, `carried`, the day before). */
      kind: 'exception';
      titles: string[];
      validFrom: string;
      validThrough: string;
      /** A full closure: no interval at all on those dates. */
      closure: boolean;
      intervals: string[];
      matched?: string;
      from: 'own' | 'carried';
    }
  /** `hours` is absent and no exception governs the date: regular hours unknown, never open (R-S6). */
  | { kind: 'unknown-regular-hours' };

function localDateText(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

function exceptionRule(g: ExceptionGroup, i: number, from: 'own' | 'carried'): HoursRule {
  const rule: HoursRule = {
    kind: 'exception',
    titles: [...g.titles],
    validFrom: localDateText(g.from),
    validThrough: localDateText(g.through),
    closure: g.closure,
    intervals: intervalsText(g.intervals),
    from,
  };
  if (i >= 0) rule.matched = intervalText(g.intervals, i);
  return rule;
}

function weeklyRule(weekly: readonly Intervals[], weekday: number, i: number, from: 'own' | 'carried'): HoursRule {
  const iv = weekly[weekday] as Intervals;
  const rule: HoursRule = { kind: 'weekly', day: DAYS[weekday] as (typeof DAYS)[number], intervals: intervalsText(iv), from };
  if (i >= 0) rule.matched = intervalText(iv, i);
  return rule;
}

function offsetText(offsetMs: number): string {
  const minutes = Math.round(Math.abs(offsetMs) / 60_000);
  return `${offsetMs < 0 ? '-' : '+'}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** Why a schedule is open or closed at an instant: the verdict, the local reading, and the rule used. */
export interface OpenAtExplanation {
  open: boolean;
  timezone: string | null;
  /** The local wall-clock reading in the Location's zone, `YYYY-MM-DDTHH:MM:SS`; null when not evaluable. */
  localTime: string | null;
  weekday: (typeof DAYS)[number] | null;
  /** UTC offset in force at the instant, `±HH:MM`. */
  offset: string | null;
  rule: HoursRule | null;
  /** Why the schedule cannot be evaluated at all (invalid data, no zone), when that is the case. */
  problems: string[];
  /** Offset changes (daylight saving) within a day of the instant, in words. */
  notes: string[];
}

/**
 * The same evaluation as `isOpenCompiled`, reporting which rule decided it: the regular weekly
 * interval, an exception (or its closure), an overnight interval carried from the day before, or
 * unknown regular hours. `open` always equals `isOpenCompiled(schedule, epochMs)`.
 */
export function explainOpenAt(schedule: CompiledSchedule, epochMs: number): OpenAtExplanation {
  const c = asCompiled(schedule);
  checkEpoch(epochMs);
  const out: OpenAtExplanation = {
    open: false,
    timezone: c.timezone,
    localTime: null,
    weekday: null,
    offset: null,
    rule: null,
    problems: c.problems.map((p) => `${p.field}: ${p.message}`),
    notes: [],
  };
  const clock = c.clock;
  if (!c.valid) return out;
  if (clock === null) {
    out.problems.push('the Location has neither hours nor exception_hours, so it is never open at a given instant');
    return out;
  }
  const offset = clock.offsetMs(epochMs);
  if (Number.isNaN(offset)) return out;
  const label = epochMs + offset;
  out.localTime = new Date(label).toISOString().slice(0, 19);
  out.weekday = DAYS[weekdayOfDay(Math.floor(label / DAY_MS))] ?? null;
  out.offset = offsetText(offset);
  const trace: LabelTrace = {};
  out.open = openAtLabel(c, label, trace);
  out.rule = trace.rule ?? null;
  for (const [from, to, when] of [
    [epochMs - DAY_MS, epochMs, 'in the day before'],
    [epochMs, epochMs + DAY_MS, 'in the day after'],
  ] as const) {
    const a = clock.offsetMs(from);
    const b = clock.offsetMs(to);
    if (a !== b) {
      out.notes.push(
        `The UTC offset of ${clock.name} changes from ${offsetText(a)} to ${offsetText(b)} ${when}; hours are read on the local clock, so a gap or repeated hour shifts nothing.`,
      );
    }
  }
  return out;
}
