/**
 * Versioned, idempotent migrations of the PostgreSQL store.
 *
 * `migrate` runs under a transaction-scoped advisory lock (so several instances or a CLI run
 * started at once cannot race), applies every pending migration in one transaction and records
 * each in `schema_migrations`. Running it again is a no-op. Servers never migrate on their own:
 * they call `schemaStatus` at start and refuse an unmigrated or newer schema with the command
 * to run (`ucp-location migrate --store postgres://…`).
 */
import type { ClientBase } from 'pg';
import { causeMessage, StoreError } from '../../errors.js';
import { DATASET_TABLES, datasetIndexesDdl, datasetTablesDdl } from './dataset-ddl.js';

export interface PgMigration {
  version: number;
  describe: string;
  /** Statements run in order, with `search_path` set to the store's schema. */
  statements: readonly string[];
}

export const PG_MIGRATIONS: readonly PgMigration[] = [
  {
    version: 1,
    describe: 'meta counters and an empty dataset (PostGIS geography, text vectors, trigram vocabulary)',
    statements: [
      'CREATE TABLE meta (name text PRIMARY KEY, value bigint NOT NULL)',
      // generation: bumped by every committed data change; dataset: bumped by replaceAll only
      // (per-dataset caches such as fuzzy expansions key on it); next_key: key allocator.
      "INSERT INTO meta (name, value) VALUES ('generation', 0), ('dataset', 0), ('next_key', 1)",
      ...datasetTablesDdl(''),
      ...datasetIndexesDdl(''),
    ],
  },
  {
    version: 2,
    describe: 'record languages and translations beside the public documents',
    // A schema created at version 1 has no such table; a new one got it from version 1's DDL.
    statements: [
      'CREATE TABLE IF NOT EXISTS languages (key bigint NOT NULL, json text NOT NULL)',
      'CREATE UNIQUE INDEX IF NOT EXISTS languages_key ON languages (key)',
    ],
  },
  {
    version: 3,
    describe: "the last import's result and warnings, kept beside the dataset",
    // One row at most: replaceAll overwrites it in the transaction that swaps the dataset.
    statements: ['CREATE TABLE IF NOT EXISTS last_import (id integer PRIMARY KEY CHECK (id = 1), json text NOT NULL)'],
  },
  {
    version: 4,
    describe: 'the in-memory index of each generation as a file, in chunks, loaded by every instance instead of rebuilt',
    // Written by memory-index/index-file-postgres.ts: one row per generation, its bytes in chunks.
    statements: [
      'CREATE TABLE IF NOT EXISTS index_files (generation bigint PRIMARY KEY, bytes bigint NOT NULL, chunks integer NOT NULL, written_at timestamptz NOT NULL DEFAULT now())',
      'CREATE TABLE IF NOT EXISTS index_file_chunks (generation bigint NOT NULL REFERENCES index_files ON DELETE CASCADE, chunk integer NOT NULL, data bytea NOT NULL, PRIMARY KEY (generation, chunk))',
    ],
  },
];

export const PG_SCHEMA_VERSION = PG_MIGRATIONS[PG_MIGRATIONS.length - 1]?.version ?? 0;

/** Extensions the store needs (created in `public` when missing; needs the privilege once). */
export const REQUIRED_EXTENSIONS = ['postgis', 'pg_trgm'] as const;

/** NOTIFY channel shared by every store schema in a database; the payload names the schema. */
export const CHANGE_CHANNEL = 'ucp_location_changes';

/** Two-key advisory lock ids: (namespace, hashtext(schema)). */
export const LOCK_NAMESPACE_MIGRATE = 0x75637031; // 'ucp1'
export const LOCK_NAMESPACE_WRITE = 0x75637032; // 'ucp2'
export const LOCK_NAMESPACE_INDEX_FILE = 0x75637033; // 'ucp3'

/** NOTIFY channel on which an index file's writer announces it: payload '<schema> <generation>'. */
export const INDEX_FILE_CHANNEL = 'ucp_location_index_files';

/** NOTIFY channel of the tenant catalog (tenant-catalog.ts): payload '<catalog schema> <domain>'. */
export const TENANT_CHANNEL = 'ucp_location_tenants';

export interface SchemaStatus {
  /** Highest applied migration; 0 when the schema or its migrations table does not exist. */
  current: number;
  /** What this release needs. */
  required: number;
  /** Extensions missing from the database. */
  missingExtensions: string[];
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Schemas holding the required extensions (to put on `search_path`). */
export async function extensionSchemas(client: ClientBase): Promise<string[]> {
  const r = await client.query<{ nspname: string }>(
    'SELECT DISTINCT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = ANY($1::text[]) ORDER BY 1',
    [REQUIRED_EXTENSIONS],
  );
  return r.rows.map((row) => row.nspname);
}

export async function schemaStatus(client: ClientBase, schema: string): Promise<SchemaStatus> {
  const ext = await client.query<{ extname: string }>('SELECT extname FROM pg_extension WHERE extname = ANY($1::text[])', [
    REQUIRED_EXTENSIONS,
  ]);
  const present = new Set(ext.rows.map((r) => r.extname));
  const missingExtensions = REQUIRED_EXTENSIONS.filter((e) => !present.has(e));
  const table = await client.query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [`${quoteIdent(schema)}.schema_migrations`]);
  let current = 0;
  if ((table.rows[0]?.t ?? null) !== null) {
    const v = await client.query<{ v: number | null }>(`SELECT max(version)::int AS v FROM ${quoteIdent(schema)}.schema_migrations`);
    current = v.rows[0]?.v ?? 0;
  }
  return { current, required: PG_SCHEMA_VERSION, missingExtensions };
}

