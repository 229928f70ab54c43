import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DateTime, FixedOffsetZone } from 'luxon';
import { InvalidInstantError } from '../errors.js';
import { DAYS, type DailyHour, type Day, type ExceptionHour, type Schedule } from './location.js';
import {
  NEXT_CHANGE_HORIZON_DAYS,
  compileSchedule,
  isOpenAt,
  isOpenCompiled,
  nextChange,
  nextChangeCompiled,
  parseInstant,
} from './hours.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const LA = 'America/Los_Angeles';

const h = (day: Day, opens: string, closes: string): DailyHour => ({ day, opens, closes });
/** Instant of an unambiguous local wall-clock time (never use for gap/fold labels). */
function local(iso: string, zone: string): number {
  const dt = DateTime.fromISO(iso, { zone });
  if (!dt.isValid || dt.toFormat("yyyy-MM-dd'T'HH:mm") !== iso.slice(0, 16)) throw new Error(`bad local time ${iso} in ${zone}`);
  return dt.toMillis();
}
const openAt = (s: Schedule, iso: string, zone: string): boolean => isOpenCompiled(compileSchedule(s), local(iso, zone));
const pad = (n: number): string => String(n).padStart(2, '0');
const hhmm = (minutes: number): string => `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
const dayName = (isoDate: string): Day => DAYS[DateTime.fromISO(isoDate, { zone: 'UTC' }).weekday - 1] as Day;

describe('isOpenAt', () => {
  // Seed 000's search example returns Valley Grocers; we give it a Monday schedule in its zone.
  const valleyGrocers: Schedule = {
    timezone: LA,
    hours: [h('monday', '09:00', '21:00'), h('tuesday', '09:00', '21:00'), h('saturday', '10:00', '18:00')],
  };

  it('finds Valley Grocers open on Monday 10:00 in America/Los_Angeles, whatever offset writes that instant (R-S6)', () => {
    expect(isOpenAt(valleyGrocers, '2026-11-30T10:00:00-08:00')).toBe(true);
    expect(isOpenAt(valleyGrocers, '2026-11-30T18:00:00Z')).toBe(true);
    expect(isOpenAt(valleyGrocers, '2026-12-01T03:00:00+09:00')).toBe(true);
    // 10:00 in the requester's own zone is a different instant (07:00 in LA): closed.
    expect(isOpenAt(valleyGrocers, '2026-11-30T10:00:00-05:00')).toBe(false);
    expect(isOpenAt(valleyGrocers, '2026-11-29T10:00:00-08:00')).toBe(false); // Sunday
  });

  it('is open at the exact opening minute and closed at the exact closing minute (R-H1)', () => {
    expect(isOpenAt(valleyGrocers, '2026-11-30T09:00:00-08:00')).toBe(true);
    expect(isOpenAt(valleyGrocers, '2026-11-30T08:59:59.999-08:00')).toBe(false);
    expect(isOpenAt(valleyGrocers, '2026-11-30T20:59:59.999-08:00')).toBe(true);
    expect(isOpenAt(valleyGrocers, '2026-11-30T21:00:00-08:00')).toBe(false);
    // Sub-millisecond digits are truncated, never rounded up onto the closing boundary (R-S6).
    expect(isOpenAt(valleyGrocers, '2026-11-30T20:59:59.9999999-08:00')).toBe(true);
  });

  it('combines several entries of one day as split shifts (R-H1)', () => {
    const s: Schedule = { timezone: LA, hours: [h('monday', '09:00', '12:00'), h('monday', '14:00', '18:00')] };
    expect(openAt(s, '2026-11-30T11:59', LA)).toBe(true);
    expect(openAt(s, '2026-11-30T12:00', LA)).toBe(false);
    expect(openAt(s, '2026-11-30T13:59', LA)).toBe(false);
    expect(openAt(s, '2026-11-30T14:00', LA)).toBe(true);
    expect(openAt(s, '2026-11-30T18:00', LA)).toBe(false);
  });

  it('runs an interval with closes < opens into the next local date, even a day without entries (R-H1, R-H2)', () => {
    const s: Schedule = { timezone: LA, hours: [h('friday', '22:00', '02:00')] };
    expect(openAt(s, '2026-12-04T21:59', LA)).toBe(false);
    expect(openAt(s, '2026-12-04T22:00', LA)).toBe(true);
    expect(openAt(s, '2026-12-05T00:00', LA)).toBe(true); // Saturday, no entries of its own
    expect(openAt(s, '2026-12-05T01:59', LA)).toBe(true);
    expect(openAt(s, '2026-12-05T02:00', LA)).toBe(false);
    expect(openAt(s, '2026-12-05T22:30', LA)).toBe(false);
  });

  it('carries Saturday into Sunday and Sunday into Monday across the week wrap (R-H1)', () => {
    const s: Schedule = { timezone: LA, hours: [h('saturday', '20:00', '03:00'), h('sunday', '22:00', '02:00')] };
    expect(openAt(s, '2026-12-06T02:59', LA)).toBe(true); // Sunday, from Saturday
    expect(openAt(s, '2026-12-06T03:00', LA)).toBe(false);
    expect(openAt(s, '2026-12-06T23:00', LA)).toBe(true);
    expect(openAt(s, '2026-12-07T01:59', LA)).toBe(true); // Monday, from Sunday
    expect(openAt(s, '2026-12-07T02:00', LA)).toBe(false);
  });

  it('treats closes 00:00 as the end of the opening date (R-H1)', () => {
    const s: Schedule = { timezone: LA, hours: [h('monday', '18:00', '00:00')] };
    expect(openAt(s, '2026-11-30T23:59', LA)).toBe(true);
    expect(isOpenAt(s, '2026-11-30T23:59:59.999-08:00')).toBe(true);
    expect(openAt(s, '2026-12-01T00:00', LA)).toBe(false);
  });

  it('reads exactly 00:00-23:59 as the whole local date, including its last minute (R-H1)', () => {
    const s: Schedule = { timezone: LA, hours: [h('monday', '00:00', '23:59')] };
    expect(openAt(s, '2026-11-30T00:00', LA)).toBe(true);
    expect(isOpenAt(s, '2026-11-30T23:59:30-08:00')).toBe(true);
    expect(isOpenAt(s, '2026-11-30T23:59:59.999-08:00')).toBe(true);
    expect(openAt(s, '2026-12-01T00:00', LA)).toBe(false);
    expect(isOpenAt(s, '2026-11-29T23:59:59.999-08:00')).toBe(false);
    // Any other pair keeps the exclusive closing minute.
    const almost: Schedule = { timezone: LA, hours: [h('monday', '00:00', '23:58')] };
    expect(isOpenAt(almost, '2026-11-30T23:58:30-08:00')).toBe(false);
    const late: Schedule = { timezone: LA, hours: [h('monday', '00:01', '23:59')] };
    expect(isOpenAt(late, '2026-11-30T23:59:30-08:00')).toBe(false);
  });

  it('never opens a schedule with opens == closes, including 00:00-00:00 (R-H1, R-S6)', () => {
    for (const time of ['09:00', '00:00']) {
      const s: Schedule = { timezone: LA, hours: [h('monday', time, time), h('tuesday', '00:00', '23:59')] };
      const c = compileSchedule(s);
      expect(c.valid).toBe(false);
      expect(c.problems[0]?.field).toBe('hours[0].closes');
      expect(openAt(s, '2026-12-01T12:00', LA)).toBe(false); // even the valid Tuesday entry
      expect(nextChange(s, local('2026-11-30T12:00', LA))).toBeNull();
    }
  });

  it('separates an unknown schedule (hours absent) from a known empty one (R-H2)', () => {
    const unknown = compileSchedule({ timezone: LA });
    const empty = compileSchedule({ timezone: LA, hours: [] });
    expect(unknown.valid).toBe(true);
    expect(empty.valid).toBe(true);
    const t = local('2026-11-30T12:00', LA);
    expect(isOpenCompiled(unknown, t)).toBe(false);
    expect(isOpenCompiled(empty, t)).toBe(false);
    expect(isOpenCompiled(compileSchedule({}), t)).toBe(false);
    expect(nextChangeCompiled(unknown, t)).toBeNull();
    expect(nextChangeCompiled(empty, t)).toBeNull();
  });

  it('never opens with a missing or invalid timezone (R-H5, R-S6)', () => {
    const hours = [h('monday', '00:00', '23:59')];
    for (const s of [
      { hours },
      { timezone: 'Mars/Base', hours },
      { timezone: 'PST', hours },
      { timezone: '-08:00', hours },
    ] as Schedule[]) {
      expect(compileSchedule(s).valid).toBe(false);
      expect(isOpenAt(s, '2026-11-30T12:00:00-08:00')).toBe(false);
    }
  });

  it('evaluates in the Location zone, never the process zone (R-H5)', () => {
    // The suite runs with TZ=Asia/Kathmandu (+05:45); a Kathmandu reading would say Tuesday 01:45.
    expect(process.env['TZ']).toBe('Asia/Kathmandu');
    const s: Schedule = { timezone: LA, hours: [h('monday', '11:00', '13:00')] };
    expect(isOpenAt(s, '2026-11-30T20:00:00Z')).toBe(true);
    const sameInKathmandu: Schedule = { timezone: 'Asia/Kathmandu', hours: [h('tuesday', '01:00', '02:00')] };
    expect(isOpenAt(sameInKathmandu, '2026-11-30T20:00:00Z')).toBe(true);
  });

  it('throws InvalidInstantError for a bad openAt, even when the schedule is invalid (R-S6)', () => {
    expect(() => isOpenAt({ timezone: LA, hours: [] }, '2026-11-30T10:00:00')).toThrow(InvalidInstantError);
    expect(() => isOpenAt({ hours: [] }, '2026-02-30T10:00:00Z')).toThrow(InvalidInstantError);
    expect(() => isOpenAt({ timezone: LA }, 'tomorrow')).toThrow(/RFC 3339/);
  });

  it('rejects a hand-made CompiledSchedule and non-finite instants', () => {
    expect(() => isOpenCompiled({ timezone: LA, valid: true, problems: [] }, 0)).toThrow(/compileSchedule/);
    expect(() => isOpenCompiled(compileSchedule({ timezone: LA }), Number.NaN)).toThrow(RangeError);
  });
});

describe('exception_hours', () => {
  const regular = [...DAYS].map((d) => h(d, '09:00', '17:00'));

  it('closes on every date of a full closure and nowhere else (R-H4)', () => {
    const s: Schedule = { timezone: LA, hours: regular, exception_hours: [{ valid_from: '2026-12-25', valid_through: '2026-12-26' }] };
    expect(openAt(s, '2026-12-24T12:00', LA)).toBe(true);
    expect(openAt(s, '2026-12-25T12:00', LA)).toBe(false);
    expect(openAt(s, '2026-12-26T12:00', LA)).toBe(false);
    expect(openAt(s, '2026-12-27T12:00', LA)).toBe(true);
  });

  it('replaces the regular schedule with timed hours on covered dates (R-H4)', () => {
    const s: Schedule = {
      timezone: LA,
      hours: regular,
      exception_hours: [{ valid_from: '2026-12-24', valid_through: '2026-12-24', opens: '10:00', closes: '14:00' }],
    };
    expect(openAt(s, '2026-12-24T09:30', LA)).toBe(false); // regular would be open
    expect(openAt(s, '2026-12-24T10:00', LA)).toBe(true);
    expect(openAt(s, '2026-12-24T14:00', LA)).toBe(false);
    expect(openAt(s, '2026-12-23T09:30', LA)).toBe(true);
  });

  it('combines timed exceptions with identical bounds as split shifts on each covered date (R-H4)', () => {
    const s: Schedule = {
      timezone: 'America/New_York',
      exception_hours: [
        { title: 'Holiday hours', valid_from: '2026-12-24', valid_through: '2026-12-26', opens: '10:00', closes: '14:00' },
        { title: 'Holiday hours', valid_from: '2026-12-24', valid_through: '2026-12-26', opens: '16:00', closes: '18:00' },
      ],
    };
    for (const date of ['2026-12-24', '2026-12-25', '2026-12-26']) {
      expect(openAt(s, `${date}T11:00`, 'America/New_York'), date).toBe(true);
      expect(openAt(s, `${date}T15:00`, 'America/New_York'), date).toBe(false);
      expect(openAt(s, `${date}T17:59`, 'America/New_York'), date).toBe(true);
      expect(openAt(s, `${date}T18:00`, 'America/New_York'), date).toBe(false);
    }
    // hours absent: outside the exception the schedule is unknown, so not open (R-H2).
    expect(openAt(s, '2026-12-27T11:00', 'America/New_York')).toBe(false);
  });

  it('stops a regular interval carrying into an exception date at local midnight (R-H4)', () => {
    const hours = [h('saturday', '20:00', '03:00')];
    const timed: Schedule = {
      timezone: LA,
      hours,
      exception_hours: [{ valid_from: '2026-12-06', valid_through: '2026-12-06', opens: '10:00', closes: '14:00' }],
    };
    const closed: Schedule = { timezone: LA, hours, exception_hours: [{ valid_from: '2026-12-06', valid_through: '2026-12-06' }] };
    for (const s of [timed, closed]) {
      expect(openAt(s, '2026-12-05T23:59', LA)).toBe(true); // Saturday itself is regular
      expect(isOpenAt(s, '2026-12-05T23:59:59.999-08:00')).toBe(true);
      expect(openAt(s, '2026-12-06T00:00', LA)).toBe(false);
      expect(openAt(s, '2026-12-06T01:00', LA)).toBe(false);
    }
    expect(nextChange(timed, local('2026-12-05T23:00', LA))).toMatchObject({ at: '2026-12-06T00:00:00-08:00', state: 'closed' });
  });

  it("carries an exception's own overnight interval into a following regular date (R-H4)", () => {
    const s: Schedule = {
      timezone: LA,
      hours: [h('friday', '09:00', '17:00')],
      exception_hours: [{ title: 'Open late', valid_from: '2026-12-31', valid_through: '2026-12-31', opens: '20:00', closes: '03:00' }],
    };
    expect(openAt(s, '2026-12-31T20:00', LA)).toBe(true);
    expect(openAt(s, '2027-01-01T02:59', LA)).toBe(true); // Friday, a regular date
    expect(openAt(s, '2027-01-01T03:00', LA)).toBe(false);
    expect(openAt(s, '2027-01-01T09:00', LA)).toBe(true);
    // hours absent: the carry still happens, it belongs to the exception.
    const noHours: Schedule = { timezone: LA, exception_hours: s.exception_hours ?? [] };
    expect(openAt(noHours, '2027-01-01T01:00', LA)).toBe(true);
    expect(openAt(noHours, '2027-01-01T09:00', LA)).toBe(false);
  });

  it('stops an overnight exception interval at the midnight of the next exception-governed date (R-H4)', () => {
    const s: Schedule = {
      timezone: LA,
      hours: regular,
      exception_hours: [{ valid_from: '2026-12-30', valid_through: '2026-12-31', opens: '20:00', closes: '03:00' }],
    };
    expect(openAt(s, '2026-12-30T23:00', LA)).toBe(true);
    expect(openAt(s, '2026-12-31T01:00', LA)).toBe(false); // Dec 31 is governed by the exception
    expect(openAt(s, '2026-12-31T12:00', LA)).toBe(false);
    expect(openAt(s, '2026-12-31T21:00', LA)).toBe(true);
    expect(openAt(s, '2027-01-01T01:00', LA)).toBe(true); // into a regular date
    expect(openAt(s, '2027-01-01T03:30', LA)).toBe(false);
    expect(openAt(s, '2027-01-01T09:00', LA)).toBe(true);
  });

  it('lets a closure cut an exception overnight carry too (R-H4)', () => {
    const s: Schedule = {
      timezone: LA,
      exception_hours: [
        { valid_from: '2026-12-31', valid_through: '2026-12-31', opens: '20:00', closes: '03:00' },
        { valid_from: '2027-01-01', valid_through: '2027-01-01' },
      ],
    };
    expect(openAt(s, '2026-12-31T23:00', LA)).toBe(true);
    expect(openAt(s, '2027-01-01T01:00', LA)).toBe(false);
  });

  it('applies a multi-day timed range to every date it covers, inclusive of both bounds (R-H4)', () => {
    const s: Schedule = {
      timezone: 'Europe/Berlin',
      hours: [],
      exception_hours: [{ valid_from: '2026-07-01', valid_through: '2026-08-31', opens: '07:00', closes: '11:00' }],
    };
    expect(openAt(s, '2026-06-30T08:00', 'Europe/Berlin')).toBe(false);
    for (let d = DateTime.fromISO('2026-07-01', { zone: 'UTC' }); d.toISODate() !== '2026-09-01'; d = d.plus({ days: 1 })) {
      expect(openAt(s, `${d.toISODate()}T08:00`, 'Europe/Berlin')).toBe(true);
      expect(openAt(s, `${d.toISODate()}T11:00`, 'Europe/Berlin')).toBe(false);
    }
    expect(openAt(s, '2026-09-01T08:00', 'Europe/Berlin')).toBe(false);
  });

  it('never lets title decide (R-H4)', () => {
    const s: Schedule = {
      timezone: LA,
      hours: [],
      exception_hours: [{ title: 'CLOSED', valid_from: '2026-12-24', valid_through: '2026-12-24', opens: '10:00', closes: '14:00' }],
    };
    expect(openAt(s, '2026-12-24T12:00', LA)).toBe(true);
    const closure: Schedule = {
      timezone: LA,
      hours: regular,
      exception_hours: [{ title: 'Open as usual', valid_from: '2026-12-24', valid_through: '2026-12-24' }],
    };
    expect(openAt(closure, '2026-12-24T12:00', LA)).toBe(false);
  });

  it('makes the whole schedule unusable when exception ranges intersect (R-H4, R-S6)', () => {
    const s: Schedule = {
      timezone: LA,
      hours: regular,
      exception_hours: [
        { valid_from: '2026-12-24', valid_through: '2026-12-26', opens: '10:00', closes: '14:00' },
        { valid_from: '2026-12-25', valid_through: '2026-12-25', opens: '10:00', closes: '14:00' },
      ],
    };
    const c = compileSchedule(s);
    expect(c.valid).toBe(false);
    expect(c.problems).toEqual([{ field: 'exception_hours[1]', message: expect.stringMatching(/intersect/) }]);
    expect(openAt(s, '2026-12-01T12:00', LA)).toBe(false);
  });

  it('handles exceptions around a DST change on local dates (R-H3, R-H4)', () => {
    // 2026-11-01 is a 25-hour date in New York; a whole-day exception covers all of it.
    const zone = 'America/New_York';
    const s: Schedule = {
      timezone: zone,
      hours: [],
      exception_hours: [{ valid_from: '2026-11-01', valid_through: '2026-11-01', opens: '00:00', closes: '23:59' }],
    };
    const c = compileSchedule(s);
    const start = local('2026-11-01T00:00', zone);
    const end = local('2026-11-02T00:00', zone);
    expect(end - start).toBe(25 * HOUR);
    expect(isOpenCompiled(c, start - 1)).toBe(false);
    for (let t = start; t < end; t += 5 * MIN) expect(isOpenCompiled(c, t)).toBe(true);
    expect(isOpenCompiled(c, end)).toBe(false);
  });
});

/**
 * DST fixtures, checked against Luxon below so that a tzdata change cannot silently turn them
 * into no-ops. `gap`/`fold` are local label ranges [from, to) on `date`; `at` is the transition.
 */
interface Transition {
  date: string;
  from: string;
  to: string;
  at: string;
}
interface DstZone {
  zone: string;
  gap: Transition;
  fold: Transition;
}
const DST: DstZone[] = [
  {
    zone: 'America/New_York',
    gap: { date: '2026-03-08', from: '02:00', to: '03:00', at: '2026-03-08T07:00:00Z' },
    fold: { date: '2026-11-01', from: '01:00', to: '02:00', at: '2026-11-01T06:00:00Z' },
  },
  {
    zone: 'Europe/Berlin',
    gap: { date: '2026-03-29', from: '02:00', to: '03:00', at: '2026-03-29T01:00:00Z' },
    fold: { date: '2026-10-25', from: '02:00', to: '03:00', at: '2026-10-25T01:00:00Z' },
  },
  // Southern hemisphere: the fold is in April, the gap in October.
  {
    zone: 'Australia/Sydney',
    gap: { date: '2026-10-04', from: '02:00', to: '03:00', at: '2026-10-03T16:00:00Z' },
    fold: { date: '2026-04-05', from: '02:00', to: '03:00', at: '2026-04-04T16:00:00Z' },
  },
  // 30-minute DST.
  {
    zone: 'Australia/Lord_Howe',
    gap: { date: '2026-10-04', from: '02:00', to: '02:30', at: '2026-10-03T15:30:00Z' },
    fold: { date: '2026-04-05', from: '01:30', to: '02:00', at: '2026-04-04T15:00:00Z' },
  },
  // Changes at midnight: the gap swallows 00:00 of Sunday; the fold repeats Saturday's last hour.
  {
    zone: 'America/Santiago',
    gap: { date: '2026-09-06', from: '00:00', to: '01:00', at: '2026-09-06T04:00:00Z' },
    fold: { date: '2026-04-04', from: '23:00', to: '24:00', at: '2026-04-05T03:00:00Z' },
  },
];
const toMinutes = (t: string): number => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));

describe.each(DST)('DST in $zone', ({ zone, gap, fold }) => {
  const gapAt = Date.parse(gap.at);
  const foldAt = Date.parse(fold.at);
  const gapLen = (toMinutes(gap.to) - toMinutes(gap.from)) * MIN;
  const foldLen = (toMinutes(fold.to) - toMinutes(fold.from)) * MIN;

  it('fixture matches the tz database', () => {
    const offset = (t: number): number => DateTime.fromMillis(t, { zone }).offset * MIN;
    expect(offset(gapAt) - offset(gapAt - 1)).toBe(gapLen);
    expect(offset(foldAt - 1) - offset(foldAt)).toBe(foldLen);
    expect(
      DateTime.fromMillis(gapAt - 1, { zone })
        .plus({ milliseconds: 1 })
        .toFormat('HH:mm'),
    ).toBe(gap.to === '24:00' ? '00:00' : gap.to);
    expect(DateTime.fromMillis(foldAt, { zone }).toFormat('yyyy-MM-dd HH:mm')).toBe(`${fold.date} ${fold.from}`);
  });

  it('matches no instant for an interval lying inside the spring-forward gap (R-H3)', () => {
    const opens = toMinutes(gap.from) + 5;
    const closes = toMinutes(gap.to) - 5;
    const c = compileSchedule({ timezone: zone, hours: [h(dayName(gap.date), hhmm(opens), hhmm(closes))] });
    for (let t = gapAt - 2 * DAY; t < gapAt + 2 * DAY; t += MIN) expect(isOpenCompiled(c, t)).toBe(false);
    // The first opening is the same weekly label one week later, when it exists.
    const nextWeek = DateTime.fromISO(`${gap.date}T${hhmm(opens)}`, { zone: 'UTC' }).plus({ days: 7 });
    expect(nextChangeCompiled(c, gapAt - 2 * DAY)).toMatchObject({
      epochMs: local(nextWeek.toFormat("yyyy-MM-dd'T'HH:mm"), zone),
      state: 'open',
    });
  });

  it('does not shift a closing label inside the gap: the interval ends at the transition (R-H3)', () => {
    const opensAt = gapAt - 30 * MIN; // 30 min before the jump, on the label timeline too
    const opensLabel = DateTime.fromMillis(opensAt, { zone });
    const closes = toMinutes(gap.from) + Math.floor(gapLen / MIN / 2);
    const s: Schedule = {
      timezone: zone,
      hours: [h(dayName(opensLabel.toISODate() as string), opensLabel.toFormat('HH:mm'), hhmm(closes))],
    };
    const c = compileSchedule(s);
    expect(isOpenCompiled(c, opensAt - 1)).toBe(false);
    expect(isOpenCompiled(c, opensAt)).toBe(true);
    expect(isOpenCompiled(c, gapAt - 1)).toBe(true);
    expect(isOpenCompiled(c, gapAt)).toBe(false);
    const change = nextChangeCompiled(c, opensAt);
    expect(change?.epochMs).toBe(gapAt);
    expect(change?.state).toBe('closed');
    expect(parseInstant(change?.at ?? '')).toBe(gapAt);
  });

  it('does not shift an opening label inside the gap: the interval starts at the transition (R-H3)', () => {
    const opens = toMinutes(gap.from) + Math.floor(gapLen / MIN / 2);
    const c = compileSchedule({ timezone: zone, hours: [h(dayName(gap.date), hhmm(opens), hhmm((opens + 180) % 1440))] });
    expect(isOpenCompiled(c, gapAt - 1)).toBe(false);
    expect(isOpenCompiled(c, gapAt)).toBe(true);
    expect(nextChangeCompiled(c, gapAt - HOUR)).toMatchObject({ epochMs: gapAt, state: 'open' });
  });

  it('gives both instants of every fold label the same answer (R-H3, property)', () => {
    const first = foldAt - foldLen; // first instant of the repeated labels
    fc.assert(
      fc.property(weeklyHours, (hours) => {
        const c = compileSchedule({ timezone: zone, hours });
        for (let m = 0; m < foldLen; m += MIN / 2) {
          expect(isOpenCompiled(c, first + m)).toBe(isOpenCompiled(c, first + m + foldLen));
        }
      }),
      { numRuns: 60 },
    );
  });

  it('re-closes at the fold transition when an interval opens inside the fold (R-H3)', () => {
    const mid = toMinutes(fold.from) + foldLen / MIN / 2;
    const c = compileSchedule({ timezone: zone, hours: [h(dayName(fold.date), hhmm(mid), hhmm((mid + 240) % 1440))] });
    const firstFrom = foldAt - foldLen;
    expect(isOpenCompiled(c, firstFrom)).toBe(false);
    const opening = nextChangeCompiled(c, firstFrom);
    expect(opening).toMatchObject({ epochMs: firstFrom + foldLen / 2, state: 'open' });
    // Back at the repeated fold.from label: same answer as the first time, so closed again.
    expect(nextChangeCompiled(c, opening?.epochMs ?? 0)).toMatchObject({ epochMs: foldAt, state: 'closed' });
    expect(nextChangeCompiled(c, foldAt)).toMatchObject({ epochMs: foldAt + foldLen / 2, state: 'open' });
  });

  it('covers a whole 23/25-hour (or 23.5/24.5-hour) date with 00:00-23:59 (R-H1, R-H3)', () => {
    for (const { date, len, sign } of [
      { date: gap.date, len: gapLen, sign: -1 },
      { date: fold.date, len: foldLen, sign: 1 },
    ]) {
      const c = compileSchedule({ timezone: zone, hours: [h(dayName(date), '00:00', '23:59')] });
      let openMs = 0;
      let first = Number.NaN;
      const around = DateTime.fromISO(`${date}T12:00`, { zone }).toMillis();
      for (let t = around - 2 * DAY; t < around + 2 * DAY; t += MIN) {
        const open = isOpenCompiled(c, t);
        expect(open).toBe(DateTime.fromMillis(t, { zone }).toISODate() === date);
        if (open) {
          openMs += MIN;
          if (Number.isNaN(first)) first = t;
        }
      }
      expect(openMs).toBe(DAY + sign * len);
      expect(nextChangeCompiled(c, first)?.epochMs).toBe(first + DAY + sign * len);
    }
  });
});

describe('nextChange', () => {
  const s: Schedule = { timezone: LA, hours: [h('monday', '09:00', '21:00'), h('wednesday', '22:00', '02:00')] };

  it('reports the closing instant with the Location offset while open (R-H1)', () => {
    expect(nextChange(s, local('2026-11-30T10:00', LA))).toEqual({
      at: '2026-11-30T21:00:00-08:00',
      epochMs: local('2026-11-30T21:00', LA),
      state: 'closed',
    });
  });

  it('reports the next opening while closed, skipping days without intervals (R-H2)', () => {
    expect(nextChange(s, local('2026-11-30T21:00', LA))).toMatchObject({ at: '2026-12-02T22:00:00-08:00', state: 'open' });
    expect(nextChange(s, local('2026-12-02T23:00', LA))).toMatchObject({ at: '2026-12-03T02:00:00-08:00', state: 'closed' });
  });

  it('looks strictly after the query instant (R-H1)', () => {
    const at = local('2026-11-30T09:00', LA);
    expect(nextChange(s, at - 1)).toMatchObject({ epochMs: at, state: 'open' });
    expect(nextChange(s, at)).toMatchObject({ at: '2026-11-30T21:00:00-08:00' });
  });

  it('returns null for a schedule that never changes within the horizon', () => {
    const always: Schedule = { timezone: LA, hours: DAYS.map((d) => h(d, '00:00', '23:59')) };
    expect(nextChange(always, local('2026-11-30T10:00', LA))).toBeNull();
    const never: Schedule = {
      timezone: LA,
      hours: [],
      exception_hours: [{ valid_from: '2027-03-01', valid_through: '2027-03-01', opens: '10:00', closes: '11:00' }],
    };
    expect(nextChange(never, local('2026-11-30T10:00', LA))).toBeNull();
    expect(nextChange(never, local('2027-02-20T10:00', LA))).toMatchObject({ at: '2027-03-01T10:00:00-08:00', state: 'open' });
  });

  it(`searches at least ${NEXT_CHANGE_HORIZON_DAYS} local days ahead, beyond 8 (R-H4)`, () => {
    const s2: Schedule = {
      timezone: LA,
      hours: [],
      exception_hours: [{ valid_from: '2026-12-14', valid_through: '2026-12-14', opens: '23:00', closes: '23:30' }],
    };
    expect(NEXT_CHANGE_HORIZON_DAYS).toBeGreaterThanOrEqual(8);
    expect(nextChange(s2, local('2026-12-01T00:00', LA))).toMatchObject({ at: '2026-12-14T23:00:00-08:00', state: 'open' });
  });

  it('skips a local date that does not exist (Pacific/Apia, 2011-12-30) (R-H3)', () => {
    const zone = 'Pacific/Apia';
    const apia: Schedule = {
      timezone: zone,
      hours: [h('thursday', '09:00', '17:00'), h('friday', '00:00', '23:59'), h('saturday', '09:00', '17:00')],
    };
    const c = compileSchedule(apia);
    const thursdayClose = local('2011-12-29T17:00', zone);
    for (let t = thursdayClose; t < local('2011-12-31T09:00', zone); t += 10 * MIN) expect(isOpenCompiled(c, t)).toBe(false);
    expect(nextChangeCompiled(c, thursdayClose)).toMatchObject({ at: '2011-12-31T09:00:00+14:00', state: 'open' });
  });

  it('rejects a hand-made CompiledSchedule and non-finite instants', () => {
    expect(() => nextChangeCompiled({ timezone: LA, valid: true, problems: [] }, 0)).toThrow(TypeError);
    expect(() => nextChange(s, Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

// ---------- property tests ----------

const PROPERTY_ZONES = [
  'America/New_York',
  'Europe/Berlin',
  'Australia/Sydney',
  'Australia/Lord_Howe',
  'America/Santiago',
  'Asia/Kathmandu',
  'UTC',
  LA,
] as const;

/** Minutes of day, biased towards DST-prone hours and midnight. */
const minuteOfDay = fc.oneof(
  fc.integer({ min: 0, max: 1439 }),
  fc.integer({ min: 0, max: 210 }),
  fc.integer({ min: 1320, max: 1439 }),
  fc.constantFrom(0, 60, 120, 150, 180, 1380, 1439),
);
const entry: fc.Arbitrary<DailyHour> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record({ day: fc.constantFrom(...DAYS), o: minuteOfDay, c: minuteOfDay })
      .filter((e) => e.o !== e.c)
      .map((e) => h(e.day, hhmm(e.o), hhmm(e.c))),
  },
  { weight: 1, arbitrary: fc.constantFrom(...DAYS).map((d) => h(d, '00:00', '23:59')) },
);
const weeklyHours = fc.array(entry, { maxLength: 6 });

/** Instants from 2020 to 2031, often within two days of a DST transition, often on a minute ± 1 ms. */
const transitions = DST.flatMap((z) => [Date.parse(z.gap.at), Date.parse(z.fold.at)]);
const instant = fc
  .tuple(
    fc.oneof(
      fc.integer({ min: Date.UTC(2020, 0, 1) / MIN, max: Date.UTC(2031, 0, 1) / MIN }).map((m) => m * MIN),
      fc.tuple(fc.constantFrom(...transitions), fc.integer({ min: -2 * 24 * 60, max: 2 * 24 * 60 })).map(([t, m]) => t + m * MIN),
    ),
    fc.oneof(fc.constantFrom(0, -1, 1), fc.integer({ min: 0, max: MIN - 1 })),
  )
  .map(([t, ms]) => t + ms);

/**
 * Independent reference for weekly schedules: Luxon's local weekday/time placed on a 7-day
 * circle; each entry is the circular range [start, start + length) — no dates, no carry logic.
 */
function referenceOpen(hours: readonly DailyHour[], zone: string, t: number): boolean {
  const dt = DateTime.fromMillis(t, { zone });
  const WEEK = 7 * DAY;
  const pos = (dt.weekday - 1) * DAY + dt.hour * HOUR + dt.minute * MIN + dt.second * 1000 + dt.millisecond;
  return hours.some((e) => {
    const o = toMinutes(e.opens) * MIN;
    const c = toMinutes(e.closes) * MIN;
    const start = DAYS.indexOf(e.day) * DAY + o;
    const length = o === 0 && c === 1439 * MIN ? DAY : c > o ? c - o : c + DAY - o;
    return (((pos - start) % WEEK) + WEEK) % WEEK < length;
  });
}

/** Writes epoch ms `t` with a fixed offset and optional extra sub-millisecond digits. */
function writeWithOffset(t: number, offsetMinutes: number, extraDigits: string): string {
  const iso = DateTime.fromMillis(t, { zone: FixedOffsetZone.instance(offsetMinutes) }).toISO() as string;
  return iso.replace(/(\.\d{3})/, `$1${extraDigits}`);
}

/** Disjoint exception groups near the local date of `t` (valid by construction). */
function exceptionsNear(t: number, zone: string): fc.Arbitrary<ExceptionHour[]> {
  const base = DateTime.fromMillis(t, { zone }).startOf('day').setZone('UTC', { keepLocalTime: true });
  const group = fc.record({
    gapDays: fc.integer({ min: 0, max: 3 }),
    lengthDays: fc.integer({ min: 1, max: 3 }),
    times: fc.oneof(
      fc.constant([] as [number, number][]),
      fc.array(
        fc.tuple(minuteOfDay, minuteOfDay).filter(([o, c]) => o !== c),
        { minLength: 1, maxLength: 2 },
      ),
    ),
  });
  return fc.tuple(fc.integer({ min: -2, max: 3 }), fc.array(group, { maxLength: 3 })).map(([startOffset, groups]) => {
    const out: ExceptionHour[] = [];
    let day = startOffset;
    for (const g of groups) {
      day += g.gapDays;
      const valid_from = base.plus({ days: day }).toISODate() as string;
      const valid_through = base.plus({ days: day + g.lengthDays - 1 }).toISODate() as string;
      if (g.times.length === 0) out.push({ valid_from, valid_through });
      for (const [o, c] of g.times) out.push({ valid_from, valid_through, opens: hhmm(o), closes: hhmm(c) });
      day += g.lengthDays;
    }
    return out;
  });
}

describe('properties', () => {
  it('depend only on the instant: any offset spelling gives the same answer (R-S6, property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PROPERTY_ZONES),
        weeklyHours,
        instant,
        fc.integer({ min: -1439, max: 1439 }),
        fc.integer({ min: -1439, max: 1439 }),
        fc.stringMatching(/^\d{0,6}$/),
        (zone, hours, t, o1, o2, extra) => {
          const s: Schedule = { timezone: zone, hours };
          const a = writeWithOffset(t, o1, extra);
          const b = writeWithOffset(t, o2, '');
          expect(parseInstant(a)).toBe(t);
          expect(isOpenAt(s, a)).toBe(isOpenAt(s, b));
          expect(isOpenAt(s, a)).toBe(isOpenCompiled(compileSchedule(s), t));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('agrees with a brute-force weekly reference for random schedules (R-H1, R-H2, R-H3, property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PROPERTY_ZONES),
        weeklyHours,
        fc.array(instant, { minLength: 1, maxLength: 20 }),
        (zone, hours, instants) => {
          const c = compileSchedule({ timezone: zone, hours });
          expect(c.valid).toBe(true);
          for (const t of instants)
            expect(isOpenCompiled(c, t), `${zone} ${new Date(t).toISOString()}`).toBe(referenceOpen(hours, zone, t));
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('nextChange: the state flips exactly at `at` and nowhere between the query and `at` (R-H1..R-H4, property)', () => {
    const scenario = fc
      .tuple(fc.constantFrom(...PROPERTY_ZONES), fc.option(weeklyHours, { nil: undefined }), instant)
      .chain(([zone, hours, t]) =>
        fc.tuple(fc.constant(zone), fc.constant(hours), fc.constant(t), fc.option(exceptionsNear(t, zone), { nil: undefined })),
      );
    fc.assert(
      fc.property(scenario, ([zone, hours, t, exceptions]) => {
        const s: Schedule = { timezone: zone };
        if (hours !== undefined) s.hours = hours;
        if (exceptions !== undefined) s.exception_hours = exceptions;
        const c = compileSchedule(s);
        expect(c.problems).toEqual([]);
        const before = isOpenCompiled(c, t);
        const change = nextChangeCompiled(c, t);
        // Every boundary and every offset transition in these zones falls on a whole minute,
        // so checking each minute mark finds any change that nextChange might have skipped.
        const until = change?.epochMs ?? t + (NEXT_CHANGE_HORIZON_DAYS + 1) * DAY;
        for (let m = Math.floor(t / MIN) * MIN + MIN; m < until; m += MIN) {
          if (isOpenCompiled(c, m) !== before)
            expect.fail(`state changed at ${new Date(m).toISOString()} before reported ${change?.at ?? 'null'}`);
        }
        if (change !== null) {
          expect(change.epochMs).toBeGreaterThan(t);
          expect(parseInstant(change.at)).toBe(change.epochMs);
          expect(change.at).toBe(DateTime.fromMillis(change.epochMs, { zone }).toISO({ suppressMilliseconds: true }));
          expect(isOpenCompiled(c, change.epochMs)).toBe(change.state === 'open');
          expect(isOpenCompiled(c, change.epochMs - 1)).toBe(before);
          expect(change.state).toBe(before ? 'closed' : 'open');
        }
      }),
      { numRuns: 150 },
    );
  });
});
