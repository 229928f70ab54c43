/**
 * Bulk load of a complete dataset into the `_next` tables, inside the caller's write transaction.
 *
 * Speed matters (target: a million Locations well under a minute): records stream through once;
 * schedule / coverage documents and amenity / item ids are deduplicated in memory (chains share
 * them); R*Tree entries are buffered and inserted at the end in Hilbert-curve order, which keeps
 * the tree's working set small and its boxes tight.
 */
import type Database from 'better-sqlite3';
import type { LocationRecord } from '../../domain/location.js';
import type { ImportProgress } from '../store.js';
import { BatchInsert } from './batch-insert.js';
import { deriveUniqueRow } from '../record-rows.js';

/** Records between two progress reports. */
const PROGRESS_EVERY = 10_000;
/** Bits of geo_points.amask: exact integers in both JS numbers and SQLite. */
export const AMENITY_BITS = 53;

export interface BulkLoadResult {
  locations: number;
  publicLocations: number;
  availability: number;
  /** Next free value of the key allocator. */
  nextKey: number;
}

function isAsyncIterable<T>(x: AsyncIterable<T> | Iterable<T>): x is AsyncIterable<T> {
  return Symbol.asyncIterator in x;
}

/**
 * `array[i]` for an index the caller keeps in bounds. Out of bounds a typed array answers
 * `undefined`, which the arithmetic below would turn into NaN keys and boxes written without a
 * word; this throws instead. (Small enough for V8 to inline: the loads stay as fast as `array[i]!`.)
 */
function at<T>(array: ArrayLike<T>, i: number): T {
  const value = array[i];
  if (value === undefined) throw new RangeError(`Index ${i} is outside a buffer of ${array.length}`);
  return value;
}

/** Position of (lon, lat) on a Hilbert curve over a 2^16 × 2^16 grid of the globe. */
export function hilbertIndex(lon: number, lat: number): number {
  const n = 65536;
  let x = Math.min(n - 1, Math.max(0, Math.floor(((lon + 180) / 360) * n)));
  let y = Math.min(n - 1, Math.max(0, Math.floor(((lat + 90) / 180) * n)));
  let d = 0;
  for (let s = n >>> 1; s > 0; s >>>= 1) {
    const rx = (x & s) > 0 ? 1 : 0;
    const ry = (y & s) > 0 ? 1 : 0;
    d += s * s * ((3 * rx) ^ ry);
    // Rotate the quadrant so the sub-curve is oriented like the whole.
    if (ry === 0) {
      if (rx === 1) {
        x = n - 1 - x;
        y = n - 1 - y;
      }
      const t = x;
      x = y;
      y = t;
    }
  }
  return d;
}

/** Growable buffer of boxes (min_lon, max_lon, min_lat, max_lat) with an owner key each. */
class BoxBuffer {
  private data = new Float64Array(4 * 1024);
  private keys = new Float64Array(1024);
  length = 0;

  push(key: number, minLon: number, maxLon: number, minLat: number, maxLat: number): void {
    if (this.length === this.keys.length) {
      const d = new Float64Array(this.data.length * 2);
      d.set(this.data);
      this.data = d;
      const k = new Float64Array(this.keys.length * 2);
      k.set(this.keys);
      this.keys = k;
    }
    const i = this.length++;
    this.data[4 * i] = minLon;
    this.data[4 * i + 1] = maxLon;
    this.data[4 * i + 2] = minLat;
    this.data[4 * i + 3] = maxLat;
    this.keys[i] = key;
  }

  /** Visit boxes in Hilbert order of their centres. */
  forEachSorted(visit: (key: number, minLon: number, maxLon: number, minLat: number, maxLat: number) => void): void {
    const d = this.data;
    const order = new Uint32Array(this.length);
    const rank = new Float64Array(this.length);
    for (let i = 0; i < this.length; i++) {
      order[i] = i;
      rank[i] = hilbertIndex((at(d, 4 * i) + at(d, 4 * i + 1)) / 2, (at(d, 4 * i + 2) + at(d, 4 * i + 3)) / 2);
    }
    order.sort((a, b) => at(rank, a) - at(rank, b));
    for (const i of order) visit(at(this.keys, i), at(d, 4 * i), at(d, 4 * i + 1), at(d, 4 * i + 2), at(d, 4 * i + 3));
  }
}

