import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScratchDir } from '../../test/support/scratch.js';
import { SqliteLocationStore } from '../store/sqlite/index.js';
import { importFiles, validateFiles } from './import.js';
import { loadAmenityMap } from './osm-amenities.js';
import { osmFeatureToRaw, type OsmOptions } from './osm.js';

const OPTIONS: OsmOptions = { now: Date.UTC(2026, 11, 1), holidayHorizonDays: 365 };
const point = { type: 'Point', coordinates: [13.4, 52.5] };

function feature(properties: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'Feature', geometry: point, properties, ...extra };
}

describe('osmFeatureToRaw', () => {
  it.each([
    ['a feature id node/123', feature({ name: 'A' }, { id: 'node/123' }), 'osm-node-123'],
    ['an Overpass "@id"', feature({ '@id': 'way/77', name: 'A' }), 'osm-way-77'],
    ['osmtogeojson type + numeric id', feature({ type: 'relation', id: 9, tags: { name: 'A' } }), 'osm-relation-9'],
    ['osmium n123', feature({ name: 'A' }, { id: 'n123' }), 'osm-node-123'],
    ['osm_type + osm_id', feature({ osm_type: 'W', osm_id: 5, name: 'A' }), 'osm-way-5'],
  ])('derives the id from %s', (_label, f, id) => {
    expect(osmFeatureToRaw(f, OPTIONS).raw?.['id']).toBe(id);
  });

  it('uses the --id-tag value as id and keeps the OSM id as an alias; a feature without the tag is an error naming it', () => {
    const withRef = osmFeatureToRaw(feature({ name: 'A', 'ref:store': 'S-1' }, { id: 'node/1' }), { ...OPTIONS, idTag: 'ref:store' });
    expect(withRef.raw).toMatchObject({ id: 'S-1', aliases: ['osm-node-1'] });
    const without = osmFeatureToRaw(feature({ tags: { name: 'A' }, type: 'node', id: 2 }), { ...OPTIONS, idTag: 'ref:store' });
    expect(without.issues).toEqual([{ field: 'properties.tags.ref:store', about: 'id', message: expect.stringContaining('--id-tag ref:store') }]);
  });

  it('maps name (brand when there is none), address tags, phone, keywords and amenities', () => {
    const { raw, issues } = osmFeatureToRaw(
      feature(
        {
          brand: 'Kiezkaffee',
          amenity: 'cafe',
          cuisine: 'coffee_shop;cake',
          'addr:street': 'Broadway',
          'addr:housenumber': '1500',
          'addr:unit': 'Suite 2',
          'addr:city': 'New York',
          'addr:state': 'NY',
          'addr:postcode': '10036',
          'addr:country': 'us',
          'contact:phone': '+1 212 555 0100;+1 212 555 0101',
          wheelchair: 'yes',
          internet_access: 'terminal;wlan',
          drive_through: 'no',
          website: 'https://example.com',
        },
        { id: 'node/1' },
      ),
      OPTIONS,
    );
    expect(issues).toEqual([]);
    expect(raw).toEqual({
      id: 'osm-node-1',
      name: 'Kiezkaffee',
      address: {
        street_address: '1500 Broadway',
        extended_address: 'Suite 2',
        address_locality: 'New York',
        address_region: 'NY',
        postal_code: '10036',
        address_country: 'US',
        phone_number: '+1 212 555 0100',
      },
      geo: { latitude: 52.5, longitude: 13.4 },
      amenities: {
        'org.openstreetmap.amenity.wheelchair_accessible': { description: 'Wheelchair accessible' },
        'dev.ucp.amenity.wi_fi': { description: 'Wi-Fi' },
      },
      keywords: ['Kiezkaffee', 'cafe', 'coffee shop', 'cake'],
    });
    const german = osmFeatureToRaw(feature({ name: 'B', 'addr:street': 'Unter den Linden', 'addr:housenumber': '10', 'addr:country': 'DE' }, { id: 'node/2' }), OPTIONS);
    expect(german.raw?.['address']).toEqual({ street_address: 'Unter den Linden 10', address_country: 'DE' });
  });

  it('takes the centroid of a building outline (Polygon, MultiPolygon) as the point', () => {
    const square = [[[10, 50], [10.002, 50], [10.002, 50.001], [10, 50.001], [10, 50]]];
    const poly = osmFeatureToRaw(feature({ name: 'A' }, { id: 'way/1', geometry: { type: 'Polygon', coordinates: square } }), OPTIONS);
    expect(poly.raw?.['geo']).toEqual({ latitude: expect.closeTo(50.0005, 9), longitude: expect.closeTo(10.001, 9) });
    // Two outlines, the second three times the area of the first: the point leans towards it.
    const big = [[[20, 50], [20.006, 50], [20.006, 50.001], [20, 50.001], [20, 50]]];
    const multi = osmFeatureToRaw(feature({ name: 'A' }, { id: 'relation/1', geometry: { type: 'MultiPolygon', coordinates: [square, big] } }), OPTIONS);
    expect(multi.raw?.['geo']).toEqual({ latitude: expect.closeTo(50.0005, 9), longitude: expect.closeTo((10.001 + 3 * 20.003) / 4, 9) });
    const line = osmFeatureToRaw(feature({ name: 'A' }, { id: 'way/2', geometry: { type: 'LineString', coordinates: [[0, 0], [1, 1]] } }), OPTIONS);
    expect(line.issues).toEqual([{ field: 'geometry', message: expect.stringContaining('must be a Point, Polygon or MultiPolygon') }]);
  });

  it('turns opening_hours into hours, warns (and drops the hours) for what UCP cannot state, and refuses hours without a geometry', () => {
    const ok = osmFeatureToRaw(feature({ name: 'A', opening_hours: 'Mo 09:00-17:00' }, { id: 'node/1' }), OPTIONS);
    expect(ok.raw?.['hours']).toEqual([{ day: 'monday', opens: '09:00', closes: '17:00' }]);
    const sun = osmFeatureToRaw(feature({ name: 'A', opening_hours: 'sunrise-sunset' }, { id: 'node/1' }), OPTIONS);
    expect(sun.issues).toEqual([]);
    expect(sun.raw?.['hours']).toBeUndefined();
    expect(sun.warnings).toEqual([{ field: 'properties.opening_hours', message: expect.stringMatching(/"sunrise-sunset" is not imported \(.*sun.*\); the Location is imported without hours/) }]);
    const nowhere = osmFeatureToRaw(feature({ name: 'A', opening_hours: 'Mo 09:00-17:00' }, { id: 'node/1', geometry: null }), OPTIONS);
    expect(nowhere.issues).toEqual([{ field: 'geometry', message: expect.stringContaining('never guessed') }]);
  });

  it('reports a feature without any name as an error on its name tag', () => {
    expect(osmFeatureToRaw(feature({ shop: 'bakery' }, { id: 'node/1' }), OPTIONS).issues).toEqual([
      { field: 'properties.name', about: 'name', message: expect.stringContaining('no brand tag') },
    ]);
  });
});

