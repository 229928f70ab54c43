/**
 * A week of opening hours for one Location, in its own zone, for the hours page: the open spans of
 * each local day (Monday first) and the next change after `now`. The spans come from walking
 * `nextChangeCompiled` — the engine's own evaluation — from the start of the local week.
 */
import { DateTime } from 'luxon';
import { compileSchedule, explainOpenAt, isOpenCompiled, nextChangeCompiled, type StateChange } from '../domain/hours.js';
import type { Schedule } from '../domain/location.js';

export interface DaySpans {
  /** Local date, YYYY-MM-DD. */
  date: string;
  weekday: string;
  /** Open spans as minutes after local midnight, [from, to); `to` may be 1440. */
  open: [number, number][];
  /** Length of the local day in minutes (1380 or 1500 on daylight-saving change days). */
  minutes: number;
}

export interface WeekHours {
  timezone: string | null;
  /** Whether the schedule can be evaluated at all, and why not. */
  problems: string[];
  openNow: boolean;
  now: string | null;
  days: DaySpans[];
  nextChange: StateChange | null;
  /** Minutes after local midnight of the next change, and its day's index in `days` (−1 when beyond the week). */
  nextChangeDay: number;
  nextChangeMinute: number | null;
}

/** Minutes after the local midnight of `dayStart` at instant `ms` (DST days have 23 or 25 hours). */
function minutesInto(dayStart: DateTime, ms: number): number {
  return Math.round((ms - dayStart.toMillis()) / 60_000);
}

export function weekHours(schedule: Schedule, nowMs: number): WeekHours {
  const compiled = compileSchedule(schedule);
  const explained = explainOpenAt(compiled, nowMs);
  const zone = compiled.timezone;
  const out: WeekHours = {
    timezone: zone,
    problems: explained.problems,
    openNow: explained.open,
    now: explained.localTime,
    days: [],
    nextChange: null,
    nextChangeDay: -1,
    nextChangeMinute: null,
  };
  if (zone === null || explained.localTime === null) return out;
  const weekStart = DateTime.fromMillis(nowMs, { zone }).startOf('week');
  const starts = Array.from({ length: 8 }, (_, i) => weekStart.plus({ days: i }));
  // Open spans of the whole week as instants, from the engine's own state changes.
  const spans: [number, number][] = [];
  const end = (starts[7] as DateTime).toMillis();
  let t = weekStart.toMillis();
  let open = isOpenCompiled(compiled, t);
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
    };
    for (const [a, b] of spans) {
      const from = Math.max(a, start.toMillis());
      const to = Math.min(b, next.toMillis());
      if (from < to) day.open.push([minutesInto(start, from), minutesInto(start, to)]);
    }
    out.days.push(day);
  }
  out.nextChange = nextChangeCompiled(compiled, nowMs);
  if (out.nextChange !== null) {
    const at = out.nextChange.epochMs;
    const d = starts.findIndex((s, i) => i < 7 && at >= s.toMillis() && at < (starts[i + 1] as DateTime).toMillis());
    out.nextChangeDay = d;
    out.nextChangeMinute = d < 0 ? null : minutesInto(starts[d] as DateTime, at);
  }
  return out;
}
