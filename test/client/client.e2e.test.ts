/**
 * The Platform SDK end to end against our business server on 127.0.0.1, over MCP and over REST
 * with the same test bodies. The business fetches the Platform profile from a loopback host
 * (it runs with allowLoopbackProfiles); the client is told the same document inline.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BusinessError,
  CapabilitiesIncompatibleError,
  DiscoveryError,
  RequestValidationError,
  ResponseValidationError,
  UcpLocationClient,
  buildPlatformProfile,
  distanceFrom,
  isOpenAt,
  type BindingName,
  type DiscoverOptions,
} from '../../src/client/index.js';
import { geodesicDistanceMeters } from '../../src/domain/geodesy.js';
import { LOOKUP_CAPABILITY, SEARCH_CAPABILITY, UCP_VERSION } from '../../src/protocol/types.js';
import { startFakeBusiness, type FakeBusiness } from './support/fake-business.js';
import { CENTER, datasetLines, startBusiness, startProfileHost, type Business, type ProfileHost } from './support/peers.js';

const LOCATIONS = 30;
const BATCH_MAX = 10;

/** Public Locations of the generated dataset (id → geo). */
const DATASET = datasetLines(LOCATIONS)
  .map((line) => JSON.parse(line) as { id: string; geo: { latitude: number; longitude: number }; visibility?: string })
  .filter((r) => r.visibility === undefined);

let business: Business;
let host: ProfileHost;
let profileUrl: string;
let lookupOnlyUrl: string;
let fake: FakeBusiness;

beforeAll(async () => {
  [business, host, fake] = await Promise.all([
    startBusiness({ locations: LOCATIONS, lookupBatchMax: BATCH_MAX }),
    startProfileHost(),
    startFakeBusiness(),
  ]);
  profileUrl = host.publish('/platform.json', buildPlatformProfile());
  lookupOnlyUrl = host.publish('/lookup-only.json', buildPlatformProfile({ capabilities: [LOOKUP_CAPABILITY] }));
}, 60_000);

afterAll(async () => {
  await Promise.all([business?.close(), host?.close(), fake?.close()]);
});

function options(transport: BindingName, extra: Partial<DiscoverOptions> = {}): DiscoverOptions {
  return { platformProfileUrl: profileUrl, platformProfile: buildPlatformProfile(), fetch: { allowLoopback: true }, transport, ...extra };
}

