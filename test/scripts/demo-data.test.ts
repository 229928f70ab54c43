/**
 * The demo dataset tells the truth: every record's address comes from its row of
 * data/demo-places.csv and its coordinates lie near that row's neighbourhood centre; the file
 * carries no dates that could go stale; the holidays the server adds (demo-holidays.ts) are the
 * coming ones on whatever day it loads them, and always valid; the generator rewrites exactly the
 * committed files.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readDemoPlaces } from '../../scripts/demo-places.js';
import { DEMO_HOLIDAY_HORIZON_DAYS, withComingHolidays } from '../../src/data/demo-holidays.js';
import { validateRecord } from '../../src/data/validate-record.js';
import { geodesicDistanceMeters } from '../../src/domain/geodesy.js';
import type { LocationRecord } from '../../src/domain/location.js';
import { useScratchDir } from '../support/scratch.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const scratch = useScratchDir('demo-data');

const RECORDS: LocationRecord[] = readFileSync(join(ROOT, 'data/demo.ndjson'), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as LocationRecord);
const PLACES = new Map(readDemoPlaces().map((p) => [p.id, p]));

/** The stores named after their neighbourhood ("Meridian Market Express Harlem"). */
const NAMED_BY_NEIGHBOURHOOD = (r: LocationRecord): boolean =>
  r.id.startsWith('loc_') && r.name.startsWith('Meridian Market') && !r.name.includes('(');

describe('data/demo.ndjson agrees with data/demo-places.csv', () => {
  it('has one row per record, and no row without a record', () => {
    expect(RECORDS.map((r) => r.id).sort()).toEqual([...PLACES.keys()].sort());
  });

  it("takes every record's locality, country, street and postal code from its row", () => {
    const wrong = RECORDS.flatMap((r) => {
      const row = PLACES.get(r.id);
      const a = r.address;
      if (row === undefined || a === undefined) return [`${r.id}: no row or no address`];
      const problems: string[] = [];
      if (a.address_locality !== row.locality) problems.push(`locality ${a.address_locality} ≠ ${row.locality}`);
      if (a.address_country !== row.country) problems.push(`country ${a.address_country} ≠ ${row.country}`);
      if (!(a.street_address ?? '').includes(row.street)) problems.push(`street ${a.street_address} is not on ${row.street}`);
      if ((a.postal_code ?? '') !== row.postalCode) problems.push(`postal code ${a.postal_code} ≠ ${row.postalCode}`);
      if (NAMED_BY_NEIGHBOURHOOD(r) && !r.name.endsWith(` ${row.neighbourhood}`))
        problems.push(`name ${r.name} is not after ${row.neighbourhood}`);
      return problems.map((p) => `${r.id}: ${p}`);
    });
    expect(wrong).toEqual([]);
  });

  it("puts every record within 2 km (WGS 84 geodesic) of its row's neighbourhood centre", () => {
    const far = RECORDS.flatMap((r) => {
      const row = PLACES.get(r.id);
      if (row === undefined || r.geo === undefined) return [`${r.id}: no row or no geo`];
      const meters = geodesicDistanceMeters(r.geo, row);
      return meters <= 2000 ? [] : [`${r.id}: ${Math.round(meters)} m from the centre of ${row.neighbourhood}, ${row.locality}`];
    });
    expect(far).toEqual([]);
  });
});

describe('demo holidays are relative to the day the demo is loaded (R-H4)', () => {
  it('the file itself carries no exception dates', () => {
    expect(RECORDS.filter((r) => r.exception_hours !== undefined).map((r) => r.id)).toEqual([]);
  });

  const DAY = 86_400_000;
  const check = (now: number): void => {
    const today = Math.floor(now / DAY);
    let stores = 0;
    for (const record of RECORDS) {
      const withHolidays = withComingHolidays(record, now);
      const checked = validateRecord(JSON.parse(JSON.stringify(withHolidays)), { file: 'demo.ndjson', line: 1 });
      expect(checked.issues, `${record.id} on ${new Date(now).toISOString()}`).toEqual([]);
      const exceptions = withHolidays.exception_hours ?? [];
      for (const e of exceptions) {
        expect(Date.parse(`${e.valid_through}T00:00:00Z`) / DAY).toBeGreaterThanOrEqual(today - 1);
        expect(Date.parse(`${e.valid_from}T00:00:00Z`) / DAY).toBeLessThanOrEqual(today + DEMO_HOLIDAY_HORIZON_DAYS);
      }
      if (exceptions.length > 0) stores += 1;
    }
    // Some country of the demo has a holiday in any window of that length (most have several).
    expect(stores).toBeGreaterThan(0);
  };

  it('today (the machine clock, whatever year it is): coming holidays only, every record still valid', () => {
    check(Date.now());
  });

  it('on any day from 2020 to 2060: coming holidays only, every record still valid', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2060, 11, 31) }), (now) => check(now)),
      { numRuns: 25 },
    );
  });

  it('never gives one store two holidays on one day, also when Easter Monday falls on Anzac Day (2011) or Ascension on 1 May (2008)', () => {
    for (const [id, year, month] of [
      ['loc_sydney_cbd', 2011, 3],
      ['loc_berlin_mitte', 2008, 3],
    ] as const) {
      const record = RECORDS.find((r) => r.id === id);
      if (record === undefined) throw new Error(`no ${id}`);
      const withHolidays = withComingHolidays(record, Date.UTC(year, month, 1));
      expect(validateRecord(JSON.parse(JSON.stringify(withHolidays)), { file: 'demo.ndjson', line: 1 }).issues).toEqual([]);
      const days = (withHolidays.exception_hours ?? []).map((e) => e.valid_from);
      expect(new Set(days).size).toBe(days.length);
    }
  });

  it('the US demo stores close on Thanksgiving, the fourth Thursday of November, whatever the year', () => {
    const newYork = RECORDS.find((r) => r.id === 'loc_new_york_harlem');
    if (newYork === undefined) throw new Error('no loc_new_york_harlem');
    const dates = (year: number): string[] =>
      (withComingHolidays(newYork, Date.UTC(year, 10, 1)).exception_hours ?? [])
        .filter((e) => e.title === 'Thanksgiving')
        .map((e) => e.valid_from);
    expect([2026, 2027, 2030].map(dates)).toEqual([['2026-11-26'], ['2027-11-25'], ['2030-11-28']]);
  });
});

describe('scripts/generate-demo.ts', () => {
  it('writes exactly the committed data/demo.ndjson and data/demo-inventory.csv', async () => {
    const out = scratch();
    await promisify(execFile)(join(ROOT, 'node_modules/.bin/tsx'), [join(ROOT, 'scripts/generate-demo.ts'), out], { cwd: ROOT });
    for (const name of ['demo.ndjson', 'demo-inventory.csv']) {
      expect(
        readFileSync(join(out, name), 'utf8') === readFileSync(join(ROOT, 'data', name), 'utf8'),
        `${name} differs: run npx tsx scripts/generate-demo.ts`,
      ).toBe(true);
    }
  });
});
