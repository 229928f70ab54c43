/**
 * DDL of the PostgreSQL dataset tables.
 *
 * As in the SQLite store, one imported dataset lives in a set of *dataset tables*. `replaceAll`
 * builds a complete new set under the `_next` suffix inside its transaction (bulk load first,
 * indexes after), then drops the live set and renames the new one into place just before
 * commit: readers keep using the old tables (MVCC) until the commit and are held only for the
 * instant of the swap.
 *
 * Invariants:
 *  - `locations.key` comes from `meta.next_key` and is never reused, across datasets too, so a
 *    key read before a swap can never name another Location after it (the engine caches
 *    compiled schedules and coverages by key);
 *  - only *public* Locations have docs, aliases, amenities, locality rows, coverage extents and
 *    a text vector; `locations` and `availability` also hold private ones so inventory for them
 *    is accepted. Every read path checks `locations.public` as well;
 *  - text columns use the "C" collation: ids order by code point, as in the engine and SQLite.
 */

/** Dataset tables; each name plus a suffix ('' live, '_next' being built). */
export const DATASET_TABLES = [
  'locations',
  'docs',
  'languages',
  'aliases',
  'amenities',
  'availability',
  'cov_country',
  'cov_region',
  'cov_postal',
  'coverage_extents',
  'vocab',
] as const;

export type DatasetTable = (typeof DATASET_TABLES)[number];

export function datasetTablesDdl(suffix: string): string[] {
  const s = suffix;
  return [
    // Small, fixed columns first; the text vector is read only by text queries.
    `CREATE TABLE locations${s} (
       key bigint NOT NULL,
       id text COLLATE "C" NOT NULL,
       public boolean NOT NULL,
       lat double precision,
       lon double precision,
       geog geography(Point, 4326),
       schedule text,
       coverage text,
       tsv tsvector
     )`,
    // Public Location JSON, read only for the page being returned. text, not jsonb: the
    // document is returned byte for byte as imported (jsonb would reorder keys).
    `CREATE TABLE docs${s} (key bigint NOT NULL, doc text NOT NULL)`,
    // RecordLanguages JSON (own language, translations) of public Locations that have any (R-C3):
    // apart from the doc, so that it can never leak into a returned Location.
    `CREATE TABLE languages${s} (key bigint NOT NULL, json text NOT NULL)`,
    `CREATE TABLE aliases${s} (alias text COLLATE "C" NOT NULL, key bigint NOT NULL)`,
    `CREATE TABLE amenities${s} (amenity text COLLATE "C" NOT NULL, key bigint NOT NULL)`,
    `CREATE TABLE availability${s} (item text COLLATE "C" NOT NULL, key bigint NOT NULL, available boolean NOT NULL)`,
    `CREATE TABLE cov_country${s} (country text COLLATE "C" NOT NULL, key bigint NOT NULL)`,
    `CREATE TABLE cov_region${s} (country text COLLATE "C" NOT NULL, region text COLLATE "C" NOT NULL, key bigint NOT NULL)`,
    `CREATE TABLE cov_postal${s} (country text COLLATE "C" NOT NULL, postal text COLLATE "C" NOT NULL, key bigint NOT NULL)`,
    // Boxes outside which a Location's coverage serves no point (serves.point prefilter);
    // several per Location (a radius split at the antimeridian, one per polygon).
    `CREATE TABLE coverage_extents${s} (key bigint NOT NULL, box geometry(Polygon, 4326) NOT NULL)`,
    // Index vocabulary (stemmed lexemes of public Locations, with document counts) for
    // typo-tolerant matching through pg_trgm.
    `CREATE TABLE vocab${s} (term text COLLATE "C" NOT NULL, docs integer NOT NULL)`,
  ];
}

/**
 * Secondary indexes, created after a bulk load. `{s}` is the table suffix; index names carry
 * the same suffix so the set being built never collides with the live set, and the swap renames
 * them (`DATASET_INDEX_NAMES`).
 */
const INDEXES: readonly [name: string, ddl: string][] = [
  ['locations_key', 'CREATE UNIQUE INDEX locations_key{s} ON locations{s} (key)'],
  ['locations_id', 'CREATE UNIQUE INDEX locations_id{s} ON locations{s} (id)'],
  // Radius prefilter: the engine's conservative lat/lon boxes against the point. geography →
  // geometry keeps the coordinates exactly; `&&` on geometry is a plain lon/lat box test.
  ['locations_geo', 'CREATE INDEX locations_geo{s} ON locations{s} USING gist ((geog::geometry)) WHERE public'],
  ['locations_tsv', 'CREATE INDEX locations_tsv{s} ON locations{s} USING gin (tsv) WHERE public'],
  ['docs_key', 'CREATE UNIQUE INDEX docs_key{s} ON docs{s} (key)'],
  ['languages_key', 'CREATE UNIQUE INDEX languages_key{s} ON languages{s} (key)'],
  ['aliases_alias', 'CREATE INDEX aliases_alias{s} ON aliases{s} (alias, key)'],
  ['amenities_amenity_key', 'CREATE UNIQUE INDEX amenities_amenity_key{s} ON amenities{s} (amenity, key)'],
  ['availability_item_key', 'CREATE UNIQUE INDEX availability_item_key{s} ON availability{s} (item, key)'],
  ['cov_country_idx', 'CREATE UNIQUE INDEX cov_country_idx{s} ON cov_country{s} (country, key)'],
  ['cov_region_idx', 'CREATE UNIQUE INDEX cov_region_idx{s} ON cov_region{s} (country, region, key)'],
  ['cov_postal_idx', 'CREATE UNIQUE INDEX cov_postal_idx{s} ON cov_postal{s} (country, postal, key)'],
  ['coverage_extents_box', 'CREATE INDEX coverage_extents_box{s} ON coverage_extents{s} USING gist (box)'],
  ['vocab_term', 'CREATE UNIQUE INDEX vocab_term{s} ON vocab{s} (term)'],
  ['vocab_trgm', 'CREATE INDEX vocab_trgm{s} ON vocab{s} USING gin (term gin_trgm_ops)'],
];

export const DATASET_INDEX_NAMES: readonly string[] = INDEXES.map(([name]) => name);

export function datasetIndexesDdl(suffix: string): string[] {
  return INDEXES.map(([, ddl]) => ddl.replaceAll('{s}', suffix));
}
