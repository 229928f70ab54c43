/**
 * The three-tenant isolation suite (R-T1), run over any home of tenants: three businesses on one
 * process (in-process: what `startTenantServers` installs on its socket, reached without one), two
 * of them holding the same Location ids. Each tenant is its own Business, picked by the request's
 * host name, and nothing of one is visible from another. The router runs with `trustProxy`, so
 * X-Forwarded-For names the client address the budgets charge.
 *
 * `instances` > 1 assembles that many processes over the same tenants (PostgreSQL: one catalog);
 * the suite then runs at each, and a cursor issued by one pages at the others (one process secret).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logging.js';
import { ServerMetrics, startMetricsServer } from '../../src/metrics/index.js';
import type { MetricsServer } from '../../src/metrics/index.js';
import { UNKNOWN_HOST_MESSAGE } from '../../src/tenants/index.js';
import type { AssembledTenants, TenantServeOptions } from '../../src/tenants/index.js';
import { registerInProcess } from '../../src/transport/test-support/in-process.js';
import { postJson, rawRequest } from '../../src/transport/test-support/raw-http.js';
import type { RawResponse } from '../../src/transport/test-support/raw-http.js';
import { FIXTURE } from '../e2e/support/store.js';
import { startPlatforms, testResolver } from '../e2e/support/platform.js';
import type { Platforms } from '../e2e/support/platform.js';

export const A = 'brand-a.example';
export const B = 'brand-b.example';
/** Written in Unicode; served (and routed) as its punycode form. */
export const C_UNICODE = 'bäckerei.example';
export const C = 'xn--bckerei-5wa.example';

/** A home of tenants the suite fills and serves from. */
export interface TenantHome {
  /** Adds the tenant `domain` with `config` and imports `records` into its store. */
  add(domain: string, records: ReadonlyArray<Record<string, unknown>>, config: object): Promise<void>;
  /** The options that make `assembleTenants` serve this home (`tenants` or `source`). */
  serveOptions(): Pick<TenantServeOptions, 'tenants' | 'source'>;
}

interface Fixture {
  id: string;
  name: string;
}

