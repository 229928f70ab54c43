/**
 * `ucp-location/store/postgres`: the scale-out store (PostgreSQL + PostGIS + pg_trgm, `pg`).
 * Only this subpath loads `pg`.
 */
export { PostgresLocationStore, type OpenPostgresOptions, type StoreReadiness } from './postgres-location-store.js';
export { isPostgresUrl, redactUrl, DEFAULT_SCHEMA, type PostgresStoreOptions, type StoreLogger } from './connection.js';
export { PG_SCHEMA_VERSION, type MigrateResult } from './migrations.js';
export { PostgresIndexFileHome } from './index-file-home.js';
export { PostgresTenantCatalog, tenantSchemaName, type CatalogTenant } from './tenant-catalog.js';
