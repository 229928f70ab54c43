/**
 * The onboarding formats end to end: the worked example files under examples/ (schema.org JSON-LD
 * with an HTML page beside it, and a Google Business Profile sheet) are imported into each store,
 * and `search` with `filters.hours.open_at` is asked about instants on both sides of every
 * boundary their schedules have — overnight, split shifts, special hours and closures, all-day,
 * the DST weeks — in the zones derived from the coordinates.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFiles, type ImportReport } from '../../src/data/import.js';
import type { Geo } from '../../src/domain/location.js';
import { LocationService } from '../../src/service.js';
import { PostgresLocationStore } from '../../src/store/postgres/index.js';
import { SqliteLocationStore } from '../../src/store/sqlite/index.js';
import type { LocationStore } from '../../src/store/store.js';
import { createTestDatabase, withSchema, type TestDatabase } from '../scale/support/pg.js';
import { useScratchDir } from '../support/scratch.js';
import { describeWith } from '../support/services.js';

const EXAMPLES = join(import.meta.dirname, '..', '..', 'examples');
const SECRET = 'onboarding-formats-cursor-secret-0123456789';

/** [instant, open?, why] per Location id. */
type Checks = Record<string, { zone: string; at: [string, boolean, string][] }>;

const JSONLD_CHECKS: Checks = {
  'nyc-001': {
    zone: 'America/New_York',
    at: [
      ['2026-12-07T06:59:00-05:00', false, 'Monday before opening'],
      ['2026-12-07T07:00:00-05:00', true, 'Monday opening (opens inclusive)'],
      ['2026-12-07T22:59:00-05:00', true, 'Monday last minute'],
      ['2026-12-07T23:00:00-05:00', false, 'Monday closing (closes exclusive)'],
      ['2026-12-11T23:30:00-05:00', true, 'Friday overnight, before midnight'],
      ['2026-12-12T01:59:00-05:00', true, 'Friday overnight, carried into Saturday'],
      ['2026-12-12T02:00:00-05:00', false, 'Friday overnight ends at 02:00'],
      ['2026-12-13T01:00:00-05:00', true, 'Saturday overnight carried into Sunday'],
      ['2026-12-13T11:59:00-05:00', true, 'Sunday morning shift'],
      ['2026-12-13T12:00:00-05:00', false, 'Sunday lunch break (split)'],
      ['2026-12-13T13:00:00-05:00', true, 'Sunday afternoon shift'],
      ['2026-12-13T20:00:00-05:00', false, 'Sunday closing'],
      ['2026-12-24T14:59:00-05:00', true, 'Christmas Eve special hours'],
      ['2026-12-24T15:00:00-05:00', false, 'Christmas Eve closes early'],
      ['2026-12-24T22:00:00-05:00', false, 'Christmas Eve: the regular Thursday hours do not apply'],
      ['2026-12-25T12:00:00-05:00', false, 'Christmas: closed all day (00:00-00:00 on a dated entry)'],
      ['2026-12-26T01:00:00-05:00', false, 'no carry-over out of a closed day'],
      ['2026-12-26T07:00:00-05:00', true, 'back to regular Saturday hours'],
      ['2027-03-14T01:59:00-05:00', true, 'DST night: Saturday overnight before the jump'],
      ['2027-03-14T03:00:00-04:00', false, 'DST night: 02:00 never happens, closed after the jump'],
      ['2027-03-14T08:59:00-04:00', false, 'DST Sunday before opening (EDT)'],
      ['2027-03-14T09:00:00-04:00', true, 'DST Sunday opening (EDT)'],
    ],
  },
  'ber-002': {
    zone: 'Europe/Berlin',
    at: [
      ['2026-12-08T03:00:00+01:00', true, 'open all day (00:00-23:59) in the night'],
      ['2026-12-23T23:59:00+01:00', true, 'the day before the closure'],
      ['2026-12-24T00:00:00+01:00', false, 'closure range starts'],
      ['2026-12-26T23:59:00+01:00', false, 'closure range, last minute'],
      ['2026-12-27T00:00:00+01:00', true, 'after the closure range'],
      ['2026-12-31T17:59:00+01:00', false, "New Year's Eve: special hours replace all-day"],
      ['2026-12-31T18:00:00+01:00', true, "New Year's Eve opens at 18:00"],
      ['2027-03-28T02:30:00+02:00', true, 'DST night (EU): still open all day'],
    ],
  },
  'https://shop.example/stores/tyo-003': {
    zone: 'Asia/Tokyo',
    at: [
      ['2026-12-07T08:59:00+09:00', false, 'openingHours text: before Mo-Fr opening'],
      ['2026-12-07T09:00:00+09:00', true, 'openingHours text: Mo-Fr opening'],
      ['2026-12-07T19:00:00+09:00', false, 'openingHours text: Mo-Fr closing'],
      ['2026-12-12T16:59:00+09:00', true, 'openingHours text: Saturday'],
      ['2026-12-12T17:00:00+09:00', false, 'openingHours text: Saturday closing'],
      ['2026-12-13T12:00:00+09:00', false, 'Sunday: no rule, closed'],
    ],
  },
  'lon-004': {
    zone: 'Europe/London',
    at: [['2026-12-07T12:00:00Z', false, 'PublicHolidays rule: imported without hours, never open']],
  },
  'par-005': {
    zone: 'Europe/Paris',
    at: [
      ['2026-12-07T09:59:00+01:00', false, 'HTML page: before opening'],
      ['2026-12-07T10:00:00+01:00', true, 'HTML page: opening'],
      ['2026-12-13T12:00:00+01:00', false, 'HTML page: Sunday closed'],
    ],
  },
};

