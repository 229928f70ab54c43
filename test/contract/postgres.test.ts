/**
 * The store contract against PostgreSQL + PostGIS: the same test bodies as SQLite. Each store is
 * a fresh schema in a database created for this file (dropped afterwards); a peer is a second
 * PostgresLocationStore (own pool, own listener) on the same schema, as another instance has.
 */
import { afterAll, beforeAll } from 'vitest';
import { PostgresLocationStore } from '../../src/store/postgres/index.js';
import type { LocationStore } from '../../src/store/store.js';
import { IndexedLocationStore } from '../../src/store/memory-index/index.js';
import { createTestDatabase, withSchema, type TestDatabase } from '../scale/support/pg.js';
import { runStoreContract } from './store-contract.js';
import { describeWith } from '../support/services.js';

let db: TestDatabase | undefined;
const urls = new WeakMap<LocationStore, string>();
let n = 0;

describeWith(['postgis'], 'PostgreSQL store', () => {
  beforeAll(async () => {
    db = await createTestDatabase('ucp_contract');
  });

  afterAll(async () => {
    await db?.drop();
  });

  runStoreContract({
    name: 'postgres (PostGIS)',
    newStore: async () => {
      if (db === undefined) throw new Error('test database not created');
      const url = withSchema(db.url, `contract_${++n}`);
      const store = await PostgresLocationStore.open(url, { migrate: true, poolMax: 4 });
      urls.set(store, url);
      return store;
    },
    openPeer: async (store) => {
      const url = urls.get(store);
      if (url === undefined) throw new Error('openPeer: unknown store');
      return PostgresLocationStore.open(url, { poolMax: 4 });
    },
  });

  // With the in-memory index in front (the server's default): reads from memory, writes and
  // change notifications through PostgreSQL.
  runStoreContract({
    name: 'postgres (PostGIS) + memory index',
    newStore: async () => {
      if (db === undefined) throw new Error('test database not created');
      const url = withSchema(db.url, `contract_${++n}`);
      const store = await IndexedLocationStore.open(await PostgresLocationStore.open(url, { migrate: true, poolMax: 4 }));
      urls.set(store, url);
      return store;
    },
    openPeer: async (store) => {
      const url = urls.get(store);
      if (url === undefined) throw new Error('openPeer: unknown store');
      return IndexedLocationStore.open(await PostgresLocationStore.open(url, { poolMax: 4 }));
    },
  });
});
