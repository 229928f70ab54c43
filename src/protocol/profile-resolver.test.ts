/**
 * PlatformProfileResolver against a real HTTPS server on 127.0.0.1 with a
 * throw-away CA; host names are mapped by an injected resolver, and an
 * `onConnect` seatbelt refuses any non-loopback connection.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, UcpNegotiationError } from '../errors.js';
import { checkAddress } from './address-guard.js';
import { PlatformProfileResolver, toNegotiationError } from './profile-resolver.js';
import { SafeFetchError, SafeFetcher, type SafeFetcherOptions } from './safe-fetch.js';
import type { UcpProfile } from './types.js';
import { createTestPki, type TestPki } from '../../test/support/tls.js';
import { json, startTestServer, type TestServer } from '../../test/support/http-server.js';

const HOST = 'platform.test.example';

const platformProfile = (extra: Record<string, unknown> = {}): UcpProfile => ({
  ucp: {
    version: '2026-08-25',
    services: {
      'dev.ucp.common': [
        {
          version: '2026-08-25',
          spec: 'https://ucp.dev/2026-08-25/specification/overview',
          transport: 'mcp',
          schema: 'https://ucp.dev/2026-08-25/services/common/mcp.openrpc.json',
        },
      ],
    },
    capabilities: {
      'dev.ucp.common.location.search': [
        {
          version: '2026-08-25',
          spec: 'https://ucp.dev/2026-08-25/specification/common/location/search',
          schema: 'https://ucp.dev/2026-08-25/schemas/common/location_search.json',
        },
      ],
      ...extra,
    },
    payment_handlers: {},
  },
});

let pki: TestPki;
let server: TestServer;
let dns: Record<string, string[]>;
let now: number;

function fetcherOptions(overrides: Partial<SafeFetcherOptions> = {}): Omit<SafeFetcherOptions, 'allowLoopback'> {
  return {
    ca: pki.ca,
    now: () => now,
    resolve: (hostname) => {
      const addresses = dns[hostname];
      if (!addresses) return Promise.reject(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }));
      return Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
    },
    onConnect: ({ address }) => {
      if (checkAddress(address).range !== 'loopback') throw new Error(`test tried to connect to ${address}`);
    },
    ...overrides,
  };
}

const resolver = (overrides: Partial<SafeFetcherOptions> = {}, allowLoopback = true): PlatformProfileResolver =>
  new PlatformProfileResolver({ allowLoopback, fetcherOptions: fetcherOptions(overrides) });

async function negotiationError(promise: Promise<unknown>): Promise<UcpNegotiationError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof UcpNegotiationError) return error;
    throw error;
  }
  throw new Error('expected a UcpNegotiationError');
}

const at = (path: string): string => `${server.origin(HOST)}${path}`;
const hits = (path: string): number => server.requests.filter((r) => r.path === path).length;

beforeAll(async () => {
  pki = createTestPki();
  server = await startTestServer({ tls: pki.issue([HOST]) });
});

afterAll(async () => {
  await server.close();
  pki.dispose();
});

beforeEach(() => {
  dns = { [HOST]: ['127.0.0.1'] };
  now = Date.UTC(2026, 8, 1, 12);
});

describe('PlatformProfileResolver (R-G2, R-P3)', () => {
  it('fetches, validates and returns the platform profile, dropping rejected entries (R-D4, R-N2)', async () => {
    const document = platformProfile({
      'com.example.location.hijack': [{ version: '2026-08-25', spec: 'https://x.example/s', schema: 'https://evil.example/s.json' }],
    });
    server.route('/agent.json', json(document, { 'cache-control': 'public, max-age=300', etag: '"p1"' }));
    const report = await resolver().resolveWithReport(at('/agent.json'));
    expect(report.source).toBe('network');
    expect(Object.keys(report.profile.ucp.capabilities ?? {})).toEqual(['dev.ucp.common.location.search']);
    expect(report.rejected.map((r) => r.name)).toEqual(['com.example.location.hijack']);
  });

  it('serves a resolved profile from the cache within its lifetime (TTL floor 60 s)', async () => {
    server.route('/cached.json', json(platformProfile(), { 'cache-control': 'max-age=5' }));
    const r = resolver();
    const first = await r.resolve(at('/cached.json'));
    now += 59_000;
    const again = await r.resolveWithReport(at('/cached.json'));
    expect(again.source).toBe('cache');
    expect(again.profile).toEqual(first);
    expect(hits('/cached.json')).toBe(1);
  });

  it('answers trusted (pre-approved) platforms from configuration without any fetch', async () => {
    let connects = 0;
    const r = new PlatformProfileResolver({
      trusted: { 'https://known.platform.example/profile.json': platformProfile() },
      fetcherOptions: fetcherOptions({
        onConnect: () => void (connects += 1),
        resolve: () => Promise.reject(new Error('no DNS expected')),
      }),
    });
    const report = await r.resolveWithReport('https://known.platform.example/profile.json');
    expect(report.source).toBe('trusted');
    expect(report.profile.ucp.version).toBe('2026-08-25');
    expect(connects).toBe(0);
  });

  it('refuses a host under .invalid at once, without asking DNS (RFC 6761: it never resolves)', async () => {
    let lookups = 0;
    const r = new PlatformProfileResolver({
      trusted: { 'https://local.ucp-location.invalid/platform/0123456789abcdef.json': platformProfile() },
      fetcherOptions: fetcherOptions({ resolve: () => ((lookups += 1), Promise.reject(new Error('no DNS expected'))) }),
    });
    expect((await r.resolveWithReport('https://local.ucp-location.invalid/platform/0123456789abcdef.json')).source).toBe('trusted');
    const error = await negotiationError(r.resolve('https://local.ucp-location.invalid/platform/typo.json'));
    expect(error.code).toBe('invalid_profile_url');
    expect(error.message).toContain('does not resolve');
    expect(lookups).toBe(0);
  });

  it('rejects an invalid trusted profile at construction, as a configuration error', () => {
    expect(
      () => new PlatformProfileResolver({ trusted: { 'https://p.example/x.json': { ucp: { version: 'soon' } } as unknown as UcpProfile } }),
    ).toThrow(ConfigError);
    expect(() => new PlatformProfileResolver({ trusted: { 'not a url': platformProfile() } })).toThrow(ConfigError);
  });

  it('maps a structurally invalid profile to profile_malformed with the failing pointers', async () => {
    server.route('/broken.json', json({ ucp: { version: '2026-08-25', capabilities: {} } }));
    const error = await negotiationError(resolver().resolve(at('/broken.json')));
    expect(error.code).toBe('profile_malformed');
    expect(error.message).toContain('/ucp/services');
  });

  it('maps a non-JSON document to profile_malformed', async () => {
    server.route('/html.json', (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('<!doctype html>'));
    const error = await negotiationError(resolver().resolve(at('/html.json')));
    expect(error.code).toBe('profile_malformed');
    expect(error.cause).toBeInstanceOf(SafeFetchError);
  });

  it('maps a 404 and a redirect to profile_unreachable', async () => {
    expect((await negotiationError(resolver().resolve(at('/missing.json')))).code).toBe('profile_unreachable');
    server.route('/moved.json', (_req, res) => res.writeHead(301, { location: at('/agent.json') }).end());
    const redirect = await negotiationError(resolver().resolve(at('/moved.json')));
    expect(redirect.code).toBe('profile_unreachable');
    expect(redirect.message).toMatch(/redirect \(HTTP 301\)/);
  });

  it('refuses a URL resolving to an internal address as invalid_profile_url, without echoing the address (R-P3)', async () => {
    dns['sneaky.test.example'] = ['169.254.169.254'];
    const error = await negotiationError(resolver({}, false).resolve('https://sneaky.test.example/p.json'));
    expect(error.code).toBe('invalid_profile_url');
    expect(error.message).toContain('https://sneaky.test.example/p.json');
    expect(error.message).not.toContain('169.254');
    // The operator still sees the precise cause.
    expect((error.cause as SafeFetchError).message).toContain('169.254.169.254');
  });

  it('maps a missing, malformed or non-https URL to invalid_profile_url', async () => {
    for (const input of ['', 'nope', 'http://platform.test.example/p.json', 'https://u:p@platform.test.example/p.json']) {
      expect((await negotiationError(resolver({}, false).resolve(input))).code).toBe('invalid_profile_url');
    }
  });

  it('passes back-off and rate limits through as profile_unreachable with a retry hint', async () => {
    server.route('/down.json', (_req, res) => res.writeHead(503).end());
    const r = resolver({ backoff: { baseMs: 30_000 } });
    await negotiationError(r.resolve(at('/down.json')));
    const error = await negotiationError(r.resolve(at('/down.json')));
    expect(error.code).toBe('profile_unreachable');
    expect(error.message).toMatch(/retry in 30 s/);
    expect(hits('/down.json')).toBe(1);
  });

  it('uses an injected fetcher when given one', async () => {
    const fetcher = new SafeFetcher({ registry: { 'https://reg.example/p.json': platformProfile() } });
    const r = new PlatformProfileResolver({ fetcher });
    expect((await r.resolveWithReport('https://reg.example/p.json')).source).toBe('registry');
  });
});

describe('toNegotiationError', () => {
  it('keeps the UCP code and the cause, and builds the message from the reason only', () => {
    const cause = new SafeFetchError('refused_address', 'https://x.example/p resolves to 10.1.2.3 (private)');
    const error = toNegotiationError('https://x.example/p', cause);
    expect(error).toMatchObject({ code: 'invalid_profile_url', cause });
    expect(error.message).not.toContain('10.1.2.3');
  });
});
