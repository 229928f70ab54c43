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
 */
import type { Geo } from '../../domain/location.js';
import type { BBox, CandidateQuery } from '../store.js';
import { FUZZY_WEIGHT } from '../search-text.js';
import { FTS_WEIGHTS } from './schema.js';
import type { TextPlan } from './text-plan.js';

/** Above this many estimated text hits, a spatial driver goes first and text filters its rows. */
export const TEXT_DRIVER_MAX_ESTIMATE = 5_000;
export { FUZZY_WEIGHT };

export interface CandidateSql {
  sql: string;
  params: unknown[];
}

const BM25 = `bm25(fts, ${FTS_WEIGHTS.join(', ')})`;

function boxCondition(prefix: string): string {
  return `(${prefix}min_lon <= ? AND ${prefix}max_lon >= ? AND ${prefix}min_lat <= ? AND ${prefix}max_lat >= ?)`;
}

function boxParams(b: BBox): number[] {
  return [b.maxLon, b.minLon, b.maxLat, b.minLat];
}

/** Longitudes under which a probe point must be looked up: ±180 name the same meridian. */
function probeLongitudes(lon: number): number[] {
  return Math.abs(lon) === 180 ? [180, -180] : [lon];
}

function localitySubquery(loc: NonNullable<CandidateQuery['locality']>, params: unknown[]): string {
  const parts = ['SELECT key FROM cov_country WHERE country = ?'];
  params.push(loc.country);
  if (loc.region !== undefined) {
    parts.push('SELECT key FROM cov_region WHERE country = ? AND region = ?');
    params.push(loc.country, loc.region);
  }
  if (loc.postalCodes !== undefined && loc.postalCodes.length > 0) {
    parts.push(`SELECT key FROM cov_postal WHERE country = ? AND postal IN (${loc.postalCodes.map(() => '?').join(', ')})`);
    params.push(loc.country, ...loc.postalCodes);
  }
  return parts.join(' UNION ');
}

function coverageSubquery(probe: { latitude: number; longitude: number }, params: unknown[]): string {
  // One R*Tree search per spelling of the longitude (an OR would defeat the index).
  return probeLongitudes(probe.longitude)
    .map((lon) => {
      params.push(lon, lon, probe.latitude, probe.latitude);
      return `SELECT DISTINCT key FROM cov_rtree WHERE ${boxCondition('')}`;
    })
    .join(' UNION ');
}

