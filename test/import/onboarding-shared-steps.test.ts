/**
 * The steps every converted format shares with OpenStreetMap: zones derived from coordinates by
 * the pipeline (counted in the report), one warnings list that `strict` turns into problems, and
 * the dry-run diff against a store. JSON-LD and Business Profile sheets here; osm has its own
 * end-to-end file (test/e2e/osm-import.test.ts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffValidated, importFiles, validateFiles } from '../../src/data/import.js';
import { formatDataIssue } from '../../src/errors.js';
import { SqliteLocationStore } from '../../src/store/sqlite/index.js';
import { useScratchDir } from '../support/scratch.js';

const dir = useScratchDir('onboarding-shared');
let n = 0;

function file(name: string, text: string): string {
  const path = join(dir(), `${++n}-${name}`);
  writeFileSync(path, text);
  return path;
}

const shop = (id: string, latitude: number, longitude: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  '@type': 'Store',
  branchCode: id,
  name: `Shop ${id}`,
  geo: { latitude, longitude },
  openingHoursSpecification: { dayOfWeek: 'Monday', opens: '09:00', closes: '17:00' },
  ...extra,
});

const jsonld = (...nodes: Record<string, unknown>[]): string => JSON.stringify({ '@context': 'https://schema.org', '@graph': nodes });

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

const text = (issues: readonly Parameters<typeof formatDataIssue>[0][]): string[] =>
  issues.map((i) => formatDataIssue(i).replace(/^.*?-(\w+\.\w+)/, '$1'));

describe('JSON-LD and Business Profile sheets go through the shared zone and warning steps', () => {
  it('JSON-LD: zones derived from geo are counted in the report; the at-sea zone and the unknown feature are warnings', async () => {
    const r = await validateFiles([file('s.jsonld', JSONLD)], { format: 'jsonld' });
    expect(r.ok).toBe(true);
    expect(r.timezones).toEqual([
      { timezone: 'America/New_York', records: 1 },
      { timezone: 'Etc/GMT+9', records: 1 },
      { timezone: 'Europe/Berlin', records: 1 },
    ]);
    expect(text(r.warnings)).toEqual([
      's.jsonld node 2 amenityFeature[0]: no amenity id for the feature "Ball pit"; it is skipped (give a propertyID such as "com.example.amenity.ballpit")',
      expect.stringMatching(/^s\.jsonld node 3 geo: time zone Etc\/GMT\+9 derived from the coordinates: the point is at sea/),
    ]);
  });

  it('JSON-LD with strict: the same warnings are problems, so nothing can be imported', async () => {
    const path = file('s.jsonld', JSONLD);
    const r = await validateFiles([path], { format: 'jsonld', strict: true });
    expect(r.ok).toBe(false);
    expect(r.warningCount).toBe(0);
    expect(text(r.issues)).toEqual([
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
    expect(text(lenient.warnings)).toEqual(['gbp.csv:1: column(s) with no UCP counterpart, ignored: Website']);
    const strict = await validateFiles([path], { format: 'gbp', strict: true });
    expect(strict.ok).toBe(false);
    expect(text(strict.issues)).toEqual(['gbp.csv:1: column(s) with no UCP counterpart, ignored: Website (an error because of --strict)']);
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
