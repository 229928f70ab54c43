/**
 * PostGIS contender: the same queries as hand-written SQL, the way a competent team would serve
 * them straight from PostgreSQL + PostGIS, in its own schema per size `bench_postgis_<size>`
 * (tables prefixed `bench_`), reached over the local Unix socket.
 *
 *  - distance: `ST_DWithin(geog, center, max)` on `geography(Point, 4326)` with a GiST index
 *    (spheroidal distance, like ours), ranked by `ST_Distance` then id (`COLLATE "C"` = code-point
 *    order, like ours); total via `count(*) OVER ()`; documents joined for the page only.
 *  - amenities / items: `text[] @>`; items (selective) with a GIN index, amenities without: at
 *    2–60% prevalence an amenity is never selective, and with a GIN index the planner ANDs its
 *    bitmap with the GiST one (measured at 1M: 24 ms in the GIN scan alone, for a query whose
 *    GiST part takes 0.6 ms), so filtering the GiST candidates row by row is the faster plan.
 *  - opening hours: evaluated in SQL by `bench_is_open(key, tz, instant)` (a SQL function in the schema). Weekly
 *    intervals are pre-expanded into `bench_week(key, dow, open_s, close_s)` (seconds after the
 *    local midnight of the day the interval begins; overnight intervals end past 86 400; 00:00–23:59
 *    is stored as [0, 86 400)), exceptions into `bench_exc(key, from_d, through_d, closure, open_s,
 *    close_s)`. The function converts the instant to the Location's local date/time with
 *    `AT TIME ZONE` and applies the same label rules as our evaluator: an exception date uses its
 *    own intervals only; otherwise the weekly intervals of the day plus whatever carries over from
 *    the previous date (its exception if it had one, else its weekly intervals).
 *  - serves.point: GiST on a coverage envelope, then `ST_DWithin(geog, point, radius_m)` or
 *    `ST_Covers(areas, point)` (planar, boundary-inclusive, like ours).
 *  - bounded browse: the first 100 matches in id order (index scan on id), paged.
 *  - paging: keyset on (distance, id), like our cursors.
 *  - lookup: canonical ids, then aliases, in request order.
 * JIT and parallel query are switched off for the session: both only add start-up time to short
 * OLTP queries (what a team tuning PostgreSQL for this workload would do first).
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import pg from 'pg';
import {
  DAYS,
  toPublicLocation,
  type CoverageArea,
  type Location,
  type LocationRecord,
  type Position,
} from '../../../src/domain/location.js';
import type { LookupRequest, SearchRequest } from '../../../src/domain/requests.js';
import { DEFAULT_LIMITS } from '../../../src/service.js';
import type { Contender, Instance, LookupOutput, Output, QueryDef, SearchOutput } from '../types.js';

/** Schema for a dataset size: one per size, so every size stays loaded between runs. */
export function postgisSchema(size: number): string {
  return `bench_postgis_${size}`;
}
/** Rows per INSERT … SELECT FROM unnest(…) batch. */
const BATCH = 5000;

export interface PgTarget {
  host: string;
  port?: number;
  user: string;
  database: string;
}

export const DEFAULT_PG: PgTarget = { host: '/var/run/postgresql', user: 'postgres', database: 'test' };

const ddl = (S: string): string => `
CREATE EXTENSION IF NOT EXISTS postgis;
DROP SCHEMA IF EXISTS ${S} CASCADE;
CREATE SCHEMA ${S};
CREATE TABLE ${S}.bench_meta (fingerprint text NOT NULL);
CREATE TABLE ${S}.bench_locations (
  key integer PRIMARY KEY,
  id text COLLATE "C" NOT NULL,
  public boolean NOT NULL,
  geog geography(Point, 4326),
  amenities text[] NOT NULL,
  items text[] NOT NULL,
  tz text,
  radius_m double precision,
  areas geometry(MultiPolygon, 4326),
  cov_env geometry(Polygon, 4326),
  doc text NOT NULL
);
CREATE TABLE ${S}.bench_aliases (alias text COLLATE "C" NOT NULL, key integer NOT NULL);
CREATE TABLE ${S}.bench_week (key integer NOT NULL, dow smallint NOT NULL, open_s integer NOT NULL, close_s integer NOT NULL);
CREATE TABLE ${S}.bench_exc (key integer NOT NULL, from_d date NOT NULL, through_d date NOT NULL, closure boolean NOT NULL, open_s integer, close_s integer);
`;

