/**
 * PostgreSQL-specific behaviour beyond the shared store contract: versioned idempotent
 * migrations, refusal to serve an unmigrated or newer schema (with the command to run),
 * concurrent migrators, and LISTEN/NOTIFY change propagation between instances.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { StoreError } from '../../src/errors.js';
import { startServer } from '../../src/server.js';
import { createLogger } from '../../src/logging.js';
import { PG_SCHEMA_VERSION, PostgresLocationStore } from '../../src/store/postgres/index.js';
import { createTestDatabase, withSchema, type TestDatabase } from './support/pg.js';
import { describeWith, type ServiceName } from '../support/services.js';
import { fixtureRecords } from '../contract/fixture.js';

const NEEDS: ServiceName[] = ['postgis'];

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase('ucp_pgstore');
});

afterAll(async () => {
  await db?.drop();
});

async function sql(text: string): Promise<void> {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

async function openError(url: string): Promise<StoreError> {
  const err = await PostgresLocationStore.open(url).then(
    async (s) => {
      await s.close();
      return null;
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StoreError);
  return err as StoreError;
}

describeWith(NEEDS, 'migrations', () => {
  it('refuses to open an unmigrated schema and names the command to run', async () => {
    const err = await openError(withSchema(db.url, 'never_migrated'));
    expect(err.message).toContain('is not migrated');
    expect(err.message).toContain('ucp-location migrate --store');
  });

  it('the server refuses to start on an unmigrated schema (no half-working instance)', async () => {
    await expect(
      startServer({
        host: '127.0.0.1',
        port: 0,
        db: withSchema(db.url, 'never_migrated_2'),
        logger: createLogger({ level: 'silent', destination: 'stderr' }),
      }),
    ).rejects.toThrow(/ucp-location migrate/);
  });

  it('is idempotent and safe to run concurrently: exactly one run applies each migration', async () => {
    const url = withSchema(db.url, 'concurrent');
    const results = await Promise.all([1, 2, 3].map(() => PostgresLocationStore.migrate(url)));
    expect(results.map((r) => r.applied.length).sort()).toEqual([0, 0, PG_SCHEMA_VERSION]);
    for (const r of results) expect(r.to).toBe(PG_SCHEMA_VERSION);
    const again = await PostgresLocationStore.migrate(url);
    expect(again).toMatchObject({ from: PG_SCHEMA_VERSION, to: PG_SCHEMA_VERSION, applied: [] });
    const store = await PostgresLocationStore.open(url);
    expect(await store.readiness()).toMatchObject({ ready: true, reason: 'ok' });
    await store.close();
  });

  it('migration 2 adds the languages table to a version-1 schema; the next import keeps translations (R-C3)', async () => {
    const url = withSchema(db.url, 'from_v1');
    await PostgresLocationStore.migrate(url);
    await sql('DROP TABLE from_v1.languages, from_v1.last_import; DELETE FROM from_v1.schema_migrations WHERE version >= 2');
    await expect(openError(url)).resolves.toMatchObject({ code: 'schema_outdated' });
    const upgrade = await PostgresLocationStore.migrate(url);
    expect(upgrade).toMatchObject({
      from: 1,
      to: PG_SCHEMA_VERSION,
      applied: [expect.objectContaining({ version: 2 }), expect.objectContaining({ version: 3 }), expect.objectContaining({ version: 4 })],
    });
    const store = await PostgresLocationStore.open(url);
    try {
      await store.replaceAll(fixtureRecords());
      const keys = (await store.resolveIds(['loc_berlin'])).get('loc_berlin') ?? [];
      expect([...(await store.getLanguages(keys)).values()]).toEqual([expect.objectContaining({ language: 'de' })]);
    } finally {
      await store.close();
    }
  });

  it('refuses a schema migrated by a newer release, and readiness says why', async () => {
    const url = withSchema(db.url, 'from_future');
    await PostgresLocationStore.migrate(url);
    const store = await PostgresLocationStore.open(url);
    await sql("INSERT INTO from_future.schema_migrations (version, description) VALUES (999, 'from the future')");
    expect(await store.readiness()).toMatchObject({ ready: false, reason: 'schema' });
    await store.close();
    const err = await openError(url);
    expect(err.message).toContain('newer than this release supports');
    await expect(PostgresLocationStore.migrate(url)).rejects.toThrow(/upgrade ucp-location/);
  });

  it('rejects a malformed schema name before connecting', async () => {
    await expect(PostgresLocationStore.open(withSchema(db.url, 'Bad-Name'))).rejects.toThrow(/lower-case letters, digits and _/);
  });
});

describeWith(NEEDS, 'connection loss', () => {
  it('terminated backends are not an outage: dropped connections are replaced (a read also retries once) and no request gets 503', async () => {
    const url = withSchema(db.url, 'terminated');
    const store = await PostgresLocationStore.open(url, { migrate: true, poolMax: 3, listen: false });
    try {
      await store.replaceAll([{ id: 'loc_a', name: 'A' }]);
      const g = await store.generation();
      for (let round = 0; round < 3; round++) {
        await sql(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${db.name}' AND application_name = 'ucp-location' AND pid <> pg_backend_pid()`,
        );
        expect(await store.generation()).toBe(g);
        expect((await store.resolveIds(['loc_a'])).size).toBe(1);
      }
      expect(await store.readiness()).toMatchObject({ ready: true });
    } finally {
      await store.close();
    }
  });
});

describeWith(NEEDS, 'LISTEN/NOTIFY', () => {
  it('tells every instance about a commit by another one, without a request', async () => {
    const url = withSchema(db.url, 'notify');
    const writer = await PostgresLocationStore.open(url, { migrate: true, poolMax: 2 });
    const reader = await PostgresLocationStore.open(url, { poolMax: 2 });
    try {
      // The store offers no event for its LISTEN taking effect, so this looks again every 20 ms
      // for as long as it takes; the test's timeout is the only deadline.
      while (!reader.listening) await new Promise((r) => setTimeout(r, 20));
      const heard = new Promise<{ generation: number; dataset: number }>((resolve) => reader.changeFeed.onChange(resolve));
      const result = await writer.replaceAll([{ id: 'loc_a', name: 'A' }]);
      expect(await heard).toEqual({ generation: result.generation, dataset: 1 });
      const next = new Promise<{ generation: number; dataset: number }>((resolve) => reader.changeFeed.onChange(resolve));
      const inv = await writer.applyInventory([{ line: 1, location_id: 'loc_a', item_id: 'sku', available: true }]);
      expect(await next).toEqual({ generation: inv.generation, dataset: 1 });
    } finally {
      await reader.close();
      await writer.close();
    }
  });
});
