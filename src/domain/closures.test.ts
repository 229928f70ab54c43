import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  closureAt,
  closureWarning,
  exceptionStillApplies,
  localNow,
  PERMANENT_CLOSURE_THROUGH,
  withoutSpentExceptions,
} from './closures.js';
import { validateSchedule } from './hours.js';
import type { Location } from './location.js';

const NOW = { date: '2026-07-14', time: '01:30' };

describe('localNow (memoised per zone and UTC minute)', () => {
  it('answers what luxon answers, in any order of instants and zones, across DST changes', () => {
    const zones = [
      'Europe/Berlin',
      'America/New_York',
      'Asia/Kolkata',
      'Australia/Lord_Howe',
      'Pacific/Chatham',
      'UTC',
      'Africa/Monrovia',
      'Not/AZone',
    ];
    // Around the 2026 DST changes of Berlin and New York, second by second near the switch, and
    // 1970 (Monrovia's offset then had seconds: never memoised).
    const instant = fc.oneof(
      fc.integer({ min: Date.UTC(2026, 2, 29, 0, 58), max: Date.UTC(2026, 2, 29, 1, 2) }),
      fc.integer({ min: Date.UTC(2026, 10, 1, 5, 58), max: Date.UTC(2026, 10, 1, 6, 2) }),
      fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(1970, 0, 2) }),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(instant, fc.constantFrom(...zones)), { minLength: 1, maxLength: 40 }), (calls) => {
        for (const [ms, zone] of calls) {
          const dt = DateTime.fromMillis(ms, { zone });
          const expected = dt.isValid ? { date: dt.toISODate(), time: dt.toFormat('HH:mm') } : null;
          expect(localNow(ms, zone)).toEqual(expected);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('exceptionStillApplies (R-C5)', () => {
  it('keeps ranges reaching today, drops ranges that ended', () => {
    expect(exceptionStillApplies({ valid_from: '2026-07-14', valid_through: '2026-07-14' }, NOW, [])).toBe(true);
    expect(exceptionStillApplies({ valid_from: '2026-01-01', valid_through: '2026-12-31' }, NOW, [])).toBe(true);
    expect(exceptionStillApplies({ valid_from: '2026-07-13', valid_through: '2026-07-13' }, NOW, [])).toBe(false);
    expect(exceptionStillApplies({ valid_from: '2026-07-13', valid_through: '2026-07-13', opens: '10:00', closes: '12:00' }, NOW, [])).toBe(
      false,
    );
  });

  it('keeps yesterday’s overnight interval until it closes, unless an exception governs today', () => {
    const night = { valid_from: '2026-07-13', valid_through: '2026-07-13', opens: '22:00', closes: '02:00' };
    expect(exceptionStillApplies(night, NOW, [night])).toBe(true);
    expect(exceptionStillApplies(night, { date: '2026-07-14', time: '02:00' }, [night])).toBe(false);
    expect(exceptionStillApplies(night, NOW, [night, { valid_from: '2026-07-14', valid_through: '2026-07-15' }])).toBe(false);
    // "00:00"–"23:59" is the whole day, not an overnight interval.
    expect(exceptionStillApplies({ ...night, opens: '00:00', closes: '23:59' }, NOW, [])).toBe(false);
  });
});

describe('closures from data (R-C5)', () => {
  const base: Location = { id: 'x', name: 'X', timezone: 'Asia/Tokyo', hours: [] };
  const at = Date.parse('2026-07-14T03:00:00Z'); // 12:00 in Tokyo

  it('an open-ended full closure is permanent, a dated one temporary, a timed exception is no closure', () => {
    const perm = { ...base, exception_hours: [{ valid_from: '2026-01-01', valid_through: PERMANENT_CLOSURE_THROUGH }] };
    expect(closureAt(perm, at)).toEqual({ kind: 'permanent', since: '2026-01-01' });
    const temp = { ...base, exception_hours: [{ title: 'Works', valid_from: '2026-07-10', valid_through: '2026-07-20' }] };
    expect(closureAt(temp, at)).toEqual({ kind: 'temporary', from: '2026-07-10', through: '2026-07-20', title: 'Works' });
    expect(
      closureWarning(temp, { kind: 'temporary', from: '2026-07-10', through: '2026-07-20', title: 'Works' }, '$.locations[0]'),
    ).toEqual({
      type: 'warning',
      code: 'temporary_closure',
      content: 'X (x) is temporarily closed from 2026-07-10 through 2026-07-20 (Works), local dates in Asia/Tokyo.',
      path: '$.locations[0]',
    });
    const timed = {
      ...base,
      exception_hours: [{ valid_from: '2026-07-14', valid_through: '2026-07-14', opens: '10:00', closes: '11:00' }],
    };
    expect(closureAt(timed, at)).toBeNull();
    expect(closureAt({ ...temp, timezone: 'Not/AZone' }, at)).toBeNull();
  });

  it('the record format accepts the open-ended closure date', () => {
    expect(
      validateSchedule({ timezone: 'UTC', exception_hours: [{ valid_from: '2026-01-01', valid_through: PERMANENT_CLOSURE_THROUGH }] }),
    ).toEqual([]);
  });

  it('leaves the Location object alone when nothing is spent', () => {
    const loc = { ...base, exception_hours: [{ valid_from: '2026-07-14', valid_through: '2026-07-14' }] };
    expect(withoutSpentExceptions(loc, at)).toBe(loc);
  });

  it('R-S6: an exception governing a past open_at stays in the answer; other spent ones still go (fails before: omitted, so the schedule said "closed" at the matched instant)', () => {
    const holiday = { valid_from: '2026-07-04', valid_through: '2026-07-04', opens: '10:00', closes: '14:00' };
    const overnight = { valid_from: '2026-07-01', valid_through: '2026-07-01', opens: '22:00', closes: '02:00' };
    const other = { valid_from: '2026-06-01', valid_through: '2026-06-02' };
    const loc = { ...base, timezone: 'UTC', exception_hours: [other, overnight, holiday] };
    const now = Date.UTC(2026, 6, 14, 12);
    expect(withoutSpentExceptions(loc, now).exception_hours).toBeUndefined();
    expect(withoutSpentExceptions(loc, now, Date.UTC(2026, 6, 4, 11)).exception_hours).toEqual([holiday]);
    // Past midnight of the next date, the overnight interval still governs (no exception covers that date).
    expect(withoutSpentExceptions(loc, now, Date.UTC(2026, 6, 2, 1)).exception_hours).toEqual([overnight]);
    expect(withoutSpentExceptions(loc, now, Date.UTC(2026, 6, 10, 11)).exception_hours).toBeUndefined();
  });
});
