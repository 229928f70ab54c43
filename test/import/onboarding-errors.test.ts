/**
 * Errors and warnings of the onboarding formats (JSON-LD, Google Business Profile sheets): every
 * error names file, record (node number or line) and field in the source's own terms; an import
 * with any error writes nothing; warnings never fail it. Both formats share the pipeline's steps
 * with OpenStreetMap (test/e2e/osm-import.test.ts): zones derived from coordinates and counted,
 * one warnings list that `strict` turns into problems, and the dry-run diff against a store.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffValidated, importFiles, readRecords, validateFiles, type ValidationReport } from '../../src/data/import.js';
import { DataValidationError, formatDataIssue } from '../../src/errors.js';
import { SqliteLocationStore } from '../../src/store/sqlite/index.js';
import { useScratchDir } from '../support/scratch.js';

const dir = useScratchDir('onboarding-errors');
let n = 0;

function file(name: string, text: string): string {
  const path = join(dir(), `${++n}-${name}`);
  writeFileSync(path, text);
  return path;
}

const lines = (r: ValidationReport, which: 'issues' | 'warnings' = 'issues'): string[] =>
  r[which].map((i) => formatDataIssue(i).replace(/^.*?-(\w+\.\w+)/, '$1'));

const store = (extra: Record<string, unknown>): Record<string, unknown> => ({
  '@type': 'Store',
  branchCode: 'b1',
  name: 'Shop',
  geo: { latitude: 40.7, longitude: -74 },
  ...extra,
});

const jsonld = (...nodes: Record<string, unknown>[]): string => JSON.stringify({ '@context': 'https://schema.org', '@graph': nodes });

async function checkJsonLd(...nodes: Record<string, unknown>[]): Promise<ValidationReport> {
  return validateFiles([file('s.jsonld', jsonld(...nodes))]);
}

describe('JSON-LD errors name file, node and field', () => {
  it('reports malformed values by node number and schema.org path', async () => {
    const r = await checkJsonLd(
      { '@type': 'WebPage', name: 'skipped but counted' },
      store({
        openingHoursSpecification: [
          { dayOfWeek: 'Funday', opens: '09:00', closes: '17:00' },
          { dayOfWeek: 'Monday', opens: '25:00', closes: '17:00' },
        ],
      }),
      { '@type': 'Store', name: 'no id' },
      store({ branchCode: 'b3', name: undefined, geo: { latitude: 'north', longitude: 2 } }),
      {
        '@type': 'Store',
        branchCode: 'b4',
        name: 'No geo',
        openingHoursSpecification: { dayOfWeek: 'Monday', opens: '09:00', closes: '17:00' },
      },
    );
    expect(r.ok).toBe(false);
    expect(lines(r)).toEqual([
      's.jsonld node 2 openingHoursSpecification[0].dayOfWeek: "Funday" is not a day of the week; use Monday … Sunday or https://schema.org/Monday …',
      's.jsonld node 2 openingHoursSpecification[1].opens: "25:00" is not a time of day (00:00-24:00)',
      's.jsonld node 3 branchCode (or identifier, or @id): is required (a stable, unique location identifier)',
      's.jsonld node 4 geo.latitude: must be a decimal number of degrees, got a string ("north")',
      's.jsonld node 4 name: is required',
      expect.stringMatching(
        /^s\.jsonld node 5 openingHoursSpecification: the record has opening hours but no coordinates, so its time zone cannot be derived \(it is never guessed\); add geo/,
      ),
    ]);
  });

  it('reports broken JSON, and duplicate ids across files', async () => {
    const broken = await validateFiles([file('b.jsonld', '{\n  "@type": "Store",\n  "name": oops\n}')]);
    expect(lines(broken)).toEqual([expect.stringMatching(/^b\.jsonld:1: invalid JSON.*: Unexpected token/)]);
    const dup = await validateFiles([file('a.jsonld', jsonld(store({}))), file('c.jsonld', jsonld(store({})))]);
    expect(dup.issues.map((i) => [i.unit, i.line, i.field])).toEqual([['node', 1, 'branchCode (or identifier, or @id)']]);
    expect(dup.issues[0]?.message).toMatch(/a\.jsonld node 1\b/);
  });

  it('an import with an error writes nothing; the previous dataset stays', async () => {
    const db = await SqliteLocationStore.open(join(dir(), 'all-or-nothing.db'));
    try {
      await importFiles(db, [file('good.jsonld', jsonld(store({})))]);
      const bad = file(
        'bad.jsonld',
        jsonld(
          store({ branchCode: 'b2' }),
          store({ branchCode: 'b3', openingHoursSpecification: { dayOfWeek: 'Monday', opens: 'nine', closes: '17:00' } }),
        ),
      );
      await expect(importFiles(db, [bad])).rejects.toBeInstanceOf(DataValidationError);
      expect([...(await db.resolveIds(['b1', 'b2'])).keys()]).toEqual(['b1']);
    } finally {
      await db.close();
    }
  });
});

describe('JSON-LD: what UCP cannot express is a warning, never an approximation', () => {
  it.each([
    ['seconds', { dayOfWeek: 'Monday', opens: '09:00:30', closes: '17:00' }, 'openingHoursSpecification.opens', 'has seconds'],
    ['a UTC offset', { dayOfWeek: 'Monday', opens: '09:00+01:00', closes: '17:00' }, 'openingHoursSpecification.opens', 'UTC offset'],
    [
      'an open-ended dated entry',
      { validFrom: '2027-06-01', opens: '09:00', closes: '17:00' },
      'openingHoursSpecification.validThrough',
      'open-ended',
    ],
    [
      'seasonal weekdays',
      { validFrom: '2027-06-01', validThrough: '2027-08-31', dayOfWeek: 'Monday', opens: '09:00', closes: '17:00' },
      'openingHoursSpecification.dayOfWeek',
      'seasonal',
    ],
    [
      'PublicHolidays',
      { dayOfWeek: 'https://schema.org/PublicHolidays', opens: '10:00', closes: '14:00' },
      'openingHoursSpecification.dayOfWeek',
      'PublicHolidays',
    ],
  ])('%s: imported without hours, with a warning', async (_what, spec, field, words) => {
    const r = await checkJsonLd(store({ openingHoursSpecification: spec }));
    expect(r.ok).toBe(true);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatchObject({ unit: 'node', line: 1, field });
    expect(r.warnings[0]?.message).toContain(words);
    expect(r.warnings[0]?.message).toContain('imported without opening hours');
  });

  it('reads 24:00 as the end of the day, and a dated entry whose dayOfWeek covers every date of its range', async () => {
    const path = file(
      'ok.jsonld',
      jsonld(
        store({
          openingHoursSpecification: [
            { dayOfWeek: 'Monday', opens: '09:00', closes: '24:00' },
            { dayOfWeek: 'Tuesday', opens: '00:00', closes: '24:00' },
            { validFrom: '2026-12-24', validThrough: '2026-12-24', dayOfWeek: 'Thursday', opens: '09:00', closes: '13:00' },
          ],
        }),
      ),
    );
    const records = [];
    for await (const record of readRecords([path])) records.push(record);
    expect(records.map((r) => [r.timezone, r.hours, r.exception_hours])).toEqual([
      [
        'America/New_York',
        [
          { day: 'monday', opens: '09:00', closes: '00:00' },
          { day: 'tuesday', opens: '00:00', closes: '23:59' },
        ],
        [{ valid_from: '2026-12-24', valid_through: '2026-12-24', opens: '09:00', closes: '13:00' }],
      ],
    ]);
  });

  it('accepts LocalBusiness subtypes by list, by suffix and as IRIs; counts skipped nodes', async () => {
    const r = await checkJsonLd(
      store({ '@type': 'https://schema.org/Pharmacy', branchCode: 'p' }),
      store({ '@type': 'ThaiRestaurant', branchCode: 't' }),
      store({ '@type': ['Place', 'schema:ShoeStore'], branchCode: 's' }),
      { '@type': 'Organization', name: 'HQ' },
      { '@type': 'Organization', name: 'HQ 2' },
      { name: 'untyped' },
    );
    expect(r.records).toBe(3);
    expect(lines(r, 'warnings')).toEqual(['s.jsonld:0 @type: 3 node(s) skipped, not a LocalBusiness type: Organization ×2, (no @type) ×1']);
  });

  it('warns about unknown amenity features, disagreeing openingHours text and points at sea', async () => {
    const r = await checkJsonLd(
      store({
        amenityFeature: [
          { name: 'Ball pit', value: true },
          { name: 'Parking', value: 'maybe' },
        ],
        openingHoursSpecification: { dayOfWeek: 'Monday', opens: '09:00', closes: '17:00' },
        openingHours: 'Mo 09:00-18:00',
      }),
      store({ branchCode: 'sea', geo: { latitude: 0, longitude: -140 } }),
    );
    expect(r.ok).toBe(true);
    expect(lines(r, 'warnings')).toEqual([
      's.jsonld node 1 openingHours: differs from openingHoursSpecification, which was used',
      's.jsonld node 1 amenityFeature[0]: no amenity id for the feature "Ball pit"; it is skipped (give a propertyID such as "com.example.amenity.ballpit")',
      's.jsonld node 1 amenityFeature[1].value: a string ("maybe") is not true or false; the feature is skipped',
      expect.stringMatching(/^s\.jsonld node 2 geo: time zone Etc\/GMT\+9 derived from the coordinates: the point is at sea/),
    ]);
  });
});

const HEADER = 'Store code,Business name,Latitude,Longitude,Monday hours,Tuesday hours,Special hours,Labels';

describe('Google Business Profile sheet errors name file, line and column', () => {
  it('reports cell problems by line and column, in the sheet’s own words', async () => {
    const r = await validateFiles(
      [
        file(
          'gbp.csv',
          [
            HEADER,
            'A1,Shop,40.7,-74,9am-5pm,x,,west',
            'A2,Shop,40.7,,09:00-17:00,,,',
            'A3,Shop,,,09:00-17:00,,,',
            'A4,Shop,40.7,-74,09:00-09:00,,"2026-12-25: x, 10:00-12:00",',
            ',Shop,40.7,-74,,,"25.12.2026: x",',
          ].join('\n'),
        ),
      ],
      { format: 'gbp' },
    );
    expect(lines(r)).toEqual([
      'gbp.csv:2 Monday hours: "9am-5pm" is not a range HH:MM-HH:MM; write ranges like 09:00-17:00 (several separated by commas), 00:00-24:00 for all day, or x for closed',
      'gbp.csv:3 Longitude: is empty while Latitude is set; give both or neither',
      expect.stringMatching(/^gbp\.csv:4 Monday hours…Special hours: the record has opening hours but no coordinates.*"Time zone" column/),
      'gbp.csv:5 Monday hours: opens and closes are both 09:00; for a whole day write 00:00-23:59; write ranges like 09:00-17:00 (several separated by commas), 00:00-24:00 for all day, or x for closed',
      'gbp.csv:5 Special hours: 2026-12-25 is both closed (x) and open (10:00-12:00); keep one',
      'gbp.csv:6 Special hours: "25.12.2026: x" does not start with a date; write YYYY-MM-DD: HH:MM-HH:MM or YYYY-MM-DD: x',
      'gbp.csv:6 Store code: is required (a stable, unique location identifier)',
    ]);
    expect(lines(r, 'warnings')).toEqual(['gbp.csv:1: column(s) with no UCP counterpart, ignored: Labels']);
  });

  it('refuses a header with a misspelt column (its data would be lost) or without Store code', async () => {
    const r = await validateFiles([file('typo.csv', 'Store code,Business name,Monday hour\nA,B,x\n')], { format: 'gbp' });
    expect(lines(r)).toEqual(['typo.csv:1 Monday hour: unknown column "Monday hour"; did you mean "Monday hours"?']);
    const none = await validateFiles([file('nocode.csv', 'Name,Business name\nA,B\n')], { format: 'gbp' });
    expect(lines(none)).toEqual([
      'nocode.csv:1 Store code: the header has no "Store code" column (the first line must be the sheet\'s header row)',
    ]);
  });

  it('takes a "Time zone" column when a row has no coordinates', async () => {
    const r = await validateFiles([file('tz.csv', 'Store code,Business name,Monday hours,Time zone\nA,B,09:00-17:00,America/Denver\n')], {
      format: 'gbp',
    });
    expect(r.ok).toBe(true);
  });
});

// ─────────── the steps shared with every converted format: zones, --strict, --dry-run ───────────

const shop = (id: string, latitude: number, longitude: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  '@type': 'Store',
  branchCode: id,
  name: `Shop ${id}`,
  geo: { latitude, longitude },
  openingHoursSpecification: { dayOfWeek: 'Monday', opens: '09:00', closes: '17:00' },
  ...extra,
});

// New York, Berlin, and a point in the open Pacific (only a nautical zone applies there).
const JSONLD = jsonld(
  shop('nyc', 40.7075, -74.0113),
  shop('ber', 52.52, 13.405, { amenityFeature: [{ name: 'Ball pit', value: true }] }),
  shop('sea', 0, -140),
);

const GBP = [
  'Store code,Business name,Latitude,Longitude,Monday hours,Website',
  'SEA-01,Pike Place,47.6097,-122.3422,08:00-20:00,https://example.com',
  'TYO-01,Shibuya,35.658,139.7016,10:00-21:00,',
].join('\n');

describe('JSON-LD and Business Profile sheets go through the shared zone and warning steps', () => {
  it('JSON-LD: zones derived from geo are counted in the report; the at-sea zone and the unknown feature are warnings', async () => {
    const r = await validateFiles([file('s.jsonld', JSONLD)], { format: 'jsonld' });
    expect(r.ok).toBe(true);
    expect(r.timezones).toEqual([
      { timezone: 'America/New_York', records: 1 },
      { timezone: 'Etc/GMT+9', records: 1 },
      { timezone: 'Europe/Berlin', records: 1 },
    ]);
    expect(lines(r, 'warnings')).toEqual([
      's.jsonld node 2 amenityFeature[0]: no amenity id for the feature "Ball pit"; it is skipped (give a propertyID such as "com.example.amenity.ballpit")',
      expect.stringMatching(/^s\.jsonld node 3 geo: time zone Etc\/GMT\+9 derived from the coordinates: the point is at sea/),
    ]);
  });

  it('JSON-LD with strict: the same warnings are problems, so nothing can be imported', async () => {
    const path = file('s.jsonld', JSONLD);
    const r = await validateFiles([path], { format: 'jsonld', strict: true });
    expect(r.ok).toBe(false);
    expect(r.warningCount).toBe(0);
    expect(lines(r)).toEqual([
      expect.stringMatching(/^s\.jsonld node 2 amenityFeature\[0\]: no amenity id .* \(an error because of --strict\)$/),
      expect.stringMatching(/^s\.jsonld node 3 geo: time zone Etc\/GMT\+9 derived .* \(an error because of --strict\)$/),
    ]);
    const db = await SqliteLocationStore.open(join(dir(), `strict-${n}.db`));
    try {
      await expect(importFiles(db, [path], { format: 'jsonld', strict: true })).rejects.toThrow(/because of --strict/);
      expect((await db.stats()).locations).toBe(0);
    } finally {
      await db.close();
    }
  });

  it('Business Profile sheet: zones from Latitude/Longitude are counted; strict makes the ignored column a problem on the header line', async () => {
    const path = file('gbp.csv', GBP);
    const lenient = await validateFiles([path], { format: 'gbp' });
    expect(lenient.ok).toBe(true);
    expect(lenient.timezones).toEqual([
      { timezone: 'America/Los_Angeles', records: 1 },
      { timezone: 'Asia/Tokyo', records: 1 },
    ]);
    expect(lines(lenient, 'warnings')).toEqual(['gbp.csv:1: column(s) with no UCP counterpart, ignored: Website']);
    const strict = await validateFiles([path], { format: 'gbp', strict: true });
    expect(strict.ok).toBe(false);
    expect(lines(strict)).toEqual(['gbp.csv:1: column(s) with no UCP counterpart, ignored: Website (an error because of --strict)']);
  });

  it('a stated zone is kept (Business Profile "Time zone" column): nothing derived, nothing counted', async () => {
    const r = await validateFiles(
      [
        file(
          'gbp.csv',
          'Store code,Business name,Latitude,Longitude,Monday hours,Time zone\nX,Shop,47.6,-122.3,09:00-17:00,America/Denver',
        ),
      ],
      {
        format: 'gbp',
      },
    );
    expect(r.ok).toBe(true);
    expect(r.timezones).toEqual([]);
  });
});

describe('dry run of a converted format against a store', () => {
  let db: SqliteLocationStore;

  beforeAll(async () => {
    db = await SqliteLocationStore.open(join(dir(), 'dry.db'));
    await importFiles(db, [file('s.jsonld', jsonld(shop('nyc', 40.7075, -74.0113), shop('ber', 52.52, 13.405)))], { format: 'jsonld' });
  });
  afterAll(async () => {
    await db.close();
  });

  it('lists added, removed and changed Locations (a new zone shows as a changed timezone) and writes nothing', async () => {
    const before = await db.generation();
    const next = file('s.jsonld', jsonld(shop('nyc', 40.7075, -74.0113), shop('ber', 48.8566, 2.3522), shop('tyo', 35.658, 139.7016)));
    const checked = await validateFiles([next], { format: 'jsonld' });
    const diff = await diffValidated(db, checked);
    expect(diff).toMatchObject({ added: ['tyo'], removed: [], unchanged: 1 });
    expect(diff.changed).toEqual([{ id: 'ber', fields: ['geo', 'timezone'] }]);
    expect(await db.generation()).toBe(before);
  });
});
