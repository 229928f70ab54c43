/**
 * A week of opening hours for one Location, in its own zone, for the hours page: the open spans of
 * each local day (Monday first) and the next change after `now`. The spans come from walking
 * `nextChangeCompiled` — the engine's own evaluation — from the start of the local week.
 */
import { DateTime } from 'luxon';
import { compileSchedule, explainOpenAt, isOpenCompiled, nextChangeCompiled, type StateChange } from '../domain/hours.js';
import type { Schedule } from '../domain/location.js';
import { hoursStatus, type HoursStatus } from './hours-status.js';

export interface DaySpans {
  /** Local date, YYYY-MM-DD. */
  date: string;
  weekday: string;
  /** Open spans as minutes after local midnight, [from, to); `to` may be 1440. */
  open: [number, number][];
  /** Length of the local day in minutes (1380 or 1500 on daylight-saving change days). */
  minutes: number;
  /** False when the hours of this day are unknown (then `open` is empty and means nothing). */
  known: boolean;
}

export interface WeekHours {
  /** The zone the week is laid out in (the schedule's, else the Location's); null when neither has one. */
  timezone: string | null;
  /** Open, closed or unknown now, in words ("Open · closes 20:00 today", "Hours unknown (Europe/Berlin)"). */
  status: HoursStatus;
  /** True only when open now (false also when the hours are unknown: see `status`). */
  openNow: boolean;
  /** Whether the schedule can be evaluated at all, and why not. */
  problems: string[];
  /** The local time now, as read ("Thu 3 Dec, 15:35"); null without a zone. */
  now: string | null;
  days: DaySpans[];
  /** Index in `days` of the local today, and the minute of it that it is now (the "now" marker). */
  today: number;
  nowMinute: number | null;
  nextChange: StateChange | null;
  /** Minutes after local midnight of the next change, and its day's index in `days` (−1 when beyond the week). */
  nextChangeDay: number;
  nextChangeMinute: number | null;
}

/** Minutes after the local midnight of `dayStart` at instant `ms` (DST days have 23 or 25 hours). */
function minutesInto(dayStart: DateTime, ms: number): number {
  return Math.round((ms - dayStart.toMillis()) / 60_000);
}

/**
 * The week around `nowMs` for a Location with this schedule; `zone` is the Location's own zone,
 * used when the schedule carries none (hours dropped at import leave the Location's zone).
 * Without stated hours the days are laid out with no spans and `status` says "Hours unknown".
 */
export function weekHours(schedule: Schedule, nowMs: number, zone: string | null = null): WeekHours {
  const compiled = compileSchedule(schedule);
  const explained = explainOpenAt(compiled, nowMs);
  const status = hoursStatus(schedule, zone, nowMs);
  const tz = status.timezone;
  const out: WeekHours = {
    timezone: tz,
    status,
    openNow: status.state === 'open',
    problems: explained.problems,
    now: null,
    days: [],
    today: -1,
    nowMinute: null,
    nextChange: null,
    nextChangeDay: -1,
    nextChangeMinute: null,
  };
  if (tz === null || !DateTime.fromMillis(nowMs, { zone: tz }).isValid) return out;
  const local = DateTime.fromMillis(nowMs, { zone: tz }).setLocale('en');
  out.now = local.toFormat('ccc d LLL, HH:mm');
  const evaluable = status.state !== 'unknown' || explained.rule?.kind === 'unknown-regular-hours';
  const weekStart = local.startOf('week');
  const starts = Array.from({ length: 8 }, (_, i) => weekStart.plus({ days: i }));
  // Open spans of the whole week as instants, from the engine's own state changes.
  const spans: [number, number][] = [];
  const end = (starts[7] as DateTime).toMillis();
  let t = evaluable ? weekStart.toMillis() : end;
  let open = evaluable && isOpenCompiled(compiled, t);
  let since = t;
  while (t < end) {
    const change = nextChangeCompiled(compiled, t);
    const at = change === null ? end : Math.min(change.epochMs, end);
    if (open) spans.push([since, at]);
    if (change === null) break;
    t = change.epochMs;
    open = change.state === 'open';
    since = t;
  }
  for (let d = 0; d < 7; d++) {
    const start = starts[d] as DateTime;
    const next = starts[d + 1] as DateTime;
    const day: DaySpans = {
      date: start.toISODate() ?? '',
      weekday: start.setLocale('en').weekdayLong ?? '',
      open: [],
      minutes: minutesInto(start, next.toMillis()),
      // Regular hours may be unknown while an exception states some dates: ask the engine at midday.
      known: evaluable && explainOpenAt(compiled, start.plus({ hours: 12 }).toMillis()).rule?.kind !== 'unknown-regular-hours',
    };
    for (const [a, b] of spans) {
      const from = Math.max(a, start.toMillis());
      const to = Math.min(b, next.toMillis());
      if (from < to) day.open.push([minutesInto(start, from), minutesInto(start, to)]);
    }
    out.days.push(day);
  }
  out.today = starts.findIndex((s, i) => i < 7 && nowMs >= s.toMillis() && nowMs < (starts[i + 1]?.toMillis() ?? -Infinity));
  const today = starts[out.today];
  out.nowMinute = today === undefined ? null : minutesInto(today, nowMs);
  if (!evaluable) return out;
  out.nextChange = nextChangeCompiled(compiled, nowMs);
  if (out.nextChange !== null) {
    const at = out.nextChange.epochMs;
    const d = starts.findIndex((s, i) => i < 7 && at >= s.toMillis() && at < (starts[i + 1] as DateTime).toMillis());
    out.nextChangeDay = d;
    out.nextChangeMinute = d < 0 ? null : minutesInto(starts[d] as DateTime, at);
  }
  return out;
}