/**
 * (id, key) pairs for a WITHOUT ROWID (id, key) table, buffered and inserted sorted at the end:
 * appending in primary-key order is several times faster than inserting at thousands of places.
 *
 * Records are loaded in increasing key order, so pairs normally arrive with nondecreasing keys;
 * a stable bucket sort by id then yields (id, key) order in linear time (a comparator sort of
 * 5M pairs at 1M Locations costs seconds). Should keys ever arrive out of order, a full sort
 * is used instead.
 */
export class PairBuffer {
  private data = new Float64Array(2 * 4096);
  /** Per pair: its id's bucket (dense number of the id, in first-seen order). */
  private buckets = new Uint32Array(4096);
  /** id → bucket, and bucket → id: ids are few (amenities, items), pairs many. */
  private readonly bucketOf = new Map<number, number>();
  private readonly idOf: number[] = [];
  private keysAscending = true;
  length = 0;

  push(id: number, key: number): void {
    if (this.length === this.buckets.length) {
      const d = new Float64Array(this.data.length * 2);
      d.set(this.data);
      this.data = d;
      const b = new Uint32Array(this.buckets.length * 2);
      b.set(this.buckets);
      this.buckets = b;
    }
    if (this.length > 0 && key < at(this.data, 2 * this.length - 1)) this.keysAscending = false;
    let bucket = this.bucketOf.get(id);
    if (bucket === undefined) {
      bucket = this.idOf.length;
      this.bucketOf.set(id, bucket);
      this.idOf.push(id);
    }
    this.buckets[this.length] = bucket;
    this.data[2 * this.length] = id;
    this.data[2 * this.length + 1] = key;
    this.length++;
  }

  /** Pair indexes in (id, key) order. */
  private order(): Uint32Array {
    const d = this.data;
    const n = this.length;
    const order = new Uint32Array(n);
    if (!this.keysAscending) {
      for (let i = 0; i < n; i++) order[i] = i;
      order.sort((a, b) => at(d, 2 * a) - at(d, 2 * b) || at(d, 2 * a + 1) - at(d, 2 * b + 1));
      return order;
    }
    // Counting sort on buckets taken in id order: stable, so keys stay ascending within an id.
    const buckets = this.buckets;
    const count = new Uint32Array(this.idOf.length);
    for (let i = 0; i < n; i++) {
      const b = at(buckets, i);
      count[b] = at(count, b) + 1;
    }
    const byId = this.idOf.map((id, bucket) => ({ id, bucket })).sort((x, y) => x.id - y.id);
    const next = new Uint32Array(count.length);
    let offset = 0;
    for (const { bucket } of byId) {
      next[bucket] = offset;
      offset += at(count, bucket);
    }
    for (let i = 0; i < n; i++) {
      const b = at(buckets, i);
      const slot = at(next, b);
      next[b] = slot + 1;
      order[slot] = i;
    }
    return order;
  }

  forEachSorted(visit: (id: number, key: number) => void): void {
    const d = this.data;
    let prevId = Number.NaN;
    let prevKey = Number.NaN;
    for (const i of this.order()) {
      const id = at(d, 2 * i);
      const key = at(d, 2 * i + 1);
      if (id === prevId && key === prevKey) continue;
      prevId = id;
      prevKey = key;
      visit(id, key);
    }
  }
}

/** Public Locations with geo, buffered for the Hilbert-ordered geo_rtree / geo_points load. */
class PointBuffer {
  private num = new Float64Array(6 * 1024);
  private ids: string[] = [];
  length = 0;

