/**
 * The naive baseline: every Location held in memory, every query a full scan in plain
 * TypeScript — a competent one: a bounding-box reject first, then the same exact predicates as the engine — our own Karney geodesic distance,
 * our hours evaluator, exact amenity keys, our coverage test — and the same ranking and paging
 * functions. No index of any kind. It is what "just filter an array" costs, and its answers are
 * an independent check of the engine's (which goes through SQL candidates first).
 *
 * Predicates run cheapest first (visibility, amenity keys, items, then distance, hours,
 * coverage), which is what a sensible hand-written scan does and gives the baseline its best shot.
 * Schedules and coverages are compiled once at load, as the engine caches them per dataset.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { geodesicDistanceMeters } from '../../../src/domain/geodesy.js';
import { compileSchedule, isOpenCompiled, type CompiledSchedule } from '../../../src/domain/hours.js';
import { toPublicLocation, type BBox, type Geo, type Location, type LocationRecord } from '../../../src/domain/location.js';
import { isBoundedBrowse, planPredicates, type PredicatePlan } from '../../../src/domain/predicates.js';
import { compareIds, compareRank, type RankKey } from '../../../src/domain/ranking.js';
import type { LookupRequest, SearchRequest } from '../../../src/domain/requests.js';
import { compileCoverage, coverageContainsPoint, type CompiledCoverage } from '../../../src/domain/serves.js';
import { DEFAULT_LIMITS } from '../../../src/service.js';
import type { Contender, Instance, LookupOutput, Output, QueryDef, SearchOutput } from '../types.js';

interface Row {
  id: string;
  aliases: readonly string[] | null;
  public: boolean;
  geo: Geo | null;
  amenities: readonly string[];
  items: readonly string[] | null;
  schedule: CompiledSchedule;
  coverage: CompiledCoverage | null;
  /** JSON of the public Location, parsed only for Locations actually returned. */
  doc: string;
}

function inBoxes(g: Geo, boxes: readonly BBox[]): boolean {
  for (const b of boxes) {
    if (g.latitude >= b.minLat && g.latitude <= b.maxLat && g.longitude >= b.minLon && g.longitude <= b.maxLon) return true;
  }
  return false;
}

interface Hit extends RankKey {
  row: number;
}

interface Page {
  items: Hit[];
  /** Whether matches remain after this page. */
  hasMore: boolean;
}

/** Keyset paging over hits sorted by compareRank: the `size` hits strictly after `after`. */
function pageAfter(sorted: readonly Hit[], after: RankKey | null, size: number): Page {
  let start = 0;
  if (after !== null) {
    let hi = sorted.length;
    while (start < hi) {
      const mid = (start + hi) >>> 1;
      if (compareRank(sorted[mid] as Hit, after) <= 0) start = mid + 1;
      else hi = mid;
    }
  }
  const stop = Math.min(sorted.length, start + size);
  return { items: sorted.slice(start, stop), hasMore: stop < sorted.length };
}

export interface NaiveLoadProgress {
  (done: number): void;
}

export class NaiveScan implements Contender {
  readonly name = 'naive';
  readonly limits = DEFAULT_LIMITS;

  private constructor(private readonly rows: readonly Row[]) {}

