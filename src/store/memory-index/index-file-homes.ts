/**
 * The index-file home of a store, by kind: beside an SQLite store file, or in a PostgreSQL
 * store's schema. `pg` is loaded only for a PostgreSQL store.
 */
import type { LocationStore } from '../store.js';
import { DiskIndexFileHome, type IndexFileHome, indexFilePathFor } from './index-file-home.js';

/**
 * `storeFile`: the SQLite file the store was opened from (none for an in-memory store, which
 * keeps no files). Undefined when the store has no place for index files.
 */
export async function indexFileHomeFor(store: LocationStore, storeFile?: string): Promise<IndexFileHome | undefined> {
  if (store.kind === 'postgres') {
    const { PostgresLocationStore } = await import('../postgres/index.js');
    if (!(store instanceof PostgresLocationStore)) return undefined;
    const { PostgresIndexFileHome } = await import('./index-file-postgres.js');
    return PostgresIndexFileHome.open(store.indexFileAccess());
  }
  if (store.kind === 'sqlite' && storeFile !== undefined && storeFile !== ':memory:' && storeFile !== '') {
    return new DiskIndexFileHome(indexFilePathFor(storeFile));
  }
  return undefined;
}
