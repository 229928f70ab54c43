/**
 * The read half of the PostgreSQL store's port: candidates, documents, ids, items, the locality
 * model, counters and statistics. Every read runs through the outage guard (read-path.ts).
 */
import type { Location, RecordLanguages } from '../../domain/location.js';
import type { TermExpansion, VocabularyEntry } from '../../domain/text.js';
import { StoreError } from '../../errors.js';
import { documentsInKeyOrder, languagesByKey, storedLocationsOf } from '../documents.js';
import { parseImportRecord } from '../import-notes.js';
import type { Candidate, CandidateQuery, LastImportRecord, StoredLocation, StoreStats } from '../store.js';
import { buildPgCandidateSql } from './candidate-sql.js';
import type { PgReadPath, PgStoreContext } from './read-path.js';
import { buildTextQuery, expandTokenWith } from './text-search.js';

/** Cached fuzzy expansions per dataset; beyond this the cache restarts. */
const EXPANSION_CACHE_LIMIT = 10_000;

interface CandidateRow {
  key: number;
  id: string;
  lat: number | null;
  lon: number | null;
  relevance: number;
  schedule?: string | null;
  coverage?: string | null;
}

type LocalityModel = { postalCountries: Set<string>; regionCountries: Set<string> };

export class PgReads {
  #expansions = new Map<string, TermExpansion>();
  #expansionDataset = -1;
  #locality: { generation: number; value: LocalityModel } | null = null;

  constructor(
    private readonly ctx: PgStoreContext,
    private readonly path: PgReadPath,
  ) {
    // Fuzzy expansions name the vocabulary of one dataset: drop them as soon as it is replaced.
    ctx.feed.onChange((c) => {
      if (c.dataset !== this.#expansionDataset && this.#expansionDataset !== -1) {
        this.#expansions.clear();
        this.#expansionDataset = c.dataset;
      }
    });
  }

