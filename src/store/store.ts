/**
 * LocationStore: the port between the location engine and persistence.
 *
 * Division of labour (so SQLite and PostgreSQL give identical answers):
 *  - a store answers *candidate* queries that may over-approximate the spatial predicates
 *    (bounding boxes from a spatial index) but must never miss a true match;
 *  - predicates a store can evaluate exactly (amenity keys, item availability, locality lists,
 *    visibility, ids/aliases) it applies exactly;
 *  - the engine (src/service.ts + src/domain/*) applies the exact geodesic test, point-in-area,
 *    opening hours, ranking and pagination.
 * All methods are async because the PostgreSQL adapter is.
 *
 * The port is the whole contract: what only some stores can do (pin a snapshot, feed an in-memory
 * index, report their own readiness, tell of other processes' writes, wait for them) is declared
 * here as optional members, so a caller asks `store.readiness?.()` and never guesses at a type.
 */
import type { BBox, Geo, Location, LocationRecord, RecordLanguages } from '../domain/location.js';
import type { DataIssue } from '../errors.js';

export type { BBox };

export interface CandidateQuery {
  /** Restrict to these internal keys (lookup refinement). */
  keys?: readonly number[];
  /** Location `geo` must fall in the union of these boxes (conservative radius prefilter). */
  regions?: readonly BBox[];
  /**
   * Optional prefilter beside `regions`: a store may leave out rows whose geodesic distance from
   * `center` surely exceeds `maxMeters` (a cheap lower bound, GeodesicBracket), and rows without a
   * position. Rows it keeps may still lie farther: the engine decides exactly (R-S4).
   */
  within?: { center: Geo; maxMeters: number };
  /**
   * `serves.point` prefilter: only Locations whose coverage (radius around geo, or an area)
   * may contain this point, i.e. whose coverage extent box contains it.
   */
  coverageProbe?: Geo;
  /**
   * `serves.address`, evaluated exactly by the store against locality lists: a Location matches
   * if it lists any of `postalCodes` for `country` (the target's code and the coarser codes it
   * nests in), or covers `region` of `country`, or the whole `country`.
   * Country is ISO alpha-2 upper-case; region/postal already normalised (see domain/serves.ts).
   */
  locality?: { country: string; region?: string; postalCodes?: readonly string[] };
  /** Free text; restricts to text matches and fills `relevance`. Tokens already normalised. */
  text?: TextQuery;
  /** Every id must be an exact key of the Location's amenities. */
  amenities?: readonly string[];
  /** Every item must be currently available at the Location. */
  items?: readonly string[];
  /** Also return the raw schedule (hours, exception_hours, timezone) of each candidate. */
  withSchedule?: boolean;
  /**
   * Optional prefilter for `filters.hours.open_at` (epoch ms): a store that can evaluate the
   * engine's compiled schedules (domain/hours.ts) may leave out rows not open at this instant and
   * mark the rows it kept `openAtChecked`; any other store ignores it and the engine decides (R-S6).
   * Ignored with `limit`: a bounded browse takes its rows before the engine's hours are applied.
   */
  openAtMs?: number;
  /** Also return the coverage (radius_m, areas) of each candidate. */
  withCoverage?: boolean;
  /**
   * Upper bound on rows returned when no spatial/ids operand bounds the set (bounded browse).
   * Rows are then the best by relevance, then id.
   */
  limit?: number;
}

/** Text query after tokenisation: OR over terms, each term expanded to fuzzy variants. */
export interface TextQuery {
  /** Raw query as received (for stores with their own parser, e.g. PostgreSQL websearch). */
  raw: string;
  /** Normalised lower-case tokens. */
  terms: readonly string[];
}

export interface Candidate {
  /**
   * Internal row key, stable for the life of a dataset generation. (The SQLite store never
   * reuses a key, not even across replaceAll, so a key read just before a swap cannot name
   * another Location just after it; PostgreSQL should do the same with a sequence.)
   */
  key: number;
  /** Canonical Location id (stable tiebreak key). */
  id: string;
  geo: Geo | null;
  /** Text relevance, larger is better; 0 when the query has no text. */
  relevance: number;
  /** JSON of {timezone?, hours?, exception_hours?} when `withSchedule`. */
  schedule?: string | null;
  /** JSON of {radius_m?, areas?} when `withCoverage`. */
  coverage?: string | null;
  /**
   * Optional identity of `schedule`'s content: candidates with the same scheduleKey have the
   * same schedule, so the engine compiles it once. Must never name different content later
   * (never reuse a value, also across replaceAll) — stores that cannot promise this omit it.
   */
  scheduleKey?: number;
  /** Optional identity of `coverage`'s content, with the same promise as `scheduleKey`. */
  coverageKey?: number;
  /**
   * Set by a store that evaluated `CandidateQuery.openAtMs` itself, exactly as the engine would
   * (compileSchedule + isOpenCompiled on the stored schedule): the row is open then.
   */
  openAtChecked?: true;
}

