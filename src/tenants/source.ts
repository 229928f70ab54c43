/**
 * Where `serve` finds its tenants: a tenants directory (registry.ts, SQLite stores) or the tenant
 * catalog of a PostgreSQL store (store/postgres/tenant-catalog.ts, handed in by the CLI, which may
 * load `pg`; this layer never does). Either way a tenant comes out the same: a domain, its public
 * origin, the store `serve` opens for it and its configuration.
 */
import { parseConfig } from '../config.js';
import type { ServerConfig } from '../config.js';
import type { ServerOptions } from '../server.js';
import type { TenantRegistry } from './registry.js';

export interface ServedTenant {
  domain: string;
  baseUrl: string;
  /** What `serve` opens: an SQLite file, or the `postgres://` URL of the tenant's schema. */
  store: string;
  hasData: boolean;
  /** Changes whenever what the tenant is served with (origin, configuration) changes. */
  fingerprint: string;
  /** Its configuration; undefined: all defaults. Throws ConfigError for a bad one. */
  config(): Promise<ServerConfig | undefined>;
}

export interface TenantSource {
  /** For messages: the directory, or the store URL without its password. */
  readonly description: string;
  /** The command that adds a tenant here, for the message when there is none. */
  readonly addHint: string;
  /** The command that imports a tenant's data, `<domain>` standing for its name. */
  readonly importHint: string;
  list(): Promise<ServedTenant[]>;
  get(domain: string): Promise<ServedTenant | null>;
  /**
   * Tells `onChange(domain)` of every tenant added, changed or removed by any process, and
   * `onChange(null)` when changes may have been missed (re-read everything). Absent: tenants change
   * only when `serve` restarts (a directory).
   */
  watch?(onChange: (domain: string | null) => void): Promise<() => Promise<void>>;
  /** Store settings for each tenant's server (server.ts `postgres`). */
  readonly storeOptions?: ServerOptions['postgres'];
}

/** The tenants of a directory (`tenant add --tenants <dir>`). */
export function directoryTenants(registry: TenantRegistry): TenantSource {
  const served = async (domain: string): Promise<ServedTenant> => {
    const t = await registry.get(domain);
    return {
      domain: t.domain,
      baseUrl: t.baseUrl,
      store: t.storeFile,
      hasData: t.hasData,
      fingerprint: `${t.baseUrl} ${t.configFile ?? ''}`,
      config: () => registry.config(t),
    };
  };
  return {
    description: registry.dir,
    addHint: `ucp-location tenant add <domain> --tenants ${registry.dir}`,
    importHint: `ucp-location import --tenants ${registry.dir} --tenant <domain> <file.ndjson>`,
    list: async () => Promise.all((await registry.list()).map((t) => served(t.domain))),
    get: async (domain) => served(domain).catch(() => null),
  };
}

/** What the PostgreSQL tenant catalog offers (structurally: this layer never imports the adapter). */
export interface TenantCatalog {
  readonly display: string;
  list(options?: { withData?: boolean }): Promise<CatalogEntry[]>;
  get(domain: string): Promise<CatalogEntry | null>;
  storeUrl(tenant: { schema: string }): string;
  watch(onChange: (domain: string | null) => void): Promise<() => Promise<void>>;
}

export interface CatalogEntry {
  domain: string;
  schema: string;
  baseUrl: string | null;
  config: unknown;
  hasData: boolean;
}

/** The tenants of a PostgreSQL store's catalog (`tenant add --store postgres://…`). */
export function catalogTenants(catalog: TenantCatalog): TenantSource {
  const served = (t: CatalogEntry): ServedTenant => ({
    domain: t.domain,
    baseUrl: t.baseUrl ?? `https://${t.domain}`,
    store: catalog.storeUrl(t),
    hasData: t.hasData,
    fingerprint: JSON.stringify([t.baseUrl, t.config]),
    config: async () =>
      t.config === null || t.config === undefined ? undefined : parseConfig(t.config, `the configuration of ${t.domain}`),
  });
  return {
    description: catalog.display,
    addHint: `ucp-location tenant add <domain> --store ${catalog.display}`,
    importHint: `ucp-location import --store ${catalog.display} --tenant <domain> <file.ndjson>`,
    // A tenant with nothing imported is served empty, and follows its first import (a fleet adds first).
    list: async () => (await catalog.list({ withData: false })).map((t) => served({ ...t, hasData: true })),
    get: async (domain) => {
      const t = await catalog.get(domain);
      return t === null ? null : served({ ...t, hasData: true });
    },
    watch: (onChange) => catalog.watch(onChange),
    // A started tenant reads the database only when it starts or follows a change (its index answers):
    // its one connection closes soon after, so a thousand tenants need few connections at a time.
    storeOptions: { sharedNotifications: true, poolMax: 1, idleTimeoutMs: 250 },
  };
}