const indexes = (S: string): string => `
CREATE UNIQUE INDEX ON ${S}.bench_locations (id);
CREATE INDEX ON ${S}.bench_locations USING gist (geog);
CREATE INDEX ON ${S}.bench_locations USING gist (cov_env);
CREATE INDEX ON ${S}.bench_locations USING gin (items);
CREATE INDEX ON ${S}.bench_aliases (alias);
CREATE INDEX ON ${S}.bench_week (key, dow);
CREATE INDEX ON ${S}.bench_exc (key, from_d);
`;

/**
 * VACUUM (ANALYZE) every table of `schema`, one statement each (VACUUM cannot run in a
 * transaction block). After a bulk load this sets hint bits and the visibility map and gathers
 * statistics now, instead of letting autovacuum do it while queries are being timed.
 */
export async function vacuumSchema(client: pg.Client, schema: string): Promise<void> {
  const tables = await client.query<{ tablename: string }>('SELECT tablename FROM pg_tables WHERE schemaname = $1', [schema]);
  for (const { tablename } of tables.rows)
    await client.query(`VACUUM (ANALYZE) ${pg.escapeIdentifier(schema)}.${pg.escapeIdentifier(tablename)}`);
}

/**
 * Open at instant t? k: location key, tz: its zone (NULL = no schedule → never open).
 * Declared expensive (COST) so the planner checks amenities and distance on a row first.
 * x.s is the local time of day in seconds (fractional), x.dow 0 = Monday.
 */
const isOpenFn = (S: string): string => `
CREATE OR REPLACE FUNCTION ${S}.bench_is_open(k integer, tz text, t timestamptz) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE COST 100000 AS $fn$
  SELECT CASE WHEN tz IS NULL THEN false ELSE (
    SELECT CASE
      WHEN EXISTS (SELECT 1 FROM ${S}.bench_exc e WHERE e.key = k AND e.from_d <= x.d AND x.d <= e.through_d) THEN
        EXISTS (SELECT 1 FROM ${S}.bench_exc e WHERE e.key = k AND e.from_d <= x.d AND x.d <= e.through_d
                AND NOT e.closure AND e.open_s <= x.s AND x.s < e.close_s)
      WHEN EXISTS (SELECT 1 FROM ${S}.bench_week w WHERE w.key = k AND w.dow = x.dow AND w.open_s <= x.s AND x.s < w.close_s) THEN true
      WHEN EXISTS (SELECT 1 FROM ${S}.bench_exc e WHERE e.key = k AND e.from_d <= x.d - 1 AND x.d - 1 <= e.through_d) THEN
        EXISTS (SELECT 1 FROM ${S}.bench_exc e WHERE e.key = k AND e.from_d <= x.d - 1 AND x.d - 1 <= e.through_d
                AND NOT e.closure AND x.s + 86400 < e.close_s)
      ELSE EXISTS (SELECT 1 FROM ${S}.bench_week w WHERE w.key = k AND w.dow = (x.dow + 6) % 7 AND x.s + 86400 < w.close_s)
    END
    FROM (SELECT lt::date AS d, extract(epoch FROM lt::time)::float8 AS s, (extract(isodow FROM lt)::int - 1) AS dow
          FROM (SELECT t AT TIME ZONE tz AS lt) AS l0) AS x
  ) END
$fn$;
`;

function seconds(hhmm: string): number {
  return Number(hhmm.slice(0, 2)) * 3600 + Number(hhmm.slice(3, 5)) * 60;
}

/** [open, close) in seconds after the local midnight of the day it begins. */
function interval(opens: string, closes: string): [number, number] {
  const o = seconds(opens);
  const c = seconds(closes);
  if (o === 0 && c === 86_340) return [0, 86_400]; // 00:00–23:59 = the whole date
  return [o, c > o ? c : c + 86_400];
}

/** All parts of all areas as one MultiPolygon GeoJSON (our areas never overlap). */
function multiPolygon(areas: readonly CoverageArea[]): string {
  const parts: Position[][][] = [];
  for (const a of areas) {
    if (a.type === 'Polygon') parts.push(a.coordinates);
    else parts.push(...a.coordinates);
  }
  return JSON.stringify({ type: 'MultiPolygon', coordinates: parts });
}