async function withClient<T>(url: string, opts: DiscoverOptions, body: (c: UcpLocationClient) => Promise<T>): Promise<T> {
  const client = await UcpLocationClient.discover(url, opts);
  try {
    return await body(client);
  } finally {
    await client.close();
  }
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe.each(['mcp', 'rest'] as const)('UcpLocationClient over %s', (transport) => {
  it('discovers the business and negotiates version, capabilities and transport (R-D1, R-G4)', async () => {
    await withClient(business.url, options(transport), async (client) => {
      const n = client.negotiated;
      expect(n.version).toBe(UCP_VERSION);
      expect(Object.keys(n.capabilities).sort()).toEqual([LOOKUP_CAPABILITY, SEARCH_CAPABILITY]);
      expect(n.transport).toBe(transport);
      expect(n.endpoint).toBe(transport === 'mcp' ? `${business.url}/ucp/mcp` : `${business.url}/ucp`);
      expect(n.transports.map((t) => t.transport)).toEqual(['mcp', 'rest']);
      expect(n.rejected).toEqual([]);
      expect(n.entities.filter((e) => e.source === 'business').every((e) => e.accepted && e.binding?.ok === true)).toBe(true);
      expect(client.supports('search') && client.supports('lookup')).toBe(true);
    });
  });

  it('returns exactly the Locations within the radius, never a private one (R-S4, R-S11)', async () => {
    const max = 2500;
    const expected = DATASET.filter((r) => geodesicDistanceMeters(CENTER, r.geo) <= max)
      .map((r) => r.id)
      .sort();
    expect(expected.length).toBeGreaterThan(3);
    await withClient(business.url, options(transport), async (client) => {
      const found: string[] = [];
      for await (const page of client.searchAll({ distance: { center: CENTER, max } }, { limit: 4 })) {
        for (const location of page.locations) {
          expect(distanceFrom(location, CENTER)).toBeLessThanOrEqual(max);
          found.push(location.id);
        }
      }
      expect(found.sort()).toEqual(expected);
      expect(found).not.toContain('loc_hidden');
    });
  });

  it('searchAll follows cursors through every page without duplicates (R-S9)', async () => {
    await withClient(business.url, options(transport), async (client) => {
      const pages = [];
      for await (const page of client.searchAll({}, { limit: 7 })) pages.push(page);
      const ids = pages.flatMap((p) => p.locations.map((l) => l.id));
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.sort()).toEqual(DATASET.map((r) => r.id).sort());
      expect(pages).toHaveLength(Math.ceil(DATASET.length / 7));
      expect(pages.slice(0, -1).every((p) => p.pagination?.has_next_page === true && p.locations.length === 7)).toBe(true);
      expect(pages.at(-1)?.pagination?.has_next_page).toBe(false);
    });
  });

  it('splits a lookup over the business batch limit and merges inputs (R-L1, R-L3)', async () => {
    const ids = [...DATASET.slice(0, 22).map((r) => r.id), 'loc_000', 'unknown-id', 'alias-0', 'alias-21'];
    await withClient(business.url, options(transport), async (client) => {
      expect(client.lookupBatchLimit).toBeUndefined();
      const response = await client.lookup(ids);
      expect(client.lookupBatchLimit).toBe(BATCH_MAX);
      const byId = new Map(response.locations.map((l) => [l.id, l]));
      expect([...byId.keys()].sort()).toEqual(
        DATASET.slice(0, 22)
          .map((r) => r.id)
          .sort(),
      );
      expect(response.locations).toHaveLength(22);
      expect(byId.get('loc_000')?.inputs).toEqual([{ id: 'loc_000' }, { id: 'alias-0' }]);
      expect(byId.get('loc_021')?.inputs).toEqual([{ id: 'loc_021' }, { id: 'alias-21' }]);
      expect(byId.get('loc_005')?.inputs).toEqual([{ id: 'loc_005' }]);
      expect(response.messages?.some((m) => m.code === 'batch_limit_applied') ?? false).toBe(false);
      expect(response.ucp.capabilities).toEqual({ [LOOKUP_CAPABILITY]: [{ version: UCP_VERSION }] });
    });
  });

  it('uses a configured batch limit from the first call (R-L3)', async () => {
    await withClient(business.url, options(transport, { lookupBatchLimit: 4 }), async (client) => {
      const response = await client.lookup(DATASET.slice(0, 9).map((r) => r.id));
      expect(response.locations).toHaveLength(9);
      expect(client.lookupBatchLimit).toBe(4);
    });
  });

  it('refines with filters, and its results agree with isOpenAt (R-S6)', async () => {
    // 10:45 in Kathmandu (open 09:00–18:00) and 19:45 (closed).
    const open = '2026-11-30T05:00:00Z';
    const closed = '2026-11-30T14:00:00Z';
    await withClient(business.url, options(transport), async (client) => {
      const whenOpen = await client.search({ distance: { center: CENTER, max: 1500 }, filters: { hours: { open_at: open } } });
      expect(whenOpen.locations.length).toBeGreaterThan(0);
      expect(whenOpen.locations.every((l) => isOpenAt(l, open) && !isOpenAt(l, closed))).toBe(true);
      const whenClosed = await client.search({ distance: { center: CENTER, max: 1500 }, filters: { hours: { open_at: closed } } });
      expect(whenClosed.locations).toEqual([]);
      const parking = await client.lookup(['loc_000', 'loc_001'], { filters: { amenities: ['dev.ucp.amenity.parking'] } });
      expect(parking.locations.map((l) => l.id)).toEqual(['loc_000']);
    });
  });

  it('refuses an invalid request before sending it, naming the pointer', async () => {
    await withClient(business.url, options(transport), async (client) => {
      const error = await rejection(client.search({ distance: { center: { latitude: 95, longitude: 0 }, max: 10 } }));
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).pointer).toBe('/distance/center/latitude');
      expect((error as RequestValidationError).code).toBe('request_invalid');
      expect(await rejection(client.lookup([]))).toBeInstanceOf(RequestValidationError);
    });
  });

  it('surfaces a business refusal with its UCP code (R-S4: a radius it cannot honour)', async () => {
    await withClient(business.url, options(transport), async (client) => {
      const error = await rejection(client.search({ distance: { center: CENTER, max: 9_000_000 } }));
      expect(error).toBeInstanceOf(BusinessError);
      const details = (error as BusinessError).details;
      expect(details.ucpCode).toBe('radius_too_large');
      expect(details.transport).toBe(transport);
      if (transport === 'mcp') expect(details.rpcCode).toBe(-32602);
      else expect(details.httpStatus).toBe(400);
      expect((error as Error).message).toContain('radius_too_large');
    });
  });

  it("reports the business's capabilities_incompatible outcome as a typed error (R-G5)", async () => {
    // The business fetches a profile without search, whatever the client believes.
    await withClient(business.url, options(transport, { platformProfileUrl: lookupOnlyUrl }), async (client) => {
      const error = await rejection(client.search({}));
      expect(error).toBeInstanceOf(CapabilitiesIncompatibleError);
      expect((error as CapabilitiesIncompatibleError).messages[0]).toMatchObject({
        code: 'capabilities_incompatible',
        severity: 'unrecoverable',
      });
      expect((await client.lookup(['loc_001'])).locations).toHaveLength(1);
    });
  });

  it('rejects a response that violates the schema with ResponseValidationError and its pointer', async () => {
    await withClient(fake.url, options(transport), async (client) => {
      fake.respondWith({
        ucp: { version: UCP_VERSION },
        locations: [
          { id: 'loc_1', name: 'Fine' },
          { id: 'loc_2', geo: { latitude: 10, longitude: 200 } },
        ],
      });
      const error = await rejection(client.search({}));
      expect(error).toBeInstanceOf(ResponseValidationError);
      const invalid = error as ResponseValidationError;
      expect(invalid.code).toBe('response_invalid');
      expect(invalid.issues.map((i) => i.pointer).sort()).toEqual(['/locations/1', '/locations/1/geo/longitude']);
      expect(invalid.message).toContain('/locations/1');

      fake.respondWith({ ucp: { version: '2025-01-01' }, locations: [] });
      const wrongVersion = await rejection(client.search({}));
      expect((wrongVersion as ResponseValidationError).pointer).toBe('/ucp/version');

      fake.respondWith({ ucp: { version: UCP_VERSION }, locations: [{ id: 'loc_1', name: 'No inputs' }] });
      expect(((await rejection(client.lookup(['loc_1']))) as ResponseValidationError).pointer).toBe('/locations/0');
    });
  });

  it('abandons a response body over the size cap', async () => {
    await withClient(fake.url, options(transport), async (client) => {
      fake.respondWith({ ucp: { version: UCP_VERSION }, locations: [{ id: 'loc_1', name: 'x'.repeat(9 * 1024 * 1024) }] });
      const error = await rejection(client.search({}));
      expect(error).toBeInstanceOf(DiscoveryError);
      expect((error as DiscoveryError).code).toBe('unreachable');
      expect((error as Error).message).toMatch(/more than \d+ bytes/);
    });
  });
});