  /** sid / cid: -1 stands for NULL. */
  push(key: number, id: string, lat: number, lon: number, sid: number | null, cid: number | null, amask: number): void {
    if (6 * this.length === this.num.length) {
      const n = new Float64Array(this.num.length * 2);
      n.set(this.num);
      this.num = n;
    }
    const o = 6 * this.length++;
    this.num[o] = key;
    this.num[o + 1] = lat;
    this.num[o + 2] = lon;
    this.num[o + 3] = sid ?? -1;
    this.num[o + 4] = cid ?? -1;
    this.num[o + 5] = amask;
    this.ids.push(id);
  }

  /** Visit points in Hilbert order; `rank` (1-based) is the point's position on the curve. */
  forEachSorted(
    visit: (rank: number, key: number, id: string, lat: number, lon: number, sid: number | null, cid: number | null, amask: number) => void,
  ): void {
    const num = this.num;
    const order = new Uint32Array(this.length);
    const h = new Float64Array(this.length);
    for (let i = 0; i < this.length; i++) {
      order[i] = i;
      h[i] = hilbertIndex(at(num, 6 * i + 2), at(num, 6 * i + 1));
    }
    order.sort((a, b) => at(h, a) - at(h, b) || a - b);
    let rank = 0;
    for (const i of order) {
      const o = 6 * i;
      const sid = at(num, o + 3);
      const cid = at(num, o + 4);
      visit(
        ++rank,
        at(num, o),
        at(this.ids, i),
        at(num, o + 1),
        at(num, o + 2),
        sid < 0 ? null : sid,
        cid < 0 ? null : cid,
        at(num, o + 5),
      );
    }
  }
}

/**
 * Stream `records` into the `_next` tables (which must exist and be empty). Throws
 * DataValidationError (nothing is committed by the caller then) for a duplicate id or an
 * unusable coverage geometry, naming the record's 1-based position.
 */