describe('import --format osm through the pipeline', () => {
  const scratch = useScratchDir('osm-pipeline');
  const write = (name: string, features: unknown[]): string => {
    const path = join(scratch(), name);
    writeFileSync(path, JSON.stringify({ type: 'FeatureCollection', features }));
    return path;
  };

  it('derives time zones, lists them, keeps warnings apart from problems, and --strict turns warnings into errors', async () => {
    const file = write('mixed.geojson', [
      feature({ name: 'Berlin', opening_hours: 'Mo-Fr 09:00-18:00' }, { id: 'node/1' }),
      feature({ name: 'Kiosk', opening_hours: 'Mo[1] 09:00-12:00' }, { id: 'node/2', geometry: { type: 'Point', coordinates: [-74, 40.7] } }),
    ]);
    const report = await validateFiles([file], { format: 'osm', now: OPTIONS.now });
    expect(report.ok).toBe(true);
    expect(report.timezones).toEqual([
      { timezone: 'America/New_York', records: 1 },
      { timezone: 'Europe/Berlin', records: 1 },
    ]);
    expect(report.warnings).toEqual([{ file, line: 2, unit: 'feature', field: 'properties.opening_hours', message: expect.stringContaining('Mo[1]') }]);
    const strict = await validateFiles([file], { format: 'osm', now: OPTIONS.now, strict: true });
    expect(strict.ok).toBe(false);
    expect(strict.issues).toEqual([{ file, line: 2, unit: 'feature', field: 'properties.opening_hours', message: expect.stringContaining('(an error because of --strict)') }]);
  });

  it('names file, feature and field for every problem, and rejects the whole file', async () => {
    const file = write('bad.geojson', [
      feature({ name: 'Good' }, { id: 'node/1' }),
      feature({ opening_hours: 'Mo 09:00-17:00' }, { id: 'node/2', geometry: null }),
      feature({ name: 'Dup' }, { id: 'node/1' }),
    ]);
    const report = await validateFiles([file], { format: 'osm' });
    expect(report.ok).toBe(false);
    expect(report.issues.map((i) => `${i.line} ${i.field}`)).toEqual(['2 properties.name', '2 geometry', '3 id']);
  });

  it('derives time zones for our own formats only when asked (--derive-timezone)', async () => {
    const path = join(scratch(), 'own.ndjson');
    writeFileSync(path, `${JSON.stringify({ id: 'a', name: 'A', geo: { latitude: 35.68, longitude: 139.77 }, hours: [{ day: 'monday', opens: '09:00', closes: '17:00' }] })}\n`);
    const plain = await validateFiles([path]);
    expect(plain.issues).toEqual([expect.objectContaining({ field: 'timezone', message: expect.stringContaining('timezone is required') })]);
    const derived = await validateFiles([path], { deriveTimezone: true });
    expect(derived).toMatchObject({ ok: true, timezones: [{ timezone: 'Asia/Tokyo', records: 1 }] });
    const noGeo = join(scratch(), 'nogeo.ndjson');
    writeFileSync(noGeo, `${JSON.stringify({ id: 'a', name: 'A', hours: [] })}\n`);
    expect((await validateFiles([noGeo], { deriveTimezone: true })).issues).toEqual([expect.objectContaining({ field: 'timezone' })]);
  });

  it('reads an --amenity-map file over the default table and refuses a malformed one', async () => {
    const path = join(scratch(), 'amenities.json');
    writeFileSync(path, JSON.stringify({ 'wheelchair=yes': null, 'car_wash=yes': { id: 'com.example.amenity.car_wash', description: 'Car wash' } }));
    const map = await loadAmenityMap(path);
    const { raw } = osmFeatureToRaw(feature({ name: 'A', wheelchair: 'yes', car_wash: 'yes' }, { id: 'node/1' }), { ...OPTIONS, amenityMap: map });
    expect(raw?.['amenities']).toEqual({ 'com.example.amenity.car_wash': { description: 'Car wash' } });
    writeFileSync(path, JSON.stringify({ wheelchair: { id: 'x', description: 'X' } }));
    await expect(loadAmenityMap(path)).rejects.toThrow(/key "wheelchair" must be "tag=value"/);
  });

  it('writes the same Locations whether pass 2 runs on a worker thread or here, also when the machine zone has DST', async () => {
    const file = join(scratch(), 'workers.geojson');
    writeFileSync(file, readFileSync(new URL('../../examples/osm/stores.geojson', import.meta.url)));
    const stored = async (options: Parameters<typeof importFiles>[2]): Promise<unknown> => {
      const store = await SqliteLocationStore.open(':memory:');
      try {
        await importFiles(store, [file], { format: 'osm', now: OPTIONS.now, ...options });
        return await store.storedLocations();
      } finally {
        await store.close();
      }
    };
    const here = await stored({ workers: 1 });
    expect(await stored({ workers: 2, parallelMinBytes: 0 })).toEqual(here);
    const saved = process.env['TZ'];
    process.env['TZ'] = 'Europe/London';
    try {
      expect(await stored({ workers: 2, parallelMinBytes: 0 })).toEqual(here);
    } finally {
      process.env['TZ'] = saved;
    }
  });
});
