/**
 * SQL for `findCandidates` on PostgreSQL: one statement per query, every operand a condition on
 * `locations l` (public rows only). Unlike the SQLite store we leave the join order to
 * PostgreSQL's planner, which has statistics (ANALYZE runs after each import) and can combine
 * the GiST, GIN and B-tree indexes itself.
 *
 * Statement *shapes* (the SQL text) depend only on which operands are present and how many
 * boxes/items/amenities there are, never on values, so they can be named prepared statements;
 * `shapeIsCommon` keeps rare shapes (many items…) unnamed so a connection's set of prepared
 * statements stays small.
 */
import type { BBox, CandidateQuery } from '../store.js';
import { FUZZY_WEIGHT, RANK_WEIGHTS, type TextQueryPlan } from './text-search.js';

export interface PgCandidateSql {
  text: string;
  values: unknown[];
  /** Worth a named prepared statement (few variable-length parts). */
  common: boolean;
}

/** Longitudes under which a probe point is looked up: ±180 name the same meridian. */
function probeLongitudes(lon: number): number[] {
  return Math.abs(lon) === 180 ? [180, -180] : [lon];
}

function distinct(values: readonly string[]): string[] {
  return [...new Set(values)];
}

export function buildPgCandidateSql(q: CandidateQuery, text: TextQueryPlan | null): PgCandidateSql {
  const values: unknown[] = [];
  const p = (v: unknown, cast = ''): string => {
    values.push(v);
    return `$${values.length}${cast}`;
  };
  const where: string[] = ['l.public'];
  if (q.keys !== undefined) where.push(`l.key = ANY(${p(q.keys, '::bigint[]')})`);

  const boxes: readonly BBox[] = q.regions ?? [];
  if (q.regions !== undefined) {
    // The engine's boxes are conservative (they contain every point within distance.max);
    // `&&` compares float4-rounded-outwards boxes, so it can only over-approximate further.
    where.push(
      `(${boxes
        .map(
          (b) =>
            `l.geog::geometry && ST_MakeEnvelope(${p(b.minLon, '::float8')}, ${p(b.minLat, '::float8')}, ${p(b.maxLon, '::float8')}, ${p(b.maxLat, '::float8')}, 4326)`,
        )
        .join(' OR ')})`,
    );
  }
  if (q.coverageProbe !== undefined) {
    const probe = q.coverageProbe;
    const lons = probeLongitudes(probe.longitude);
    const parts = lons.map(
      (lon) =>
        `SELECT e.key FROM coverage_extents e WHERE e.box && ST_SetSRID(ST_MakePoint(${p(lon, '::float8')}, ${p(probe.latitude, '::float8')}), 4326)`,
    );
    where.push(`l.key IN (${parts.join(' UNION ALL ')})`);
  }
  if (q.locality !== undefined) {
    const loc = q.locality;
    const parts = [`SELECT key FROM cov_country WHERE country = ${p(loc.country)}`];
    if (loc.region !== undefined) {
      parts.push(`SELECT key FROM cov_region WHERE country = ${p(loc.country)} AND region = ${p(loc.region)}`);
    }
    if (loc.postalCodes !== undefined && loc.postalCodes.length > 0) {
      parts.push(
        `SELECT key FROM cov_postal WHERE country = ${p(loc.country)} AND postal IN (${loc.postalCodes.map((c) => p(c)).join(', ')})`,
      );
    }
    where.push(`l.key IN (${parts.join(' UNION ALL ')})`);
  }
  const items = distinct(q.items ?? []);
  for (const item of items) {
    where.push(`EXISTS (SELECT 1 FROM availability v WHERE v.item = ${p(item)} AND v.key = l.key AND v.available)`);
  }
  const amenities = distinct(q.amenities ?? []);
  for (const amenity of amenities) {
    where.push(`EXISTS (SELECT 1 FROM amenities a WHERE a.amenity = ${p(amenity)} AND a.key = l.key)`);
  }

  let relevance = '0::float8';
  if (text !== null) {
    where.push(`l.tsv @@ ${p(text.any, '::tsquery')}`);
    const strict = p(text.strict, '::tsquery');
    relevance = `(CASE WHEN l.tsv @@ ${strict} THEN ts_rank('${RANK_WEIGHTS}'::real[], l.tsv, ${strict}) ELSE 0 END)::float8`;
    if (text.fuzzy !== null) {
      const fuzzy = p(text.fuzzy, '::tsquery');
      relevance += ` + (CASE WHEN l.tsv @@ ${fuzzy} THEN ${FUZZY_WEIGHT} * ts_rank('${RANK_WEIGHTS}'::real[], l.tsv, ${fuzzy}) ELSE 0 END)::float8`;
    }
  }

  const extra = `${q.withSchedule === true ? ', l.schedule' : ''}${q.withCoverage === true ? ', l.coverage' : ''}`;
  let sql = `SELECT l.key, l.id, l.lat, l.lon, ${relevance} AS relevance${extra} FROM locations l WHERE ${where.join(' AND ')}`;
  if (q.limit !== undefined) sql += ` ORDER BY relevance DESC, l.id LIMIT ${p(q.limit, '::int')}`;
  return { text: sql, values, common: boxes.length <= 4 && items.length <= 4 && amenities.length <= 4 };
}