/** Conservative degree box of a geodesic radius (110 km per degree of latitude is a lower bound). */
function radiusBox(lat: number, lon: number, meters: number): [number, number, number, number] {
  const dLat = meters / 110_000;
  const edge = Math.min(90, Math.abs(lat) + dLat);
  const cos = Math.cos((edge * Math.PI) / 180);
  const dLon = edge >= 89 || cos <= 0 ? 360 : meters / (111_000 * cos * 0.99);
  if (lon - dLon < -180 || lon + dLon > 180) return [-180, Math.max(-90, lat - dLat), 180, Math.min(90, lat + dLat)];
  return [lon - dLon, Math.max(-90, lat - dLat), lon + dLon, Math.min(90, lat + dLat)];
}

function areaBox(areas: readonly CoverageArea[]): [number, number, number, number] {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (const a of areas) {
    const polys = a.type === 'Polygon' ? [a.coordinates] : a.coordinates;
    for (const poly of polys) {
      for (const [x, y] of poly[0] ?? []) {
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
    }
  }
  return [minX, minY, maxX, maxY];
}

function envelope(r: LocationRecord): string | null {
  const boxes: [number, number, number, number][] = [];
  if (r.serves?.radius_m !== undefined && r.geo !== undefined) boxes.push(radiusBox(r.geo.latitude, r.geo.longitude, r.serves.radius_m));
  if (r.serves?.areas !== undefined && r.serves.areas.length > 0) boxes.push(areaBox(r.serves.areas));
  if (boxes.length === 0) return null;
  const [x0, y0, x1, y1] = boxes.reduce((a, b) => [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])]);
  return `SRID=4326;POLYGON((${x0} ${y0},${x1} ${y0},${x1} ${y1},${x0} ${y1},${x0} ${y0}))`;
}

class Batch {
  loc = {
    key: [] as number[],
    id: [] as string[],
    pub: [] as boolean[],
    lon: [] as (number | null)[],
    lat: [] as (number | null)[],
    amen: [] as string[],
    items: [] as string[],
    tz: [] as (string | null)[],
    radius: [] as (number | null)[],
    areas: [] as (string | null)[],
    env: [] as (string | null)[],
    doc: [] as string[],
  };
  alias = { alias: [] as string[], key: [] as number[] };
  week = { key: [] as number[], dow: [] as number[], o: [] as number[], c: [] as number[] };
  exc = {
    key: [] as number[],
    from: [] as string[],
    through: [] as string[],
    closure: [] as boolean[],
    o: [] as (number | null)[],
    c: [] as (number | null)[],
  };
  size = 0;

  add(key: number, r: LocationRecord): void {
    const l = this.loc;
    l.key.push(key);
    l.id.push(r.id);
    l.pub.push(r.visibility !== 'private');
    l.lon.push(r.geo?.longitude ?? null);
    l.lat.push(r.geo?.latitude ?? null);
    // Arrays travel as Postgres array literals of JSON strings (ids never contain quotes we need to escape beyond JSON).
    l.amen.push(
      `{${Object.keys(r.amenities ?? {})
        .map((a) => JSON.stringify(a))
        .join(',')}}`,
    );
    l.items.push(`{${(r.items ?? []).map((a) => JSON.stringify(a)).join(',')}}`);
    l.tz.push(r.hours !== undefined || r.exception_hours !== undefined ? (r.timezone ?? null) : null);
    l.radius.push(r.serves?.radius_m ?? null);
    l.areas.push(r.serves?.areas !== undefined && r.serves.areas.length > 0 ? multiPolygon(r.serves.areas) : null);
    l.env.push(envelope(r));
    l.doc.push(JSON.stringify(toPublicLocation(r)));
    for (const a of r.aliases ?? []) {
      this.alias.alias.push(a);
      this.alias.key.push(key);
    }
    for (const h of r.hours ?? []) {
      const [o, c] = interval(h.opens, h.closes);
      this.week.key.push(key);
      this.week.dow.push(DAYS.indexOf(h.day));
      this.week.o.push(o);
      this.week.c.push(c);
    }
    for (const e of r.exception_hours ?? []) {
      const closure = e.opens === undefined || e.closes === undefined;
      const [o, c] = closure ? [null, null] : interval(e.opens as string, e.closes as string);
      this.exc.key.push(key);
      this.exc.from.push(e.valid_from);
      this.exc.through.push(e.valid_through);
      this.exc.closure.push(closure);
      this.exc.o.push(o);
      this.exc.c.push(c);
    }
    this.size++;
  }

