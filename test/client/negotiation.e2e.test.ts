/**
 * Every way discovery and negotiation can fail, each with its own typed error and code, against
 * hand-written business profiles served from 127.0.0.1 (and the real business where a working
 * peer is needed). Names that "resolve" to a private address go through an injected resolver:
 * nothing ever connects outside loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CapabilitiesIncompatibleError,
  DiscoveryError,
  ProfileError,
  TransportUnavailableError,
  UcpLocationClient,
  VersionUnsupportedError,
  buildPlatformProfile,
  type DiscoverOptions,
} from '../../src/client/index.js';
import type { ConnectAttempt } from '../../src/protocol/safe-fetch.js';
import { LOOKUP_CAPABILITY, SEARCH_CAPABILITY, UCP_VERSION, type UcpProfile } from '../../src/protocol/types.js';
import { buildBusinessProfile } from '../../src/transport/business-profile.js';
import { json } from '../support/http-server.js';
import { CACHEABLE, privateResolver, startBusiness, startProfileHost, type Business, type ProfileHost } from './support/peers.js';

let business: Business;
let platformHost: ProfileHost;
const hosts: ProfileHost[] = [];

beforeAll(async () => {
  [business, platformHost] = await Promise.all([startBusiness({ locations: 5 }), startProfileHost()]);
}, 60_000);

afterAll(async () => {
  await Promise.all([business?.close(), platformHost?.close(), ...hosts.map((h) => h.close())]);
});

/** A fresh loopback origin (the fetcher backs off per origin, so failures never share one). */
async function newHost(): Promise<ProfileHost> {
  const host = await startProfileHost();
  hosts.push(host);
  return host;
}

/** Publishes `profile` as the business profile of a fresh origin and returns that origin. */
async function businessAt(profile: unknown): Promise<string> {
  const host = await newHost();
  host.publish('/.well-known/ucp', profile);
  return host.origin;
}

function options(extra: Partial<DiscoverOptions> = {}, connects: ConnectAttempt[] = []): DiscoverOptions {
  return {
    platformProfileUrl: platformHost.publish('/platform.json', buildPlatformProfile()),
    platformProfile: buildPlatformProfile(),
    ...extra,
    fetch: { allowLoopback: true, resolve: privateResolver, onConnect: (a) => void connects.push(a), ...extra.fetch },
  };
}

async function discoveryError(url: string, opts: DiscoverOptions): Promise<unknown> {
  try {
    const client = await UcpLocationClient.discover(url, opts);
    await client.close();
  } catch (error) {
    return error;
  }
  throw new Error('discovery was expected to fail');
}

/** Replaces every occurrence of the release string (versions and the URLs that carry it). */
function atRelease(profile: UcpProfile, release: string): UcpProfile {
  return JSON.parse(JSON.stringify(profile).replaceAll(UCP_VERSION, release)) as UcpProfile;
}