const GBP_CHECKS: Checks = {
  'SEA-01': {
    zone: 'America/Los_Angeles',
    at: [
      ['2026-12-07T07:59:00-08:00', false, 'Monday before opening'],
      ['2026-12-07T08:00:00-08:00', true, 'Monday opening'],
      ['2026-12-07T20:00:00-08:00', false, 'Monday closing'],
      ['2026-12-12T11:59:00-08:00', true, 'Saturday first range'],
      ['2026-12-12T12:00:00-08:00', false, 'Saturday break between ranges'],
      ['2026-12-12T13:00:00-08:00', true, 'Saturday second range'],
      ['2026-12-13T12:00:00-08:00', false, 'Sunday x = closed'],
      ['2026-12-24T13:59:00-08:00', true, 'special hours 08:00-14:00'],
      ['2026-12-24T14:00:00-08:00', false, 'special hours end'],
      ['2026-12-25T10:00:00-08:00', false, 'special x = closed all day'],
      ['2027-03-15T07:59:00-07:00', false, 'Monday after the DST change, before opening (PDT)'],
      ['2027-03-15T08:00:00-07:00', true, 'Monday after the DST change, opening (PDT)'],
    ],
  },
  'CHI-02': {
    zone: 'America/Chicago',
    at: [
      ['2026-12-11T23:30:00-06:00', true, 'Friday overnight before midnight'],
      ['2026-12-12T01:59:00-06:00', true, 'Friday overnight after midnight'],
      ['2026-12-12T02:00:00-06:00', false, 'Friday overnight ends'],
      ['2026-12-31T17:30:00-06:00', false, "New Year's Eve special hours replace Thursday's"],
      ['2026-12-31T18:00:00-06:00', true, "New Year's Eve 18:00-24:00"],
      ['2026-12-31T23:59:00-06:00', true, "New Year's Eve last minute"],
      ['2027-01-01T00:30:00-06:00', true, "New Year's Day 00:00-03:00"],
      ['2027-01-01T03:00:00-06:00', false, "New Year's Day first range ends"],
      ['2027-01-01T12:00:00-06:00', true, "New Year's Day second range (continues the date)"],
      ['2027-01-01T19:00:00-06:00', false, "New Year's Day: the regular Friday evening does not apply"],
      ['2027-01-02T01:00:00-06:00', false, 'no overnight carry out of the special day'],
      ['2027-03-14T01:59:00-06:00', true, 'DST night: Saturday overnight before the jump'],
      ['2027-03-14T03:00:00-05:00', false, 'DST night: closed after the jump (02:00 never happens)'],
    ],
  },
  'PHX-03': {
    zone: 'America/Phoenix',
    at: [
      ['2026-12-07T03:00:00-07:00', true, '00:00-24:00 = all day'],
      ['2027-03-14T02:30:00-07:00', true, 'no DST in Arizona; all day'],
    ],
  },
  'SYD-04': {
    zone: 'Australia/Sydney',
    at: [
      ['2026-12-07T12:00:00+11:00', false, 'an empty day cell is closed when other days have hours'],
      ['2026-12-12T08:59:00+11:00', false, 'Saturday before opening (AEDT)'],
      ['2026-12-12T09:00:00+11:00', true, 'Saturday opening (AEDT)'],
      ['2027-04-04T09:59:00+10:00', false, 'DST end Sunday before opening (AEST)'],
      ['2027-04-04T10:00:00+10:00', true, 'DST end Sunday opening (AEST)'],
      ['2027-04-04T16:00:00+10:00', false, 'DST end Sunday closing'],
    ],
  },
};