  async flush(client: pg.Client, S: string): Promise<void> {
    if (this.size === 0) return;
    const l = this.loc;
    await client.query(
      `INSERT INTO ${S}.bench_locations (key, id, public, geog, amenities, items, tz, radius_m, areas, cov_env, doc)
       SELECT key, id, pub, CASE WHEN lon IS NULL THEN NULL ELSE ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography END,
              amen::text[], items::text[], tz, radius, CASE WHEN areas IS NULL THEN NULL ELSE ST_SetSRID(ST_GeomFromGeoJSON(areas), 4326) END,
              CASE WHEN env IS NULL THEN NULL ELSE ST_GeomFromEWKT(env) END, doc
       FROM unnest($1::int[], $2::text[], $3::bool[], $4::float8[], $5::float8[], $6::text[], $7::text[], $8::text[], $9::float8[], $10::text[], $11::text[], $12::text[])
         AS u(key, id, pub, lon, lat, amen, items, tz, radius, areas, env, doc)`,
      [l.key, l.id, l.pub, l.lon, l.lat, l.amen, l.items, l.tz, l.radius, l.areas, l.env, l.doc],
    );
    if (this.alias.key.length > 0) {
      await client.query(`INSERT INTO ${S}.bench_aliases SELECT * FROM unnest($1::text[], $2::int[])`, [this.alias.alias, this.alias.key]);
    }
    if (this.week.key.length > 0) {
      await client.query(`INSERT INTO ${S}.bench_week SELECT * FROM unnest($1::int[], $2::smallint[], $3::int[], $4::int[])`, [
        this.week.key,
        this.week.dow,
        this.week.o,
        this.week.c,
      ]);
    }
    if (this.exc.key.length > 0) {
      await client.query(
        `INSERT INTO ${S}.bench_exc SELECT * FROM unnest($1::int[], $2::date[], $3::date[], $4::bool[], $5::int[], $6::int[])`,
        [this.exc.key, this.exc.from, this.exc.through, this.exc.closure, this.exc.o, this.exc.c],
      );
    }
  }
}

/**
 * Connect (to a target or a postgres:// URL), or explain why not (the contender is then skipped
 * with that reason).
 */
export async function connectPg(target: PgTarget | string): Promise<pg.Client | string> {
  const client = new pg.Client(
    typeof target === 'string' ? { connectionString: target, connectionTimeoutMillis: 3000 } : { ...target, connectionTimeoutMillis: 3000 },
  );
  const where =
    typeof target === 'string' ? target.replace(/\/\/[^@/]*@/, '//') : `${target.host} (db ${target.database}, user ${target.user})`;
  try {
    await client.connect();
    const r = await client.query<{ ok: boolean }>("SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'postgis') AS ok");
    if (r.rows[0]?.ok !== true) {
      await client.end();
      return `PostgreSQL at ${where} has no PostGIS extension available`;
    }
    return client;
  } catch (error) {
    await client.end().catch(() => undefined);
    return `cannot connect to PostgreSQL at ${where}: ${(error as Error).message}`;
  }
}

/**
 * Load the dataset file into `bench_postgis` unless the loaded one has the same fingerprint.
 * Returns the load time in seconds (0 when reused).
 */
export async function loadPostgis(
  client: pg.Client,
  S: string,
  file: string,
  fingerprint: string,
  onProgress?: (done: number) => void,
): Promise<number> {
  const have = await client
    .query<{ fingerprint: string }>(`SELECT fingerprint FROM ${S}.bench_meta`)
    .then((r) => r.rows[0]?.fingerprint)
    .catch(() => undefined);
  if (have === fingerprint) {
    await client.query(isOpenFn(S));
    // Layout change since the first release of this contender: no GIN index on amenities (see the header).
    await client.query(`DROP INDEX IF EXISTS ${S}.bench_locations_amenities_idx`);
    await vacuumSchema(client, S); // cheap when nothing changed; settles a load autovacuum has not reached yet
    return 0;
  }
  const started = performance.now();
  await client.query(ddl(S));
  await client.query(isOpenFn(S));
  const input = createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
  const lines = createInterface({ input, crlfDelay: Infinity });
  let batch = new Batch();
  let key = 0;
  for await (const line of lines) {
    if (line.trim() === '') continue;
    batch.add(++key, JSON.parse(line) as LocationRecord);
    if (batch.size >= BATCH) {
      await batch.flush(client, S);
      batch = new Batch();
      if (onProgress !== undefined && key % 100_000 === 0) onProgress(key);
    }
  }
  await batch.flush(client, S);
  await client.query(indexes(S));
  await vacuumSchema(client, S);
  await client.query(`INSERT INTO ${S}.bench_meta VALUES ($1)`, [fingerprint]);
  return (performance.now() - started) / 1000;
}

