/**
 * One dataset generation of a store, held in memory and answering the read half of the
 * LocationStore port exactly as the store would (same candidates after the engine's exact
 * predicates, same text relevance as SQLite — see text-index.ts).
 *
 * Rows are the public Locations only, numbered by id in code-point order (an "ordinal"), so
 * id order is ordinal order. What is inside:
 *  - coordinates in Float64Arrays and a static R-tree over the points (flatbush), for radius boxes;
 *  - a second R-tree over coverage extents (computed with the stores' own `coverageExtents`), for
 *    `serves.point` probes;
 *  - amenity bitsets and lists, locality lists, id/alias maps, documents;
 *  - schedules and coverages interned by content, with process-unique keys (Candidate.scheduleKey),
 *    so the engine compiles each distinct schedule once;
 *  - availability per item, the one part that changes in place (inventory batches).
 * Built once through `MemoryIndexBuilder` (the IndexSink a store exports into) and never
 * changed afterwards except for availability.
 */
import Flatbush from 'flatbush';
import type { Coverage, Geo, Location, RecordLanguages } from '../../domain/location.js';
import { GeodesicBracket } from '../../domain/proximity.js';
import { compareIds } from '../../domain/ranking.js';
import { documentLexemes } from '../search-text.js';
import { coverageExtents } from '../../domain/serves.js';
import { searchText } from '../record-rows.js';
import type { BBox, Candidate, CandidateQuery, ExportCounters, IndexLocationRow, IndexSink } from '../store.js';
import { type TextHits, type TextIndex, TextIndexBuilder } from './text-index.js';
import { topK } from './top-k.js';
import { IndexHours } from './index-hours.js';
import { PointColumns, spatialPointTree } from './point-walk.js';
import { DocumentPacker, PackedDocuments, type PackedDocument } from './packed-documents.js';

/** Column of the keywords in the text columns (searchText order). */
const KEYWORD_COLUMN = 1;

/** Parsed documents an index keeps (about 1 KiB each). */
const PARSED_DOCUMENTS_KEPT = 8192;

/** Schedule / coverage keys handed out by every index of this process: never reused. */
let nextContentKey = 1;

/** Availability of one item: public row ordinal → available. A row that exists makes the item known. */
export type ItemRows = Map<number, boolean>;

/** A distinct schedule or coverage (JSON) with its process-unique key. */
export interface Content {
  json: string;
  key: number;
}

/** A schedule or coverage new to this process (an index loaded from a file interns its own). */
export function newContent(json: string): Content {
  return { json, key: nextContentKey++ };
}

function intern(map: Map<string, Content>, json: string | null): Content | null {
  if (json === null) return null;
  let c = map.get(json);
  if (c === undefined) {
    c = newContent(json);
    map.set(json, c);
  }
  return c;
}

