/**
 * The tenants of a multi-tenant PostgreSQL store: a `tenants` table in the catalog schema (the
 * URL's `?schema=`, default `ucp_location`) and one store schema per tenant, migrated like any
 * store. Adding creates and migrates the tenant's schema, then records it; removing forgets it and
 * drops its schema in one transaction — either way a `pg_notify(TENANT_CHANNEL, '<catalog>
 * <domain>')` sent inside the transaction tells every instance at commit, so a tenant added,
 * re-configured or removed on one instance is served, updated or refused by the others.
 *
 * Domains arrive checked (tenants/domain-name.ts); a schema name is derived from the domain and a
 * hash of it, so two domains never share one and every name is a plain identifier.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { causeMessage, ConfigError, StoreError } from '../../errors.js';
import { isUnavailable, poolConfig, resolveSettings, type ResolvedPostgresSettings } from './connection.js';
import { dropSchema, migrate, type MigrateResult, TENANT_CHANNEL } from './migrations.js';
import { NotificationHub } from './notification-hub.js';

export interface CatalogTenant {
  domain: string;
  /** The schema holding its store. */
  schema: string;
  /** Its public origin when it is not https://<domain>. */
  baseUrl: string | null;
  /** Its configuration (the keys of docs/configuration.md), checked by whoever added it. */
  config: unknown;
  /** Whether anything was imported into its store. */
  hasData: boolean;
}

