/**
 * `import --format osm` end to end, on both stores: the worked example of docs/data-format.md
 * (examples/osm/stores.geojson) is imported, and `search` with `filters.hours.open_at` — the
 * operation behind search_locations — must find each Location open or closed at instants around
 * every boundary of its opening_hours (split shifts, overnight, special hours, public holidays,
 * the weeks clocks change), evaluated in the zone derived from its coordinates.
 * Then `import --dry-run` through the real CLI: the diff (added, removed, changed with fields),
 * and a store left exactly as it was.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFiles } from '../../src/data/import.js';
import type { Geo } from '../../src/domain/location.js';
import { LocationService } from '../../src/service.js';
import { PostgresLocationStore } from '../../src/store/postgres/index.js';
import { SqliteLocationStore } from '../../src/store/sqlite/index.js';
import type { LocationStore } from '../../src/store/store.js';
import { runCli } from '../client/support/cli.js';
import { createTestDatabase, withSchema, type TestDatabase } from '../scale/support/pg.js';
import { useScratchDir } from '../support/scratch.js';
import { describeWith } from '../support/services.js';
import { allowForChildProcesses } from '../support/child-process-budget.js';

allowForChildProcesses();

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLE = join(ROOT, 'examples/osm/stores.geojson');
/** The import's date: the holiday horizon runs a year from here. */
const NOW = Date.UTC(2026, 11, 1);
const SECRET = 'osm-import-cursor-secret-0123456789abc';

const GEO: Record<string, Geo> = {
  'osm-node-1001': { latitude: 52.517, longitude: 13.3889 },
  // The centroid of the building outline.
  'osm-way-2002': { latitude: 40.7575, longitude: -73.9855 },
  'osm-node-3003': { latitude: 35.6812, longitude: 139.7671 },
  'osm-node-4004': { latitude: 38.7223, longitude: -9.1393 },
  'osm-node-5005': { latitude: 41.8781, longitude: -87.6298 },
};

/** [Location, instant, open?, why] */
const INSTANTS: readonly [string, string, boolean, string][] = [
  // Berlin, "Mo-Fr 08:00-12:00,13:00-18:00; Sa 09:00-14:00; PH off", Europe/Berlin.
  ['osm-node-1001', '2026-12-02T06:59:00Z', false, 'Wed 07:59 CET, before opening'],
  ['osm-node-1001', '2026-12-02T07:00:00Z', true, 'Wed 08:00 CET, opens'],
  ['osm-node-1001', '2026-12-02T10:59:00Z', true, 'Wed 11:59, before the lunch break'],
  ['osm-node-1001', '2026-12-02T11:00:00Z', false, 'Wed 12:00, lunch break (split shift)'],
  ['osm-node-1001', '2026-12-02T12:00:00Z', true, 'Wed 13:00, second shift'],
  ['osm-node-1001', '2026-12-02T17:00:00Z', false, 'Wed 18:00, closed'],
  ['osm-node-1001', '2026-12-05T12:59:00Z', true, 'Sat 13:59'],
  ['osm-node-1001', '2026-12-05T13:00:00Z', false, 'Sat 14:00'],
  ['osm-node-1001', '2026-12-06T10:00:00Z', false, 'Sunday'],
  ['osm-node-1001', '2026-12-23T09:00:00Z', true, 'Wed 23 Dec, a working day'],
  ['osm-node-1001', '2026-12-25T09:00:00Z', false, 'Fri 25 Dec, public holiday (PH off)'],
  ['osm-node-1001', '2027-03-29T07:00:00Z', false, 'Easter Monday 2027, public holiday'],
  ['osm-node-1001', '2027-03-23T06:30:00Z', false, 'Tue 07:30 CET, the week before clocks change'],
  ['osm-node-1001', '2027-03-23T07:00:00Z', true, 'Tue 08:00 CET'],
  ['osm-node-1001', '2027-03-30T05:59:00Z', false, 'Tue 07:59 CEST, the week after'],
  ['osm-node-1001', '2027-03-30T06:00:00Z', true, 'Tue 08:00 CEST'],
  // New York, "Mo-Th 07:00-22:00; Fr,Sa 07:00-02:00, Su 09:00-20:00; Dec 24 07:00-15:00; Dec 25 off"
  // ("," adds the Sunday rule, so the Saturday night still runs into Sunday).
  ['osm-way-2002', '2026-12-04T02:59:00Z', true, 'Thu 21:59 EST'],
  ['osm-way-2002', '2026-12-04T03:00:00Z', false, 'Thu 22:00 EST, closed'],
  ['osm-way-2002', '2026-12-05T04:30:00Z', true, 'Fri 23:30 EST, overnight'],
  ['osm-way-2002', '2026-12-05T06:59:00Z', true, 'Sat 01:59 EST, still the Friday night'],
  ['osm-way-2002', '2026-12-05T07:00:00Z', false, 'Sat 02:00 EST, the night ends'],
  ['osm-way-2002', '2026-12-05T11:59:00Z', false, 'Sat 06:59 EST'],
  ['osm-way-2002', '2026-12-05T12:00:00Z', true, 'Sat 07:00 EST'],
  ['osm-way-2002', '2026-12-24T19:59:00Z', true, 'Thu 24 Dec 14:59, special hours'],
  ['osm-way-2002', '2026-12-24T20:00:00Z', false, 'Thu 24 Dec 15:00, special hours end early'],
  ['osm-way-2002', '2026-12-25T17:00:00Z', false, 'Fri 25 Dec noon, special closure'],
  ['osm-way-2002', '2027-03-14T06:59:00Z', true, 'Sun 14 Mar 01:59 EST, Saturday night before clocks spring forward'],
  ['osm-way-2002', '2027-03-14T07:00:00Z', false, 'Sun 14 Mar 03:00 EDT (02:00 never happens)'],
  ['osm-way-2002', '2027-03-14T12:59:00Z', false, 'Sun 08:59 EDT'],
  ['osm-way-2002', '2027-03-14T13:00:00Z', true, 'Sun 09:00 EDT'],
  ['osm-way-2002', '2027-03-14T23:59:00Z', true, 'Sun 19:59 EDT'],
  ['osm-way-2002', '2027-03-15T00:00:00Z', false, 'Sun 20:00 EDT'],
  ['osm-way-2002', '2027-11-07T05:30:00Z', true, 'Sun 7 Nov 01:30 EDT, the night clocks fall back'],
  ['osm-way-2002', '2027-11-07T06:30:00Z', true, 'Sun 01:30 EST, the same label an hour later'],
  ['osm-way-2002', '2027-11-07T07:00:00Z', false, 'Sun 02:00 EST'],
  // Tokyo, "24/7".
  ['osm-node-3003', '2026-12-25T00:00:00Z', true, 'any instant'],
  ['osm-node-3003', '2027-06-01T12:34:00Z', true, 'any instant'],
  // Lisbon, "sunrise-sunset": imported without hours (a warning), so never open.
  ['osm-node-4004', '2026-12-02T12:00:00Z', false, 'no hours: never established open'],
];