function checksOf(checks: Checks): [string, string, boolean, string][] {
  return Object.entries(checks).flatMap(([id, c]) => c.at.map(([at, open, why]): [string, string, boolean, string] => [id, at, open, why]));
}

/** The import + search assertions, the same for every store. */
function onboardingSuite(newStore: () => Promise<LocationStore>): void {
  for (const [format, inputs, checks] of [
    ['jsonld', [join(EXAMPLES, 'jsonld')], JSONLD_CHECKS],
    ['gbp', [join(EXAMPLES, 'gbp', 'locations.csv')], GBP_CHECKS],
  ] as const) {
    describe(`--format ${format} (R-H1..R-H4, R-S6)`, () => {
      let store: LocationStore;
      let service: LocationService;
      let report: ImportReport;
      const geo = new Map<string, Geo>();

      beforeAll(async () => {
        store = await newStore();
        report = await importFiles(store, inputs, { format });
        service = new LocationService(store, { cursorSecret: SECRET });
        const all = await service.search({ pagination: { limit: 50 } });
        for (const l of all.locations) if (l.geo !== undefined) geo.set(l.id, l.geo);
      });
      afterAll(async () => {
        await store?.close();
      });

      it('imports every business and derives each zone from its coordinates', async () => {
        expect(report.locations).toBe(Object.keys(checks).length);
        const found = await service.lookup({ ids: Object.keys(checks) });
        const zones = Object.fromEntries(found.locations.map((l) => [l.id, l.timezone]));
        expect(zones).toEqual(Object.fromEntries(Object.entries(checks).map(([id, c]) => [id, c.zone])));
      });

      it.each(checksOf(checks))('%s at %s: open=%s (%s)', async (id, at, open) => {
        const center = geo.get(id);
        expect(center).toBeDefined();
        const result = await service.search({ distance: { center: center as Geo, max: 1 }, filters: { hours: { open_at: at } } });
        expect(result.locations.map((l) => l.id).includes(id)).toBe(open);
      });
    });
  }
}

describe('onboarding formats on the SQLite store', () => {
  const dir = useScratchDir('onboarding-sqlite');
  let n = 0;
  onboardingSuite(() => SqliteLocationStore.open(join(dir(), `store-${++n}.db`)));
});

describeWith(['postgis'], 'onboarding formats on the PostgreSQL store', () => {
  let db: TestDatabase | undefined;
  let n = 0;
  beforeAll(async () => {
    db = await createTestDatabase('ucp_onboard');
  });
  afterAll(async () => {
    await db?.drop();
  });
  onboardingSuite(async () => {
    if (db === undefined) throw new Error('test database not created');
    return PostgresLocationStore.open(withSchema(db.url, `onboard_${++n}`), { migrate: true, poolMax: 2 });
  });
});