function quote(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** `shop.brand.example` in catalog `ucp_location` → `ucp_location__shop_brand_example_1a2b3c4d` (≤ 63 characters). */
export function tenantSchemaName(catalog: string, domain: string): string {
  const hash = createHash('sha256').update(domain).digest('hex').slice(0, 8);
  const readable = domain.replace(/[^a-z0-9]+/g, '_');
  return `${catalog.slice(0, 20)}__${readable.slice(0, 30)}_${hash}`;
}

export class PostgresTenantCatalog {
  readonly #settings: ResolvedPostgresSettings;
  readonly #url: string;

  private constructor(url: string, settings: ResolvedPostgresSettings) {
    this.#url = url;
    this.#settings = settings;
  }

  /** The catalog of the store `url` names (nothing is connected until it is used). */
  static at(url: string): PostgresTenantCatalog {
    return new PostgresTenantCatalog(url, resolveSettings(url));
  }

  get schema(): string {
    return this.#settings.schema;
  }

  /** For messages: the URL without its password. */
  get display(): string {
    return this.#settings.display;
  }

  /** The URL of a tenant's own store (the catalog's URL with its `schema`). */
  storeUrl(tenant: Pick<CatalogTenant, 'schema'>): string {
    const u = new URL(this.#url);
    u.searchParams.set('schema', tenant.schema);
    return u.toString();
  }

  async #withClient<T>(body: (client: pg.Client) => Promise<T>): Promise<T> {
    const { query_timeout: _q, statement_timeout: _s, ...config } = poolConfig(this.#settings);
    const client = new pg.Client(config);
    client.on('error', () => undefined);
    try {
      await client.connect();
    } catch (cause) {
      await client.end().catch(() => undefined);
      throw new StoreError(
        isUnavailable(cause) ? 'unavailable' : 'open_failed',
        `Cannot connect to PostgreSQL at ${this.#settings.display}: ${causeMessage(cause)}. Check that the server is running and the URL is right.`,
        { cause },
      );
    }
    try {
      return await body(client);
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  get #table(): string {
    return `${quote(this.#settings.schema)}.tenants`;
  }

  async #ensureTable(client: pg.Client): Promise<void> {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quote(this.#settings.schema)}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${this.#table} (domain text PRIMARY KEY, schema text NOT NULL UNIQUE, base_url text, config jsonb, added_at timestamptz NOT NULL DEFAULT now())`,
    );
  }

  async #exists(client: pg.Client): Promise<boolean> {
    const r = await client.query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [this.#table]);
    return (r.rows[0]?.t ?? null) !== null;
  }

  /**
   * Adds a tenant: its schema created and migrated, then its row, announced at commit. Refuses a
   * domain already present (ConfigError naming what to do).
   */
  async add(domain: string, options: { baseUrl?: string; config?: unknown } = {}): Promise<CatalogTenant> {
    const schema = tenantSchemaName(this.#settings.schema, domain);
    return this.#withClient(async (client) => {
      await client.query('BEGIN');
      try {
        // Two `tenant add`s at once (or a CREATE TABLE racing one) queue here.
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`ucp-location tenants ${this.#settings.schema}`]);
        await this.#ensureTable(client);
        const present = await client.query(`SELECT 1 FROM ${this.#table} WHERE domain = $1`, [domain]);
        if ((present.rowCount ?? 0) > 0) {
          throw new ConfigError(
            `The tenant ${domain} exists already in ${this.#settings.display} (schema ${this.#settings.schema}); remove it first (ucp-location tenant remove ${domain}).`,
          );
        }
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
      // migrate() runs its own transaction (and lock); a failure leaves no row, and the schema is dropped.
      try {
        await migrate(client, schema);
        await client.query('BEGIN');
        await client.query(`INSERT INTO ${this.#table} (domain, schema, base_url, config) VALUES ($1, $2, $3, $4)`, [
          domain,
          schema,
          options.baseUrl ?? null,
          options.config === undefined ? null : JSON.stringify(options.config),
        ]);
        await client.query('SELECT pg_notify($1, $2)', [TENANT_CHANNEL, `${this.#settings.schema} ${domain}`]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        await dropSchema(client, schema).catch(() => undefined);
        if (error instanceof ConfigError || error instanceof StoreError) throw error;
        throw new StoreError('write_failed', `Could not add the tenant ${domain}: ${causeMessage(error)}`, { cause: error });
      }
      return { domain, schema, baseUrl: options.baseUrl ?? null, config: options.config ?? null, hasData: false };
    });
  }

  /** The tenant named `domain`, or null. */
  async get(domain: string): Promise<CatalogTenant | null> {
    return this.#withClient(async (client) => {
      if (!(await this.#exists(client))) return null;
      const rows = await this.#rows(client, domain);
      return rows[0] ?? null;
    });
  }

  /** Every tenant, sorted by domain; `withData: false` skips asking each store whether it holds data. */
  async list(options: { withData?: boolean } = {}): Promise<CatalogTenant[]> {
    return this.#withClient(async (client) => {
      if (!(await this.#exists(client))) return [];
      return this.#rows(client, undefined, options.withData !== false);
    });
  }

  async #rows(client: pg.Client, domain?: string, withData = true): Promise<CatalogTenant[]> {
    const r = await client.query<{ domain: string; schema: string; base_url: string | null; config: unknown }>(
      `SELECT domain, schema, base_url, config FROM ${this.#table}${domain === undefined ? '' : ' WHERE domain = $1'} ORDER BY domain`,
      domain === undefined ? [] : [domain],
    );
    const out: CatalogTenant[] = [];
    for (const row of r.rows) {
      let hasData = false;
      if (withData) {
        const d = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${quote(row.schema)}.last_import`).catch(() => null);
        hasData = (d?.rows[0]?.n ?? 0) > 0;
      }
      out.push({ domain: row.domain, schema: row.schema, baseUrl: row.base_url, config: row.config, hasData });
    }
    return out;
  }

  /** Forgets the tenant and drops its store, in one transaction; false when there was none. */
  async remove(domain: string): Promise<boolean> {
    return this.#withClient(async (client) => {
      if (!(await this.#exists(client))) return false;
      await client.query('BEGIN');
      try {
        const r = await client.query<{ schema: string }>(`DELETE FROM ${this.#table} WHERE domain = $1 RETURNING schema`, [domain]);
        const schema = r.rows[0]?.schema;
        if (schema === undefined) {
          await client.query('ROLLBACK');
          return false;
        }
        await dropSchema(client, schema);
        await client.query('SELECT pg_notify($1, $2)', [TENANT_CHANNEL, `${this.#settings.schema} ${domain}`]);
        await client.query('COMMIT');
        return true;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw new StoreError('write_failed', `Could not remove the tenant ${domain}: ${causeMessage(error)}`, { cause: error });
      }
    });
  }

  /** `migrate`: every tenant's schema brought to this release's migration (the catalog's own is migrated by the caller). */
  async migrateTenants(): Promise<Array<{ domain: string; schema: string } & MigrateResult>> {
    return this.#withClient(async (client) => {
      if (!(await this.#exists(client))) return [];
      const out: Array<{ domain: string; schema: string } & MigrateResult> = [];
      for (const t of await this.#rows(client, undefined, false))
        out.push({ domain: t.domain, schema: t.schema, ...(await migrate(client, t.schema)) });
      return out;
    });
  }

  /**
   * Calls `onChange(domain)` for every tenant another process (or this one) adds, re-configures or
   * removes, and `onChange(null)` when notifications may have been missed (the connection came
   * back): re-read the whole catalog then. Returns the function that stops watching.
   */
  async watch(
    onChange: (domain: string | null) => void,
    logger?: Parameters<typeof NotificationHub.acquire>[1],
  ): Promise<() => Promise<void>> {
    const hub = NotificationHub.acquire(poolConfig(this.#settings), logger);
    const unsubscribe = hub.subscribe({
      channel: TENANT_CHANNEL,
      schema: this.#settings.schema,
      onNotify: ([domain]) => {
        if (domain !== undefined && domain !== '') onChange(domain);
      },
      onLive: (live) => {
        if (live) onChange(null);
      },
    });
    await hub.ready();
    return async () => {
      unsubscribe();
      await hub.release();
    };
  }
}