function storeSuite(name: string, open: () => Promise<LocationStore>): void {
  describe(`osm import on ${name}`, () => {
    let store: LocationStore;
    let service: LocationService;

    beforeAll(async () => {
      store = await open();
      const report = await importFiles(store, [EXAMPLE], { format: 'osm', now: NOW });
      expect(report.locations).toBe(5);
      service = new LocationService(store, { cursorSecret: SECRET });
    });

    afterAll(async () => {
      await store?.close();
    });

    it('derives each Location’s zone from its coordinates (a building outline through its centroid)', async () => {
      const zones: Record<string, string | undefined> = {};
      for (const [id, geo] of Object.entries(GEO)) {
        const r = await service.search({ distance: { center: geo, max: 1 } });
        expect(r.locations.map((l) => l.id)).toEqual([id]);
        zones[id] = r.locations[0]?.timezone;
      }
      expect(zones).toEqual({
        'osm-node-1001': 'Europe/Berlin',
        'osm-way-2002': 'America/New_York',
        'osm-node-3003': 'Asia/Tokyo',
        'osm-node-4004': 'Europe/Lisbon',
        'osm-node-5005': 'America/Chicago',
      });
    });

    it.each(INSTANTS)('filters.hours.open_at: %s at %s is open=%s (%s) (R-S6, R-H1..R-H4)', async (id, at, open) => {
      const geo = GEO[id] as Geo;
      const r = await service.search({ distance: { center: geo, max: 1 }, filters: { hours: { open_at: at } } });
      expect(r.locations.map((l) => l.id)).toEqual(open ? [id] : []);
    });
  });
}

const scratch = useScratchDir('osm-import');

storeSuite('SQLite', () => SqliteLocationStore.open(join(scratch(), 'osm.db')));

/** The example with feature 5 removed, feature 1 renamed and re-timed, and a new feature 6. */
function editedExample(dir: string): string {
  const fc = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as { features: { id: string; properties: Record<string, unknown> }[] };
  const features = fc.features.filter((f) => f.id !== 'node/5005');
  const first = features[0] as { properties: Record<string, unknown> };
  first.properties = { ...first.properties, name: 'Kiezkaffee Mitte (renovated)', opening_hours: 'Mo-Sa 09:00-19:00' };
  features.push({
    id: 'node/6006',
    properties: { name: 'Kiezkaffee Wien', 'addr:country': 'AT' },
    ...{ type: 'Feature', geometry: { type: 'Point', coordinates: [16.3738, 48.2082] } },
  });
  const path = join(dir, 'edited.geojson');
  writeFileSync(path, JSON.stringify({ ...fc, features }));
  return path;
}

interface DryRunJson {
  ok: boolean;
  dryRun: boolean;
  diff: { added: string[]; removed: string[]; changed: { id: string; fields: string[] }[]; unchanged: number };
  timezones: { timezone: string; records: number }[];
}

