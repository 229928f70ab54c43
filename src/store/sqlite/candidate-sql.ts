/**
 * SQL for `findCandidates`. One statement per query shape (cached by its text); the plan is
 * chosen here rather than left to the planner, because only we know which operand is selective:
 *
 *   driver (the first present): ids → text (when its estimated hit count is small, or nothing
 *   spatial exists) → geo R*Tree boxes → coverage R*Tree probe → locality lists → an item → an
 *   amenity → all public Locations;
 *
 * every other operand filters the driven rows: boxes as plain lat/lon ranges, coverage and
 * locality as key sets computed once, amenities and items as indexed existence probes (plus the
 * amenity bit mask on geo_points). Text that does not drive filters a materialised candidate set
 * in one pass over its matches. The driver is forced with CROSS JOIN so SQLite keeps the order.
 *
 * Each part is a fragment carrying its own parameters (sql-fragment.ts), composed in the order
 * the statement reads.
 */
import type { Geo } from '../../domain/location.js';
import type { BBox, CandidateQuery } from '../store.js';
import { FUZZY_WEIGHT } from '../search-text.js';
import { FTS_WEIGHTS } from './schema.js';
import { EMPTY, join, list, raw, sql, type Sql } from './sql-fragment.js';
import type { TextPlan } from './text-plan.js';

/** Above this many estimated text hits, a spatial driver goes first and text filters its rows. */
export const TEXT_DRIVER_MAX_ESTIMATE = 5_000;
export { FUZZY_WEIGHT };

export interface CandidateSql {
  sql: string;
  params: unknown[];
}

const BM25 = raw(`bm25(fts, ${FTS_WEIGHTS.join(', ')})`);

/** An R*Tree box overlapping `b` (the R*Tree columns are min_lon, max_lon, min_lat, max_lat). */
function overlaps(b: BBox): Sql {
  return sql`(min_lon <= ${b.maxLon} AND max_lon >= ${b.minLon} AND min_lat <= ${b.maxLat} AND max_lat >= ${b.minLat})`;
}

/** Longitudes under which a probe point must be looked up: ±180 name the same meridian. */
function probeLongitudes(lon: number): number[] {
  return Math.abs(lon) === 180 ? [180, -180] : [lon];
}

function localitySubquery(loc: NonNullable<CandidateQuery['locality']>): Sql {
  const parts = [sql`SELECT key FROM cov_country WHERE country = ${loc.country}`];
  if (loc.region !== undefined) parts.push(sql`SELECT key FROM cov_region WHERE country = ${loc.country} AND region = ${loc.region}`);
  if (loc.postalCodes !== undefined && loc.postalCodes.length > 0) {
    parts.push(sql`SELECT key FROM cov_postal WHERE country = ${loc.country} AND postal IN (${list(loc.postalCodes)})`);
  }
  return join(parts, ' UNION ');
}

function coverageSubquery(probe: Geo): Sql {
  // One R*Tree search per spelling of the longitude (an OR would defeat the index).
  const lat = probe.latitude;
  return join(
    probeLongitudes(probe.longitude).map(
      (lon) => sql`SELECT DISTINCT key FROM cov_rtree WHERE ${overlaps({ minLon: lon, maxLon: lon, minLat: lat, maxLat: lat })}`,
    ),
    ' UNION ',
  );
}

function textSubquery(text: TextPlan, extraCondition: Sql = EMPTY): Sql {
  const cond = extraCondition.text === '' ? EMPTY : sql` ${extraCondition}`;
  const strict = sql`SELECT rowid AS key, -${BM25} AS rel FROM fts WHERE fts MATCH ${text.strict}${cond}`;
  // A lone part is used as is: flattened into an aggregate, bm25() would lose its FTS context.
  if (text.fuzzy === null) return strict;
  const fuzzy = sql`SELECT rowid AS key, -${raw(String(FUZZY_WEIGHT))} * ${BM25} AS rel FROM fts WHERE fts MATCH ${text.fuzzy}${cond}`;
  return sql`SELECT key, sum(rel) AS rel FROM (${strict} UNION ALL ${fuzzy}) GROUP BY key`;
}