  /** Reads an NDJSON dataset (already valid: it is the file the engine imported). */
  static async load(path: string, onProgress?: NaiveLoadProgress): Promise<NaiveScan> {
    const rows: Row[] = [];
    const schedules = new Map<string, CompiledSchedule>();
    const coverages = new Map<string, CompiledCoverage>();
    const input = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 });
    const lines = createInterface({ input, crlfDelay: Infinity });
    for await (const line of lines) {
      if (line.trim() === '') continue;
      const r = JSON.parse(line) as LocationRecord;
      // Identical schedules/coverages share one compiled value (memory only; same evaluator).
      const scheduleKey = JSON.stringify([r.timezone, r.hours, r.exception_hours]);
      let schedule = schedules.get(scheduleKey);
      if (schedule === undefined) {
        schedule = compileSchedule({ timezone: r.timezone, hours: r.hours, exception_hours: r.exception_hours });
        schedules.set(scheduleKey, schedule);
      }
      let coverage: CompiledCoverage | null = null;
      if (r.serves?.radius_m !== undefined || r.serves?.areas !== undefined) {
        const part = {
          ...(r.serves.radius_m !== undefined ? { radius_m: r.serves.radius_m } : {}),
          ...(r.serves.areas !== undefined ? { areas: r.serves.areas } : {}),
        };
        const key = JSON.stringify(part);
        coverage = coverages.get(key) ?? compileCoverage(part);
        coverages.set(key, coverage);
      }
      rows.push({
        id: r.id,
        aliases: r.aliases ?? null,
        public: r.visibility !== 'private',
        geo: r.geo ?? null,
        amenities: Object.keys(r.amenities ?? {}),
        items: r.items ?? null,
        schedule,
        coverage,
        doc: JSON.stringify(toPublicLocation(r)),
      });
      if (onProgress !== undefined && rows.length % 100_000 === 0) onProgress(rows.length);
    }
    rows.sort((a, b) => compareIds(a.id, b.id));
    return new NaiveScan(rows);
  }

  get size(): number {
    return this.rows.length;
  }

  /** Public Locations with a geo, for the floor's index: parallel arrays. */
  points(): { ids: string[]; lon: Float64Array; lat: Float64Array } {
    const kept = this.rows.filter((r) => r.public && r.geo !== null);
    return {
      ids: kept.map((r) => r.id),
      lon: Float64Array.from(kept, (r) => (r.geo as Geo).longitude),
      lat: Float64Array.from(kept, (r) => (r.geo as Geo).latitude),
    };
  }

  unsupported(query: QueryDef): string | null {
    return query.text
      ? 'free-text relevance is FTS5 bm25 with stemming and typo expansion; a plain scan has no equivalent to compare'
      : null;
  }

  run(instance: Instance): Output {
    return instance.op === 'lookup' ? this.lookup(instance.request) : this.search(instance.request, instance.pages);
  }

  async close(): Promise<void> {}

  // ───────────────────────── predicates ─────────────────────────

  /** AND of every predicate but the store-side ones already checked; returns the rank distance or -1. */
  private matches(row: Row, plan: PredicatePlan, center: Geo | null): number {
    if (!row.public) return -1;
    for (const a of plan.amenities) if (!row.amenities.includes(a)) return -1;
    if (plan.items.length > 0) {
      if (row.items === null) return -1;
      for (const item of plan.items) if (!row.items.includes(item)) return -1;
    }
    // A competent scan rejects by bounding box before any geodesic: the engine's own conservative
    // boxes around the circle (they never exclude a true match), then the exact Karney distance.
    if (plan.distance !== null && (row.geo === null || !inBoxes(row.geo, plan.distance.regions))) return -1;
    let distance = 0;
    if (center !== null) distance = row.geo === null ? Number.POSITIVE_INFINITY : geodesicDistanceMeters(center, row.geo);
    if (plan.distance !== null && (row.geo === null || !(distance <= plan.distance.max))) return -1;
    if (plan.openAtMs !== null && !isOpenCompiled(row.schedule, plan.openAtMs)) return -1;
    if (plan.servesPoint !== null && (row.coverage === null || !coverageContainsPoint(row.coverage, row.geo, plan.servesPoint))) return -1;
    return distance;
  }

  private plan(request: SearchRequest | LookupRequest): PredicatePlan {
    const plan = planPredicates(request, this.limits);
    if (plan.servesAddress !== null) throw new Error('naive: serves.address is not part of the benchmark mix');
    return plan;
  }

  /** Every match in result order (relevance is 0 without text: distance, then id). */
  private ranked(plan: PredicatePlan, rowIndexes?: readonly number[]): Hit[] {
    const center = plan.distance?.center ?? plan.servesPoint;
    const hits: Hit[] = [];
    const consider = (i: number): void => {
      const row = this.rows[i] as Row;
      const d = this.matches(row, plan, center);
      if (d >= 0) hits.push({ row: i, relevance: 0, distance: d, id: row.id });
    };
    if (rowIndexes === undefined) for (let i = 0; i < this.rows.length; i++) consider(i);
    else for (const i of rowIndexes) consider(i);
    hits.sort(compareRank);
    return hits;
  }

  /** The bounded browse set: the first `browseCap` matches in id order (rows are sorted by id). */
  private browse(plan: PredicatePlan): Hit[] {
    const hits: Hit[] = [];
    for (let i = 0; i < this.rows.length && hits.length < this.limits.browseCap; i++) {
      const row = this.rows[i] as Row;
      if (this.matches(row, plan, null) >= 0) hits.push({ row: i, relevance: 0, distance: 0, id: row.id });
    }
    return hits;
  }

  // ───────────────────────── operations ─────────────────────────

  /**
   * `pages` pages of `pagination.limit` (default 10). Each page is a fresh full scan resumed after
   * the last key served, as a stateless server answering a cursor would have to do.
   */
  search(request: SearchRequest, pages = 1): SearchOutput {
    if (request.query !== undefined) throw new Error('naive: free text is not supported');
    const plan = this.plan(request);
    const size = Math.min(request.pagination?.limit ?? this.limits.defaultPageSize, this.limits.maxPageSize);
    const ids: string[] = [];
    let total = 0;
    let after: RankKey | null = null;
    for (let p = 0; p < pages; p++) {
      const hits = isBoundedBrowse(plan) ? this.browse(plan) : this.ranked(plan);
      if (p === 0) total = hits.length;
      const page = pageAfter(hits, after, size);
      // Materialise the page as the engine does (documents parsed for returned Locations only).
      const docs = page.items.map((h) => JSON.parse((this.rows[h.row] as Row).doc) as Location);
      for (const d of docs) ids.push(d.id);
      const last: Hit | undefined = page.items[page.items.length - 1];
      if (!page.hasMore || last === undefined) break;
      after = last;
    }
    return { type: 'search', ids, total };
  }

  /** The exact result (ordered ids) among the given candidate rows, for checking the floor. */
  exactAmong(request: SearchRequest, ids: readonly string[]): string[] {
    const plan = this.plan(request);
    const index = this.rowIndexById();
    const rows = ids.map((id) => index.get(id)).filter((i): i is number => i !== undefined);
    return this.ranked(plan, rows).map((h) => h.id);
  }

  private byId: Map<string, number> | undefined;
  private rowIndexById(): Map<string, number> {
    this.byId ??= new Map(this.rows.map((r, i) => [r.id, i]));
    return this.byId;
  }

  /**
   * Lookup by full scan: canonical ids first, then aliases (several Locations per alias in id
   * order), the first `lookupBatchMax` distinct ids only, then the refinement predicates.
   */
  lookup(request: LookupRequest): LookupOutput {
    const plan = this.plan(request);
    const processed = [...new Set(request.ids)].slice(0, this.limits.lookupBatchMax);
    const wanted = new Set(processed);
    const canonical = new Map<string, number>();
    const viaAlias = new Map<string, number[]>();
    for (let i = 0; i < this.rows.length; i++) {
      const row = this.rows[i] as Row;
      if (!row.public) continue;
      if (wanted.has(row.id)) canonical.set(row.id, i);
      if (row.aliases !== null) {
        for (const a of row.aliases) {
          if (!wanted.has(a)) continue;
          const list = viaAlias.get(a);
          if (list === undefined) viaAlias.set(a, [i]);
          else list.push(i); // rows are in id order, so each list is too
        }
      }
    }
    const inputsByRow = new Map<number, string[]>();
    for (const id of processed) {
      const c = canonical.get(id);
      for (const i of c !== undefined ? [c] : (viaAlias.get(id) ?? [])) {
        const inputs = inputsByRow.get(i);
        if (inputs === undefined) inputsByRow.set(i, [id]);
        else inputs.push(id);
      }
    }
    const center = plan.distance?.center ?? plan.servesPoint;
    const entries: LookupOutput['entries'] = [];
    for (const [i, inputs] of inputsByRow) {
      const row = this.rows[i] as Row;
      if (this.matches(row, plan, center) < 0) continue;
      const doc = JSON.parse(row.doc) as Location;
      entries.push({ id: doc.id, inputs });
    }
    return { type: 'lookup', entries };
  }
}
