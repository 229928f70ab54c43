/**
 * The index as a file (#30): a file written from an index and loaded back answers exactly as the
 * freshly built index (every operand, paging, lookup, availability), and writing the loaded index
 * again gives the same bytes. A file that is absent, of another format version, truncated,
 * damaged or of another import is never served: the index is built from the store, with one
 * event saying why, and a good file is written in its place.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LocationService } from '../../src/service.js';
import { DiskIndexFileHome, IndexedLocationStore, type IndexFileEvent } from '../../src/store/memory-index/index.js';
import { IndexFileReader } from '../../src/store/memory-index/index-file-format.js';
import { indexFileBytes, indexFromFile } from '../../src/store/memory-index/index-snapshot.js';
import { SqliteLocationStore } from '../../src/store/sqlite/index.js';
import { fixtureRecords } from '../contract/fixture.js';
import { AMENITIES, dataset, ITEMS, lookupRequest, searchRequest, walk } from './support.js';

const SECRET = 'index-file';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ucp-index-file-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function concat(parts: readonly Uint8Array[]): Buffer {
  return Buffer.concat(parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength)));
}

/** A copy in a buffer of its own, as a file read from disk arrives. */
function ownBuffer(bytes: Buffer): ArrayBuffer {
  const out = new ArrayBuffer(bytes.length);
  new Uint8Array(out).set(bytes);
  return out;
}

