/**
 * The import pipeline and the inventory feed against the real SQLite store, in temp files:
 * every bad-file class is rejected with file, line and field, and the previous dataset is intact.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { useScratchDir } from '../../test/support/scratch.js';
import { ConfigError, DataValidationError, type DataIssue } from '../errors.js';
import { toPublicLocation, type Location, type LocationRecord } from '../domain/location.js';
import type { ImportProgress, LocationStore, StoreStats } from '../store/store.js';
import { SqliteLocationStore } from '../store/sqlite/index.js';
import { toCsv, toGeoJSON } from './export.js';
import { importFiles, readRecords, validateFiles, writeValidated } from './import.js';
import { applyInventoryFile, readInventory } from './inventory.js';
import { DOWNTOWN } from './test-support/canonical-record.js';

const DEMO = fileURLToPath(new URL('../../data/demo.ndjson', import.meta.url));
const DEMO_INVENTORY = fileURLToPath(new URL('../../data/demo-inventory.csv', import.meta.url));

const scratch = useScratchDir('ucp-import');
const open: LocationStore[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

let counter = 0;
function file(name: string, content: string): string {
  counter += 1;
  const path = join(scratch(), `${counter}-${name}`);
  writeFileSync(path, content);
  return path;
}

async function newStore(): Promise<LocationStore> {
  counter += 1;
  const store = await SqliteLocationStore.open(join(scratch(), `store-${counter}.db`));
  open.push(store);
  return store;
}

async function demoRecords(): Promise<LocationRecord[]> {
  const out: LocationRecord[] = [];
  for await (const r of readRecords([DEMO])) out.push(r);
  return out;
}

interface Snapshot {
  stats: Omit<StoreStats, 'generation'>;
  locations: Location[];
  /** item → ids of public locations where it is available. */
  availability: Record<string, string[]>;
}

/** Everything a client can observe through the store port, for the given ids and items. */
async function snapshot(store: LocationStore, ids: readonly string[], items: readonly string[]): Promise<Snapshot> {
  const { generation: _generation, ...stats } = await store.stats();
  const resolved = await store.resolveIds(ids);
  const keys = [...new Set([...resolved.values()].flat())];
  const locations = (await store.getLocations(keys)).sort((a, b) => a.id.localeCompare(b.id));
  const availability: Record<string, string[]> = {};
  for (const item of items) {
    availability[item] = (await store.findCandidates({ keys, items: [item] })).map((c) => c.id).sort();
  }
  return { stats, locations, availability };
}

function allItems(records: readonly LocationRecord[]): string[] {
  return [...new Set(records.flatMap((r) => r.items ?? []))].sort();
}

/** Where an issue must be, and a pattern for its message. */
type ExpectedIssue = Omit<Partial<DataIssue>, 'message'> & { message: RegExp };

async function rejection(promise: Promise<unknown>): Promise<readonly DataIssue[]> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DataValidationError);
  return (error as DataValidationError).issues;
}

