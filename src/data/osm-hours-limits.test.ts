/**
 * Issue 37 N9: a pathological OpenStreetMap `opening_hours` value cannot hold an import for
 * minutes. (Before: 200 one-minute intervals a day took 35 s to evaluate, 600 took 226 s.)
 */
import { describe, expect, it } from 'vitest';
import { MAX_OPENING_HOURS_CHARS, osmOpeningHours } from './osm-hours.js';

const hhmm = (minutes: number): string => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
/** `n` one-minute openings a day, every day, closed on public holidays: legal, and costly. */
const minuteIntervals = (n: number): string =>
  `Mo-Su ${Array.from({ length: n }, (_, i) => `${hhmm(i * 2)}-${hhmm(i * 2 + 1)}`).join(',')}; PH off`;
const OPTIONS = { startDay: 20_600, horizonDays: 400 };

describe('osmOpeningHours is bounded in time (issue 37 N9)', () => {
  it(`refuses a value longer than OpenStreetMap's ${MAX_OPENING_HOURS_CHARS} characters before parsing it`, () => {
    const value = minuteIntervals(200);
    const result = osmOpeningHours(value, { country: 'DE' }, OPTIONS);
    expect(result).toEqual({ ok: false, reason: `it is ${value.length} characters long; OpenStreetMap tag values have at most 255` });
  });

  it('gives up on a value whose evaluation runs past its time budget, saying so', () => {
    const value = minuteIntervals(20);
    expect(value.length).toBeLessThanOrEqual(MAX_OPENING_HOURS_CHARS);
    const result = osmOpeningHours(value, { country: 'DE' }, { ...OPTIONS, budgetMs: 20 });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/too complex to evaluate in reasonable time/);
  });

  it('evaluates real values well within the default budget', () => {
    const result = osmOpeningHours('Mo-Fr 08:00-18:00; Sa 09:00-13:00; PH off', { country: 'DE' }, OPTIONS);
    expect(result.ok).toBe(true);
  });
});
