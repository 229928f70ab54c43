/** The store contract against the embedded SQLite store (real database files in a temp dir). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { SqliteLocationStore } from '../../src/store/sqlite/index.js';
import type { LocationStore } from '../../src/store/store.js';
import { IndexedLocationStore } from '../../src/store/memory-index/index.js';
import { runStoreContract } from './store-contract.js';

const dir = mkdtempSync(join(tmpdir(), 'ucp-location-contract-'));
const paths = new WeakMap<LocationStore, string>();
let n = 0;

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

runStoreContract({
  name: 'sqlite (file)',
  newStore: async () => {
    const path = join(dir, `store-${++n}.db`);
    const store = await SqliteLocationStore.open(path);
    paths.set(store, path);
    return store;
  },
  // Another SqliteLocationStore on the same file: its own connections, as another process has.
  openPeer: async (store) => {
    const path = paths.get(store);
    if (path === undefined) throw new Error('openPeer: unknown store');
    return SqliteLocationStore.open(path);
  },
});

runStoreContract({
  name: "sqlite (':memory:')",
  newStore: () => SqliteLocationStore.open(':memory:'),
});

// The same contract with the in-memory index in front (the server's default): every read is
// answered from memory, writes go through to the file.
runStoreContract({
  name: 'sqlite (file) + memory index',
  newStore: async () => {
    const path = join(dir, `store-${++n}.db`);
    const store = await IndexedLocationStore.open(await SqliteLocationStore.open(path));
    paths.set(store, path);
    return store;
  },
  openPeer: async (store) => {
    const path = paths.get(store);
    if (path === undefined) throw new Error('openPeer: unknown store');
    return IndexedLocationStore.open(await SqliteLocationStore.open(path));
  },
});