describe('importFiles', () => {
  it('imports the demo dataset: public Locations as projected, private ones hidden, seed examples present', async () => {
    const records = await demoRecords();
    const store = await newStore();
    const result = await importFiles(store, [DEMO]);
    expect(result).toMatchObject({ locations: 200, publicLocations: 194, records: 200, files: [{ file: DEMO, format: 'ndjson', records: 200 }] });
    const byId = new Map(records.map((r) => [r.id, r]));
    const resolved = await store.resolveIds(['loc_downtown', 'downtown-store', 'loc_valley_grocers', 'hub_newark']);
    expect(resolved.has('hub_newark')).toBe(false); // private (R-S11)
    const [downtown] = await store.getLocations(resolved.get('downtown-store') ?? []);
    expect(downtown).toEqual(toPublicLocation(byId.get('loc_downtown') as LocationRecord));
    const available = await store.findCandidates({ keys: resolved.get('loc_downtown') ?? [], items: ['item_id_phone_15_pro'] });
    expect(available.map((c) => c.id)).toEqual(['loc_downtown']);
  });

  it('the demo holds the seed examples: the contract record exactly, and Valley Grocers in LA open Mondays at 10:00', async () => {
    const byId = new Map((await demoRecords()).map((r) => [r.id, r]));
    // The contract record exactly, less its dated closure: the demo file carries no dates, the
    // server adds the coming holidays when it loads the demo (demo-holidays.ts).
    const { exception_hours: _dated, ...undated } = DOWNTOWN;
    expect(byId.get('loc_downtown')).toEqual(undated);
    const valley = byId.get('loc_valley_grocers');
    expect(valley).toMatchObject({ name: 'Valley Grocers', timezone: 'America/Los_Angeles', address: { address_region: 'CA', address_country: 'US' } });
    expect(valley?.hours).toContainEqual(expect.objectContaining({ day: 'monday', opens: '10:00' }));
    expect(valley?.keywords).toContain('grocery');
    // Demo coverage: several zones, private locations, the antimeridian.
    const records = [...byId.values()];
    expect(new Set(records.map((r) => r.timezone)).size).toBeGreaterThanOrEqual(10);
    expect(records.filter((r) => r.visibility === 'private').length).toBeGreaterThan(0);
    expect(records.some((r) => r.timezone === 'Asia/Kolkata') && records.some((r) => r.timezone === 'Pacific/Fiji')).toBe(true);
  });

  it('reports progress while it validates and writes in one pass, then done', async () => {
    const n = 25_000; // enough for the store to report writing progress
    const big = file('many.ndjson', Array.from({ length: n }, (_, i) => `{"id":"loc_${i}","name":"Store ${i}"}\n`).join(''));
    const store = await newStore();
    const seen: ImportProgress[] = [];
    await importFiles(store, [big], { onProgress: (p) => seen.push(p) });
    // One pass: no separate reading phase; the count grows as records are written.
    expect(seen.some((p) => p.phase === 'reading')).toBe(false);
    const writing = seen.filter((p) => p.phase === 'writing');
    expect(writing.length).toBeGreaterThan(0);
    expect(writing.every((p, i) => p.done <= n && (i === 0 || p.done > (writing[i - 1]?.done ?? 0)))).toBe(true);
    expect(seen.at(-1)).toMatchObject({ phase: 'done', done: n });
  });

  it('validating reports reading progress with the total at the end', async () => {
    const n = 2_000;
    const big = file('some.ndjson', Array.from({ length: n }, (_, i) => `{"id":"loc_${i}","name":"Store ${i}"}\n`).join(''));
    const seen: ImportProgress[] = [];
    await validateFiles([big], { onProgress: (p) => seen.push(p) });
    expect(seen.at(-1)).toEqual({ phase: 'reading', done: n, total: n });
    expect(seen.slice(0, -1).every((p) => p.phase === 'reading' && p.total === undefined && p.done <= n)).toBe(true);
  });

  it('importing the same file twice gives the same store, one generation later', async () => {
    const records = await demoRecords();
    const ids = records.map((r) => r.id);
    const items = allItems(records);
    const store = await newStore();
    const first = await importFiles(store, [DEMO]);
    const before = await snapshot(store, ids, items);
    const second = await importFiles(store, [DEMO]);
    expect(await snapshot(store, ids, items)).toEqual(before);
    expect(second.generation).toBeGreaterThan(first.generation);
  });

  it('GeoJSON and CSV exports of the demo import to the same Locations and availability as the NDJSON', async () => {
    const records = await demoRecords();
    const geojson = file('demo.geojson', JSON.stringify(toGeoJSON(records), null, 1));
    const csv = file('demo.csv', toCsv(records, { dropAreas: true }));

    // Record level: GeoJSON is lossless, CSV loses only coverage areas.
    const fromGeo: LocationRecord[] = [];
    for await (const r of readRecords([geojson])) fromGeo.push(r);
    expect(fromGeo).toEqual(records);
    const fromCsv: LocationRecord[] = [];
    for await (const r of readRecords([csv])) fromCsv.push(r);
    const withoutAreas = records.map((r) => {
      if (r.serves?.areas === undefined) return r;
      const { areas: _areas, ...serves } = r.serves;
      return { ...r, serves };
    });
    expect(fromCsv).toEqual(withoutAreas);

    // Store level: what a client can observe is identical.
    const ids = records.map((r) => r.id);
    const items = allItems(records);
    const snapshots: Snapshot[] = [];
    for (const f of [DEMO, geojson, csv]) {
      const store = await newStore();
      await importFiles(store, [f]);
      snapshots.push(await snapshot(store, ids, items));
    }
    expect(snapshots[1]).toEqual(snapshots[0]);
    expect(snapshots[2]).toEqual(snapshots[0]);
    expect(snapshots[0]?.locations).toHaveLength(194);
  });

  it('CSV export refuses to drop coverage areas silently', () => {
    const records: LocationRecord[] = [{ id: 'a', name: 'A', geo: { latitude: 0, longitude: 0 }, serves: { areas: [{ type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] }] } }];
    expect(() => toCsv(records)).toThrow(/serves\.areas/);
  });

  it('reads several files as one dataset, with duplicates across files reported', async () => {
    const lines = readFileSync(DEMO, 'utf8').trimEnd().split('\n');
    const a = file('a.ndjson', `${lines.slice(0, 100).join('\n')}\n`);
    const b = file('b.jsonl', `${lines.slice(100).join('\n')}\n`);
    const store = await newStore();
    expect(await importFiles(store, [a, b])).toMatchObject({ locations: 200, files: [{ records: 100 }, { records: 100 }] });
    const issues = await rejection(importFiles(store, [a, a]));
    expect(issues[0]).toMatchObject({ file: a, line: 1, field: 'id', message: expect.stringContaining(`first defined at ${a}:1`) as unknown });
  });

  it('a re-import replaces the whole dataset', async () => {
    const store = await newStore();
    await importFiles(store, [DEMO]);
    await importFiles(store, [file('one.ndjson', '{"id":"only","name":"Only One"}\n')]);
    expect(await store.stats()).toMatchObject({ locations: 1, publicLocations: 1, availableRows: 0 });
    expect((await store.resolveIds(['loc_downtown'])).size).toBe(0);
  });

  describe('rejects every bad-file class with file, line and field, leaving the previous dataset intact', () => {
    const good = (id: string, extra: Record<string, unknown> = {}) => JSON.stringify({ id, name: `Store ${id}`, ...extra });
    const cases: { name: string; file: string; content: string; issue: ExpectedIssue }[] = [
      { name: 'broken JSON line', file: 'x.ndjson', content: `${good('a')}\n\n{"id": "b", "name": "B",}\n`, issue: { line: 3, field: '', message: /invalid JSON at column 25/ } },
      { name: 'wrong type', file: 'x.ndjson', content: `${good('a')}\n{"id":"b","name":42}\n`, issue: { line: 2, field: 'name', message: /must be a string, got number/ } },
      { name: 'unknown field (typo)', file: 'x.ndjson', content: `${good('a', { keyword: ['x'] })}\n`, issue: { line: 1, field: 'keyword', message: /did you mean "keywords"/ } },
      { name: 'unknown zone (R-H5)', file: 'x.ndjson', content: `${good('a', { timezone: 'Mars/Olympus_Mons', hours: [] })}\n`, issue: { line: 1, field: 'timezone', message: /IANA/ } },
      {
        name: 'overlapping exceptions (R-H4)',
        file: 'x.ndjson',
        content: `${good('a')}\n${good('b', { timezone: 'Pacific/Fiji', exception_hours: [{ valid_from: '2026-12-24', valid_through: '2026-12-27' }, { valid_from: '2026-12-27', valid_through: '2026-12-28' }] })}\n`,
        issue: { line: 2, field: 'exception_hours[1]', message: /intersect/ },
      },
      { name: 'duplicate id', file: 'x.ndjson', content: `${good('a')}\n${good('b')}\n${good('a')}\n`, issue: { line: 3, field: 'id', message: /duplicate id "a"/ } },
      { name: 'duplicate alias', file: 'x.ndjson', content: `${good('a', { aliases: ['main'] })}\n${good('b', { aliases: ['x', 'main'] })}\n`, issue: { line: 2, field: 'aliases[1]', message: /already an alias of "a"/ } },
      { name: 'alias equal to another id', file: 'x.ndjson', content: `${good('a', { aliases: ['b'] })}\n${good('b')}\n`, issue: { line: 1, field: 'aliases[0]', message: /is the id of another location/ } },
      { name: 'latitude out of range', file: 'x.ndjson', content: `${good('a', { geo: { latitude: 91, longitude: 0 } })}\n`, issue: { line: 1, field: 'geo.latitude', message: /out of range/ } },
      {
        name: 'GeoJSON longitude out of range (feature number)',
        file: 'x.geojson',
        content: JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [0, 0] }, properties: { id: 'a', name: 'A' } }, { type: 'Feature', geometry: { type: 'Point', coordinates: [181, 0] }, properties: { id: 'b', name: 'B' } }] }),
        issue: { line: 2, unit: 'feature', field: 'geometry.coordinates[0]', message: /181 is out of range/ },
      },
      { name: 'GeoJSON broken feature', file: 'x.geojson', content: '{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"id":"a","name":"A"},"geometry":null},{"type":"Feature",]}', issue: { line: 2, unit: 'feature', field: '', message: /invalid JSON in feature 2/ } },
      { name: 'CSV latitude not a number', file: 'x.csv', content: 'id,name,latitude,longitude\na,A,1,2\nb,B,north,2\n', issue: { line: 3, field: 'latitude', message: /not a decimal number/ } },
      { name: 'CSV hours syntax', file: 'x.csv', content: 'id,name,timezone,hours\na,A,Asia/Kolkata,"mon 09:00-17:00; xyz 10:00-11:00"\n', issue: { line: 2, field: 'hours', message: /"xyz" is not a day/ } },
      { name: 'CSV bad quoting', file: 'x.csv', content: 'id,name\na,"A"x\n', issue: { line: 2, field: '', message: /malformed CSV/ } },
      { name: 'CSV unknown column', file: 'x.csv', content: 'id,name,colour\na,A,red\n', issue: { line: 1, field: 'colour', message: /unknown column/ } },
      { name: 'CSV row width', file: 'x.csv', content: 'id,name\na,A,extra\n', issue: { line: 2, field: '', message: /3 field\(s\) but the header has 2/ } },
      { name: 'CSV value validated like NDJSON', file: 'x.csv', content: 'id,name,timezone,hours\na,A,Europe/Berlin,mon 09:00-09:00\n', issue: { line: 2, field: 'hours', message: /09:00/ } },
    ];

    it.each(cases)('$name', async ({ file: name, content, issue }) => {
      const records = await demoRecords();
      const ids = records.map((r) => r.id);
      const items = ['item_id_phone_15_pro', 'item_id_milk_whole_1l'];
      const store = await newStore();
      await importFiles(store, [DEMO]);
      const before = await snapshot(store, ids, items);
      const generation = await store.generation();

      const bad = file(name, content);
      const issues = await rejection(importFiles(store, [bad]));
      const { message, ...position } = issue;
      expect(issues).toContainEqual(expect.objectContaining({ file: bad, ...position, message: expect.stringMatching(message) as unknown }));
      expect(await snapshot(store, ids, items)).toEqual(before);
      expect(await store.generation()).toBe(generation);

      // validate reports the same problems without a store.
      const report = await validateFiles([bad]);
      expect(report.ok).toBe(false);
      expect(report.issues).toEqual(issues);
    });
  });

  it('collects every problem of a file in one run', async () => {
    const bad = file('many.ndjson', ['{"id":"a"}', '{"id":"b","name":"B","geo":{"latitude":100,"longitude":0}}', 'not json', '{"id":"a","name":"A2"}'].join('\n'));
    const report = await validateFiles([bad]);
    expect(report.issues.map((i) => `${i.line} ${i.field}`)).toEqual(['1 name', '2 geo.latitude', '3 ', '4 id']);
    expect(report).toMatchObject({ records: 4, issueCount: 4 });
  });

  it('rolls back when a file changes between validation and writing', async () => {
    const path = file('changing.ndjson', '{"id":"a","name":"A"}\n{"id":"b","name":"B"}\n');
    const store = await newStore();
    await importFiles(store, [DEMO]);
    const stats = await store.stats();
    const checked = await validateFiles([path]);
    expect(checked.ok).toBe(true);
    writeFileSync(path, '{"id":"a","name":"A"}\n{"id":"b","name":"B"}\n{"id":"a","name":"again"}\n');
    const issues = await rejection(writeValidated(store, checked));
    expect(issues[0]).toMatchObject({ line: 3, field: 'id' });
    expect(await store.stats()).toEqual(stats);
  });

  it('usage problems are ConfigErrors: missing file, unknown extension, unknown --format', async () => {
    await expect(validateFiles([join(scratch(), 'missing.ndjson')])).rejects.toThrow(ConfigError);
    await expect(validateFiles([file('x.txt', '')])).rejects.toThrow(/--format/);
    await expect(validateFiles([DEMO], { format: 'xml' })).rejects.toThrow(/unknown format "xml"/);
    // --format overrides the extension.
    expect((await validateFiles([file('stores.txt', '{"id":"a","name":"A"}\n')], { format: 'ndjson' })).ok).toBe(true);
  });
});