export interface ImportProgress {
  phase: 'reading' | 'writing' | 'indexing' | 'done';
  done: number;
  total?: number;
}

export interface ImportResult {
  locations: number;
  publicLocations: number;
  availability: number;
  generation: number;
}

/**
 * What an import says about itself beyond its records, kept by the store beside the dataset it
 * wrote (same transaction) so that an operator can read it later from any process: the console's
 * overview shows the last import's warnings whoever ran it.
 */
export interface ImportNotes {
  /** When the import ran, RFC 3339. */
  at: string;
  files: { file: string; format: string; records: number }[];
  /** Warnings kept (the caller caps the list; see MAX_KEPT_IMPORT_WARNINGS). */
  warnings: DataIssue[];
  /** All warnings found, including any not kept. */
  warningCount: number;
}

/**
 * Notes as `replaceAll` takes them: the notes themselves, or a function the store calls once the
 * record stream has ended (an import that validates while it writes knows its warnings only then).
 */
export type ImportNotesSource = ImportNotes | (() => ImportNotes);

/** Warnings an import hands the store to keep; the count says how many there were in all. */
export const MAX_KEPT_IMPORT_WARNINGS = 500;

/** The last `replaceAll` as the store recorded it: its result and its notes (empty when none were given). */
export interface LastImportRecord extends ImportNotes, ImportResult {}

export interface InventoryRow {
  /** Source line for error messages (1-based). */
  line: number;
  location_id: string;
  item_id: string;
  available: boolean;
}

export interface StoreStats {
  locations: number;
  publicLocations: number;
  items: number;
  availableRows: number;
  generation: number;
}

/**
 * What a store keeps of one Location in a comparable form (import --dry-run diffs a new dataset
 * against it). Private Locations keep no document and no aliases in either store.
 */
export interface StoredLocation {
  id: string;
  public: boolean;
  /** The public Location JSON as served (`toPublicLocation` of the record); null when private. */
  doc: string | null;
  /** Sorted. */
  aliases: string[];
}

/** A public Location as an in-memory index loads it (see store/memory-index/). */
export interface IndexLocationRow {
  key: number;
  id: string;
  lat: number | null;
  lon: number | null;
  /** Public Location JSON, as getLocations returns it. */
  doc: string;
  /** JSON {timezone?, hours?, exception_hours?} or null (as Candidate.schedule). */
  schedule: string | null;
  /** JSON {radius_m?, areas?} or null (as Candidate.coverage). */
  coverage: string | null;
}

/**
 * Receives one consistent snapshot of the searchable data (public Locations only), table by
 * table, from `LocationStore.exportIndex`. Everything else an index needs (text columns other
 * than keywords, coverage extents) it derives from these values with the same functions the
 * stores use at import.
 */
export interface IndexSink {
  location(row: IndexLocationRow): void;
  alias(alias: string, key: number): void;
  amenity(amenity: string, key: number): void;
  /** A `serves` locality list entry: country, country+region, or country+postal code (normalised). */
  locality(kind: 'country' | 'region' | 'postal', country: string, value: string | null, key: number): void;
  /** Stemmed keyword term of a Location and how often it occurs (keywords are not in the document). */
  keywordTerm(key: number, stem: string, count: number): void;
  /** An availability row of a public Location. */
  availability(key: number, item: string, available: boolean): void;
  /** The JSON of a public Location's own language and translations (as getLanguages reads it). */
  languages(key: number, json: string): void;
}

/** The counters an export was read at: `generation` as generation(), `dataset` bumped by replaceAll only. */
export interface ExportCounters {
  generation: number;
  dataset: number;
}

/** A store view fixed to one data snapshot for the length of one request (`LocationStore.pin`). */
export interface PinnedStore {
  store: LocationStore;
  /** Identity of the snapshot; a cursor carries it so later pages read the same one. */
  snapshot: number;
}

/** Outcome of a store's own readiness check (`/readyz`). */
export interface StoreReadiness {
  ready: boolean;
  /** Short, public: 'ok' | 'unreachable' | 'schema' | 'error' | 'closed'. */
  reason: 'ok' | 'unreachable' | 'schema' | 'error' | 'closed';
  /** For logs: e.g. "PostgreSQL unreachable: connect ECONNREFUSED …" (may name the host). */
  detail: string;
}