function push<K>(map: Map<K, number[]>, key: K, value: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

function localityKey(kind: 'country' | 'region' | 'postal', country: string, value: string | null): string {
  return kind === 'country' ? country : `${country}\u0000${kind === 'region' ? 'r' : 'p'}\u0000${value ?? ''}`;
}

/** Longitudes under which a probe point must be looked up: ±180 name the same meridian. */
function probeLongitudes(lon: number): number[] {
  return Math.abs(lon) === 180 ? [180, -180] : [lon];
}

function sortedUnique(values: readonly number[]): Uint32Array {
  const a = Uint32Array.from(values).sort();
  let w = 0;
  for (let r = 0; r < a.length; r++) if (r === 0 || a[r] !== a[r - 1]) a[w++] = a[r]!;
  return a.slice(0, w);
}

const NO_BOXES: readonly BBox[] = Object.freeze([]);

/** One Location as the builder keeps it until every row has arrived (documents packed on arrival). */
interface PendingRow {
  key: number;
  id: string;
  lat: number | null;
  lon: number | null;
  schedule: Content | null;
  coverage: Content | null;
  extents: readonly BBox[];
  doc: PackedDocument;
  /** Arrival number: the row's number in the text builder until ordinals are known. */
  arrival: number;
}

/** Receives a store export (IndexSink) and builds the index. */
export class MemoryIndexBuilder implements IndexSink {
  private readonly rows: PendingRow[] = [];
  // Store keys per name (ordinals are known only once every row is in): flat number lists, not
  // one small array per pair — at a million Locations there are millions of pairs.
  private readonly aliases = new Map<string, number[]>();
  private readonly amenities = new Map<string, number[]>();
  private readonly localities = new Map<string, number[]>();
  /** Per item: store key, availability (1/0), key, availability, … in arrival order. */
  private readonly items = new Map<string, number[]>();
  private readonly languageJson = new Map<number, string>();
  private readonly schedules = new Map<string, Content>();
  private readonly coverages = new Map<string, Content>();
  private readonly packer = new DocumentPacker();
  /** Text is indexed as rows arrive, by arrival number (keywords join later, by store key). */
  private readonly text = new TextIndexBuilder();
  private readonly arrivalOf = new Map<number, number>();
  // Column texts repeat a lot (localities, regions, amenity descriptions, chain names): tokenise
  // and stem each distinct one once.
  private readonly lexemes = new Map<string, string[]>();

  /**
   * Each row is reduced as it arrives (document packed, schedule and coverage interned, text
   * stemmed), so the export's strings — about 2 KiB per Location — never pile up.
   */
  location(r: IndexLocationRow): void {
    const geo = r.lat !== null && r.lon !== null ? { latitude: r.lat, longitude: r.lon } : null;
    let extents: readonly BBox[] = NO_BOXES;
    if (r.coverage !== null) {
      try {
        extents = coverageExtents(JSON.parse(r.coverage) as Pick<Coverage, 'radius_m' | 'areas'>, geo);
      } catch {
        // The store refused such geometry at import; an unusable one serves no point.
      }
    }
    const doc = JSON.parse(r.doc) as Location;
    const arrival = this.rows.length;
    this.arrivalOf.set(r.key, arrival);
    // Keywords are not in the document: they arrive through keywordTerm.
    searchText(doc).forEach((t, column) => {
      if (column !== KEYWORD_COLUMN) this.text.addColumn(arrival, column, this.lexemesOf(t));
    });
    this.rows.push({
      key: r.key,
      id: r.id,
      lat: r.lat,
      lon: r.lon,
      schedule: intern(this.schedules, r.schedule),
      coverage: intern(this.coverages, r.coverage),
      extents,
      doc: this.packer.pack(doc),
      arrival,
    });
  }
  private lexemesOf(t: string): string[] {
    let l = this.lexemes.get(t);
    if (l === undefined) {
      if (this.lexemes.size >= 500_000) this.lexemes.clear();
      l = documentLexemes(t);
      this.lexemes.set(t, l);
    }
    return l;
  }
  alias(alias: string, key: number): void {
    push(this.aliases, alias, key);
  }
  amenity(amenity: string, key: number): void {
    push(this.amenities, amenity, key);
  }
  locality(kind: 'country' | 'region' | 'postal', country: string, value: string | null, key: number): void {
    push(this.localities, localityKey(kind, country, value), key);
  }
  keywordTerm(key: number, stem: string, count: number): void {
    const arrival = this.arrivalOf.get(key);
    if (arrival !== undefined) this.text.addColumn(arrival, KEYWORD_COLUMN, new Array<string>(count).fill(stem));
  }
  availability(key: number, item: string, available: boolean): void {
    let list = this.items.get(item);
    if (list === undefined) this.items.set(item, (list = []));
    list.push(key, available ? 1 : 0);
  }
  languages(key: number, json: string): void {
    this.languageJson.set(key, json);
  }

  build(counters: ExportCounters): MemoryIndex {
    const rows = this.rows.sort((a, b) => compareIds(a.id, b.id));
    const n = rows.length;
    const ordinalOf = new Map<number, number>();
    const keys = new Float64Array(n);
    const lat = new Float64Array(n).fill(Number.NaN);
    const lon = new Float64Array(n).fill(Number.NaN);
    const schedule: (Content | null)[] = new Array<Content | null>(n);
    const coverage: (Content | null)[] = new Array<Content | null>(n);
    let points = 0;
    let extentCount = 0;
    const ordinalOfArrival = new Uint32Array(n);
    rows.forEach((r, i) => {
      ordinalOf.set(r.key, i);
      keys[i] = r.key;
      if (r.lat !== null && r.lon !== null) {
        lat[i] = r.lat;
        lon[i] = r.lon;
        points++;
      }
      schedule[i] = r.schedule;
      coverage[i] = r.coverage;
      extentCount += r.extents.length;
      ordinalOfArrival[r.arrival] = i;
    });
    this.lexemes.clear();

    const { tree: pointTree, ordinals: pointOrdinals } = spatialPointTree(lat, lon);

    const extentTree = new Flatbush(Math.max(extentCount, 1));
    const extentOrdinals = new Uint32Array(Math.max(extentCount, 1));
    for (let i = 0; i < n; i++) {
      for (const b of rows[i]!.extents) extentOrdinals[extentTree.add(b.minLon, b.minLat, b.maxLon, b.maxLat)] = i;
    }
    if (extentCount === 0) extentTree.add(1000, 1000, 1000, 1000);
    extentTree.finish();

    const byOrdinal = (lists: Map<string, number[]>): Map<string, Uint32Array> => {
      const out = new Map<string, Uint32Array>();
      for (const [name, list] of lists) {
        const ordinals: number[] = [];
        for (const key of list) {
          const o = ordinalOf.get(key);
          if (o !== undefined) ordinals.push(o);
        }
        if (ordinals.length > 0) out.set(name, sortedUnique(ordinals));
      }
      lists.clear();
      return out;
    };
    const items = new Map<string, ItemRows>();
    for (const [item, list] of this.items) {
      let m: ItemRows | undefined;
      for (let j = 0; j < list.length; j += 2) {
        const o = ordinalOf.get(list[j]!);
        if (o === undefined) continue;
        if (m === undefined) items.set(item, (m = new Map<number, boolean>()));
        m.set(o, list[j + 1] === 1);
      }
    }
    this.items.clear();
    const docs = PackedDocuments.fromPacked(
      rows.map((r) => r.doc),
      this.packer.layouts,
      this.packer.parts,
    );
    const languages = new Map<number, string>();
    for (const [key, json] of this.languageJson) {
      const o = ordinalOf.get(key);
      if (o !== undefined) languages.set(o, json);
    }
    const ids = rows.map((r) => r.id);
    return new MemoryIndex({
      counters,
      ids,
      keys,
      ordinalOf,
      idOrdinal: new Map(ids.map((id, i) => [id, i])),
      lat,
      lon,
      docs,
      languages,
      schedule,
      coverage,
      pointTree,
      pointOrdinals,
      hasPoints: points > 0,
      extentTree,
      extentOrdinals,
      hasExtents: extentCount > 0,
      // Most aliases name one Location: a plain number then (a typed array costs ~100 bytes of header).
      aliases: new Map([...byOrdinal(this.aliases)].map(([alias, list]) => [alias, list.length === 1 ? list[0]! : list])),
      amenities: byOrdinal(this.amenities),
      localities: byOrdinal(this.localities),
      items,
      text: this.text.build(n, (arrival) => ordinalOfArrival[arrival]),
    });
  }
}

/** A read-only key → ordinal lookup: a Map when built, a binary search over the file's arrays when loaded. */
export interface OrdinalLookup<K> {
  get(key: K): number | undefined;
}

/** Everything an index is made of (index-snapshot.ts writes and reads these). */
export interface IndexParts {
  counters: ExportCounters;
  ids: readonly string[];
  keys: Float64Array;
  ordinalOf: OrdinalLookup<number>;
  idOrdinal: OrdinalLookup<string>;
  lat: Float64Array;
  lon: Float64Array;
  docs: PackedDocuments;
  /** Ordinal → JSON of its own language and translations (R-C3), for those that have any. */
  languages: Map<number, string>;
  schedule: (Content | null)[];
  coverage: (Content | null)[];
  pointTree: Flatbush;
  pointOrdinals: Uint32Array;
  hasPoints: boolean;
  extentTree: Flatbush;
  extentOrdinals: Uint32Array;
  hasExtents: boolean;
  /** Alias → the ordinal it names, or the ordinals (ascending) when it names several. */
  aliases: Map<string, number | Uint32Array>;
  amenities: Map<string, Uint32Array>;
  localities: Map<string, Uint32Array>;
  items: Map<string, ItemRows>;
  text: TextIndex;
}

/** One bitset per amenity over the ordinals: those read from an index file, the rest computed from the lists. */
function amenityBitsets(parts: IndexParts, fromFile?: ReadonlyMap<string, Uint8Array>): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  const n = parts.ids.length;
  for (const [amenity, list] of parts.amenities) {
    let bits = fromFile?.get(amenity);
    if (bits === undefined) {
      bits = new Uint8Array((n >>> 3) + 1);
      for (const o of list) bits[o >>> 3] = bits[o >>> 3]! | (1 << (o & 7));
    }
    out.set(amenity, bits);
  }
  return out;
}

