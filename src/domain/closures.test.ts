import { describe, expect, it } from 'vitest';
import { closureAt, closureWarning, exceptionStillApplies, PERMANENT_CLOSURE_THROUGH, withoutSpentExceptions } from './closures.js';
import { validateSchedule } from './hours.js';
import type { Location } from './location.js';

const NOW = { date: '2026-07-14', time: '01:30' };

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
});