/** The e2e fixture's Locations, renamed for tenant B (same ids), without its first one. */
function fixtureRecords(): Array<Record<string, unknown>> {
  return readFileSync(FIXTURE, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

export const recordsA = fixtureRecords();
export const recordsB: Array<Record<string, unknown>> = recordsA.slice(1).map((r) => ({ ...r, name: `B ${String(r['name'])}` }));
export const recordsC: Array<Record<string, unknown>> = recordsA
  .slice(0, 2)
  .map((r) => ({ ...r, id: `c_${String(r['id'])}`, aliases: [], name: `C ${String(r['name'])}` }));
export const SHARED_ID = String(recordsB[0]?.['id']);
export const ONLY_A_ID = String(recordsA[0]?.['id']);

export interface ServedInstance {
  /** A Platform profile URL every tenant accepts. */
  profile: string;
  origin: string;
  port: number;
  tenants: AssembledTenants;
  metrics: ServerMetrics;
}

/**
 * Defines the suite; returns the instances it serves (filled by its beforeAll) for a file's own tests.
 * `options(i)`: what instance `i` is assembled with besides the suite's settings (e.g. a memory budget).
 */
export function isolationSuite(
  title: string,
  home: () => Promise<TenantHome>,
  basePort: number,
  instances = 1,
  options: (instance: number) => Partial<TenantServeOptions> = () => ({}),
): () => readonly ServedInstance[] {
  let platforms: Platforms;
  const served: Array<ServedInstance & { metricsServer: MetricsServer; unregister: () => void }> = [];

  beforeAll(async () => {
    platforms = await startPlatforms();
    const h = await home();
    const limits = { defaultPageSize: 3 };
    await h.add(A, recordsA, { limits });
    // B: a profile may make two item searches a minute here, so a third is refused (429) — at B only.
    await h.add(B, recordsB, { limits, rateLimits: { itemSearch: { limit: 2, windowSeconds: 60 }, clientShare: 0 } });
    // C: a client address may make three binding requests a minute, counted across the process.
    await h.add(C_UNICODE, recordsC, { rateLimits: { perIp: { limit: 3, windowSeconds: 60 } } });
    for (let i = 0; i < instances; i++) {
      const port = basePort + i;
      const metrics = new ServerMetrics();
      const tenants = await assembleTenantsFor(h, port, metrics, options(i));
      const origin = `http://127.0.0.1:${port}`;
      const unregister = registerInProcess(origin, tenants.listener);
      const metricsServer = await startMetricsServer(metrics, { host: '127.0.0.1', port: 0 });
      served.push({ profile: platforms.good, origin, port, tenants, metrics, metricsServer, unregister });
    }
  });

  afterAll(async () => {
    for (const s of served) {
      s.unregister();
      await s.tenants.close();
      await s.metricsServer.close();
    }
    await platforms?.close();
  });

  for (let instance = 0; instance < instances; instance++) {
    describe(`${title}${instances > 1 ? ` (instance ${instance + 1} of ${instances})` : ''}`, () => {
      body(() => ({ ...served[instance]!, platforms, others: served.filter((_, i) => i !== instance) }));
    });
  }
  return () => served;
}

async function assembleTenantsFor(
  h: TenantHome,
  port: number,
  metrics: ServerMetrics,
  extra: Partial<TenantServeOptions>,
): Promise<AssembledTenants> {
  const { assembleTenants } = await import('../../src/tenants/index.js');
  return assembleTenants(
    {
      ...h.serveOptions(),
      host: '127.0.0.1',
      port,
      logger: createLogger({ level: 'silent' }),
      cursorSecret: 'tenants-test-process-secret-0123456789abcdef',
      allowLoopbackProfiles: true,
      trustProxy: true,
      resolveHost: testResolver,
      metrics,
      ...extra,
    },
    port,
  );
}

interface Served {
  origin: string;
  port: number;
  tenants: AssembledTenants;
  metricsServer: MetricsServer;
  platforms: Platforms;
  others: ReadonlyArray<{ origin: string; port: number }>;
}

function body(served: () => Served): void {
  /** The discovery failure of the negotiation test, counted in /metrics under its tenant only. */
  let redirected: RawResponse;
  /** Each call comes from an address of its own unless it names one: budgets have their own test. */
  let nextClient = 1;

  /** A REST call at `host`, from `client` (X-Forwarded-For, believed behind the proxy). */
  function rest(
    host: string,
    operation: 'search' | 'lookup',
    body: unknown,
    options: { profile?: string; client?: string } = {},
  ): Promise<RawResponse> {
    return postJson(`${served().origin}/ucp/locations/${operation}`, body, {
      host: `${host}:${served().port}`,
      'ucp-agent': `profile="${options.profile ?? served().platforms.good}"`,
      'x-forwarded-for': options.client ?? `198.51.100.${nextClient++}`,
    });
  }

  function names(res: RawResponse): string[] {
    const locations = (res.json as { locations?: Fixture[] }).locations ?? [];
    return locations.map((l) => l.name).sort();
  }

  function codes(res: RawResponse): string[] {
    return ((res.json as { messages?: Array<{ code: string }> }).messages ?? []).map((m) => m.code);
  }

  describe('R-T1 one process, three businesses chosen by host name', () => {
    it('R-T1 each tenant publishes its own profile naming its own https endpoints', async () => {
      expect([...served().tenants.domains].sort()).toEqual([A, B, C].sort());
      for (const domain of [A, B, C]) {
        const res = await rawRequest(`${served().origin}/.well-known/ucp`, { headers: { host: `${domain}:${served().port}` } });
        expect(res.status).toBe(200);
        const endpoints = JSON.stringify((res.json as { ucp: unknown }).ucp);
        expect(endpoints).toContain(`https://${domain}/ucp`);
        for (const other of [A, B, C].filter((d) => d !== domain)) expect(endpoints).not.toContain(other);
      }
    });

    it('R-T1 a search at one tenant returns only its own Locations', async () => {
      const [a, b, c] = await Promise.all([A, B, C].map((host) => rest(host, 'search', { pagination: { limit: 20 } })));
      const own = (res: RawResponse | undefined, records: ReadonlyArray<Record<string, unknown>>): void => {
        const found = names(res!);
        expect(found.length).toBeGreaterThan(0);
        // Every public Location of its own (the fixture holds a non-public one), and only those.
        expect(found.every((n) => records.some((r) => r['name'] === n))).toBe(true);
      };
      own(a, recordsA);
      own(b, recordsB);
      own(c, recordsC);
      expect(names(a!).length).toBe(names(b!).length + 1);
    });

    it('R-T1 a shared id is each tenant’s own Location; another tenant’s id is not_found', async () => {
      const atA = await rest(A, 'lookup', { ids: [SHARED_ID] });
      const atB = await rest(B, 'lookup', { ids: [SHARED_ID] });
      expect(names(atA)).toEqual([recordsA.find((r) => r['id'] === SHARED_ID)?.['name']]);
      expect(names(atB)).toEqual([`B ${String(recordsA.find((r) => r['id'] === SHARED_ID)?.['name'])}`]);
      const missing = await rest(B, 'lookup', { ids: [ONLY_A_ID] });
      expect(missing.status).toBe(200);
      expect(names(missing)).toEqual([]);
      expect(codes(missing)).toContain('not_found');
      const atC = await rest(C, 'lookup', { ids: [ONLY_A_ID] });
      expect(codes(atC)).toContain('not_found');
    });

    it('R-T1 a cursor pages at its own tenant and is invalid_cursor at another', async () => {
      const first = await rest(A, 'search', {});
      const cursor = (first.json as { pagination?: { cursor?: string } }).pagination?.cursor;
      expect(typeof cursor).toBe('string');
      const next = await rest(A, 'search', { pagination: { cursor } });
      expect(next.status).toBe(200);
      expect(names(next).length).toBeGreaterThan(0);
      expect(names(next).some((n) => names(first).includes(n))).toBe(false);
      // B holds the same ids: only the key tells the cursors apart, and B's key is its own.
      const elsewhere = await rest(B, 'search', { pagination: { cursor } });
      expect(elsewhere.status).toBe(400);
      expect(codes(elsewhere)).toEqual(['invalid_cursor']);
    });

    it('R-T1 negotiation and discovery failures are answered by the tenant asked', async () => {
      const incompatible = await rest(C, 'search', {}, { profile: served().platforms.lookupOnly });
      expect(incompatible.status).toBe(200);
      expect((incompatible.json as { ucp: { status: string } }).ucp.status).toBe('error');
      expect(codes(incompatible)).toEqual(['capabilities_incompatible']);
      const oldRelease = await rest(A, 'search', {}, { profile: served().platforms.oldVersion });
      expect(codes(oldRelease)).toEqual(['version_unsupported']);
      redirected = await rest(A, 'search', {}, { profile: served().platforms.redirect });
      expect(redirected.status).toBeGreaterThanOrEqual(400);
      expect(codes(redirected)[0]).toMatch(/^profile_/);
    });

    it('R-T1 a profile’s budget is its tenant’s own; a client address’s budget is the process’s', async () => {
      const profile = served().platforms.fresh('budget-b');
      const items = { filters: { items: ['sku-apple-gala'] } };
      expect((await rest(B, 'search', items, { profile })).status).toBe(200);
      expect((await rest(B, 'search', items, { profile })).status).toBe(200);
      const refused = await rest(B, 'search', items, { profile });
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBeDefined();
      // The same profile at A has A's budget, untouched by what was spent at B.
      expect((await rest(A, 'search', items, { profile })).status).toBe(200);

      // C allows an address three requests a minute, counting what it spent at A and B.
      const client = '203.0.113.9';
      expect((await rest(A, 'search', {}, { client })).status).toBe(200);
      expect((await rest(B, 'lookup', { ids: [SHARED_ID] }, { client })).status).toBe(200);
      expect((await rest(C, 'search', {}, { client })).status).toBe(200);
      expect((await rest(C, 'search', {}, { client })).status).toBe(429);
      expect((await rest(C, 'search', {}, { client: '203.0.113.10' })).status).toBe(200);
    });

    it('R-T1 MCP at a tenant lists that tenant’s tools and answers from its data', async () => {
      const call = (host: string): Promise<RawResponse> =>
        postJson(
          `${served().origin}/ucp/mcp`,
          {
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: {
              name: 'lookup_locations',
              arguments: { meta: { 'ucp-agent': { profile: served().platforms.good } }, location: { ids: [SHARED_ID] } },
            },
          },
          { host: `${host}:${served().port}`, 'x-forwarded-for': '198.51.100.2' },
        );
      const [a, b] = await Promise.all([call(A), call(B)]);
      const named = (res: RawResponse): string[] =>
        ((res.json as { result: { structuredContent: { locations: Fixture[] } } }).result.structuredContent.locations ?? []).map(
          (l) => l.name,
        );
      expect(named(a)).toEqual([recordsA.find((r) => r['id'] === SHARED_ID)?.['name']]);
      expect(named(b)[0]).toMatch(/^B /);
    });

    it('R-T1 an unknown host gets a plain 404 naming no tenant', async () => {
      for (const host of ['127.0.0.1', `unknown.example:${served().port}`, 'brand-a.example.evil.test', '[::1]']) {
        const res = await rawRequest(`${served().origin}/.well-known/ucp`, { headers: { host } });
        expect(res.status).toBe(404);
        expect(res.text).toBe(UNKNOWN_HOST_MESSAGE);
        for (const domain of [A, B, C, 'brand', 'xn--']) expect(res.text).not.toContain(domain);
      }
      const posted = await postJson(`${served().origin}/ucp/locations/search`, {}, { host: 'unknown.example' });
      expect(posted.status).toBe(404);
      expect(posted.text).toBe(UNKNOWN_HOST_MESSAGE);
    });

    it('R-T1 /metrics counts each tenant’s calls under its own label', async () => {
      const res = await rawRequest(served().metricsServer.url);
      expect(res.status).toBe(200);
      expect(String(res.headers['content-type'])).toMatch(/^text\/plain/);
      const sample = (name: string, labels: Record<string, string>): number => {
        const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
        return res.text
          .split('\n')
          .filter((line) => (line.startsWith(`${name}{`) || line.startsWith(`${name} `)) && wanted.every((w) => line.includes(w)))
          .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
      };
      for (const tenant of [A, B, C]) expect(sample('ucp_requests_total', { tenant, binding: 'rest' })).toBeGreaterThan(0);
      expect(sample('ucp_requests_total', { tenant: A, binding: 'mcp', operation: 'lookup', outcome: 'success' })).toBe(1);
      expect(sample('ucp_requests_total', { tenant: C, outcome: 'capabilities_incompatible' })).toBe(1);
      expect(sample('ucp_errors_total', { tenant: B, code: 'invalid_cursor' })).toBe(1);
      expect(sample('ucp_errors_total', { tenant: A, code: 'invalid_cursor' })).toBe(0);
      expect(sample('ucp_errors_total', { tenant: A, code: 'version_unsupported' })).toBe(1);
      expect(sample('ucp_budget_refusals_total', { tenant: B, budget: 'operation' })).toBe(1);
      expect(sample('ucp_budget_refusals_total', { tenant: C, budget: 'client' })).toBe(1);
      expect(sample('ucp_discovery_total', { tenant: A, result: codes(redirected)[0] ?? '' })).toBe(1);
      expect(sample('ucp_discovery_total', { tenant: B, result: codes(redirected)[0] ?? '' })).toBe(0);
      expect(sample('ucp_unknown_host_requests_total', {})).toBeGreaterThan(0);
      expect(sample('ucp_store_up', { tenant: B })).toBe(1);
      expect(sample('ucp_index_loads_total', { tenant: C })).toBe(1);
      expect(sample('ucp_request_duration_seconds_count', { tenant: B, operation: 'lookup', binding: 'rest' })).toBeGreaterThan(0);
    });
  });
}