  private async expand(token: string, dataset: number): Promise<TermExpansion> {
    if (dataset !== this.#expansionDataset) {
      this.#expansions.clear();
      this.#expansionDataset = dataset;
    }
    const known = this.#expansions.get(token);
    if (known !== undefined) return known;
    const e = await expandTokenWith(token, (word, maxEdits) =>
      // `%` uses the GIN trigram index with the low session threshold (connection.ts); the
      // length window and the exact edit distance in closestTerms do the real filtering.
      this.path.q<VocabularyEntry>('SELECT term, docs FROM vocab WHERE term % $1 AND length(term) BETWEEN $2 AND $3', [
        word,
        word.length - maxEdits,
        word.length + maxEdits,
      ]),
    );
    if (this.#expansions.size >= EXPANSION_CACHE_LIMIT) this.#expansions.clear();
    this.#expansions.set(token, e);
    return e;
  }

  async findCandidates(query: CandidateQuery): Promise<Candidate[]> {
    if (query.keys !== undefined && query.keys.length === 0) return [];
    if (query.regions !== undefined && query.regions.length === 0) return [];
    if (query.limit !== undefined && query.limit <= 0) return [];
    return this.path.read('candidate query', async () => {
      const terms = query.text?.terms ?? [];
      let text = null;
      if (terms.length > 0) {
        const { dataset } = await this.path.counters();
        const expansions: TermExpansion[] = [];
        for (const t of terms) expansions.push(await this.expand(t, dataset));
        text = buildTextQuery(expansions);
      }
      const sql = buildPgCandidateSql(query, text);
      const rows = await this.path.q<CandidateRow>(sql.text, sql.values, sql.common);
      return rows.map((r) => {
        const c: Candidate = {
          key: r.key,
          id: r.id,
          geo: r.lat === null || r.lon === null ? null : { latitude: r.lat, longitude: r.lon },
          relevance: r.relevance,
        };
        if (query.withSchedule === true) c.schedule = r.schedule ?? null;
        if (query.withCoverage === true) c.coverage = r.coverage ?? null;
        return c;
      });
    });
  }

  async getLocations(keys: readonly number[]): Promise<Location[]> {
    if (keys.length === 0) return [];
    const rows = await this.path.read('document read', () =>
      this.path.q<{ key: number; doc: string }>(
        'SELECT d.key, d.doc FROM docs d JOIN locations l ON l.key = d.key WHERE d.key = ANY($1::bigint[]) AND l.public',
        [keys],
      ),
    );
    return documentsInKeyOrder(keys, rows);
  }

  async getLanguages(keys: readonly number[]): Promise<Map<number, RecordLanguages>> {
    if (keys.length === 0) return new Map();
    const rows = await this.path.read('document read', () =>
      this.path.q<{ key: string; json: string }>(
        'SELECT g.key, g.json FROM languages g JOIN locations l ON l.key = g.key WHERE g.key = ANY($1::bigint[]) AND l.public',
        [keys],
      ),
    );
    return languagesByKey(rows);
  }

  async resolveIds(ids: readonly string[]): Promise<Map<string, number[]>> {
    const out = new Map<string, number[]>();
    if (ids.length === 0) return out;
    const wanted = [...new Set(ids)];
    // One statement, so every id resolves against the same dataset (one snapshot).
    const rows = await this.path.read('id resolution', () =>
      this.path.q<{ input: string; key: number; canonical: boolean; id: string }>(
        `SELECT l.id AS input, l.key, true AS canonical, l.id FROM locations l WHERE l.id = ANY($1::text[]) AND l.public
         UNION ALL
         SELECT a.alias AS input, a.key, false AS canonical, l.id FROM aliases a JOIN locations l ON l.key = a.key
          WHERE a.alias = ANY($1::text[]) AND l.public`,
        [wanted],
      ),
    );
    const canonical = new Map<string, number>();
    const aliases = new Map<string, { key: number; id: string }[]>();
    for (const r of rows) {
      if (r.canonical) canonical.set(r.input, r.key);
      else {
        const list = aliases.get(r.input) ?? [];
        list.push({ key: r.key, id: r.id });
        aliases.set(r.input, list);
      }
    }
    for (const id of ids) {
      if (out.has(id)) continue;
      const key = canonical.get(id);
      if (key !== undefined) {
        out.set(id, [key]);
        continue;
      }
      const list = aliases.get(id);
      if (list !== undefined && list.length > 0) {
        // Several Locations sharing an alias come back in id order (code points), as in SQLite.
        list.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        out.set(id, [...new Set(list.map((x) => x.key))]);
      }
    }
    return out;
  }

  async knownItems(items: readonly string[]): Promise<Set<string>> {
    if (items.length === 0) return new Set();
    const rows = await this.path.read('item check', () =>
      this.path.q<{ item: string }>(
        'SELECT w.item FROM unnest($1::text[]) AS w(item) WHERE EXISTS (SELECT 1 FROM availability a JOIN locations l ON l.key = a.key WHERE a.item = w.item AND l.public)',
        [[...new Set(items)]],
      ),
    );
    return new Set(rows.map((r) => r.item));
  }

  async amenityIds(limit: number): Promise<string[]> {
    // `amenities` holds public Locations only (dataset-ddl.ts), so private ones never contribute an id.
    const rows = await this.path.read('amenity ids', () =>
      this.path.q<{ amenity: string }>('SELECT amenity FROM amenities GROUP BY amenity ORDER BY count(*) DESC, amenity LIMIT $1', [limit]),
    );
    return rows.map((r) => r.amenity);
  }

  async localityModel(): Promise<LocalityModel> {
    const { generation } = await this.path.read('counter read', () => this.path.countersFromDb());
    let cached = this.#locality;
    if (cached === null || cached.generation !== generation) {
      const rows = await this.path.read('locality model', () =>
        this.path.q<{ kind: string; country: string }>(
          "SELECT DISTINCT 'postal' AS kind, country FROM cov_postal UNION ALL SELECT DISTINCT 'region', country FROM cov_region",
        ),
      );
      const value: LocalityModel = { postalCountries: new Set<string>(), regionCountries: new Set<string>() };
      for (const r of rows) (r.kind === 'postal' ? value.postalCountries : value.regionCountries).add(r.country);
      cached = { generation, value };
      this.#locality = cached;
    }
    // Copies: callers must not be able to alter the cache.
    return { postalCountries: new Set(cached.value.postalCountries), regionCountries: new Set(cached.value.regionCountries) };
  }

  /**
   * Always read from the counter row (one primary-key look-up): this store answers searches from
   * the database, so "visible on the next request" must not depend on a notification still in
   * flight. (An in-memory index in front of it follows the change feed instead.)
   */
  async generation(): Promise<number> {
    return (await this.path.read('counter read', () => this.path.countersFromDb())).generation;
  }

  async storedLocations(): Promise<StoredLocation[]> {
    // One statement, one snapshot: the aliases travel with their Location.
    const rows = await this.path.read('dataset read', () =>
      this.path.q<{ id: string; public: boolean; doc: string | null; aliases: string[] }>(
        `SELECT l.id, l.public, d.doc, COALESCE((SELECT array_agg(a.alias) FROM aliases a WHERE a.key = l.key), '{}') AS aliases
           FROM locations l LEFT JOIN docs d ON d.key = l.key`,
      ),
    );
    return storedLocationsOf(
      rows.map(({ id, public: isPublic, doc }) => ({ id, public: isPublic, doc })),
      rows.flatMap((r) => r.aliases.map((alias) => ({ id: r.id, alias }))),
    );
  }

  async stats(): Promise<StoreStats> {
    const rows = await this.path.read('statistics', () =>
      this.path.q<StoreStats>(
        `SELECT (SELECT count(*) FROM locations) AS locations, (SELECT count(*) FROM locations WHERE public) AS "publicLocations",
                (SELECT count(DISTINCT item) FROM availability) AS items, (SELECT count(*) FROM availability WHERE available) AS "availableRows",
                (SELECT value FROM meta WHERE name = 'generation') AS generation`,
      ),
    );
    const r = rows[0];
    if (r === undefined) throw new StoreError('query_failed', 'PostgreSQL statistics query returned no row');
    this.ctx.feed.observe({ generation: r.generation, dataset: this.ctx.feed.counters.dataset });
    return { ...r };
  }

  async lastImport(): Promise<LastImportRecord | null> {
    const rows = await this.path.read('last import read', () => this.path.q<{ json: string }>('SELECT json FROM last_import WHERE id = 1'));
    const json = rows[0]?.json;
    return json === undefined ? null : parseImportRecord(json);
  }
}