/**
 * Points that may lie within `within` (null: no such bound): those whose chord lower bound does
 * not already exceed the radius. A box's corners lie ~20% of its area outside the circle, and
 * rejecting them here spares their hours; the engine still decides the distance exactly.
 */
function nearTest(within: CandidateQuery['within']): ((latitude: number, longitude: number) => boolean) | null {
  if (within === undefined) return null;
  const bracket = new GeodesicBracket(within.center);
  const max = within.maxMeters;
  return (y, x) => !Number.isNaN(y) && bracket.lowerBoundAt(y, x) <= max;
}

/**
 * What the walk asks of a point before it collects the row: first by tree item (columns read in
 * runs, coordinates from the tree itself), then by ordinal for what only rows have.
 */
interface PointFilter {
  /** Amenity bitsets renumbered by item (point-walk.ts). */
  itemBits: readonly Uint8Array[];
  /** False when the point (latitude, longitude) surely lies beyond the radius. */
  near: ((latitude: number, longitude: number) => boolean) | null;
  /** open_at by item. */
  open: ((item: number) => boolean) | null;
  /** The remaining predicates, by ordinal (null: none). */
  row: ((o: number) => boolean) | null;
}

/**
 * Ordinals of the points in the boxes that pass `keep`, evaluated during the R-tree walk: rows
 * that fail a predicate (amenity bits, distance bound, availability, hours) are never collected.
 */
