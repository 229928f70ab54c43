import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FeatureCollectionScanner, featureToRaw, geoJsonFieldOf, scanGeoJson, type GeoJsonEntry } from './geojson.js';

function scanInChunks(text: string, cuts: number[]): GeoJsonEntry[] {
  const scanner = new FeatureCollectionScanner();
  const out: GeoJsonEntry[] = [];
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    scanner.feed(text.slice(from, cut), out);
    from = cut;
  }
  scanner.feed(text.slice(from), out);
  scanner.end(out);
  return out;
}

const feature = (id: string, lon: number, lat: number, extra: Record<string, unknown> = {}) => ({
  type: 'Feature',
  geometry: { type: 'Point', coordinates: [lon, lat] },
  properties: { id, name: `Store ${id}`, ...extra },
});

describe('GeoJSON FeatureCollection scanner', () => {
  it('hands out each feature, numbered from 1, whatever the member order and extra members', () => {
    const text = JSON.stringify({ bbox: [0, 0, 1, 1], features: [feature('a', 1, 2), feature('b', 3, 4)], name: 'x', type: 'FeatureCollection' }, null, 2);
    const entries = scanGeoJson(text);
    expect(entries).toEqual([
      { feature: 1, value: feature('a', 1, 2) },
      { feature: 2, value: feature('b', 3, 4) },
    ]);
  });

  it('gives the same features however the text is split into chunks (property)', () => {
    const value = fc.jsonValue({ maxDepth: 3 });
    const features = fc.array(fc.record({ type: fc.constant('Feature'), geometry: fc.constant(null), properties: fc.dictionary(fc.string({ maxLength: 5 }), value, { maxKeys: 3 }) }), { maxLength: 5 });
    fc.assert(
      fc.property(features, fc.array(fc.nat(), { maxLength: 6 }), fc.boolean(), (fs, rawCuts, pretty) => {
        const text = JSON.stringify({ type: 'FeatureCollection', features: fs }, null, pretty ? 1 : undefined);
        const cuts = rawCuts.map((c) => c % (text.length + 1));
        const entries = scanInChunks(text, cuts);
        expect(entries).toEqual(fs.map((f, i) => ({ feature: i + 1, value: JSON.parse(JSON.stringify(f)) as unknown })));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps escaped quotes and backslashes inside strings when a chunk boundary falls anywhere in them', () => {
    const tricky = feature('a', 1, 2, { title: 'a\\"b\\\\"c\\\\\\', note: '}{][' });
    const text = JSON.stringify({ type: 'FeatureCollection', features: [tricky, feature('b', 3, 4)] });
    for (let cut = 0; cut <= text.length; cut++) {
      for (const second of [cut, Math.min(text.length, cut + 1), Math.min(text.length, cut + 2)]) {
        expect(scanInChunks(text, [cut, second])).toEqual([
          { feature: 1, value: tricky },
          { feature: 2, value: feature('b', 3, 4) },
        ]);
      }
    }
  });

  it('reports a broken feature by its number and goes on with the next', () => {
    const text = `{"type":"FeatureCollection","features":[${JSON.stringify(feature('a', 1, 2))},{"type":"Feature","properties":{"id":"b",}},${JSON.stringify(feature('c', 1, 2))}]}`;
    const entries = scanGeoJson(text);
    expect(entries).toHaveLength(3);
    expect(entries[1]).toEqual({ feature: 2, issue: { field: '', message: expect.stringContaining('invalid JSON in feature 2') as unknown } });
    expect(entries[2]).toMatchObject({ feature: 3 });
  });

  it('reports envelope problems with the physical line', () => {
    expect(scanGeoJson('{"type":"FeatureCollection",\n"features":[]\n"x":1}')).toEqual([{ line: 3, issue: { field: '', message: expect.stringContaining('expected "," or "}"') as unknown } }]);
    expect(scanGeoJson('{"type":"FeatureCollection","features":[{"type":"Feature"')).toEqual([{ line: 1, issue: { field: '', message: expect.stringContaining('truncated') as unknown } }]);
    expect(scanGeoJson('{"type":"Feature","features":[]}')).toEqual([{ line: 0, issue: { field: 'type', message: expect.stringContaining('"FeatureCollection"') as unknown } }]);
    expect(scanGeoJson('{"type":"FeatureCollection"}')).toEqual([{ line: 0, issue: { field: 'features', message: expect.stringContaining('no "features"') as unknown } }]);
    expect(scanGeoJson('[]')[0]).toMatchObject({ line: 1, issue: { message: expect.stringContaining('FeatureCollection object') as unknown } });
  });
});

describe('featureToRaw', () => {
  it('maps properties to the record and [longitude, latitude] to geo', () => {
    expect(featureToRaw(feature('a', -74.011, 40.707, { timezone: 'America/New_York' }))).toEqual({
      raw: { id: 'a', name: 'Store a', timezone: 'America/New_York', geo: { latitude: 40.707, longitude: -74.011 } },
      issues: [],
    });
  });

  it('uses a feature-level id when properties has none, and a null geometry means no geo', () => {
    expect(featureToRaw({ type: 'Feature', id: 'x', geometry: null, properties: { name: 'X' } })).toEqual({ raw: { name: 'X', id: 'x' }, issues: [] });
  });

  it('rejects non-Point geometry, geo inside properties and conflicting ids', () => {
    expect(featureToRaw({ type: 'Feature', geometry: { type: 'Polygon', coordinates: [] }, properties: { id: 'a', name: 'A' } }).issues).toEqual([
      { field: 'geometry', message: expect.stringContaining('must be a Point') as unknown },
    ]);
    expect(featureToRaw({ ...feature('a', 1, 2), properties: { id: 'a', name: 'A', geo: {} } }).issues[0]?.field).toBe('properties.geo');
    expect(featureToRaw({ ...feature('a', 1, 2), id: 'b' }).issues[0]?.field).toBe('id');
    expect(featureToRaw({ type: 'Point', coordinates: [1, 2] }).issues[0]?.message).toContain('GeoJSON Feature');
  });

  it('names coordinates the GeoJSON way in messages', () => {
    expect(geoJsonFieldOf('geo.latitude')).toBe('geometry.coordinates[1]');
    expect(geoJsonFieldOf('geo.longitude')).toBe('geometry.coordinates[0]');
    expect(geoJsonFieldOf('hours[0].day')).toBe('hours[0].day');
  });
});
