/**
 * Tenants over PostgreSQL (#34): one catalog, one schema per tenant, two instances serving them.
 * The three-tenant isolation suite of the directory tenants runs at each instance (the second one
 * starts its tenants on demand, under a memory budget); then a tenant imported, added and removed
 * through the store — as `import --store --tenant` and `tenant add|remove --store` do, from
 * another process — is answered, served and refused by both instances, each hearing of it
 * through LISTEN/NOTIFY (waited on, never slept for).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { importFiles } from '../../src/data/import.js';
import { refreshIndexFile } from '../../src/store/memory-index/index.js';
import { PostgresIndexFileHome, PostgresLocationStore, PostgresTenantCatalog } from '../../src/store/postgres/index.js';
import { catalogTenants, normaliseDomain, UNKNOWN_HOST_MESSAGE } from '../../src/tenants/index.js';
import { postJson, rawRequest } from '../../src/transport/test-support/raw-http.js';
import { createTestDatabase, withSchema, type TestDatabase } from '../scale/support/pg.js';
import { describeWith } from '../support/services.js';
import { useScratchDir } from '../support/scratch.js';
import { A, isolationSuite, recordsA, type ServedInstance } from './isolation-suite.js';

const scratch = useScratchDir('ucp-tenants-pg');
const D = 'brand-d.example';

describeWith(['postgis'], 'tenants over PostgreSQL, two instances', () => {
  let db: TestDatabase | undefined;
  let catalog: PostgresTenantCatalog;

  /** Imports `records` into the tenant's own schema and publishes its index file, as `import --store --tenant` does. */
  async function importInto(domain: string, records: ReadonlyArray<Record<string, unknown>>): Promise<number> {
    const tenant = await catalog.get(normaliseDomain(domain));
    if (tenant === null) throw new Error(`no tenant ${domain}`);
    const file = join(scratch(), `${tenant.domain}-${Date.now()}.ndjson`);
    writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n'));
    const store = await PostgresLocationStore.open(catalog.storeUrl(tenant), { poolMax: 2 });
    try {
      const report = await importFiles(store, [file]);
      const home = await PostgresIndexFileHome.open(store.indexFileAccess());
      try {
        await refreshIndexFile(store, home);
      } finally {
        await home.close();
      }
      return report.generation;
    } finally {
      await store.close();
    }
  }

  afterAll(async () => {
    await db?.drop();
  });

  const instances = isolationSuite(
    'R-T1 tenants over PostgreSQL',
    async () => {
      db = await createTestDatabase('ucp_tenants');
      catalog = PostgresTenantCatalog.at(withSchema(db.url, 'ucp_location'));
      return {
        serveOptions: () => ({ source: catalogTenants(catalog) }),
        add: async (domain, records, config) => {
          await catalog.add(normaliseDomain(domain), { config });
          await importInto(domain, records);
        },
      };
    },
    64_980,
    2,
    // The second instance starts each tenant on its first request.
    (i) => (i === 1 ? { indexMemoryBytes: 64 * 1024 * 1024 } : {}),
  );

  beforeAll(() => {
    expect(instances()).toHaveLength(2);
  });

  function search(s: ServedInstance, host: string): Promise<string[]> {
    return postJson(
      `${s.origin}/ucp/locations/search`,
      { pagination: { limit: 50 } },
      { host: `${host}:${s.port}`, 'ucp-agent': `profile="${s.profile}"`, 'x-forwarded-for': `198.51.100.${70 + s.port - 64_980}` },
    ).then((res) => ((res.json as { locations?: Array<{ name: string }> }).locations ?? []).map((l) => l.name).sort());
  }

  it('lists its tenants with a schema each, and `migrate` finds every one current', async () => {
    const listed = await catalog.list();
    expect(listed.map((t) => t.domain)).toEqual(['brand-a.example', 'brand-b.example', 'xn--bckerei-5wa.example']);
    expect(new Set(listed.map((t) => t.schema)).size).toBe(3);
    expect(listed.every((t) => t.hasData)).toBe(true);
    const migrated = await catalog.migrateTenants();
    expect(migrated.map((m) => m.applied.length)).toEqual([0, 0, 0]);
  });

  it('an import of one tenant (from another process) is answered by both instances', async () => {
    const renamed = recordsA.map((r) => ({ ...r, name: `Renamed ${String(r['name'])}` }));
    const generation = await importInto(A, renamed);
    for (const s of instances()) {
      // The on-demand instance may not have started A: then its next start reads the new data.
      await s.tenants.pool.server(A)?.caughtUp(generation);
      const names = await search(s, A);
      expect(names.length).toBeGreaterThan(0);
      expect(names.every((n) => n.startsWith('Renamed '))).toBe(true);
    }
  });

  it('a tenant added elsewhere is served by both instances, and refused by both once removed', async () => {
    await catalog.add(D, { config: { limits: { defaultPageSize: 5 } } });
    await importInto(
      D,
      recordsA.slice(0, 3).map((r) => ({ ...r, name: `D ${String(r['name'])}` })),
    );
    for (const s of instances()) {
      await s.tenants.pool.until((p) => p.domains.includes(D));
      const profile = await rawRequest(`${s.origin}/.well-known/ucp`, { headers: { host: `${D}:${s.port}` } });
      expect(profile.status).toBe(200);
      expect(JSON.stringify(profile.json)).toContain(`https://${D}/ucp`);
      const names = await search(s, D);
      expect(names.length).toBeGreaterThan(0);
      expect(names.every((n) => n.startsWith('D '))).toBe(true);
    }
    expect(await catalog.remove(D)).toBe(true);
    for (const s of instances()) {
      await s.tenants.pool.until((p) => !p.domains.includes(D));
      const gone = await rawRequest(`${s.origin}/.well-known/ucp`, { headers: { host: `${D}:${s.port}` } });
      expect(gone.status).toBe(404);
      expect(gone.text).toBe(UNKNOWN_HOST_MESSAGE);
    }
    // Its schema went with it.
    expect((await catalog.list()).map((t) => t.domain)).not.toContain(D);
  });
});