interface PageRow {
  id: string;
  dist: number | null;
  total: number;
  doc: string;
}

export class PostgisContender implements Contender {
  readonly name = 'postgis';
  private readonly limits = DEFAULT_LIMITS;
  private prepared = 0;
  /** SQL and values of the last first-page query (for `explain`). */
  private lastFirstPage: { text: string; values: unknown[] } | null = null;
  private readonly names = new Map<string, string>();

  constructor(
    private readonly client: pg.Client,
    /** Schema holding the dataset (see postgisSchema). */
    private readonly S: string,
  ) {}

  static async open(client: pg.Client, schema: string): Promise<PostgisContender> {
    await client.query('SET jit = off');
    // Parallel workers cost tens of ms to start; for millisecond queries they only hurt (measured
    // on the bounded browse at 1M: 53 ms with a parallel index scan, 11 ms without).
    await client.query('SET max_parallel_workers_per_gather = 0');
    return new PostgisContender(client, schema);
  }

  unsupported(query: QueryDef): string | null {
    return query.text
      ? 'free-text relevance is FTS5 bm25 with stemming and typo expansion; PostgreSQL full-text ranking (ts_rank) orders differently, so results cannot be compared'
      : null;
  }

  /** Named prepared statement per SQL text (parsed and planned once per session). */
  private query<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<R>> {
    let name = this.names.get(text);
    if (name === undefined) {
      name = `bench_q${++this.prepared}`;
      this.names.set(text, name);
    }
    return this.client.query<R>({ name, text, values });
  }

  run(instance: Instance): Promise<Output> {
    return instance.op === 'lookup' ? this.lookup(instance.request) : this.search(instance.request, instance.pages);
  }

  async close(): Promise<void> {
    await this.client.end();
  }

  /** EXPLAIN (ANALYZE, BUFFERS) of the first page of a search instance, as text. */
  async explain(instance: Instance): Promise<string> {
    if (instance.op !== 'search') return '(lookup)';
    await this.search(instance.request, 1);
    const q = this.lastFirstPage;
    if (q === null) return '(no query)';
    const rows = (await this.client.query<{ 'QUERY PLAN': string }>({ text: `EXPLAIN (ANALYZE, BUFFERS) ${q.text}`, values: q.values }))
      .rows;
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  }

  /** WHERE fragments for the filters, appending their values to `params`. */
  private filters(request: SearchRequest, params: unknown[]): string[] {
    const where = ['l.public'];
    const f = request.filters ?? {};
    for (const key of Object.keys(f))
      if (key !== 'amenities' && key !== 'hours' && key !== 'items') throw new Error(`postgis: filter ${key} not supported`);
    if (f.amenities !== undefined && f.amenities.length > 0) {
      params.push(f.amenities);
      where.push(`l.amenities @> $${params.length}::text[]`);
    }
    if (f.items !== undefined && f.items.length > 0) {
      params.push(f.items);
      where.push(`l.items @> $${params.length}::text[]`);
    }
    if (f.hours !== undefined) {
      params.push(f.hours.open_at);
      where.push(`${this.S}.bench_is_open(l.key, l.tz, $${params.length}::timestamptz)`);
    }
    return where;
  }