export async function bulkLoad(
  db: Database.Database,
  records: AsyncIterable<LocationRecord> | Iterable<LocationRecord>,
  firstKey: number,
  label: string,
  onProgress?: (p: ImportProgress) => void,
): Promise<BulkLoadResult> {
  // No incremental segment merging while loading; one 'optimize' at the end leaves a single
  // segment, which is both cheaper overall and faster to query.
  db.exec("INSERT INTO fts_next(fts_next, rank) VALUES('automerge', 0)");
  // Multi-row statements (batch-insert.ts); every table is flushed before anything reads it.
  const batch = (head: string, width: number): BatchInsert => new BatchInsert(db, head, width);
  const ins = {
    location: batch('INSERT INTO locations_next(key, id, public, lat, lon, sid, cid)', 7),
    schedule: batch('INSERT INTO schedules_next(sid, json)', 2),
    coverage: batch('INSERT INTO coverages_next(cid, json)', 2),
    doc: batch('INSERT INTO docs_next(key, doc)', 2),
    languages: batch('INSERT INTO languages_next(key, json)', 2),
    alias: batch('INSERT OR IGNORE INTO aliases_next(alias, key)', 2),
    amenityKey: batch('INSERT INTO amenity_keys_next(aid, amenity)', 2),
    amenity: batch('INSERT INTO amenities_next(aid, key)', 2),
    itemKey: batch('INSERT INTO item_keys_next(iid, item)', 2),
    item: batch('INSERT INTO availability_next(iid, key, available)', 3),
    country: batch('INSERT OR IGNORE INTO cov_country_next(country, key)', 2),
    region: batch('INSERT OR IGNORE INTO cov_region_next(country, region, key)', 3),
    postal: batch('INSERT OR IGNORE INTO cov_postal_next(country, postal, key)', 3),
    geo: batch('INSERT INTO geo_rtree_next(gkey, min_lon, max_lon, min_lat, max_lat)', 5),
    point: batch('INSERT INTO geo_points_next(gkey, key, id, lat, lon, sid, cid, amask)', 8),
    extent: batch('INSERT INTO cov_rtree_next(min_lon, max_lon, min_lat, max_lat, key)', 5),
    fts: batch('INSERT INTO fts_next(rowid, name, keywords, locality, region, street, amenities)', 7),
  };

  let nextKey = firstKey;
  const schedules = new Map<string, number>();
  const coverages = new Map<string, number>();
  const amenityIds = new Map<string, number>();
  const itemIds = new Map<string, number>();
  /** aid → bit in geo_points.amask: interning rank mod AMENITY_BITS. */
  const amenityBits = new Map<number, number>();
  const seen = new Set<string>();
  const points = new PointBuffer();
  const amenityPairs = new PairBuffer();
  const itemPairs = new PairBuffer();
  const extentBoxes = new BoxBuffer();
  let count = 0;
  let publicCount = 0;
  let availability = 0;

  const intern = (map: Map<string, number>, value: string, insert: BatchInsert): number => {
    let id = map.get(value);
    if (id === undefined) {
      id = nextKey++;
      map.set(value, id);
      insert.add(id, value);
    }
    return id;
  };

  const write = (record: LocationRecord): void => {
    count++;
    const row = deriveUniqueRow(record, seen, label, count);
    const key = nextKey++;
    const sid = row.schedule === null ? null : intern(schedules, row.schedule, ins.schedule);
    const cid = row.coverage === null ? null : intern(coverages, row.coverage, ins.coverage);
    ins.location.add(key, row.id, row.isPublic ? 1 : 0, row.lat, row.lon, sid, cid);
    // Availability is kept for private Locations too, so inventory rows naming them are valid.
    for (const item of row.items) itemPairs.push(intern(itemIds, item, ins.itemKey), key);
    availability += row.items.length;
    if (row.isPublic) {
      // Only public Locations enter the search and lookup indexes (R-S11).
      publicCount++;
      ins.doc.add(key, row.doc);
      if (row.languages !== null) ins.languages.add(key, row.languages);
      for (const a of row.aliases) ins.alias.add(a, key);
      let amask = 0;
      for (const a of row.amenities) {
        const known = amenityIds.size;
        const aid = intern(amenityIds, a, ins.amenityKey);
        amenityPairs.push(aid, key);
        let bit = amenityBits.get(aid);
        if (bit === undefined) {
          bit = known % AMENITY_BITS;
          amenityBits.set(aid, bit);
        }
        // Sum of distinct powers of two (JS bit operators stop at 32 bits).
        if (Math.floor(amask / 2 ** bit) % 2 === 0) amask += 2 ** bit;
      }
      for (const c of row.countries) ins.country.add(c, key);
      for (const [c, r] of row.regions) ins.region.add(c, r, key);
      for (const [c, p] of row.postalCodes) ins.postal.add(c, p, key);
      if (row.lat !== null && row.lon !== null) points.push(key, row.id, row.lat, row.lon, sid, cid, amask);
      for (const b of row.coverageExtents) extentBoxes.push(key, b.minLon, b.maxLon, b.minLat, b.maxLat);
      ins.fts.add(key, ...row.text);
    }
    if (count % PROGRESS_EVERY === 0) onProgress?.({ phase: 'writing', done: count });
  };

  if (isAsyncIterable(records)) {
    for await (const r of records) write(r);
  } else {
    for (const r of records) write(r);
  }
  for (const b of Object.values(ins)) b.flush();
  onProgress?.({ phase: 'indexing', done: count, total: count });
  amenityPairs.forEachSorted((aid, key) => ins.amenity.add(aid, key));
  ins.amenity.flush();
  itemPairs.forEachSorted((iid, key) => ins.item.add(iid, key, 1));
  ins.item.flush();
  db.exec("INSERT INTO fts_next(fts_next) VALUES('optimize')");
  db.exec("INSERT INTO fts_next(fts_next, rank) VALUES('automerge', 4)");
  points.forEachSorted((rank, key, id, lat, lon, sid, cid, amask) => {
    ins.geo.add(rank, lon, lon, lat, lat);
    ins.point.add(rank, key, id, lat, lon, sid, cid, amask);
  });
  ins.geo.flush();
  ins.point.flush();
  extentBoxes.forEachSorted((key, minLon, maxLon, minLat, maxLat) => ins.extent.add(minLon, maxLon, minLat, maxLat, key));
  ins.extent.flush();
  return { locations: count, publicLocations: publicCount, availability, nextKey };
}