/** A StoreError explaining what to do when the schema is not the one this release needs. */
export function schemaMismatch(status: SchemaStatus, schema: string, display: string): StoreError | null {
  if (status.current > status.required) {
    return new StoreError(
      'schema_too_new',
      `The PostgreSQL store ${display} (schema ${schema}) is at migration ${status.current}, newer than this release supports (${status.required}); upgrade ucp-location on this instance.`,
    );
  }
  if (status.current < status.required || status.missingExtensions.length > 0) {
    return new StoreError(
      'schema_outdated',
      `The PostgreSQL store ${display} (schema ${schema}) is not migrated (at ${status.current}, this release needs ${status.required}${
        status.missingExtensions.length > 0 ? `; missing extensions: ${status.missingExtensions.join(', ')}` : ''
      }); run: ucp-location migrate --store <the same postgres:// URL>`,
    );
  }
  return null;
}

export interface MigrateResult {
  from: number;
  to: number;
  applied: { version: number; describe: string }[];
  createdExtensions: string[];
}

/**
 * Bring `schema` to PG_SCHEMA_VERSION. Idempotent and safe to run concurrently.
 * Throws StoreError for a newer schema or a missing privilege (with what to ask for).
 */
export async function migrate(client: ClientBase, schema: string): Promise<MigrateResult> {
  await client.query('BEGIN');
  try {
    // One lock per database, not per schema: extensions are per database, and two schemas
    // migrating at once would otherwise both try to create them.
    await client.query('SELECT pg_advisory_xact_lock($1, 0)', [LOCK_NAMESPACE_MIGRATE]);
    const createdExtensions: string[] = [];
    for (const ext of REQUIRED_EXTENSIONS) {
      const exists = await client.query('SELECT 1 FROM pg_extension WHERE extname = $1', [ext]);
      if (exists.rowCount !== 0) continue;
      try {
        // Never into our own schema: an extension lives once per database and must outlive it.
        await client.query(`CREATE EXTENSION IF NOT EXISTS ${ext} SCHEMA public`);
        createdExtensions.push(ext);
      } catch (cause) {
        throw new StoreError(
          'migration_failed',
          `Could not create the PostgreSQL extension ${ext}: ${causeMessage(cause)}. Ask a database superuser to run "CREATE EXTENSION ${ext};" in this database (the ${ext === 'postgis' ? 'PostGIS package, e.g. postgresql-15-postgis-3,' : 'contrib package'} must be installed on the server), then run migrate again.`,
          { cause },
        );
      }
    }
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
    const extSchemas = (await extensionSchemas(client)).filter((s) => s !== schema && s !== 'public');
    await client.query(`SET LOCAL search_path TO ${[schema, ...extSchemas, 'public'].map(quoteIdent).join(', ')}`);
    // Migrations may build indexes over large tables: no statement timeout here.
    await client.query('SET LOCAL statement_timeout = 0');
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const v = await client.query<{ v: number | null }>('SELECT max(version)::int AS v FROM schema_migrations');
    const from = v.rows[0]?.v ?? 0;
    if (from > PG_SCHEMA_VERSION) {
      throw new StoreError(
        'schema_too_new',
        `Schema ${schema} is at migration ${from}, newer than this release knows (${PG_SCHEMA_VERSION}); upgrade ucp-location before migrating.`,
      );
    }
    const applied: { version: number; describe: string }[] = [];
    for (const m of PG_MIGRATIONS) {
      if (m.version <= from) continue;
      for (const sql of m.statements) await client.query(sql);
      await client.query('INSERT INTO schema_migrations (version, description) VALUES ($1, $2)', [m.version, m.describe]);
      applied.push({ version: m.version, describe: m.describe });
    }
    await client.query('COMMIT');
    return { from, to: Math.max(from, PG_SCHEMA_VERSION), applied, createdExtensions };
  } catch (cause) {
    await client.query('ROLLBACK').catch(() => undefined);
    if (cause instanceof StoreError) throw cause;
    throw new StoreError('migration_failed', `Migration of schema ${schema} failed, nothing was changed: ${causeMessage(cause)}`, {
      cause,
    });
  }
}

/** Drop the store's schema and everything in it (tests, `migrate --drop` is deliberately absent). */
export async function dropSchema(client: ClientBase, schema: string): Promise<void> {
  await client.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
}

export { DATASET_TABLES };