async function settle<T>(p: Promise<T>): Promise<T | string> {
  try {
    return await p;
  } catch (error) {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
}

describe('index file ≡ freshly built index', () => {
  let raw: SqliteLocationStore;
  let n = 0;
  beforeAll(async () => {
    raw = await SqliteLocationStore.open(':memory:');
  });
  afterAll(async () => {
    await raw.close();
  });

  it('a loaded file gives the same pages, lookups, languages, items, amenities and localities as the built index (R-S1, R-S4, R-S5, R-S6, R-S9)', async () => {
    await fc.assert(
      fc.asyncProperty(
        dataset,
        fc.array(searchRequest, { minLength: 6, maxLength: 6 }),
        lookupRequest,
        async (records, searches, lookup) => {
          const home = new DiskIndexFileHome(join(dir, `equivalence-${n++}.index`));
          const events: IndexFileEvent[] = [];
          const built = await IndexedLocationStore.open(raw, { closeSource: false, indexFiles: home, onIndexFile: (e) => events.push(e) });
          await built.replaceAll(records);
          const loaded = await IndexedLocationStore.open(raw, { closeSource: false, indexFiles: home, onIndexFile: (e) => events.push(e) });
          // The import through `built` built and wrote the file; `loaded` read it, nothing else.
          expect(events.map((e) => e.outcome)).toEqual(['built', 'built', 'loaded']);
          expect(events[1]).toMatchObject({ outcome: 'built', reason: 'this instance imported the dataset', written: true });

          const viaBuilt = new LocationService(built, { cursorSecret: SECRET });
          const viaLoaded = new LocationService(loaded, { cursorSecret: SECRET });
          for (const request of searches)
            expect(await walk(viaLoaded, request), JSON.stringify(request)).toEqual(await walk(viaBuilt, request));
          expect(await settle(viaLoaded.lookup(lookup))).toEqual(await settle(viaBuilt.lookup(lookup)));

          const ids = records.map((r) => r.id);
          const keys = [...(await built.resolveIds(ids)).values()].flat();
          expect(await loaded.resolveIds(ids)).toEqual(await built.resolveIds(ids));
          expect(await loaded.getLocations(keys)).toEqual(await built.getLocations(keys));
          expect(await loaded.getLanguages(keys)).toEqual(await built.getLanguages(keys));
          expect(await loaded.knownItems([...ITEMS, 'sku-none'])).toEqual(await built.knownItems([...ITEMS, 'sku-none']));
          expect(await loaded.amenityIds(10)).toEqual(await built.amenityIds(10));
          expect(await loaded.localityModel()).toEqual(await built.localityModel());
          // Unlimited candidate lists keep their order too (availability in insertion order).
          for (const item of ITEMS)
            expect(await loaded.findCandidates({ items: [item] })).toEqual(await built.findCandidates({ items: [item] }));
          for (const amenity of AMENITIES)
            expect(await loaded.findCandidates({ amenities: [amenity], withSchedule: true, withCoverage: true })).toEqual(
              (await built.findCandidates({ amenities: [amenity], withSchedule: true, withCoverage: true })).map((c) => ({
                ...c,
                // Schedule keys are process-unique per index (the engine compiles per key): compare what they name.
                ...(c.scheduleKey === undefined ? {} : { scheduleKey: expect.any(Number) }),
                ...(c.coverageKey === undefined ? {} : { coverageKey: expect.any(Number) }),
              })),
            );

          // Written again from the loaded index: the same bytes.
          const first = readFileSync(home.path);
          const again = indexFromFile(new IndexFileReader(ownBuffer(first)));
          const stamp = { importGeneration: (await raw.lastImport())?.generation ?? 0, importedAt: (await raw.lastImport())?.at ?? null };
          expect(concat(indexFileBytes(again, stamp).parts).equals(first)).toBe(true);

          await built.close();
          await loaded.close();
          rmSync(home.path);
        },
      ),
      { seed: 30_030, numRuns: 25 },
    );
  }, 180_000);
});

const RECORDS = fixtureRecords();
const GROCERS = { text: { raw: 'grocers', terms: ['grocers'] } };

describe('index file refused, rebuilt from the store, never served', () => {
  let dbFile: string;
  let home: DiskIndexFileHome;
  let store: SqliteLocationStore;
  let expected: unknown;

  beforeAll(async () => {
    dbFile = join(dir, 'refusals.db');
    store = await SqliteLocationStore.open(dbFile);
    home = new DiskIndexFileHome(`${dbFile}.index`);
    const writer = await IndexedLocationStore.open(store, { closeSource: false, indexFiles: home });
    await writer.replaceAll(RECORDS);
    expected = await writer.findCandidates(GROCERS);
    expect(Array.isArray(expected) && expected.length > 0).toBe(true);
    await writer.close();
  });
  afterAll(async () => {
    await store.close();
  });
  afterEach(async () => {
    // Every case leaves a good file behind: the next starts from one.
    const events: IndexFileEvent[] = [];
    const check = await IndexedLocationStore.open(store, { closeSource: false, indexFiles: home, onIndexFile: (e) => events.push(e) });
    await check.close();
    expect(events.map((e) => e.outcome)).toEqual(['loaded']);
  });

  async function openWith(damage: (file: Buffer) => Buffer | null): Promise<IndexFileEvent[]> {
    const good = readFileSync(home.path);
    const damaged = damage(good);
    if (damaged === null) rmSync(home.path);
    else writeFileSync(home.path, damaged);
    const events: IndexFileEvent[] = [];
    const indexed = await IndexedLocationStore.open(store, { closeSource: false, indexFiles: home, onIndexFile: (e) => events.push(e) });
    expect(await indexed.findCandidates(GROCERS)).toEqual(expected);
    await indexed.close();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ outcome: 'built', written: true });
    return events;
  }

  it('absent: built, with the reason', async () => {
    const [e] = await openWith(() => null);
    expect(e).toMatchObject({ reason: `there is no index file at ${home.path}` });
  });

  it('of another format version: built, with the reason', async () => {
    const [e] = await openWith((f) => {
      const copy = Buffer.from(f);
      copy.writeUInt32LE(999, 8);
      return copy;
    });
    expect(e).toMatchObject({ reason: expect.stringContaining('format version 999') });
  });

  it('truncated: built, with the reason', async () => {
    const [e] = await openWith((f) => f.subarray(0, Math.floor(f.length * 0.6)));
    expect(e).toMatchObject({ reason: expect.stringContaining('truncated') });
  });

  it('damaged (one byte changed in the middle): built, with the reason', async () => {
    const [e] = await openWith((f) => {
      const copy = Buffer.from(f);
      const at = Math.floor(copy.length / 2);
      copy[at] = copy[at]! ^ 0xff;
      return copy;
    });
    expect(e).toMatchObject({ reason: expect.stringContaining('checksum') });
  });

  it('not an index file at all: built, with the reason', async () => {
    const [e] = await openWith(() => Buffer.from('{"not":"an index"}'));
    expect(e).toMatchObject({ reason: expect.stringContaining('not an index file') });
  });

  it('of another import of the store: built, with the reason', async () => {
    const other = await SqliteLocationStore.open(':memory:');
    const otherHome = new DiskIndexFileHome(join(dir, 'other.index'));
    const writer = await IndexedLocationStore.open(other, { indexFiles: otherHome });
    await writer.replaceAll(RECORDS.slice(1));
    await writer.replaceAll(RECORDS);
    await writer.close();
    const [e] = await openWith(() => readFileSync(otherHome.path));
    expect(e).toMatchObject({ reason: expect.stringContaining('holds the import of generation') });
  });

  it('an inventory batch after the file was written: the file is loaded and the availability read from the store', async () => {
    const before = (await store.findCandidates({ items: ['sku_milk'] })).map((c) => c.id);
    expect(before).not.toContain('loc_la_echo');
    await store.applyInventory([{ location_id: 'loc_la_echo', item_id: 'sku_milk', available: true, line: 1 }]);
    const events: IndexFileEvent[] = [];
    const indexed = await IndexedLocationStore.open(store, { closeSource: false, indexFiles: home, onIndexFile: (e) => events.push(e) });
    expect(events.map((e) => e.outcome)).toEqual(['loaded']);
    expect((await indexed.findCandidates({ items: ['sku_milk'] })).map((c) => c.id).sort()).toEqual([...before, 'loc_la_echo'].sort());
    expect(indexed.index.generation).toBe(await store.generation());
    await indexed.close();
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });
});
