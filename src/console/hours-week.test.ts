import { describe, expect, it } from 'vitest';
import { weekHours } from './hours-week.js';

const NOW = Date.parse('2026-12-03T14:35:00Z'); // Thursday 15:35 in Berlin

describe('weekHours', () => {
  it('a Location without hours: "Hours unknown" in its own zone, never closed, days laid out as unknown (R-S6)', () => {
    const week = weekHours({}, NOW, 'Europe/Berlin');
    expect(week.status).toMatchObject({ state: 'unknown', text: 'Hours unknown (Europe/Berlin)', timezone: 'Europe/Berlin' });
    expect(week.openNow).toBe(false);
    expect(week.days.map((d) => d.known)).toEqual(Array<boolean>(7).fill(false));
    expect(week.days.every((d) => d.open.length === 0)).toBe(true);
    expect(week).toMatchObject({ today: 3, nowMinute: 15 * 60 + 35, nextChange: null, now: 'Thu 3 Dec, 15:35' });
  });

  it('says the next change in words relative to the local day, and marks now on today', () => {
    const schedule = {
      timezone: 'Europe/Berlin',
      hours: [
        { day: 'thursday' as const, opens: '08:00', closes: '18:00' },
        { day: 'friday' as const, opens: '08:00', closes: '18:00' },
      ],
    };
    expect(weekHours(schedule, NOW).status.text).toBe('Open · closes 18:00 today');
    const night = weekHours(schedule, Date.parse('2026-12-03T21:00:00Z'));
    expect(night.status.text).toBe('Closed · opens 08:00 tomorrow');
    expect(night.days[3]).toMatchObject({ known: true, open: [[480, 1080]] });
    expect(night).toMatchObject({ today: 3, nowMinute: 22 * 60, nextChangeDay: 4, nextChangeMinute: 480 });
  });

  it('without any zone it cannot lay out a week, and says so', () => {
    const week = weekHours({}, NOW, null);
    expect(week.status.text).toBe('Hours unknown');
    expect(week.days).toEqual([]);
  });
});