function walkPoints(parts: IndexParts, regions: readonly BBox[], keep: PointFilter | null): number[] {
  if (!parts.hasPoints) return [];
  const ordinals = parts.pointOrdinals;
  const out: number[] = [];
  const filter =
    keep === null
      ? (j: number): boolean => {
          out.push(ordinals[j]!);
          return false;
        }
      : (j: number, x: number, y: number): boolean => {
          for (const b of keep.itemBits) if ((b[j >>> 3]! & (1 << (j & 7))) === 0) return false;
          if (keep.near !== null && !keep.near(y, x)) return false;
          const o = ordinals[j]!;
          if (keep.row !== null && !keep.row(o)) return false;
          if (keep.open !== null && !keep.open(j)) return false;
          out.push(o);
          return false;
        };
  for (const b of regions) parts.pointTree.search(b.minLon, b.minLat, b.maxLon, b.maxLat, filter);
  // One box (every radius away from the antimeridian and the poles) has no duplicates to remove.
  return regions.length === 1 ? out : [...new Set(out)];
}

/** Whether ordinal `o` has a position inside one of the boxes. */
function inRegions(parts: IndexParts, o: number, regions: readonly BBox[]): boolean {
  const y = parts.lat[o]!;
  const x = parts.lon[o]!;
  if (Number.isNaN(y)) return false;
  for (const b of regions) if (y >= b.minLat && y <= b.maxLat && x >= b.minLon && x <= b.maxLon) return true;
  return false;
}

/** Ordinals whose coverage extent box contains the probe. */
function coverageOrdinals(parts: IndexParts, probe: Geo): Set<number> {
  const out = new Set<number>();
  if (!parts.hasExtents) return out;
  for (const x of probeLongitudes(probe.longitude)) {
    for (const i of parts.extentTree.search(x, probe.latitude, x, probe.latitude)) out.add(parts.extentOrdinals[i]!);
  }
  return out;
}