function expectEditedDiff(run: { code: number; stdout: string; stderr: string }): void {
  expect(run.code, run.stderr).toBe(0);
  const report = JSON.parse(run.stdout) as DryRunJson;
  expect(report).toMatchObject({ ok: true, dryRun: true });
  expect(report.diff).toMatchObject({
    added: ['osm-node-6006'],
    removed: ['osm-node-5005'],
    changed: [{ id: 'osm-node-1001', fields: ['name', 'hours', 'exception_hours'] }],
    unchanged: 3,
  });
  expect(report.timezones).toContainEqual({ timezone: 'Europe/Vienna', records: 1 });
}

describe('import --dry-run (CLI)', () => {
  it('on SQLite: prints added, removed and changed Locations with their fields, and leaves the store file byte-identical', async () => {
    const db = join(scratch(), 'dry.db');
    const imported = await runCli(['import', '--format', 'osm', EXAMPLE, '--db', db, '--quiet']);
    expect(imported.code, imported.stderr).toBe(0);
    const before = readFileSync(db);
    const run = await runCli(['import', '--format', 'osm', editedExample(scratch()), '--db', db, '--dry-run', '--json']);
    expectEditedDiff(run);
    expect(readFileSync(db).equals(before)).toBe(true);

    const human = await runCli(['import', '--format', 'osm', editedExample(scratch()), '--db', db, '--dry-run']);
    expect(human.stdout).toMatch(/^Dry run, nothing written to .*dry\.db: 1 added, 1 removed, 1 changed, 3 unchanged$/m);
    expect(human.stdout).toContain('  ~ osm-node-1001: name, hours, exception_hours');
    expect(readFileSync(db).equals(before)).toBe(true);
  });

  it('against a database that does not exist: everything is added, and no file is created', async () => {
    const db = join(scratch(), 'never.db');
    const run = await runCli(['import', '--format', 'osm', EXAMPLE, '--db', db, '--dry-run', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as DryRunJson).diff).toMatchObject({ added: Object.keys(GEO).sort(), removed: [], changed: [] });
    expect(existsSync(db)).toBe(false);
  });

  it('rejected data is reported as by a real import (exit 1), with nothing written', async () => {
    const bad = join(scratch(), 'bad.geojson');
    writeFileSync(
      bad,
      JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', geometry: null, properties: { name: 'X' } }] }),
    );
    const run = await runCli(['import', '--format', 'osm', bad, '--db', join(scratch(), 'bad.db'), '--dry-run']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('bad.geojson feature 1 id: the feature names no OpenStreetMap element');
  });
});

describe('import --format osm options (CLI)', () => {
  it('--strict turns the warning about hours UCP cannot state into an error (exit 1, nothing written)', async () => {
    const db = join(scratch(), 'strict.db');
    const run = await runCli(['import', '--format', 'osm', EXAMPLE, '--db', db, '--strict']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('stores.geojson feature 4 properties.opening_hours: "sunrise-sunset" is not imported');
    expect(run.stdout).toContain('(an error because of --strict)');
    expect(existsSync(db)).toBe(false);
  });

  it('reports derived zones and warnings with --json, and refuses a malformed --holiday-horizon as a usage error', async () => {
    const run = await runCli([
      'import',
      '--format',
      'osm',
      EXAMPLE,
      '--db',
      join(scratch(), 'json.db'),
      '--holiday-horizon',
      '30',
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as {
      timezones: unknown[];
      warningCount: number;
      locations: number;
      warnings: { message: string }[];
    };
    // One about the source's hours, one naming --amenity-namespace (wheelchair, toilets: org.openstreetmap.amenity.*).
    expect(report).toMatchObject({ locations: 5, warningCount: 2 });
    expect(report.warnings.filter((w) => w.message.includes('--amenity-namespace <your reverse-domain'))).toHaveLength(1);
    expect(report.timezones).toContainEqual({ timezone: 'Europe/Berlin', records: 1 });
    const bad = await runCli(['import', '--format', 'osm', EXAMPLE, '--db', join(scratch(), 'x.db'), '--holiday-horizon', 'a year']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--holiday-horizon must be a whole number of days');
  });
});

let pgDb: TestDatabase | undefined;
describeWith(['postgis'], 'PostgreSQL', () => {
  beforeAll(async () => {
    pgDb = await createTestDatabase('ucp_osm');
  });
  afterAll(async () => {
    await pgDb?.drop();
  });

  storeSuite('PostgreSQL', async () => {
    if (pgDb === undefined) throw new Error('test database not created');
    return PostgresLocationStore.open(withSchema(pgDb.url, 'osm_import'), { migrate: true, poolMax: 2 });
  });

  it('import --dry-run (CLI) prints the same diff and leaves the store unchanged (generation, Locations)', async () => {
    if (pgDb === undefined) throw new Error('test database not created');
    const url = withSchema(pgDb.url, 'osm_dry');
    const store = await PostgresLocationStore.open(url, { migrate: true, poolMax: 2 });
    try {
      await importFiles(store, [EXAMPLE], { format: 'osm' });
      const before = { stats: await store.stats(), locations: await store.storedLocations() };
      expectEditedDiff(await runCli(['import', '--format', 'osm', editedExample(scratch()), '--store', url, '--dry-run', '--json']));
      expect({ stats: await store.stats(), locations: await store.storedLocations() }).toEqual(before);
    } finally {
      await store.close();
    }
  });
});
