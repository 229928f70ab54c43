/**
 * Whether a Location is open at an instant, in the words the console shows everywhere (hours
 * page, map panel, playground results): "Open · closes 20:00 today", "Closed · opens 08:00
 * tomorrow", or "Hours unknown (Europe/Berlin)" — never "closed" for a Location whose hours are
 * not known (the engine never finds such a Location open, but that is not the same as closed).
 */
import { compileSchedule, explainOpenAt, nextChangeCompiled } from '../domain/hours.js';
import type { Schedule } from '../domain/location.js';
import { localWhen } from './readable.js';

export interface HoursStatus {
  state: 'open' | 'closed' | 'unknown';
  /** The zone the hours are read in: the schedule's, else the Location's; null when neither has one. */
  timezone: string | null;
  text: string;
  /** Why the state is unknown, when it is. */
  why: string | null;
}

/** True when the schedule states anything about opening at all (regular hours or an exception). */
export function statesHours(schedule: Schedule): boolean {
  return schedule.hours !== undefined || schedule.exception_hours !== undefined;
}

export function hoursStatus(schedule: Schedule, zone: string | null, atMs: number, nowMs: number = atMs): HoursStatus {
  const compiled = compileSchedule(schedule);
  const timezone = compiled.timezone ?? zone;
  const unknown = (why: string): HoursStatus => ({
    state: 'unknown',
    timezone,
    text: `Hours unknown${timezone !== null ? ` (${timezone})` : ''}`,
    why,
  });
  if (!statesHours(schedule)) return unknown('the Location has no opening hours (none were given, or they were dropped at import)');
  if (!compiled.valid || compiled.timezone === null) {
    const problems = compiled.problems.map((p) => p.message).join('; ');
    return unknown(`its opening hours cannot be evaluated${problems !== '' ? `: ${problems}` : ''}`);
  }
  const explained = explainOpenAt(compiled, atMs);
  if (explained.rule?.kind === 'unknown-regular-hours') return unknown('no regular hours are given and no exception covers this date');
  const tz = compiled.timezone;
  const change = nextChangeCompiled(compiled, atMs);
  const head = explained.open ? 'Open' : 'Closed';
  const next =
    change === null
      ? `no ${explained.open ? 'closing' : 'opening'} within 14 days`
      : `${change.state === 'open' ? 'opens' : 'closes'} ${localWhen(change.epochMs, nowMs, tz)}`;
  return { state: explained.open ? 'open' : 'closed', timezone: tz, text: `${head} · ${next}`, why: null };
}