  async search(request: SearchRequest, pages: number): Promise<SearchOutput> {
    if (request.query !== undefined) throw new Error('postgis: free text is not supported');
    const size = Math.min(request.pagination?.limit ?? this.limits.defaultPageSize, this.limits.maxPageSize);
    const params: unknown[] = [];
    const where = this.filters(request, params);
    let hits: string;
    let order: string;
    if (request.distance !== undefined || request.serves !== undefined) {
      let centerSql: string;
      if (request.distance !== undefined) {
        params.push(request.distance.center.longitude, request.distance.center.latitude, request.distance.max);
        const n = params.length;
        centerSql = `ST_SetSRID(ST_MakePoint($${n - 2}::float8, $${n - 1}::float8), 4326)`;
        where.push(`ST_DWithin(l.geog, c.g, $${n}::float8)`);
      } else {
        const serves = request.serves as Record<string, unknown>;
        const point = serves['point'] as { latitude: number; longitude: number } | undefined;
        if (point === undefined) throw new Error('postgis: only serves.point is part of the mix');
        params.push(point.longitude, point.latitude);
        const n = params.length;
        centerSql = `ST_SetSRID(ST_MakePoint($${n - 1}::float8, $${n}::float8), 4326)`;
        where.push(
          'l.cov_env && c.p',
          '((l.radius_m IS NOT NULL AND ST_DWithin(l.geog, c.g, l.radius_m)) OR (l.areas IS NOT NULL AND ST_Covers(l.areas, c.p)))',
        );
      }
      hits = `WITH c AS MATERIALIZED (SELECT ${centerSql} AS p, ${centerSql}::geography AS g),
              hits AS (SELECT l.key, l.id, ST_Distance(l.geog, c.g) AS dist FROM ${this.S}.bench_locations l, c WHERE ${where.join(' AND ')})`;
      order = 'dist, id';
    } else {
      // Bounded browse: the first browseCap matches in id order.
      params.push(this.limits.browseCap);
      hits = `WITH hits AS (SELECT l.key, l.id, NULL::float8 AS dist FROM ${this.S}.bench_locations l WHERE ${where.join(' AND ')} ORDER BY l.id LIMIT $${params.length})`;
      order = 'id';
    }
    const ids: string[] = [];
    let total = 0;
    let after: { dist: number | null; id: string } | null = null;
    for (let p = 0; p < pages; p++) {
      const values = [...params, size + 1];
      const limitAt = values.length;
      let keyset = '';
      if (after !== null) {
        values.push(after.dist, after.id);
        const d = values.length - 1;
        keyset = order === 'id' ? `WHERE id > $${d + 1}` : `WHERE (dist > $${d}::float8 OR (dist = $${d}::float8 AND id > $${d + 1}))`;
      }
      // The first page also counts the whole result (total_count); later pages need no count.
      const count = p === 0 ? 'count(*) OVER ()::int' : '0';
      const sql = `${hits}, page AS (SELECT key, id, dist, ${count} AS total FROM hits ${keyset} ORDER BY ${order} LIMIT $${limitAt})
                   SELECT page.id, page.dist, page.total, l.doc FROM page JOIN ${this.S}.bench_locations l ON l.key = page.key ORDER BY ${order.replace(/\b(dist|id)\b/g, 'page.$1')}`;
      if (p === 0) this.lastFirstPage = { text: sql, values };
      const rows = (await this.query<PageRow>(sql, values)).rows;
      if (p === 0) total = rows[0]?.total ?? 0;
      const pageRows = rows.slice(0, size);
      for (const r of pageRows) ids.push((JSON.parse(r.doc) as Location).id);
      const last = pageRows[pageRows.length - 1];
      if (rows.length <= size || last === undefined) break;
      after = { dist: last.dist, id: last.id };
    }
    return { type: 'search', ids, total };
  }

  async lookup(request: LookupRequest): Promise<LookupOutput> {
    if (request.distance !== undefined || request.serves !== undefined || request.filters !== undefined) {
      throw new Error('postgis: lookup refinements are not part of the mix');
    }
    const processed = [...new Set(request.ids)].slice(0, this.limits.lookupBatchMax);
    const sql = `WITH req AS (SELECT input, ord FROM unnest($1::text[]) WITH ORDINALITY AS r(input, ord)),
      canon AS (SELECT req.input, req.ord, l.key FROM req JOIN ${this.S}.bench_locations l ON l.id = req.input WHERE l.public),
      via AS (SELECT req.input, req.ord, a.key FROM req JOIN ${this.S}.bench_aliases a ON a.alias = req.input
              JOIN ${this.S}.bench_locations l ON l.key = a.key
              WHERE l.public AND NOT EXISTS (SELECT 1 FROM canon c WHERE c.input = req.input))
      SELECT m.input, m.key, l.id, l.doc FROM (SELECT * FROM canon UNION ALL SELECT * FROM via) m
      JOIN ${this.S}.bench_locations l ON l.key = m.key ORDER BY m.ord, l.id`;
    const rows = (await this.query<{ input: string; key: number; id: string; doc: string }>(sql, [processed])).rows;
    const byKey = new Map<number, { doc: string; inputs: string[] }>();
    for (const r of rows) {
      const e = byKey.get(r.key);
      if (e === undefined) byKey.set(r.key, { doc: r.doc, inputs: [r.input] });
      else e.inputs.push(r.input);
    }
    const entries: LookupOutput['entries'] = [];
    for (const e of byKey.values()) entries.push({ id: (JSON.parse(e.doc) as Location).id, inputs: e.inputs });
    return { type: 'lookup', entries };
  }
}
