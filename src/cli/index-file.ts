/**
 * After `import` or `inventory`: the store's index file for its new generation, so servers load it
 * at start (and other PostgreSQL instances on the change) instead of each building the same index.
 * An import builds it; an inventory batch reuses the previous file with the new availability.
 * (server.ts picks the same homes for `serve`; this copy keeps the CLI from loading the server.)
 */
import type { LocationStore } from '../store/store.js';
import type { IndexFileHome, IndexFileRefresh } from '../store/memory-index/index.js';

async function homeOf(store: LocationStore, db: string): Promise<IndexFileHome | undefined> {
  if (store.kind === 'postgres') {
    const { PostgresLocationStore, PostgresIndexFileHome } = await import('../store/postgres/index.js');
    return store instanceof PostgresLocationStore ? PostgresIndexFileHome.open(store.indexFileAccess()) : undefined;
  }
  if (store.kind !== 'sqlite' || db === ':memory:') return undefined;
  const { DiskIndexFileHome, indexFilePathFor } = await import('../store/memory-index/index.js');
  return new DiskIndexFileHome(indexFilePathFor(db));
}

export async function refreshIndexFileOf(store: LocationStore, db: string): Promise<IndexFileRefresh | null> {
  const { canExportIndex, refreshIndexFile } = await import('../store/memory-index/index.js');
  if (!canExportIndex(store)) return null;
  const home = await homeOf(store, db);
  if (home === undefined) return null;
  try {
    return await refreshIndexFile(store, home);
  } finally {
    await home.close?.();
  }
}

/** The report line for the index file (human output). */
export function indexFileLine(refresh: IndexFileRefresh | null): string | null {
  if (refresh === null) return null;
  if (!refresh.written) return 'Index file: not written (the store moved on to a newer import meanwhile)';
  const how = refresh.source === 'file' ? 'updated from the previous one' : 'built';
  return `Index file: ${how} for generation ${refresh.generation} (${refresh.locations.toLocaleString('en-US')} public location(s))`;
}
