import { describe, expect, it } from 'vitest';
import type { Location } from '../domain/location.js';
import { describeHours, formatAddress, formatDistance, localTime, renderLocations, renderTable } from './format.js';

const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] as const;
const ny: Location = {
  id: 'loc_ny',
  name: 'Midtown',
  geo: { latitude: 40.7549, longitude: -73.984 },
  address: { street_address: '1 Main St', address_locality: 'New York', address_region: 'NY', postal_code: '10001', address_country: 'US' },
  timezone: 'America/New_York',
  hours: weekdays.map((day) => ({ day, opens: '09:00', closes: '21:00' })),
};

describe('describeHours', () => {
  it("shows the next change in the Location's zone with its abbreviation (R-H5)", () => {
    expect(describeHours(ny, Date.parse('2026-11-30T15:00:00Z'))).toBe('open · closes 21:00 EST');
    expect(describeHours(ny, Date.parse('2026-07-06T15:00:00Z'))).toBe('open · closes 21:00 EDT');
  });

  it('names the weekday when the change is on another local date', () => {
    // Saturday noon in New York: next opening Monday 09:00.
    expect(describeHours(ny, Date.parse('2026-12-05T17:00:00Z'))).toBe('closed · opens Mon 09:00 EST');
  });

  it('is explicit about unknown and invalid schedules (R-H2, R-S6)', () => {
    expect(describeHours({ id: 'x', name: 'x' }, 0)).toBe('hours unknown');
    expect(describeHours({ id: 'x', name: 'x', hours: [{ day: 'monday', opens: '09:00', closes: '09:00' }], timezone: 'UTC' }, 0)).toBe(
      'hours invalid',
    );
  });

  it('uses an offset label for zones without an abbreviation', () => {
    const ktm: Location = { id: 'k', name: 'k', timezone: 'Asia/Kathmandu', hours: [{ day: 'monday', opens: '09:00', closes: '18:00' }] };
    expect(describeHours(ktm, Date.parse('2026-11-30T04:00:00Z'))).toBe('open · closes 18:00 GMT+5:45');
  });
});

describe('localTime', () => {
  it('adds the month and day beyond a week', () => {
    expect(localTime(Date.parse('2026-12-20T14:00:00Z'), Date.parse('2026-12-01T14:00:00Z'), 'America/New_York')).toBe('Dec 20 09:00 EST');
  });
});

describe('formatDistance', () => {
  it('uses metres below 1 km and the unit asked for', () => {
    expect(formatDistance(850.4)).toBe('850 m');
    expect(formatDistance(1234)).toBe('1.23 km');
    expect(formatDistance(25_000)).toBe('25.0 km');
    expect(formatDistance(3218.688, 'mi')).toBe('2.00 mi');
  });
});

describe('formatAddress', () => {
  it('joins what is present', () => {
    expect(formatAddress(ny.address)).toBe('1 Main St, New York, NY 10001, US');
    expect(formatAddress({ address_country: 'NP' })).toBe('NP');
    expect(formatAddress(undefined)).toBe('');
  });
});

describe('renderTable', () => {
  it('aligns columns, right-aligns numbers and cuts long cells', () => {
    const text = renderTable(
      [
        { header: 'NAME', maxWidth: 6 },
        { header: 'KM', align: 'right' },
      ],
      [
        ['Short', '1.5'],
        ['A very long name', '12.25'],
      ],
    );
    expect(text.split('\n')).toEqual(['NAME       KM', '──────  ─────', 'Short     1.5', 'A ver…  12.25']);
  });
});

describe('renderLocations', () => {
  it('shows name, id, distance, hours and address', () => {
    const text = renderLocations([ny], {
      atMs: Date.parse('2026-11-30T15:00:00Z'),
      hoursHeader: 'NOW',
      center: { latitude: 40.7527, longitude: -73.9772 },
      unit: 'km',
    });
    const [header, , row] = text.split('\n');
    expect(header).toMatch(/^NAME\s+ID\s+DISTANCE\s+NOW\s+ADDRESS$/);
    expect(row).toMatch(/^Midtown\s+loc_ny\s+6\d\d m\s+open · closes 21:00 EST\s+1 Main St, New York, NY 10001, US$/);
  });
});
