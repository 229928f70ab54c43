/**
 * A real SQLite store file in a temporary directory, filled from an NDJSON fixture through the
 * real import pipeline — what `ucp-location import` would produce.
 */
import { join } from 'node:path';
import { inScratchDir } from '../../support/scratch.js';
import { fileURLToPath } from 'node:url';
import { importFiles } from '../../../src/data/import.js';
import { SqliteLocationStore } from '../../../src/store/sqlite/index.js';

export const FIXTURE = fileURLToPath(new URL('../fixtures/locations.ndjson', import.meta.url));

export interface StoreFile {
  path: string;
  dispose(): void;
}

export async function buildStoreFile(fixture = FIXTURE): Promise<StoreFile> {
  const { path, remove } = await inScratchDir('ucp-e2e', async (dir) => {
    const path = join(dir, 'locations.db');
    const store = await SqliteLocationStore.open(path);
    try {
      await importFiles(store, [fixture]);
    } finally {
      await store.close();
    }
    return { path };
  });
  return { path, dispose: remove };
}

/**
 * Which store the e2e server runs on. `test/scale/e2e-postgres.test.ts` switches it to
 * PostgreSQL before importing the e2e bodies, so the same tests run on both stores.
 */
let e2eStore: 'sqlite' | 'postgres' = 'sqlite';

export function useE2eStore(kind: 'sqlite' | 'postgres'): void {
  e2eStore = kind;
}

/** The fixture in the chosen store; `path` is what `startServer({ db })` takes (file or URL). */
export async function openE2eStore(fixture = FIXTURE): Promise<{ path: string; dispose(): Promise<void> | void }> {
  if (e2eStore === 'sqlite') return buildStoreFile(fixture);
  const { buildPostgresStore } = await import('../../scale/support/e2e-store.js');
  return buildPostgresStore(fixture);
}