/** Ordinals listing the target's country, region or one of its postal codes. */
function localityOrdinals(parts: IndexParts, loc: NonNullable<CandidateQuery['locality']>): Set<number> {
  const out = new Set<number>();
  const add = (k: string): void => {
    for (const o of parts.localities.get(k) ?? []) out.add(o);
  };
  add(localityKey('country', loc.country, null));
  if (loc.region !== undefined) add(localityKey('region', loc.country, loc.region));
  for (const p of loc.postalCodes ?? []) add(localityKey('postal', loc.country, p));
  return out;
}

export class MemoryIndex {
  /** Generation of the data answered (advances in place when inventory is applied). */
  generation: number;
  /** replaceAll counter of the dataset this index holds. */
  readonly dataset: number;
  private items: Map<string, ItemRows>;
  private readonly amenityBits: ReadonlyMap<string, Uint8Array>;
  /**
   * Documents already parsed, by ordinal, frozen (the port's callers copy before changing a
   * Location). Popular Locations come back page after page, and parsing a document is the largest
   * cost of a small search; a full table is emptied rather than aged, like the service's caches.
   */
  private readonly parsed = new Map<number, Location>();
  /** open_at evaluated in the walk, with the engine's compiled schedules. */
  private readonly hours: IndexHours;
  /** Amenity bits by point-tree item, for the walk. */
  private readonly pointColumns: PointColumns;

  /** `amenityBits`: the bitsets read from an index file (else computed from the amenity lists). */
  constructor(
    private readonly parts: IndexParts,
    amenityBits?: ReadonlyMap<string, Uint8Array>,
  ) {
    this.generation = parts.counters.generation;
    this.dataset = parts.counters.dataset;
    this.items = parts.items;
    this.amenityBits = amenityBitsets(parts, amenityBits);
    this.hours = new IndexHours(parts.schedule, parts.pointOrdinals);
    this.pointColumns = new PointColumns(parts.pointOrdinals);
  }

  /** What the index is made of now (availability and generation as they stand), for writing it to a file. */
  snapshot(): { parts: Readonly<IndexParts>; amenityBits: ReadonlyMap<string, Uint8Array> } {
    return {
      parts: { ...this.parts, items: this.items, counters: { generation: this.generation, dataset: this.dataset } },
      amenityBits: this.amenityBits,
    };
  }

  get size(): number {
    return this.parts.ids.length;
  }

  // ───────────────────────── availability (changes in place) ─────────────────────────

  /** Apply inventory rows (location id, item, available) already committed to the store. */
  applyInventory(rows: readonly { location_id: string; item_id: string; available: boolean }[], generation: number): void {
    for (const r of rows) {
      const o = this.parts.idOrdinal.get(r.location_id);
      // Private Locations are not indexed: their availability cannot change any answer.
      if (o === undefined) continue;
      let m = this.items.get(r.item_id);
      if (m === undefined) this.items.set(r.item_id, (m = new Map<number, boolean>()));
      m.set(o, r.available);
    }
    this.generation = generation;
  }

  /** Replace all availability with rows read from the store at `generation` (same dataset). */
  replaceAvailability(rows: readonly [item: string, key: number, available: boolean][], generation: number): void {
    const items = new Map<string, ItemRows>();
    for (const [item, key, available] of rows) {
      const o = this.parts.ordinalOf.get(key);
      if (o === undefined) continue;
      let m = items.get(item);
      if (m === undefined) items.set(item, (m = new Map<number, boolean>()));
      m.set(o, available);
    }
    this.items = items;
    this.generation = generation;
  }

  // ───────────────────────── the read half of LocationStore ─────────────────────────

  private ordinalsOfKeys(keys: readonly number[]): number[] {
    const out = new Set<number>();
    for (const k of keys) {
      const o = this.parts.ordinalOf.get(k);
      if (o !== undefined) out.add(o);
    }
    return [...out];
  }

  private availableOrdinals(item: string): number[] {
    const out: number[] = [];
    for (const [o, available] of this.items.get(item) ?? []) if (available) out.push(o);
    return out;
  }