function textSubquery(text: TextPlan, params: unknown[], extraCondition = ''): string {
  const cond = extraCondition === '' ? '' : ` ${extraCondition}`;
  const strict = `SELECT rowid AS key, -${BM25} AS rel FROM fts WHERE fts MATCH ?${cond}`;
  params.push(text.strict);
  // A lone part is used as is: flattened into an aggregate, bm25() would lose its FTS context.
  if (text.fuzzy === null) return strict;
  const fuzzy = `SELECT rowid AS key, -${FUZZY_WEIGHT} * ${BM25} AS rel FROM fts WHERE fts MATCH ?${cond}`;
  params.push(text.fuzzy);
  return `SELECT key, sum(rel) AS rel FROM (${strict} UNION ALL ${fuzzy}) GROUP BY key`;
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

/**
 * Build the statement. `text` is the planned text query (null when the query has no text);
 * `q.regions` must be non-empty when present (an empty union matches nothing — the caller
 * short-circuits that case).
 */
export function buildCandidateSql(q: CandidateQuery, text: TextPlan | null, options: CandidateSqlOptions = {}): CandidateSql {
  const driver = chooseDriver(q, text, options);
  const params: unknown[] = [];
  let driverCte = '';
  let from = 'locations l';
  let relevance = '0';

  switch (driver.kind) {
    case 'keys':
      driverCte = 'SELECT DISTINCT value AS key FROM json_each(?)';
      params.push(JSON.stringify(driver.keys));
      break;
    case 'regions':
      driverCte = driver.regions
        .map((b) => {
          params.push(...boxParams(b));
          return `SELECT gkey FROM geo_rtree WHERE ${boxCondition('')}`;
        })
        .join(' UNION ');
      break;
    case 'text':
      driverCte = textSubquery(driver.text, params);
      relevance = 'drv.rel';
      break;
    case 'coverage':
      driverCte = coverageSubquery(driver.probe, params);
      break;
    case 'locality':
      driverCte = localitySubquery(driver.locality, params);
      break;
    case 'items':
      driverCte = 'SELECT key FROM availability WHERE iid = (SELECT iid FROM item_keys WHERE item = ?) AND available = 1';
      params.push(driver.value);
      break;
    case 'amenities':
      driverCte = 'SELECT key FROM amenities WHERE aid = (SELECT aid FROM amenity_keys WHERE amenity = ?)';
      params.push(driver.value);
      break;
    case 'all':
      break;
  }
  if (driver.kind === 'regions') {
    // geo_points holds only public Locations, in the R*Tree's own (Hilbert) order, with the
    // same column names as `locations`: the rest of the statement does not need to know.
    from = 'drv CROSS JOIN geo_points l ON l.gkey = drv.gkey';
  } else if (driver.kind !== 'all') {
    from = 'drv CROSS JOIN locations l ON l.key = drv.key';
  }

  const where: string[] = driver.kind === 'regions' ? [] : ['l.public = 1'];
  const filterParams: unknown[] = [];
  if (driver.kind !== 'regions' && q.regions !== undefined) {
    where.push(
      `(${q.regions
        .map((b) => {
          filterParams.push(b.minLat, b.maxLat, b.minLon, b.maxLon);
          return '(l.lat BETWEEN ? AND ? AND l.lon BETWEEN ? AND ?)';
        })
        .join(' OR ')})`,
    );
  }
  if (driver.kind !== 'coverage' && q.coverageProbe !== undefined) {
    where.push(`l.key IN (${coverageSubquery(q.coverageProbe, filterParams)})`);
  }
  if (driver.kind !== 'locality' && q.locality !== undefined) {
    where.push(`l.key IN (${localitySubquery(q.locality, filterParams)})`);
  }
  (q.items ?? []).forEach((item) => {
    // The driver already applies its own value.
    if (driver.kind === 'items' && item === driver.value) return;
    where.push(
      'EXISTS (SELECT 1 FROM availability v WHERE v.iid = (SELECT iid FROM item_keys WHERE item = ?) AND v.key = l.key AND v.available = 1)',
    );
    filterParams.push(item);
  });
  const mask = driver.kind === 'regions' ? options.amenityMask : undefined;
  if (mask !== undefined && mask.mask !== 0) {
    // geo_points carries a bit per amenity (a Bloom filter once there are more than 53).
    where.push('(l.amask & ?) = ?');
    filterParams.push(mask.mask, mask.mask);
  }
  (q.amenities ?? []).forEach((amenity) => {
    if (mask?.exact === true) return;
    if (driver.kind === 'amenities' && amenity === driver.value) return;
    where.push('EXISTS (SELECT 1 FROM amenities a WHERE a.aid = (SELECT aid FROM amenity_keys WHERE amenity = ?) AND a.key = l.key)');
    filterParams.push(amenity);
  });

  // Only the ids of the shared schedule / coverage documents: the store resolves them from its
  // cache, so thousands of candidates do not each materialise the same JSON text. NULL when not
  // asked for, so every statement returns the same columns (CandidateRow).
  const extra = `, ${q.withSchedule === true ? 'l.sid' : 'NULL'} AS sid, ${q.withCoverage === true ? 'l.cid' : 'NULL'} AS cid`;
  const whereSql = where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '';
  const cte = driverCte === '' ? '' : `drv AS (${driverCte})`;
  const limit = q.limit !== undefined;
  let sql: string;
  if (text !== null && driver.kind !== 'text') {
    // Text filters a materialised candidate set. `+rowid` keeps the key set away from FTS5
    // (as a rowid constraint it would re-run the MATCH, bm25 statistics included, per key);
    // bm25 is then computed only for matching rows that are in the set.
    const extraBase = extra.replace(/l\.(\w+) AS \w+/g, 'b.$1');
    const base = `base AS MATERIALIZED (SELECT l.key AS key, l.id AS id, l.lat AS lat, l.lon AS lon${extra} FROM ${from}${whereSql})`;
    const txt = textSubquery(text, params, 'AND +rowid IN (SELECT key FROM base)');
    sql =
      `WITH ${cte === '' ? '' : `${cte}, `}${base}, txt AS (${txt}) ` +
      `SELECT b.key AS key, b.id AS id, b.lat AS lat, b.lon AS lon${extraBase}, txt.rel AS relevance ` +
      `FROM txt CROSS JOIN base b ON b.key = txt.key${limit ? ' ORDER BY relevance DESC, b.id LIMIT ?' : ''}`;
    // Parameter order follows the text of the statement: driver, filters (base), then text.
    const textParams = params.splice(params.length - (text.fuzzy === null ? 1 : 2));
    params.push(...filterParams, ...textParams);
  } else {
    sql =
      `${cte === '' ? '' : `WITH ${cte} `}SELECT l.key AS key, l.id AS id, l.lat AS lat, l.lon AS lon${extra}, ${relevance} AS relevance ` +
      `FROM ${from}${whereSql}` +
      (limit ? (relevance === '0' ? ' ORDER BY l.id LIMIT ?' : ` ORDER BY relevance DESC, l.id LIMIT ?`) : '');
    params.push(...filterParams);
  }
  if (limit) params.push(q.limit);
  return { sql, params };
}
