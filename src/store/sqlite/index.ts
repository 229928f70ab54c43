/** `ucp-location/store/sqlite`: the embedded store (better-sqlite3). */
export { SqliteLocationStore, type SqliteStoreOptions } from './sqlite-location-store.js';
export { SCHEMA_VERSION } from './schema.js';
