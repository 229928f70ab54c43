/**
 * Indexes on demand (#34): `serve --tenants <dir> --index-memory <MiB>` starts a tenant — its index
 * read from its index file — on the tenant's first request, shares that one start among the
 * requests that arrive meanwhile, and stops the least recently used tenants when the indexes
 * exceed the budget. /metrics tells each tenant's readiness and resident bytes, and counts loads
 * and evictions.
 */
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFiles } from '../../src/data/import.js';
import { createLogger } from '../../src/logging.js';
import { ServerMetrics } from '../../src/metrics/index.js';
import { DiskIndexFileHome, indexFilePathFor, refreshIndexFile, RESIDENT_BYTES_PER_FILE_BYTE } from '../../src/store/memory-index/index.js';
import { SqliteLocationStore } from '../../src/store/sqlite/index.js';
import { assembleTenants, tenantCost, TenantRegistry, tenantsShare } from '../../src/tenants/index.js';
import type { AssembledTenants } from '../../src/tenants/index.js';
import { registerInProcess } from '../../src/transport/test-support/in-process.js';
import { postJson } from '../../src/transport/test-support/raw-http.js';
import { startPlatforms, testResolver } from '../e2e/support/platform.js';
import type { Platforms } from '../e2e/support/platform.js';
import { useScratchDir } from '../support/scratch.js';
import { recordsA } from './isolation-suite.js';

const PORT = 64_970;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const DOMAINS = ['one.example', 'two.example', 'three.example', 'four.example'];
const scratch = useScratchDir('ucp-tenants-on-demand');

let platforms: Platforms;
let tenants: AssembledTenants;
let metrics: ServerMetrics;
let unregister: () => void;
let fileBytes: number;
let budget: number;

beforeAll(async () => {
  platforms = await startPlatforms();
  const registry = new TenantRegistry(join(scratch(), 'tenants'));
  for (const domain of DOMAINS) {
    const tenant = await registry.add(domain);
    const file = join(scratch(), `${domain}.ndjson`);
    writeFileSync(file, recordsA.map((r) => JSON.stringify({ ...r, name: `${domain} ${String(r['name'])}` })).join('\n'));
    const store = await SqliteLocationStore.open(tenant.storeFile);
    try {
      await importFiles(store, [file]);
      // As `import --tenants --tenant` does: the index file beside the store.
      await refreshIndexFile(store, new DiskIndexFileHome(indexFilePathFor(tenant.storeFile)));
    } finally {
      await store.close();
    }
  }
  fileBytes = Math.max(...DOMAINS.map((d) => statSync(indexFilePathFor(registry.paths(d).storeFile)).size));
  // Room for two tenants, not three (each counted for its index, its file's size times the
  // factor, and its server; a quarter of a budget this small is set aside for churn).
  const room = Math.floor(tenantCost(fileBytes * RESIDENT_BYTES_PER_FILE_BYTE) * 2.5);
  budget = Math.ceil(room / 0.75);
  expect(tenantsShare(budget)).toBeGreaterThanOrEqual(room - 1);
  metrics = new ServerMetrics();
  tenants = await assembleTenants(
    {
      tenants: registry.dir,
      indexMemoryBytes: budget,
      host: '127.0.0.1',
      port: PORT,
      logger: createLogger({ level: 'silent' }),
      cursorSecret: 'on-demand-test-secret-0123456789abcdef',
      allowLoopbackProfiles: true,
      resolveHost: testResolver,
      metrics,
    },
    PORT,
  );
  unregister = registerInProcess(ORIGIN, tenants.listener);
});

afterAll(async () => {
  unregister?.();
  await tenants?.close();
  await platforms?.close();
});

async function search(domain: string): Promise<string[]> {
  const res = await postJson(
    `${ORIGIN}/ucp/locations/search`,
    { pagination: { limit: 50 } },
    { host: `${domain}:${PORT}`, 'ucp-agent': `profile="${platforms.good}"` },
  );
  expect(res.status).toBe(200);
  return ((res.json as { locations?: Array<{ name: string }> }).locations ?? []).map((l) => l.name);
}

async function sample(name: string, labels: Record<string, string> = {}): Promise<number> {
  const { text } = await metrics.exposition();
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  return text
    .split('\n')
    .filter((line) => (line.startsWith(`${name}{`) || line.startsWith(`${name} `)) && wanted.every((w) => line.includes(w)))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

describe('indexes on demand under --index-memory', () => {
  it('starts no tenant before its first request, and reports each as not ready', async () => {
    expect(tenants.pool.residentDomains()).toEqual([]);
    for (const tenant of DOMAINS) {
      expect(await sample('ucp_index_ready', { tenant })).toBe(0);
      expect(await sample('ucp_index_resident_bytes', { tenant })).toBe(0);
    }
    expect(await sample('ucp_index_memory_budget_bytes')).toBe(budget);
  });

  it('concurrent first requests share one load, read from the index file', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => search('one.example')));
    for (const names of answers) {
      expect(names.length).toBeGreaterThan(0);
      expect(names.every((n) => n.startsWith('one.example '))).toBe(true);
    }
    expect(await sample('ucp_index_loads_total', { tenant: 'one.example' })).toBe(1);
    expect(await sample('ucp_index_ready', { tenant: 'one.example' })).toBe(1);
    // Loaded from its file: it is counted by the file's size, and its server beside it.
    const file = statSync(indexFilePathFor(join(scratch(), 'tenants', 'one.example', 'locations.db'))).size;
    expect(await sample('ucp_index_resident_bytes', { tenant: 'one.example' })).toBe(
      tenantCost(Math.round(file * RESIDENT_BYTES_PER_FILE_BYTE)),
    );
  });

  it('stops the least recently used tenant when the indexes exceed the budget, and stays within it', async () => {
    await search('two.example');
    await search('one.example'); // two is now the least recently used
    await search('three.example');
    expect(tenants.pool.residentDomains()).toEqual(['one.example', 'three.example']);
    expect(await sample('ucp_index_evictions_total', { tenant: 'two.example' })).toBe(1);
    expect(await sample('ucp_index_ready', { tenant: 'two.example' })).toBe(0);
    expect(await sample('ucp_index_resident_bytes', { tenant: 'two.example' })).toBe(0);
    expect(tenants.pool.residentBytes).toBeLessThanOrEqual(budget);
    expect(await sample('ucp_index_resident_bytes')).toBe(tenants.pool.residentBytes);
    // The stopped tenant answers again, started anew; the budget still holds.
    expect((await search('two.example')).every((n) => n.startsWith('two.example '))).toBe(true);
    expect(await sample('ucp_index_loads_total', { tenant: 'two.example' })).toBe(2);
    expect(tenants.pool.residentBytes).toBeLessThanOrEqual(budget);
  });

  it('a cold and a started tenant asked at once each answer from their own data', async () => {
    const [hot] = tenants.pool.residentDomains().slice(-1);
    expect(hot).toBeDefined();
    const cold = DOMAINS.find((d) => !tenants.pool.residentDomains().includes(d)) ?? '';
    // Both asked at once: each answers from its own data (pool.test.ts holds a start back to show the order).
    const [coldNames, hotNames] = await Promise.all([search(cold), search(hot ?? '')]);
    expect(hotNames.every((n) => n.startsWith(`${hot} `))).toBe(true);
    expect(coldNames.every((n) => n.startsWith(`${cold} `))).toBe(true);
    expect(tenants.pool.residentBytes).toBeLessThanOrEqual(budget);
  });
});