/**
 * What a store shared between processes tells of committed writes, its own and (while it hears
 * them) other processes': a cache keyed by generation follows it instead of asking each time.
 */
export interface StoreChangeFeed {
  /**
   * Called whenever this process learns of a newer committed generation — its own write, another
   * process's notification, or a counter read. Returns the function that unsubscribes.
   */
  onChange(listener: (counters: ExportCounters) => void): () => void;
  /**
   * The newest committed generation known without asking the database, or null while that is not
   * trustworthy (the feed is down, reconnecting, or has not yet re-read the counters): the caller
   * must then read `generation()`.
   */
  notifiedGeneration(): number | null;
}

export interface LocationStore {
  readonly kind: string;

  /**
   * Optional: the store's own readiness check (PostgreSQL: reachable and migrated). Never throws.
   * A store without one is ready when it answers `generation()`.
   */
  readiness?(): Promise<StoreReadiness>;

  /**
   * Optional: a feed of committed changes (PostgreSQL LISTEN/NOTIFY). A store without one is read
   * afresh: its `generation()` is always current.
   */
  readonly changeFeed?: StoreChangeFeed;

  /**
   * Optional: resolves once this store answers from `generation` or newer (the number a write
   * reported, in this process or another). Only a store that may lag behind its system of record
   * (an in-memory index following a change feed) has it; any other store is always caught up.
   */
  caughtUp?(generation: number): Promise<void>;

  /**
   * Optional: a view that answers every read of one request from one snapshot of the data.
   * `snapshot` (from a cursor) asks for the snapshot an earlier page read, when still held.
   */
  pin?(snapshot?: number): Promise<PinnedStore>;

  /**
   * Stream the current dataset, read in one snapshot, into `sink` (optional: stores that can
   * feed an in-memory index implement it).
   */
  exportIndex?(sink: IndexSink): Promise<ExportCounters>;

  /** Stream only the availability rows of public Locations, read in one snapshot. */
  exportAvailability?(sink: Pick<IndexSink, 'availability'>): Promise<ExportCounters>;

  findCandidates(query: CandidateQuery): Promise<Candidate[]>;

  /** Public Location documents for these keys, in the order given (missing keys skipped). They may be shared and frozen: copy before changing one. */
  getLocations(keys: readonly number[]): Promise<Location[]>;

  /**
   * The own language and translations (R-C3) of these public Locations, for those that have any.
   * Kept apart from the documents so that they never appear in a returned Location.
   */
  getLanguages(keys: readonly number[]): Promise<Map<number, RecordLanguages>>;

  /**
   * Resolve request identifiers (canonical ids first, then aliases) to keys of *public*
   * Locations. Returns one entry per distinct input that resolved.
   */
  resolveIds(ids: readonly string[]): Promise<Map<string, number[]>>;

  /** Which of these item ids the Business knows at all (any location, available or not). */
  knownItems(items: readonly string[]): Promise<Set<string>>;

  /**
   * Amenity ids used by public Locations, most used first (ties by id), at most `limit`. Optional:
   * it only feeds the examples shown to callers (MCP tool descriptions); a store without it shows none.
   */
  amenityIds?(limit: number): Promise<string[]>;

  /** Countries for which any Location lists postal codes / regions (serves.address evaluability). */
  localityModel(): Promise<{ postalCountries: Set<string>; regionCountries: Set<string> }>;

  /**
   * Replace the whole dataset atomically (one transaction): readers see the old dataset
   * until commit, then the new one. Records must already be validated; a record stream that
   * throws (the importer found a problem) rolls the whole replacement back.
   */
  replaceAll(
    records: AsyncIterable<LocationRecord> | Iterable<LocationRecord>,
    onProgress?: (p: ImportProgress) => void,
    notes?: ImportNotesSource,
  ): Promise<ImportResult>;

  /**
   * Optional: the last `replaceAll` committed to this store, with the notes it was given, or null
   * when none was recorded. Inventory updates do not change it (its `generation` is the import's).
   */
  lastImport?(): Promise<LastImportRecord | null>;

  /**
   * Apply an availability batch atomically. Rejects the whole batch (DataValidationError with
   * line numbers) when a row names an unknown location.
   */
  applyInventory(rows: readonly InventoryRow[], file?: string): Promise<{ applied: number; generation: number }>;

  /** Increases on every committed data change, visible across processes sharing the store. */
  generation(): Promise<number>;

  stats(): Promise<StoreStats>;

  /** Every Location of the current dataset, in one snapshot, sorted by id. Reads only. */
  storedLocations(): Promise<StoredLocation[]>;

  close(): Promise<void>;
}