  findCandidates(query: CandidateQuery): Candidate[] {
    if (query.keys !== undefined && query.keys.length === 0) return [];
    if (query.regions !== undefined && query.regions.length === 0) return [];
    if (query.limit !== undefined && query.limit <= 0) return [];
    const amenities = query.amenities ?? [];
    const bits: Uint8Array[] = [];
    for (const a of amenities) {
      const b = this.amenityBits.get(a);
      if (b === undefined) return [];
      bits.push(b);
    }
    const itemRows: ItemRows[] = [];
    for (const item of query.items ?? []) {
      const m = this.items.get(item);
      if (m === undefined) return [];
      itemRows.push(m);
    }
    const terms = query.text !== undefined && query.text.terms.length > 0 ? query.text.terms : null;
    const coverage = query.coverageProbe !== undefined ? coverageOrdinals(this.parts, query.coverageProbe) : null;
    const locality = query.locality !== undefined ? localityOrdinals(this.parts, query.locality) : null;

    // Driver: the narrowest operand whose index lists rows directly.
    let driven: Iterable<number>;
    let hits: TextHits | null = null;
    // Ordinals come in ascending (= id) order: a limited scan without text can stop early.
    let ascending = false;
    // When the boxes drive, every driven row is already inside one of them.
    let checkRegions = query.regions !== undefined;
    // open_at is decided here only for a full answer: a bounded browse takes rows before hours.
    const openAtMs = query.limit === undefined ? query.openAtMs : undefined;
    const near = nearTest(query.within);
    /** The predicates on a driven row, cheapest first: amenity bits, availability, distance bound, hours. */
    const rowPredicates = (o: number): boolean => {
      if (coverage !== null && !coverage.has(o)) return false;
      if (locality !== null && !locality.has(o)) return false;
      for (const m of itemRows) if (m.get(o) !== true) return false;
      return true;
    };
    const hasRowPredicates = coverage !== null || locality !== null || itemRows.length > 0;
    let open: ((o: number) => boolean) | null = null;
    const passes = (o: number): boolean => {
      for (const b of bits) if ((b[o >>> 3]! & (1 << (o & 7))) === 0) return false;
      if (!rowPredicates(o)) return false;
      if (near !== null && !near(this.parts.lat[o]!, this.parts.lon[o]!)) return false;
      return open === null || open(o);
    };
    // Rows from the R-tree walk have passed every predicate already (no text: text scores first).
    let prefiltered = false;
    if (query.keys !== undefined) driven = this.ordinalsOfKeys(query.keys);
    else if (query.regions !== undefined) {
      prefiltered = terms === null;
      const keep: PointFilter | null = prefiltered
        ? {
            itemBits: bits.map((b) => this.pointColumns.bitsOf(b)),
            near,
            open: openAtMs === undefined ? null : this.hours.atItems(openAtMs),
            row: hasRowPredicates ? rowPredicates : null,
          }
        : null;
      driven = walkPoints(this.parts, query.regions, keep);
      checkRegions = false;
    } else if (coverage !== null) driven = coverage;
    else if (terms !== null) driven = (hits = this.parts.text.search(terms)).ords;
    else if (locality !== null) driven = locality;
    else if (query.items !== undefined && query.items.length > 0) driven = this.availableOrdinals(query.items[0]!);
    else if (amenities.length > 0) {
      driven = this.parts.amenities.get(amenities[0]!) ?? [];
      ascending = true;
    } else {
      driven = this.parts.ids.keys();
      ascending = true;
    }
    // Text beside a key list or a spatial operand, usually far fewer rows than a common word
    // matches: only the driven rows are scored, not every match in the dataset.
    if (terms !== null && hits === null) hits = this.parts.text.searchAmong(terms, sortedUnique([...driven]));

    // By ordinal, for the rows no walk filtered (set only now: the walk used its own per-item test).
    if (!prefiltered && openAtMs !== undefined) open = this.hours.at(openAtMs);
    const kept: number[] = [];
    const keptScores: number[] = [];
    const stopAt = query.limit !== undefined && hits === null && ascending ? query.limit : Number.POSITIVE_INFINITY;
    const consider = (o: number, score: number): boolean => {
      if (checkRegions && !inRegions(this.parts, o, query.regions as readonly BBox[])) return false;
      if (!prefiltered && !passes(o)) return false;
      kept.push(o);
      keptScores.push(score);
      return kept.length >= stopAt;
    };
    const unfiltered =
      !checkRegions && coverage === null && locality === null && bits.length === 0 && itemRows.length === 0 && open === null;
    if (hits !== null && unfiltered && query.limit !== undefined) {
      // Text alone (a bounded browse by relevance): the best rows straight from the hits.
      return topK(hits.ords, hits.scores, query.limit).map((i) => this.candidate(hits.ords[i]!, hits.scores[i]!, query));
    }
    if (hits !== null) {
      for (let i = 0; i < hits.ords.length; i++) consider(hits.ords[i]!, hits.scores[i]!);
    } else {
      for (const o of driven) if (consider(o, 0)) break;
    }
    let order: number[];
    if (query.limit === undefined) order = kept.map((_, i) => i);
    else if (hits !== null) order = topK(kept, keptScores, query.limit);
    else {
      order = kept.map((_, i) => i).sort((a, b) => kept[a]! - kept[b]!);
      order.length = Math.min(order.length, query.limit);
    }
    return order.map((i) => this.candidate(kept[i]!, keptScores[i]!, query));
  }

