/**
 * The e2e fixture in a PostgreSQL store: a fresh database, migrated, filled through the real
 * import pipeline; `path` is the store URL that `startServer({ db })` accepts.
 */
import { importFiles } from '../../../src/data/import.js';
import { PostgresLocationStore } from '../../../src/store/postgres/index.js';
import { createTestDatabase, withSchema } from './pg.js';

export async function buildPostgresStore(fixture: string): Promise<{ path: string; dispose(): Promise<void> }> {
  const db = await createTestDatabase('ucp_e2e');
  const url = withSchema(db.url, 'e2e');
  try {
    await buildPostgresStoreIn(url, fixture);
  } catch (err) {
    await db.drop();
    throw err;
  }
  return { path: url, dispose: () => db.drop() };
}

/** Migrate the store at `url` and import `fixture` into it (what `migrate` + `import` do). */
export async function buildPostgresStoreIn(url: string, fixture: string): Promise<void> {
  const store = await PostgresLocationStore.open(url, { migrate: true, poolMax: 2 });
  try {
    await importFiles(store, [fixture]);
  } finally {
    await store.close();
  }
}