describe('inventory feed', () => {
  async function demoStore(): Promise<LocationStore> {
    const store = await newStore();
    await importFiles(store, [DEMO]);
    return store;
  }

  async function availableAt(store: LocationStore, id: string, item: string): Promise<boolean> {
    const keys = (await store.resolveIds([id])).get(id) ?? [];
    return (await store.findCandidates({ keys, items: [item] })).length > 0;
  }

  it('applies the demo feed: sell-outs become unavailable, new arrivals available, the seed item stays', async () => {
    const store = await demoStore();
    const rows = (await readInventory(DEMO_INVENTORY)).rows;
    const off = rows.find((r) => !r.available && r.location_id !== 'loc_downtown');
    const on = rows.find((r) => r.available && r.location_id !== 'loc_downtown');
    if (off === undefined || on === undefined) throw new Error('demo feed lacks both kinds of rows');
    expect(await availableAt(store, off.location_id, off.item_id)).toBe(true);
    const report = await applyInventoryFile(store, DEMO_INVENTORY);
    expect(report).toMatchObject({ rows: rows.length, applied: rows.length });
    expect(await availableAt(store, off.location_id, off.item_id)).toBe(false);
    expect(await availableAt(store, on.location_id, on.item_id)).toBe(true);
    expect(await availableAt(store, 'loc_downtown', 'item_id_phone_15_pro')).toBe(true);
  });

  it('accepts NDJSON rows and every spelling of available', async () => {
    const store = await demoStore();
    const path = file('feed.ndjson', ['{"location_id":"loc_downtown","item_id":"item_id_phone_15_pro","available":false}', '{"location_id":"loc_downtown","item_id":"item_id_x","available":"YES"}', '', '{"location_id":"loc_downtown","item_id":"item_id_y","available":1}'].join('\n'));
    expect((await applyInventoryFile(store, path)).applied).toBe(3);
    expect(await availableAt(store, 'loc_downtown', 'item_id_phone_15_pro')).toBe(false);
    expect(await availableAt(store, 'loc_downtown', 'item_id_x')).toBe(true);
    expect(await availableAt(store, 'loc_downtown', 'item_id_y')).toBe(true);
  });

  const bad: { name: string; file: string; content: string; issue: ExpectedIssue }[] = [
    { name: 'malformed available value', file: 'f.csv', content: 'location_id,item_id,available\nloc_downtown,item_id_a,true\nloc_downtown,item_id_b,maybe\n', issue: { line: 3, field: 'available', message: /true\/false, 1\/0 or yes\/no/ } },
    { name: 'unknown location (rejected by the store)', file: 'f.csv', content: 'location_id,item_id,available\nloc_downtown,item_id_phone_15_pro,false\nloc_nowhere,item_id_b,1\n', issue: { line: 3, field: 'location_id', message: /loc_nowhere/ } },
    { name: 'missing header', file: 'f.csv', content: 'loc_downtown,item_id_phone_15_pro,false\n', issue: { line: 1, message: /unknown column/ } },
    { name: 'empty item id', file: 'f.csv', content: 'item_id,location_id,available\n,loc_downtown,no\n', issue: { line: 2, field: 'item_id', message: /must not be empty/ } },
    { name: 'contradicting rows', file: 'f.csv', content: 'location_id,item_id,available\nloc_downtown,item_id_phone_15_pro,no\nloc_downtown,item_id_phone_15_pro,yes\n', issue: { line: 3, field: 'available', message: /line 2/ } },
    { name: 'NDJSON unknown key', file: 'f.ndjson', content: '{"location_id":"loc_downtown","item_id":"i","availble":true}\n', issue: { line: 1, field: 'availble', message: /unknown field/ } },
    { name: 'NDJSON broken line', file: 'f.ndjson', content: '{"location_id":"loc_downtown","item_id":"i","available":true}\n{"location_id":\n', issue: { line: 2, message: /invalid JSON/ } },
  ];

  it.each(bad)('rejects the whole batch: $name', async ({ file: name, content, issue }) => {
    const store = await demoStore();
    const generation = await store.generation();
    const path = file(name, content);
    const issues = await rejection(applyInventoryFile(store, path));
    const { message, ...position } = issue;
    expect(issues).toContainEqual(expect.objectContaining({ file: path, ...position, message: expect.stringMatching(message) as unknown }));
    // Nothing half-applied: the first (valid) row did not land either.
    expect(await availableAt(store, 'loc_downtown', 'item_id_phone_15_pro')).toBe(true);
    expect(await store.generation()).toBe(generation);
  });

  it('refuses GeoJSON as a feed format', async () => {
    await expect(readInventory(file('f.geojson', '{}'))).rejects.toThrow(ConfigError);
  });
});