/** The operand whose index produces the rows (the others filter them), with its value. */
type Driver =
  | { kind: 'keys'; keys: readonly number[] }
  | { kind: 'regions'; regions: readonly BBox[] }
  | { kind: 'text'; text: TextPlan }
  | { kind: 'coverage'; probe: Geo }
  | { kind: 'locality'; locality: NonNullable<CandidateQuery['locality']> }
  | { kind: 'items' | 'amenities'; value: string }
  | { kind: 'all' };

/**
 * How a limited browse (no ids, text or spatial operand) with item / amenity filters is driven:
 * from one filter's (small) key list, or by scanning Locations in id order until `limit`
 * survivors are found (best when every filter is common). Chosen by the store from counts.
 */
export type BrowsePlan = { kind: 'items' | 'amenities'; value: string } | 'scan';

export interface CandidateSqlOptions {
  /** Estimated text hits up to which text drives a query that also has a spatial operand. */
  textDriverMax?: number;
  browse?: BrowsePlan;
  /**
   * Bits of the requested amenities in `geo_points.amask`; `exact` when every amenity of the
   * dataset has a bit of its own (then the mask alone decides and no per-row probe is needed).
   */
  amenityMask?: { mask: number; exact: boolean };
}

function chooseDriver(q: CandidateQuery, text: TextPlan | null, options: CandidateSqlOptions): Driver {
  if (q.keys !== undefined) return { kind: 'keys', keys: q.keys };
  const spatial = q.regions !== undefined || q.coverageProbe !== undefined || q.locality !== undefined;
  if (text !== null && (!spatial || text.estimate <= (options.textDriverMax ?? TEXT_DRIVER_MAX_ESTIMATE))) return { kind: 'text', text };
  if (q.regions !== undefined) return { kind: 'regions', regions: q.regions };
  if (text !== null) return { kind: 'text', text };
  if (q.coverageProbe !== undefined) return { kind: 'coverage', probe: q.coverageProbe };
  if (q.locality !== undefined) return { kind: 'locality', locality: q.locality };
  if (options.browse === 'scan') return { kind: 'all' };
  if (options.browse !== undefined) return options.browse;
  const item = q.items?.[0];
  if (item !== undefined) return { kind: 'items', value: item };
  const amenity = q.amenities?.[0];
  if (amenity !== undefined) return { kind: 'amenities', value: amenity };
  return { kind: 'all' };
}

/** The driver's row source (the `drv` CTE), or null when every public Location is scanned. */
function driverSource(driver: Driver): Sql | null {
  switch (driver.kind) {
    case 'keys':
      return sql`SELECT DISTINCT value AS key FROM json_each(${JSON.stringify(driver.keys)})`;
    case 'regions':
      return join(
        driver.regions.map((b) => sql`SELECT gkey FROM geo_rtree WHERE ${overlaps(b)}`),
        ' UNION ',
      );
    case 'text':
      return textSubquery(driver.text);
    case 'coverage':
      return coverageSubquery(driver.probe);
    case 'locality':
      return localitySubquery(driver.locality);
    case 'items':
      return sql`SELECT key FROM availability WHERE iid = (SELECT iid FROM item_keys WHERE item = ${driver.value}) AND available = 1`;
    case 'amenities':
      return sql`SELECT key FROM amenities WHERE aid = (SELECT aid FROM amenity_keys WHERE amenity = ${driver.value})`;
    case 'all':
      return null;
  }
}

/** The conditions on the driven rows `l`: every operand the driver does not already apply. */
function filters(q: CandidateQuery, driver: Driver, options: CandidateSqlOptions): Sql[] {
  const where: Sql[] = driver.kind === 'regions' ? [] : [raw('l.public = 1')];
  if (driver.kind !== 'regions' && q.regions !== undefined) {
    const boxes = q.regions.map((b) => sql`(l.lat BETWEEN ${b.minLat} AND ${b.maxLat} AND l.lon BETWEEN ${b.minLon} AND ${b.maxLon})`);
    where.push(sql`(${join(boxes, ' OR ')})`);
  }
  if (driver.kind !== 'coverage' && q.coverageProbe !== undefined) where.push(sql`l.key IN (${coverageSubquery(q.coverageProbe)})`);
  if (driver.kind !== 'locality' && q.locality !== undefined) where.push(sql`l.key IN (${localitySubquery(q.locality)})`);
  for (const item of q.items ?? []) {
    // The driver already applies its own value.
    if (driver.kind === 'items' && item === driver.value) continue;
    where.push(
      sql`EXISTS (SELECT 1 FROM availability v WHERE v.iid = (SELECT iid FROM item_keys WHERE item = ${item}) AND v.key = l.key AND v.available = 1)`,
    );
  }
  const mask = driver.kind === 'regions' ? options.amenityMask : undefined;
  // geo_points carries a bit per amenity (a Bloom filter once there are more than 53).
  if (mask !== undefined && mask.mask !== 0) where.push(sql`(l.amask & ${mask.mask}) = ${mask.mask}`);
  for (const amenity of q.amenities ?? []) {
    if (mask?.exact === true) continue;
    if (driver.kind === 'amenities' && amenity === driver.value) continue;
    where.push(
      sql`EXISTS (SELECT 1 FROM amenities a WHERE a.aid = (SELECT aid FROM amenity_keys WHERE amenity = ${amenity}) AND a.key = l.key)`,
    );
  }
  return where;
}