  private candidate(o: number, relevance: number, query: CandidateQuery): Candidate {
    const y = this.parts.lat[o]!;
    const c: Candidate = {
      key: this.parts.keys[o]!,
      id: this.parts.ids[o]!,
      geo: Number.isNaN(y) ? null : { latitude: y, longitude: this.parts.lon[o]! },
      relevance,
    };
    if (query.openAtMs !== undefined && query.limit === undefined) c.openAtChecked = true;
    if (query.withSchedule === true) {
      const s = this.parts.schedule[o] ?? null;
      c.schedule = s === null ? null : s.json;
      if (s !== null) c.scheduleKey = s.key;
    }
    if (query.withCoverage === true) {
      const s = this.parts.coverage[o] ?? null;
      c.coverage = s === null ? null : s.json;
      if (s !== null) c.coverageKey = s.key;
    }
    return c;
  }

  getLocations(keys: readonly number[]): Location[] {
    const out: Location[] = [];
    for (const k of keys) {
      const o = this.parts.ordinalOf.get(k);
      if (o === undefined) continue;
      let doc = this.parsed.get(o);
      if (doc === undefined) {
        doc = this.parts.docs.unpack(o);
        if (this.parsed.size >= PARSED_DOCUMENTS_KEPT) this.parsed.clear();
        this.parsed.set(o, doc);
      }
      out.push(doc);
    }
    return out;
  }

  getLanguages(keys: readonly number[]): Map<number, RecordLanguages> {
    const out = new Map<number, RecordLanguages>();
    for (const k of keys) {
      const o = this.parts.ordinalOf.get(k);
      const json = o === undefined ? undefined : this.parts.languages.get(o);
      if (json !== undefined) out.set(k, JSON.parse(json) as RecordLanguages);
    }
    return out;
  }

  resolveIds(ids: readonly string[]): Map<string, number[]> {
    const out = new Map<string, number[]>();
    for (const id of ids) {
      if (out.has(id)) continue;
      const o = this.parts.idOrdinal.get(id);
      if (o !== undefined) {
        out.set(id, [this.parts.keys[o]!]);
        continue;
      }
      // Ordinals ascend with ids: Locations sharing an alias come back in id order, as in the stores.
      const named = this.parts.aliases.get(id);
      if (typeof named === 'number') out.set(id, [this.parts.keys[named]!]);
      else if (named !== undefined && named.length > 0)
        out.set(
          id,
          Array.from(named, (a) => this.parts.keys[a]!),
        );
    }
    return out;
  }

  knownItems(items: readonly string[]): Set<string> {
    const out = new Set<string>();
    for (const i of items) if ((this.items.get(i)?.size ?? 0) > 0) out.add(i);
    return out;
  }

  amenityIds(limit: number): string[] {
    return [...this.parts.amenities]
      .sort(([a, x], [b, y]) => y.length - x.length || compareIds(a, b))
      .slice(0, limit)
      .map(([a]) => a);
  }

  localityModel(): { postalCountries: Set<string>; regionCountries: Set<string> } {
    const postalCountries = new Set<string>();
    const regionCountries = new Set<string>();
    for (const k of this.parts.localities.keys()) {
      const [country = '', kind] = k.split('\u0000');
      if (kind === 'p') postalCountries.add(country);
      else if (kind === 'r') regionCountries.add(country);
    }
    return { postalCountries, regionCountries };
  }
}