describe('negotiation failures', () => {
  it('bad binding: a capability schema on the wrong host is rejected, never fetched, and named (R-N2, R-N3)', async () => {
    const profile = buildBusinessProfile('http://127.0.0.1:9', [SEARCH_CAPABILITY, LOOKUP_CAPABILITY]);
    const caps = profile.ucp.capabilities as Record<string, { schema?: string }[]>;
    (caps[SEARCH_CAPABILITY] as { schema?: string }[])[0] = {
      ...caps[SEARCH_CAPABILITY]?.[0],
      schema: 'https://schemas.evil.example/location_search.json',
    };
    (caps[LOOKUP_CAPABILITY] as { schema?: string }[])[0] = {
      ...caps[LOOKUP_CAPABILITY]?.[0],
      schema: 'https://ucp.dev@schemas.evil.example/location_lookup.json',
    };
    const connects: ConnectAttempt[] = [];
    const error = await discoveryError(await businessAt(profile), options({}, connects));
    expect(error).toBeInstanceOf(ProfileError);
    const profileError = error as ProfileError;
    expect(profileError.code).toBe('binding_failed');
    expect(profileError.subject).toBe('business_profile');
    expect(profileError.rejected.map((r) => r.name).sort()).toEqual([LOOKUP_CAPABILITY, SEARCH_CAPABILITY]);
    expect(profileError.message).toContain('schemas.evil.example');
    expect(profileError.message).toContain('authority binding');
    // Only the loopback profile host was ever contacted.
    expect(connects.length).toBeGreaterThan(0);
    expect(connects.every((c) => c.hostname === '127.0.0.1')).toBe(true);
  });

  it('version mismatch: no release in common (R-D6, R-G3)', async () => {
    const profile = atRelease(buildBusinessProfile('http://127.0.0.1:9', [SEARCH_CAPABILITY]), '2027-01-01');
    const error = await discoveryError(await businessAt(profile), options());
    expect(error).toBeInstanceOf(VersionUnsupportedError);
    const v = error as VersionUnsupportedError;
    expect(v.code).toBe('version_unsupported');
    expect(v.businessVersions).toEqual(['2027-01-01']);
    expect(v.platformVersion).toBe(UCP_VERSION);
    expect(v.message).toContain('2027-01-01');
  });

  it('follows supported_versions to the leaf profile of the platform release (R-D6)', async () => {
    const host = await newHost();
    const leafUrl = host.publish(`/ucp/${UCP_VERSION}.json`, buildBusinessProfile(business.url, [SEARCH_CAPABILITY, LOOKUP_CAPABILITY]));
    const current = atRelease(buildBusinessProfile(business.url, [SEARCH_CAPABILITY]), '2027-01-01');
    current.ucp.supported_versions = { [UCP_VERSION]: leafUrl };
    host.publish('/.well-known/ucp', current);
    const client = await UcpLocationClient.discover(host.origin, options());
    try {
      expect(client.negotiated.version).toBe(UCP_VERSION);
      expect(client.negotiated.leafProfileUrl).toBe(leafUrl);
      expect(client.negotiated.businessVersions).toEqual(['2027-01-01', UCP_VERSION]);
      expect((await client.search({}, { limit: 2 })).locations).toHaveLength(2);
    } finally {
      await client.close();
    }
  });

  it('refuses a leaf profile that is not the release it is listed under (R-D6)', async () => {
    const host = await newHost();
    const leafUrl = host.publish('/leaf.json', atRelease(buildBusinessProfile(business.url, [SEARCH_CAPABILITY]), '2026-01-11'));
    const current = atRelease(buildBusinessProfile(business.url, [SEARCH_CAPABILITY]), '2027-01-01');
    current.ucp.supported_versions = { [UCP_VERSION]: leafUrl };
    host.publish('/.well-known/ucp', current);
    const error = await discoveryError(host.origin, options());
    expect(error).toBeInstanceOf(ProfileError);
    expect((error as ProfileError).code).toBe('leaf_profile_invalid');
    expect((error as ProfileError).issues[0]?.pointer).toBe('/ucp/version');
  });

  it('empty intersection: capabilities_incompatible, with why each capability fell (R-G4)', async () => {
    const empty = buildPlatformProfile({ capabilities: [] });
    const error = await discoveryError(
      business.url,
      options({ platformProfile: empty, platformProfileUrl: platformHost.publish('/empty.json', empty) }),
    );
    expect(error).toBeInstanceOf(CapabilitiesIncompatibleError);
    const c = error as CapabilitiesIncompatibleError;
    expect(c.code).toBe('capabilities_incompatible');
    expect(c.dropped.map((d) => d.name).sort()).toEqual([LOOKUP_CAPABILITY, SEARCH_CAPABILITY]);
  });

  it('redirecting profile: refused, the target is never requested (R-N3)', async () => {
    const target = await newHost();
    target.publish('/.well-known/ucp', buildBusinessProfile(business.url, [SEARCH_CAPABILITY]));
    const redirecting = await newHost();
    redirecting.server.route(
      '/.well-known/ucp',
      (_req, res) => void res.writeHead(301, { location: `${target.origin}/.well-known/ucp` }).end(),
    );
    const error = await discoveryError(redirecting.origin, options());
    expect(error).toBeInstanceOf(DiscoveryError);
    expect((error as DiscoveryError).code).toBe('redirect_refused');
    expect((error as DiscoveryError).subject).toBe('business_profile');
    expect((error as Error).message).toMatch(/redirect/i);
    expect(target.server.requests).toHaveLength(0);
  });

  it('private-IP profile: a name resolving to 10.0.0.7 is refused before any connection (R-N4)', async () => {
    const connects: ConnectAttempt[] = [];
    const error = await discoveryError('https://shop.private.test', options({ platformProfile: buildPlatformProfile() }, connects));
    expect(error).toBeInstanceOf(DiscoveryError);
    expect((error as DiscoveryError).code).toBe('address_refused');
    expect((error as Error).message).toContain('10.0.0.7');
    expect(connects.filter((c) => c.address === '10.0.0.7')).toEqual([]);
  });

  it('private-IP endpoint: an endpoint resolving to a private address is refused too (R-N4)', async () => {
    const profile = buildBusinessProfile('https://shop.private.test', [SEARCH_CAPABILITY, LOOKUP_CAPABILITY]);
    const error = await discoveryError(await businessAt(profile), options());
    expect(error).toBeInstanceOf(DiscoveryError);
    expect((error as DiscoveryError).code).toBe('address_refused');
    expect((error as DiscoveryError).subject).toBe('endpoint');
  });

  it('malformed profiles: not JSON, or not a UCP profile, with the pointer (R-D1)', async () => {
    const html = await newHost();
    html.server.route(
      '/.well-known/ucp',
      (_req, res) => void res.writeHead(200, { 'content-type': 'text/html', ...CACHEABLE }).end('<html></html>'),
    );
    const notJson = await discoveryError(html.origin, options());
    expect(notJson).toBeInstanceOf(ProfileError);
    expect((notJson as ProfileError).code).toBe('profile_malformed');

    const invalid = await discoveryError(await businessAt({ ucp: { version: 'draft', services: {} } }), options());
    expect((invalid as ProfileError).code).toBe('profile_malformed');
    expect((invalid as ProfileError).issues.map((i) => i.pointer)).toEqual(
      expect.arrayContaining(['/ucp/version', '/ucp/payment_handlers']),
    );
  });

  it('unreachable business: a closed port is a discovery failure', async () => {
    const host = await newHost();
    const origin = host.origin;
    await host.close();
    const error = await discoveryError(origin, options());
    expect(error).toBeInstanceOf(DiscoveryError);
    expect((error as DiscoveryError).code).toBe('unreachable');
  });

  it('a forced transport the business does not offer: transport_unavailable', async () => {
    const profile = buildBusinessProfile(business.url, [SEARCH_CAPABILITY]);
    profile.ucp.services['dev.ucp.common'] = (profile.ucp.services['dev.ucp.common'] ?? []).filter((s) => s.transport === 'rest');
    const url = await businessAt(profile);
    const error = await discoveryError(url, options({ transport: 'mcp' }));
    expect(error).toBeInstanceOf(TransportUnavailableError);
    expect((error as TransportUnavailableError).offered).toEqual(['rest']);
    const client = await UcpLocationClient.discover(url, options());
    expect(client.negotiated.transport).toBe('rest');
    await client.close();
  });

  it('auto falls back to REST when the MCP endpoint cannot be initialised', async () => {
    const host = await newHost();
    const profile = buildBusinessProfile(business.url, [SEARCH_CAPABILITY, LOOKUP_CAPABILITY]);
    const mcp = profile.ucp.services['dev.ucp.common']?.find((s) => s.transport === 'mcp');
    if (mcp === undefined) throw new Error('fixture has no mcp binding');
    mcp.endpoint = `${host.origin}/no-mcp-here`;
    host.server.route('/.well-known/ucp', json(profile, CACHEABLE));
    const client = await UcpLocationClient.discover(host.origin, options());
    try {
      expect(client.negotiated.transport).toBe('rest');
      expect(client.negotiated.transportNote).toMatch(/MCP .* failed/);
      expect((await client.lookup(['loc_001'])).locations).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});
