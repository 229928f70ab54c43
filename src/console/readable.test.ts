import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupIssues } from './issue-groups.js';
import { importHints } from './import-hints.js';
import { localWhen, readableMeters } from './readable.js';

describe('readableMeters', () => {
  it('says whole metres under 1 km and one decimal of km above, without a spurious ".0"', () => {
    expect(readableMeters(951.134)).toBe('951 m');
    expect(readableMeters(2000)).toBe('2 km');
    expect(readableMeters(1234)).toBe('1.2 km');
    expect(readableMeters(999.4)).toBe('999 m');
    expect(readableMeters(999.6)).toBe('1 km');
  });
  it('never goes down as the distance grows (the words order as the numbers do)', () => {
    const value = (t: string): number => (t.endsWith(' km') ? Number(t.slice(0, -3)) * 1000 : Number(t.slice(0, -2)));
    fc.assert(
      fc.property(fc.double({ min: 0, max: 2e7, noNaN: true }), fc.double({ min: 0, max: 2e7, noNaN: true }), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(value(readableMeters(lo))).toBeLessThanOrEqual(value(readableMeters(hi)));
      }),
    );
  });
});

describe('localWhen', () => {
  const now = Date.parse('2026-12-03T14:35:00Z'); // Thu 15:35 in Berlin
  it('reads relative to the local day in the Location’s zone', () => {
    expect(localWhen(now, now, 'Europe/Berlin')).toBe('15:35 today');
    expect(localWhen(Date.parse('2026-12-04T07:00:00Z'), now, 'Europe/Berlin')).toBe('08:00 tomorrow');
    expect(localWhen(Date.parse('2026-12-02T21:00:00Z'), now, 'Europe/Berlin')).toBe('22:00 yesterday');
    expect(localWhen(Date.parse('2026-12-07T08:00:00Z'), now, 'Europe/Berlin')).toBe('Mon 09:00');
    expect(localWhen(Date.parse('2026-12-24T08:00:00Z'), now, 'Europe/Berlin')).toBe('Thu 24 Dec 09:00');
    // 23:30 in New York is still "today" there although it is tomorrow in UTC.
    expect(localWhen(Date.parse('2026-12-04T04:30:00Z'), now, 'America/New_York')).toBe('23:30 today');
  });
});

describe('groupIssues', () => {
  it('says each problem once with its count, and the allowed fields once for the report', () => {
    const allowed = 'allowed fields: id, name, geo';
    const issues = [1, 2, 3].map((line) => ({
      file: 'f.geojson',
      line,
      unit: 'feature' as const,
      field: 'shop',
      message: `unknown field "shop"; ${allowed}`,
    }));
    issues.push({ file: 'f.geojson', line: 2, unit: 'feature', field: 'name', message: 'must be a non-empty string' });
    const { groups, allowedFields } = groupIssues(issues);
    expect(allowedFields).toBe('id, name, geo');
    expect(groups).toEqual([
      expect.objectContaining({
        field: 'shop',
        message: 'unknown field "shop"',
        count: 3,
        places: ['f.geojson feature 1', 'f.geojson feature 2', 'f.geojson feature 3'],
      }),
      expect.objectContaining({ field: 'name', count: 1 }),
    ]);
  });
});

describe('importHints', () => {
  const report = { ok: false, timezones: [], warningCount: 0 };
  it('names osm for an OpenStreetMap export read as GeoJSON, and nothing for an ordinary file or an accepted one', () => {
    const osm = '{"type":"FeatureCollection","features":[{"properties":{"addr:street":"Main St","opening_hours":"Mo-Fr 08:00-18:00"}}]}';
    expect(importHints('geojson', true, osm, report).join(' ')).toMatch(/--format osm/);
    expect(importHints('ndjson', false, '{"@context":"https://schema.org","@type":"Store"}', report).join(' ')).toMatch(/--format jsonld/);
    expect(importHints('osm', false, osm, report)).toEqual([]);
    expect(importHints('geojson', true, '{"type":"FeatureCollection","features":[]}', report)).toEqual([]);
    expect(importHints('geojson', true, osm, { ...report, ok: true })).toEqual([]);
  });
});