/**
 * Build the statement. `text` is the planned text query (null when the query has no text);
 * `q.regions` must be non-empty when present (an empty union matches nothing — the caller
 * short-circuits that case).
 */
export function buildCandidateSql(q: CandidateQuery, text: TextPlan | null, options: CandidateSqlOptions = {}): CandidateSql {
  const driver = chooseDriver(q, text, options);
  const source = driverSource(driver);
  // geo_points holds only public Locations, in the R*Tree's own (Hilbert) order, with the same
  // column names as `locations`: the rest of the statement does not need to know.
  const from = raw(
    driver.kind === 'regions'
      ? 'drv CROSS JOIN geo_points l ON l.gkey = drv.gkey'
      : source === null
        ? 'locations l'
        : 'drv CROSS JOIN locations l ON l.key = drv.key',
  );
  const where = filters(q, driver, options);
  const whereSql = where.length > 0 ? sql` WHERE ${join(where, ' AND ')}` : EMPTY;
  const cte = source === null ? null : sql`drv AS (${source})`;
  const limit = q.limit;
  // Only the ids of the shared schedule / coverage documents: the store resolves them from its
  // cache, so thousands of candidates do not each materialise the same JSON text. NULL when not
  // asked for, so every statement returns the same columns (CandidateRow).
  const sid = q.withSchedule === true;
  const cid = q.withCoverage === true;
  const extra = raw(`, ${sid ? 'l.sid' : 'NULL'} AS sid, ${cid ? 'l.cid' : 'NULL'} AS cid`);
  let statement: Sql;
  if (text !== null && driver.kind !== 'text') {
    // Text filters a materialised candidate set. `+rowid` keeps the key set away from FTS5
    // (as a rowid constraint it would re-run the MATCH, bm25 statistics included, per key);
    // bm25 is then computed only for matching rows that are in the set.
    const base = sql`base AS MATERIALIZED (SELECT l.key AS key, l.id AS id, l.lat AS lat, l.lon AS lon${extra} FROM ${from}${whereSql})`;
    const txt = sql`txt AS (${textSubquery(text, raw('AND +rowid IN (SELECT key FROM base)'))})`;
    const extraBase = raw(`, ${sid ? 'b.sid' : 'NULL AS sid'}, ${cid ? 'b.cid' : 'NULL AS cid'}`);
    const order = limit === undefined ? EMPTY : sql` ORDER BY relevance DESC, b.id LIMIT ${limit}`;
    statement = sql`WITH ${join(cte === null ? [base, txt] : [cte, base, txt], ', ')} SELECT b.key AS key, b.id AS id, b.lat AS lat, b.lon AS lon${extraBase}, txt.rel AS relevance FROM txt CROSS JOIN base b ON b.key = txt.key${order}`;
  } else {
    const relevance = raw(driver.kind === 'text' ? 'drv.rel' : '0');
    const order =
      limit === undefined
        ? EMPTY
        : driver.kind === 'text'
          ? sql` ORDER BY relevance DESC, l.id LIMIT ${limit}`
          : sql` ORDER BY l.id LIMIT ${limit}`;
    const withCte = cte === null ? EMPTY : sql`WITH ${cte} `;
    statement = sql`${withCte}SELECT l.key AS key, l.id AS id, l.lat AS lat, l.lon AS lon${extra}, ${relevance} AS relevance FROM ${from}${whereSql}${order}`;
  }
  return { sql: statement.text, params: [...statement.params] };
}
