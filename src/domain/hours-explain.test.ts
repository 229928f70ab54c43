import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSchedule, explainOpenAt, isOpenCompiled } from './hours.js';
import { parseInstant } from './hours-instant.js';
import type { Schedule } from './location.js';

const NEW_YORK: Schedule = {
  timezone: 'America/New_York',
  hours: [
    { day: 'monday', opens: '09:00', closes: '17:00' },
    { day: 'friday', opens: '22:00', closes: '02:00' },
    { day: 'saturday', opens: '10:00', closes: '18:00' },
  ],
  exception_hours: [
    { title: 'Thanksgiving', valid_from: '2026-11-26', valid_through: '2026-11-26' },
    { title: 'Inventory', valid_from: '2026-12-07', valid_through: '2026-12-08', opens: '12:00', closes: '14:00' },
  ],
};

describe('explainOpenAt: the rule behind an opening-hours verdict (R-H1..R-H4)', () => {
  const compiled = compileSchedule(NEW_YORK);

  it('agrees with isOpenCompiled at every instant', () => {
    const from = Date.UTC(2026, 0, 1);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 400 * 24 * 60 }), (minute) => {
        const at = from + minute * 60_000;
        expect(explainOpenAt(compiled, at).open).toBe(isOpenCompiled(compiled, at));
      }),
      { numRuns: 2000 },
    );
  });

  it('names the weekly interval and the local reading in the zone', () => {
    const e = explainOpenAt(compiled, parseInstant('2026-11-30T15:00:00Z'));
    expect(e).toMatchObject({ open: true, localTime: '2026-11-30T10:00:00', weekday: 'monday', offset: '-05:00' });
    expect(e.rule).toMatchObject({ kind: 'weekly', day: 'monday', matched: '09:00–17:00', from: 'own' });
  });

  it('names an overnight interval carried from the day before', () => {
    const e = explainOpenAt(compiled, parseInstant('2026-12-05T01:30:00-05:00'));
    expect(e.open).toBe(true);
    expect(e.rule).toMatchObject({ kind: 'weekly', day: 'friday', matched: '22:00–02:00', from: 'carried' });
  });

  it('names the exception that closes a date, with its title', () => {
    const e = explainOpenAt(compiled, parseInstant('2026-11-26T12:00:00-05:00'));
    expect(e.open).toBe(false);
    expect(e.rule).toMatchObject({ kind: 'exception', titles: ['Thanksgiving'], closure: true, validFrom: '2026-11-26' });
  });

  it('says when the UTC offset changes within a day (daylight saving)', () => {
    const e = explainOpenAt(compiled, parseInstant('2026-11-01T12:00:00-05:00'));
    expect(e.notes.join(' ')).toMatch(/-04:00 to -05:00/);
  });

  it('reports unknown regular hours and invalid schedules as never open', () => {
    const unknown = explainOpenAt(compileSchedule({ timezone: 'Europe/Paris', exception_hours: [] }), 0);
    expect(unknown).toMatchObject({ open: false, rule: { kind: 'unknown-regular-hours' } });
    const invalid = explainOpenAt(compileSchedule({ hours: [{ day: 'monday', opens: '09:00', closes: '17:00' }] }), 0);
    expect(invalid.open).toBe(false);
    expect(invalid.problems.length).toBeGreaterThan(0);
  });
});
