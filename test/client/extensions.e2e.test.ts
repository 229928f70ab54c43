/**
 * Third-party extensions: a negotiated extension's schema is fetched (https, through the
 * SafeFetcher) only after its authority binding passed, and composed with the pinned root schema,
 * so its fields are validated in responses. One that fails binding is rejected and never fetched.
 *
 * `example.com` is served over TLS by a loopback server with a throw-away CA; an injected resolver
 * maps it to 127.0.0.1, so nothing leaves the machine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DiscoveryError,
  ResponseValidationError,
  UcpLocationClient,
  buildPlatformProfile,
  type DiscoverOptions,
} from '../../src/client/index.js';
import type { Resolver } from '../../src/protocol/safe-fetch.js';
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

  it('fails discovery with schema_unavailable when a negotiated extension schema cannot be fetched', async () => {
    const other = await startFakeBusiness();
    try {
      const missing = `${schemaHost.origin('example.com')}/ucp/missing.json`;
      const profile = buildBusinessProfile(other.url, [SEARCH_CAPABILITY]);
      profile.ucp.capabilities = { ...profile.ucp.capabilities, [EXTENSION]: [extensionEntry(missing)] };
      other.server.route('/.well-known/ucp', json(profile, CACHEABLE));
      const opts = options();
      const platform = opts.platformProfile as ReturnType<typeof buildPlatformProfile>;
      platform.ucp.capabilities = { ...platform.ucp.capabilities, [EXTENSION]: [extensionEntry(missing)] };
      let error: unknown;
      try {
        await (await UcpLocationClient.discover(other.url, opts)).close();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DiscoveryError);
      expect((error as DiscoveryError).code).toBe('schema_unavailable');
      expect((error as DiscoveryError).url).toBe(missing);
      expect((error as Error).message).toContain('404');
    } finally {
      await other.close();
    }
  });
});
