/**
 * Third-party extensions: a negotiated extension's schema is fetched (https, through the
 * SafeFetcher) only after its authority binding passed, and composed with the pinned root schema,
 * so its fields are validated in responses. One that fails binding is rejected and never fetched.
 *
 * `example.com` is served over TLS by a loopback server with a throw-away CA; an injected resolver
 * maps it to 127.0.0.1, so nothing leaves the machine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseValidationError, UcpLocationClient, buildPlatformProfile, type DiscoverOptions } from '../../src/client/index.js';
import type { Resolver } from '../../src/protocol/safe-fetch.js';
import { LOCATION_SEARCH_SCHEMA_URL, pinnedSchemaRegistry } from '../../src/protocol/schemas.js';
import { LOOKUP_CAPABILITY, SEARCH_CAPABILITY, UCP_VERSION, type CapabilityEntity } from '../../src/protocol/types.js';
import { buildBusinessProfile } from '../../src/transport/business-profile.js';
import { json, startTestServer, type TestServer } from '../support/http-server.js';
import { createTestPki, type TestPki } from '../support/tls.js';
import { startFakeBusiness, type FakeBusiness } from './support/fake-business.js';
import { CACHEABLE, startProfileHost, type ProfileHost } from './support/peers.js';

const EXTENSION = 'com.example.location.parking_fee';
const ROGUE = 'org.parking.location.valet';

let pki: TestPki;
let schemaHost: TestServer;
let fake: FakeBusiness;
let platformHost: ProfileHost;
let extensionUrl: string;

const resolve: Resolver = (hostname) =>
  hostname === 'example.com'
    ? Promise.resolve([{ address: '127.0.0.1', family: 4 }])
    : Promise.reject(Object.assign(new Error(`test resolver: unknown host ${hostname}`), { code: 'ENOTFOUND' }));

function extensionEntry(schema: string): CapabilityEntity {
  return { version: UCP_VERSION, spec: 'https://example.com/ucp/parking_fee', schema, extends: SEARCH_CAPABILITY };
}

beforeAll(async () => {
  pki = createTestPki();
  [schemaHost, fake, platformHost] = await Promise.all([
    startTestServer({ tls: pki.issue(['example.com']) }),
    startFakeBusiness(),
    startProfileHost(),
  ]);
  extensionUrl = `${schemaHost.origin('example.com')}/ucp/parking_fee.json`;
  schemaHost.route(
    '/ucp/parking_fee.json',
    json(
      {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $id: extensionUrl,
        name: EXTENSION,
        $defs: {
          [SEARCH_CAPABILITY]: {
            $defs: {
              search_response: {
                type: 'object',
                properties: {
                  locations: { type: 'array', items: { type: 'object', properties: { parking_fee: { type: 'number', minimum: 0 } } } },
                },
              },
            },
          },
        },
      },
      CACHEABLE,
    ),
  );
  const profile = buildBusinessProfile(fake.url, [SEARCH_CAPABILITY, LOOKUP_CAPABILITY]);
  profile.ucp.capabilities = {
    ...profile.ucp.capabilities,
    [EXTENSION]: [extensionEntry(extensionUrl)],
    // Declared under a host that does not own the name: must be rejected before any fetch.
    [ROGUE]: [{ ...extensionEntry(`${schemaHost.origin('example.com')}/ucp/valet.json`), spec: 'https://example.com/ucp/valet' }],
  };
  fake.server.route('/.well-known/ucp', json(profile, CACHEABLE));
}, 60_000);

afterAll(async () => {
  await Promise.all([schemaHost?.close(), fake?.close(), platformHost?.close()]);
  pki?.dispose();
});

function options(): DiscoverOptions {
  const platform = buildPlatformProfile();
  platform.ucp.capabilities = {
    ...platform.ucp.capabilities,
    [EXTENSION]: [extensionEntry(extensionUrl)],
    [ROGUE]: [extensionEntry('https://parking.org/ucp/valet.json')],
  };
  return {
    platformProfileUrl: platformHost.publish('/platform.json', platform),
    platformProfile: platform,
    fetch: { allowLoopback: true, resolve, ca: pki.ca },
    transport: 'rest',
  };
}

describe('negotiated extensions', () => {
  it('fetches a bound extension schema and validates its fields in responses (R-N2, R-N3)', async () => {
    const client = await UcpLocationClient.discover(fake.url, options());
    try {
      expect(Object.keys(client.negotiated.capabilities).sort()).toEqual([EXTENSION, LOOKUP_CAPABILITY, SEARCH_CAPABILITY]);
      expect(client.negotiated.rejected.map((r) => [r.source, r.name, r.bindingFailed])).toEqual([['business', ROGUE, true]]);
      // The rogue declaration's schema was never requested; the bound one was, once.
      expect(schemaHost.requests.map((r) => r.path)).toEqual(['/ucp/parking_fee.json']);

      const capabilities = { [SEARCH_CAPABILITY]: [{ version: UCP_VERSION }], [EXTENSION]: [{ version: UCP_VERSION }] };
      fake.respondWith({ ucp: { version: UCP_VERSION, capabilities }, locations: [{ id: 'loc_1', name: 'Garage', parking_fee: 3.5 }] });
      expect((await client.search({})).locations[0]).toMatchObject({ parking_fee: 3.5 });

      fake.respondWith({ ucp: { version: UCP_VERSION, capabilities }, locations: [{ id: 'loc_1', name: 'Garage', parking_fee: -1 }] });
      let error: unknown;
      try {
        await client.search({});
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect((error as ResponseValidationError).pointer).toBe('/locations/0/parking_fee');
    } finally {
      await client.close();
    }
  });

  it('drops, with its reason, an extension whose schema cannot be fetched, and goes on without it (R-N3)', async () => {
    const other = await startFakeBusiness();
    try {
      const missing = `${schemaHost.origin('example.com')}/ucp/missing.json`;
      const profile = buildBusinessProfile(other.url, [SEARCH_CAPABILITY]);
      profile.ucp.capabilities = { ...profile.ucp.capabilities, [EXTENSION]: [extensionEntry(missing)] };
      other.server.route('/.well-known/ucp', json(profile, CACHEABLE));
      const opts = options();
      const platform = opts.platformProfile as ReturnType<typeof buildPlatformProfile>;
      platform.ucp.capabilities = { ...platform.ucp.capabilities, [EXTENSION]: [extensionEntry(missing)] };
      const client = await UcpLocationClient.discover(other.url, opts);
      try {
        expect(Object.keys(client.negotiated.capabilities)).toEqual([SEARCH_CAPABILITY]);
        const dropped = client.negotiated.dropped.find((d) => d.name === EXTENSION);
        expect(dropped?.reason).toBe('schema_unavailable');
        expect(dropped?.detail).toContain(missing);
        expect(dropped?.detail).toContain('404');
        other.respondWith({
          ucp: { version: UCP_VERSION, capabilities: { [SEARCH_CAPABILITY]: [{ version: UCP_VERSION }] } },
          locations: [],
        });
        expect((await client.search({})).locations).toEqual([]);
      } finally {
        await client.close();
      }
    } finally {
      await other.close();
    }
  });
});

describe('standard capabilities by normalized schema URL (R-N2, R-N3)', () => {
  const pinned = (file: string): string => `https://ucp.dev/${UCP_VERSION}/schemas/common/${file}`;

  async function discoverWithSchemas(search: string, lookup: string): Promise<UcpLocationClient> {
    const business = await startFakeBusiness();
    const profile = buildBusinessProfile(business.url, [SEARCH_CAPABILITY, LOOKUP_CAPABILITY]);
    const entry = (name: string, schema: string): CapabilityEntity[] =>
      (profile.ucp.capabilities?.[name] ?? []).map((e) => ({ ...e, schema }));
    profile.ucp.capabilities = {
      [SEARCH_CAPABILITY]: entry(SEARCH_CAPABILITY, search),
      [LOOKUP_CAPABILITY]: entry(LOOKUP_CAPABILITY, lookup),
    };
    business.server.route('/.well-known/ucp', json(profile, CACHEABLE));
    try {
      const client = await UcpLocationClient.discover(business.url, { ...options(), platformProfile: buildPlatformProfile() });
      const close = client.close.bind(client);
      client.close = async () => {
        await close();
        await business.close();
      };
      return client;
    } catch (error) {
      await business.close();
      throw error;
    }
  }

  it('recognizes a pinned schema spelled with upper case, a trailing dot or the default port, without fetching it', async () => {
    const client = await discoverWithSchemas(
      pinned('location_search.json').replace('https://ucp.dev/', 'HTTPS://UCP.DEV./'),
      pinned('location_lookup.json').replace('https://ucp.dev/', 'https://ucp.dev:443/'),
    );
    try {
      expect(Object.keys(client.negotiated.capabilities).sort()).toEqual([LOOKUP_CAPABILITY, SEARCH_CAPABILITY]);
      expect(client.negotiated.dropped).toEqual([]);
      expect(client.supports('search') && client.supports('lookup')).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('drops a capability whose schema is neither pinned nor fetchable, with its reason; the other operation still works', async () => {
    // Bound to ucp.dev (so not rejected by binding), but not a pinned document; the test resolver
    // knows no ucp.dev, so fetching it fails.
    const unknown = pinned('location_lookup_v9.json');
    const client = await discoverWithSchemas(pinned('location_search.json'), unknown);
    try {
      expect(Object.keys(client.negotiated.capabilities)).toEqual([SEARCH_CAPABILITY]);
      expect(client.supports('lookup')).toBe(false);
      expect(client.supports('search')).toBe(true);
      const dropped = client.negotiated.dropped.find((d) => d.name === LOOKUP_CAPABILITY);
      expect(dropped).toMatchObject({ reason: 'schema_unavailable' });
      expect(dropped?.detail).toContain(unknown);
      // It was tried, under the fetch rules, and the drop says so (fails before: never fetched).
      expect(dropped?.detail).toContain(`tried: GET ${unknown}: failed:`);
    } finally {
      await client.close();
    }
  });

  it('fetches a root capability schema the business declares but the SDK does not pin, and validates with it (seed 002; fails before: dropped untried)', async () => {
    const ucpDev = await startTestServer({ tls: pki.issue(['ucp.dev']) });
    const business = await startFakeBusiness();
    try {
      const url = `${ucpDev.origin('ucp.dev')}/${UCP_VERSION}/schemas/common/location_search_v2.json`;
      // The pinned search schema, published under another URL: its relative references made
      // absolute (to the pinned documents they name), its $id the new URL.
      const original = pinnedSchemaRegistry().getSchema(LOCATION_SEARCH_SCHEMA_URL) ?? {};
      const absolute = (value: unknown): unknown => {
        if (Array.isArray(value)) return value.map(absolute);
        if (typeof value !== 'object' || value === null) return value;
        return Object.fromEntries(
          Object.entries(value).map(([k, v]) => [
            k,
            k === '$ref' && typeof v === 'string' && !v.startsWith('#') ? new URL(v, LOCATION_SEARCH_SCHEMA_URL).href : absolute(v),
          ]),
        );
      };
      ucpDev.route('/' + url.split('/').slice(3).join('/'), json({ ...(absolute(original) as object), $id: url }, CACHEABLE));
      const profile = buildBusinessProfile(business.url, [SEARCH_CAPABILITY]);
      profile.ucp.capabilities = {
        [SEARCH_CAPABILITY]: (profile.ucp.capabilities?.[SEARCH_CAPABILITY] ?? []).map((e) => ({ ...e, schema: url })),
      };
      business.server.route('/.well-known/ucp', json(profile, CACHEABLE));
      const both: Resolver = (hostname) =>
        hostname === 'ucp.dev' ? Promise.resolve([{ address: '127.0.0.1', family: 4 }]) : resolve(hostname);
      const client = await UcpLocationClient.discover(business.url, {
        ...options(),
        platformProfile: buildPlatformProfile(),
        fetch: { allowLoopback: true, resolve: both, ca: pki.ca },
      });
      try {
        expect(client.negotiated.dropped).toEqual([]);
        expect(client.supports('search')).toBe(true);
        expect(ucpDev.requests.map((r) => r.path)).toEqual([new URL(url).pathname]);
        business.respondWith({
          ucp: { version: UCP_VERSION, capabilities: { [SEARCH_CAPABILITY]: [{ version: UCP_VERSION }] } },
          locations: [{ id: 'loc_1', name: 'Shop' }],
        });
        expect((await client.search({})).locations.map((l) => l.id)).toEqual(['loc_1']);
      } finally {
        await client.close();
      }
    } finally {
      await Promise.all([business.close(), ucpDev.close()]);
    }
  });
});
