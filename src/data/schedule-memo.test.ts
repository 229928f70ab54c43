import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateSchedule } from '../domain/hours.js';
import { ScheduleMemo } from './validate-record.js';

// Pools of valid and invalid parts; schedules are drawn from their combinations so parts recur
// in both valid and invalid company, which is where a wrong memo would show.
const ZONES = [undefined, 'Europe/Paris', 'America/New_York', 'Etc/GMT+5', 'Mars/Olympus', '', 42, null];
const HOURS = [
  undefined,
  [],
  [{ day: 'monday', opens: '09:00', closes: '17:00' }],
  [{ day: 'sunday', opens: '22:00', closes: '02:00' }, { day: 'sunday', opens: '10:00', closes: '12:00' }],
  [{ day: 'Monday', opens: '09:00', closes: '17:00' }],
  [{ day: 'friday', opens: '9:00', closes: '17:00' }],
  [{ day: 'friday', opens: '10:00', closes: '10:00' }],
  'mon-fri',
  [null],
];
const EXCEPTIONS = [
  undefined,
  [],
  [{ valid_from: '2026-12-25', valid_through: '2026-12-25' }],
  [{ valid_from: '2026-12-24', valid_through: '2026-12-24', opens: '09:00', closes: '13:00', title: 'Eve' }],
  [
    { valid_from: '2026-12-31', valid_through: '2026-12-31', opens: '09:00', closes: '12:00' },
    { valid_from: '2026-12-31', valid_through: '2026-12-31', opens: '14:00', closes: '18:00' },
  ],
  [
    { valid_from: '2026-07-01', valid_through: '2026-07-14' },
    { valid_from: '2026-07-10', valid_through: '2026-07-10' },
  ],
  [{ valid_from: '2026-02-30', valid_through: '2026-03-01' }],
  [{ valid_from: '2026-03-02', valid_through: '2026-03-01' }],
  [{ valid_from: '2026-12-25', valid_through: '2026-12-25', opens: '09:00' }],
  [{ valid_from: '2026-12-25', valid_through: '2026-12-25', title: 7 }],
];

describe('ScheduleMemo (R-H1, R-H4, R-H5)', () => {
  it('reports exactly what validateSchedule reports, whatever was seen before (property)', () => {
    const part = <T>(pool: readonly T[]) => fc.nat(pool.length - 1).map((i) => pool[i] as T);
    const schedule = fc.tuple(part(ZONES), part(HOURS), part(EXCEPTIONS));
    fc.assert(
      fc.property(fc.array(schedule, { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 4 }), (list, limit) => {
        const memo = new ScheduleMemo(limit);
        for (const [timezone, hours, exceptions] of list) {
          // Fresh copies: the memo must judge by content, never by object identity.
          const copy = (v: unknown): unknown => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));
          const expected = validateSchedule({ timezone, hours, exception_hours: exceptions });
          expect(memo.problems(copy(timezone), copy(hours), copy(exceptions))).toEqual(expected);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('hands out one frozen, equal value per distinct valid part, and the inputs of invalid schedules', () => {
    const memo = new ScheduleMemo();
    const week = () => [{ day: 'monday', opens: '09:00', closes: '17:00' }];
    const first = memo.check('Europe/Paris', week(), undefined);
    const second = memo.check('America/New_York', week(), []);
    expect(second.hours).toBe(first.hours);
    expect(second.hours).toEqual(week());
    expect(Object.isFrozen(first.hours)).toBe(true);
    expect(Object.isFrozen((first.hours as object[])[0])).toBe(true);
    expect(second.exceptions).toEqual([]);
    const bad = [{ day: 'funday', opens: '09:00', closes: '17:00' }];
    expect(memo.check('Europe/Paris', bad, undefined).hours).toBe(bad);
  });

  it('skips nothing on the first sight of a part: an unknown zone is reported even after valid hours were seen', () => {
    const memo = new ScheduleMemo();
    const hours = [{ day: 'monday', opens: '09:00', closes: '17:00' }];
    expect(memo.problems('Europe/Paris', hours, undefined)).toEqual([]);
    expect(memo.problems('Mars/Olympus', hours, undefined).map((p) => p.field)).toEqual(['timezone']);
    expect(memo.problems(undefined, hours, undefined).map((p) => p.field)).toEqual(['timezone']);
  });
});
